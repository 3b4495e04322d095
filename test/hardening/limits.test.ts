// Every resource limit: its default, its option, and a breach that ends in a clean error naming it,
// without exhausting memory. Go has only the template depth limit; where Go would run
// out of memory or loop forever, we stop with a LimitError.

import { describe, expect, it } from 'vitest';
import { ExecError, LimitError, ParseError, Template, TemplateError, type ExecOptions } from '../../src/go/text/template/template.js';
import { funcSet, helmFuncs } from '../../src/funcs/index.js';
import type { GoValue } from '../../src/go/reflect/value.js';
import { clearStackExhausted, stackExhausted } from '../../src/guard/stack.js';

type Outcome = { output: string } | { error: string; cls: string; output: string };

function run(src: string, opts: ExecOptions = {}, data: unknown = {}, set: 'builtin' | 'sprig' | 'helm' = 'helm'): Outcome {
  const t = new Template('t');
  t.funcs(funcSet(set, { template: t }));
  try {
    t.parse(src);
  } catch (e) {
    if (e instanceof TemplateError) return { error: e.message, cls: e.constructor.name, output: '' };
    throw e;
  }
  try {
    return { output: t.execute(data as GoValue, opts) };
  } catch (e) {
    if (e instanceof ExecError) return { error: e.message, cls: e.constructor.name, output: e.output };
    throw e;
  }
}

/** A breach: a LimitError (unless Go has the limit) with its one-line text. */
function breach(src: string, opts: ExecOptions, want: RegExp, data: unknown = {}): Outcome {
  const r = run(src, opts, data);
  expect(r, JSON.stringify(r).slice(0, 300)).toHaveProperty('error');
  const e = r as { error: string; cls: string };
  expect(e.error).toMatch(want);
  expect(e.error).not.toContain('\n');
  return r;
}

describe('template call depth (Go: 100000)', () => {
  const recurse = '{{ define "a" }}{{ template "a" . }}{{ end }}{{ template "a" . }}';
  it("the default reports Go's text", () => {
    const r = breach(recurse, {}, /^template: t:1:\d+: executing "a" at <\{\{template "a" \.\}\}>: exceeded maximum template depth \(100000\)$/);
    expect((r as { cls: string }).cls).toBe('ExecError');
  });
  it('maxTemplateDepth lowers it, as a LimitError', () => {
    const r = breach(recurse, { maxTemplateDepth: 50 }, /exceeded maximum template depth \(50\)$/);
    expect((r as { cls: string }).cls).toBe('LimitError');
  });
  it('bounded recursion below the limit runs', () => {
    const src = '{{ define "n" }}{{ if gt . 0 }}{{ template "n" (sub . 1) }}{{ end }}{{ . }}{{ end }}{{ template "n" 40 }}';
    expect(run(src, { maxTemplateDepth: 50 })).toEqual({ output: Array.from({ length: 41 }, (_, i) => i).join('') });
  });
  it('mutual recursion', () => {
    breach('{{ define "a" }}{{ template "b" . }}{{ end }}{{ define "b" }}{{ template "a" . }}{{ end }}{{ template "a" }}', {}, /exceeded maximum template depth \(100000\)/);
  });
});

describe('Helm include and tpl recursion', () => {
  it('include of itself stops with Helm\'s error', () => {
    breach('{{ define "a" }}{{ include "a" . }}{{ end }}{{ include "a" . }}', {}, /rendering template has a nested reference name: a: unable to execute template|exceeded maximum template depth/);
  });
  it('includeMax lowers Helm\'s 1000', () => {
    const t = new Template('t');
    t.funcs(helmFuncs({ template: () => t, includeMax: 5 }));
    t.parse('{{ define "a" }}x{{ include "a" . }}{{ end }}{{ include "a" . }}');
    expect(() => t.execute(null)).toThrow(/rendering template has a nested reference name: a: unable to execute template/);
  });
  it('include nesting counts toward the template depth limit', () => {
    breach('{{ define "a" }}{{ include "a" . }}{{ end }}{{ include "a" . }}', { maxTemplateDepth: 20 }, /exceeded maximum template depth \(20\)|nested reference name/);
  });
  it('tpl evaluating itself stops', () => {
    breach('{{ tpl .t . }}', {}, /error calling tpl|nested reference name|exceeded maximum template depth/, { t: '{{ tpl .t . }}' });
  });
  it('include and template alternating', () => {
    breach('{{ define "a" }}{{ template "b" . }}{{ end }}{{ define "b" }}{{ include "a" . }}{{ end }}{{ template "a" . }}', {}, /nested reference name|exceeded maximum template depth/);
  });
});

