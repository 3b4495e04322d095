// What `render` prints in each mode, as the README's command table, docs/commands.md and `render --help` say: the
// template stage output istiod produces; with --merged the pod istiod admits; with --mode kube-inject
// --merged the file as istioctl kube-inject prints it, -o yaml the same and -o json the same objects
// as `kubectl ... -o json` prints them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadYamlDocuments } from '../../src/yaml/load.js';
import { goJsonMarshal } from '../../src/go/encoding/json/json.js';
import { renderStream } from '../../src/output/render.js';
import { cli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ex = (f: string) => join(root, 'examples', f);
const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-modes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

type Obj = Record<string, unknown>;
const inputs = ['--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml')];
const kubeInject = (...args: string[]) => cli('render', '-q', ...inputs, '--mode', 'kube-inject', '--merged', ...args);

/** The documents of a YAML output as Go reads them, as plain JSON objects. */
function objects(yaml: string): Obj[] {
  return loadYamlDocuments(yaml, 'out.yaml')
    .filter((d) => d.value !== null)
    .map((d) => JSON.parse(goJsonMarshal(d.value)) as Obj);
}

/** What `kubectl ... -o json` makes of several objects. */
const kubectlList = (items: Obj[]) => ({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } });

const service = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: reviews\n  namespace: bookinfo\nspec:\n  ports:\n  - port: 9080\n';
const pod = (name: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: bookinfo\nspec:\n  containers:\n  - name: app\n    image: "app:1"\n`;

describe('what each mode prints, in the README and in render --help', () => {
  const says = [
    ['the template stage output istiod produces', ''],
    ['the pod istiod admits', '--merged'],
    ['the file as istioctl kube-inject prints it', '--mode kube-inject --merged'],
  ];

  it('the README command table', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const row = readme.split('\n').find((l) => l.startsWith('| `sidecar-render render` |'))!;
    expect(row).toBeDefined();
    expect(row).not.toContain('as `istioctl kube-inject` would');
    for (const [what, flags] of says) expect(row.replaceAll('`', '')).toContain(flags ? `with ${flags}, ${what}` : `: ${what};`);
  });

  it('render --help', async () => {
    const help = (await cli('render', '--help')).stdout.replace(/\s+/g, ' ');
    for (const [what, flags] of says) expect(help).toContain(`render${flags ? ` ${flags}` : ''} ${what}`);
  });

  it('each prints what it says', async () => {
    const w = ex('deployment.yaml');
    const template = await cli('render', '-q', ...inputs, '-f', w);
    // the template stage: a pod fragment, not the workload
    expect(template.stdout).toMatch(/^(spec|metadata|initContainers|containers):/m);
    expect(template.stdout).not.toMatch(/^kind:/m);
    const merged = await cli('render', '-q', ...inputs, '-f', w, '--merged');
    expect(objects(merged.stdout)[0]).toMatchObject({ kind: 'Deployment', spec: { template: { spec: { containers: expect.arrayContaining([expect.objectContaining({ name: 'istio-proxy' })]) } } } });
    const file = await kubeInject('-f', w);
    expect(file.stdout).toMatch(/^ {2}creationTimestamp: null$/m);
    expect(file.stdout.endsWith('status: {}\n---\n')).toBe(true);
  });
});

