// `render --merged` in webhook mode gives every document back, in order, as kube-inject mode does:
// workloads injected, other objects (a Service, a ConfigMap) as read, a List as a List with its items
// injected in place. Plain `render` (the template output) still prints the workloads alone.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RenderRequest } from '../../src/inputs/resolve.js';
import { renderRequest, renderStream } from '../../src/output/render.js';
import { loadYamlDocuments } from '../../src/yaml/load.js';
import { goJsonMarshal } from '../../src/go/encoding/json/json.js';
import { jsonToYaml } from '../../src/yaml/emit.js';
import type { GoValue } from '../../src/go/reflect/value.js';
import { cli } from '../helpers/cli.js';
import { outside } from '../helpers/outside.js';

// Istio 1.24's exported ConfigMaps and the multi-document inputs of its injection tests
const configmaps = outside('configmaps', '1.24.0/istio-sidecar-injector.yaml', '1.24.0/istio-mesh.yaml');
const suites = outside('injectTests', ...['frontend.yaml', 'hello-service.yaml', 'list.yaml', 'list-frontend.yaml', 'deploymentconfig-multi.yaml'].map((f) => `1.24.0/testdata/inject/${f}`));
const ready = configmaps !== undefined && suites !== undefined;
const cm = configmaps ? join(configmaps, '1.24.0') : '';
const inputs = suites ? join(suites, '1.24.0', 'testdata', 'inject') : '';
const input = (f: string) => join(inputs, f);

type Obj = Record<string, any>;

function run(workloads: string | string[], extra: Partial<RenderRequest> = {}) {
  return renderRequest({
    injectorConfigMap: join(cm, 'istio-sidecar-injector.yaml'),
    mesh: join(cm, 'istio-mesh.yaml'),
    workloads,
    merged: true,
    ...extra,
  });
}

/** Documents as Go reads them, as plain JSON. */
function docs(text: string, file = 'out.yaml'): Obj[] {
  return loadYamlDocuments(text, file).map((d) => JSON.parse(goJsonMarshal(d.value)) as Obj);
}

/** kube-inject's output documents (each followed by `---`). */
function kubeInjectDocs(files: string[]): Obj[] {
  return docs(run(files, { mode: 'kube-inject' }).text);
}

const ident = (o: Obj): string => `${o.kind} ${o.metadata?.name ?? ''}`;
const shape = (o: Obj): unknown => (Array.isArray(o.items) ? [ident(o), o.items.map(shape)] : ident(o));
const proxied = (o: Obj): boolean => {
  const pod = o.kind === 'Pod' ? o : (o.spec?.template ?? o.spec?.jobTemplate?.spec?.template);
  return (pod?.spec?.containers ?? []).some((c: Obj) => c.name === 'istio-proxy');
};

