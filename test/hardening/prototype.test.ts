// No JavaScript prototype is reachable from a template, nothing is polluted, data is never mutated.
//
// The hostile templates live in test/vectors/hardening/prototype.jsonl with Go's answers; the vector
// runner checks them with the data the batch protocol builds. Here they run again the way a library
// user calls the engine (plain JavaScript objects, whose prototype is Object.prototype), with
// getters planted on every built-in prototype, and with snapshots of the data and the prototypes.

import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCase, type BatchCase } from '../../src/batch.js';
import { Template, TemplateError } from '../../src/go/text/template/template.js';
import { funcSet } from '../../src/funcs/index.js';
import { GoFunc, newMap, type GoValue } from '../../src/go/reflect/value.js';
import { fixtures } from '../vectors/fixtures.js';
import { JS_LEAK, goCases, installCanary, plainData, prototypeState, snapshot } from './helpers.js';

const cases = goCases('prototype');
const before = prototypeState();

afterAll(() => {
  expect(prototypeState()).toBe(before);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
});

/** Run a Go-checked case with data built as a library user builds it; returns result and the data. */
function runPlain(c: BatchCase): { result: ReturnType<typeof runCase>; data: unknown } {
  const data = c.fixture ? fixtures[c.fixture]!() : plainData(c.data, c.dataInt ?? false);
  const result = runCase({ ...c, fixture: 'subject' }, { fixtures: { subject: () => data as GoValue } });
  return { result, data };
}

describe('Go-checked hostile templates with plain JavaScript data', () => {
  for (const { c, want } of cases) {
    it(c.name, () => {
      const data = c.fixture ? fixtures[c.fixture]!() : plainData(c.data, c.dataInt ?? false);
      const snap = snapshot(data);
      const result = runCase({ ...c, fixture: 'subject' }, { fixtures: { subject: () => data as GoValue } });
      expect({ output: result.output, error: result.error, phase: result.phase }).toEqual({ output: want.output, error: want.error, phase: want.phase });
      expect(snapshot(data), 'data mutated by rendering').toBe(snap);
      expect(result.output).not.toMatch(JS_LEAK);
      expect(prototypeState()).toBe(before);
    });
  }
});

describe('no lookup path reads a prototype (getters planted on every built-in prototype)', () => {
  const NAME = 'zzCanary';
  let canary: ReturnType<typeof installCanary>;
  beforeAll(() => {
    canary = installCanary(NAME);
  });
  afterAll(() => canary.remove());

  // Every case written for "constructor", with the canary's name instead: same paths, a key only the canary has.
  const probes = cases.filter(({ c }) => c.name.endsWith('-constructor') || c.name.startsWith('value-') || c.name.startsWith('host-'));
  it(`has probes (${probes.length})`, () => expect(probes.length).toBeGreaterThan(50));
  for (const { c } of probes) {
    it(c.name, () => {
      const swap = (s: string) => s.split('constructor').join(NAME);
      const data = c.data === undefined ? undefined : JSON.parse(swap(JSON.stringify(c.data)));
      const probe: BatchCase = { ...c, name: swap(c.name), template: swap(c.template), data };
      canary.reads.length = 0;
      const { result } = runPlain(probe);
      const viaBatch = runCase(probe, { fixtures });
      expect(canary.reads, 'a prototype getter was read').toEqual([]);
      expect(result.output + viaBatch.output).not.toContain('CANARY');
      if (result.error) expect(result.error).not.toContain('CANARY');
    });
  }
});

/** Render with a named function set; returns output or the error class and text. */
function render(src: string, data: unknown, set: 'builtin' | 'sprig' | 'helm' | 'istio' = 'sprig', opts: string[] = []): string {
  const t = new Template('t');
  if (opts.length) t.option(...opts);
  t.funcs(funcSet(set, { template: t }));
  try {
    return t.parse(src).execute(data as GoValue);
  } catch (e) {
    if (e instanceof TemplateError) return `${e.name}: ${e.message}`;
    throw e;
  }
}

