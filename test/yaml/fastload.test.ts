// The fast block-YAML reader must give exactly what the full parser gives (as Go sees it: YAML 1.1
// scalars, float64 numbers), or step aside with Unsupported; and its positions must agree too.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastParse, Unsupported } from '../../src/yaml/fastload.js';
import { loadYamlDocuments } from '../../src/yaml/load.js';
import { goJsonMarshal } from '../../src/go/encoding/json/json.js';
import { fastReaderDepthBound, yamlLib } from '../../src/yaml/yamllib.js';
import { jsonShaped } from '../../src/go/encoding/json/value.js';
import { outside } from '../helpers/outside.js';

const repo = join(import.meta.dirname, '..', '..');
const roots = ['test/audit/fixtures', 'test/audit/corpus', 'examples'].map((d) => join(repo, d));
const files = roots.flatMap(function walk(d: string): string[] {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : /\.ya?ml$/.test(e.name) ? [join(d, e.name)] : []));
});

const json = (v: unknown) => goJsonMarshal(v as never);

/** Both paths, or undefined when the fast reader declines. */
function both(text: string): [string[], string[]] | undefined {
  try {
    fastParse(text);
  } catch (e) {
    expect(e).toBeInstanceOf(Unsupported);
    return undefined;
  }
  const fast = loadYamlDocuments(text, 'f.yaml').map((d) => json(d.value));
  const full = loadYamlDocuments(text, 'f.yaml', { noFastPath: true }).map((d) => json(d.value));
  return [fast, full];
}


/**
 * Random documents with a flow collection over lines under `top.key`: entries at random indentation,
 * blank lines between them, commas (a trailing one too) and a closing bracket at a random column.
 * The extra scalars, keys and line ends widen the set for the readers that must decline more.
 */
function flowOverLines(moreScalars: string[], moreKeys: string[], moreTrails: string[]): fc.Arbitrary<string> {
  const scalar = fc.constantFrom('1', 'x', 'yes', '~', '0x1f', '"q, [r]"', "'it''s'", '"a\\tb"', '[]', '{}', '[1, y]', '{k: v}', '1.5', '"#x"', 'a-b.c/d', '', ...moreScalars);
  const key = fc.constantFrom('a', 'k.io/x', '"q"', 'on', '1', ...moreKeys);
  const gap = fc.array(fc.constantFrom('', ' ', '    '), { maxLength: 2 }).map((bs) => bs.map((b) => `${b}\n`).join(''));
  const entry = fc.tuple(gap, fc.integer({ min: 0, max: 6 }), key, scalar, fc.boolean(), fc.constantFrom('', '  ', ...moreTrails));
  const doc = fc.tuple(fc.integer({ min: 0, max: 4 }), fc.boolean(), fc.array(entry, { minLength: 1, maxLength: 5 }), fc.integer({ min: 0, max: 6 }), fc.boolean());
  return doc.map(([indent, map, entries, close, trailingComma]) => {
    const pad = ' '.repeat(indent);
    const lines = entries.map(([g, i, k, v, comma, trail], n) => `${g}${' '.repeat(i)}${map ? `${k}: ${v}` : v}${comma || n < entries.length - 1 ? ',' : ''}${trail}`);
    const body = `${map ? '{' : '['}\n${lines.join('\n')}${trailingComma ? ',' : ''}\n${' '.repeat(close)}${map ? '}' : ']'}`;
    return `top:\n${pad}key: ${body}\n${pad}next: 1\n`;
  });
}

