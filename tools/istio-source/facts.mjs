// What each entry of src/istio/releases.ts says, read from Istio's source at one tag: for every behaviour
// of the table, the file it lives in and a reading of that file that tells whether the release has it.
// check.mjs runs every reading at every tag and compares it with has(release, name).
//
// A reading gets `src`, which reads a file of the tag (undefined when the tag lacks it) and finds Go
// functions and structs in it; it returns true or false. Readings are kept to what the code says (a
// field, a function, a value in a literal), so a new release is checked by running them again.

import { funcBody, goConstants, lastReturn, parseGoExpr, protoJSON, structFields } from './golit.mjs';

const INJECT = 'pkg/kube/inject/inject.go';
const TEMPLATE = 'pkg/kube/inject/template.go';
const WEBHOOK = 'pkg/kube/inject/webhook.go';
const PROBES = 'pkg/kube/inject/app_probe.go';
const MESH = 'pkg/config/mesh/mesh.go';
const FEATURES = 'pilot/pkg/features/pilot.go';
const CONSTANTS = 'pkg/config/constants/constants.go';

/** The source of one tag, as the readings see it. */
export class TagSource {
  /** @param {(path: string) => string | undefined} read */
  constructor(read) {
    this.readFile = read;
    this.cache = new Map();
  }
  read(path) {
    if (!this.cache.has(path)) this.cache.set(path, this.readFile(path));
    return this.cache.get(path);
  }
  /** The text of the first of the files that exists ('' when none). */
  any(...paths) {
    return paths.map((p) => this.read(p)).filter((t) => t !== undefined).join('\n');
  }
  /** The body of a Go function of the file, '' when it is not there. */
  fn(path, name) {
    const t = this.read(path);
    return (t && funcBody(t, name)) ?? '';
  }
  /**
   * DefaultProxyConfig and DefaultMeshConfig as jsonpb prints them ({ proxy, mesh }), the constants they
   * name read from pkg/config/constants and mesh.go itself.
   */
  defaults() {
    if (!this.cache.has('#defaults')) {
      const constants = { ...goConstants(this.read(CONSTANTS) ?? ''), ...goConstants(this.read(MESH) ?? '') };
      const proxy = protoJSON(parseGoExpr(lastReturn(this.fn(MESH, 'DefaultProxyConfig'))), { constants });
      const mesh = protoJSON(parseGoExpr(lastReturn(this.fn(MESH, 'DefaultMeshConfig'))), { constants, proxyConfig: proxy });
      this.cache.set('#defaults', { proxy, mesh });
    }
    return this.cache.get('#defaults');
  }
  /** SidecarTemplateData's fields: [name, type]. */
  templateData() {
    return structFields(this.any(INJECT), 'SidecarTemplateData') ?? [];
  }
  /** The function map istiod gives the templates: its keys, and the body of each function's definition. */
  funcNames() {
    const text = this.any(TEMPLATE, INJECT);
    const m = /template\.FuncMap\{/.exec(text);
    if (!m) return new Set();
    let depth = 0;
    let i = m.index + m[0].length - 1;
    const start = i;
    for (; i < text.length; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}' && --depth === 0) break;
    }
    const body = text.slice(start, i);
    // keys at the map's own level (`"name": fn,` lines), and those added after it (funcMap["render"] = ...)
    const names = new Set([...body.matchAll(/^\t\t"(\w+)":/gm)].map((x) => x[1]));
    for (const x of text.matchAll(/funcMap\["(\w+)"\]\s*=/g)) names.add(x[1]);
    return names;
  }
}

const field = (name) => (src) => src.templateData().some(([n]) => n === name);
const fieldType = (name) => (src) => src.templateData().find(([n]) => n === name)?.[1];
const defaultProxyConfig = (src) => src.fn(MESH, 'DefaultProxyConfig');
const defaultMeshConfig = (src) => src.fn(MESH, 'DefaultMeshConfig');
const pc = (src) => src.defaults().proxy;
const mc = (src) => src.defaults().mesh;
/** The production branch of DefaultProxyConfig (1.6 has a TestMode one before it). */
const proxyDefaults = (src) => {
  const b = defaultProxyConfig(src);
  return b.slice(b.lastIndexOf('\n\treturn '));
};

