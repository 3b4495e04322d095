// Raw input files read as sigs.k8s.io/yaml (yaml.v2) reads them, against Go's own answers
// (v2-inputs/expected.jsonl, written by tools/yamlcheck through `npm run vectors`): the value Go
// decodes, or an error where Go stops. Duplicate keys follow UnmarshalStrict, as kubectl reads
// manifests: an error at the second key that names the line of the first.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InputError, loadYamlDocuments } from '../../src/yaml/load.js';
import { yamlToGo } from '../../src/yaml/decode.js';
import { goJsonMarshal } from '../../src/go/encoding/json/json.js';
import type { GoValue } from '../../src/go/reflect/value.js';

const dir = fileURLToPath(new URL('./v2-inputs/', import.meta.url));

interface GoAnswer {
  file: string;
  value?: unknown;
  error: string | null;
  strictError: string | null;
  /** encoding/json's reading, for files that are JSON */
  json?: unknown;
}

const answers = readFileSync(dir + 'expected.jsonl', 'utf8')
  .trimEnd()
  .split('\n')
  .map((l) => JSON.parse(l) as GoAnswer);

/** Go's encoding/json text of a value, with object keys sorted as Go writes a map. */
function goJson(v: unknown): string {
  return goJsonMarshal(v as GoValue);
}

function load(file: string): { value?: string; error?: string; line?: number } {
  try {
    const docs = loadYamlDocuments(readFileSync(dir + file), file);
    return { value: goJson(docs[0]?.value ?? null) };
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return { error: (e as Error).message, line: (e as InputError).line };
  }
}

describe('raw YAML inputs as yaml.v2 reads them', () => {
  it('every input has Go\'s answer', () => {
    expect(answers.map((a) => a.file).sort()).toEqual(readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort());
  });

  for (const a of answers) {
    const dupLine = a.strictError ? /line (\d+): key .* already set in map/.exec(a.strictError) : null;
    const merge = a.file.includes('merge');
    it(a.file, () => {
      const got = load(a.file);
      if (dupLine && !merge) {
        // an error at the line Go names, which also names the first key's line
        expect(got.error).toMatch(/key .* already set in map \(first set at line \d+(, column \d+)?\)/);
        expect(got.line).toBe(Number(dupLine[1]));
        return;
      }
      if (a.error !== null) {
        expect(got.error, `Go: ${a.error}`).toBeDefined();
        // Go's own words where the reader has no other: escapes and directives
        const words = /yaml: (?:line \d+: )?((?:found (?:unknown escape character|invalid Unicode character escape code|incompatible YAML document|duplicate %YAML directive|unexpected document indicator|an indentation indicator equal to 0|a tab character that violates indentation|character that cannot start any token))|did not find expected (?:hexdecimal number|comment or line break|'-' indicator)|invalid (?:leading|trailing) UTF-8 octet|invalid Unicode character(?! escape)|control characters are not allowed)/.exec(a.error);
        if (words) expect(got.error).toContain(words[1]);
        return;
      }
      expect(got.error).toBeUndefined();
      expect(JSON.parse(got.value!)).toEqual(a.value);
    });
  }
});

describe('fromYaml on the same text', () => {
  for (const name of ['escape-slash', 'escape-lone-high-surrogate', 'escape-surrogate-pair', 'yaml-1.2', 'cr-only', 'nel', 'line-separator', 'ls-plain-fold', 'ls-ends-comment', 'ls-plain-blank-lines', 'ls-literal-breaks', 'ls-double-quoted-end', 'ps-folded-blank-lines', 'omap', 'pairs', 'merge-then-key']) {
    const a = answers.find((x) => x.file === `${name}.yaml`)!;
    it(name, () => {
      const text = readFileSync(dir + a.file, 'utf8');
      let got: unknown;
      try {
        got = JSON.parse(goJson(yamlToGo(text)));
      } catch (e) {
        got = `error: ${(e as Error).message}`;
      }
      expect(got).toEqual(a.error !== null ? `error: ${a.error}` : a.value);
    });
  }
});

