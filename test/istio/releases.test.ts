// The table of release differences (releases.ts): consistent in itself, the only place the code compares
// releases, and true to the code: each behaviour, as the library shows it, is off just before its first
// release, on from it to its last, and off after.

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/go/encoding/json/value.js';
import { renderRequest, type RenderRequest, type WorkloadResult } from '../../src/index.js';
import { buildTemplateData, templateDataType } from '../../src/istio/data.js';
import { applyMeshConfig, defaultMeshConfig } from '../../src/istio/mesh.js';
import { kubeApiMinor, postProcessPod, type PostProcessContext } from '../../src/istio/postprocess.js';
import { protoToJSON } from '../../src/istio/proto.js';
import { applyProxyConfig, defaultProxyConfig, protoToJSONForTemplate, proxyModel } from '../../src/istio/proxyconfig.js';
import { BEHAVIOURS, has, KUBE_API, type Behaviour, type BehaviourEntry } from '../../src/istio/releases.js';
import { detectIstioVersion, inRange, KNOWN_RELEASES, parseIstioVersion, type IstioVersion } from '../../src/istio/version.js';

const at = parseIstioVersion;
const names = Object.keys(BEHAVIOURS) as Behaviour[];
const entry = (n: Behaviour): BehaviourEntry => BEHAVIOURS[n];
const index = (r: string): number => KNOWN_RELEASES.indexOf(r);
const src = new URL('../../src/', import.meta.url);

/** The minor release of a release or patch release ('1.10.1' → '1.10'). */
const minorOf = (r: string): string => r.split('.').slice(0, 2).join('.');
const patchOf = (r: string): number => Number(r.split('.')[2] ?? 0);

/** The releases where a behaviour changes: the one before its first, its first, its last, the one after. */
function boundaries(n: Behaviour): string[] {
  const e = entry(n);
  const first = minorOf(e.first);
  const last = e.last && minorOf(e.last);
  const out = [KNOWN_RELEASES[index(first) - 1], first, KNOWN_RELEASES[index(first) + 1], last, last && KNOWN_RELEASES[index(last) + 1]];
  return [...new Set(out.filter((r): r is string => r !== undefined))];
}

/** Whether a minor release (its .0) is within [first, last], counted by position in KNOWN_RELEASES. */
function within(n: Behaviour, r: string): boolean {
  const e = entry(n);
  const f = index(minorOf(e.first));
  const from = index(r) > f || (index(r) === f && patchOf(e.first) === 0);
  return from && (e.last === undefined || index(r) <= index(minorOf(e.last)));
}

