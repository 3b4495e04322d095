import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GoNil, GoNum, GoStruct, typeOf, intValue, isTrue, type GoValue } from '../../src/go/reflect/value.js';
import { buildTemplateData, deployMetaFromPod, proxyImage, estimateConcurrency, proxyIDs } from '../../src/istio/data.js';
import { workloadsFromText } from '../../src/istio/workload.js';
import { parseIstioVersion } from '../../src/istio/version.js';
import { defaultMeshConfig, loadMeshConfig } from '../../src/istio/mesh.js';
import { plainToGo } from '../../src/go/encoding/json/structs.js';
import { applyProxyConfig } from '../../src/istio/proxyconfig.js';
import type { GoMap } from '../../src/go/reflect/value.js';
import { outside } from '../helpers/outside.js';

const V = parseIstioVersion;

/** Walk a template-style field chain: fields first, then zero-arg methods (as text/template does for these names). */
function sel(v: GoValue, chain: string): GoValue {
  let cur = v;
  for (const name of chain.split('.').filter(Boolean)) {
    const t = typeOf(cur);
    const m = t?.methods?.[name];
    if (m) {
      cur = m.fn(cur);
      continue;
    }
    if (cur instanceof GoStruct) cur = cur.field(name);
    else if (cur && typeof cur === 'object' && !(cur instanceof GoNil) && !(cur instanceof GoNum)) cur = (cur as GoMap)[name];
    else return undefined;
  }
  return cur;
}

const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  template:
    metadata:
      labels: {app: web}
      annotations:
        proxy.istio.io/config: |
          holdApplicationUntilProxyStarts: true
          proxyMetadata: {FOO: bar}
    spec:
      serviceAccountName: web
      containers:
      - name: app
        image: nginx
        ports:
        - containerPort: 8080
          name: http
