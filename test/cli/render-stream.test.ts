// Streamed rendering: workloads read one document or List item at a time must be the workloads (values,
// positions, errors) the whole-file reader finds, and the streamed output must be what is printed today.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { mayHaveAnchors, workloadStream, workloadsFromText, type Workload } from '../../src/istio/workload.js';
import { Renderer } from '../../src/istio/inject.js';
import { renderInputs } from '../../src/inputs/resolve.js';
import { renderRequest, renderStream } from '../../src/output/render.js';
import { kubeInjectStream } from '../../src/istio/kubeinject.js';
import { cli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ex = (f: string) => join(root, 'examples', f);

function deployment(i: number, indent = ''): string {
  const lines = [
    `apiVersion: apps/v1`,
    `kind: Deployment`,
    `metadata:`,
    `  name: web-${i}`,
    `  namespace: team-${i % 3}`,
    `spec:`,
    `  template:`,
    `    metadata:`,
    `      annotations:`,
    `        proxy.istio.io/config: |`,
    `          holdApplicationUntilProxyStarts: ${i % 2 === 0}`,
    `          concurrency: ${i}`,
    `    spec:`,
    `      containers:`,
    `      - name: app`,
    `        image: "registry/app:${i}"`,
    `        # a comment inside the item`,
    `        args: ["--port", "80${i % 10}"]`,
    ``,
  ];
  return lines.map((l, k) => (k === 0 ? l : l === '' ? l : indent + l)).join('\n');
}

function list(n: number, dash: string, extra = ''): string {
  const items = Array.from({ length: n }, (_, i) => `${dash}- ${deployment(i, `${dash}  `)}`).join('');
  return `apiVersion: v1\nitems:\n${items}${extra}kind: List\nmetadata:\n  resourceVersion: ""\n`;
}

function view(ws: Workload[]) {
  return ws.map((w) => ({
    kind: w.kind,
    name: w.name,
    namespace: w.namespace,
    // the item's line (the whole-file reader's fast path points at its dash, the full parser at its content)
    where: w.where.replace(/:\d+$/, ''),
    index: w.index,
    templatePath: w.templatePath,
    pod: JSON.stringify(w.pod),
    image: w.doc.where([...w.templatePath, 'spec', 'containers', 0, 'image']),
    // inside a one-line flow list the fast reader points at the list, the full parser at the element
    args: w.doc.where([...w.templatePath, 'spec', 'containers', 0, 'args', 1]).replace(/:\d+$/, ''),
    pc: w.doc.embedded([...w.templatePath, 'metadata', 'annotations', 'proxy.istio.io/config'], 'pc')?.where(['concurrency']),
    block: w.doc.blockScalarAt([...w.templatePath, 'metadata', 'annotations', 'proxy.istio.io/config']),
  }));
}

const inputs: Record<string, string> = {
  'kubectl List': list(7, ''),
  'indented List': list(5, '  '),
  'List with a Service and a flow item': list(3, '').replace('items:\n', 'items:\n- {apiVersion: v1, kind: Service, metadata: {name: s}}\n'),
  'documents': Array.from({ length: 6 }, (_, i) => deployment(i)).join('---\n'),
  'documents with Lists': `${deployment(0)}---\n${list(4, '')}---\n# only a comment\n---\n${deployment(9)}`,
  'List with anchors (read whole)': list(3, '').replace('image: "registry/app:0"', 'image: &img "registry/app:0"').replace('image: "registry/app:2"', 'image: *img'),
  'List with a cron schedule and a shell script (read item by item)': list(3, '')
    .replace('    name: web-1\n', '    name: web-1\n    schedule: "*/15 * * * *"\n')
    .replace('          args: ["--port", "801"]\n', '          args:\n          - |\n            ls *.yaml &\n            wait\n          - \'it\'\'s &x\'\n'),
};

describe('workloadStream reads the workloads the whole-file reader reads', () => {
  for (const [what, text] of Object.entries(inputs)) {
    it(what, () => {
      const lazy = [...workloadStream(text, 'w.yaml', { lazyMinBytes: 0 })];
      const whole = workloadsFromText(text, 'w.yaml');
      expect(lazy.length).toBeGreaterThan(0);
      expect(view(lazy)).toEqual(view(whole));
    });
  }

  it('reads a List with `*` and `&` in quoted scalars, comments and block scalars item by item, and one with anchors whole', () => {
    const no = ['schedule: "*/15 * * * *"\n', "schedule: '*/5 * * * *' # every *5*\n", 'script: |\n  ls *.yaml && echo a &\n  for f in *; do :; done\nb: 1\n', '- command:\n  - |\n    kill -TERM *\n  name: x\n', "a: 'it''s &x'\nb: \"\\\" *\"\n", 'a: b*c\nd: e&f\n'];
    const yes = ['a: &x 1\nb: *x\n', '- &a\n  k: v\n', 'a: [1, *x]\n', 'a: {k: &z v}\n', 'a: |\n  *x\nb: *y\n', '- k: |\n    ls *\n  j: *y\n', "a: 'x'\nb: *c\n", '? &k a\n: 1\n', 'a:\n- b: >-\n    x *\n- *c\n', "a: 'it''s' &x\n", 'a: "open\n  quote *"\n'];
    for (const t of no) expect(mayHaveAnchors(t), t).toBe(false);
    for (const t of yes) expect(mayHaveAnchors(t), t).toBe(true);
  });

  it('errors name the same file:line:col', () => {
    const cases = [
      list(4, '').replace(/(\n +)containers:\n +- name: app\n( +)image: "registry\/app:2"/, '$1containers: []$1x:\n$2image: "registry/app:2"'),
      list(4, '  ').replace('image: "registry/app:3"', 'image: [unclosed'),
      list(2, '').replace('kind: List\nmetadata:', 'kind: List\nmetadata: {bad'),
      `${deployment(0)}---\n${deployment(1).replace('kind: Deployment', 'kind: Gizmo').replace(/spec:[\s\S]*$/, '')}---\nkind: Pod\nmetadata: {name: p}\nspec: {}\n`,
    ];
    for (const [k, text] of cases.entries()) {
      let lazyErr = '';
      let wholeErr = '';
      try {
        [...workloadStream(text, 'w.yaml', { lazyMinBytes: 0 })];
      } catch (e) {
        lazyErr = (e as Error).message;
      }
      try {
        workloadsFromText(text, 'w.yaml');
      } catch (e) {
        wholeErr = (e as Error).message;
      }
      expect(lazyErr, `case ${k}`).toMatch(/^w\.yaml:\d+:\d+: /);
      expect(lazyErr, `case ${k}`).toBe(wholeErr);
    }
  });

  it('a file of non-workloads names the first one; an empty file names the file', () => {
    expect(() => [...workloadStream('kind: ConfigMap\nmetadata: {name: c}\n---\nkind: Service\n', 'x.yaml')]).toThrow(
      /^x\.yaml:1:7: kind ConfigMap has no pod template \(want Pod, Deployment, StatefulSet/,
    );
    expect(() => [...workloadStream('# nothing\n', 'e.yaml')]).toThrow(/^e\.yaml: no workloads/);
  });
});

describe('renderStream', () => {
  const cm = ex('istio-sidecar-injector.yaml');
  const mesh = ex('istio-mesh.yaml');
  const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-stream-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const big = join(dir, 'big.yaml');
  // big enough for the piece-by-piece reader
  writeFileSync(big, list(400, ''));

  it('streams one text event per workload (after the first), nothing before the inputs are checked', () => {
    const events = [...renderStream({ injectorConfigMap: cm, mesh, workloads: big })];
    const texts = events.filter((e) => e.type === 'text');
    expect(texts.length).toBeGreaterThanOrEqual(399);
    const text = texts.map((e) => (e as { text: string }).text).join('');
    expect(text.split('\n---\n# Source: ').length).toBe(400);
    expect(text.startsWith('# Source: Deployment team-0/web-0\n')).toBe(true);
  });

  it('prints what was printed before: YAML documents, JSON arrays, one workload alone', () => {
    const base = { injectorConfigMap: cm, mesh };
    const two = join(dir, 'two.yaml');
    writeFileSync(two, `${deployment(1)}---\n${deployment(2)}`);
    const one = renderRequest({ ...base, workloads: ex('deployment.yaml') });
    expect(one.text.startsWith('# Source')).toBe(false);
    expect(one.text).toBe(one.results[0]!.outputs[0]);
    const merged = renderRequest({ ...base, workloads: two, merged: true, output: 'json' });
    const arr = JSON.parse(merged.text) as { metadata: { name: string } }[];
    expect(arr.map((d) => d.metadata.name)).toEqual(['web-1', 'web-2']);
    expect(merged.text).toMatch(/^\[\n\{\n[\s\S]*\n\},\n\{\n[\s\S]*\n\}\n\]\n$/);
    const single = renderRequest({ ...base, workloads: ex('deployment.yaml'), merged: true, output: 'json' });
    expect(single.text.startsWith('{\n')).toBe(true);
    const yaml = renderRequest({ ...base, workloads: two, merged: true, output: 'yaml' });
    expect(yaml.text.split(/^---$/m)).toHaveLength(2);
  });

  it('--output-file holds exactly what stdout gets, written through a temporary file', async () => {
    const out = join(dir, 'out.yaml');
    const printed = await cli('render', '--injector-configmap', cm, '--mesh', mesh, '-f', big);
    expect(printed.code).toBe(0);
    const written = await cli('render', '--injector-configmap', cm, '--mesh', mesh, '-f', big, '--output-file', out);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe(printed.stdout);
    expect(printed.stdout).toBe(renderRequest({ injectorConfigMap: cm, mesh, workloads: big }).text);
  });
});

describe('kube-inject --merged reads a big List item by item', () => {
  const req = { injectorConfigMap: ex('istio-sidecar-injector.yaml'), mesh: ex('istio-mesh.yaml'), workloads: 'w.yaml', mode: 'kube-inject' as const, merged: true };
  const renderer = new Renderer(renderInputs(req), req);
  renderer.prepare();
  function run(text: string, lazyMinBytes: number) {
    const events = [...kubeInjectStream(renderer, text, 'w.yaml', lazyMinBytes)];
    const pick = (t: string) => events.filter((e) => e.type === t).map((e) => ('text' in e ? e.text : ''));
    return { text: pick('text').join(''), messages: pick('message'), results: events.filter((e) => e.type === 'result').length, textEvents: pick('text').length };
  }
  const service = '- apiVersion: v1\n  kind: Service\n  metadata:\n    name: s\n  spec:\n    ports:\n    - port: 80\n';
  const refused = deployment(90, '  ').replace('name: web-90', 'name: refused').replace('annotations:\n', 'annotations:\n          traffic.sidecar.istio.io/excludeOutboundPorts: "abc"\n');
  const skipped = deployment(91, '  ').replace('name: web-91', 'name: skipped').replace('annotations:\n', 'annotations:\n          sidecar.istio.io/inject: "false"\n');
  const inputs: Record<string, string> = {
    'a kubectl List, with a Service, a refused and a skipped workload in it': list(6, '').replace('items:\n', `items:\n${service}- ${refused}- ${skipped}`),
    'an indented List without apiVersion, between other documents': `kind: ConfigMap\nmetadata:\n  name: c\n---\n${list(4, '  ').replace('apiVersion: v1\n', '')}---\n${deployment(7)}`,
    'a List whose metadata has fields': list(3, '').replace('resourceVersion: ""', 'resourceVersion: "12"\n  continue: abc'),
  };
  for (const [what, text] of Object.entries(inputs)) {
    it(`prints ${what} as the whole-List reader does`, () => {
      const piece = run(text, 0);
      const whole = run(text, Infinity);
      expect(piece.results).toBeGreaterThan(2);
      expect(piece.text).toBe(whole.text);
      expect(piece.messages).toEqual(whole.messages);
      expect(piece.results).toBe(whole.results);
      // item by item: a text event per item, not one for the whole List
      expect(piece.textEvents).toBeGreaterThan(whole.textEvents);
    });
  }
  it('names a failing item where the whole-List reader names it', () => {
    const text = list(6, '').replace('items:\n', `items:\n${service}- ${refused}`);
    const m = run(text, 0).messages.find((x) => x.startsWith('error: Deployment team-0/refused'));
    expect(m).toMatch(/\(w\.yaml:10:1\): invalid value 'abc' for annotation/);
  });
});