describe.skipIf(!ready)('render --merged in webhook mode keeps every document', () => {
  // Istio's multi-document and List inputs: the same documents, in the same order, as kube-inject
  for (const files of [['frontend.yaml'], ['hello-service.yaml'], ['list.yaml'], ['list-frontend.yaml'], ['deploymentconfig-multi.yaml'], ['list-frontend.yaml', 'frontend.yaml', 'list.yaml']]) {
    it(files.join(' + '), () => {
      const paths = files.map(input);
      const out = run(paths);
      expect(out.failed).toBe(0);
      const got = docs(out.text);
      const given = paths.flatMap((p) => docs(readFileSync(p, 'utf8'), p));
      expect(got.map(shape)).toEqual(kubeInjectDocs(paths).map(shape));
      expect(got.map(shape)).toEqual(given.map(shape));
      const flat = (l: Obj[]): [Obj, Obj][] => l.flatMap((o) => (Array.isArray(o.items) ? o.items.map((i: Obj) => [o, i] as [Obj, Obj]) : [[o, o] as [Obj, Obj]]));
      const before = flat(given).map(([, o]) => o);
      flat(got).forEach(([, o], i) => {
        // a workload is injected; anything else comes back exactly as it was read
        if (out.results.some((r) => r.label.endsWith(o.metadata.name) && r.workload.kind === o.kind)) expect(proxied(o), ident(o)).toBe(true);
        else expect(o, ident(o)).toEqual(before[i]);
      });
      // the List itself keeps its fields (kubectl's `kind: List`, no metadata added)
      got.forEach((o, i) => {
        if (!Array.isArray(o.items)) return;
        const { items: _a, ...h1 } = o;
        const { items: _b, ...h2 } = given[i]!;
        expect(h1).toEqual(h2);
      });
    });
  }

  it('a ConfigMap beside a workload, across files', () => {
    const configMap = join(cm, 'istio-mesh.yaml');
    const out = run([configMap, input('frontend.yaml')]);
    const got = docs(out.text);
    expect(got.map((o) => o.kind)).toEqual(['ConfigMap', 'Service', 'Deployment']);
    expect(got[0]).toEqual(docs(readFileSync(configMap, 'utf8'))[0]);
    expect(proxied(got[2]!)).toBe(true);
    // a file with no workload at all is given back too, not refused
    expect(docs(run(configMap).text)).toEqual([got[0]]);
  });

  it('-o json: one document alone, several as an array; a List as an object with its items', () => {
    const one = JSON.parse(run(input('list-frontend.yaml'), { output: 'json' }).text) as Obj;
    expect(shape(one)).toEqual(shape(docs(readFileSync(input('list-frontend.yaml'), 'utf8'))[0]!));
    const several = JSON.parse(run([input('list.yaml'), input('frontend.yaml')], { output: 'json' }).text) as Obj[];
    expect(several.map(shape)).toEqual(kubeInjectDocs([input('list.yaml'), input('frontend.yaml')]).map(shape));
  });

  it('the command prints the same, and exits 0', async () => {
    const files = [input('list-frontend.yaml'), input('frontend.yaml')];
    const args = ['render', '-q', '--injector-configmap', join(cm, 'istio-sidecar-injector.yaml'), '--mesh', join(cm, 'istio-mesh.yaml'), '--merged', ...files.flatMap((f) => ['-f', f])];
    const printed = await cli(...args);
    expect(printed.code).toBe(0);
    expect(printed.stderr).toBe('');
    expect(printed.stdout).toBe(run(files).text);
  });

  it('plain render still prints the workloads alone', () => {
    const out = run([input('list-frontend.yaml'), input('frontend.yaml')], { merged: false });
    expect(out.results.map((r) => r.label)).toEqual(['Deployment frontend', 'Deployment frontend']);
    expect(out.text).not.toMatch(/^kind: (Service|List)$/m);
    expect(out.text.split(/^---$/m)).toHaveLength(2);
  });
});