describe('output size (maxOutputBytes, default 256 MiB)', () => {
  it('text written by range', () => {
    const r = breach('{{ range until 100000 }}0123456789{{ end }}', { maxOutputBytes: 5000 }, /^template: t:1:\d+: executing "t" at <.*>: output exceeds the limit of 5000 bytes$/);
    expect((r as { cls: string }).cls).toBe('LimitError');
    expect(r.output.length).toBeLessThanOrEqual(5000 + 10);
  });
  it('one big value printed', () => {
    breach('{{ repeat 100000 "x" }}', { maxOutputBytes: 1000 }, /output exceeds the limit of 1000 bytes/);
  });
  it('counts bytes, not UTF-16 units', () => {
    breach('{{ range until 400 }}€{{ end }}', { maxOutputBytes: 1000 }, /output exceeds the limit of 1000 bytes/);
    expect(run('{{ range until 300 }}€{{ end }}', { maxOutputBytes: 1000 })).toEqual({ output: '€'.repeat(300) });
  });
  it('output of include counts once it is printed', () => {
    breach('{{ define "a" }}{{ range until 1000 }}xxxxxxxxxx{{ end }}{{ end }}{{ range until 100 }}{{ include "a" . }}{{ end }}', { maxOutputBytes: 50000 }, /output exceeds the limit of 50000 bytes/);
  });
  it('the default lets ordinary output through', () => {
    expect(run('{{ range until 100000 }}0123456789{{ end }}')).toEqual({ output: '0123456789'.repeat(100000) });
  });
});

describe('range iterations (maxRangeIterations, default 100,000,000)', () => {
  it('nested ranges', () => {
    breach('{{ range until 1000 }}{{ range until 1000 }}{{ end }}{{ end }}', { maxRangeIterations: 10000 }, /range iterations exceed the limit of 10000$/);
  });
  it('range over an integer (Go 1.24)', () => {
    breach('{{ range 1000000 }}{{ end }}', { maxRangeIterations: 1000 }, /range iterations exceed the limit of 1000$/, {});
  });
  it('iterations inside include count toward the same budget', () => {
    breach('{{ define "a" }}{{ range until 100 }}{{ end }}{{ end }}{{ range until 100 }}{{ include "a" . }}{{ end }}', { maxRangeIterations: 5000 }, /range iterations exceed the limit of 5000$/);
  });
});

describe('wall time (timeoutMs, default none)', () => {
  it('a long loop', () => {
    const r = breach('{{ range until 1000000 }}{{ range until 1000 }}{{ end }}{{ end }}', { timeoutMs: 200 }, /execution exceeded the time limit$/);
    expect((r as { cls: string }).cls).toBe('LimitError');
  });
  it('inside include (the deadline carries into nested executions)', () => {
    breach('{{ define "a" }}{{ range until 1000000 }}{{ end }}{{ end }}{{ range until 1000 }}{{ include "a" . }}{{ end }}', { timeoutMs: 200 }, /execution exceeded the time limit$/);
  });
  it('inside tpl', () => {
    breach('{{ range until 1000 }}{{ tpl "{{ range until 1000000 }}{{ end }}" . }}{{ end }}', { timeoutMs: 200 }, /execution exceeded the time limit$/);
  });
  it('functions that build big values check the deadline', () => {
    breach('{{ range until 100000 }}{{ $x := repeat 10000000 "x" | len }}{{ end }}', { timeoutMs: 100, maxBuiltBytes: Infinity }, /time limit/);
  });
});

