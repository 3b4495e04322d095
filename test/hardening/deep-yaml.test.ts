// Deeply nested YAML through every entry point. The `yaml` package recurses per level, and V8 aborts
// the process (exit 134, "RegExpCompiler Allocation failed") when a regular expression is first
// compiled with the stack nearly spent; two documents 3000 deep (12 KB) did that to every command.
// Documents nested deeper than 500 levels are refused before the package reads them; the command line
// then reads them again on a big stack, up to yaml.v2's 10,000 levels.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { here } from './helpers.js';
import { cleanError, runBin } from './spawn.js';
import { outside } from '../helpers/outside.js';
import { loadYamlDocuments } from '../../src/yaml/load.js';
import { checkYamlDepth, checkYamlDepthLexed, depthBound, yamlMaxDepth, YamlTooDeep } from '../../src/yaml/yamllib.js';
import { Template } from '../../src/go/text/template/template.js';
import { funcSet } from '../../src/funcs/index.js';

const CM = here('../../examples/istio-sidecar-injector.yaml');
const MESH = here('../../examples/istio-mesh.yaml');
const DEPLOY = here('../../examples/deployment.yaml');

const flowSeq = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n);
const flowMap = (n: number) => '{a: '.repeat(n) + '1' + '}'.repeat(n);
const blockMap = (n: number, indent = 0) => Array.from({ length: n }, (_, i) => ' '.repeat(indent + i) + 'a:').join('\n') + '\n' + ' '.repeat(indent + n) + '1\n';
const blockSeq = (n: number) => '- '.repeat(n) + '1\n';
/** Two documents, each 3000 deep. */
const TWO_DEEP = `${flowSeq(3000)}\n---\n${flowSeq(3000)}\n`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sidecar-render-deep-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

describe('the depth measured before the yaml package reads a document', () => {
  const depthOf = (text: string): number => {
    for (let max = 0; max < 5000; max++) {
      try {
        checkYamlDepth(text, max);
        return max;
      } catch (e) {
        if (!(e instanceof YamlTooDeep)) throw e;
      }
    }
    return Infinity;
  };
  it.each([
    ['a scalar', 'x\n', 0],
    ['a map', 'a: 1\nb: 2\n', 1],
    ['flow in block', 'a: [1, {b: [2]}]\n', 4],
    ['a map holding a list at the same indentation', 'a:\n- b: 1\n  c:\n  - 2\n', 4],
    ['compact lists', '- - - 1\n', 3],
    ['siblings at one level do not add up', 'a:\n- 1\nb:\n- 2\nc:\n- 3\nd: 4\n', 2],
    ['a block scalar that looks nested', 'a: |\n  - b:\n      - c:\n          - d\n', 1],
    ['quoted text with brackets', 'a: "[[[[ {{{{"\n', 1],
    ['a comment with brackets', 'a: 1 # [[[[[\n', 1],
    ['each document on its own', '- - 1\n---\n- - 2\n', 2],
  ])('%s', (_what, text, want) => {
    expect(depthOf(text)).toBe(want);
  });
  it('is at least the real depth of deep documents', () => {
    for (const [text, n] of [[flowSeq(40), 40], [flowMap(40), 40], [blockMap(40), 40], [blockSeq(40), 40]] as const) expect(depthOf(text)).toBeGreaterThanOrEqual(n);
  });
  it('real Istio charts and ConfigMaps are far below the limit', () => {
    const docs = [readFileSync(CM, 'utf8'), readFileSync(MESH, 'utf8'), readFileSync(DEPLOY, 'utf8')];
    for (const d of docs) expect(depthOf(d)).toBeLessThan(20);
  });
});