describe('render --mode kube-inject --merged -o yaml|json', () => {
  it('-o yaml prints what it prints without -o', async () => {
    const f = file('mixed.yaml', `${service}---\n${readFileSync(ex('deployment.yaml'), 'utf8')}`);
    const plain = await kubeInject('-f', f);
    const yaml = await kubeInject('-f', f, '-o', 'yaml');
    expect(plain.code).toBe(0);
    expect(yaml).toEqual(plain);
  });

  it('-o json: one document as its object, in kubectl\'s layout', async () => {
    const yaml = await kubeInject('-f', ex('deployment.yaml'));
    const json = await kubeInject('-f', ex('deployment.yaml'), '-o', 'json');
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual(objects(yaml.stdout)[0]);
    // json.MarshalIndent with four spaces, keys sorted, as kubectl prints
    expect(json.stdout).toMatch(/^\{\n {4}"apiVersion": "apps\/v1",\n {4}"kind": "Deployment",\n {4}"metadata": \{\n {8}"creationTimestamp": null,\n/);
    expect(json.stdout.endsWith('\n    "status": {}\n}\n')).toBe(true);
  });

  it('-o json: several documents, across files, as the kind: List kubectl makes of them', async () => {
    const a = file('a.yaml', `${service}---\n# a comment alone is no object\n---\n${pod('one')}`);
    const b = file('b.yaml', `apiVersion: v1\nkind: List\nitems:\n- ${pod('two').replace(/\n(?=.)/g, '\n  ')}`);
    const yaml = await kubeInject('-f', a, '-f', ex('deployment.yaml'), '-f', b);
    const json = await kubeInject('-f', a, '-f', ex('deployment.yaml'), '-f', b, '-o', 'json');
    expect(json.code).toBe(0);
    const got = JSON.parse(json.stdout) as Obj;
    expect(got).toEqual(kubectlList(objects(yaml.stdout)));
    expect((got.items as Obj[]).map((o) => o.kind)).toEqual(['Service', 'Pod', 'Deployment', 'List']);
    expect(json.stdout).toMatch(/^\{\n {4}"apiVersion": "v1",\n {4}"items": \[\n {8}\{\n {12}"apiVersion": "v1",\n {12}"kind": "Service",\n/);
    expect(json.stdout.endsWith('\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n')).toBe(true);
    // a file with no object at all: the empty List
    const none = await kubeInject('-f', file('none.yaml', '# nothing here\n'), '-o', 'json');
    expect(JSON.parse(none.stdout)).toEqual(kubectlList([]));
  });

  it('-o json: a List too big to hold is printed item by item, the same objects', async () => {
    const pods = Array.from({ length: 60 }, (_, i) => `- ${pod(`p${i}`).replace(/\n(?=.)/g, '\n  ')}  # ${'x'.repeat(5000)}\n`).join('');
    const big = file('big.yaml', `apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: "7"\nitems:\n${pods}`);
    expect(readFileSync(big).length).toBeGreaterThan(256 * 1024);
    // read item by item: once a List is known not to be alone, its JSON comes as its items are
    // rendered, not as one text at the end (the first document is held until a second comes)
    const req = { injectorConfigMap: ex('istio-sidecar-injector.yaml'), workloads: [big, big], mode: 'kube-inject', merged: true, output: 'json' } as const;
    const events = [...renderStream(req)].map((e) => e.type);
    expect(events.filter((e) => e === 'result')).toHaveLength(120);
    expect(events.indexOf('text')).toBeLessThan(events.lastIndexOf('result'));
    expect(events.filter((e) => e === 'text').length).toBeGreaterThan(60);
    for (const files of [[big], [big, ex('deployment.yaml')], [ex('deployment.yaml'), big, big]]) {
      const args = files.flatMap((f) => ['-f', f]);
      const yaml = await kubeInject(...args);
      const json = await kubeInject(...args, '-o', 'json');
      expect(json.code).toBe(0);
      const want = objects(yaml.stdout);
      expect(JSON.parse(json.stdout)).toEqual(want.length === 1 ? want[0] : kubectlList(want));
      // the layout of the whole, however it was written
      expect(json.stdout).toBe(goJsonMarshal((want.length === 1 ? want[0] : kubectlList(want)) as never, { indent: '    ' }) + '\n');
    }
  });

  it('webhook mode keeps its own -o json (one object, or an array)', async () => {
    const f = file('two.yaml', `${pod('one')}---\n${pod('two')}`);
    const json = await cli('render', '-q', ...inputs, '--merged', '-f', f, '-o', 'json');
    expect((JSON.parse(json.stdout) as Obj[]).map((o) => (o.metadata as Obj).name)).toEqual(['one', 'two']);
  });
});