describe('lists built by functions (maxListLength, default 1,000,000)', () => {
  const cases: Array<[string, RegExp]> = [
    ['{{ until 10000000000 | len }}', /error calling until: list of 10000000000 elements exceeds the limit of 1000000 elements$/],
    ['{{ until -10000000000 | len }}', /error calling until: list of 10000000000 elements exceeds/],
    ['{{ untilStep 0 1000000000000 1 | len }}', /error calling untilStep: list of 1000000000000 elements exceeds/],
    ['{{ untilStep 0 9223372036854775807 2 | len }}', /error calling untilStep: list of 4611686018427387904 elements exceeds/],
    ['{{ untilStep 10 -10000000000 -3 | len }}', /error calling untilStep: list of 3333333337 elements exceeds/],
    ['{{ seq 10000000000 | len }}', /error calling seq: list of 10000000000 elements exceeds/],
    ['{{ seq 1 1 10000000000 | len }}', /error calling seq: list of 10000000000 elements exceeds/],
    ['{{ seq -10000000000 | len }}', /error calling seq: list of \d+ elements exceeds/],
    ['{{ $l := until 1000000 }}{{ $l = append $l 1 }}', /error calling append: list of 1000001 elements exceeds/],
    ['{{ $l := until 1000000 }}{{ $l = prepend $l 1 }}', /error calling prepend: list of 1000001 elements exceeds/],
    ['{{ $l := until 600000 }}{{ $l = concat $l $l }}', /error calling concat: list of 1200000 elements exceeds/],
  ];
  for (const [src, want] of cases) it(src, () => breach(src, {}, want, 2000));
  it('maxListLength lowers it', () => {
    breach('{{ until 11 }}', { maxListLength: 10 }, /list of 11 elements exceeds the limit of 10 elements/);
    expect(run('{{ until 10 | len }}', { maxListLength: 10 })).toEqual({ output: '10' });
  });
  it('counts exactly (step sizes, empty ranges)', () => {
    expect(run('{{ untilStep 0 21 2 | len }} {{ untilStep 0 -21 -2 | len }} {{ untilStep 5 0 1 | len }} {{ untilStep 0 5 -1 | len }} {{ seq 5 | len }}', { maxListLength: 11 })).toEqual({ output: '11 11 0 0 9' });
  });
});

describe('strings built by functions (maxValueBytes, default 64 MiB)', () => {
  const cases: Array<[string, RegExp]> = [
    ['{{ repeat 10000000000 "x" | len }}', /error calling repeat: result of 10000000000 bytes exceeds the limit of 67108864 bytes per value$/],
    ['{{ repeat 100000000 "€" | len }}', /error calling repeat: result of 300000000 bytes exceeds/],
    ['{{ indent 1000000000 "a" | len }}', /error calling indent: result of \d+ bytes exceeds/],
    ['{{ nindent 100000 (repeat 1000 "\\n") | len }}', /error calling nindent: result of \d+ bytes exceeds/],
    ['{{ replace "" (repeat 10000 "y") (repeat 10000 "x") | len }}', /error calling replace: result of \d+ bytes exceeds/],
    ['{{ replace "x" (repeat 100000 "y") (repeat 1000 "x") | len }}', /error calling replace: result of \d+ bytes exceeds/],
    ['{{ wrapWith 1 (repeat 100000 "-") (repeat 10000 "x") | len }}', /error calling wrapWith: result of \d+ bytes exceeds/],
    ['{{ join (repeat 100000 "-") (until 1000) | len }}', /error calling join: result of \d+ bytes exceeds/],
    ['{{ $s := repeat 20000000 "x" }}{{ trimAll "x" $s }}', /error calling trimAll: result of \d+ bytes exceeds/],
  ];
  for (const [src, want] of cases) it(src, () => breach(src, {}, want, 3000));
  it('maxValueBytes lowers it; Go semantics below it', () => {
    breach('{{ repeat 11 "x" }}', { maxValueBytes: 10 }, /result of 11 bytes exceeds the limit of 10 bytes per value/);
    expect(run('{{ repeat 10 "x" }}|{{ repeat 1000000000000 "" }}|{{ indent 2 "a\\nb" }}|{{ replace "a" "bb" "aXa" }}', { maxValueBytes: 10 })).toEqual({ output: 'xxxxxxxxxx||  a\n  b|bbXbb' });
  });
  it("negative counts keep Go's panic", () => {
    expect(run('{{ repeat -1 "x" }}')).toMatchObject({ error: expect.stringMatching(/error calling repeat: strings: negative Repeat count$/) });
  });
});

describe('values built in total (maxBuiltBytes, default 1 GiB)', () => {
  it('many big values, each under the value limit', () => {
    breach('{{ range until 1000 }}{{ $x := repeat 1000000 "x" }}{{ end }}', { maxBuiltBytes: 50_000_000 }, /values built by functions exceed the limit of 50000000 bytes per execution$/);
  });
  it('the default stops a loop of big strings before memory runs out', () => {
    breach('{{ $l := list }}{{ range until 1000 }}{{ $l = append $l (repeat 60000000 "x") }}{{ end }}{{ len $l }}', {}, /values built by functions exceed the limit of 1073741824 bytes per execution$/);
  });
});

