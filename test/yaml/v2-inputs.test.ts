// Raw input files read as sigs.k8s.io/yaml (yaml.v2) reads them, against Go's own answers
// (v2-inputs/expected.jsonl, written by tools/yamlcheck through `npm run vectors`): the value Go
// decodes, or an error where Go stops. Duplicate keys follow UnmarshalStrict, as kubectl reads
// manifests: an error at the second key that names the line of the first.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InputError, loadYamlDocuments } from '../../src/yaml/load.js';
import { yamlToGo } from '../../src/yaml/decode.js';
import { goJsonMarshal } from '../../src/yaml/json.js';
import type { GoValue } from '../../src/template/value.js';

const dir = fileURLToPath(new URL('./v2-inputs/', import.meta.url));

interface GoAnswer {
  file: string;
  value?: unknown;
  error: string | null;
  strictError: string | null;
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
        expect(got.error).toMatch(/key .* already set in map \(first set at line \d+\)/);
        expect(got.line).toBe(Number(dupLine[1]));
        return;
      }
      if (a.error !== null) {
        expect(got.error, `Go: ${a.error}`).toBeDefined();
        // Go's own words where the reader has no other: escapes and directives
        const words = /yaml: (found (?:unknown escape character|invalid Unicode character escape code|incompatible YAML document|duplicate %YAML directive))/.exec(a.error);
        if (words) expect(got.error).toContain(words[1]);
        return;
      }
      expect(got.error).toBeUndefined();
      expect(JSON.parse(got.value!)).toEqual(a.value);
    });
  }
});

describe('fromYaml on the same text', () => {
  for (const name of ['escape-slash', 'escape-lone-high-surrogate', 'escape-surrogate-pair', 'yaml-1.2', 'cr-only', 'nel', 'line-separator', 'omap', 'pairs', 'merge-then-key']) {
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
