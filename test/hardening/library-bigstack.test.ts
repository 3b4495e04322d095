// Library calls nested deeper than the caller's JavaScript stack give Go's result: Template.parse and
// execute repeat the call, synchronously, on a thread with a big stack (src/guard/syncstack.ts). The
// worker runs the built modules, so these tests use the build (`npm test` builds first), as the
// library's users do.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { here, jsonl } from './helpers.js';
import { expandDeepCases } from '../../tools/deep-cases.mjs';
import type { BatchResult } from '../../dist/batch.js';
import { ExecError, GoFunc, GoNil, GoNum, LimitError, ParseError, RecordStruct, T, Template, bigStackStats, mapOf, sliceOf, withType } from '../../dist/go/text/template/template.js';
import { funcSet } from '../../dist/funcs/index.js';
import { callOnBigStack, SyncStackError } from '../../dist/guard/syncstack.js';

interface DeepSpec {
  name: string;
  data?: unknown;
  dataInt?: boolean;
}
const specs = JSON.parse(readFileSync(here('deep-go.json'), 'utf8')) as DeepSpec[];

/** A case's data as Go's JSON decoding gives it; {"$list"|"$map": depth} built without recursion. */
function deepData(s: DeepSpec): unknown {
  const d = s.data as { $list?: number; $map?: number; key?: string; leaf?: unknown } | undefined;
  const num = (v: unknown) => (s.dataInt && typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v);
  if (d && typeof d === 'object' && ('$list' in d || '$map' in d)) {
    let v: unknown = num(d.leaf ?? null);
    if (d.$list !== undefined) for (let i = 0; i < d.$list; i++) v = [v];
    else for (let i = 0; i < d.$map!; i++) v = { [d.key ?? 'a']: v };
    return v;
  }
  if (d === undefined || d === null) return null;
  if (typeof d !== 'object') return num(d);
  return JSON.parse(JSON.stringify(d), (_k, v: unknown) => num(v));
}
const lines = expandDeepCases(specs) as string[];
const want = jsonl<BatchResult>(here('deep-go.expected.jsonl'));
const goAnswer = (name: string): BatchResult => want.find((w) => w.name === name)!;

const ifs = (n: number, inner = 'x') => '{{if 1}}'.repeat(n) + inner + '{{end}}'.repeat(n);
const DIST = pathToFileURL(here('../../dist/')).href;

