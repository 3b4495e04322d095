// The data an execution works on. Sprig's set, unset and merge change maps in place (as in Go), and
// a template may rely on that within one render; the caller's objects must never change. So the
// outermost execution works on a copy of the maps and slices it was given; nested executions (Helm's
// include and tpl) share that copy, so changes stay visible across them as in Go.
//
// Upstream: none (an execution's own copy of the caller's maps and slices; Go works on them in place)

import { GO_TYPE, newMap, type GoMap, type GoType, type GoValue } from '../../reflect/value.js';

/**
 * Copy every map and slice reachable from v through maps and slices, keeping sharing and cycles.
 * Scalars, structs (GoStruct: their owners build them per render), typed nils and functions are shared.
 */
export function copyData(v: GoValue): GoValue {
  if (v === null || typeof v !== 'object') return v;
  // Iterative: data nested deeper than the JavaScript stack is copied all the same.
  const seen = new Map<object, GoValue>();
  const todo: Array<[object, GoValue[] | GoMap]> = [];
  const copyOf = (x: GoValue): GoValue => {
    if (x === null || typeof x !== 'object') return x;
    const done = seen.get(x);
    if (done !== undefined) return done;
    let out: GoValue[] | GoMap;
    if (Array.isArray(x)) out = new Array<GoValue>(x.length);
    else {
      const p = Object.getPrototypeOf(x);
      if (p !== null && p !== Object.prototype) return x;
      out = newMap();
    }
    const t = Object.prototype.hasOwnProperty.call(x, GO_TYPE) ? (x as { [GO_TYPE]?: GoType })[GO_TYPE] : undefined;
    if (t !== undefined) Object.defineProperty(out, GO_TYPE, { value: t, enumerable: false, configurable: true, writable: true });
    seen.set(x, out);
    todo.push([x, out]);
    return out;
  };
  const root = copyOf(v);
  while (todo.length > 0) {
    const [src, dst] = todo.pop()!;
    if (Array.isArray(src)) {
      const d = dst as GoValue[];
      for (let i = 0; i < src.length; i++) d[i] = copyOf(src[i] as GoValue);
    } else {
      const m = src as GoMap;
      const d = dst as GoMap;
      for (const k of Object.keys(m)) d[k] = copyOf(m[k]);
    }
  }
  return root;
}
