// values.schema.json from an untrusted chart: patterns run in linear time with Go's RE2 syntax,
// formats are checked as Helm 3.17.1 (gojsonschema v1.2.0) checks them, and a schema too big or too
// deep for ajv is one line naming it. Every expected text below is what Helm 3.17.1 answered for the
// same chart, except where a bound of ours is named. Cases that hung or overflowed before run in a
// child process (the built command line).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderChart } from '../../src/helm/index.js';
import { cleanError, runBin } from '../hardening/spawn.js';

const tmp = mkdtempSync(join(tmpdir(), 'sidecar-render-schema-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A chart folder of these files (Chart.yaml and a template added); its path. */
function chart(files: Record<string, string>): string {
  const dir = join(tmp, `c${n++}`);
  const all: Record<string, string> = {
    'Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n',
    'templates/cm.yaml': 'a: 1\n',
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const HEAD = "values don't meet the specifications of the schema(s) in the following chart(s):";

/** The one-line error of rendering the chart (without the schema's path), or 'ok'. */
function outcome(dir: string, set: string[] = []): string {
  try {
    renderChart(dir, { set });
    return 'ok';
  } catch (e) {
    return (e as Error).message.replace(`${join(dir, 'values.schema.json')}: `, '');
  }
}

describe('patterns run on RE2, in linear time', () => {
  it('a pattern that backtracks in JavaScript ends at once (Helm: the value does not match)', () => {
    const dir = chart({ 'values.yaml': 'x: ok\n', 'values.schema.json': '{"properties": {"x": {"type": "string", "pattern": "^(a+)+$"}}}' });
    const r = runBin(['chart', dir, '--set', `x=${'a'.repeat(40)}!`], { timeoutMs: 30_000 });
    expect(r.stderr).toBe(`sidecar-render: ${join(dir, 'values.schema.json')}: ${HEAD} c: - x: Does not match pattern '^(a+)+$'\n`);
    expect(r.code).toBe(2);
  });

  it('patternProperties keys too, and a long value against a nested repetition', () => {
    const dir = chart({
      'values.yaml': 'x: ok\n',
      'values.schema.json': '{"properties": {"x": {"pattern": "^([a-z0-9]+-?)+$"}}, "patternProperties": {"^(y+)+$": {"type": "integer"}}}',
    });
    const r = runBin(['chart', dir, '--set', `x=${'a1-'.repeat(3000)}!`, '--set', `${'y'.repeat(40)}!=1`], { timeoutMs: 30_000 });
    expect(r.stderr).toBe(`sidecar-render: ${join(dir, 'values.schema.json')}: ${HEAD} c: - x: Does not match pattern '^([a-z0-9]+-?)+$'\n`);
  });

  it('RE2 syntax: (?i), \\pL and \\z work; what Go rejects fails the schema, worded as gojsonschema words it', () => {
    const schema = (p: string) => chart({ 'values.yaml': 'x: ABC\n', 'values.schema.json': JSON.stringify({ properties: { x: { pattern: p } } }) });
    expect(outcome(schema('(?i)^abc\\z'))).toBe('ok');
    expect(outcome(schema('^\\pL+$'))).toBe('ok');
    // lookahead, backreference, \Z: JavaScript knows them, Go's regexp does not
    for (const p of ['(?=A)', '(A)\\1', 'C\\Z']) expect(outcome(schema(p))).toBe(`${HEAD} c: pattern must be a valid regex`);
    const pp = chart({ 'values.yaml': 'x: 1\n', 'values.schema.json': '{"patternProperties": {"(?!x)": {"type": "string"}}}' });
    expect(outcome(pp)).toBe(`${HEAD} c: Invalid regex pattern '(?!x)'`);
  });

  it('a bad pattern is found in definitions nobody refers to, not beside a $ref (Helm reads neither otherwise)', () => {
    const defs = chart({ 'values.yaml': 'x: 1\n', 'values.schema.json': '{"definitions": {"unused": {"pattern": "(?<=a)"}}}' });
    expect(outcome(defs)).toBe(`${HEAD} c: pattern must be a valid regex`);
    const beside = chart({ 'values.yaml': 'x: 1\n', 'values.schema.json': '{"properties": {"x": {"$ref": "#/definitions/d", "pattern": "(?<=a)"}}, "definitions": {"d": {}}}' });
    expect(outcome(beside)).toBe('ok');
  });

  it('a schema error has no newline in Helm: the next chart follows it at once', () => {
    const dir = chart({
      'values.yaml': 'x: 1\n',
      'values.schema.json': '{"properties": {"x": {"pattern": "(?=x)"}}}',
      'charts/sub/Chart.yaml': 'apiVersion: v2\nname: sub\nversion: 0.1.0\n',
      'charts/sub/values.yaml': 'port: high\n',
      'charts/sub/values.schema.json': '{"properties": {"port": {"type": "integer"}}}',
      'charts/sub/templates/cm.yaml': 'b: 1\n',
    });
    expect(outcome(dir)).toBe(`${HEAD} c: pattern must be a valid regexsub: - port: Invalid type. Expected: integer, given: string`);
  });
});

describe('schemas too big or too deep', () => {
  it('100,000 properties: one line naming the schema, at once and in little memory (Helm reads it in a second)', () => {
    const props: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) props[`k${i}`] = { type: 'string' };
    const dir = chart({ 'values.yaml': 'a: 1\n', 'values.schema.json': JSON.stringify({ properties: props }) });
    const r = runBin(['chart', dir], { timeoutMs: 60_000, maxOldSpaceMb: 256 });
    expect(cleanError(r)).toBeUndefined();
    expect(r.stderr).toBe(`sidecar-render: ${join(dir, 'values.schema.json')}: the schema has more than 10000 subschemas\n`);
  });

  const nested = (levels: number, leaf = '{}') => {
    let s = leaf;
    for (let i = 0; i < levels; i++) s = `{"properties":{"a":${s}}}`;
    return s;
  };

  it('600 levels: Helm\'s result (the command line runs it again on a big stack)', () => {
    const dir = chart({ 'values.yaml': 'a: 1\n', 'values.schema.json': nested(600) });
    const r = runBin(['chart', dir], { timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('---\n# Source: c/templates/cm.yaml\na: 1\n');
    // and deep values meet the deep schema as they do in Helm
    let v = '1';
    for (let i = 0; i < 400; i++) v = `{"a":${v}}`;
    const deepValues = chart({ 'values.yaml': `${v}\n`, 'values.schema.json': nested(400, '{"type":"string"}') });
    const d = runBin(['chart', deepValues], { timeoutMs: 60_000 });
    expect(d.stderr).toBe(`sidecar-render: ${join(deepValues, 'values.schema.json')}: ${HEAD} c: - ${Array(400).fill('a').join('.')}: Invalid type. Expected: string, given: integer\n`);
  });

  it('in-process, a schema deeper than the stack is one line naming it, never a raw stack overflow', () => {
    const dir = chart({ 'values.yaml': 'a: 1\n', 'values.schema.json': nested(900) });
    const got = outcome(dir);
    expect(got === 'ok' || got === 'the schema nests deeper than the JavaScript call stack (901 levels)').toBe(true);
  });

  it('past encoding/json\'s 10,000 levels: Helm\'s error; past 1,000 subschemas: ours, at once', () => {
    const tooDeep = chart({ 'values.yaml': 'a: 1\n', 'values.schema.json': nested(5000) });
    expect(outcome(tooDeep)).toBe(`${HEAD} c: invalid character '{' exceeded max depth`);
    const deep = chart({ 'values.yaml': 'a: 1\n', 'values.schema.json': nested(4999) });
    const r = runBin(['chart', deep], { timeoutMs: 60_000 });
    expect(r.stderr).toBe(`sidecar-render: ${join(deep, 'values.schema.json')}: the schema nests subschemas more than 1000 deep\n`);
  });

  it('deep values against a shallow schema', () => {
    let v = '1';
    for (let i = 0; i < 300; i++) v = `{"a":${v}}`;
    const dir = chart({ 'values.yaml': `a: ${v}\n`, 'values.schema.json': '{"properties": {"a": {"type": "object", "required": ["b"]}}}' });
    expect(outcome(dir)).toBe(`${HEAD} c: - a: b is required`);
  });
});

describe('two schemas with one $id', () => {
  it('a chart and its subchart, and one chart rendered twice, each checked against its own schema', () => {
    const id = '"$id": "https://example.com/values.schema.json"';
    const dir = chart({
      'values.yaml': 'x: 1\n',
      'values.schema.json': `{${id}, "properties": {"x": {"type": "string"}}}`,
      'charts/sub/Chart.yaml': 'apiVersion: v2\nname: sub\nversion: 0.1.0\n',
      'charts/sub/values.yaml': 'z: 1\n',
      'charts/sub/values.schema.json': `{${id}, "properties": {"z": {"type": "boolean"}}}`,
      'charts/sub/templates/cm.yaml': 'b: 1\n',
    });
    const want = `${HEAD} c: - x: Invalid type. Expected: string, given: integer sub: - z: Invalid type. Expected: boolean, given: integer`;
    expect(outcome(dir)).toBe(want);
    expect(outcome(dir)).toBe(want);
    expect(outcome(dir, ['x=a', 'sub.z=true'])).toBe('ok');
  });
});
