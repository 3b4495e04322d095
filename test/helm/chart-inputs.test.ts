// A chart where a ConfigMap goes: render, audit and golden take --chart and use the injector and mesh
// ConfigMaps it renders. With Istio's istiod charts and exported ConfigMaps (SIDECAR_RENDER_ISTIO_CHARTS,
// SIDECAR_RENDER_ISTIO_CONFIGMAPS, or ../shared beside the checkout), `render --chart` must give the
// same pods as `render --injector-configmap` of the ConfigMaps Helm rendered.

import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { chartConfigMaps, injectorInputsFromChart } from '../../src/istio/fromchart.js';
import { renderRequest } from '../../src/output/render.js';
import { cli } from '../helpers/cli.js';
import { outside } from '../helpers/outside.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const releases = ['1.20.0', '1.24.0', '1.28.0', 'master'];
const charts = outside('charts', ...releases.map((v) => `${v}/istio-discovery`)) ?? '';
const configmaps = outside('configmaps', ...releases.flatMap((v) => [`${v}/istio-sidecar-injector.yaml`, `${v}/istio-mesh.yaml`])) ?? '';
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const workloads = ['deployment.yaml', 'job.yaml', 'deployment-hold-annotation.yaml'].map((w) => join(root, 'test/golden/seeds/workloads', w));
const tmp = mkdtempSync(join(tmpdir(), 'sidecar-render-chart-inputs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// A chart of our own that renders an injector and a mesh ConfigMap, per revision, as istiod's does.
const miniIstiod = (): string => join(fixtures, 'mini-istiod');

describe('--chart with a chart of our own', () => {
  const chart = miniIstiod();

  it('chartConfigMaps picks the injector and mesh ConfigMaps of the revision the values choose', () => {
    const def = chartConfigMaps({ chart });
    expect(parse(def.injector.text).metadata.name).toBe('istio-sidecar-injector');
    expect(parse(def.mesh!.text).metadata.name).toBe('istio');
    const canary = chartConfigMaps({ chart, set: ['revision=canary'] });
    expect(canary.revision).toBe('canary');
    expect(parse(canary.injector.text).metadata.name).toBe('istio-sidecar-injector-canary');
    expect(canary.injector.name).toMatch(/^mini-istiod\/templates\/injector\.yaml \(rendered from /);
  });

  it('injectorInputsFromChart gives what loadInjectorConfigMap gives, values from the chart', () => {
    const inputs = injectorInputsFromChart({ chart, set: ['global.proxy.holdApplicationUntilProxyStarts=true'] });
    expect(Object.keys(inputs.config.templates)).toEqual(['sidecar']);
    expect((inputs.values as { global: { proxy: { holdApplicationUntilProxyStarts: boolean } } }).global.proxy.holdApplicationUntilProxyStarts).toBe(true);
  });

  it('render --chart: chart values flow into the template; a values change changes the pod', async () => {
    const plain = await cli('render', '--chart', chart, '-f', workloads[0]!, '--merged');
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('image: proxyv2');
    expect(plain.stdout).not.toContain('pilot-agent');
    const hold = await cli('render', '--chart', chart, '--chart-set', 'global.proxy.holdApplicationUntilProxyStarts=true', '-f', workloads[0]!, '--merged');
    expect(hold.stdout).toMatch(/- pilot-agent\n\s+- wait/);
    const f = join(tmp, 'v.yaml');
    writeFileSync(f, 'global:\n  proxy:\n    image: other\n');
    const img = await cli('render', '--chart', chart, '--chart-values', f, '-f', workloads[0]!);
    expect(img.stdout).toContain('image: other');
  });

  it("render --chart: the chart's revision is istiod's revision unless --revision says otherwise", async () => {
    const status = (out: string) => JSON.parse(/sidecar\.istio\.io\/status: '(.*)'/.exec(out)![1]!).revision;
    // The status annotation names the revision from Istio 1.11; the chart alone reads as 1.10.
    const v = ['--istio-version', '1.20'];
    expect(status((await cli('render', '--chart', chart, ...v, '-f', workloads[0]!, '--merged')).stdout)).toBe('default');
    expect(status((await cli('render', '--chart', chart, ...v, '--chart-set', 'revision=canary', '-f', workloads[0]!, '--merged')).stdout)).toBe('canary');
    expect(status((await cli('render', '--chart', chart, ...v, '--chart-set', 'revision=canary', '--revision', 'other', '-f', workloads[0]!, '--merged')).stdout)).toBe('other');
  });

  it('audit --chart finds what the chart values cause', async () => {
    const off = await cli('audit', '--chart', chart, '-f', workloads[1]!, '-o', 'json');
    const on = await cli('audit', '--chart', chart, '--chart-set', 'global.proxy.holdApplicationUntilProxyStarts=true', '-f', workloads[1]!, '-o', 'json');
    const rules = (s: string) => (JSON.parse(s) as { rule: string }[]).map((x) => x.rule);
    expect(rules(off.stdout)).not.toContain('hold-with-restart-never');
    expect(rules(on.stdout)).toContain('hold-with-restart-never');
  });

  it('golden cases take chart, chartValues, chartSet', async () => {
    const dir = join(tmp, 'golden');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'matrix.yaml'), `goldenDir: out\ncases:\n  - name: hold\n    chart: ${chart}\n    chartSet: [global.proxy.holdApplicationUntilProxyStarts=true]\n    workloads: ${workloads[0]}\n    merged: true\n`);
    const up = await cli('golden', 'update', join(dir, 'matrix.yaml'));
    expect(up.code).toBe(0);
    const check = await cli('golden', 'check', join(dir, 'matrix.yaml'));
    expect(check.stdout).toMatch(/^1 passed, 0 changed, 0 missing\n$/);
    const want = renderRequest({ workloads: workloads[0]!, merged: true, chart: { chart, set: ['global.proxy.holdApplicationUntilProxyStarts=true'] } }).text;
    expect(readFileSync(join(dir, 'out/hold.yaml'), 'utf8')).toBe(want);
  });

  it('bad uses are one line and exit 2', async () => {
    const both = await cli('render', '--chart', chart, '--injector-configmap', join(root, 'examples/istio-sidecar-injector.yaml'), '-f', workloads[0]!);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^sidecar-render: give only one of --injector-configmap, --chart\n$/);
    const missing = await cli('render', '--chart', join(tmp, 'nope'), '-f', workloads[0]!);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope: no such chart directory or archive\n$/);
    const iopAlone = await cli('render', '--iop', join(fixtures, 'istio-1.20-inject-test-values.yaml'), '--injector-configmap', join(root, 'examples/istio-sidecar-injector.yaml'), '-f', workloads[0]!);
    expect(iopAlone.code).toBe(2);
  });
});