describe('the bound that lets a document skip the lexer', () => {
  const lexed = (text: string): number => {
    for (let max = 0; max < 5000; max++) {
      try {
        checkYamlDepthLexed(text, max);
        return max;
      } catch (e) {
        if (!(e instanceof YamlTooDeep)) throw e;
      }
    }
    return Infinity;
  };
  const deep = '- - - - - - 1';
  it.each([
    ['a map', 'a: 1\nb: 2\n'],
    ['a block scalar that looks nested', 'a: |\n  - b:\n      - c:\n          - d\n'],
    ['a sibling key at the column of a block scalar in a list item', `- key: |\n  other:\n    ${deep}\n`],
    ['a sibling key after an empty block scalar', `a:\n  k: |\n  b:\n    ${deep}\n`],
    ['an explicit indentation digit', `a:\n  k: |1\n  b:\n    ${deep}\n`],
    ['a header with a comment', `a: | # c\n  [[[[[[\n  ${deep}\n`],
    ['a header inside a multi-line quoted scalar', `a: "x\n  k: |\n  "\nb:\n  ${deep}\n`],
    ['a header inside a flow collection', `a: [\n  k: |\n   ${deep}\n  ]\n`],
    ['a header inside a single-quoted scalar', `a: 'x\n  k: |\n   ${deep}'\n`],
    ['block scalars in a list', `a:\n- |\n  [[[[\n- ${deep}\n`],
    ['compact lists', `- - |\n    [[[[\n  - ${deep}\n`],
    ['CRLF line ends', `a: |-\r\n  [[[[\r\nb:\r\n  ${deep}\r\n`],
    ['kept blank lines then a key', `a: >+\n\n  x\n\n\nb: [[[[1]]]]\n`],
    ['tabs', `a: |\n\t[[[[\n\t${deep}\n\ta: |\n  ${deep}\n`],
    ['a document that is a block scalar', `--- |\n  [[[[\n---\n${deep}\n`],
    ['a document marker ends the scalar', `a: |\n  x\n---\n${deep}\n`],
    ['a text without a final line break', `a: |\n  [[[[\nb: ${'['.repeat(9)}`],
    ['a header on the last line', `    - - [[1]]\nb: |`],
    ['a header on the last line, with its break', `    - - [[1]]\nb: |\n`],
  ])('is at least the depth the lexer reads: %s', (_what, text) => {
    expect(depthBound(text)).toBeGreaterThanOrEqual(lexed(text));
  });
  it('does not count what a block scalar holds', () => {
    const templates = `data:\n  config: |-\n    templates:\n      sidecar: |\n${'        {{ if .x }}[{{ .y }}]: - - - {{ end }}\n'.repeat(600)}  values: |-\n    {"a": [[[1]]]}\n`;
    expect(depthBound(templates)).toBeLessThan(20);
    // the same lines as quoted text are counted
    expect(depthBound(templates.replace(/: \|-?\n/g, ': "x\n'))).toBeGreaterThan(600);
  });
  const belowLexer = (f: string) => {
    const text = readFileSync(f, 'utf8');
    const config = (loadYamlDocuments(text, f)[0]!.value as { data: { config: string } }).data.config;
    for (const t of [text, config]) expect(depthBound(t), f).toBeLessThan(yamlMaxDepth());
  };
  it('is what keeps the bundled ConfigMap from the lexer', () => belowLexer(CM));
  const real = outside('configmaps');
  it.skipIf(!real)('is what keeps the real ConfigMaps from the lexer', () => {
    const files = readdirSync(real!).map((v) => join(real!, v, 'istio-sidecar-injector.yaml')).filter(existsSync);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) belowLexer(f);
  });
});

