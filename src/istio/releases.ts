// What differs between Istio releases, in one table: every injection behaviour the model turns on or off
// by release, with the first release that has it (and the last, where Istio dropped it), the patch
// releases of older minors it was backported to, what it is, and the Istio source file it comes from. Code
// asks the table by name, has(version, 'data.ProxyImage'), so a release difference is written once, here,
// and a misspelt name does not compile. tools/istio-source/check.mjs reads each entry's file at every
// release tag (and every patch tag with --patches) and fails where the table disagrees.
//
// A release is a minor release (1.22: its .0) or a patch release (1.22.4); `first: '1.10.1'` means the
// 1.10 series from 1.10.1 and every later minor release; `backports: ['1.23.6']` the 1.23 series from
// 1.23.6 only.
//
// Public API
//   has(version, name)          whether the release has the behaviour
//   BEHAVIOURS                  the table: name → { first, last?, backports?, what, source }
//   Behaviour                   the names (a union of string literals)
//   KUBE_API                    the k8s.io/api minor version of each release's go.mod
//   kubeApiMinorOf(version)
//
// Proto fields that only appear in a release (the MeshConfig and ProxyConfig field lists of mesh.ts and
// proxyconfig.ts) stay beside their descriptors, each with its release; what detection looks for is
// version.ts's DETECTION_MARKS.
//
// Upstream: none (what differs between Istio releases; each entry names the Istio file it comes from)

import { atLeast, KNOWN_RELEASES, type IstioVersion, type Release } from './numbering.js';

/** A patch release of a numbered minor release: '1.26.4'. */
export type PatchRelease = `${Exclude<Release, 'master'>}.${number}`;

export interface BehaviourEntry {
  /** The first release that has it (a patch release: that minor from that patch on). */
  first: Release | PatchRelease;
  /** The last release that has it, where a later one dropped it. */
  last?: Release | PatchRelease;
  /** Patch releases of minors before `first` that took it over (each: its minor from that patch on). */
  backports?: readonly PatchRelease[];
  /** One line: what the behaviour is. */
  what: string;
  /** Where it lives in Istio's source (istio/istio unless said). */
  source: string;
}

const INJECT = 'pkg/kube/inject/inject.go';
const TEMPLATE = 'pkg/kube/inject/template.go';
const WEBHOOK = 'pkg/kube/inject/webhook.go';
const PROBES = 'pkg/kube/inject/app_probe.go';
const MESH = 'pkg/config/mesh/mesh.go';

