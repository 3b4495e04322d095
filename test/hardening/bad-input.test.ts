// Bad files for every command: each ends with exit code 2 and one line on stderr naming the file
// (with line:col where known), never a stack trace, and never a half-written --output-file.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, type CliRun } from '../helpers/cli.js';
import { here } from './helpers.js';

const EXAMPLES = here('../../examples/');
const CM = join(EXAMPLES, 'istio-sidecar-injector.yaml');
const MESH = join(EXAMPLES, 'istio-mesh.yaml');
const DEPLOY = join(EXAMPLES, 'deployment.yaml');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sidecar-render-bad-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** The contract for bad input: exit 2, one line, no stack trace, the text we expect. */
function expectBadInput(r: CliRun, want: RegExp): void {
  expect(r.code, `stderr: ${r.stderr}`).toBe(2);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at |node:internal|\.ts:\d+:\d+\)|TypeError|ReferenceError|RangeError|Cannot read prop|undefined is not/);
  expect(lines[0]).toMatch(/^sidecar-render( [a-z]+)?: /);
  expect(lines[0]).toMatch(want);
}

const BINARY = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));

describe('render', () => {
  const render = (...a: string[]) => cli('render', '--mesh', MESH, ...a);

  it('the example renders (the harness works)', async () => {
    const r = await render('--injector-configmap', CM, '-f', DEPLOY);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('istio-proxy');
  });

  const badConfigMaps: Array<[string, string | Buffer, RegExp]> = [
    ['malformed YAML', 'apiVersion: v1\nkind: ConfigMap\ndata:\n  config: [unclosed\n', /bad-cm-0\.yaml/],
    ['values of the wrong type', readFileSync(CM, 'utf8').replace(/values: \|-[\s\S]*$/, 'values: "[1, 2, 3]"\n'), /bad-cm-2\.yaml/],
    ['values that are not JSON', readFileSync(CM, 'utf8').replace(/values: \|-[\s\S]*$/, 'values: "{not json"\n'), /bad-cm-3\.yaml/],
    ['binary', BINARY, /bad-cm-6\.yaml/],
    ['empty', '', /bad-cm-7\.yaml/],
    ['a list instead of a ConfigMap', '- 1\n- 2\n', /bad-cm-8\.yaml/],
    ['a scalar', 'just text\n', /bad-cm-9\.yaml/],
    ['config that is a number', 'apiVersion: v1\nkind: ConfigMap\ndata:\n  config: 5\n', /bad-cm-10\.yaml/],
    ['templates reached by JS names', readFileSync(CM, 'utf8'), /.*/],
  ];
  badConfigMaps.forEach(([what, content, want], i) => {
    if (what === 'templates reached by JS names') return;
    it(`injector ConfigMap: ${what}`, async () => {
      const f = file(`bad-cm-${i}.yaml`, content);
      expectBadInput(await render('--injector-configmap', f, '-f', DEPLOY), new RegExp(want.source.replace(/bad-cm-\d+/, `bad-cm-${i}`)));
    });
  });

  it('a template name from an annotation that is a JavaScript name', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const w = file(`tmpl-${name}.yaml`, readFileSync(DEPLOY, 'utf8').replace('annotations:\n', `annotations:\n        inject.istio.io/templates: ${name}\n`));
      const r = await render('--injector-configmap', CM, '-f', w);
      expect(r.stdout + r.stderr).not.toMatch(/native code|function |\[object/);
      if (r.code !== 0) expect(r.stderr).toMatch(new RegExp(`"?${name.replace(/_/g, '_')}"? not found|${name}`));
    }
  });

  const badWorkloads: Array<[string, string | Buffer, RegExp]> = [
    ['malformed YAML', 'apiVersion: v1\nkind: Pod\nmetadata: {name: x\n', /bad-w-0\.yaml:\d+:\d+: /],
    ['an unknown workload kind', 'apiVersion: example.com/v1\nkind: Gizmo\nmetadata:\n  name: g\nspec: {}\n', /bad-w-1\.yaml:2:7: kind Gizmo has no pod template \(want Pod, Deployment, /],
    ['binary', BINARY, /bad-w-2\.yaml/],
    ['a pod without containers', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: {}\n', /bad-w-3\.yaml:5:1: Pod p: spec\.containers: Required value/],
    ['a Deployment without a template', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec: {}\n', /bad-w-4\.yaml:\d+:\d+: Deployment d: spec\.template is required value/],
    ['a document that is a list', '- a\n- b\n', /bad-w-5\.yaml/],
    ['metadata of the wrong type', 'apiVersion: v1\nkind: Pod\nmetadata: 5\nspec:\n  containers: [{name: a, image: b}]\n', /bad-w-6\.yaml|metadata/],
    ['a pod with an empty container list', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: []\n', /bad-w-7\.yaml:6:3: Pod p: spec\.containers: Required value/],
    ['a Deployment whose pod has no containers', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  namespace: ns\nspec:\n  template:\n    spec:\n      containers: []\n', /bad-w-8\.yaml:9:7: Deployment ns\/d: spec\.template\.spec\.containers: Required value/],
    ['a pod whose containers is a string', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: nope\n', /bad-w-9\.yaml:6:15: Pod p: json: cannot unmarshal string into Go struct field PodSpec\.spec\.containers of type \[\]v1\.Container/],
    ['an init container that is a number', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  initContainers: [1]\n  containers: [{name: a}]\n', /bad-w-10\.yaml:6:\d+: Pod p: json: cannot unmarshal number into Go struct field PodSpec\.spec\.initContainers of type v1\.Container/],
    ['a Service only', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec: {}\n', /bad-w-11\.yaml:2:7: kind Service has no pod template \(want Pod, Deployment, /],
    ['a bad pod after a good one', readFileSync(DEPLOY, 'utf8') + '---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: {}\n', /bad-w-12\.yaml:\d+:1: Pod p: spec\.containers: Required value/],
  ];
  // istiod is lenient where the API server would reject: these may render (exit 0) or fail cleanly.
  const lenient = new Set(['metadata of the wrong type']);
  badWorkloads.forEach(([what, content, want], i) => {
    it(`workload: ${what}`, async () => {
      const f = file(`bad-w-${i}.yaml`, content);
      const r = await render('--injector-configmap', CM, '-f', f);
      if (lenient.has(what) && r.code === 0) return;
      expectBadInput(r, new RegExp(want.source.replace(/bad-w-\d+/, `bad-w-${i}`)));
    });
  });

  it('a YAML syntax error: FILE:LINE:COL: message in yaml.v2\'s words, without the parser\'s own position or code excerpt', async () => {
    const f = file('syntax.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n   bad: 1\n');
    const r = await render('--injector-configmap', CM, '-f', f);
    // Go: "yaml: line 5: mapping values are not allowed in this context"
    expectBadInput(r, /syntax\.yaml:\d+:\d+: mapping values are not allowed in this context$/);
    expect(r.stderr).not.toMatch(/at line \d+, column \d+/);
  });

  // A ConfigMap that cannot render any workload is bad input: exit 2 and one line naming the ConfigMap
  // file and the template's line, before anything is printed.
  const badTemplates: Array<[string, string, RegExp]> = [
    ['a template with an unknown function', readFileSync(CM, 'utf8').replace('{{- if', '{{ nosuchfunc }}{{- if'), /known-0\.yaml:\d+:\d+: template: inject:\d+: function "nosuchfunc" not defined$/],
    ['a template with a parse error', readFileSync(CM, 'utf8').replace('{{- if', '{{ .a ) }}{{- if'), /known-1\.yaml:\d+:\d+: template: inject:\d+: unexpected "\)" in command$/],
    ['a ConfigMap without config', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: istio-sidecar-injector\ndata:\n  values: "{}"\n', /known-2\.yaml:5:1: ConfigMap istio-sidecar-injector has no data\.config/],
    ['a config without templates', 'apiVersion: v1\nkind: ConfigMap\ndata:\n  config: "policy: enabled\\n"\n', /known-3\.yaml:4:11: the injector config has no templates/],
  ];
  badTemplates.forEach(([what, content, want], i) => {
    it(`injector ConfigMap with ${what}: exit 2 with one line`, async () => {
      const f = file(`known-${i}.yaml`, content);
      const r = await render('--injector-configmap', f, '-f', DEPLOY);
      expectBadInput(r, want);
      expect(r.stdout).toBe('');
    });
  });

  // Templates no pod selects are not parsed (a ConfigMap of six templates starts as fast as one of one);
  // the first pod that selects one that does not parse stops the run the same way.
  it('a template that does not parse, selected by a pod: exit 2 with one line; unselected: no error', async () => {
    const f = file('known-other.yaml', readFileSync(CM, 'utf8').replace('    templates:\n', '    templates:\n      other: "{{ if }}"\n'));
    const unused = await render('--injector-configmap', f, '-f', DEPLOY);
    expect(unused.code).toBe(0);
    const w = file('selects-other.yaml', readFileSync(DEPLOY, 'utf8').replace('      annotations:\n', '      annotations:\n        inject.istio.io/templates: sidecar,other\n'));
    expect(readFileSync(w, 'utf8')).toContain('inject.istio.io/templates');
    // --quiet: the assumptions line is printed before the first pod selects the template
    const r = await render('--quiet', '--injector-configmap', f, '-f', w);
    expectBadInput(r, /known-other\.yaml:18:20: template: inject:1: missing value for if$/);
  });

  it('an empty workload file', async () => {
    const f = file('empty-w.yaml', '');
    const r = await render('--injector-configmap', CM, '-f', f);
    expect([0, 2]).toContain(r.code);
    if (r.code === 2) expectBadInput(r, /empty-w\.yaml/);
  });

  it('missing files', async () => {
    expectBadInput(await render('--injector-configmap', join(dir, 'nope.yaml'), '-f', DEPLOY), /nope\.yaml: no such file$/);
    expectBadInput(await render('--injector-configmap', CM, '-f', join(dir, 'nope-w.yaml')), /nope-w\.yaml: no such file$/);
    expectBadInput(await cli('render', '--mesh', join(dir, 'nope-mesh.yaml'), '--injector-configmap', CM, '-f', DEPLOY), /nope-mesh\.yaml: no such file$/);
    expectBadInput(await render('--injector-configmap', dir, '-f', DEPLOY), new RegExp(dir.replace(/[/\\.]/g, '.') + ': is a directory'));
    expect((await render('--injector-configmap', join(dir, 'nope.yaml'), '-f', DEPLOY)).stderr).not.toMatch(/ENOENT/);
  });

  it('a malformed mesh config', async () => {
    const m = file('bad-mesh.yaml', 'defaultConfig: [\n');
    expectBadInput(await cli('render', '--mesh', m, '--injector-configmap', CM, '-f', DEPLOY), /bad-mesh\.yaml/);
  });

  it('a 100 MB workload file fails cleanly', async () => {
    const big = join(dir, 'big.yaml');
    // One document whose comment makes the file 100 MB: the reader must cope or refuse, not crash.
    writeFileSync(big, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  annotations:\n    a: "' + 'x'.repeat(100 * 1024 * 1024) + '"\nspec: {}\n');
    const r = await render('--injector-configmap', CM, '-f', big);
    expectBadInput(r, /big\.yaml/);
    rmSync(big);
  }, 120_000);

  it('--output-file is never half-written: an error leaves the old file intact and no temporary files', async () => {
    const out = join(dir, 'out', 'result.yaml');
    mkdirSync(join(dir, 'out'));
    const first = await render('--injector-configmap', CM, '-f', DEPLOY, '--output-file', out);
    expect(first.code, first.stderr).toBe(0);
    const good = readFileSync(out, 'utf8');
    expect(good).toContain('istio-proxy');
    const badW = file('bad-for-output.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: x\n');
    const r = await render('--injector-configmap', CM, '-f', badW, '--output-file', out);
    expect(r.code).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe(good);
    expect(readdirSync(join(dir, 'out'))).toEqual(['result.yaml']);
    const fresh = join(dir, 'out', 'never.yaml');
    await render('--injector-configmap', join(dir, 'nope.yaml'), '-f', DEPLOY, '--output-file', fresh);
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('template', () => {
  it('an unknown function: the file name and position', async () => {
    const t = file('unknown.tmpl', 'line one\n{{ .a }} {{ nosuch 1 }}\n');
    expectBadInput(await cli('template', t), /unknown\.tmpl.*2.*function "nosuch" not defined/);
  });
  it('an execution error', async () => {
    const t = file('exec.tmpl', '{{ index .a 5 }}');
    const d = file('exec.yaml', 'a: [1]\n');
    expectBadInput(await cli('template', t, '--data', d), /exec\.tmpl:1:3: executing "exec\.tmpl" at <index \.a 5>: error calling index/);
  });
  it('malformed data', async () => {
    const t = file('ok.tmpl', '{{ . }}');
    expectBadInput(await cli('template', t, '--data', file('bad.yaml', 'a: [1\n')), /bad\.yaml/);
    expectBadInput(await cli('template', t, '--data', file('tab.yaml', 'a:\n\t- 1\n')), /tab\.yaml/);
    // arbitrary bytes may well be one YAML string
    const bin = await cli('template', t, '--data', file('bin.yaml', BINARY));
    if (bin.code !== 0) expectBadInput(bin, /bin\.yaml/);
  });
  it('data with JavaScript names is ordinary data', async () => {
    const t = file('proto.tmpl', '{{ .__proto__.polluted }} {{ .constructor }} [{{ .x.polluted }}]');
    const d = file('proto.yaml', '__proto__:\n  polluted: hello\nconstructor: c\nx: {}\n');
    const r = await cli('template', t, '--data', d, '--funcs', 'sprig');
    expect(r).toMatchObject({ code: 0, stdout: 'hello c [<no value>]' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
  it('a binary template renders or fails cleanly', async () => {
    const r = await cli('template', file('bin.tmpl', BINARY));
    if (r.code !== 0) expectBadInput(r, /bin\.tmpl/);
  });
  it('an empty template and empty data', async () => {
    const r = await cli('template', file('empty.tmpl', ''), '--data', file('empty.yaml', ''));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
  });
  it('missing files', async () => {
    expectBadInput(await cli('template', join(dir, 'nope.tmpl')), /nope\.tmpl/);
    expectBadInput(await cli('template', file('ok2.tmpl', 'x'), '--data', join(dir, 'nope.yaml')), /nope\.yaml/);
  });
  it('an unknown function set', async () => {
    expectBadInput(await cli('template', file('ok3.tmpl', 'x'), '--funcs', 'everything'), /everything/);
  });
  it('a runaway template stops with a limit error', async () => {
    const t = file('runaway.tmpl', '{{ until 10000000000 }}');
    expectBadInput(await cli('template', t, '--funcs', 'sprig'), /runaway\.tmpl:1:3: .*error calling until: list of 10000000000 elements exceeds the limit/);
  });
  it('--batch: broken lines are results, not crashes', async () => {
    // stdin is not redirected in-process; the batch runner itself is covered by runBatch
    const { runBatch } = await import('../../src/batch.js');
    const out = runBatch('{not json\n{"name":"x","template":"{{ nosuch }}"}\n{"name":"y","template":"{{ .constructor }}","data":{}}\n{"name":"z","template":"{{ . }}","fixture":"__proto__"}\n');
    const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { error: string | null; output: string });
    expect(lines).toHaveLength(4);
    expect(lines[0]!.error).toMatch(/^bad case: /);
    expect(lines[1]!.error).toMatch(/function "nosuch" not defined/);
    expect(lines[2]).toMatchObject({ output: '<no value>', error: null });
    expect(lines[3]!.error).toMatch(/unknown fixture "__proto__"/);
  });
});

describe('audit', () => {
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['malformed YAML', 'kind: Pod\nmetadata: {name: x\n', /audit-0\.yaml/],
    ['binary', BINARY, /audit-1\.yaml/],
    ['an unknown kind only', 'apiVersion: example.com/v1\nkind: Gizmo\nmetadata: {name: g}\n', /audit-2\.yaml|Gizmo|no workload/i],
  ];
  cases.forEach(([what, content, want], i) => {
    it(what, async () => {
      const f = file(`audit-${i}.yaml`, content);
      const r = await cli('audit', '-f', f, '--no-progress');
      // nothing to audit is not an error for audit
      if (what === 'an unknown kind only' && r.code === 0) return;
      expectBadInput(r, want);
    });
  });
  it('missing file', async () => {
    expectBadInput(await cli('audit', '-f', join(dir, 'nope-audit.yaml'), '--no-progress'), /nope-audit\.yaml/);
  });
  it('an empty file', async () => {
    const r = await cli('audit', '-f', file('audit-empty.yaml', ''), '--no-progress');
    expect([0, 2]).toContain(r.code);
    if (r.code === 2) expectBadInput(r, /audit-empty\.yaml|no workload/i);
  });
});

describe('golden', () => {
  it('missing matrix', async () => {
    expectBadInput(await cli('golden', 'check', join(dir, 'nope-golden.yaml'), '--no-progress'), /nope-golden\.yaml/);
  });
  it('malformed matrix', async () => {
    expectBadInput(await cli('golden', 'check', file('golden-bad.yaml', 'cases: [\n'), '--no-progress'), /golden-bad\.yaml/);
  });
  it('binary matrix', async () => {
    expectBadInput(await cli('golden', 'check', file('golden-bin.yaml', BINARY), '--no-progress'), /golden-bin\.yaml/);
  });
  it('a matrix of the wrong shape', async () => {
    expectBadInput(await cli('golden', 'check', file('golden-shape.yaml', '- 1\n- 2\n'), '--no-progress'), /golden-shape\.yaml/);
  });
  it('update with a broken matrix writes nothing', async () => {
    const m = file('golden-upd.yaml', 'cases: [\n');
    const before = readdirSync(dir).sort();
    expectBadInput(await cli('golden', 'update', m, '--no-progress'), /golden-upd\.yaml/);
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});

describe('usage errors', () => {
  it('unknown command and option', async () => {
    expect((await cli('nosuch')).code).toBe(2);
    expect((await cli('render', '--nosuch')).code).toBe(2);
  });
});