describe('documents nested 3000 deep are one clean error everywhere', () => {
  it('loading a file, in process', () => {
    for (const text of [TWO_DEEP, `${flowMap(3000)}\n---\n${flowMap(3000)}\n`, blockMap(3000), blockSeq(3000)]) {
      expect(() => loadYamlDocuments(text, 'deep.yaml')).toThrow(/^deep\.yaml:\d+:\d+: document nests deeper than 500 levels$/);
    }
  });
  it('500 levels still load', () => {
    expect(loadYamlDocuments(flowSeq(500), 'ok.yaml')).toHaveLength(1);
    expect(loadYamlDocuments(blockMap(500), 'ok.yaml')).toHaveLength(1);
  });

  // Go's readers take these (yaml.v2 nests to 10,000): the command runs again on a big stack
  // (src/guard/stack.ts) and ends exactly as it does for the same documents three levels deep.
  const twoDeep = (n: number) => `${flowSeq(n)}\n---\n${flowSeq(n)}\n`;
  const cases: Array<[string, (n: number) => string[]]> = [
    ['render -f', (n) => ['render', '--injector-configmap', CM, '--mesh', MESH, '-f', file(`w${n}.yaml`, twoDeep(n))]],
    ['audit -f', (n) => ['audit', '-f', file(`a${n}.yaml`, twoDeep(n))]],
    ['render --values', (n) => ['render', '--injector-configmap', CM, '--mesh', MESH, '--values', file(`v${n}.yaml`, twoDeep(n)), '-f', DEPLOY]],
    ['render --mesh', (n) => ['render', '--injector-configmap', CM, '--mesh', file(`m${n}.yaml`, twoDeep(n)), '-f', DEPLOY]],
    ['template --data', (n) => ['template', file('t.tmpl', '{{ len . }}'), '--data', file(`d${n}.yaml`, twoDeep(n))]],
    [
      'a ConfigMap whose data.values is deep',
      (n) => ['render', '--mesh', MESH, '-f', DEPLOY, '--injector-configmap', file(`cm${n}.yaml`, readFileSync(CM, 'utf8').replace(/values: \|-[\s\S]*$/, `values: |-\n${blockMap(n, 4)}`))],
    ],
    [
      'a proxy.istio.io/config annotation that is deep',
      (n) => ['render', '--injector-configmap', CM, '--mesh', MESH, '-f', file(`ann${n}.yaml`, readFileSync(DEPLOY, 'utf8').replace(/proxy\.istio\.io\/config: \|\n/, `proxy.istio.io/config: |\n${' '.repeat(10)}${flowMap(n)}\n`))],
    ],
  ];
  it.each(cases)('%s: no abort, and the outcome of the same input 3 deep', (_what, args) => {
    const r = runBin(args(3000));
    expect(r.signal, r.stderr.slice(0, 400)).toBeNull();
    expect(r.stderr).not.toMatch(/FATAL|RegExpCompiler|\n\s+at |Maximum call stack|nests/);
    const shallow = runBin(args(3));
    expect(r.code).toBe(shallow.code);
    expect(r.stderr.replaceAll('3000.yaml', 'N.yaml')).toBe(shallow.stderr.replaceAll('3.yaml', 'N.yaml'));
    if (r.code === 2) expect(cleanError(r)).toBeUndefined();
  });

  it('past yaml.v2\'s 10,000 levels: one clean error naming the place', () => {
    const r = runBin(['template', file('t.tmpl', '{{ len . }}'), '--data', file('d10001.yaml', `a: ${flowSeq(10_001)}\n`)]);
    expect(cleanError(r)).toBeUndefined();
    expect(r.stderr).toMatch(/d10001\.yaml:1:\d+: document nests deeper than 10000 levels/);
    const ok = runBin(['template', file('t.tmpl', '{{ len .a }}'), '--data', file('d9999.yaml', `a: ${flowSeq(9_999)}\n`)]);
    expect([ok.code, ok.stdout, ok.stderr]).toEqual([0, '1', '']);
  });

  it("fromYaml of a 1200-deep mapping three times prints Go's <no value> three times", () => {
    const t = new Template('t').funcs(funcSet('helm'));
    t.parse('{{ $s := .s }}{{ (fromYaml $s).x }}{{ (fromYaml $s).x }}{{ (fromYaml $s).x }}');
    expect(t.execute({ s: blockMap(1200) })).toBe('<no value><no value><no value>');
    const r = runBin(['template', file('f.tmpl', '{{ $s := .s }}{{ (fromYaml $s).x }}{{ (fromYaml $s).x }}{{ (fromYaml $s).x }}'), '--data', file('f.json', JSON.stringify({ s: blockMap(1200) })), '--funcs', 'helm']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('<no value><no value><no value>');
  });
});
