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

/** Values of each format that Helm 3.17.1 let pass (ok) and refused (bad). */
const FORMATS: Record<string, { ok: unknown[]; bad: unknown[] }> = {
  "date": {
    ok: ["2024-02-29","0000-01-01",true],
    bad: ["2023-02-29","2024-13-01","2024-1-01","2024-01-01T00:00:00Z","2024-04-31",""," 2024-01-01",5,1.5],
  },
  "time": {
    ok: ["12:34:56","1:02:03","12:34:56Z","12:34:56+01:00","12:34:56.123","12:34:56,5Z","12:34:56+24:00"],
    bad: ["24:00:00","23:59:60","12:34:56+25:00","12:34:56z","12:34","12:34:56 ","12:34:56+0100"],
  },
  "date-time": {
    ok: ["2024-01-01T12:00:00Z","2024-01-01T1:00:00Z","2024-01-01T12:00:00.123456789123+02:00","2024-01-01","12:00:00","12:00:00-07:00"],
    bad: ["2024-01-01T12:00:00","2024-01-01t12:00:00Z","2024-01-01 12:00:00Z","2024-02-30T00:00:00Z","x"],
  },
  "email": {
    ok: ["a@b","a@b.c","A Name <a@b.c>","\"q q\"@b.c","a@b (comment)","a@[1.2.3.4]","g: a@b;","<a@b>","=?utf-8?q?x?= <a@b>","José <j@e.es>",true,"a@[::1]","a@[1.2.3.4] (c)","<a@[1.2.3.4]>"],
    bad: ["@b","a@","a","a..b@c","a.@c",".a@c","g: a@b, c@d;","g: ;","a@b, c@d","\"\"@b","a@b.c.","=?koi8-r?q?x?= <a@b>","a@b (=?koi8-r?q?x?=)","a b@c","a@b (unclosed",5,1.5,"a@[x]","a@[1.2.3]","a@[IPv6:::1]","a@[ 1.2.3.4 ]","a@[1.2.3.4","a@[1.2.3.4].com","a@[]","a@[a b]","a@[a\\]]","a@[é]","a@[001.2.3.4]","a@[256.1.1.1]","a@[[x]"],
  },
  "hostname": {
    ok: ["example.com","a","xn--d1acj3b","aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com","1.2.3.4"],
    bad: ["-a.com","a-.com","a..b","a.b.","a_b.com","","aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com"],
  },
  "ipv4": {
    ok: ["1.2.3.4","255.255.255.255","::ffff:1.2.3.4","0.0.0.0",true],
    bad: ["256.1.1.1","01.2.3.4","1.2.3","1.2.3.4.5","1.2.3.4%eth0"," 1.2.3.4","::1",5,1.5],
  },
  "ipv6": {
    ok: ["::1","::","1::","2001:db8::1","1:2:3:4:5:6:7:8","::ffff:1.2.3.4","1:2:3:4:5:6:1.2.3.4","::1.2.3.4","1:2:3:4:5:6:7::"],
    bad: ["fe80::1%eth0","1:2:3:4:5:6:7:8:9","1::2::3","12345::1","1:2:3:4:5:6:7:1.2.3.4","1.2.3.4",":1::"],
  },
  "uri": {
    ok: ["http://example.com","mailto:a@b","http://[::1]:80/x","http://x/%41","http://u@x/","http://u:p@x/","x:","http://x#%41","http://%c3%a9.com"],
    bad: ["http://a b","http://x/%zz","/relative","rel","http://x:y","http://x:80a/","http://u^@x/","1http://x","http://x#%zz","http://x\\y","http://[::1","http://%41.com","://x","http://x/a\u0001"],
  },
  "uri-reference": {
    ok: ["/relative","rel","a:b/c","./a:b","","#frag","//host/path","?q","a b"],
    bad: ["http://x\\y","%zz"],
  },
  "iri": {
    ok: ["http://example.com/é"],
    bad: ["rel"],
  },
  "iri-reference": {
    ok: ["é"],
    bad: ["%"],
  },
  "uri-template": {
    ok: ["http://x/{a}","http://x/a}","http://x/{a{b}","/{a}/{b}","http://x/?{a"],
    bad: ["http://x/{a","http://x/%7Ba"],
  },
  "uuid": {
    ok: ["123e4567-e89b-12d3-a456-426614174000",true],
    bad: ["123E4567-E89B-12D3-A456-426614174000","123e4567e89b12d3a456426614174000","123e4567-e89b-12d3-a456-42661417400",5,1.5],
  },
  "regex": {
    ok: ["","^a+$","(?P<n>a)","(?<n>a)","\\pL","[[:alpha:]]",true],
    bad: ["(?=x)","(a","a{1001}","\\Z",5,1.5],
  },
  "json-pointer": {
    ok: ["","/","/a/b","/a~0b"],
    bad: ["/a~2","a","/~"],
  },
  "relative-json-pointer": {
    ok: ["0","1/a","0#"],
    bad: ["01","#","1/a~","-1"],
  },
  "foo": {
    ok: ["anything",5,1.5,true],
    bad: [],
  },
};

describe('formats, as gojsonschema v1.2.0 checks them', () => {
  it('each value is refused or not as Helm refused it, worded as Helm words it, with nothing on stderr', () => {
    const props: Record<string, unknown> = {};
    const values: string[] = [];
    const want: string[] = [];
    let i = 0;
    for (const [format, { ok, bad }] of Object.entries(FORMATS)) {
      for (const [v, refused] of [...ok.map((v) => [v, false] as const), ...bad.map((v) => [v, true] as const)]) {
        const k = `k${i++}`;
        props[k] = { format };
        values.push(`${k}: ${JSON.stringify(v)}`);
        if (refused) want.push(`${k}: Does not match format '${format}'`);
      }
    }
    const dir = chart({ 'values.yaml': `${values.join('\n')}\n`, 'values.schema.json': JSON.stringify({ properties: props }) });
    const got = outcome(dir);
    expect(got.startsWith(`${HEAD} c: - `)).toBe(true);
    expect(got.slice(HEAD.length + 6).split(' - ').sort()).toEqual(want.sort());
    const r = runBin(['chart', dir], { timeoutMs: 30_000 });
    expect(cleanError(r)).toBeUndefined();
  });

  it('a long value is checked in linear time', () => {
    const long = 'a'.repeat(200_000);
    const schema = JSON.stringify({ properties: Object.fromEntries(Object.keys(FORMATS).map((f) => [f.replace(/-/g, '_'), { format: f }])) });
    const values = Object.keys(FORMATS).map((f) => `${f.replace(/-/g, '_')}: "/${long}~"`).join('\n');
    const dir = chart({ 'values.yaml': `${values}\n`, 'values.schema.json': schema });
    const r = runBin(['chart', dir], { timeoutMs: 30_000 });
    expect(cleanError(r)).toBeUndefined();
    expect(r.stderr).toMatch(/- json_pointer: Does not match format 'json-pointer'/);
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
