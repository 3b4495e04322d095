import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { GoNil, intValue, typeOf, GoStruct, type GoValue } from '../../src/go/reflect/value.js';
import { goJsonMarshal } from '../../src/go/encoding/json/json.js';
import { decodeGo, JsonStruct } from '../../src/go/encoding/json/structs.js';
import { Pod } from '../../src/k8s/core.js';
import { canonicalQuantity } from '../../src/k8s/resource.js';
import { parseIstioVersion, detectIstioVersion } from '../../src/istio/version.js';
import { applyProxyConfig, defaultProxyConfig, protoToJSONForTemplate } from '../../src/istio/proxyconfig.js';
import { protoToJSON, parseDuration, formatDurationProto } from '../../src/istio/proto.js';
import { applyMeshConfig, loadMeshConfig } from '../../src/istio/mesh.js';
import { loadInjectorConfigMap, parseInjectorConfig } from '../../src/istio/configmap.js';
import { workloadsFromText } from '../../src/istio/workload.js';
import { validateValues, validateMesh, formatProblem } from '../../src/istio/validate.js';
import { loadYamlDocument } from '../../src/yaml/load.js';
import { outside } from '../helpers/outside.js';

const V = parseIstioVersion;

describe('Kubernetes views marshal with the json names and omitempty', () => {
  // The expected bytes are the output of Go 1.19's encoding/json (json.Unmarshal then json.Marshal of
  // the same input) over mirrors of the k8s.io/api/core/v1 structs with their field order and json tags.
  // apimachinery's Quantity was not at hand, so Go got the quantities already canonical (500m, 1Gi).
  const cases: [string, unknown, string][] = [
    ['empty pod', {}, '{"metadata":{"creationTimestamp":null},"spec":{"containers":null},"status":{}}'],
    ['container port', { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80 }] }] } }, '{"metadata":{"creationTimestamp":null},"spec":{"containers":[{"name":"a","ports":[{"containerPort":80}],"resources":{}}]},"status":{}}'],
    ['probe inline handler + IntOrString', { spec: { containers: [{ name: 'a', readinessProbe: { httpGet: { port: 'http', path: '/r' }, periodSeconds: 5 } }] } }, '{"metadata":{"creationTimestamp":null},"spec":{"containers":[{"name":"a","resources":{},"readinessProbe":{"httpGet":{"path":"/r","port":"http"},"periodSeconds":5}}]},"status":{}}'],
    ['quantities canonical', { spec: { containers: [{ name: 'a', resources: { limits: { cpu: '0.5', memory: '1024Mi' } } }] } }, '{"metadata":{"creationTimestamp":null},"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"500m","memory":"1Gi"}}}]},"status":{}}'],
    ['typeMeta inline', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } } }, '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":null,"labels":{"a":"b"}},"spec":{"containers":null},"status":{}}'],
  ];
  for (const [name, json, want] of cases) {
    it(name, () => {
      expect(goJsonMarshal(decodeGo(Pod, json))).toBe(want);
    });
  }

  it('field promotion through embedded structs', () => {
    const pod = decodeGo(Pod, { metadata: { name: 'p' }, spec: { containers: [{ name: 'a', livenessProbe: { exec: { command: ['true'] } } }] } }) as JsonStruct;
    expect(pod.field('Name')).toBe('p'); // ObjectMeta.Name promoted
    expect(pod.field('Kind')).toBe(''); // TypeMeta.Kind
    const c = (pod.field('Spec') as GoStruct).field('Containers') as GoValue[];
    const probe = (c[0] as GoStruct).field('LivenessProbe') as GoStruct;
    expect(typeOf(probe)!.name).toBe('*v1.Probe');
    expect(((probe.field('Exec') as GoStruct).field('Command') as string[])[0]).toBe('true');
    expect(probe.field('HTTPGet')).toBeInstanceOf(GoNil);
    expect(typeOf(probe.field('ProbeHandler'))!.name).toBe('v1.ProbeHandler');
  });

  it('quantity canonical forms', () => {
    expect(['100m', '0.1', '1000m', '1.5Gi', '2000', '1e3', '1Ki', '500'].map((q) => canonicalQuantity(q))).toEqual(['100m', '100m', '1', '1536Mi', '2k', '1e3', '1Ki', '500']);
  });
});

