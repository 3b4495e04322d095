// Case (r) of bench/run.js: the `sidecar` template of real istio-sidecar-injector ConfigMaps, one
// case per release folder (<folder>/<release>/{istio-sidecar-injector,istio-mesh}.yaml), rendered warm
// for examples/deployment.yaml. TypeScript: the template as `render` parses it, executed over the data
// `render` builds. Go: the same text through text/template + Sprig + the Istio functions of
// tools/gorender, over the same data decoded into a stand-in of istiod's SidecarTemplateData
// (tools/gorender/sidecar.go). The ConfigMaps are not part of this repository; the case runs when a
// folder of them is found (SIDECAR_RENDER_ISTIO_CONFIGMAPS, or ../shared/istio-configmaps).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folder of real ConfigMaps, if there is one. */
export function configMapFolder(root) {
  const dir = process.env.SIDECAR_RENDER_ISTIO_CONFIGMAPS ?? join(root, '..', 'shared', 'istio-configmaps');
  return existsSync(dir) ? dir : undefined;
}

/** Releases from 1.12 (what the Go stand-in models) with both files, oldest first (master last). */
export function releases(dir) {
  const key = (v) => (v === 'master' ? [Infinity] : v.split('.').map(Number));
  return readdirSync(dir)
    .filter((v) => existsSync(join(dir, v, 'istio-sidecar-injector.yaml')) && existsSync(join(dir, v, 'istio-mesh.yaml')))
    .filter((v) => v === 'master' || (key(v)[0] === 1 && key(v)[1] >= 12) || key(v)[0] > 1)
    .sort((a, b) => {
      const x = key(a);
      const y = key(b);
      for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
      return 0;
    });
}

/** What the TypeScript side renders and the Go side's data for one release. */
export function realCase(imp, root, dir, release) {
  const { Renderer, renderInputs } = imp.render;
  const { workloadsFromText } = imp.workload;
  const { buildTemplateData } = imp.data;
  const { goJsonMarshal } = imp.json;
  const workloads = join(root, 'examples', 'deployment.yaml');
  const req = {
    injectorConfigMap: join(dir, release, 'istio-sidecar-injector.yaml'),
    mesh: join(dir, release, 'istio-mesh.yaml'),
    workloads,
  };
  const inputs = renderInputs(req);
  const r = new Renderer(inputs, req);
  const w = workloadsFromText(readFileSync(workloads, 'utf8'), workloads)[0];
  const d = buildTemplateData({ version: r.version, workload: w, values: inputs.values, mesh: inputs.mesh, revision: '', nativeSidecars: false, kubeDefaults: true });
  const t = r.template('sidecar');

  // The Go stand-in's fields, filled from the same data (see tools/gorender/sidecar.go).
  const json = (x) => JSON.parse(goJsonMarshal(x));
  const f = (s, n) => (s && typeof s.field === 'function' ? s.field(n) : undefined);
  const num = (x) => (x && typeof x === 'object' && 'v' in x ? Number(x.v) : Number(x ?? 0));
  const pc = f(d, 'ProxyConfig');
  const mc = f(d, 'MeshConfig');
  const hold = f(pc, 'HoldApplicationUntilProxyStarts');
  const tracing = f(pc, 'Tracing');
  const tls = f(tracing, 'TlsSettings');
  const drain = f(pc, 'DrainDuration');
  const spec = f(d, 'Spec');
  const goData = {
    TypeMeta: { Kind: f(f(d, 'TypeMeta'), 'Kind'), APIVersion: f(f(d, 'TypeMeta'), 'APIVersion') },
    DeploymentMeta: { Name: f(f(d, 'DeploymentMeta'), 'Name'), Namespace: f(f(d, 'DeploymentMeta'), 'Namespace') },
    ObjectMeta: json(f(d, 'ObjectMeta')),
    Spec: { Containers: json(f(spec, 'Containers')), ServiceAccountName: f(spec, 'ServiceAccountName') },
    ProxyConfig: {
      configPath: f(pc, 'ConfigPath'),
      binaryPath: f(pc, 'BinaryPath'),
      serviceCluster: f(pc, 'ServiceCluster'),
      discoveryAddress: f(pc, 'DiscoveryAddress'),
      proxyAdminPort: num(f(pc, 'ProxyAdminPort')),
      statusPort: num(f(pc, 'StatusPort')),
      drainDuration: drain ? { Seconds: num(f(drain, 'Seconds')), Nanos: num(f(drain, 'Nanos')) } : null,
      proxyMetadata: json(f(pc, 'ProxyMetadata') ?? {}),
      interceptionMode: num(f(pc, 'InterceptionMode')),
      holdApplicationUntilProxyStarts: hold ? { Value: f(hold, 'Value') === true } : null,
      tracing: tracing ? { TlsSettings: tls ? { CaCertificates: f(tls, 'CaCertificates') ?? '' } : null } : null,
    },
    MeshConfig: { ProxyListenPort: num(f(mc, 'ProxyListenPort')), ProxyInboundListenPort: num(f(mc, 'ProxyInboundListenPort')), TrustDomain: f(mc, 'TrustDomain') ?? '' },
    Values: json(f(d, 'Values')),
    Revision: f(d, 'Revision') ?? '',
    ProxyImage: f(d, 'ProxyImage') ?? '',
    ProxyInitImage: f(d, 'ProxyInitImage') ?? '',
    ProxyUID: num(f(d, 'ProxyUID')),
    ProxyGID: num(f(d, 'ProxyGID')),
    EstimatedConcurrency: num(f(d, 'EstimatedConcurrency')),
  };
  return { template: inputs.config.templates.sidecar, tsOp: () => t.execute(d), tsOutput: t.execute(d), goData };
}
