// Fuzzing: random templates (from the grammar, and raw random text) with random data never crash,
// never throw anything but the engine's error classes, print back to a stable tree, render the same
// bytes every time, and leave the prototypes and the data as they were.
//
// Runs per property: FUZZ_RUNS (default 200; `npm run fuzz` uses 20000). FUZZ_SEED replays a failure.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError, Template, TemplateError, type ExecOptions } from '../../src/go/text/template/template.js';
import { funcSet, type FuncSetName } from '../../src/funcs/index.js';
import type { GoValue } from '../../src/go/reflect/value.js';
import { JS_LEAK, plainData, prototypeState, snapshot } from '../hardening/helpers.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 200);
const SEED = process.env['FUZZ_SEED'] !== undefined ? Number(process.env['FUZZ_SEED']) : undefined;
const params = (n = RUNS): fc.Parameters<unknown> => ({ numRuns: n, ...(SEED !== undefined ? { seed: SEED } : {}) });
const TIMEOUT = Math.max(60_000, RUNS * 200);

/** Small limits so that no generated template can run long or big. */
const LIMITS: ExecOptions = { timeoutMs: 2000, maxOutputBytes: 1 << 20, maxRangeIterations: 100_000, maxValueBytes: 1 << 20, maxListLength: 10_000, maxBuiltBytes: 1 << 26, maxTemplateDepth: 200 };

// ---------- the grammar ----------

const KEYS = ['a', 'b', 'x', 'Values', 'global', 'list', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype', 'valueOf', 'length'];
const key = fc.constantFrom(...KEYS);
const field = fc.oneof(
  fc.constantFrom('.', '$', '$v', '$i'),
  fc.array(key, { minLength: 1, maxLength: 3 }).map((ks) => '.' + ks.join('.')),
  fc.array(key, { minLength: 1, maxLength: 2 }).map((ks) => '$.' + ks.join('.')),
);
const literal = fc.oneof(
  fc.constantFrom('1', '-2', '0x1F', '1e3', '1.5', "'c'", '"s\\n"', '`raw`', 'true', 'false', 'nil', '1i', '0o17', '1_000', '9223372036854775807', '18446744073709551616', '1e400', '""'),
  fc.integer({ min: -1000, max: 100000 }).map(String),
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  key.map((k) => JSON.stringify(k)),
);
const FUNCS = [
  'print', 'printf "%v"', 'printf "%d %s"', 'println', 'len', 'index', 'slice', 'eq', 'ne', 'lt', 'and', 'or', 'not', 'html', 'js', 'urlquery', 'call',
  'default "d"', 'empty', 'toString', 'upper', 'trim', 'repeat 3', 'until', 'list', 'dict "k"', 'set (dict) "k"', 'unset (dict) "k"', 'hasKey (dict)', 'keys', 'pluck "a"',
  'merge (dict)', 'mergeOverwrite (dict)', 'deepCopy', 'dig "a" "b"', 'get (dict)', 'toJson', 'toYaml', 'fromYaml', 'fromJson', 'indent 2', 'nindent 2', 'quote', 'b64enc',
  'include "x"', 'tpl', 'required "r"', 'first', 'append (list)', 'join ","', 'splitList ","', 'typeOf', 'kindOf', 'semver', 'regexFind "a"', 'sha256sum', 'add 1', 'seq',
];
const func = fc.constantFrom(...FUNCS);

const operand: fc.Arbitrary<string> = fc.letrec((tie) => ({
  op: fc.oneof({ depthSize: 'small', withCrossShrink: true }, field, literal, tie('paren'), tie('chain')),
  paren: tie('pipe').map((p) => `(${p})`),
  chain: fc.tuple(tie('paren'), fc.array(key, { minLength: 1, maxLength: 2 })).map(([p, ks]) => p + '.' + ks.join('.')),
  cmd: fc.oneof(tie('op'), fc.tuple(func, fc.array(tie('op'), { maxLength: 3 })).map(([f, as]) => [f, ...as].join(' '))),
  pipe: fc.tuple(tie('cmd'), fc.array(func, { maxLength: 2 })).map(([c, fs]) => [c, ...fs].join(' | ')),
})).op as fc.Arbitrary<string>;

const pipeline = fc.tuple(operand, fc.array(func, { maxLength: 2 })).map(([c, fs]) => [c, ...fs].join(' | '));
const decl = fc.tuple(fc.constantFrom('$v', '$i', '$w'), fc.constantFrom(':=', '='), pipeline).map(([v, op, p]) => `${v} ${op} ${p}`);

const node: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('x', ' ', '\n', 'text ', '{{', '}}', '{{-', '-}}', '{{/*', '*/}}'),
    pipeline.map((p) => `{{${p}}}`),
    pipeline.map((p) => `{{- ${p} -}}`),
    decl.map((d) => `{{${d}}}`),
    fc.tuple(pipeline, tie('list'), fc.option(tie('list'))).map(([p, l, e]) => `{{if ${p}}}${l}${e === null ? '' : `{{else}}${e}`}{{end}}`),
    fc.tuple(pipeline, tie('list'), pipeline, tie('list')).map(([p, l, q, m]) => `{{if ${p}}}${l}{{else if ${q}}}${m}{{end}}`),
    fc.tuple(pipeline, tie('list')).map(([p, l]) => `{{with ${p}}}${l}{{end}}`),
    fc.tuple(pipeline, tie('list')).map(([p, l]) => `{{with ${p}}}${l}{{else with .b}}${l}{{end}}`),
    fc.tuple(pipeline, tie('list'), fc.constantFrom('', '{{break}}', '{{continue}}')).map(([p, l, b]) => `{{range $i, $v := ${p}}}${l}${b}{{else}}${l}{{end}}`),
    fc.tuple(pipeline, tie('list')).map(([p, l]) => `{{range ${p}}}${l}{{end}}`),
    pipeline.map((p) => `{{template "x" ${p}}}`),
    fc.tuple(fc.constantFrom('x', 'y', 'constructor'), tie('list')).map(([n, l]) => `{{define "${n}"}}${l}{{end}}`),
    fc.tuple(pipeline, tie('list')).map(([p, l]) => `{{block "y" ${p}}}${l}{{end}}`),
    fc.constant('{{/* comment */}}'),
    fc.constant('{{- /* c */ -}}'),
  ),
  list: fc.array(tie('node'), { maxLength: 4 }).map((ns) => ns.join('')),
})).list as fc.Arbitrary<string>;