describe('the release table', () => {
  it('names releases the model knows, a first no later than the last, and no last of master', () => {
    for (const n of names) {
      const e = entry(n);
      expect(KNOWN_RELEASES, n).toContain(minorOf(e.first));
      for (const b of e.backports ?? []) {
        expect(KNOWN_RELEASES, `${n} backport ${b}`).toContain(minorOf(b));
        expect(index(minorOf(b)), `${n}: backport ${b} before ${e.first}`).toBeLessThan(index(minorOf(e.first)));
      }
      if (e.last === undefined) continue;
      expect(KNOWN_RELEASES, n).toContain(minorOf(e.last));
      expect(index(minorOf(e.first)), n).toBeLessThanOrEqual(index(minorOf(e.last)));
      // a behaviour that ends at the newest release ends nowhere: it has no last
      expect(e.last, n).not.toBe('master');
    }
  });

  it('keeps each group (the name up to its first dot) together and ordered by first release', () => {
    const groups: string[] = [];
    let prev: Behaviour | undefined;
    for (const n of names) {
      const g = n.slice(0, n.indexOf('.'));
      expect(n.indexOf('.'), n).toBeGreaterThan(0);
      if (groups.at(-1) !== g) {
        expect(groups, `${n}: group ${g} appears twice`).not.toContain(g);
        groups.push(g);
      } else expect(index(minorOf(entry(n).first)), `${n} after ${prev}`).toBeGreaterThanOrEqual(index(minorOf(entry(prev!).first)));
      prev = n;
    }
  });

  it('says in one line what each behaviour is and where in Istio it comes from', () => {
    for (const n of names) {
      const e = entry(n);
      expect(e.what.trim().length, n).toBeGreaterThan(10);
      expect(e.what, n).not.toMatch(/\n/);
      expect(e.source, n).toMatch(/^(pkg|pilot|manifests|go\.mod|istio\.io\/api)\b/);
    }
  });

  it('answers has() by the release: off before the first, on from the first to the last, off after', () => {
    for (const n of names) {
      for (const r of KNOWN_RELEASES) expect(has(at(r), n), `${n} at ${r}`).toBe(within(n, r));
    }
  });

  it('answers has() by the patch release: a patch first or last, and each backport, from its patch on', () => {
    const before = (r: string): string => `${minorOf(r)}.${patchOf(r) - 1}`;
    let seen = 0;
    for (const n of names) {
      const e = entry(n);
      for (const b of [...(e.backports ?? []), ...(patchOf(e.first) > 0 ? [e.first] : [])]) {
        expect(has(at(before(b)), n), `${n} at ${before(b)}`).toBe(false);
        expect(has(at(b), n), `${n} at ${b}`).toBe(true);
        expect(has(at(`${minorOf(b)}.99`), n), `${n} later in ${minorOf(b)}`).toBe(true);
        seen++;
      }
      if (e.last !== undefined && patchOf(e.last) > 0) {
        expect(has(at(e.last), n), `${n} at ${e.last}`).toBe(true);
        expect(has(at(`${minorOf(e.last)}.${patchOf(e.last) + 1}`), n), `${n} after ${e.last}`).toBe(false);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(5);
  });

  it('gives each k8s.io/api version from its release on, newer releases never an older API', () => {
    expect(KUBE_API[0]![0]).toBe(KNOWN_RELEASES[0]);
    const minors = KUBE_API.filter(([r]) => r.split('.').length === 2);
    for (let i = 1; i < minors.length; i++) {
      expect(index(minors[i]![0]), String(minors[i])).toBeGreaterThan(index(minors[i - 1]![0]));
      expect(minors[i]![1], String(minors[i])).toBeGreaterThan(minors[i - 1]![1]);
    }
    for (const [i, [r, kube]] of minors.entries()) {
      expect(kubeApiMinor(at(r)), r).toBe(kube);
      const before = KNOWN_RELEASES[index(r) - 1];
      if (before !== undefined) expect(kubeApiMinor(at(before)), before).toBe(minors[i - 1]![1]);
    }
    // a patch release's k8s.io/api holds for the rest of its series only
    for (const [r, kube] of KUBE_API.filter(([x]) => x.split('.').length === 3)) {
      expect(kubeApiMinor(at(r)), r).toBe(kube);
      expect(kubeApiMinor(at(`${minorOf(r)}.${patchOf(r) - 1}`)), `before ${r}`).toBeLessThan(kube);
    }
    expect(kubeApiMinor(at('1.13.9'))).toBe(24);
    expect(kubeApiMinor(at('1.14.0'))).toBe(23);
    expect(kubeApiMinor(at('master'))).toBe(KUBE_API.at(-1)![1]);
  });
});

// ---------- the code asks the table, and only the table ----------

function sources(dir: URL): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: f, text: readFileSync(new URL(f, dir), 'utf8') }));
}