describe.skipIf(!ready)('a List printed item by item', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-passthrough-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const deployment = (i: number, inject = true) =>
    [
      `  - apiVersion: apps/v1`,
      `    kind: Deployment`,
      `    metadata: {name: web-${i}, namespace: team}`,
      `    spec:`,
      `      template:`,
      `        metadata:`,
      `          labels: {app: web}`,
      ...(inject ? [] : [`          annotations: {sidecar.istio.io/inject: "false"}`]),
      `        spec:`,
      `          containers:`,
      `          - name: app`,
      `            image: "registry/app:${i}"`,
      `            args: ["a long argument that the emitter may fold, a long argument that the emitter may fold ${i}"]`,
    ].join('\n');
  // a note with spaces the emitter folds at a column, the same inside a List as alone; `bulk` bytes
  // more make the file large
  const service = (i: number, bulk = 0) =>
    `  - {apiVersion: v1, kind: Service, metadata: {name: svc-${i}, annotations: {note: "<&> ${i}${' folded words'.repeat(20)}", bulk: "${'x'.repeat(bulk)}"}}, spec: {ports: [{port: 80}]}}`;
  const list = (n: number, bulk = 0) =>
    `apiVersion: v1\nkind: List\nitems:\n${Array.from({ length: n }, (_, i) => (i % 2 === 0 ? service(i, bulk) : deployment(i, i % 7 !== 3))).join('\n')}\nmetadata:\n  resourceVersion: ""\n`;

  /** What emitting the whole document at once gives. */
  const whole = (text: string, json: boolean): string => {
    const values = loadYamlDocuments(text, 'out').map((d) => d.value as GoValue);
    return values.map((v) => (json ? goJsonMarshal(v, { indent: '  ' }) + '\n' : jsonToYaml(goJsonMarshal(v)))).join(json ? '' : '---\n');
  };

  const cases: [string, string][] = [
    ['large (read item by item)', list(24, 24000)],
    ['small (read whole)', list(12)],
    ['no items', 'apiVersion: v1\nkind: List\nitems: []\n'],
    ['fields after the items only', `kind: List\nitems:\n${deployment(1)}\n`],
  ];
  for (const [what, text] of cases) {
    it(what, () => {
      const f = join(dir, `${what.replace(/\W+/g, '-')}.yaml`);
      writeFileSync(f, text);
      if (what.startsWith('large')) {
        expect(text.length).toBeGreaterThan(256 * 1024);
        // printed as the items are rendered, not held until the List ends
        const events = [...renderStream({ injectorConfigMap: join(cm, 'istio-sidecar-injector.yaml'), workloads: f, merged: true })];
        const firstText = events.findIndex((e) => e.type === 'text');
        const lastResult = events.map((e) => e.type).lastIndexOf('result');
        expect(firstText).toBeGreaterThan(0);
        expect(firstText).toBeLessThan(lastResult);
        expect(events.filter((e) => e.type === 'text').length).toBeGreaterThanOrEqual(24);
      }
      for (const output of ['yaml', 'json'] as const) {
        const out = run(f, { output });
        expect(out.failed).toBe(0);
        expect(out.text, output).toBe(whole(out.text, output === 'json'));
        const got = docs(out.text)[0]!;
        expect(got.kind).toBe('List');
        const given = docs(text)[0]!;
        expect(got.items.map(ident)).toEqual(given.items.map(ident));
        got.items.forEach((o: Obj, i: number) => {
          // skipped workloads and Services as written; the others injected
          if (o.kind === 'Service' || i % 7 === 3) expect(o).toEqual(given.items[i]);
          else expect(proxied(o)).toBe(true);
        });
      }
      // as the first of several documents
      const two = run([f, input('frontend.yaml')], { output: 'json' });
      const arr = JSON.parse(two.text) as Obj[];
      expect(arr.map((o) => o.kind)).toEqual(['List', 'Service', 'Deployment']);
      const yaml = run([input('frontend.yaml'), f, f]);
      expect(docs(yaml.text).map((o) => o.kind)).toEqual(['Service', 'Deployment', 'List', 'List']);
      expect(yaml.text).toBe(whole(yaml.text, false));
    });
  }

  it('a List inside a List', () => {
    const f = join(dir, 'nested.yaml');
    writeFileSync(f, `apiVersion: v1\nkind: List\nitems:\n${service(0)}\n  - apiVersion: v1\n    kind: List\n    items:\n${list(3).split('items:\n')[1]!.split('\nmetadata:')[0]!.replace(/^/gm, '    ')}\n`);
    const out = run(f);
    const got = docs(out.text)[0]!;
    expect(shape(got)).toEqual(shape(docs(readFileSync(f, 'utf8'))[0]!));
    expect(proxied(got.items[1].items[1])).toBe(true);
    expect(out.text).toBe(whole(out.text, false));
  });

  it('a workload that fails is named, and left out of its List', () => {
    const f = join(dir, 'bad.yaml');
    writeFileSync(f, list(4).replace('labels: {app: web}\n        spec:\n          containers:\n          - name: app\n            image: "registry/app:1"', 'labels: {app: web}\n          annotations: {traffic.sidecar.istio.io/includeOutboundIPRanges: "not-a-range"}\n        spec:\n          containers:\n          - name: app\n            image: "registry/app:1"'));
    const out = run(f);
    expect(out.failed).toBe(1);
    expect(out.messages.join('\n')).toMatch(/error: Deployment team\/web-1/);
    expect(docs(out.text)[0]!.items.map(ident)).toEqual(['Service svc-0', 'Service svc-2', 'Deployment web-3']);
  });
});