describe('a key written twice, as each reader reads it', () => {
  // kubectl (UnmarshalStrict) refuses it, sigs.k8s.io/yaml.Unmarshal (istiod's data and annotations,
  // Helm's values) and encoding/json keep the last written
  const dups = answers.filter((a) => a.file.startsWith('dup-'));
  it('has the cases', () => expect(dups.filter((a) => a.json !== undefined).length).toBeGreaterThan(3));
  for (const a of dups) {
    it(a.file, () => {
      const bytes = readFileSync(dir + a.file);
      const line = Number(/line (\d+): key/.exec(a.strictError!)![1]);
      const key = /key (".*") already set/.exec(a.strictError!)![1]!.replace(/\\"/g, '"');
      // sigs.k8s.io/yaml.Unmarshal, on both readers
      for (const noFastPath of [false, true]) {
        expect(JSON.parse(goJson(loadYamlDocuments(bytes, a.file, { duplicateKeys: 'last', noFastPath })[0]!.value))).toEqual(a.value);
      }
      if (a.json === undefined) return;
      // a .json file: encoding/json keeps the last; read as kubectl does, the second key is named
      const json = a.file.replace(/\.yaml$/, '.json');
      expect(JSON.parse(goJson(loadYamlDocuments(bytes, json, { duplicateKeys: 'last' })[0]!.value))).toEqual(a.json);
      let err: unknown;
      try {
        loadYamlDocuments(bytes, json);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).line).toBe(line);
      expect((err as InputError).reason).toMatch(new RegExp(`^key ${key.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} already set in map \\(first set at line \\d+(, column \\d+)?\\)$`));
    });
  }

  it('names both keys of a one-line JSON object by column', () => {
    expect(() => loadYamlDocuments('{"a": 1, "b": {"c": 2, "c": 3}}', 'd.json')).toThrow(/^d\.json:1:24: key "c" already set in map \(first set at line 1, column 16\)$/);
    expect(() => loadYamlDocuments('{"a": 1, "b": {"c": 2, "c": 3}}', 'd.yaml')).toThrow(/^d\.yaml:1:24: key "c" already set in map \(first set at line 1, column 16\)$/);
  });
});

describe('quoted scalars and flow collections continued at any column: every reader', () => {
  const cont = answers.filter((a) => a.file.startsWith('cont-'));
  it('has the cases', () => expect(cont.length).toBeGreaterThan(20));
  for (const a of cont) {
    it(a.file, () => {
      const bytes = readFileSync(dir + a.file);
      const full = (() => {
        try {
          return { value: JSON.parse(goJson(loadYamlDocuments(bytes, a.file, { noFastPath: true })[0]?.value ?? null)) as unknown };
        } catch (e) {
          expect(e).toBeInstanceOf(InputError);
          return { error: (e as InputError).message };
        }
      })();
      const fromYaml = (() => {
        try {
          return { value: JSON.parse(goJson(yamlToGo(bytes.toString('utf8')))) as unknown };
        } catch (e) {
          return { error: (e as Error).message };
        }
      })();
      if (a.error !== null) {
        expect(full.error, 'full reader').toBeDefined();
        expect(fromYaml.error, 'fromYaml').toBeDefined();
        // a document marker inside a quoted scalar: Go's words and line
        if (/document indicator/.test(a.error)) {
          expect(fromYaml.error).toBe(a.error);
          expect(full.error).toMatch(new RegExp(`^${a.file}:${/line (\d+)/.exec(a.error)![1]}:1: found unexpected document indicator$`));
        }
        return;
      }
      expect(full.value, 'full reader').toEqual(a.value);
      expect(fromYaml.value, 'fromYaml').toEqual(a.value);
    });
  }

  it('positions on a continued line are those of the file as written', () => {
    const doc = loadYamlDocuments('a:\n  b: [1,\n2, {c: "x\ny"}, 3]\n  d: "p\nq"\n', 'c.yaml')[0]!;
    expect(doc.where(['a', 'b', 2, 'c'])).toBe('c.yaml:3:8');
    expect(doc.where(['a', 'b', 3])).toBe('c.yaml:4:6');
    expect(doc.where(['a', 'd'])).toBe('c.yaml:5:6');
  });

  it('a key written twice after a continued line is still named with both lines', () => {
    expect(() => loadYamlDocuments('a: "x\ny"\nb: [1,\n2]\na: 3\n', 'c.yaml')).toThrow(/^c\.yaml:5:1: key "a" already set in map \(first set at line 1\)$/);
  });
});

describe('keys that differ in yaml.v2 and not in JSON', () => {
  // "1" and 1 are two keys to yaml.v2 and one to JSON: Go keeps one of them at random (its map order);
  // the first written is kept, so a result never changes between runs.
  it('keeps the first written', () => {
    const first = (text: string) => goJson(loadYamlDocuments(text, 'k.yaml')[0]!.value);
    expect(first('"1": a\n1: b\n')).toBe('{"1":"a"}');
    expect(first('1: b\n"1": a\n')).toBe('{"1":"b"}');
    expect(first('true: a\n"true": b\n')).toBe('{"true":"a"}');
    expect(first('1: a\n1.0: b\n')).toBe('{"1":"a"}');
    expect(goJson(yamlToGo('"1": a\n1: b\n'))).toBe('{"1":"a"}');
  });
});
