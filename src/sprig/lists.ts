// Sprig's list functions (list.go). Lists are any slice or array; results are []interface {}.
//
// Mirrors: github.com/Masterminds/sprig/v3 list.go
// Proven by: test/vectors/sprig/lists.jsonl

import { checkDeadline, checkListLength } from '../guard/limits.js';
import {
  def,
  GoNil,
  GO_TYPE,
  SLICE_IFACE,
  sliceOf,
  typeOf,
  withType,
  type FuncMap,
  type GoType,
  type GoValue,
} from '../go/reflect/value.js';
import { deepEqual, empty, fail, floatToInt64, isNilIface, kindOf, NIL_DEREF, panic, table, toInt } from './util.js';

const I = 'interface {}';
const iface = (xs: GoValue[]): GoValue[] => withType(xs, SLICE_IFACE);
const nilSlice = (): GoNil => new GoNil(SLICE_IFACE);

/** reflect.TypeOf(list).Kind(), which dereferences nil for an untyped nil argument. */
function kindOrPanic(v: GoValue): string {
  if (isNilIface(v)) panic(NIL_DEREF);
  return kindOf(v);
}

/** The elements when v is a slice or array; otherwise Go's error with `what`. */
function elems(v: GoValue, what: (kind: string) => string): GoValue[] {
  const k = kindOrPanic(v);
  if (k !== 'slice' && k !== 'array') fail(what(k));
  return Array.isArray(v) ? v : [];
}

/** Each must* function returns the error; the plain one panics with it. */
function pair(name: string, sig: string, impl: (...args: any[]) => GoValue): ReturnType<typeof def>[] {
  const mustName = 'must' + name[0]!.toUpperCase() + name.slice(1);
  const mustSig = sig.replace(/\) (.+)$/, ') ($1, error)');
  return [
    def(name, sig, (...a: GoValue[]) => {
      try {
        return impl(...a);
      } catch (e) {
        if (e instanceof Error && e.name === 'GoError') panic(e.message);
        throw e;
      }
    }),
    def(mustName, mustSig, impl),
  ];
}

function inList(haystack: GoValue[], needle: GoValue): boolean {
  return haystack.some((h) => deepEqual(needle, h));
}

function chunk(size: bigint, list: GoValue): GoValue {
  const l = elems(list, (k) => `Cannot chunk type ${k}`);
  const n = l.length;
  const sz = Number(size);
  const cs = floatToInt64(Math.floor((n - 1) / sz) + 1);
  if (cs < 0n) panic('runtime error: makeslice: len out of range');
  const out: GoValue[] = [];
  const count = Number(cs);
  for (let i = 0; i < count; i++) {
    let clen = BigInt(sz);
    if (i === count - 1) {
      clen = floatToInt64(Math.floor(n % sz));
      if (clen === 0n) clen = BigInt(sz);
    }
    if (clen < 0n) panic('runtime error: makeslice: len out of range');
    const c: GoValue[] = [];
    for (let j = 0; j < Number(clen); j++) {
      const ix = i * sz + j;
      if (ix < 0 || ix >= n) panic('reflect: slice index out of range');
      c.push(l[ix]);
    }
    out.push(iface(c));
  }
  return withType(out, sliceOf(SLICE_IFACE));
}

function slice(list: GoValue, ...indices: GoValue[]): GoValue {
  const l = elems(list, (k) => `list should be type of slice or array but ${k}`);
  if (l.length === 0) return null;
  const start = indices.length > 0 ? toInt(indices[0]) : 0n;
  const end = indices.length < 2 ? BigInt(l.length) : toInt(indices[1]);
  if (start < 0n || end < start || end > BigInt(l.length)) panic('reflect.Value.Slice: slice index out of bounds');
  const t: GoType = typeOf(list) ?? SLICE_IFACE;
  return withType(l.slice(Number(start), Number(end)), t.kind === 'array' ? sliceOf(t.elem ?? (list as { [GO_TYPE]?: GoType })[GO_TYPE]!) : t);
}