describe('JavaScript limits become clean errors', () => {
  it('a cyclic map printed (Go overflows its stack): an error at once, not a run to the end of the stack', () => {
    breach('{{ $d := dict }}{{ $_ := set $d "self" $d }}{{ $d }}', {}, /: value contains itself: Go's printing of it never ends$/);
  });
  it('a cyclic map compared, deep-copied, merged', () => {
    const want: Record<string, RegExp> = {
      'eq $d $d': /error calling eq: value contains itself: Go's printing of it never ends$/,
      'deepCopy $d': /error calling deepCopy: value contains itself: Go's copystructure.Copy of it never ends$/,
      'merge (dict "self" (dict "self" (dict))) $d': /value contains itself: Go's printing of it never ends$/,
      'merge $d $d': /error calling merge: value contains itself: Go's merge of it never ends$/,
      'toString $d': /error calling toString: value contains itself: Go's printing of it never ends$/,
      'printf "%v" $d': /error calling printf: value contains itself: Go's printing of it never ends$/,
      'toPrettyJson $d': /^$/,
    };
    for (const [f, re] of Object.entries(want)) {
      clearStackExhausted();
      const r = run(`{{ $d := dict }}{{ $_ := set $d "self" $d }}{{ ${f} }}`);
      expect('error' in r ? r.error : (r as { output: string }).output, f).toMatch(re);
      expect(stackExhausted(), f).toBe(false);
    }
  });
  it('cyclic data from a library user', () => {
    const d: Record<string, unknown> = {};
    d['self'] = d;
    breach('{{ . }}', {}, /value contains itself: Go's printing of it never ends$/, d);
  });
  it('deeply nested data is printed on a big stack, as Go prints it (deep-go.json has it 200,000 deep)', () => {
    const n = 20000;
    let d: unknown = 'leaf';
    for (let i = 0; i < n; i++) d = { a: d };
    expect(run('{{ . }}', {}, d)).toEqual({ output: 'map[a:'.repeat(n) + 'leaf' + ']'.repeat(n) });
  });
  it('a shared value printed 2^40 times (Go would run out of memory)', () => {
    breach('{{ $x := list "0123456789" }}{{ range until 40 }}{{ $x = list $x $x }}{{ end }}{{ $x }}', { timeoutMs: 2000 }, /printed value exceeds the limit of 67108864 bytes per value|time limit|exceeds what JavaScript can hold/);
  });
  it('deep parenthesis nesting: Go parses 1000 levels, so do we', () => {
    const n = 1000;
    expect(run('{{ ' + '('.repeat(n) + '1' + ')'.repeat(n) + ' }}')).toEqual({ output: '1' });
    expect(run('{{ if 1 }}'.repeat(n) + 'x' + '{{ end }}'.repeat(n))).toEqual({ output: 'x' });
  });
  it('nesting beyond the JavaScript stack runs on a big stack, as Go runs it (deep-go.json goes to 100,000)', () => {
    const n = 20000;
    const cases: Array<[string, string]> = [
      ['{{ ' + '('.repeat(n) + '1' + ')'.repeat(n) + ' }}', '1'],
      ['{{ if 1 }}'.repeat(n) + 'x' + '{{ end }}'.repeat(n), 'x'],
      ['{{ with 1 }}'.repeat(n) + 'y' + '{{ end }}'.repeat(n), 'y'],
    ];
    for (const [src, output] of cases) expect(run(src)).toEqual({ output });
  });
});

describe('limit errors are LimitError (an ExecError) with the output so far', () => {
  it('class and output', () => {
    const t = new Template('t').funcs(funcSet('sprig'));
    t.parse('abc{{ range until 10 }}x{{ end }}');
    try {
      t.execute(null, { maxRangeIterations: 3 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(LimitError);
      expect(e).toBeInstanceOf(ExecError);
      expect((e as ExecError).output).toBe('abcxxx');
      expect((e as ExecError).line).toBe(1);
    }
  });
  it('a parse never hits an execution limit', () => {
    expect(() => new Template('t').parse('{{ .a')).toThrow(ParseError);
  });
});