describe.skipIf(!charts || !configmaps)('render --chart of istiod = render --injector-configmap of what Helm rendered', () => {
  for (const [v, extra] of [
    ['1.20.0', ['--chart-values', join(fixtures, 'istio-1.20-inject-test-values.yaml')]],
    ['1.24.0', []],
    ['1.28.0', []],
    ['master', []],
  ] as const) {
    it(`${v}: the same merged pods for the seed workloads`, async () => {
      for (const w of workloads) {
        const a = await cli('render', '--chart', join(charts, v, 'istio-discovery'), ...extra, '-f', w, '--merged', '--kube-version', '1.33');
        const b = await cli('render', '--injector-configmap', join(configmaps, v, 'istio-sidecar-injector.yaml'), '--mesh', join(configmaps, v, 'istio-mesh.yaml'), '-f', w, '--merged', '--kube-version', '1.33');
        expect(a.code, a.stderr).toBe(0);
        expect(a.stdout).toContain('istio-proxy');
        expect(a.stdout).toBe(b.stdout);
      }
    });
  }
});

describe('--chart with links the chart ignores', () => {
  it('renders: the cache key records links, never walks into them (a -> ., root -> /)', async () => {
    const c = join(tmp, 'linked-istiod');
    cpSync(miniIstiod(), c, { recursive: true });
    symlinkSync('.', join(c, 'a'));
    symlinkSync('/', join(c, 'root'));
    appendFileSync(join(c, '.helmignore'), 'a\nroot\n');
    const r = await cli('render', '-q', '--chart', c, '-f', workloads[0]!, '--merged');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('name: istio-proxy');
  });
});