describe('fast YAML reader', () => {
  it('has files to read', () => expect(files.length).toBeGreaterThan(20));
  it('reads nearly all of them itself (else the comparisons below would compare nothing)', () => {
    const declined = files.filter((f) => both(readFileSync(f, 'utf8')) === undefined);
    expect(declined.length).toBeLessThan(files.length / 10);
  });
  for (const file of files) {
    it(`reads ${relative(repo, file)} as the full parser does`, () => {
      const r = both(readFileSync(file, 'utf8'));
      if (r) expect(r[0]).toEqual(r[1]);
    });
  }
  const cases: [string, string][] = [
    ['folded', 'a: >\n  one\n  two\n\n  three\n    indented\n  four\n'],
    ['literal keep', 'a: |+\n  x\n\n\nb: 1\n'],
    ['literal strip', 'a: |-\n  x\n  y\n'],
    ['long plain folded by Go', 'command:\n- sh\n- -c\n- while [ $(netstat -plnt | grep tcp\n  | wc -l) -ne 0 ]; do sleep 1; done\n'],
    ['quotes', `a: "x\\ty\\u00e9"\nb: 'it''s'\nc: "#not comment" # comment\n`],
    ['YAML 1.1 scalars', 'a: 1\nb: 1.5\nc: true\nd: ~\ne: 0x1f\nf: "1"\ng: 012\ni: 1e3\nj: 1.2.3\nk: yes\nl: off\nm: 2001-12-14\nn: 1_000\no: 0b101\np: 190:20:30\nq: "yes"\n'],
    ['keys YAML 1.1 reads as bools', 'on: 1\n"off": 2\n'],
    ['flow', 'a: {b: 1, c: [x, "y z", {d: e}], e: yes}\nb: []\nc: {}\n'],
    ['nested sequences', 'a:\n- - 1\n  - 2\n- b: 1\n  c:\n  - 3\n'],
    ['seq at key indent', 'a:\n- 1\n- 2\nb: x\n'],
    ['documents', '---\na: 1\n---\n# only a comment\n---\nb: 2\n...\n'],
    ['proto key', '__proto__: {polluted: true}\nx: 1\n'],
    ['flow collection on the line after its key', 'a:\n  []\nb:\n    {}\nc:\n  [x, {d: 1}] # note\nd:\n  - e:\n      []\n    f: 1\ng: 2\n'],
    // yaml.v2 (as Go reads them): "x", "x", "x y", "x\n---"
    ['literal at the end of text with no line break', 'a: |\n  x'],
    ['kept literal at the end of text with no line break', 'a: |+\n  x'],
    ['folded at the end of text with no line break', 'a: >\n  x\n  y'],
    ['nested literal at the end of text with no line break', 't:\n  s: |\n    x\n    ---'],
    // yaml.v2 (as Go reads them): "g\n", "g\n\n\n", "g h\n", "\n"
    ['kept literal at the end of text', 'k: |+\n  g\n'],
    ['kept literal and blank lines at the end of text', 'k: |+\n  g\n\n\n'],
    ['kept folded at the end of text', 'k: >+\n  g\n  h\n'],
    ['empty kept literal at the end of text', 'k: |+\n\n'],
    ['literal with blank lines of more and fewer spaces', 'a: |\n    x\n\n  \n      \n    y\n   \nb: 1\n'],
    ['literal with deeper lines', 'a: |\n  x\n    y\n  z\nb: |-\n  {{ if .x }}\n    [{{ .y }}]\n  {{ end }}\n'],
    ['literal with CRLF line ends', 'a: |\r\n  x\r\n\r\n  y\r\nb: 1\r\n'],
    ['literal before a document marker', 'a: |\n  x\n---\nb: |+\n  y\n\n...\n'],
    ['literals in a list', '- |\n  x\n- k: |\n    y\n  j: 1\n- - |\n    z\n'],
    ['big ints become float64', 'a: 9007199254740993\nb: 18446744073709551615\nc: -9223372036854775808\n'],
  ];
  for (const [name, text] of cases) {
    it(name, () => {
      const r = both(text);
      if (r) expect(r[0]).toEqual(r[1]);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });
  }
  it('reads a flow collection on the line after its key itself, and declines one the node goes on after', () => {
    expect(json(fastParse('a:\n  []\nb: [x]\n')[0]!.value)).toBe('{"a":[],"b":["x"]}');
    expect(json(fastParse('a: |\n  x\nb: >\n  y')[0]!.value)).toBe('{"a":"x\\n","b":"y"}');
    // a last line of spaces: yaml.v2 keeps the break before it
    expect(json(fastParse('a: |\n  x\n  ')[0]!.value)).toBe('{"a":"x\\n"}');
    for (const bad of ['a:\n  []\n  x: 1\n', 'a:\n  [1]\n   more\n', 'a:\n  [1] x\n']) {
      expect(() => fastParse(bad), bad).toThrow(Unsupported);
      expect(() => loadYamlDocuments(bad, 'f.yaml', { noFastPath: true }), bad).toThrow();
    }
  });
  const configmaps = outside('configmaps');
  it.skipIf(!configmaps)('reads the data.config of real injector ConfigMaps itself, as the full parser does', () => {
    const releases = readdirSync(configmaps!).filter((r) => /^\d|master/.test(r));
    expect(releases.length).toBeGreaterThan(0);
    for (const r of releases) {
      const file = join(configmaps!, r, 'istio-sidecar-injector.yaml');
      const config = (loadYamlDocuments(readFileSync(file, 'utf8'), file)[0]!.value as { data: { config: string } }).data.config;
      expect(() => fastParse(config), r).not.toThrow();
      expect(json(loadYamlDocuments(config, 'c.yaml')[0]!.value), r).toBe(json(loadYamlDocuments(config, 'c.yaml', { noFastPath: true })[0]!.value));
    }
  });
  it('reads YAML 1.1 booleans as sigs.k8s.io/yaml does', () => {
    expect(json(loadYamlDocuments('a: yes\nb: "yes"\nc: On\n', 'x.yaml')[0]!.value)).toBe('{"a":true,"b":"yes","c":true}');
  });
  it('keeps document indexes and starts as the full parser does', () => {
    const text = '---\na: 1\n---\n# nothing\n---\nb: [1]\n';
    const f = loadYamlDocuments(text, 'x.yaml').map((d) => [d.index, d.start.line]);
    expect(f).toEqual(loadYamlDocuments(text, 'x.yaml', { noFastPath: true }).map((d) => [d.index, d.start.line]));
  });
});

