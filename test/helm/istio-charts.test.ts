// Istio's istiod chart rendered as Helm renders it, checked against what Helm produced for Istio's own
// injection tests: the injector ConfigMap's config and values and the mesh ConfigMap's mesh, byte for
// byte. The charts and the expected outputs are Istio's text, never in this repository:
// SIDECAR_RENDER_ISTIO_CHARTS, SIDECAR_RENDER_ISTIO_CONFIGMAPS and SIDECAR_RENDER_ISTIO_INJECT_TESTS name
// their folders (../shared beside the checkout by default; test/helpers/outside.ts). The value sets below are what Istio's inject_test.go passes to istioctl (`values.X=Y` flags
// become `--set X=Y`; `components.cni.enabled=true` is istioctl's pilot.cni.enabled).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { renderChart, type ChartRenderOptions } from '../../src/helm/index.js';
import { iopValues } from '../../src/istio/iop.js';
import { outside } from '../helpers/outside.js';

const releases = ['1.20.0', '1.24.0', '1.28.0', 'master'];
const charts = outside('charts', ...releases.map((v) => `${v}/istio-discovery`)) ?? '';
const configmaps = outside('configmaps', ...releases.flatMap((v) => [`${v}/istio-sidecar-injector.yaml`, `${v}/istio-mesh.yaml`])) ?? '';
// a folder of release suites (<release>/testdata/...), as the conformance test reads it
const suites = outside('injectTests', '1.24.0/testdata/inject', '1.24.0/testdata/inputs');
const injectTests = suites ? join(suites, '1.24.0') : '';
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

interface Rendered {
  config: string;
  values: string;
  mesh: string;
  text: string;
}

function renderIstiod(version: string, opts: ChartRenderOptions = {}): Rendered {
  const r = renderChart(join(charts, version, 'istio-discovery'), { namespace: 'istio-system', name: 'istiod', ...opts });
  const docs = parseAllDocuments(r.text).map((d) => d.toJS() as { kind?: string; metadata?: { name?: string }; data?: Record<string, string> } | null);
  const injector = docs.find((d) => d?.kind === 'ConfigMap' && d.metadata?.name === `istio-sidecar-injector`);
  const mesh = docs.find((d) => d?.kind === 'ConfigMap' && d.metadata?.name === 'istio');
  expect(injector, 'the injector ConfigMap').toBeDefined();
  expect(mesh, 'the mesh ConfigMap').toBeDefined();
  return { config: injector!.data!.config!, values: injector!.data!.values!, mesh: mesh!.data!.mesh!, text: r.text };
}

function exported(version: string): { config: string; values: string; mesh: string } {
  const inj = parse(readFileSync(join(configmaps, version, 'istio-sidecar-injector.yaml'), 'utf8'));
  const mesh = parse(readFileSync(join(configmaps, version, 'istio-mesh.yaml'), 'utf8'));
  return { config: inj.data.config, values: inj.data.values, mesh: mesh.data.mesh };
}


describe.skipIf(!charts || !configmaps)('istiod chart: default values', () => {
  for (const v of ['1.20.0', '1.24.0', '1.28.0', 'master']) {
    it(`${v} renders, every document parses, the profile/compatibility tripwires stay silent`, () => {
      const r = renderIstiod(v);
      expect(r.text.startsWith('---\n# Source: istiod/templates/')).toBe(true);
      for (const d of parseAllDocuments(r.text)) expect(d.errors).toEqual([]);
      // what the injector needs is there: the sidecar template, JSON values, a mesh config
      expect(parse(r.config).templates.sidecar).toContain('istio-proxy');
      expect(JSON.parse(r.values).global.proxy).toBeDefined();
      expect(parse(r.mesh).defaultConfig.discoveryAddress).toBe('istiod.istio-system.svc:15012');
    });
  }

  it('1.24.0: config, values and mesh are what Helm rendered for Istio 1.24 (exported ConfigMaps)', () => {
    const r = renderIstiod('1.24.0');
    const want = exported('1.24.0');
    expect(r.config).toBe(want.config);
    expect(r.values).toBe(want.values);
    expect(r.mesh).toBe(want.mesh);
  });

  it("1.20.0: the same, with the values Istio 1.20's default profile added", () => {
    const plain = renderIstiod('1.20.0');
    const want = exported('1.20.0');
    expect(plain.config).toBe(want.config);
    // chart defaults alone lack what istioctl's profile set
    expect(plain.values).not.toBe(want.values);
    const r = renderIstiod('1.20.0', { valuesFiles: [join(fixtures, 'istio-1.20-inject-test-values.yaml')] });
    expect(r.config).toBe(want.config);
    expect(r.values).toBe(want.values);
    expect(r.mesh).toBe(want.mesh);
  });

  for (const v of ['1.28.0', 'master']) {
    it(`${v}: the sidecar template and the values equal the export built from the chart's defaults`, () => {
      const r = renderIstiod(v);
      const want = exported(v);
      expect(parse(r.config).templates.sidecar).toBe(parse(want.config).templates.sidecar);
      expect(JSON.parse(r.values)).toEqual(JSON.parse(want.values));
    });
  }

  it('revision names the ConfigMaps and reaches the injector values', () => {
    const r = renderChart(join(charts, '1.24.0', 'istio-discovery'), { set: ['revision=canary'], showOnly: ['templates/istiod-injector-configmap.yaml'] });
    const doc = parse(r.text);
    expect(doc.metadata.name).toBe('istio-sidecar-injector-canary');
    expect(JSON.parse(doc.data.values).revision).toBe('canary');
  });

  it('an unknown profile fails as the chart says, naming the template file and position', () => {
    expect(() => renderChart(join(charts, '1.24.0', 'istio-discovery'), { set: ['profile=nope'] })).toThrow(/zzz_profile\.yaml:\d+:\d+: .*unknown profile nope/);
  });

  it('the demo profile of the chart applies (files/profile-demo.yaml through zzz_profile.yaml)', () => {
    const plain = renderIstiod('1.24.0');
    const demo = renderIstiod('1.24.0', { set: ['profile=demo'] });
    expect(demo.mesh).not.toBe(plain.mesh);
    expect(parse(demo.mesh).accessLogFile).toBe('/dev/stdout');
  });
});