// Names are grouped by the part of istiod they describe; within a group, by first release.
export const BEHAVIOURS = {
  // ---- inject.SidecarTemplateData: the fields templates see
  'data.pointerObjectMeta': { first: '1.5', last: '1.8', what: 'ObjectMeta and Spec are pointers (values later)', source: INJECT },
  'data.pointerTypeMeta': { first: '1.5', last: '1.10', what: 'TypeMeta and DeploymentMeta are pointers (values later)', source: INJECT },
  'data.Revision': { first: '1.9', what: '.Revision: the injector\'s revision', source: INJECT },
  'data.EstimatedConcurrency': { first: '1.10.1', last: '1.17', what: '.EstimatedConcurrency: the proxy\'s concurrency estimated from its CPU', source: INJECT },
  'data.ProxyImage': { first: '1.13', what: '.ProxyImage: the proxy image, from values, ProxyConfig.image and the pod\'s annotation', source: INJECT },
  'data.ProxyUID': { first: '1.20', what: '.ProxyUID: 1337, or the namespace\'s OpenShift UID range', source: INJECT },
  'data.ProxyGID': { first: '1.20', what: '.ProxyGID: 1337, or the namespace\'s OpenShift group range', source: INJECT },
  'data.CompliancePolicy': { first: '1.21', backports: ['1.19.8', '1.20.4'], what: '.CompliancePolicy: istiod\'s COMPLIANCE_POLICY', source: INJECT },
  'data.DeploymentMeta.namespacedName': { first: '1.22', what: '.DeploymentMeta is a types.NamespacedName (an ObjectMeta before)', source: INJECT },
  'data.InboundTrafficPolicyMode': { first: '1.22', what: '.InboundTrafficPolicyMode: the mesh\'s inbound traffic policy mode', source: INJECT },
  'data.NativeSidecars': { first: '1.27', what: '.NativeSidecars: whether this pod gets a native (init container) sidecar; right after .Revision', source: INJECT },
  'data.ProxyInitImage': { first: 'master', what: '.ProxyInitImage: the image of the proxy\'s init containers', source: INJECT },

  // ---- template functions
  'func.render': { first: '1.5', last: '1.13', what: 'render: parse the argument as a template and execute it over the same data', source: INJECT },
  'func.toJson.istio': { first: '1.5', last: '1.18', what: 'toJson is Istio\'s toJSON(map[string]string), not Sprig\'s', source: TEMPLATE },
  'func.protoToJSON.cleanProxyConfig': { first: '1.6', what: 'protoToJSON drops the ProxyConfig fields equal to DefaultProxyConfig (cleanProxyConfig)', source: TEMPLATE },
  'func.appendMultusNetwork': { first: '1.8', what: 'appendMultusNetwork is a template function', source: TEMPLATE },
  'func.excludeInterfaces': { first: '1.15', what: 'excludeInterfaces is a template function', source: TEMPLATE },
  'func.omit': { first: '1.18', what: 'omit is Istio\'s (map[string]string), Sprig\'s before', source: TEMPLATE },
  'func.strdict': { first: '1.18', what: 'strdict is a template function', source: TEMPLATE },
  'func.toJsonMap': { first: '1.18', what: 'toJsonMap is a template function', source: TEMPLATE },
  'func.mergeMaps': { first: '1.21', what: 'mergeMaps is a template function', source: TEMPLATE },
  'func.appendMultusNetwork.namespaced': { first: '1.26', backports: ['1.23.6', '1.24.4', '1.25.1'], what: 'appendMultusNetwork reads namespace/name and writes {"name", "namespace"}', source: TEMPLATE },
  'func.omitNil': { first: '1.30', backports: ['1.28.6', '1.29.1'], what: 'omitNil is a template function', source: TEMPLATE },
  'func.otelResourceAttributes': { first: '1.30', what: 'otelResourceAttributes is a template function', source: TEMPLATE },

  // ---- ProxyConfig: its Go types and DefaultProxyConfig
  'proxyConfig.gogo': { first: '1.5', last: '1.13', what: 'the Go types are gogo protobuf\'s (types.Duration, ...; mesh.go imports gogo/protobuf/types), golang/protobuf\'s later', source: MESH },
  'proxyConfig.default.pilot': { first: '1.5', last: '1.5', what: 'DefaultProxyConfig points at istio-pilot:15010 in plain text: no status port, Concurrency 0, no tracing', source: MESH },
  'proxyConfig.default.parentShutdownDuration': { first: '1.5', last: '1.16', what: 'DefaultProxyConfig sets parentShutdownDuration 60s', source: MESH },
  'proxyConfig.default.remoteServices': { first: '1.5', last: '1.8', what: 'DefaultProxyConfig sets empty envoyMetricsService and envoyAccessLogService', source: MESH },
  'proxyConfig.default.concurrency2': { first: '1.6', last: '1.17', what: 'DefaultProxyConfig sets concurrency 2 (unset means from the CPU limit later)', source: MESH },
  'proxyConfig.default.zipkin': { first: '1.6', last: '1.21', what: 'DefaultProxyConfig traces to zipkin.istio-system:9411', source: MESH },
  'proxyConfig.concurrencyWrapper': { first: '1.7', what: 'concurrency is a google.protobuf.Int32Value (.Concurrency.GetValue), a plain int32 before', source: MESH },
  'proxyConfig.default.terminationDrainDuration': { first: '1.7', what: 'DefaultProxyConfig sets terminationDrainDuration 5s', source: MESH },
  'proxyConfig.default.mutualTLS': { first: '1.7', what: 'DefaultProxyConfig sets controlPlaneAuthPolicy MUTUAL_TLS (NONE before)', source: MESH },
  'proxyConfig.mergeProxyMetadata': { first: '1.11', what: 'proxy.istio.io/config\'s proxyMetadata is merged key by key over the mesh\'s (replaced whole before)', source: MESH },
  'proxyConfig.clusterNameOneof': { first: '1.13', what: 'serviceCluster and tracingServiceName are the ClusterName oneof (mesh.go sets ClusterName)', source: MESH },

  // ---- MeshConfig: DefaultMeshConfig and ApplyMeshConfig
  'mesh.default.v15': { first: '1.5', last: '1.5', what: 'DefaultMeshConfig of 1.5: connectTimeout 1s, accessLogFile /dev/stdout, autoMtls off, no ingress class, no trust domain', source: MESH },
  'mesh.default.protocolDetection100ms': { first: '1.5', last: '1.6.4', what: 'DefaultMeshConfig\'s protocolDetectionTimeout is 100ms (5s in 1.7, 0s from 1.8)', source: MESH },
  'mesh.default.mixer': { first: '1.6', last: '1.7', what: 'DefaultMeshConfig sets the Mixer fields: reportBatchMaxEntries 100, reportBatchMaxTime 1s, disableMixerHttpReports, disablePolicyChecks', source: MESH },
  'mesh.default.sdsUdsPath': { first: '1.6', last: '1.7', what: 'DefaultMeshConfig sets sdsUdsPath unix:./etc/istio/proxy/SDS (which asks the injector for fsGroup 1337)', source: MESH },
  'mesh.default.thriftConfig': { first: '1.6', last: '1.16', what: 'DefaultMeshConfig sets an empty thriftConfig', source: MESH },
  'mesh.default.protocolDetection5s': { first: '1.6.5', last: '1.7', what: 'DefaultMeshConfig\'s protocolDetectionTimeout is 5s', source: MESH },
  'mesh.default.extensionProviders': { first: '1.11', what: 'DefaultMeshConfig has default extension providers and defaultProviders (the prometheus, stackdriver and envoy providers from 1.12)', source: MESH },
  'mesh.default.envoyAccessLogOnly': { first: '1.11', last: '1.11', what: 'DefaultMeshConfig\'s only extension provider is the envoy file access log, the default access log', source: MESH },
  'mesh.extensionProvidersByName': { first: '1.11', what: 'a mesh config\'s extensionProviders replace the defaults by name, not the whole list', source: MESH },
  'mesh.default.dnsRefreshRate60s': { first: '1.14', what: 'DefaultMeshConfig\'s dnsRefreshRate is 60s (5s before)', source: MESH },
  'mesh.default.enablePrometheusMerge': { first: '1.18', what: 'DefaultMeshConfig sets enablePrometheusMerge true (unset before, which the webhook takes as true)', source: MESH },
  'mesh.default.proxyInboundListenPort': { first: '1.18', what: 'DefaultMeshConfig sets proxyInboundListenPort 15006', source: MESH },
  'mesh.default.inboundTrafficPolicy': { first: '1.22', what: 'DefaultMeshConfig sets inboundTrafficPolicy mode PASSTHROUGH', source: MESH },

  // ---- the injector config
  'config.templates': { first: '1.9', what: 'the injector config has templates, defaultTemplates and aliases (one SidecarInjectionSpec template before)', source: INJECT },

  // ---- the injection around the templates
  'inject.statusVersion': { first: '1.5', last: '1.8', what: 'sidecar.istio.io/status starts with a version, the sha256 of the template as configured', source: INJECT },
  'inject.specConcurrency': { first: '1.5', last: '1.8', what: 'the old injector adds --concurrency to istio-proxy from its CPU limit (else request) when the args set none above 0', source: 'pkg/kube/inject/concurrency.go' },
  'inject.podRedirectAnnot': { first: '1.5', last: '1.7', what: 'the SidecarInjectionSpec\'s podRedirectAnnot is added to the pod\'s annotations (1.8 still reads it and applies nothing)', source: INJECT },
  'inject.legacyFSGroup': { first: '1.5', last: '1.8', what: 'the injector gives the pod fsGroup 1337 (from 1.9 the templates carry it)', source: WEBHOOK },
  'inject.prometheusMerge': { first: '1.6', what: 'applyPrometheusMerge: prometheus.io annotations point at the agent, the app\'s go to ISTIO_PROMETHEUS_ANNOTATIONS', source: WEBHOOK },
  'inject.proxyConfigAnnotation': { first: '1.6.1', what: 'the pod\'s proxy.istio.io/config is merged over the mesh\'s defaultConfig', source: INJECT },
  'inject.holdFromValues': { first: '1.7', what: 'holdApplicationUntilProxyStarts is read from values (global.proxy)', source: INJECT },
  'inject.specRevisionLabel': { first: '1.7', last: '1.8', what: 'the old injector labels the pod istio.io/rev with its revision', source: WEBHOOK },
  'inject.legacyFSGroupFlag': { first: '1.8', last: '1.8', what: 'ENABLE_LEGACY_FSGROUP_INJECTION decides the fsGroup (before, a mesh sdsUdsPath)', source: 'pilot/pkg/features/pilot.go' },
  'inject.holdFromProxyConfig': { first: '1.8', what: 'holdApplicationUntilProxyStarts is read from ProxyConfig (mesh, pod annotation), not only from values', source: INJECT },
  'inject.clusterInfo': { first: '1.8', what: 'the values\' cluster and network (the pod\'s network label first) replace the proxy\'s env; the network labels the pod', source: 'pkg/kube/inject/inject.go (overwriteClusterInfo)' },
  'inject.specNetworkLabel': { first: '1.8', last: '1.8', what: 'the old injector labels the pod with the network of the proxy\'s ISTIO_META_NETWORK', source: WEBHOOK },
  'inject.overridesAnnotation': { first: '1.9', what: 'a user\'s own istio-proxy fields are recorded in proxy.istio.io/overrides', source: WEBHOOK },
  'inject.statusRevision': { first: '1.11', what: 'the sidecar.istio.io/status annotation ends with the injector\'s revision', source: INJECT },
  'inject.containerRestartPolicy': { first: '1.19', what: 'a template\'s container restartPolicy survives istiod\'s decoding (k8s.io/api 0.28)', source: 'go.mod (k8s.io/api)' },
  'inject.adjustInitContainerUser': { first: '1.23', backports: ['1.20.7', '1.21.3', '1.22.1'], what: 'a user\'s istio-proxy runAsUser/runAsGroup carry over to the init containers', source: WEBHOOK },
  'inject.prometheusScrapeTargets': { first: 'master', what: 'prometheus.istio.io/scrape-targets, and a merge-scraped port is checked (not the agent\'s, not one Istio owns)', source: WEBHOOK },

  // ---- what istiod's and istioctl's libraries write
  'output.yamlNoLineWrap': { first: '1.7', last: '1.9', what: 'sigs.k8s.io/yaml writes long strings on one line (gopkg.in/yaml.v2 v2.3.0); folded at 80 columns before and after', source: 'go.mod (gopkg.in/yaml.v2)' },

  // ---- native sidecars
  'native.envFlag': { first: '1.19', what: 'istiod has ENABLE_NATIVE_SIDECARS', source: 'pilot/pkg/features/pilot.go (experimental.go 1.21 to 1.26)' },
  'native.podAnnotation': { first: '1.24', what: 'the pod\'s sidecar.istio.io/nativeSidecar overrides ENABLE_NATIVE_SIDECARS', source: INJECT },
  'native.autoFromKubeVersion': { first: '1.27', what: 'ENABLE_NATIVE_SIDECARS is on by default when the nodes run Kubernetes 1.33 or later', source: 'pilot/pkg/features/pilot.go' },

  // ---- probe rewriting (the agent's status server takes the application's probes)
  'probes.startup': { first: '1.7', what: 'startup probes are rewritten', source: PROBES },
  'probes.noEmptyProbers': { first: '1.8', what: 'no ISTIO_KUBE_APP_PROBERS when nothing is rewritten (`{}` before)', source: PROBES },
  'probes.tcp': { first: '1.12', what: 'TCP probes are rewritten', source: PROBES },
  'probes.grpc': { first: '1.13', what: 'gRPC probes are rewritten', source: PROBES },
  'probes.mergePrevious': { first: '1.17', what: 'a re-injected pod\'s ISTIO_KUBE_APP_PROBERS is merged, not appended again', source: WEBHOOK },
  'probes.initContainers': { first: '1.19', what: 'init containers\' probes are rewritten too', source: PROBES },
  'probes.lifecycle': { first: '1.25', what: 'lifecycle preStop/postStart handlers are rewritten', source: PROBES },
} as const satisfies Record<string, BehaviourEntry>;