describe('flow collections over lines (template output: multiLineFlow)', () => {
  // what parseTemplateOutput's full path gives: the yaml package in YAML 1.1 mode
  const full = (text: string): string => json(jsonShaped(yamlLib().parse(text, { version: '1.1', uniqueKeys: false })));
  const fast = (text: string): string | undefined => {
    try {
      return json(jsonShaped(fastParse(text, undefined, { multiLineFlow: true })[0]!.value));
    } catch (e) {
      expect(e).toBeInstanceOf(Unsupported);
      return undefined;
    }
  };
  it('reads the annotations map Istio templates write, as the full parser does', () => {
    const text = 'metadata:\n  annotations: {\n    istio.io/rev: "default",\n    kubectl.kubernetes.io/default-container: "app",\n    \n  }\nspec:\n  a: [\n    1,\n    x\n  ]\n';
    expect(fast(text)).toBe('{"metadata":{"annotations":{"istio.io/rev":"default","kubectl.kubernetes.io/default-container":"app"}},"spec":{"a":[1,"x"]}}');
    expect(fast(text)).toBe(full(text));
  });
  it('declines what it does not take: comments, scalars over lines, too little indentation', () => {
    for (const t of ['a: {\n  x: 1, # c\n}\n', 'a: {\n  x: "p\n  q"}\n', 'a: {\n  x: p\n  q}\n', 'b:\n  a: {\n  x: 1}\n', 'b:\n  a: {\n    x: 1\n }\n', 'a: {\n  x: 1\n', 'a: {\n  x: 1}\n  y: 2\n']) {
      expect(fast(t), t).toBeUndefined();
    }
    // input files keep them for the full parser (positions inside them)
    expect(() => fastParse('a: {\n  x: 1\n}\n')).toThrow(Unsupported);
  });
  it('reads random flow collections over lines as the full parser does, or declines them', () => {
    let read = 0;
    fc.assert(
      fc.property(flowOverLines([], [], []), (text) => {
        const f = fast(text);
        if (f === undefined) return;
        read++;
        expect(f, text).toBe(full(text));
      }),
      { numRuns: 2000, seed: 11 },
    );
    // else the comparison above compared nothing
    expect(read).toBeGreaterThan(100);
  });
});