describe('data passed in is never mutated', () => {
  const mutators = [
    ['set', '{{ $_ := set . "a" 2 }}{{ $_ := set .m "k" "v" }}{{ .a }} {{ .m.k }}', '2 v'],
    ['set __proto__', '{{ $_ := set . "__proto__" (dict "polluted" 1) }}{{ .__proto__.polluted }} [{{ .polluted }}]', '1 [<no value>]'],
    ['unset', '{{ $_ := unset . "a" }}{{ $_ := unset .m "x" }}{{ .a }} {{ .m }}', '<no value> map[]'],
    ['merge', '{{ $_ := merge . (dict "b" 1 "m" (dict "y" 2)) }}{{ .b }} {{ .m.y }}', '1 2'],
    ['mergeOverwrite', '{{ $_ := mergeOverwrite . (dict "a" 9 "m" (dict "x" 3)) }}{{ .a }} {{ .m.x }}', '9 3'],
    ['mustMerge', '{{ $_ := mustMerge .m (dict "z" 1) }}{{ .m.z }}', '1'],
    ['set in list element', '{{ $_ := set (index .l 0) "k" 1 }}{{ (index .l 0).k }}', '1'],
    ['set through include', '{{ define "d" }}{{ $_ := set . "a" 5 }}{{ end }}{{ include "d" . }}{{ .a }}', '5'],
    ['set through tpl', '{{ tpl "{{ $_ := set . \\"a\\" 6 }}" . }}{{ .a }}', '6'],
    ['set through template', '{{ define "d" }}{{ $_ := set . "a" 7 }}{{ end }}{{ template "d" . }}{{ .a }}', '7'],
  ] as const;
  for (const [name, src, out] of mutators) {
    it(`${name}: the change is visible inside the render, not outside`, () => {
      const data = { a: 1, m: { x: 1 }, l: [{}] };
      const snap = snapshot(data);
      expect(render(src, data, 'helm')).toBe(out);
      expect(snapshot(data)).toBe(snap);
      // a second render sees the original data again
      expect(render(src, data, 'helm')).toBe(out);
      expect(snapshot(data)).toBe(snap);
    });
    it(`${name}: null-prototype data (as decoded from YAML/JSON) is not mutated either`, () => {
      const data = newMap();
      data['a'] = 1;
      const m = newMap();
      m['x'] = 1;
      data['m'] = m;
      data['l'] = [newMap()];
      const snap = snapshot(data);
      expect(render(src, data, 'helm')).toBe(out);
      expect(snapshot(data)).toBe(snap);
    });
  }

  it('aliasing inside the data is kept: a map reached twice is one map', () => {
    const shared = { x: 1 };
    const data = { p: shared, q: shared };
    const snap = snapshot(data);
    expect(render('{{ $_ := set .p "x" 2 }}{{ .q.x }}', data)).toBe('2');
    expect(snapshot(data)).toBe(snap);
  });

  it('cyclic data renders what Go would reach and is not changed', () => {
    const data: Record<string, unknown> = { name: 'n' };
    data['self'] = data;
    expect(render('{{ .self.self.self.name }}', data)).toBe('n');
    expect(data['self']).toBe(data);
  });
});

describe('values that are not Go values stay unreachable', () => {
  it('an object with a custom prototype exposes no inherited property', () => {
    const proto = { secret: 's', method() { return 'm'; } };
    const data = { o: Object.assign(Object.create(proto) as object, { own: 1 }) };
    for (const src of ['{{ .o.secret }}', '{{ .o.method }}', '{{ index .o "secret" }}', '{{ call .o.method }}', '{{ .o.own }}']) {
      const out = render(src, data, 'builtin');
      expect(out).not.toMatch(/^s$|^m$|CANARY/);
    }
  });

  it('maps made in another realm (a vm context) are read by their own keys only', () => {
    // They are no instances of this realm's Object: the engine must not take them for null-prototype maps.
    const data = runInNewContext('({ x: { b: "y" }, n: Object.setPrototypeOf({ b: "z" }, null) })') as unknown;
    const cases: [string, string][] = [
      ['{{ .x.b }}|{{ .n.b }}', 'y|z'],
      ['{{ .x.constructor }}|{{ .x.toString }}|{{ .n.constructor }}', '<no value>|<no value>|<no value>'],
      ['{{ index .x "constructor" }}|{{ index .x "hasOwnProperty" }}', '<no value>|<no value>'],
      ['{{ range $k, $v := .x }}{{ $k }}={{ $v }}{{ end }} {{ toJson .x }}', 'b=y {"b":"y"}'],
    ];
    for (const [src, want] of cases) expect(render(src, data, 'sprig')).toBe(want);
  });

  it('JavaScript functions, Dates, Maps, symbols in data are never called or exposed', () => {
    let called = 0;
    const fn = () => {
      called++;
      return 'called';
    };
    const data = { f: fn, d: new Date(0), mp: new Map([['a', 1]]), st: new Set([1]), sym: Symbol('s'), u: undefined, re: /x/, err: new Error('e'), buf: Buffer.from('hi'), p: Promise.resolve(1) };
    for (const k of Object.keys(data)) {
      for (const src of [`{{ .${k} }}`, `{{ call .${k} }}`, `{{ .${k}.name }}`, `{{ .${k}.constructor }}`, `{{ index .${k} 0 }}`, `{{ printf "%v %T" .${k} .${k} }}`, `{{ len .${k} }}`, `{{ range .${k} }}x{{ end }}`]) {
        let out: string;
        try {
          out = render(src, data, 'sprig');
        } catch (e) {
          throw new Error(`${src} on ${k}: ${(e as Error).message}`);
        }
        expect(out, `${src} on ${k}`).not.toMatch(/called|\[native code\]|CANARY|\bfunction\s*\w*\s*\(/);
      }
    }
    expect(called).toBe(0);
  });

  it('the function map is the only source of functions', () => {
    const t = new Template('t');
    // a function map built as an object literal has Object.prototype: its inherited names are not functions
    t.funcs({ up: new GoFunc('up', [], false, 1, { kind: 'string', name: 'string' }, () => 'UP') } as Record<string, GoFunc>);
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', '__defineGetter__', 'isPrototypeOf']) {
      expect(() => new Template('t').funcs({}).parse(`{{ ${name} }}`), name).toThrow(/function "[^"]+" not defined/);
    }
    expect(t.parse('{{ up }}').execute(null)).toBe('UP');
  });

  it('a function map whose own key is "__proto__" defines an ordinary function', () => {
    const m = Object.create(null) as Record<string, GoFunc>;
    m['__proto__'] = new GoFunc('__proto__', [], false, 1, { kind: 'string', name: 'string' }, () => 'ok');
    const t = new Template('t').funcs(m);
    expect(t.parse('{{ __proto__ }}').execute(null)).toBe('ok');
    expect(() => new Template('t').parse('{{ __proto__ }}')).toThrow(/not defined/);
  });
});