export type Behaviour = keyof typeof BEHAVIOURS;

/** The first release whose istiod turns native sidecars on by itself on Kubernetes 1.33+ (auto). */
export const NATIVE_AUTO_FROM: string = BEHAVIOURS['native.autoFromKubeVersion'].first;

function parts(r: Release | PatchRelease): [number, number, number] {
  const [a, b, c] = r.split('.');
  return [Number(a), Number(b), c === undefined ? 0 : Number(c)];
}

/** Whether the release has the behaviour: from its first release, up to its last, or a backport. */
export function has(v: IstioVersion, name: Behaviour): boolean {
  const b: BehaviourEntry = BEHAVIOURS[name];
  if (reached(v, b.first) && (b.last === undefined || !beyond(v, b.last))) return true;
  return (b.backports ?? []).some((r) => inSeries(v, r));
}

function reached(v: IstioVersion, r: Release | PatchRelease): boolean {
  if (r === 'master') return v.master === true;
  // the oldest release modelled stands for any before it (a hand-made {major: 1, minor: 4})
  if (r === KNOWN_RELEASES[0]) return true;
  const [major, minor, patch] = parts(r);
  if (!atLeast(v, major, minor)) return false;
  return v.master === true || v.major !== major || v.minor !== minor || (v.patch ?? 0) >= patch;
}

