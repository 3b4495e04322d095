// The data an execution works on. Sprig's set, unset and merge change maps in place (as in Go), and
// a template may rely on that within one render; the caller's objects must never change. So the
// outermost execution works on a copy of the maps and slices it was given; nested executions (Helm's
// include and tpl) share that copy, so changes stay visible across them as in Go.

import { GO_TYPE, newMap, type GoMap, type GoType, type GoValue } from './value.js';

/**
 * Copy every map and slice reachable from v through maps and slices, keeping sharing and cycles.
 * Scalars, structs (GoStruct: their owners build them per render), typed nils and functions are shared.
 */
export function copyData(v: GoValue): GoValue {
  if (v === null || typeof v !== 'object') return v;
  return copy(v, new Map());
}

function copy(v: GoValue, seen: Map<object, GoValue>): GoValue {
  if (v === null || typeof v !== 'object') return v;
  const done = seen.get(v);
  if (done !== undefined) return done;
  if (Array.isArray(v)) {
    const out: GoValue[] = new Array(v.length);
    seen.set(v, out);
    const t = (v as { [GO_TYPE]?: GoType })[GO_TYPE];
    if (t !== undefined) Object.defineProperty(out, GO_TYPE, { value: t, enumerable: false, configurable: true, writable: true });
    for (let i = 0; i < v.length; i++) out[i] = copy(v[i], seen);
    return out;
  }
  const p = Object.getPrototypeOf(v);
  if (p !== null && p !== Object.prototype) return v;
  const m = v as GoMap;
  const out = newMap();
  seen.set(v, out);
  const t = Object.prototype.hasOwnProperty.call(m, GO_TYPE) ? m[GO_TYPE] : undefined;
  if (t !== undefined) Object.defineProperty(out, GO_TYPE, { value: t, enumerable: false, configurable: true, writable: true });
  for (const k of Object.keys(m)) out[k] = copy(m[k], seen);
  return out;
}