// Istio 1.24's injection test cases with their own settings: gen-file prefix → --set flags, or an IOP file.
const CASES: Record<string, string[] | { iop: string }> = {
  default: [],
  'hello.yaml.0': ['pilot.cni.enabled=true', 'cni.provider=default', 'global.network=network1'],
  'hello.yaml.1': ['global.proxy.image=proxyTest'],
  'hello.yaml.3': ['global.imagePullPolicy=Always'],
  'hello.yaml.4': ['global.imagePullPolicy=Never'],
  'traffic-params.yaml.6': ['global.proxy.includeIPRanges=127.0.0.1/24\\,10.96.0.1/24', 'global.proxy.excludeIPRanges=10.96.0.2/24\\,10.96.0.3/24', 'global.proxy.excludeInboundPorts=4\\,5\\,6', 'global.proxy.statusPort=0'],
  'status_params.yaml.7': ['global.proxy.statusPort=123', 'global.proxy.readinessInitialDelaySeconds=100', 'global.proxy.readinessPeriodSeconds=200', 'global.proxy.readinessFailureThreshold=300'],
  'kubevirtInterfaces.yaml.8': ['global.proxy.statusPort=123', 'global.proxy.readinessInitialDelaySeconds=100', 'global.proxy.readinessPeriodSeconds=200', 'global.proxy.readinessFailureThreshold=300'],
  'hello.yaml.9': { iop: 'hello-image-secrets-in-values.iop.yaml' },
  'hello-image-pull-secret.yaml.10': { iop: 'hello-image-secrets-in-values.iop.yaml' },
  'hello.yaml.11': { iop: 'hello-template-in-values.iop.yaml' },
  'hello.yaml.12': ['global.mountMtlsCerts=true'],
  'hello.yaml.13': ['pilot.cni.enabled=true', 'cni.provider=multus'],
  'hello-existing-cncf-networks.yaml.14': ['pilot.cni.enabled=true', 'cni.provider=multus'],
  'hello-existing-cncf-networks-json.yaml.15': ['pilot.cni.enabled=true', 'cni.provider=multus'],
  'hello.yaml.16': ['global.proxy.holdApplicationUntilProxyStarts=true'],
  'hello-probes.yaml.17': ['global.proxy.holdApplicationUntilProxyStarts=true'],
  'hello-probes-noProxyHoldApplication-ProxyConfig.yaml.19': ['global.proxy.holdApplicationUntilProxyStarts=true'],
  'proxy-override-runas.yaml.33': ['pilot.cni.enabled=true'],
  'custom-template.yaml.43': { iop: 'custom-template.iop.yaml' },
  'merge-probers.yaml.46': ['global.proxy.holdApplicationUntilProxyStarts=true'],
  'hello-openshift.yaml.50': ['pilot.cni.enabled=true'],
  'hello-openshift-custom-injection.yaml.51': ['pilot.cni.enabled=true'],
};

describe.skipIf(!charts || !injectTests)("istiod 1.24 chart with the value sets of Istio's injection tests", () => {
  for (const [name, how] of Object.entries(CASES)) {
    it(`${name}: template, values and mesh equal ${name}.*.gen.yaml`, () => {
      const opts: ChartRenderOptions = Array.isArray(how) ? { set: how } : { baseValues: iopValues(readFileSync(join(injectTests, 'testdata/inject', how.iop), 'utf8'), how.iop) };
      const r = renderIstiod('1.24.0', opts);
      const gen = (part: string) => readFileSync(join(injectTests, 'testdata/inputs', `${name}.${part}.gen.yaml`), 'utf8');
      expect(r.config).toBe(gen('template'));
      expect(r.values).toBe(gen('values'));
      expect(r.mesh).toBe(gen('mesh'));
    });
  }
});