/**
 * Each behaviour of releases.ts: the file it is read from, and the reading.
 * @type {Record<string, { file: string, has: (src: TagSource) => boolean }>}
 */
export const FACTS = {
  // ---- inject.SidecarTemplateData
  'data.pointerObjectMeta': { file: INJECT, has: (s) => fieldType('ObjectMeta')(s)?.startsWith('*') === true },
  'data.pointerTypeMeta': { file: INJECT, has: (s) => fieldType('TypeMeta')(s)?.startsWith('*') === true },
  'data.Revision': { file: INJECT, has: field('Revision') },
  'data.EstimatedConcurrency': { file: INJECT, has: field('EstimatedConcurrency') },
  'data.ProxyImage': { file: INJECT, has: field('ProxyImage') },
  'data.ProxyUID': { file: INJECT, has: field('ProxyUID') },
  'data.ProxyGID': { file: INJECT, has: field('ProxyGID') },
  'data.CompliancePolicy': { file: INJECT, has: field('CompliancePolicy') },
  'data.DeploymentMeta.namespacedName': { file: INJECT, has: (s) => fieldType('DeploymentMeta')(s) === 'types.NamespacedName' },
  'data.InboundTrafficPolicyMode': { file: INJECT, has: field('InboundTrafficPolicyMode') },
  'data.NativeSidecars': { file: INJECT, has: field('NativeSidecars') },
  'data.ProxyInitImage': { file: INJECT, has: field('ProxyInitImage') },

  // ---- template functions
  'func.render': { file: INJECT, has: (s) => s.funcNames().has('render') },
  'func.appendMultusNetwork': { file: TEMPLATE, has: (s) => s.funcNames().has('appendMultusNetwork') },
  'func.excludeInterfaces': { file: TEMPLATE, has: (s) => s.funcNames().has('excludeInterfaces') },
  'func.omit': { file: TEMPLATE, has: (s) => s.funcNames().has('omit') },
  'func.strdict': { file: TEMPLATE, has: (s) => s.funcNames().has('strdict') },
  'func.toJsonMap': { file: TEMPLATE, has: (s) => s.funcNames().has('toJsonMap') },
  'func.mergeMaps': { file: TEMPLATE, has: (s) => s.funcNames().has('mergeMaps') },
  'func.omitNil': { file: TEMPLATE, has: (s) => s.funcNames().has('omitNil') },
  'func.otelResourceAttributes': { file: TEMPLATE, has: (s) => s.funcNames().has('otelResourceAttributes') },
  'func.toJson.istio': { file: TEMPLATE, has: (s) => s.funcNames().has('toJson') },
  'func.protoToJSON.cleanProxyConfig': { file: TEMPLATE, has: (s) => /cleanProxyConfig\(/.test(s.fn(TEMPLATE, 'protoToJSON') + s.fn(INJECT, 'protoToJSON')) },
  // appendMultusNetwork writes {"name": N, "namespace": NS} for a namespace/name network
  'func.appendMultusNetwork.namespaced': { file: TEMPLATE, has: (s) => /"namespace"/.test(s.fn(TEMPLATE, 'appendMultusNetwork') + s.fn(INJECT, 'appendMultusNetwork')) },

  // ---- ProxyConfig
  'proxyConfig.gogo': { file: MESH, has: (s) => /"github\.com\/gogo\/protobuf\/types"/.test(s.read(MESH) ?? '') },
  'proxyConfig.default.pilot': { file: MESH, has: (s) => pc(s).discoveryAddress === 'istio-pilot:15010' },
  'proxyConfig.default.parentShutdownDuration': { file: MESH, has: (s) => pc(s).parentShutdownDuration === '60s' },
  // Concurrency: 2 written as a plain int (1.6) or as &types.Int32Value{Value: 2} (the wrapper)
  'proxyConfig.concurrencyWrapper': { file: MESH, has: (s) => !/Concurrency:\s*\d/.test(proxyDefaults(s)) },
  'proxyConfig.default.concurrency2': { file: MESH, has: (s) => pc(s).concurrency === 2 },
  'proxyConfig.default.zipkin': { file: MESH, has: (s) => pc(s).tracing?.zipkin?.address === 'zipkin.istio-system:9411' },
  'proxyConfig.default.terminationDrainDuration': { file: MESH, has: (s) => pc(s).terminationDrainDuration === '5s' },
  'proxyConfig.default.remoteServices': { file: MESH, has: (s) => pc(s).envoyMetricsService !== undefined },
  'proxyConfig.default.mutualTLS': { file: MESH, has: (s) => pc(s).controlPlaneAuthPolicy === 'MUTUAL_TLS' },
  'proxyConfig.clusterNameOneof': { file: MESH, has: (s) => /ClusterName:\s*&meshconfig\.ProxyConfig_ServiceCluster\{/.test(proxyDefaults(s)) },

  // ---- MeshConfig
  'mesh.default.v15': { file: MESH, has: (s) => mc(s).connectTimeout === '1s' },
  'mesh.default.protocolDetection100ms': { file: MESH, has: (s) => mc(s).protocolDetectionTimeout === '0.100s' },
  'mesh.default.protocolDetection5s': { file: MESH, has: (s) => mc(s).protocolDetectionTimeout === '5s' },
  'mesh.default.mixer': { file: MESH, has: (s) => mc(s).reportBatchMaxEntries !== undefined },
  'mesh.default.thriftConfig': { file: MESH, has: (s) => mc(s).thriftConfig !== undefined },
  'mesh.default.sdsUdsPath': { file: MESH, has: (s) => mc(s).sdsUdsPath === 'unix:./etc/istio/proxy/SDS' },
  'mesh.default.enablePrometheusMerge': { file: MESH, has: (s) => mc(s).enablePrometheusMerge === true },
  'mesh.default.extensionProviders': { file: MESH, has: (s) => mc(s).extensionProviders !== undefined },
  'mesh.default.envoyAccessLogOnly': { file: MESH, has: (s) => mc(s).defaultProviders?.accessLogging?.[0] === 'envoy' },
  'mesh.extensionProvidersByName': { file: MESH, has: (s) => /prevExtensionProviders|extensionProviders/.test(s.fn(MESH, 'ApplyMeshConfig')) },
  'mesh.default.proxyInboundListenPort': { file: MESH, has: (s) => mc(s).proxyInboundListenPort === 15006 },
  'mesh.default.dnsRefreshRate60s': { file: MESH, has: (s) => mc(s).dnsRefreshRate === '60s' },
  'mesh.default.inboundTrafficPolicy': { file: MESH, has: (s) => mc(s).inboundTrafficPolicy !== undefined },

  // ---- the injector config
  'config.templates': { file: INJECT, has: (s) => (structFields(s.read(INJECT) ?? '', 'Config') ?? []).some(([n]) => n === 'Templates') },

  // ---- the injection around the templates
  'inject.statusVersion': { file: INJECT, has: (s) => (structFields(s.any(INJECT, WEBHOOK), 'SidecarInjectionStatus') ?? []).some(([n]) => n === 'Version') },
  'inject.specRevisionLabel': { file: WEBHOOK, has: (s) => /addLabels\(pod\.Labels,/.test(s.read(WEBHOOK) ?? '') && /label\.IstioRev:\s+revision,/.test(s.read(WEBHOOK) ?? '') },
  'inject.specNetworkLabel': { file: WEBHOOK, has: (s) => /func topologyValues\(sic \*SidecarInjectionSpec\)/.test(s.read(WEBHOOK) ?? '') },
  'inject.specConcurrency': { file: INJECT, has: (s) => /applyConcurrency\(sic\.Containers\)/.test(s.read(INJECT) ?? '') },
  'proxyConfig.mergeProxyMetadata': { file: MESH, has: (s) => /ProxyMetadata\[/.test(s.read(MESH) ?? '') || /origMetadata/.test(s.read(MESH) ?? '') },
  'inject.podRedirectAnnot': { file: INJECT, has: (s) => /spec\.PodRedirectAnnot\[/.test(s.any(INJECT, WEBHOOK)) },
  'inject.legacyFSGroup': { file: WEBHOOK, has: (s) => /FSGroup:\s*&grp/.test(s.read(WEBHOOK) ?? '') },
  'inject.legacyFSGroupFlag': { file: WEBHOOK, has: (s) => /features\.EnableLegacyFSGroupInjection/.test(s.read(WEBHOOK) ?? '') },
  'inject.prometheusMerge': { file: WEBHOOK, has: (s) => /"prometheus\.io\/path"\]?\s*=\s*"\/stats\/prometheus"/.test(s.read(WEBHOOK) ?? '') },
  'inject.proxyConfigAnnotation': { file: INJECT, has: (s) => /annotation\.ProxyConfig\.Name\]/.test(s.read(INJECT) ?? '') },
  'inject.clusterInfo': { file: INJECT, has: (s) => /GetMultiCluster\(\)\.GetClusterName\(\)|"multiCluster",\s*"clusterName"/.test(s.read(INJECT) ?? '') },
  'inject.holdFromValues': { file: INJECT, has: (s) => /"holdApplicationUntilProxyStarts"|GetHoldApplicationUntilProxyStarts\(\)/.test(s.any(INJECT, WEBHOOK)) },
  'inject.holdFromProxyConfig': { file: INJECT, has: (s) => /DefaultConfig\.HoldApplicationUntilProxyStarts|proxyConfig\.HoldApplicationUntilProxyStarts|GetHoldApplicationUntilProxyStarts\(\)/i.test(s.any(INJECT, WEBHOOK)) },
  'inject.statusRevision': { file: INJECT, has: (s) => (structFields(s.any(INJECT, WEBHOOK), 'SidecarInjectionStatus') ?? []).some(([n]) => n === 'Revision') },
  'inject.overridesAnnotation': { file: INJECT, has: (s) => /ProxyOverrides|proxy\.istio\.io\/overrides/.test(s.any(INJECT, WEBHOOK)) },
  // corev1.Container has RestartPolicy from k8s.io/api 0.28 (what istiod decodes a template's output into)
  'inject.containerRestartPolicy': { file: 'go.mod', has: (s) => Number(/^\s*k8s\.io\/api v0\.(\d+)\./m.exec(s.read('go.mod') ?? '')?.[1] ?? 0) >= 28 },
  'inject.adjustInitContainerUser': { file: WEBHOOK, has: (s) => /func adjustInitContainerUser/.test(s.read(WEBHOOK) ?? '') },
  'inject.prometheusScrapeTargets': { file: WEBHOOK, has: (s) => /scrape-targets|PrometheusScrapeTargets/.test(s.read(WEBHOOK) ?? '') },

  // ---- what istiod's and istioctl's libraries write
  'output.yamlNoLineWrap': { file: 'go.mod', has: (s) => /^\s*gopkg\.in\/yaml\.v2 v2\.3\.0\b/m.test(s.read('go.mod') ?? '') },

  // ---- native sidecars
  'native.envFlag': { file: FEATURES, has: (s) => /"ENABLE_NATIVE_SIDECARS"/.test(s.any(FEATURES, 'pilot/pkg/features/experimental.go')) },
  'native.podAnnotation': { file: INJECT, has: (s) => /SidecarNativeSidecar|sidecar\.istio\.io\/nativeSidecar/.test(s.any(INJECT, WEBHOOK)) },
  'native.autoFromKubeVersion': { file: FEATURES, has: (s) => /NativeSidecarModeAuto/.test(s.read(FEATURES) ?? '') },

  // ---- probe rewriting
  'probes.startup': { file: PROBES, has: (s) => /StartupProbe/.test(s.read(PROBES) ?? '') },
  'probes.tcp': { file: PROBES, has: (s) => /TCPSocket/.test(s.fn(PROBES, 'DumpAppProbers') + s.fn(PROBES, 'convertAppProber') + s.fn(PROBES, 'rewriteAppHTTPProbe') + s.fn(PROBES, 'kubeProbeToInternalProber')) },
  'probes.grpc': { file: PROBES, has: (s) => /\.GRPC\b/.test(s.read(PROBES) ?? '') },
  'probes.noEmptyProbers': { file: PROBES, has: (s) => /if len\(out\) == 0 \{\s*return ""/.test(s.fn(PROBES, 'DumpAppProbers')) },
  'probes.mergePrevious': { file: WEBHOOK, has: (s) => /func mergeOrAppendProbers/.test(s.read(WEBHOOK) ?? '') },
  'probes.initContainers': { file: PROBES, has: (s) => /InitContainers/.test(s.read(PROBES) ?? '') },
  'probes.lifecycle': { file: PROBES, has: (s) => /Lifecycle/.test(s.read(PROBES) ?? '') },
};
