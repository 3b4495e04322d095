// Sprig's dictionary functions (dict.go), including mergo's Merge/MergeWithOverwrite semantics for
// map[string]interface {} and copystructure's deep copy.
//
// Mirrors: github.com/Masterminds/sprig/v3 dict.go; github.com/imdario/mergo merge.go; github.com/mitchellh/copystructure copystructure.go
// Proven by: test/vectors/sprig/dicts.jsonl

import { PathTracker, checkExpandedSize } from '../guard/limits.js';
import { FRESH_MAP_FUNCS } from '../go/text/template/exec.js';
import {
  compareKeys,
  def,
  GoFunc,
  GoNil,
  GO_TYPE,
  isMap,
  mapGet,
  mapHas,
  newMap,
  SLICE_IFACE,
  SLICE_STRING,
  withType,
  type FuncMap,
  type GoMap,
  type GoType,
  type GoValue,
} from '../go/reflect/value.js';
import { empty, isNilIface, kindOf, panic, strval, table, typeName } from './util.js';

const I = 'interface {}';
const M = 'map[string]interface {}';

/** The map keys in a fixed order (Go's iteration order is random; sorted keeps output reproducible). */
const keysOf = (m: GoMap): string[] => Object.keys(m).sort(compareKeys);

/** A map write that stores "__proto__" as an ordinary key of a map with Object.prototype, never as a prototype change. */
function put(m: GoMap, key: string, v: GoValue): void {
  if (key === '__proto__') Object.defineProperty(m, key, { value: v, enumerable: true, writable: true, configurable: true });
  else m[key] = v;
}

/** mergo.deepMerge for two maps whose values are interface {} (dst is modified in place). */
export function mergeInto(dst: GoMap, src: GoMap, overwrite: boolean, path = new PathTracker('merge of it'), depth = 0): void {
  // mergo recurses while both sides hold maps: endless when the same two meet again on the way down
  path.enter(dst, depth, src);
  for (const key of Object.keys(src)) {
    const s = mapGet(src, key);
    const has = mapHas(dst, key);
    const d = has ? mapGet(dst, key) : undefined;
    if (isNilIface(s)) {
      if (overwrite) put(dst, key, null);
      continue;
    }
    const sk = kindOf(s);
    // Nested maps merge in place; anything else in dst's slot stays as it is.
    if (sk === 'map' && has && isMap(d) && isMap(s)) mergeInto(d, s, overwrite, path, depth + 1);
    // mergo stores a source slice before deciding whether to keep the destination's value.
    if (sk === 'slice' && (overwrite || Object.keys(dst).length === 0)) put(dst, key, s);
    if (has && !empty(d) && (sk === 'map' || sk === 'slice')) continue;
    if (overwrite || !has || empty(d)) put(dst, key, s);
  }
  path.leave(dst, depth, src);
}

function copyValue(v: GoValue, path: PathTracker, depth: number): GoValue {
  if (Array.isArray(v)) {
    path.enter(v, depth);
    const out = v.map((x) => copyValue(x, path, depth + 1));
    path.leave(v, depth);
    const t = (v as { [GO_TYPE]?: GoType })[GO_TYPE];
    return t ? withType(out, t) : out;
  }
  if (isMap(v)) {
    const out = newMap();
    path.enter(v, depth);
    for (const k of Object.keys(v)) out[k] = copyValue(mapGet(v, k), path, depth + 1);
    path.leave(v, depth);
    const t = v[GO_TYPE];
    return t ? withType(out, t) : out;
  }
  return v;
}

/** copystructure.Copy */
export function deepCopy(v: GoValue): GoValue {
  if (isNilIface(v)) panic('reflect: call of reflect.Value.Type on zero Value');
  checkExpandedSize(v);
  return copyValue(v, new PathTracker('copystructure.Copy of it'), 0);
}

