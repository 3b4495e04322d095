// Sprig's defaults group (defaults.go): default, empty, coalesce, all, any, ternary and the JSON
// functions, which use the shared encoding/json implementation.
//
// Mirrors: github.com/Masterminds/sprig/v3 defaults.go
// Proven by: test/vectors/sprig/defaults.jsonl

import { goJsonMarshal, goJsonMarshalChecked, GoJsonError, parseJson } from '../go/encoding/json/json.js';
import { def, type FuncMap, type GoValue } from '../go/reflect/value.js';
import { empty, fail, panic, table, utf8 } from './util.js';

const I = 'interface {}';

/** json.Unmarshal into interface{}: the value (nil after a syntax error) and Go's error text. */
function unmarshal(s: string): { value: GoValue; error?: string } {
  try {
    // goBytes: a byte that is not valid UTF-8 reaches the scanner as that byte
    const r = parseJson(Buffer.from(utf8(s)));
    return { value: r.value as GoValue, error: r.error };
  } catch (e) {
    if (e instanceof GoJsonError) return { value: null, error: e.message };
    throw e;
  }
}

/** Marshal, returning Go's error text instead of throwing. */
function marshal(v: GoValue, opts: Parameters<typeof goJsonMarshal>[1]): { out: string; error?: string } {
  try {
    return { out: goJsonMarshalChecked(v, opts) };
  } catch (e) {
    if (e instanceof GoJsonError) return { out: '', error: e.message };
    throw e;
  }
}

function must(r: { out: string; error?: string }): string {
  if (r.error !== undefined) fail(r.error);
  return r.out;
}

const PRETTY = { indent: '  ' };
const RAW = { escapeHTML: false };

export function defaultFuncs(): FuncMap {
  return table([
    def('default', `func(${I}, ...${I}) ${I}`, (d: GoValue, ...given: GoValue[]) =>
      given.length === 0 || empty(given[0]) ? d : given[0]!,
    ),
    def('empty', `func(${I}) bool`, empty),
    def('coalesce', `func(...${I}) ${I}`, (...v: GoValue[]) => v.find((x) => !empty(x)) ?? null),
    def('all', `func(...${I}) bool`, (...v: GoValue[]) => v.every((x) => !empty(x))),
    def('any', `func(...${I}) bool`, (...v: GoValue[]) => v.some((x) => !empty(x))),
    def('ternary', `func(${I}, ${I}, bool) ${I}`, (vt: GoValue, vf: GoValue, v: boolean) => (v ? vt : vf)),
    def('fromJson', `func(string) ${I}`, (s: string) => unmarshal(s).value),
    def('mustFromJson', `func(string) (${I}, error)`, (s: string) => {
      const r = unmarshal(s);
      if (r.error !== undefined) fail(r.error);
      return r.value;
    }),
    def('toJson', `func(${I}) string`, (v: GoValue) => marshal(v, {}).out),
    def('mustToJson', `func(${I}) (string, error)`, (v: GoValue) => must(marshal(v, {}))),
    def('toPrettyJson', `func(${I}) string`, (v: GoValue) => marshal(v, PRETTY).out),
    def('mustToPrettyJson', `func(${I}) (string, error)`, (v: GoValue) => must(marshal(v, PRETTY))),
    def('toRawJson', `func(${I}) string`, (v: GoValue) => {
      const r = marshal(v, RAW);
      if (r.error !== undefined) panic(r.error);
      return r.out;
    }),
    def('mustToRawJson', `func(${I}) (string, error)`, (v: GoValue) => must(marshal(v, RAW))),
  ]);
}
