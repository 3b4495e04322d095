// Sprig's reflection and conversion helpers (reflect.go, toString).
//
// Mirrors: github.com/Masterminds/sprig/v3 reflect.go
// Proven by: test/vectors/sprig/reflect.jsonl

import { def, type FuncMap, type GoValue } from '../go/reflect/value.js';
import { deepEqual, kindOf, strval, table, typeName } from './util.js';

const I = 'interface {}';

export function reflectFuncs(): FuncMap {
  return table([
    def('typeOf', `func(${I}) string`, (v: GoValue) => typeName(v)),
    def('typeIs', `func(string, ${I}) bool`, (t: string, v: GoValue) => t === typeName(v)),
    def('typeIsLike', `func(string, ${I}) bool`, (t: string, v: GoValue) => {
      const n = typeName(v);
      return t === n || '*' + t === n;
    }),
    def('kindOf', `func(${I}) string`, (v: GoValue) => kindOf(v)),
    def('kindIs', `func(string, ${I}) bool`, (k: string, v: GoValue) => k === kindOf(v)),
    def('deepEqual', `func(${I}, ${I}) bool`, deepEqual),
    def('toString', `func(${I}) string`, (v: GoValue) => strval(v ?? null)),
  ]);
}