describe('flow collections over lines in input files', () => {
  const load = (text: string, noFastPath: boolean): string => {
    try {
      return json(loadYamlDocuments(text, 'f.yaml', { noFastPath }).map((d) => d.value));
    } catch (e) {
      return `error ${(e as Error).message}`;
    }
  };
  it('are read as the full parser reads them, values and errors', () => {
    let read = 0;
    fc.assert(
      fc.property(flowOverLines(['k: v', '"p\n  q"'], ['a'], ['', ' # c']), (text) => {
        try {
          fastParse(text, undefined, { multiLineFlow: true });
          read++;
        } catch {
          // the full parser reads it on both sides
        }
        expect(load(text, false), text).toBe(load(text, true));
      }),
      { numRuns: 3000, seed: 12 },
    );
    // else the comparison above compared the full parser with itself
    expect(read).toBeGreaterThan(100);
  }, 120_000);
});

describe('fastReaderDepthBound', () => {
  const depth = (v: unknown): number => (v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v as object).map(depth)) : 0);
  it('bounds the depth of what the fast reader reads', () => {
    const texts = ['a:\n  b:\n    c: [[[1]], {d: {e: [2]}}]\n', '- - - - x\n', '- a: - \n', 'k: {a: [1, [2, [3, [4]]]]}\nl: [x]\n', 'a:\n- b:\n  - c:\n    - [[{}]]\n'];
    for (const t of texts) {
      let v: unknown;
      try {
        v = fastParse(t)[0]!.value;
      } catch {
        continue;
      }
      expect(fastReaderDepthBound(t), t).toBeGreaterThanOrEqual(depth(v));
    }
  });
  it('counts brackets per line: a dump with `{}` in every item stays far below the limit', () => {
    expect(fastReaderDepthBound('- a: {}\n  b: []\n'.repeat(5000))).toBeLessThan(10);
  });
  it('steps over block scalars, and still counts the brackets of one line', () => {
    expect(fastReaderDepthBound(`a: |\n  ${'['.repeat(600)}\n`)).toBeLessThan(10);
    expect(fastReaderDepthBound(`a: ${'['.repeat(600)}${']'.repeat(600)}\n`)).toBeGreaterThanOrEqual(600);
  });
});

describe('JSON given as YAML (a chart\'s data.values, a JSON proxy.istio.io/config)', () => {
  const texts: [string, string][] = [
    ['values', '{"global":{"proxy":{"holdApplicationUntilProxyStarts":true,"lifecycle":{}},"tag":"1.20"},"sidecarInjectorWebhook":{"rewriteAppHTTPProbe":false}}'],
    ['numbers', '{"a":1,"b":1.5,"c":1e3,"d":-0,"e":9007199254740993,"f":[1,2.25,1E-2]}'],
    ['-0 first in an array', '[-0, 1]'],
    ['-0 after a space in a mapping', '{"a": -0, "b": "web-0"}'],
    ['names ending in -0', '{"name":"web-0","items":["pod-0","v1-0.2"]}'],
    ['strings YAML 1.1 would read otherwise when plain', '{"a":"yes","b":"0x1f","c":"~","d":"1_000","e":"2001-12-14"}'],
    ['escapes', '{"a":"x\\ty\\u00e9\\n\\"q\\"","b":"\\u2028"}'],
    ['nesting, empties and null', '[{"a":[]},{},null,[[true,false]]]'],
    ['spaced out over lines', '{\n  "a": {\n    "b": [1, 2]\n  }\n}\n'],
  ];
  for (const [name, text] of texts) {
    it(`reads ${name} as the full YAML parser does`, () => {
      const fast = loadYamlDocuments(text, 'v', { format: 'yaml' }).map((d) => json(d.value));
      const full = loadYamlDocuments(text, 'v', { format: 'yaml', noFastPath: true }).map((d) => json(d.value));
      expect(fast).toEqual(full);
    });
  }
  it('reads random JSON as the full YAML parser does', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 4 }), (text) => {
        const fast = loadYamlDocuments(text, 'v', { format: 'yaml' }).map((d) => json(d.value));
        const full = loadYamlDocuments(text, 'v', { format: 'yaml', noFastPath: true }).map((d) => json(d.value));
        expect(fast).toEqual(full);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
  it('reads escapes yaml.v2 refuses (\\/, surrogates) as YAML, which refuses them', () => {
    expect(() => loadYamlDocuments('{"a":"x\\/y"}', 'v', { format: 'yaml' })).toThrow('v:1:6: found unknown escape character');
    expect(() => loadYamlDocuments('{"a":"\\ud83d\\ude00"}', 'v', { format: 'yaml' })).toThrow('v:1:6: found invalid Unicode character escape code');
  });
  it('falls back to the YAML parser for flow YAML that is not JSON', () => {
    expect(json(loadYamlDocuments('{a: yes, b: [x]}', 'v', { format: 'yaml' })[0]!.value)).toBe('{"a":true,"b":["x"]}');
  });
});