`;

const values = { global: { hub: 'docker.io/istio', tag: '1.20.0', proxy: { image: 'proxyv2' } } };

describe('buildTemplateData', () => {
  const [w] = workloadsFromText(deployment, 'deploy.yaml');

  it('1.5: pointers, DeploymentMeta is an ObjectMeta, Concurrency a plain int32', () => {
    const d = buildTemplateData({ version: V('1.5'), workload: w!, mesh: {}, values });
    expect(typeOf(sel(d, 'ObjectMeta'))!.name).toBe('*v1.ObjectMeta');
    expect(typeOf(sel(d, 'DeploymentMeta'))!.name).toBe('*v1.ObjectMeta');
    expect(sel(d, 'DeploymentMeta.Name')).toBe('web');
    expect(sel(d, 'DeploymentMeta.Namespace')).toBe('shop');
    expect(sel(d, 'TypeMeta.Kind')).toBe('Deployment');
    expect(sel(d, 'TypeMeta.APIVersion')).toBe('apps/v1');
    const c = sel(d, 'ProxyConfig.Concurrency');
    expect(c).toBeInstanceOf(GoNum);
    expect((c as GoNum).type.name).toBe('int32');
    // the annotation is not applied before 1.8
    expect(isTrue(sel(d, 'ProxyConfig.ProxyMetadata'))).toBe(false);
    expect(sel(d, 'Revision')).toBeUndefined();
  });

  it('1.8: hold from the pod annotation, GetValue on wrappers, InterceptionMode.String', () => {
    const d = buildTemplateData({ version: V('1.8'), workload: w!, mesh: {}, values });
    expect(sel(d, 'ProxyConfig.HoldApplicationUntilProxyStarts.GetValue')).toBe(true);
    expect(intValue(sel(d, 'ProxyConfig.Concurrency.GetValue'))).toBe(2n);
    expect(sel(d, 'ProxyConfig.InterceptionMode.String')).toBe('REDIRECT');
    expect(sel(d, 'ProxyConfig.GetTracing.GetZipkin.GetAddress')).toBe('zipkin.istio-system:9411');
    expect(sel(d, 'ProxyConfig.GetTracing.GetTlsSettings.GetCaCertificates')).toBe('');
    expect(sel(d, 'MeshConfig.TrustDomain')).toBe('cluster.local');
    const md = sel(d, 'ProxyConfig.ProxyMetadata') as GoMap;
    expect(typeOf(md)!.name).toBe('map[string]string');
    expect(md.FOO).toBe('bar');
  });

  it('1.12: values not pointers, Revision and EstimatedConcurrency', () => {
    const d = buildTemplateData({ version: V('1.12'), workload: w!, mesh: {}, values: { global: { proxy: { resources: { limits: { cpu: '1500m' } } } } }, revision: 'canary' });
    expect(typeOf(sel(d, 'ObjectMeta'))!.name).toBe('v1.ObjectMeta');
    expect(sel(d, 'Revision')).toBe('canary');
    expect(sel(d, 'EstimatedConcurrency')).toBe(2n);
  });

  it('1.20: ProxyImage, ProxyUID/GID, no EstimatedConcurrency', () => {
    const d = buildTemplateData({ version: V('1.20'), workload: w!, mesh: {}, values });
    expect(sel(d, 'ProxyImage')).toBe('docker.io/istio/proxyv2:1.20.0');
    expect(intValue(sel(d, 'ProxyUID'))).toBe(1337n);
    expect(typeOf(sel(d, 'ProxyGID'))!.name).toBe('int64');
    expect(sel(d, 'EstimatedConcurrency')).toBeUndefined();
  });

  it('1.23+: DeploymentMeta is a NamespacedName; InboundTrafficPolicyMode; 1.28 NativeSidecars; master ProxyInitImage', () => {
    const d = buildTemplateData({ version: V('1.28'), workload: w!, mesh: { inboundTrafficPolicy: { mode: 'LOCALHOST' } }, values, nativeSidecars: true });
    expect(typeOf(sel(d, 'DeploymentMeta'))!.name).toBe('types.NamespacedName');
    expect(sel(d, 'DeploymentMeta.Name')).toBe('web');
    expect(sel(d, 'InboundTrafficPolicyMode')).toBe('localhost');
    expect(sel(d, 'CompliancePolicy')).toBe('');
    expect(sel(d, 'NativeSidecars')).toBe(true);
    expect(sel(d, 'ProxyInitImage')).toBeUndefined();
    const m = buildTemplateData({ version: V('master'), workload: w!, mesh: {}, values });
    expect(sel(m, 'ProxyInitImage')).toBe('docker.io/istio/proxyv2:1.20.0');
  });

  it('pod spec through Go field names, zero values and typed nils', () => {
    const d = buildTemplateData({ version: V('1.20'), workload: w!, mesh: {}, values });
    const cs = sel(d, 'Spec.Containers') as GoValue[];
    expect(typeOf(cs)!.name).toBe('[]v1.Container');
    const c = cs[0]!;
    expect(sel(c, 'Name')).toBe('app');
    const p = (sel(c, 'Ports') as GoValue[])[0]!;
    expect(intValue(sel(p, 'ContainerPort'))).toBe(8080n);
    expect(typeOf(sel(p, 'ContainerPort'))!.name).toBe('int32');
    expect(sel(p, 'Protocol')).toBe('');
    expect(sel(c, 'ReadinessProbe')).toBeInstanceOf(GoNil);
    expect(typeOf(sel(c, 'ReadinessProbe'))!.name).toBe('*v1.Probe');
    expect(typeOf(sel(c, 'Env'))!.name).toBe('[]v1.EnvVar');
    expect(sel(d, 'Spec.ServiceAccountName')).toBe('web');
    expect(sel(d, 'Spec.HostNetwork')).toBe(false);
    expect(typeOf(sel(d, 'ObjectMeta.Annotations'))!.name).toBe('map[string]string');
    expect(sel(d, 'ObjectMeta.Namespace')).toBe('shop');
  });

  it('rejects pod JSON that encoding/json would reject', () => {
    const bad = workloadsFromText(deployment.replace('containerPort: 8080', 'containerPort: "8080"'), 'bad.yaml')[0]!;
    expect(() => buildTemplateData({ version: V('1.20'), workload: bad, mesh: {}, values })).toThrow(/cannot unmarshal string into Go struct field ContainerPort\.spec\.containers\.ports\.containerPort of type int32/);
  });
});

describe('owner heuristics (GetDeployMetaFromPod)', () => {
  it('ReplicaSet with pod-template-hash → Deployment', () => {
    const d = deployMetaFromPod({ metadata: { generateName: 'web-5d9c-', labels: { 'pod-template-hash': '5d9c' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d9c', controller: true }] } });
    expect(d).toMatchObject({ name: 'web', kind: 'Deployment', apiVersion: 'apps/v1' });
  });
  it('Job with a timestamp suffix → CronJob', () => {
    const d = deployMetaFromPod({ metadata: { generateName: 'nightly-28000000-', ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'nightly-28000000', controller: true }] } });
    expect(d).toMatchObject({ name: 'nightly', kind: 'CronJob', apiVersion: 'batch/v1' });
  });
  it('bare pod', () => {
    expect(deployMetaFromPod({ metadata: { name: 'p' } })).toMatchObject({ name: 'p', kind: 'Pod', apiVersion: 'v1' });
  });
});

describe('helpers', () => {
  it('ProxyImage: image type from annotation, tag suffix replaced', () => {
    const v = plainToGo({ global: { hub: 'h', tag: '1.2-distroless' } }) as GoMap;
    expect(proxyImage(v, '', { 'sidecar.istio.io/proxyImageType': 'debug' })).toBe('h/proxyv2:1.2-debug');
    expect(proxyImage(v, 'default', {})).toBe('h/proxyv2:1.2');
    expect(proxyImage(plainToGo({ global: { hub: 'h', tag: 1.2 } }) as GoMap, '', {})).toBe('h/proxyv2:1.2');
  });
  it('EstimatedConcurrency: the default concurrency 2 unless set; the CPU annotations only for an explicit 0', () => {
    const pc = defaultMeshConfig(V('1.12')).values.get('DefaultConfig') as never;
    expect(estimateConcurrency(pc, { 'sidecar.istio.io/proxyCPU': '100m' }, plainToGo({}) as GoMap)).toBe(2n);
    const zero = applyProxyConfig(V('1.12'), pc, { concurrency: 0 });
    expect(estimateConcurrency(zero, { 'sidecar.istio.io/proxyCPU': '100m' }, plainToGo({}) as GoMap)).toBe(1n);
    expect(estimateConcurrency(zero, { 'sidecar.istio.io/proxyCPULimit': '3' }, plainToGo({}) as GoMap)).toBe(3n);
  });
  it('OpenShift uid range', () => {
    expect(proxyIDs({ metadata: { annotations: { 'openshift.io/sa.scc.uid-range': '1000620000/10000', 'openshift.io/sa.scc.supplemental-groups': '1000620000/10000' } } })).toEqual({ uid: 1000629999n, gid: 1000629999n });
  });
});

// SIDECAR_RENDER_ISTIO_CONFIGMAPS: a folder of real <version>/istio-mesh.yaml exports, not part of this repository
const real = outside('configmaps', '1.28.0/istio-mesh.yaml');
describe.skipIf(!real)('real mesh ConfigMap', () => {
  it('loads data.mesh with defaults', () => {
    const r = loadMeshConfig(readFileSync(join(real!, '1.28.0', 'istio-mesh.yaml'), 'utf8'), V('1.28'), { file: 'istio-mesh.yaml' });
    expect(r.warnings).toEqual([]);
    expect(intValue(r.mesh.get('ProxyListenPort'))).toBe(15001n);
  });
});