/** Raw text: random strings with template punctuation mixed in. */
const raw = fc
  .array(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('{{', '}}', '{{-', ' -}}', '(', ')', '|', '$', '.', '"', '`', "'", ':=', '=', 'if', 'end', 'range', 'else', 'define', 'template', 'block', 'with', 'nil', '/*', '*/', '\\', '\n', '\u0000', '\ud800', '€')), { maxLength: 30 })
  .map((xs) => xs.join(''));

// ---------- data ----------

const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true }),
    fc.integer(),
    fc.string({ maxLength: 6 }),
    key,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(key, fc.string({ maxLength: 4 })), tie('v'), { maxKeys: 5 }),
  ),
})).v;
const data = fc.dictionary(key, json, { maxKeys: 6 });

// ---------- running ----------

type Result = { ok: true; output: string } | { ok: false; cls: string; message: string; output: string };

function render(src: string, d: unknown, set: FuncSetName): { parsed: Template | null; result: Result } {
  const t = new Template('t');
  t.funcs(funcSet(set, { template: t }));
  try {
    t.parse(src);
  } catch (e) {
    if (e instanceof TemplateError) return { parsed: null, result: { ok: false, cls: e.name, message: e.message, output: '' } };
    throw new Error(`parse threw a non-template error: ${describeError(e)}`);
  }
  try {
    return { parsed: t, result: { ok: true, output: t.execute(d as GoValue, LIMITS) } };
  } catch (e) {
    if (e instanceof TemplateError) return { parsed: t, result: { ok: false, cls: e.name, message: e.message, output: (e as { output?: string }).output ?? '' } };
    throw new Error(`execute threw a non-template error: ${describeError(e)}`);
  }
}