describe('ProxyConfig', () => {
  // 1.8.0's mesh.go DefaultProxyConfig, empty remote services included
  it('jsonpb output: declaration order, camelCase, durations, wrappers, enums', () => {
    const pc = defaultProxyConfig(V('1.8'));
    expect(protoToJSON(pc)).toBe(
      '{"configPath":"./etc/istio/proxy","binaryPath":"/usr/local/bin/envoy","serviceCluster":"istio-proxy","drainDuration":"45s","parentShutdownDuration":"60s","discoveryAddress":"istiod.istio-system.svc:15012","proxyAdminPort":15000,"controlPlaneAuthPolicy":"MUTUAL_TLS","statNameLength":189,"concurrency":2,"tracing":{"zipkin":{"address":"zipkin.istio-system:9411"}},"envoyAccessLogService":{},"envoyMetricsService":{},"statusPort":15020,"terminationDrainDuration":"5s"}',
    );
  });

  it("1.5's defaults: Pilot's plain-text address, Concurrency 0, no tracing, no status port", () => {
    const pc = defaultProxyConfig(V('1.5'));
    const json = protoToJSON(pc);
    expect(json).toContain('"discoveryAddress":"istio-pilot:15010"');
    expect(json).toContain('"configPath":"/etc/istio/proxy"');
    expect(json).not.toMatch(/concurrency|tracing|statusPort/);
  });

  it('cleaned for the template from 1.10: only what differs from the defaults', () => {
    const pc = applyProxyConfig(V('1.24'), defaultProxyConfig(V('1.24')), { holdApplicationUntilProxyStarts: true, proxyMetadata: { A: 'b' } });
    expect(protoToJSONForTemplate(V('1.24'), pc)).toBe('{"proxyMetadata":{"A":"b"},"holdApplicationUntilProxyStarts":true}');
  });

  it('annotation merge: set fields replace whole (nested messages too), proxyMetadata unions', () => {
    const mesh = applyMeshConfig(V('1.20'), { defaultConfig: { tracing: { zipkin: { address: 'z:1' }, sampling: 5 }, proxyMetadata: { A: '1' } } });
    const base = mesh.values.get('DefaultConfig') as never;
    const over = applyProxyConfig(V('1.20'), base, { tracing: { sampling: 10 }, proxyMetadata: { B: '2' } });
    expect(protoToJSON(over.get('Tracing'))).toBe('{"sampling":10}');
    expect(protoToJSON(over)).toContain('"proxyMetadata":{"A":"1","B":"2"}');
    const mesh18 = applyMeshConfig(V('1.8'), { defaultConfig: { tracing: { zipkin: { address: 'z:1' }, sampling: 5 } } });
    const over18 = applyProxyConfig(V('1.8'), mesh18.values.get('DefaultConfig') as never, { tracing: { sampling: 10 } });
    expect(protoToJSON(over18.get('Tracing'))).toBe('{"sampling":10}');
  });

  it('Go types per release', () => {
    expect(typeOf(defaultProxyConfig(V('1.5')).get('Concurrency'))!.name).toBe('int32');
    expect(typeOf(defaultProxyConfig(V('1.7')).get('DrainDuration'))!.name).toBe('*types.Duration');
    expect(typeOf(defaultProxyConfig(V('1.20')).get('DrainDuration'))!.name).toBe('*durationpb.Duration');
    expect(typeOf(defaultProxyConfig(V('1.20')).get('HoldApplicationUntilProxyStarts'))!.name).toBe('*wrapperspb.BoolValue');
    expect(typeOf(defaultProxyConfig(V('1.20')).get('InterceptionMode'))!.name).toBe('v1alpha1.ProxyConfig_InboundInterceptionMode');
    expect(typeOf(defaultProxyConfig(V('1.20')).field('ClusterName'))!.name).toBe('*v1alpha1.ProxyConfig_ServiceCluster');
  });

  it('durations', () => {
    expect(parseDuration('1.5s')).toEqual([1n, 500000000]);
    expect(formatDurationProto(1n, 500000000)).toBe('1.500s');
    expect(formatDurationProto(45n, 0)).toBe('45s');
  });
});

describe('mesh config', () => {
  it('unknown fields warn with positions; bad values fail with positions', () => {
    const text = 'trustDomain: td\ndefaultConfig:\n  holdApplicationUntilProxyStart: true\n';
    const r = loadMeshConfig(text, V('1.20'), { file: 'mesh.yaml' });
    expect(r.warnings).toEqual([{ path: 'mesh.yaml:3:3', message: 'unknown field "holdApplicationUntilProxyStart" in istio.mesh.v1alpha1.ProxyConfig' }]);
    expect(r.mesh.get('TrustDomain')).toBe('td');
    expect(() => loadMeshConfig('defaultConfig:\n  drainDuration: soon\n', V('1.20'), { file: 'm.yaml' })).toThrow(/^m\.yaml:2:18: bad Duration/);
  });
  it('defaults fill what the file leaves out', () => {
    const m = applyMeshConfig(V('1.24'), { defaultConfig: { discoveryAddress: 'x:1' } });
    const pc = m.get('DefaultConfig') as GoStruct;
    expect(pc.field('DiscoveryAddress')).toBe('x:1');
    expect(intValue(pc.field('StatusPort'))).toBe(15020n);
    expect(intValue(m.get('ProxyInboundListenPort'))).toBe(15006n);
  });
});