function concat(...lists: GoValue[]): GoValue {
  let res: GoValue[] | undefined;
  for (const list of lists) {
    const k = kindOrPanic(list);
    if (k !== 'slice' && k !== 'array') panic(`Cannot concat type ${k} as list`);
    if (Array.isArray(list)) checkListLength((res?.length ?? 0) + list.length, false);
    for (const e of Array.isArray(list) ? list : []) (res ??= []).push(e);
  }
  return res ? iface(res) : nilSlice();
}

export function listFuncs(): FuncMap {
  const push = (list: GoValue, v: GoValue): GoValue => {
    const l = elems(list, (k) => `Cannot push on type ${k}`);
    checkListLength(l.length + 1, false);
    return iface([...l, v]);
  };
  return table([
    def('list', `func(...${I}) []${I}`, (...v: GoValue[]) => iface(v)),
    def('tuple', `func(...${I}) []${I}`, (...v: GoValue[]) => iface(v)),
    ...pair('push', `func(${I}, ${I}) []${I}`, push),
    ...pair('append', `func(${I}, ${I}) []${I}`, push),
    ...pair('prepend', `func(${I}, ${I}) []${I}`, (list: GoValue, v: GoValue) => {
      const l = elems(list, (k) => `Cannot prepend on type ${k}`);
      checkListLength(l.length + 1, false);
      return iface([v, ...l]);
    }),
    ...pair('chunk', `func(int, ${I}) [][]${I}`, chunk),
    ...pair('last', `func(${I}) ${I}`, (list: GoValue) => {
      const l = elems(list, (k) => `Cannot find last on type ${k}`);
      return l.length === 0 ? null : l[l.length - 1];
    }),
    ...pair('first', `func(${I}) ${I}`, (list: GoValue) => {
      const l = elems(list, (k) => `Cannot find first on type ${k}`);
      return l.length === 0 ? null : l[0];
    }),
    ...pair('rest', `func(${I}) []${I}`, (list: GoValue) => {
      const l = elems(list, (k) => `Cannot find rest on type ${k}`);
      return l.length === 0 ? nilSlice() : iface(l.slice(1));
    }),
    ...pair('initial', `func(${I}) []${I}`, (list: GoValue) => {
      const l = elems(list, (k) => `Cannot find initial on type ${k}`);
      return l.length === 0 ? nilSlice() : iface(l.slice(0, -1));
    }),
    ...pair('reverse', `func(${I}) []${I}`, (list: GoValue) =>
      iface([...elems(list, (k) => `Cannot find reverse on type ${k}`)].reverse()),
    ),
    ...pair('compact', `func(${I}) []${I}`, (list: GoValue) =>
      iface(elems(list, (k) => `Cannot compact on type ${k}`).filter((x) => !empty(x))),
    ),
    ...pair('uniq', `func(${I}) []${I}`, (list: GoValue) => {
      const dest: GoValue[] = [];
      for (const x of elems(list, (k) => `Cannot find uniq on type ${k}`)) {
        // quadratic, as in Sprig: keep to the wall-time budget
        checkDeadline();
        if (!inList(dest, x)) dest.push(x);
      }
      return iface(dest);
    }),
    ...pair('without', `func(${I}, ...${I}) []${I}`, (list: GoValue, ...omit: GoValue[]) =>
      iface(elems(list, (k) => `Cannot find without on type ${k}`).filter((x) => !inList(omit, x))),
    ),
    ...pair('has', `func(${I}, ${I}) bool`, (needle: GoValue, haystack: GoValue) => {
      if (isNilIface(haystack)) return false;
      return inList(elems(haystack, (k) => `Cannot find has on type ${k}`), needle);
    }),
    ...pair('slice', `func(${I}, ...${I}) ${I}`, slice),
    def('concat', `func(...${I}) ${I}`, concat),
  ]);
}
