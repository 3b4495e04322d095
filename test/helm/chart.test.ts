// Helm's behaviours, written down: loading (directory, .tgz, subchart archives), values coalescing,
// dependencies, the built-in objects, template order, document order, schema validation, show-only,
// and one-line errors. The `shop` fixture is a chart with a directory subchart, a subchart that is
// switched by a tag, a schema, files, CRDs, a hook and NOTES.txt.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync, gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  coalesceChartValues,
  loadChart,
  loadFiles,
  mergeMaps,
  renderChart,
  sortManifests,
  splitManifests,
  templateOrder,
  type ChartRenderOptions,
} from '../../src/helm/index.js';
import { GoNum, newMap, type GoMap } from '../../src/go/reflect/value.js';
import { packChart } from '../helpers/tar.mjs';
import { iopValues } from '../../src/istio/iop.js';
import { cli } from '../helpers/cli.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const shop = join(fixtures, 'shop');
const tmp = mkdtempSync(join(tmpdir(), 'sidecar-render-helm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const base: ChartRenderOptions = { namespace: 'shop', name: 'r1' };
const render = (opts: ChartRenderOptions = {}, chart = shop) => renderChart(chart, { ...base, ...opts });
const docs = (text: string) => parseAllDocuments(text).map((d) => d.toJS());
const sources = (text: string) => [...text.matchAll(/^# Source: (.*)$/gm)].map((m) => m[1]);

function map(o: Record<string, unknown>): GoMap {
  const m = newMap();
  for (const [k, v] of Object.entries(o)) m[k] = v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof GoNum) ? map(v as Record<string, unknown>) : (v as GoMap[string]);
  return m;
}
const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

describe('the shop chart', () => {
  it('renders the expected text (Secret, ConfigMaps, Services, Deployment, StatefulSet; the hook last; NOTES.txt left out)', () => {
    const text = render().text;
    expect(text).toBe(readFileSync(join(fixtures, 'shop.expected.yaml'), 'utf8'));
    expect(sources(text)).toEqual([
      'shop/templates/configmap.yaml',
      'shop/templates/configmap.yaml',
      'shop/templates/configmap.yaml',
      'shop/templates/service.yaml',
      'shop/templates/deployment.yaml',
      'shop/charts/cache/templates/statefulset.yaml',
      'shop/templates/service.yaml',
    ]);
    expect(docs(text).map((d) => d.kind)).toEqual(['Secret', 'ConfigMap', 'ConfigMap', 'Service', 'Deployment', 'StatefulSet', 'Job']);
    expect(text).not.toContain('Thanks for installing');
  });

  it('the same chart packed as a .tgz renders the same text', () => {
    const tgz = join(tmp, 'shop-0.3.1.tgz');
    writeFileSync(tgz, packChart(shop, 'shop'));
    expect(render({}, tgz).text).toBe(render().text);
  });

  it('a subchart given as charts/NAME-VERSION.tgz is the same as the directory', () => {
    const dir = join(tmp, 'shop-with-archive');
    cpSync(shop, dir, { recursive: true });
    rmSync(join(dir, 'charts/metrics'), { recursive: true });
    writeFileSync(join(dir, 'charts/metrics-0.2.0.tgz'), packChart(join(shop, 'charts/metrics'), 'metrics'));
    const on = { set: ['tags.monitoring=true'] };
    expect(render(on, dir).text).toBe(render(on).text);
    expect(render(on, dir).text).toContain('# Source: shop/charts/metrics/templates/service.yaml');
  });

  it('subchart values: the parent table over the subchart values.yaml, globals copied down (the parent wins)', () => {
    const sts = docs(render().text).find((d) => d.kind === 'StatefulSet');
    expect(sts.spec.replicas).toBe(3); // shop values cache.size over cache's size: 1
    expect(sts.spec.template.metadata.annotations).toEqual({ env: 'prod', region: 'eu', cacheOnly: 'true', memory: '64Mi', evict: 'lru', parentLabel: 'r1-cache' });
    expect(sts.metadata.labels).toEqual({ chart: 'cache', root: 'false' });
  });

  it('dependencies: a condition false removes the subchart, a tag true adds one, the condition wins over tags', () => {
    expect(render({ set: ['cache.enabled=false'] }).text).not.toContain('charts/cache/');
    expect(render({ set: ['tags.monitoring=true'] }).text).toContain('charts/metrics/');
    expect(render().text).not.toContain('charts/metrics/');
  });

  it('aliases: one subchart listed twice under two names, each with its own values and # Source path', () => {
    const dir = join(tmp, 'shop-aliases');
    cpSync(shop, dir, { recursive: true });
    const chartYaml = readFileSync(join(dir, 'Chart.yaml'), 'utf8').replace(
      '  - name: cache\n    version: 0.1.0\n    condition: cache.enabled\n',
      '  - name: cache\n    version: ~0.1.0\n    alias: hot\n  - name: cache\n    version: ">=0.1.0"\n    alias: cold\n',
    );
    writeFileSync(join(dir, 'Chart.yaml'), chartYaml);
    const text = render({ set: ['hot.size=5', 'cold.size=7'] }, dir).text;
    expect(sources(text).filter((s) => s!.includes('/charts/'))).toEqual(['shop/charts/cold/templates/statefulset.yaml', 'shop/charts/hot/templates/statefulset.yaml']);
    expect(docs(text).filter((d) => d.kind === 'StatefulSet').map((d) => d.spec.replicas)).toEqual([7, 5]);
  });

  it('an alias needs a version the subchart meets (else it stays under its own name); kubeVersion is enforced', () => {
    const dir = join(tmp, 'shop-versions');
    cpSync(shop, dir, { recursive: true });
    writeFileSync(join(dir, 'Chart.yaml'), readFileSync(join(dir, 'Chart.yaml'), 'utf8').replace('version: 0.1.0\n    condition', 'version: ^2.0.0\n    alias: hot\n    condition').replace('appVersion: "2.0"\n', 'appVersion: "2.0"\nkubeVersion: ">=1.30.0-0"\n'));
    const text = render({}, dir).text;
    expect(text).toContain('# Source: shop/charts/cache/templates/statefulset.yaml');
    expect(text).not.toContain('charts/hot/');
    expect(() => render({ kubeVersion: '1.29' }, dir)).toThrow(/Chart\.yaml: chart requires kubeVersion: >=1\.30\.0-0 which is incompatible with Kubernetes v1\.29\.0/);
    expect(render({ kubeVersion: '1.30' }, dir).text).toContain('value: "v1.30.0"');
  });

  it("import-values: a string imports exports.NAME to the root, a mapping child to parent; the parent's own values win", () => {
    const dir = join(tmp, 'shop-imports');
    cpSync(shop, dir, { recursive: true });
    writeFileSync(join(dir, 'charts/metrics/values.yaml'), 'port: 9090\nexports:\n  defaults:\n    scrapeInterval: 30s\n    path: /metrics\n');
    writeFileSync(join(dir, 'Chart.yaml'), readFileSync(join(dir, 'Chart.yaml'), 'utf8').replace('    tags: [monitoring]\n', '    tags: [monitoring]\n    import-values:\n      - defaults\n      - child: exports.defaults\n        parent: monitoring.scrape\n'));
    writeFileSync(join(dir, 'values.yaml'), readFileSync(join(dir, 'values.yaml'), 'utf8') + 'path: /own\n');
    writeFileSync(join(dir, 'templates/imports.yaml'), 'kind: ConfigMap\nmetadata:\n  name: imports\ndata:\n  interval: {{ .Values.scrapeInterval | quote }}\n  path: {{ .Values.path | quote }}\n  nested: {{ dig \"monitoring\" \"scrape\" \"path\" \"\" .Values | quote }}\n');
    const on = docs(render({ set: ['tags.monitoring=true'] }, dir).text).find((d) => d.metadata?.name === 'imports');
    expect(on.data).toEqual({ interval: '30s', path: '/own', nested: '/metrics' });
    // a disabled dependency imports nothing (quote of a missing value prints nothing, as Sprig's)
    const off = docs(render({}, dir).text).find((d) => d.metadata?.name === 'imports');
    expect(off.data).toEqual({ interval: null, path: '/own', nested: '' });
  });

  it('a listed dependency missing from charts/ is an error', () => {
    const dir = join(tmp, 'shop-missing');
    cpSync(shop, dir, { recursive: true });
    rmSync(join(dir, 'charts/metrics'), { recursive: true });
    expect(() => render({}, dir)).toThrow(/Chart\.yaml: An error occurred while checking for chart dependencies\. .*: found in Chart\.yaml, but missing in charts\/ directory: metrics/);
  });

  it('values: -f files merge left to right, --set wins, null deletes a default, --set integers are int64', () => {
    const f1 = join(tmp, 'v1.yaml');
    const f2 = join(tmp, 'v2.yaml');
    writeFileSync(f1, 'replicas: 5\nimage:\n  tag: "1.0"\nlabels:\n  tier: null\n');
    writeFileSync(f2, 'replicas: 7\n');
    const r = render({ valuesFiles: [f1, f2], set: ['image.pullPolicy=Always', 'replicas=1000000'] });
    const dep = docs(r.text).find((d) => d.kind === 'Deployment');
    // 1000000 as float64 would print 1e+06
    expect(r.text).toContain('replicas: 1000000\n');
    expect(dep.spec.template.spec.containers[0].image).toBe('shop:1.0');
    expect(dep.spec.template.spec.containers[0].imagePullPolicy).toBe('Always');
    expect(dep.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'shop', 'helm.sh/chart': 'shop-0.3.1', team: 'web' });
    expect(plain(r.values.labels)).toEqual({ team: 'web' });
  });

  it('built-in objects: .Release, .Chart, .Capabilities (kube version, API versions), .Template', () => {
    const env = (opts: ChartRenderOptions) => docs(render(opts).text).find((d) => d.kind === 'Deployment').spec.template.spec.containers[0].env;
    expect(env({})).toEqual([
      { name: 'KUBE', value: 'v1.32.0' },
      { name: 'POLICY_V1', value: 'true' },
      { name: 'INSTALL', value: 'true' },
      { name: 'TEMPLATE', value: 'shop/templates/deployment.yaml' },
    ]);
    expect(env({ kubeVersion: '1.29' })[0].value).toBe('v1.29.0');
    const d = docs(renderChart(shop).text).find((x) => x.kind === 'Deployment');
    expect(d.metadata.name).toBe('release-name-shop');
    expect(d.metadata.namespace).toBe('default');
  });

  it('.Files: Get, Lines, Glob with * and **, AsConfig, AsSecrets; a missing file is ""', () => {
    const all = docs(render().text);
    const files = all.find((d) => d.metadata.name === 'r1-shop-files');
    expect(files.data).toEqual({ greeting: 'hello r1', motd: 'welcome to the shop\nopen 9 to 5', 'first-line': 'welcome to the shop', lines: '2', missing: '' });
    expect(all.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'r1-shop-conf').data).toEqual({ 'app.conf': 'port = 8080\n', 'log.conf': 'level = info\n' });
    const secret = all.find((d) => d.kind === 'Secret').data;
    expect(Buffer.from(secret['app.conf'], 'base64').toString()).toBe('port = 8080\n');
    expect(Object.keys(secret)).toEqual(['app.conf', 'log.conf']);
  });

  it('--include-crds prints crds/ first, untemplated; --show-only picks documents by template path', () => {
    const withCrds = render({ includeCrds: true }).text;
    expect(withCrds.startsWith('---\n# Source: shop/crds/widgets.yaml\napiVersion: apiextensions.k8s.io/v1\n')).toBe(true);
    const only = render({ showOnly: ['templates/service.yaml'] }).text;
    expect(docs(only).map((d) => d.kind)).toEqual(['Service', 'Job']);
    expect(render({ showOnly: ['charts/cache/templates/*'] }).text).toContain('kind: StatefulSet');
    expect(() => render({ showOnly: ['templates/nope.yaml'] })).toThrow('could not find template templates/nope.yaml in chart');
  });

  it('values.schema.json: violations are reported as Helm words them, per chart', () => {
    expect(() => render({ set: ['replicas=0'] })).toThrow(/values\.schema\.json: values don't meet the specifications of the schema\(s\) in the following chart\(s\): shop: - replicas: Must be greater than or equal to 1/);
    expect(() => render({ set: ['replicas=two'] })).toThrow(/- replicas: Invalid type\. Expected: integer, given: string/);
    expect(() => render({ set: ['image.pullPolicy=Sometimes'] })).toThrow(/- image\.pullPolicy: image\.pullPolicy must be one of the following: "Always", "IfNotPresent", "Never"/);
    expect(() => render({ set: ['image=null'] })).toThrow(/- \(root\): image is required/);
  });
});

describe('coalescing (chartutil.CoalesceValues)', () => {
  const chart = (values: Record<string, unknown>, deps: ReturnType<typeof loadFiles>[] = []) => {
    const c = loadFiles([{ name: 'Chart.yaml', data: Buffer.from('apiVersion: v2\nname: top\nversion: 1.0.0\n') }], 'top');
    c.values = map(values);
    c.dependencies = deps;
    for (const d of deps) d.parent = c;
    return c;
  };
  const sub = (values: Record<string, unknown>) => {
    const c = loadFiles([{ name: 'Chart.yaml', data: Buffer.from('apiVersion: v2\nname: sub\nversion: 1.0.0\n') }], 'sub');
    c.values = map(values);
    return c;
  };

  it('user maps merge into defaults; user scalars win; a user null deletes the default', () => {
    const v = coalesceChartValues(chart({ a: { b: 1, c: 2 }, d: 'x', e: 'keep' }), map({ a: { c: 3 }, d: 'y', e: null }));
    expect(plain(v)).toEqual({ a: { b: 1, c: 3 }, d: 'y' });
  });

  it('a table over a scalar default and a scalar over a table default: the user value stays, with a warning', () => {
    const warnings: string[] = [];
    const v = coalesceChartValues(chart({ a: 'scalar', t: { x: 1 } }), map({ a: { b: 1 }, t: 'flat' }), (m) => warnings.push(m));
    expect(plain(v)).toEqual({ a: { b: 1 }, t: 'flat' });
    expect(warnings).toEqual(['warning: skipped value for top.a: Not a table.']);
  });

  it("subcharts: the parent's table of the subchart's name over its values; globals flow down", () => {
    const v = coalesceChartValues(chart({ global: { g: 1, nested: { a: 1 } }, sub: { x: 2 } }, [sub({ x: 1, y: 1, global: { g: 0, own: true, nested: { b: 2 } } })]), newMap());
    expect(plain(v)).toEqual({
      global: { g: 1, nested: { a: 1 } },
      sub: { x: 2, y: 1, global: { g: 1, own: true, nested: { a: 1, b: 2 } } },
    });
  });

  it('a null for a subchart key in the parent is kept until the subchart coalesces it away', () => {
    const v = coalesceChartValues(chart({ sub: { x: null } }, [sub({ x: 1, y: 1 })]), newMap());
    expect(plain(v)).toEqual({ sub: { y: 1, global: {} } });
  });

  it('mergeMaps (-f files) keeps nulls for coalescing to act on', () => {
    expect(plain(mergeMaps(map({ a: { b: 1 } }), map({ a: { c: null } })))).toEqual({ a: { b: 1, c: null } });
  });
});

describe('order', () => {
  it('templates run deepest path first, then names in reverse (zzz_ files first)', () => {
    expect(templateOrder(['c/templates/a.yaml', 'c/templates/zzz.yaml', 'c/charts/s/templates/b.yaml', 'c/templates/_h.tpl'])).toEqual([
      'c/charts/s/templates/b.yaml',
      'c/templates/zzz.yaml',
      'c/templates/a.yaml',
      'c/templates/_h.tpl',
    ]);
  });

  it('documents: install order by kind, stable within a kind (file name, then position), unknown kinds last by name', () => {
    const files = new Map([
      ['c/templates/b.yaml', 'kind: Deployment\nmetadata: {name: dep-b}\n---\nkind: Widget\n---\nkind: ConfigMap\nmetadata: {name: cm-z}'],
      ['c/templates/a.yaml', 'kind: Apple\n---\nkind: ConfigMap\nmetadata: {name: cm-y}\n---\nkind: Namespace'],
      ['c/templates/_p.tpl', 'kind: Secret'],
      ['c/templates/hook.yaml', 'kind: Pod\nmetadata:\n  annotations:\n    helm.sh/hook: test\n---\nkind: Pod\nmetadata:\n  annotations:\n    helm.sh/hook: unknown-hook'],
    ]);
    const { manifests, hooks } = sortManifests(files);
    expect(manifests.map((m) => `${m.kind}:${m.name}`)).toEqual([
      'Namespace:c/templates/a.yaml',
      'ConfigMap:c/templates/a.yaml',
      'ConfigMap:c/templates/b.yaml',
      'Deployment:c/templates/b.yaml',
      'Apple:c/templates/a.yaml',
      'Widget:c/templates/b.yaml',
    ]);
    expect(hooks.map((h) => h.events)).toEqual([['test']]);
  });

  it('splitManifests splits at lines starting ---, trims, drops empty documents (separators never overlap, as in Go)', () => {
    expect(splitManifests('\n---\na: 1\n---\nb: 2\n  ---\nc: 3\n---\n\n---\n')).toEqual(['a: 1', 'b: 2\n  ---\nc: 3', '---']);
    // the blank line after a separator belongs to it, so the next --- has no newline of its own before it
    expect(splitManifests('a: 1\n---   \n\n---\nb: 2')).toEqual(['a: 1', '---\nb: 2']);
  });
});

describe('bad charts: one line, with the file and position', () => {
  const chartDir = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmp, 'bad-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };
  const ok = { 'Chart.yaml': 'apiVersion: v2\nname: bad\nversion: 1.0.0\n' };

  it.each([
    [{ 'values.yaml': 'a: 1\n' }, /Chart\.yaml file is missing/],
    [{ 'Chart.yaml': 'apiVersion: v2\nname: bad\n' }, /Chart\.yaml:1:1: validation: chart\.metadata\.version is required/],
    [{ 'Chart.yaml': 'apiVersion: v2\nname: bad\nversion: one\n' }, /Chart\.yaml:3:\d+: validation: chart\.metadata\.version "one" is invalid/],
    [{ 'Chart.yaml': 'apiVersion: v2\nname: bad\nversion: 1.0.0\nappVersion: 1.5\n' }, /Chart\.yaml:4:\d+: cannot load Chart\.yaml: json: cannot unmarshal number into Go struct field Metadata\.appVersion of type string/],
    [{ ...ok, 'values.yaml': 'a: [1\n' }, /values\.yaml:\d+:\d+: /],
    [{ ...ok, 'templates/x.yaml': 'a: {{ .Values.a \n' }, /templates\/x\.yaml:2:\d+: parse error: unclosed action started at bad\/templates\/x\.yaml:1/],
    [{ ...ok, 'templates/x.yaml': 'a: 1\nb: {{ required "b is needed" .Values.b }}\n' }, /templates\/x\.yaml:2:\d+: execution error: b is needed/],
    [{ ...ok, 'templates/x.yaml': 'a: 1\n  b: [\n' }, /YAML parse error on bad\/templates\/x\.yaml: error converting YAML to JSON: yaml: line 2: /],
  ])('%j', (files, want) => {
    expect(() => renderChart(chartDir(files))).toThrow(want);
  });

  it('the chart command: exit 2 and one line on stderr', async () => {
    const r = await cli('chart', chartDir({ ...ok, 'templates/x.yaml': '{{ fail "no" }}' }));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/templates\/x\.yaml:1:\d+: execution error: no/);
  });

  it('the chart command prints what renderChart renders; NAME CHART as helm template takes them', async () => {
    const r = await cli('chart', shop, '-n', 'shop', '--name', 'r1');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(render().text);
    const two = await cli('chart', 'r1', shop, '-n', 'shop');
    expect(two.stdout).toBe(r.stdout);
  });

  it('a schema naming draft 2020-12 is still applied (Helm does not look $schema up)', () => {
    // (not `n`: YAML 1.1, as yaml.v2 reads it, makes that key the boolean false)
    const dir = chartDir({ ...ok, 'values.yaml': 'count: 1\n', 'values.schema.json': '{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"count": {"type": "string"}}}' });
    expect(() => renderChart(dir)).toThrow(/- count: Invalid type\. Expected: string, given: integer/);
  });

  it('subcharts nested without end are refused; a __proto__ key in values is only a key', () => {
    let rel = '';
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      files[`${rel}Chart.yaml`] = `apiVersion: v2\nname: c${i}\nversion: 1.0.0\n`;
      rel += `charts/c${i + 1}/`;
    }
    expect(() => renderChart(chartDir(files))).toThrow(/subcharts nest more than 32 deep/);
    const r = renderChart(chartDir({ ...ok, 'values.yaml': '__proto__:\n  polluted: true\n', 'templates/x.yaml': 'p: {{ index .Values "__proto__" "polluted" }}\n' }));
    expect(r.text).toContain('p: true');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('include recursing without end stops with the error Helm gives; loops stop at the limits given', () => {
    expect(() => renderChart(chartDir({ ...ok, 'templates/x.yaml': '{{ define "a" }}{{ include "a" . }}{{ end }}{{ include "a" . }}' }))).toThrow(/templates\/x\.yaml:1:\d+: .*rendering template has a nested reference name: a/);
    expect(() => renderChart(chartDir({ ...ok, 'templates/x.yaml': '{{ range until 1000000 }}x{{ end }}' }), { limits: { maxRangeIterations: 1000 } })).toThrow(/templates\/x\.yaml:1:\d+: .*1000/);
  });

  it('an IstioOperator maps onto chart values as istioctl maps it', () => {
    const v = iopValues(readFileSync(join(fixtures, 'operator.yaml'), 'utf8'), 'operator.yaml');
    expect(plain(v)).toEqual({
      global: { proxy: { image: 'proxyv2' }, hub: 'example.com/istio', tag: '1.24.0' },
      meshConfig: { defaultConfig: { holdApplicationUntilProxyStarts: true } },
      revision: 'canary',
      profile: 'demo',
    });
    expect(() => iopValues('kind: Deployment\n', 'd.yaml')).toThrow(/d\.yaml:1:\d+: kind Deployment is not IstioOperator/);
  });

  it('archives that are not gzip, truncated, or carry a bad header checksum are one-line errors', () => {
    const good = packChart(shop, 'shop');
    const cases: [string, Buffer, RegExp][] = [
      ['plain.tgz', Buffer.from('not an archive'), /plain\.tgz: not a chart archive: not a gzip archive/],
      ['cut.tgz', gzipSync(gunzipSync(good).subarray(0, 700)), /cut\.tgz: not a chart archive: unexpected EOF/],
      ['sum.tgz', (() => { const t = Buffer.from(gunzipSync(good)); t[150] = 0x37; return gzipSync(t); })(), /sum\.tgz: not a chart archive: archive\/tar: invalid tar header/],
    ];
    for (const [name, data, want] of cases) {
      const f = join(tmp, name);
      writeFileSync(f, data);
      expect(() => loadChart(f)).toThrow(want);
    }
  });

  it('a .tgz with a path outside its directory is refused', () => {
    const tgz = join(tmp, 'evil.tgz');
    writeFileSync(tgz, packChart(shop, 'shop/../..'));
    expect(() => loadChart(tgz)).toThrow(/evil\.tgz: chart illegally/);
  });
});

describe('symbolic links in a chart folder', () => {
  const base = mkdtempSync(join(tmpdir(), 'sidecar-render-links-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const chartWith = (name: string, extra: (dir: string) => void, ignore?: string): string => {
    const dir = join(base, name);
    mkdirSync(join(dir, 'templates'), { recursive: true });
    writeFileSync(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`);
    writeFileSync(join(dir, 'templates', 'cm.yaml'), 'a: {{ .Files.Get "f/x.txt" | quote }}\n');
    if (ignore !== undefined) writeFileSync(join(dir, '.helmignore'), ignore);
    extra(dir);
    return dir;
  };
  const render = async (dir: string) => cli('chart', dir);

  it('a link inside the chart is followed, as Helm follows it', async () => {
    const dir = chartWith('inside', (d) => {
      mkdirSync(join(d, 'real'));
      writeFileSync(join(d, 'real', 'x.txt'), 'hello');
      symlinkSync('real', join(d, 'f'));
    });
    const r = await render(dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('a: "hello"');
  });

  it('a link out of the chart is refused, naming the link and its target', async () => {
    const dir = chartWith('environ', (d) => symlinkSync('/proc/self/environ', join(d, 'env')));
    const r = await render(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^sidecar-render: ${join(dir, 'env').replace(/[.]/g, '\\.')}: a link to /proc/\\d+/environ, outside the chart: links that leave the chart are not followed\\n$`));
  });

  it('a link back into the chart is refused as a loop; ignored links, even looping ones, are not read', async () => {
    const loop = chartWith('loop', (d) => symlinkSync('.', join(d, 'a')));
    const r = await render(loop);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(loop, 'a')}: a link to ${loop}, a folder that holds it: the chart would never end`);
    const ignored = chartWith('ignored', (d) => {
      symlinkSync('.', join(d, 'a'));
      symlinkSync('/', join(d, 'root'));
      symlinkSync('self', join(d, 'self'));
    }, 'a\nroot\nself\n');
    const ok = await render(ignored);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
  });

  it('a .helmignore that is a link out of the chart is refused before it is read', async () => {
    const dir = chartWith('zero', (d) => symlinkSync('/dev/zero', join(d, '.helmignore')));
    const r = await render(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('a link to /dev/zero, outside the chart');
  });
});