function beyond(v: IstioVersion, r: Release | PatchRelease): boolean {
  if (r === 'master') return false;
  const [major, minor, patch] = parts(r);
  if (r.split('.').length === 2) return atLeast(v, major, minor + 1);
  return atLeast(v, major, minor + 1) || (v.major === major && v.minor === minor && (v.patch ?? 0) > patch);
}

/** The patch release's minor series from that patch on. */
function inSeries(v: IstioVersion, r: PatchRelease): boolean {
  const [major, minor, patch] = parts(r);
  return v.master !== true && v.major === major && v.minor === minor && (v.patch ?? 0) >= patch;
}

/**
 * The k8s.io/api minor version of each release's go.mod: a field the API gained later is unknown to that
 * istiod and dropped when it decodes the pod. Oldest first; a minor release's entry holds for the later
 * ones, a patch release's only for the rest of its series (1.13.9 took up 0.24, 1.14.0 has 0.23).
 */
export const KUBE_API: readonly (readonly [Release | PatchRelease, number])[] = [
  ['1.5', 17], ['1.6', 18], ['1.8', 19], ['1.9', 20], ['1.11', 21], ['1.12', 22], ['1.13', 23], ['1.13.9', 24],
  ['1.14.5', 24], ['1.15', 24], ['1.16', 25], ['1.17', 26], ['1.18', 27], ['1.19', 28], ['1.21', 29],
  ['1.22', 30], ['1.24', 31], ['1.25', 32], ['1.26.4', 33], ['1.27', 33], ['1.28', 34], ['1.29', 35], ['master', 36],
];

/** The k8s.io/api minor version the release was built with. */
export function kubeApiMinorOf(v: IstioVersion): number {
  let kube = KUBE_API[0]![1];
  for (const [r, k] of KUBE_API) {
    if (r.split('.').length === 3 ? inSeries(v, r as PatchRelease) : reached(v, r)) kube = k;
  }
  return kube;
}