describe('fast reader positions', () => {
  const text = 'apiVersion: v1\nkind: List\nitems:\n- kind: ConfigMap\n  data:\n    config: |-\n      policy: enabled\n      templates:\n        sidecar: |\n          x: {{ .Values }}\n    n: 3\n  list:\n  - a\n  -\n    b: 1\n';
  const paths: (string | number)[][] = [[], ['items'], ['items', 0], ['items', 0, 'kind'], ['items', 0, 'data'], ['items', 0, 'data', 'config'], ['items', 0, 'data', 'n'], ['items', 0, 'list', 0], ['items', 0, 'list', 1], ['items', 0, 'list', 1, 'b'], ['items', 0, 'nope']];
  const fast = loadYamlDocuments(text, 'p.yaml')[0]!;
  const full = loadYamlDocuments(text, 'p.yaml', { noFastPath: true })[0]!;
  for (const key of [false, true]) {
    it(`agree with the full parser (${key ? 'keys' : 'values'})`, () => {
      for (const p of paths) expect([p, fast.positionOf(p, { key })]).toEqual([p, full.positionOf(p, { key })]);
    });
  }
  it('map block scalars and embedded documents onto the file', () => {
    for (const d of [fast, full]) {
      expect(d.blockScalarAt(['items', 0, 'data', 'config'])).toEqual({ line: 6, col: 6 });
      const cfg = d.embedded(['items', 0, 'data', 'config'], 'data.config')!;
      expect(cfg.where(['templates', 'sidecar'], { key: true })).toBe('p.yaml:9:9');
      expect(cfg.blockScalarAt(['templates', 'sidecar'])).toEqual({ line: 9, col: 10 });
    }
  });
  it('a JSON List item itself is where its { is, as the full parser says', () => {
    const json = '{\n "kind": "List",\n "items": [\n  {"kind": "Pod", "metadata": {"name": "a"}},\n  {\n   "kind": "Pod"\n  },   {"kind": "Job"},\n{"kind": "Deployment", "spec": {"x": [1, {"y": "é"}]}}\n ]\n}\n';
    const fastJson = loadYamlDocuments(json, 'd.json')[0]!;
    const fullJson = loadYamlDocuments(json, 'd.json', { noFastPath: true })[0]!;
    for (const key of [false, true]) for (const i of [0, 1, 2, 3]) expect([i, key, fastJson.positionOf(['items', i], { key })]).toEqual([i, key, fullJson.positionOf(['items', i], { key })]);
    expect(fastJson.positionOf(['items', 2])).toEqual({ line: 7, col: 8 });
    expect(fastJson.positionOf(['items', 3, 'spec', 'x', 1, 'y'], { key: true })).toEqual(fullJson.positionOf(['items', 3, 'spec', 'x', 1, 'y'], { key: true }));
  });
  it('point errors inside embedded documents at the file', () => {
    const bad = 'data:\n  mesh: |\n    a: 1\n    b: [\n';
    expect(() => loadYamlDocuments(bad, 'm.yaml')[0]!.embedded(['data', 'mesh'], 'data.mesh')).toThrow(/^m\.yaml:[45]:\d+: data\.mesh: /);
  });
});