function dig(...ps: GoValue[]): GoValue {
  if (ps.length < 3) panic('dig needs at least three arguments');
  const assertMap = (v: GoValue): GoMap => {
    if (isMap(v) && typeName(v) === M) return v;
    panic(`interface conversion: interface {} is ${isNilIface(v) ? 'nil' : typeName(v)}, not ${M}`);
  };
  let dict = assertMap(ps[ps.length - 1]);
  const d = ps[ps.length - 2];
  const ks = ps.slice(0, -2).map((k) => {
    if (typeof k === 'string') return k;
    panic(`interface conversion: interface {} is ${isNilIface(k) ? 'nil' : typeName(k)}, not string`);
  });
  for (let i = 0; ; i++) {
    const k = ks[i]!;
    if (!mapHas(dict, k)) return d;
    const step = mapGet(dict, k);
    if (i === ks.length - 1) return step;
    dict = assertMap(step);
  }
}

export function dictFuncs(): FuncMap {
  const merge = (overwrite: boolean) => (dst: GoMap, ...srcs: GoMap[]): GoValue => {
    for (const src of srcs) {
      if (!isMap(src)) continue;
      // mergo makes a fresh map for a nil destination.
      if (!isMap(dst)) dst = newMap();
      mergeInto(dst, src, overwrite);
    }
    return dst;
  };
  const freshMap = (f: GoFunc): GoFunc => {
    FRESH_MAP_FUNCS.add(f);
    return f;
  };
  return table([
    // Every call makes a new map: set/unset on variables holding only dicts need no copy of the data.
    freshMap(
      def('dict', `func(...${I}) ${M}`, (...v: GoValue[]) => {
        const m = newMap();
        for (let i = 0; i < v.length; i += 2) m[strval(v[i] ?? null)] = i + 1 < v.length ? v[i + 1] ?? null : '';
        return m;
      }),
    ),
    def('get', `func(${M}, string) ${I}`, (d: GoMap, key: string) => (mapHas(d, key) ? mapGet(d, key) : '')),
    def('set', `func(${M}, string, ${I}) ${M}`, (d: GoMap, key: string, value: GoValue) => {
      if (d instanceof GoNil) panic('assignment to entry in nil map');
      put(d, key, value);
      return d;
    }),
    def('unset', `func(${M}, string) ${M}`, (d: GoMap, key: string) => {
      if (isMap(d)) delete d[key];
      return d;
    }),
    def('hasKey', `func(${M}, string) bool`, (d: GoMap, key: string) => isMap(d) && mapHas(d, key)),
    def('pluck', `func(string, ...${M}) []${I}`, (key: string, ...ds: GoMap[]) =>
      withType(ds.filter((d) => isMap(d) && mapHas(d, key)).map((d) => mapGet(d, key)), SLICE_IFACE),
    ),
    def('keys', `func(...${M}) []string`, (...ds: GoMap[]) => withType(ds.flatMap((d) => (isMap(d) ? keysOf(d) : [])), SLICE_STRING)),
    def('values', `func(${M}) []${I}`, (d: GoMap) => withType(isMap(d) ? keysOf(d).map((k) => mapGet(d, k)) : [], SLICE_IFACE)),
    def('pick', `func(${M}, ...string) ${M}`, (d: GoMap, ...ks: string[]) => {
      const res = newMap();
      for (const k of ks) if (isMap(d) && mapHas(d, k)) res[k] = mapGet(d, k);
      return res;
    }),
    def('omit', `func(${M}, ...string) ${M}`, (d: GoMap, ...ks: string[]) => {
      const res = newMap();
      const skip = new Set(ks);
      if (isMap(d)) for (const k of Object.keys(d)) if (!skip.has(k)) res[k] = mapGet(d, k);
      return res;
    }),
    def('merge', `func(${M}, ...${M}) ${I}`, merge(false)),
    def('mustMerge', `func(${M}, ...${M}) (${I}, error)`, merge(false)),
    def('mergeOverwrite', `func(${M}, ...${M}) ${I}`, merge(true)),
    def('mustMergeOverwrite', `func(${M}, ...${M}) (${I}, error)`, merge(true)),
    def('dig', `func(...${I}) (${I}, error)`, dig),
    def('deepCopy', `func(${I}) ${I}`, deepCopy),
    def('mustDeepCopy', `func(${I}) (${I}, error)`, deepCopy),
  ]);
}