function describeError(e: unknown): string {
  return e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e);
}

const protoBefore = prototypeState();

function checkOne(src: string, d: unknown, set: FuncSetName): void {
  const dataSnap = snapshot(d);
  const first = render(src, d, set);
  const second = render(src, d, set);
  // determinism: the same bytes (or the same error) every time
  expect(second.result).toEqual(first.result);
  // nothing changed outside the render
  expect(snapshot(d)).toBe(dataSnap);
  expect(prototypeState()).toBe(protoBefore);
  const r = first.result;
  const text = r.ok ? r.output : r.output + r.message;
  expect(text).not.toMatch(JS_LEAK);
  if (!r.ok) {
    expect(['ParseError', 'ExecError', 'LimitError']).toContain(r.cls);
    expect(r.message).not.toContain('\n    at ');
  }
}

const SETS: FuncSetName[] = ['builtin', 'sprig', 'helm', 'istio'];

describe('fuzz: random templates never crash and only throw template errors', () => {
  it(
    'grammar templates × random data × function sets',
    () => {
      fc.assert(
        fc.property(node, data, fc.constantFrom(...SETS), fc.boolean(), (src, d, set, plain) => {
          checkOne(src, plain ? plainData(d) : d, set);
        }),
        params(),
      );
    },
    TIMEOUT,
  );
  it(
    'raw random text',
    () => {
      fc.assert(
        fc.property(raw, data, fc.constantFrom(...SETS), (src, d, set) => checkOne(src, plainData(d), set)),
        params(),
      );
    },
    TIMEOUT,
  );
  it(
    'fully random strings',
    () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (src) => checkOne(src, {}, 'helm')),
        params(),
      );
    },
    TIMEOUT,
  );
});

describe('fuzz: parse → print → parse is stable', () => {
  it(
    'grammar templates',
    () => {
      fc.assert(
        fc.property(node, (src) => {
          const t = new Template('t').funcs(funcSet('helm'));
          try {
            t.parse(src);
          } catch (e) {
            if (e instanceof ParseError) return;
            throw e;
          }
          const once = t.tree?.root?.toString() ?? '';
          const again = new Template('t').funcs(funcSet('helm'));
          again.parse(once);
          expect(again.tree?.root?.toString()).toBe(once);
          // associated templates print stably too
          for (const x of t.templates()) {
            if (!x.tree?.root || x.name() === 't') continue;
            const s = x.tree.root.toString();
            const y = new Template(x.name()).funcs(funcSet('helm')).parse(s);
            expect(y.tree?.root?.toString()).toBe(s);
          }
        }),
        params(),
      );
    },
    TIMEOUT,
  );
});

describe('fuzz: map order and output are deterministic', () => {
  it(
    'range and print over maps built in any key order',
    () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 12 }), (obj) => {
          const entries = Object.entries(obj);
          const a: Record<string, number> = {};
          for (const [k, v] of entries) Object.defineProperty(a, k, { value: v, enumerable: true, writable: true, configurable: true });
          const b: Record<string, number> = {};
          for (const [k, v] of [...entries].reverse()) Object.defineProperty(b, k, { value: v, enumerable: true, writable: true, configurable: true });
          const src = '{{ . }}|{{ range $k, $v := . }}{{ $k }}={{ $v }};{{ end }}|{{ keys . | sortAlpha }}|{{ toJson . }}|{{ toYaml . }}';
          const ra = render(src, { ...a }, 'helm').result;
          const rb = render(src, { ...b }, 'helm').result;
          expect(rb).toEqual(ra);
          expect(render(src, a, 'helm').result).toEqual(render(src, b, 'helm').result);
        }),
        params(),
      );
    },
    TIMEOUT,
  );
});