const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-libstack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A script run by node in a process of its own (worker accounting starts from zero there). */
function node(script: string): { code: number | null; stdout: string; stderr: string } {
  const file = join(dir, `s${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, script);
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("deep-go cases through the library: Go's answers", () => {
  // every case of test/hardening/deep-go.json that Go's batch tool reads (past encoding/json's depth it
  // refuses the line), run in this thread through Template and funcSet, with the data built here
  it('every case', { timeout: 600_000 }, () => {
    const run = (spec: DeepSpec, line: string): BatchResult => {
      const c = JSON.parse(line) as { name: string; template: string; funcs?: 'sprig' | 'helm' };
      const res: BatchResult = { name: c.name, output: '', error: null, phase: null };
      const t = new Template(c.name);
      t.funcs(funcSet(c.funcs ?? 'builtin', { template: t }));
      try {
        t.parse(c.template);
      } catch (e) {
        return { ...res, error: (e as Error).message, phase: e instanceof ParseError ? 'parse' : null };
      }
      try {
        res.output = t.execute(deepData(spec));
      } catch (e) {
        res.error = (e as Error).message;
        if (e instanceof ExecError) Object.assign(res, { phase: 'exec', output: e.output });
      }
      return res;
    };
    const got: BatchResult[] = [];
    const expected: BatchResult[] = [];
    specs.forEach((spec, i) => {
      if (want[i]!.error?.startsWith('bad case')) return;
      got.push(run(spec, lines[i]!));
      expected.push(want[i]!);
    });
    expect(got.length).toBeGreaterThan(30);
    expect(got).toEqual(expected);
  });

  it('20,000 nested ifs, 10,000 parentheses: parse and execute as Go', { timeout: 120_000 }, () => {
    expect(new Template('t').parse(ifs(20_000)).execute({})).toBe(goAnswer('if 20000').output);
    const p = new Template('p').parse('{{' + '('.repeat(10_000) + '1' + ')'.repeat(10_000) + '}}');
    expect(p.execute(null)).toBe(goAnswer('parentheses 10000').output);
  });

  it('toJson and fromYaml of data thousands of levels deep', { timeout: 120_000 }, () => {
    const t = new Template('toJson map 5000');
    t.funcs(funcSet('helm', { template: t }));
    let d: Record<string, unknown> | string = 'x';
    for (let i = 0; i < 5000; i++) d = { a: d };
    expect(t.parse('{{toJson . | sha256sum}}').execute(d)).toBe(goAnswer('toJson map 5000').output);
    const y = new Template('y');
    y.funcs(funcSet('helm', { template: y }));
    const yaml = '['.repeat(3000) + '1' + ']'.repeat(3000);
    // the YAML reader stops short of Go's depth on a small stack without failing the execution
    expect(y.parse('{{ fromYamlArray . | toJson | len }}').execute(yaml)).toBe(String(yaml.length));
  });
});

describe('errors past Go\'s own limits keep Go\'s text and position', () => {
  it('a parse error after 20,000 nested ifs', { timeout: 120_000 }, () => {
    const parseError = (n: number): ParseError => {
      try {
        new Template('t').parse(ifs(n) + '\n{{end}}');
      } catch (e) {
        return e as ParseError;
      }
      throw new Error('parsed');
    };
    const shallow = parseError(10);
    const deep = parseError(20_000);
    expect(deep).toBeInstanceOf(ParseError);
    expect(deep.message).toBe(shallow.message);
    expect([deep.templateName, deep.line, deep.col]).toEqual([shallow.templateName, shallow.line, shallow.col]);
    expect(deep.line).toBe(2);
  });

  it("template recursion past Go's depth: Go's ExecError, line, col and output", { timeout: 120_000 }, () => {
    const name = "template recursion past Go's limit";
    const t = new Template(name).parse('{{define "a"}}{{template "a" .}}{{end}}{{template "a" .}}');
    let err: ExecError | undefined;
    try {
      t.execute({});
    } catch (e) {
      err = e as ExecError;
    }
    expect(err).toBeInstanceOf(ExecError);
    expect(err!.message).toBe(goAnswer(name).error);
    expect([err!.templateName, err!.line, err!.col, err!.output]).toEqual(['a', 1, 25, goAnswer(name).output]);
    const before = new Template('b').parse('before {{define "a"}}{{template "a" .}}{{end}}{{template "a" .}}');
    expect(() => before.execute({})).toThrow(ExecError);
    try {
      before.execute({});
    } catch (e) {
      expect((e as ExecError).output).toBe('before ');
    }
  });

  it('a limit reached on the big stack is a LimitError there too', { timeout: 120_000 }, () => {
    const t = new Template('t').funcs(funcSet('sprig')).parse(ifs(20_000, '{{range until 10}}x{{end}}'));
    let err: unknown;
    try {
      t.execute(null, { maxRangeIterations: 3 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LimitError);
    expect((err as LimitError).output).toBe('xxx');
  });
});

describe('what cannot be built again on a big stack keeps the clean error, saying why', () => {
  it("a caller's own function", { timeout: 120_000 }, () => {
    const own = new GoFunc('own', [], false, 1, T.string, () => 'o');
    const t = new Template('t').funcs({ own });
    // parsing needs only the names: it succeeds as in Go
    t.parse(ifs(20_000, '{{own}}'));
    expect(t.definedTemplates()).toBe('; defined templates are: "t"');
    expect(() => t.execute({})).toThrow(/^template: t: nesting exceeds the JavaScript call stack \(not run again on a big stack: function "own" does not come from funcSet \(a caller's own JavaScript function cannot be sent\)\)$/);
    let d: unknown = 'leaf';
    for (let i = 0; i < 20_000; i++) d = [d];
    expect(() => new Template('d').funcs({ own }).parse('{{own}}{{print .}}').execute(d as never)).toThrow(
      /nesting exceeds the JavaScript call stack.*\(not run again on a big stack: function "own" does not come from funcSet \(a caller's own JavaScript function cannot be sent\)\)$/,
    );
  });

  it('data that cannot be sent', { timeout: 120_000 }, () => {
    const t = new Template('t').parse(ifs(20_000, '{{.}}'));
    expect(() => t.execute(new Date(0) as never)).toThrow(/\(not run again on a big stack: the data holds a JavaScript Date\)$/);
    expect(() => t.execute({ f: () => 1 } as never)).toThrow(/\(not run again on a big stack: the data holds a JavaScript function\)$/);
  });
});

describe('the set and the data as the caller built them', () => {
  it('typed values, shared values, structs and typed nils print as they do on the small stack', { timeout: 120_000 }, () => {
    const point = { kind: 'struct', name: 'main.Point', fields: [{ name: 'X', json: 'x', type: T.int64 }, { name: 'Tags', json: 'tags', type: sliceOf(T.string) }] } as const;
    const shared = withType(['a', 'b'], sliceOf(T.string));
    const data = {
      n: new GoNum(T.int64, -5n),
      u: new GoNum(T.uint8, 200n),
      f: new GoNum(T.float32, 1.5),
      i: 7n,
      s: shared,
      again: shared,
      m: withType({ k: 'v' }, mapOf(T.string, T.string)),
      nil: new GoNil(sliceOf(T.int)),
      p: new RecordStruct(point as never, { X: new GoNum(T.int64, 3n) }, true),
      z: null,
      neg: -0,
    };
    const body = '{{printf "%#v|%T|%v" . .p .p.Tags}}{{range $k, $v := .}}{{$k}}={{printf "%T %v" $v $v}};{{end}}';
    const shallow = new Template('t').parse(body).execute(data as never);
    const deep = new Template('t').parse(ifs(20_000, body)).execute(data as never);
    expect(deep).toBe(shallow);
    expect(shallow).toContain('int64 -5');
  });

  it('options, delimiters, associated templates, clones and a bound Helm set are built again', { timeout: 120_000 }, () => {
    const build = (deep: boolean): string => {
      const t = new Template('main').option('missingkey=error');
      t.funcs(funcSet('helm', { template: t, strict: true }));
      t.new('lib').delims('<<', '>>').parse('<<define "greet">>hi <<.who>><<end>>');
      t.parse((deep ? ifs(5000, '') : '') + '{{include "greet" .}}|{{template "x" .}}');
      const c = t.clone();
      c.parse('{{define "x"}}' + (deep ? ifs(5000, 'from the clone') : 'from the clone') + '{{end}}');
      return c.execute({ who: 'you' }) + '|' + [...c.templates().map((x) => x.name())].sort().join(',') + c.definedTemplates().length;
    };
    expect(build(true)).toBe(build(false));
    expect(build(false)).toContain('hi you|from the clone');
  });

  it('a set parsed on the big stack answers lookup, templates and definedTemplates', { timeout: 120_000 }, () => {
    const text = (n: number) => '{{define "a"}}' + ifs(n, 'A') + '{{end}}{{define "e"}} {{end}}' + ifs(n, '{{template "a"}}');
    const small = new Template('t').parse(text(3));
    const big = new Template('t').parse(text(20_000));
    expect(big.definedTemplates()).toBe(small.definedTemplates());
    expect(big.templates().map((x) => x.name()).sort()).toEqual(small.templates().map((x) => x.name()).sort());
    expect(big.lookup('a')?.name()).toBe('a');
    expect(big.lookup('nope')).toBeUndefined();
    expect(big.execute(null)).toBe(small.execute(null));
    expect(big.executeTemplate('a', null)).toBe('A');
  });
});

describe('the big-stack thread', () => {
  it('is never started for shallow templates; one is kept for later calls and never keeps the process alive', () => {
    const r = node(`
      import { Template, bigStackStats } from '${DIST}go/text/template/template.js';
      import { funcSet } from '${DIST}funcs/index.js';
      const t = new Template('t');
      t.funcs(funcSet('helm', { template: t }));
      t.parse('{{ range until 100 }}{{ if 1 }}{{ toYaml (dict "a" (list 1 2)) }}{{ end }}{{ end }}{{ tpl "{{ . }}" 1 }}');
      for (let i = 0; i < 20; i++) t.execute({});
      const shallow = bigStackStats();
      const deep = '{{if 1}}'.repeat(20000) + 'x' + '{{end}}'.repeat(20000);
      const a = new Template('a').parse(deep).execute({});
      const b = new Template('b').parse(deep).execute({});
      console.log(JSON.stringify({ shallow, after: bigStackStats(), a, b }));
    `);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ shallow: { workersStarted: 0, calls: 0 }, after: { workersStarted: 1, calls: 4 }, a: 'x', b: 'x' });
  });

  it('in a process of its own counts a deep call', { timeout: 120_000 }, () => {
    const before = bigStackStats().calls;
    new Template('t').parse(ifs(20_000));
    expect(bigStackStats().calls).toBe(before + 1);
  });

  it('one that does not answer is a clean error, not a hang', () => {
    const silent = join(dir, 'silent.mjs');
    writeFileSync(silent, 'export {};\n');
    const t0 = Date.now();
    expect(() => callOnBigStack(pathToFileURL(silent), { x: 1 }, 300)).toThrow(SyncStackError);
    expect(() => callOnBigStack(pathToFileURL(silent), { x: 1 }, 300)).toThrow(/gave no answer within 300 ms|ended without an answer/);
    expect(Date.now() - t0).toBeLessThan(20_000);
  });
});