describe('injector ConfigMap and workloads', () => {
  it('old single template and new templates', () => {
    const old = parseInjectorConfig('policy: enabled\ntemplate: |\n  containers: []\n', 'c.yaml');
    expect(old.templates.sidecar).toBe('containers: []\n');
    expect(old.template).toBe('containers: []\n');
    const neu = parseInjectorConfig('policy: enabled\ndefaultTemplates: [sidecar]\ntemplates:\n  sidecar: x\n  grpc: z\n', 'c.yaml');
    expect(Object.keys(neu.templates)).toEqual(['sidecar', 'grpc']);
    expect(parseInjectorConfig('{{ .Values }}', 't').templates.sidecar).toBe('{{ .Values }}');
  });
  it('the chart\'s `template:` tripwire beside `templates` is ignored, as istiod 1.10+ has no such field', () => {
    const c = parseInjectorConfig('policy: enabled\ntemplate: "{{ Mismatch_Check }}"\ntemplates:\n  sidecar: |\n    x: 1\n', 'c.yaml');
    expect(c.template).toBeUndefined();
    expect(c.templates.sidecar).toBe('x: 1\n');
    expect(c.positions.sidecar!.line).toBe(5);
  });
  it('List, CronJob, unknown kinds', () => {
    const ws = workloadsFromText(
      'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service, metadata: {name: s}}\n- apiVersion: batch/v1\n  kind: CronJob\n  metadata: {name: c}\n  spec: {jobTemplate: {spec: {template: {spec: {containers: [{name: a}]}}}}}\n',
      'l.yaml',
    );
    expect(ws.map((w) => `${w.kind}/${w.name}`)).toEqual(['CronJob/c']);
    expect(ws[0]!.where).toBe('l.yaml:5:3');
    expect(() => workloadsFromText('kind: Widget\nmetadata: {name: w}\n', 'w.yaml', { strict: true })).toThrow(/w\.yaml:1:1: Widget w has no pod template/);
    expect(() => workloadsFromText('kind: Deployment\nmetadata: {name: d}\nspec: {}\n', 'd.yaml')).toThrow(/spec.template is required value/);
  });
  // real exported ConfigMaps, not part of this repository: SIDECAR_RENDER_ISTIO_CONFIGMAPS names their folder
  const releases = ['1.5.0', '1.7.0', '1.8.0', '1.12.0', '1.20.0', '1.24.0', '1.28.0', 'master'];
  const real = outside('configmaps', ...releases.map((v) => `${v}/istio-sidecar-injector.yaml`));
  it.skipIf(!real)('real ConfigMaps load and their release is detected', () => {
    const seen: Record<string, string> = {};
    for (const ver of releases) {
      const c = loadInjectorConfigMap(readFileSync(`${real}/${ver}/istio-sidecar-injector.yaml`, 'utf8'), 'x.yaml');
      const d = c.detected!.version;
      seen[ver] = d.master ? 'master' : `1.${d.minor}`;
      expect(validateValues(c.values, c.valuesDoc).filter((p) => p.severity === 'error')).toEqual([]);
    }
    expect(seen).toEqual({ '1.5.0': '1.5', '1.7.0': '1.7', '1.8.0': '1.8', '1.12.0': '1.12', '1.20.0': '1.20', '1.24.0': '1.24', '1.28.0': '1.28', master: 'master' });
  });
});

describe('validation', () => {
  it('wrong type is an error, unknown field a warning with a suggestion', () => {
    const doc = loadYamlDocument('global:\n  proxy:\n    holdApplicationUntilProxyStart: true\n    privileged: "yes"\n', 'v.yaml');
    const ps = validateValues(doc.value, doc).map(formatProblem);
    expect(ps).toContain('v.yaml:3:5: warning: unknown values field global.proxy.holdApplicationUntilProxyStart (did you mean holdApplicationUntilProxyStarts?)');
    expect(ps).toContain('v.yaml:4:17: error: values field global.proxy.privileged must be boolean');
    const m = loadYamlDocument('defaultConfig:\n  holdApplicationUntilProxyStarts: "true"\n', 'm.yaml');
    expect(validateMesh(m.value, m).map(formatProblem)).toEqual(['m.yaml:2:36: error: mesh config field defaultConfig.holdApplicationUntilProxyStarts must be boolean']);
  });
  it('version detection', () => {
    expect(detectIstioVersion('{{ .ProxyConfig.Concurrency }}')!.version.minor).toBe(5);
    expect(detectIstioVersion('{{ .NativeSidecars }}')!.version.minor).toBe(27);
    expect(detectIstioVersion('hello')).toBeUndefined();
  });
});