describe('the code asks the table', () => {
  const files = sources(src);
  const asked = new Map<string, string>();
  const askers = files.filter(({ text }) => /from '\.\/releases\.js'|from '\.\.\/istio\/releases\.js'/.test(text));
  for (const { file, text } of askers) for (const m of text.matchAll(/\bhas\(\s*[\w.]+,\s*'([^']+)'\s*\)/g)) asked.set(m[1]!, file);
  // release detection asks the table through its marks: [pattern, 'name' or '!name', reason]
  const marks = files.find(({ file }) => file === 'istio/version.ts')!.text;
  for (const m of marks.matchAll(/^\s*\[\/.*\/\w*, '!?([\w.]+)', '/gm)) asked.set(m[1]!, 'istio/version.ts');

  it('by names the table has', () => {
    expect(asked.size).toBeGreaterThan(30);
    for (const [n, file] of asked) expect(names, `${file} asks for ${n}`).toContain(n);
  });

  it('for every entry', () => {
    expect(names.filter((n) => !asked.has(n))).toEqual([]);
  });

  it('and compares no release number itself', () => {
    const checks = [
      /\batLeast\([^,()]+,\s*\d+,\s*\d+\)/, // atLeast(v, 1, 12)
      /\.minor\s*(<|>|<=|>=|===|!==)\s*\d/, // v.minor <= 7
      /(\bif \(|!!|&&|\|\||\?\?|=)\s*!?[\w.]*\bv(ersion)?\.master\b(?!\s*\?)/, // if (v.master), !!v.master
      /\.master\s*===\s*true/,
    ];
    for (const { file, text } of files) {
      if (!file.startsWith('istio') || /(^|\/)(version|releases)\.ts$/.test(file)) continue;
      for (const [i, line] of text.split('\n').entries()) {
        for (const re of checks) expect(re.test(line), `${file}:${i + 1}: ${line.trim()}`).toBe(false);
      }
    }
  });
});

// ---------- each behaviour as the library shows it ----------

const dir = mkdtempSync(join(tmpdir(), 'releases-'));
let files = 0;
const file = (text: string): string => {
  const p = join(dir, `f${files++}.yaml`);
  writeFileSync(p, text);
  return p;
};

const proxyTemplate = (extra = ''): string => file(`spec:\n  containers:\n  - name: istio-proxy\n    image: proxy\n${extra}`);
const podFile = (meta = '', containers = '[{name: app, image: app}]'): string =>
  file(`apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ns\n${meta}spec:\n  containers: ${containers}\n`);
const emptyValues = file('{}');

/** One pod rendered at the release: its result, and with merged output the pod as JSON. */
function render(v: IstioVersion, req: Partial<RenderRequest>): { result: WorkloadResult; text: string; pod?: JsonObject } {
  const out = renderRequest({ values: emptyValues, workloads: podFile(), template: proxyTemplate(), ...req, istioVersion: v });
  const result = out.results[0]!;
  if (result.error !== undefined) throw new Error(`${result.label}: ${result.error}`);
  return { result, text: out.text, ...(req.merged ? { pod: JSON.parse(out.text) as JsonObject } : {}) };
}

/** Whether the template renders without error at the release. */
function renders(v: IstioVersion, template: string, req: Partial<RenderRequest> = {}): string | undefined {
  try {
    const out = renderRequest({ values: emptyValues, workloads: podFile(), template: file(template), ...req, istioVersion: v });
    return out.failed === 0 ? out.text : undefined;
  } catch {
    return undefined;
  }
}

/** A template whose proxy image is the text given. */
const image = (text: string): string => `spec:\n  containers:\n  - name: istio-proxy\n    image: '${text}'\n`;
/** Whether a template calling the function renders at the release. */
const usesFunc = (call: string) => (v: IstioVersion): boolean => renders(v, image(call)) !== undefined;
const fieldOf = (v: IstioVersion, name: string) => templateDataType(v).fields!.find((f) => f.name === name);
const dataField = (name: string) => (v: IstioVersion) => fieldOf(v, name) !== undefined;
const pcJSON = (v: IstioVersion): Record<string, unknown> => JSON.parse(protoToJSON(defaultProxyConfig(v))) as Record<string, unknown>;
const meshJSON = (v: IstioVersion): Record<string, unknown> => JSON.parse(protoToJSON(defaultMeshConfig(v))) as Record<string, unknown>;

// a merged pod istiod post-processes: an application container with probes of every kind, the proxy
function mergedPod(app: JsonObject = {}, annotations: JsonObject = {}): JsonObject {
  return {
    metadata: { annotations: { ...annotations } },
    spec: {
      initContainers: [{ name: 'init', image: 'x', readinessProbe: { httpGet: { port: 80, path: '/ready' } } }],
      containers: [{ name: 'app', image: 'x', ...app }, { name: 'istio-proxy', image: 'proxy', env: [] }],
    },
  };
}
function post(v: IstioVersion, pod: JsonObject, ctx: Partial<PostProcessContext> = {}): JsonObject {
  return postProcessPod(pod, { version: v, values: { sidecarInjectorWebhook: { rewriteAppHTTPProbe: true } }, mesh: {}, originalAnnotations: {}, ...ctx });
}
const containerOf = (pod: JsonObject, name: string, list = 'containers'): JsonObject =>
  ((pod.spec as JsonObject)[list] as JsonObject[]).find((c) => c.name === name)!;
const proxyEnv = (pod: JsonObject, name: string): JsonObject[] => ((containerOf(pod, 'istio-proxy').env as JsonObject[] | undefined) ?? []).filter((e) => e.name === name);
const probers = (pod: JsonObject): string => String(proxyEnv(pod, 'ISTIO_KUBE_APP_PROBERS')[0]?.value ?? '');
const rewritten = (p: JsonObject | undefined, path: string): boolean => (p?.httpGet as JsonObject | undefined)?.path === path;

/** A SidecarInjectionSpec template rendered and merged at the release: the pod's annotations, labels and proxy. */
function oldSpec(v: IstioVersion): { annotations: JsonObject; labels: JsonObject; proxy: JsonObject } {
  const template = file(
    'containers:\n- name: istio-proxy\n  image: proxy\n  args: [proxy]\n  env: [{name: ISTIO_META_NETWORK, value: n1}]\n  resources: {limits: {cpu: 1500m}}\n' +
      'podRedirectAnnot:\n  sidecar.istio.io/interceptionMode: REDIRECT\n',
  );
  const { pod } = render(v, { merged: true, output: 'json', template, revision: 'canary' });
  const meta = pod!.metadata as JsonObject;
  return { annotations: (meta.annotations as JsonObject | undefined) ?? {}, labels: (meta.labels as JsonObject | undefined) ?? {}, proxy: containerOf(pod!, 'istio-proxy') };
}

/** Whether release detection of the text gives a range that holds the release. */
const detectedRange = (v: IstioVersion, text: string): boolean => inRange(v, detectIstioVersion(text)!.range);

const PROBES: Record<Behaviour, (v: IstioVersion) => boolean> = {
  'data.pointerObjectMeta': (v) => fieldOf(v, 'Spec')!.type.kind === 'ptr' && fieldOf(v, 'ObjectMeta')!.type.kind === 'ptr',
  'data.pointerTypeMeta': (v) => fieldOf(v, 'TypeMeta')!.type.kind === 'ptr' && fieldOf(v, 'DeploymentMeta')!.type.kind === 'ptr',
  'data.Revision': dataField('Revision'),
  'data.EstimatedConcurrency': dataField('EstimatedConcurrency'),
  'data.ProxyImage': dataField('ProxyImage'),
  'data.ProxyUID': dataField('ProxyUID'),
  'data.ProxyGID': dataField('ProxyGID'),
  'data.DeploymentMeta.namespacedName': (v) => fieldOf(v, 'DeploymentMeta')!.type.name === 'types.NamespacedName',
  'data.InboundTrafficPolicyMode': dataField('InboundTrafficPolicyMode'),
  'data.CompliancePolicy': dataField('CompliancePolicy'),
  'data.NativeSidecars': dataField('NativeSidecars'),
  'data.ProxyInitImage': dataField('ProxyInitImage'),

  'func.render': (v) => renders(v, 'spec:\n  containers:\n  - name: istio-proxy\n    image: {{ render "rendered" }}\n')?.includes('image: rendered') ?? false,
  // Istio's toJSON takes a map[string]string; Sprig's toJson any value
  'func.toJson.istio': (v) => renders(v, "spec:\n  containers:\n  - name: istio-proxy\n    image: '{{ toJson .Values.m }}'\n", { values: file('{"m": {"n": 1}}') }) === undefined,
  'func.appendMultusNetwork': usesFunc('{{ appendMultusNetwork "" "n" }}'),
  'func.excludeInterfaces': usesFunc('{{ excludeInterfaces "x" }}'),
  // Sprig's omit takes the values' map[string]interface{}; Istio's a map[string]string only
  'func.omit': (v) => renders(v, image('{{ omit .Values.m "a" }}'), { values: file('{"m": {"a": "1"}}') }) === undefined,
  'func.strdict': usesFunc('{{ strdict "a" "b" }}'),
  'func.toJsonMap': usesFunc('{{ toJsonMap }}'),
  'func.mergeMaps': usesFunc('{{ mergeMaps }}'),
  'func.omitNil': usesFunc('{{ omitNil .Values }}'),
  'func.otelResourceAttributes': usesFunc('{{ otelResourceAttributes .MeshConfig .ObjectMeta.Annotations .ObjectMeta.Labels "ns" .Spec.Containers }}'),
  'func.protoToJSON.cleanProxyConfig': (v) => !protoToJSONForTemplate(v, defaultProxyConfig(v)).includes('discoveryAddress'),
  'func.appendMultusNetwork.namespaced': (v) =>
    renders(v, 'spec:\n  containers:\n  - name: istio-proxy\n    image: \'{{ appendMultusNetwork `[{"name": "a"}]` "ns/cni" }}\'\n')!.includes('"namespace": "ns"'),

  'proxyConfig.gogo': (v) => proxyModel(v).flavour === 'gogo',
  'proxyConfig.mergeProxyMetadata': (v) => {
    const base = applyProxyConfig(v, defaultProxyConfig(v), { proxyMetadata: { A: '1' } });
    return protoToJSON(applyProxyConfig(v, base, { proxyMetadata: { B: '2' } })).includes('"A":"1"');
  },
  'proxyConfig.concurrencyWrapper': (v) => typeof proxyModel(v).ProxyConfig.fields.find((f) => f.go === 'Concurrency')!.type !== 'string',
  'proxyConfig.clusterNameOneof': (v) => proxyModel(v).ProxyConfig.fields.find((f) => f.go === 'ServiceCluster')!.oneof === 'ClusterName',
  'proxyConfig.default.pilot': (v) => pcJSON(v).discoveryAddress === 'istio-pilot:15010',
  'proxyConfig.default.parentShutdownDuration': (v) => pcJSON(v).parentShutdownDuration === '60s',
  'proxyConfig.default.concurrency2': (v) => pcJSON(v).concurrency === 2,
  'proxyConfig.default.zipkin': (v) => (pcJSON(v).tracing as { zipkin?: { address?: string } } | undefined)?.zipkin?.address === 'zipkin.istio-system:9411',
  'proxyConfig.default.remoteServices': (v) => JSON.stringify(pcJSON(v).envoyMetricsService) === '{}',
  'proxyConfig.default.mutualTLS': (v) => pcJSON(v).controlPlaneAuthPolicy === 'MUTUAL_TLS',
  'proxyConfig.default.terminationDrainDuration': (v) => pcJSON(v).terminationDrainDuration === '5s',

  'mesh.default.sdsUdsPath': (v) => meshJSON(v).sdsUdsPath === 'unix:./etc/istio/proxy/SDS',
  'mesh.default.enablePrometheusMerge': (v) => meshJSON(v).enablePrometheusMerge === true,
  'mesh.default.v15': (v) => meshJSON(v).connectTimeout === '1s',
  'mesh.default.protocolDetection100ms': (v) => meshJSON(v).protocolDetectionTimeout === '0.100s',
  'mesh.default.protocolDetection5s': (v) => meshJSON(v).protocolDetectionTimeout === '5s',
  'mesh.default.mixer': (v) => meshJSON(v).reportBatchMaxEntries === 100,
  'mesh.default.thriftConfig': (v) => JSON.stringify(meshJSON(v).thriftConfig) === '{}',
  'mesh.default.envoyAccessLogOnly': (v) => (meshJSON(v).extensionProviders as { name: string }[] | undefined)?.map((p) => p.name).join() === 'envoy',
  'mesh.default.extensionProviders': (v) => meshJSON(v).defaultProviders !== undefined,
  'mesh.extensionProvidersByName': (v) => {
    const m = applyMeshConfig(v, { extensionProviders: [{ name: 'mine', envoyFileAccessLog: { path: '/x' } }] });
    return (m.values.get('ExtensionProviders') as unknown[]).length > 1;
  },
  'mesh.default.proxyInboundListenPort': (v) => meshJSON(v).proxyInboundListenPort === 15006,
  'mesh.default.dnsRefreshRate60s': (v) => meshJSON(v).dnsRefreshRate === '60s',
  'mesh.default.inboundTrafficPolicy': (v) => meshJSON(v).inboundTrafficPolicy !== undefined,

  // the old injector's SidecarInjectionSpec (a template output without spec or metadata)
  'inject.statusVersion': (v) => /^\{"version":"[0-9a-f]{64}",/.test(String(oldSpec(v).annotations['sidecar.istio.io/status'] ?? '')),
  'inject.specConcurrency': (v) => (oldSpec(v).proxy.args as string[] | undefined)?.join(' ') === 'proxy --concurrency 2',
  'inject.podRedirectAnnot': (v) => oldSpec(v).annotations['sidecar.istio.io/interceptionMode'] === 'REDIRECT',
  'inject.specRevisionLabel': (v) => oldSpec(v).labels['istio.io/rev'] === 'canary',
  'inject.specNetworkLabel': (v) => oldSpec(v).labels['topology.istio.io/network'] === 'n1',
  // read only by release detection: a template that has the mark reads as releases that have it
  'config.templates': (v) => detectedRange(v, 'templates:\n  sidecar: x\n'),
  'inject.holdFromValues': (v) => detectedRange(v, '{{ .Values.global.proxy.holdApplicationUntilProxyStarts }}'),
  'native.envFlag': (v) => detectedRange(v, '{{ if .Values.env.ENABLE_NATIVE_SIDECARS }}x{{ end }}'),
  'inject.legacyFSGroup': (v) => (post(v, mergedPod(), { mesh: { sdsUdsPath: 'unix:/sds' } }).spec as JsonObject).securityContext !== undefined,
  // with the mesh's sdsUdsPath emptied only ENABLE_LEGACY_FSGROUP_INJECTION (on by default) asks for it
  'inject.legacyFSGroupFlag': (v) => (post(v, mergedPod(), { mesh: { sdsUdsPath: '' } }).spec as JsonObject).securityContext !== undefined,
  'inject.proxyConfigAnnotation': (v) => {
    const pod = { metadata: { name: 'p', namespace: 'ns', annotations: { 'proxy.istio.io/config': 'drainDuration: 7s' } }, spec: { containers: [{ name: 'app', image: 'app' }] } };
    const data = buildTemplateData({ version: v, pod, mesh: applyMeshConfig(v, {}), values: {} });
    return protoToJSON(data.info.proxyConfig).includes('"drainDuration":"7s"');
  },
  'inject.prometheusMerge': (v) => {
    const pod = post(v, mergedPod({}, { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090' }));
    return ((pod.metadata as JsonObject).annotations as JsonObject)['prometheus.io/path'] === '/stats/prometheus';
  },
  'inject.prometheusScrapeTargets': (v) => {
    const pod = post(v, mergedPod({}, { 'prometheus.io/scrape': 'true', 'prometheus.istio.io/scrape-targets': '9091:/m' }));
    return String(proxyEnv(pod, 'ISTIO_PROMETHEUS_ANNOTATIONS')[0]?.value ?? '').includes('"targets"');
  },
  'inject.holdFromProxyConfig': (v) => render(v, { mesh: file('defaultConfig:\n  holdApplicationUntilProxyStarts: true\n') }).result.hold,
  'inject.clusterInfo': (v) => {
    const { pod } = render(v, { merged: true, output: 'json', values: file('{"global": {"network": "n1"}}') });
    return ((pod!.metadata as JsonObject).labels as JsonObject | undefined)?.['topology.istio.io/network'] === 'n1';
  },
  'inject.statusRevision': (v) => {
    const { pod } = render(v, { merged: true, output: 'json' });
    return String(((pod!.metadata as JsonObject).annotations as JsonObject)['sidecar.istio.io/status']).includes('"revision":"default"');
  },
  'inject.overridesAnnotation': (v) => {
    const { pod } = render(v, { merged: true, output: 'json', workloads: podFile('', '[{name: app, image: app}, {name: istio-proxy, image: mine}]') });
    return ((pod!.metadata as JsonObject).annotations as JsonObject | undefined)?.['proxy.istio.io/overrides'] !== undefined;
  },
  'inject.containerRestartPolicy': (v) => {
    const { pod } = render(v, { merged: true, output: 'json', template: file('spec:\n  initContainers:\n  - name: istio-validation\n    image: proxy\n    restartPolicy: Always\n') });
    return containerOf(pod!, 'istio-validation', 'initContainers').restartPolicy === 'Always';
  },
  'inject.adjustInitContainerUser': (v) => {
    const { pod } = render(v, {
      merged: true,
      output: 'json',
      template: proxyTemplate('  initContainers:\n  - name: istio-init\n    image: proxy\n    args: ["-u", "1337"]\n'),
      workloads: podFile('', '[{name: app, image: app}, {name: istio-proxy, image: auto, securityContext: {runAsUser: 1234}}]'),
    });
    return (containerOf(pod!, 'istio-init', 'initContainers').args as string[]).includes('1234');
  },

  // a string longer than 80 columns with spaces, through the template's toYaml
  'output.yamlNoLineWrap': (v) => {
    const long = 'x '.repeat(60).trim();
    const out = renders(v, `spec:\n  containers:\n  - name: istio-proxy\n    image: proxy\n    args:\n{{ toYaml .Values.a | indent 4 }}\n`, { values: file(JSON.stringify({ a: [long] })) });
    return out!.includes(long);
  },
  'native.podAnnotation': (v) => render(v, { nativeSidecars: 'false', workloads: podFile('  annotations: {sidecar.istio.io/nativeSidecar: "true"}\n') }).result.native,
  'native.autoFromKubeVersion': (v) => render(v, { nativeSidecars: 'auto', kubeVersion: '1.33' }).result.native,

  'probes.startup': (v) => rewritten(containerOf(post(v, mergedPod({ startupProbe: { httpGet: { port: 80, path: '/s' } } })), 'app').startupProbe as JsonObject, '/app-health/app/startupz'),
  'probes.tcp': (v) => rewritten(containerOf(post(v, mergedPod({ livenessProbe: { tcpSocket: { port: 81 } } })), 'app').livenessProbe as JsonObject, '/app-health/app/livez'),
  'probes.noEmptyProbers': (v) => {
    const pod = mergedPod();
    (pod.spec as JsonObject).initContainers = [];
    return proxyEnv(post(v, pod), 'ISTIO_KUBE_APP_PROBERS').length === 0;
  },
  'probes.mergePrevious': (v) => {
    const pod = mergedPod({ livenessProbe: { httpGet: { port: 80, path: '/l' } } }, { 'sidecar.istio.io/status': '{}' });
    containerOf(pod, 'istio-proxy').env = [{ name: 'ISTIO_KUBE_APP_PROBERS', value: '{"/app-health/old/livez":{"httpGet":{"port":1}}}' }];
    return proxyEnv(post(v, pod, { originalAnnotations: { 'sidecar.istio.io/status': '{}' } }), 'ISTIO_KUBE_APP_PROBERS').length === 1;
  },
  'probes.grpc': (v) => rewritten(containerOf(post(v, mergedPod({ readinessProbe: { grpc: { port: 82 } } })), 'app').readinessProbe as JsonObject, '/app-health/app/readyz'),
  'probes.initContainers': (v) => rewritten(containerOf(post(v, mergedPod()), 'init', 'initContainers').readinessProbe as JsonObject, '/app-health/init/readyz'),
  'probes.lifecycle': (v) => {
    const app = containerOf(post(v, mergedPod({ lifecycle: { preStop: { httpGet: { port: 80, path: '/stop' } } } })), 'app');
    return rewritten((app.lifecycle as JsonObject).preStop as JsonObject, '/app-lifecycle/app/prestopz');
  },
};

describe('each behaviour, as the library shows it, follows the table', () => {
  it('is shown for every entry', () => {
    expect(names.filter((n) => PROBES[n] === undefined)).toEqual([]);
  });
  for (const n of names) {
    it(`${n} (${entry(n).first}${entry(n).last ? `–${entry(n).last}` : '+'})`, () => {
      for (const r of boundaries(n)) expect(PROBES[n](at(r)), `${n} at ${r}`).toBe(within(n, r));
    });
  }
});
