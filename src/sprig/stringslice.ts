// Sprig's string-list functions: split/splitList/splitn, join, toStrings, sortAlpha.
//
// Mirrors: github.com/Masterminds/sprig/v3 strings.go (split, splitn, join, strslice), list.go (sortAlpha), functions.go (splitList)
// Proven by: test/vectors/sprig/stringslice.jsonl

import { checkStringSize } from '../guard/limits.js';
import {
  compareKeys,
  def,
  GO_TYPE,
  MAP_STRING_STRING,
  newMap,
  SLICE_STRING,
  withType,
  type FuncMap,
  type GoMap,
  type GoType,
  type GoValue,
} from '../go/reflect/value.js';
import { splitN } from './strings.js';
import { isNilIface, listElems, strval, table } from './util.js';

/** Sprig's strslice: a []string as it is, other lists element by element (nil elements dropped). */
export function strslice(v: GoValue): string[] {
  const elems = listElems(v);
  if (elems) {
    const t = Array.isArray(v) ? (v as { [GO_TYPE]?: GoType })[GO_TYPE] : undefined;
    if (t === SLICE_STRING || t?.name === '[]string') return v as string[];
    const out: string[] = [];
    for (const e of elems) if (!isNilIface(e)) out.push(strval(e));
    return out;
  }
  if (isNilIface(v)) return [];
  return [strval(v)];
}

function splitMap(parts: string[]): GoMap {
  const m = newMap();
  parts.forEach((p, i) => (m['_' + i] = p));
  return withType(m, MAP_STRING_STRING);
}

export function stringSliceFuncs(): FuncMap {
  return table([
    def('split', 'func(string, string) map[string]string', (sep: string, s: string) => splitMap(splitN(s, sep, -1))),
    def('splitList', 'func(string, string) []string', (sep: string, s: string) => withType(splitN(s, sep, -1), SLICE_STRING)),
    def('splitn', 'func(string, int, string) map[string]string', (sep: string, n: bigint, s: string) =>
      splitMap(splitN(s, sep, n > 0x7fffffffn ? -1 : Number(n))),
    ),
    def('toStrings', 'func(interface {}) []string', (v: GoValue) => withType(strslice(v), SLICE_STRING)),
    def('join', 'func(string, interface {}) string', (sep: string, v: GoValue) => {
      const parts = strslice(v);
      if (parts.length > 1 && sep !== '') checkStringSize(Buffer.byteLength(sep) * (parts.length - 1) + parts.reduce((n, p) => n + p.length * 3, 0));
      return parts.join(sep);
    }),
    def('sortAlpha', 'func(interface {}) []string', (v: GoValue) => {
      // Sorted in place, as Go's sort.StringSlice does on the caller's []string.
      if (listElems(v)) return withType(strslice(v).sort(compareKeys), SLICE_STRING);
      return withType([strval(v ?? null)], SLICE_STRING);
    }),
  ]);
}
