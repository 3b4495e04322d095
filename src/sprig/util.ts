// Shared helpers for the Sprig functions: Go's reflection view of a GoValue (kind, %T name,
// emptiness, DeepEqual), spf13/cast conversions, UTF-8 byte handling and Go's panics.
//
// Mirrors: github.com/Masterminds/sprig/v3 strings.go (strval); github.com/spf13/cast caste.go; go1.19 src/reflect/deepequal.go
// Proven by: test/vectors/sprig/

import { GoPanic } from '../go/text/template/errors.js';
import { checkStringSize } from '../guard/limits.js';
import { sprintf } from '../go/fmt/print.js';
import { byteLength, fromGoBytes, goBytes, parseIntFull, underscoreOK } from '../go/strconv/strconv.js';
import {
  GoError,
  GoFunc,
  GoNil,
  GoNum,
  GoStruct,
  GO_TYPE,
  isFloatKind,
  isIntKind,
  isMap,
  isUintKind,
  mapGet,
  typeOf,
  type FuncMap,
  type GoMap,
  type GoType,
  type GoValue,
  type Kind,
} from '../go/reflect/value.js';

/** Options every Sprig group may use: the sources of time, randomness and environment. */
export interface SprigContext {
  now: () => Date;
  /** A uniform number in [0, 1), like Math.random. */
  random: () => number;
  env: Record<string, string>;
}

/** A function table (null prototype) from GoFuncs, keyed by their names. */
export function table(fns: GoFunc[]): FuncMap {
  const m: FuncMap = Object.create(null);
  for (const f of fns) m[f.name] = f;
  return m;
}

/** A Go panic inside a function; text/template reports it as `error calling NAME: MSG`. */
export function panic(msg: string): never {
  throw new GoPanic(msg);
}

/** The error result of a Go function. */
export function fail(msg: string): never {
  throw new GoError(msg);
}

export const NIL_DEREF = 'runtime error: invalid memory address or nil pointer dereference';

// ---------- UTF-8 ----------
// Go strings are bytes; the shared convention (go/strconv/strconv.ts) holds a byte that is not valid
// UTF-8 as the lone surrogate U+DC00+byte, so byte-level slicing round-trips.

/** The bytes of a Go string. */
export const utf8 = goBytes;
/** The Go string holding these bytes. */
export const fromUtf8 = fromGoBytes;
/** Go's len(s). */
export const byteLen = byteLength;

/** Go's s[lo:hi] on the bytes (bounds already checked). */
export function byteSlice(s: string, lo: number, hi?: number): string {
  return fromUtf8(utf8(s).subarray(lo, hi));
}

/** The runes of a string (Go's []rune(s)). */
export function runes(s: string): number[] {
  // A rune array costs about 8 bytes a character: a huge input string is refused, not a crash.
  checkStringSize(s.length * 8);
  const out: number[] = [];
  // Go's []rune(s) turns each byte that is not valid UTF-8 into U+FFFD.
  for (const ch of s) {
    const r = ch.codePointAt(0)!;
    out.push(r >= 0xd800 && r <= 0xdfff ? 0xfffd : r);
  }
  return out;
}

export function fromRunes(rs: number[]): string {
  let out = '';
  for (const r of rs) out += String.fromCodePoint(r >= 0xd800 && r <= 0xdfff ? 0xfffd : r);
  return out;
}

// ---------- unicode ----------

/** unicode.IsSpace */
export function isSpace(r: number): boolean {
  if (r <= 0xff) return (r >= 0x09 && r <= 0x0d) || r === 0x20 || r === 0x85 || r === 0xa0;
  return (
    r === 0x1680 || (r >= 0x2000 && r <= 0x200a) || r === 0x2028 || r === 0x2029 || r === 0x202f || r === 0x205f || r === 0x3000
  );
}

const RE_UPPER = /^\p{Lu}$/u;
const RE_LOWER = /^\p{Ll}$/u;
const RE_TITLE = /^\p{Lt}$/u;
const RE_LETTER = /^\p{L}$/u;
const RE_DIGIT = /^\p{Nd}$/u;
const RE_NUMBER = /^\p{N}$/u;
const RE_PUNCT = /^\p{P}$/u;

const ch = (r: number): string => String.fromCodePoint(r);
export const isUpper = (r: number): boolean => (r < 0x80 ? r >= 0x41 && r <= 0x5a : RE_UPPER.test(ch(r)));
export const isLower = (r: number): boolean => (r < 0x80 ? r >= 0x61 && r <= 0x7a : RE_LOWER.test(ch(r)));
export const isTitle = (r: number): boolean => r >= 0x80 && RE_TITLE.test(ch(r));
export const isLetter = (r: number): boolean =>
  r < 0x80 ? (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a) : RE_LETTER.test(ch(r));
export const isDigit = (r: number): boolean => (r < 0x80 ? r >= 0x30 && r <= 0x39 : RE_DIGIT.test(ch(r)));
export const isNumber = (r: number): boolean => (r < 0x80 ? r >= 0x30 && r <= 0x39 : RE_NUMBER.test(ch(r)));
export const isPunct = (r: number): boolean => RE_PUNCT.test(ch(r));

/** Simple (one-to-one) case mappings that JS only offers through the full, multi-character mappings. */
function greekIotaUpper(r: number): number | undefined {
  if ((r >= 0x1f80 && r <= 0x1f87) || (r >= 0x1f90 && r <= 0x1f97) || (r >= 0x1fa0 && r <= 0x1fa7)) return r + 8;
  if (r === 0x1fb3) return 0x1fbc;
  if (r === 0x1fc3) return 0x1fcc;
  if (r === 0x1ff3) return 0x1ffc;
  return undefined;
}

/** unicode.ToUpper */
export function toUpperRune(r: number): number {
  if (r < 0x80) return r >= 0x61 && r <= 0x7a ? r - 32 : r;
  const u = ch(r).toUpperCase();
  const c = u.codePointAt(0)!;
  if (u.length === (c > 0xffff ? 2 : 1)) return c;
  return greekIotaUpper(r) ?? r;
}

/** unicode.ToLower */
export function toLowerRune(r: number): number {
  if (r < 0x80) return r >= 0x41 && r <= 0x5a ? r + 32 : r;
  if (r === 0x130) return 0x69;
  const l = ch(r).toLowerCase();
  const c = l.codePointAt(0)!;
  if (l.length === (c > 0xffff ? 2 : 1)) return c;
  return r;
}

/** unicode.ToTitle: upper case except for the digraphs and Georgian, whose title case differs. */
export function toTitleRune(r: number): number {
  switch (r) {
    case 0x1c4: case 0x1c5: case 0x1c6: return 0x1c5;
    case 0x1c7: case 0x1c8: case 0x1c9: return 0x1c8;
    case 0x1ca: case 0x1cb: case 0x1cc: return 0x1cb;
    case 0x1f1: case 0x1f2: case 0x1f3: return 0x1f2;
  }
  if ((r >= 0x10d0 && r <= 0x10fa) || (r >= 0x10fd && r <= 0x10ff)) return r;
  if (r >= 0x1f88 && r <= 0x1faf && (r & 0xf) >= 8) return r;
  if (r === 0x1fbc || r === 0x1fcc || r === 0x1ffc) return r;
  return toUpperRune(r);
}

export function mapRunes(s: string, f: (r: number) => number): string {
  let out = '';
  // strings.Map writes U+FFFD for a byte that is not valid UTF-8.
  for (const c of s) {
    const r = c.codePointAt(0)!;
    out += String.fromCodePoint(r >= 0xd800 && r <= 0xdfff ? 0xfffd : f(r));
  }
  return out;
}

// ---------- reflection ----------

export type KindName = Kind | 'invalid';

/** reflect.ValueOf(v).Kind() */
export function kindOf(v: GoValue): KindName {
  if (v === undefined || v === null) return 'invalid';
  const t = typeOf(v);
  return t ? t.kind : 'invalid';
}

/** reflect.Kind.String(): Go prints the pointer kind as "ptr". */
export function kindString(k: KindName): string {
  return k;
}

/** fmt's %T */
export function typeName(v: GoValue): string {
  if (v === undefined || v === null) return '<nil>';
  return typeOf(v)!.name;
}

/** The elements of a slice or array value, or undefined when v is no list. */
export function listElems(v: GoValue): GoValue[] | undefined {
  if (Array.isArray(v)) return v;
  if (v instanceof GoNil && (v.type.kind === 'slice' || v.type.kind === 'array')) return [];
  return undefined;
}

export function isListKind(k: KindName): boolean {
  return k === 'slice' || k === 'array';
}

/** Go's `x == nil` for an interface{} argument: only the untyped nil. */
export function isNilIface(v: GoValue): boolean {
  return v === null || v === undefined;
}

/** Sprig's empty(): the zero value of its type (structs never are). */
export function empty(v: GoValue): boolean {
  switch (typeof v) {
    case 'undefined':
      return true;
    case 'boolean':
      return !v;
    case 'string':
      return v.length === 0;
    case 'number':
      return v === 0;
    case 'bigint':
      return v === 0n;
  }
  if (v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof GoNum) return v.v === 0 || v.v === 0n;
  if (v instanceof GoNil) return true;
  if (v instanceof GoStruct) return false;
  if (v instanceof GoFunc) return false;
  return Object.keys(v as GoMap).length === 0;
}

function sameType(a: GoValue, b: GoValue): boolean {
  const ta = typeOf(a);
  const tb = typeOf(b);
  if (!ta || !tb) return ta === tb;
  return ta === tb || ta.name === tb.name;
}

/** reflect.DeepEqual */
export function deepEqual(a: GoValue, b: GoValue): boolean {
  return deepValueEqual(a, b, undefined);
}

/**
 * The pairs of maps and slices already compared (reflect's visited): met again, a pair is taken as
 * equal, so values that contain themselves compare in finite time, as in Go.
 */
type Visited = Map<object, Set<object>>;

function seen(visited: Visited, a: object, b: object): boolean {
  let s = visited.get(a);
  if (!s) visited.set(a, (s = new Set()));
  if (s.has(b)) return true;
  s.add(b);
  return false;
}

function deepValueEqual(a: GoValue, b: GoValue, visited: Visited | undefined): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null) return a === b;
  // reflect.DeepEqual: the same map or slice is equal without a walk (and a shared value stays linear).
  if (a === b && typeof a === 'object' && !(a instanceof GoFunc)) return true;
  if (!sameType(a, b)) return false;
  if (typeof a !== 'object') return a === b;
  if (a instanceof GoNum) return (b as GoNum).v === a.v;
  if (a instanceof GoNil) return b instanceof GoNil;
  if (a instanceof GoFunc) return false;
  if (a instanceof GoStruct) {
    const sb = b as GoStruct;
    if (a === sb) return true;
    for (const f of a.type.fields ?? []) if (!deepValueEqual(a.field(f.name), sb.field(f.name), visited)) return false;
    const ea = (a as { equalTo?: (o: GoStruct) => boolean }).equalTo;
    return ea ? ea.call(a, sb) : a.type.fields !== undefined;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return false;
    if (a.length !== b.length) return false;
    if (a.length === 0) return true;
    visited ??= new Map();
    if (seen(visited, a, b)) return true;
    for (let i = 0; i < a.length; i++) if (!deepValueEqual(a[i], b[i], visited)) return false;
    return true;
  }
  if (b instanceof GoNil || !isMap(b)) return false;
  const ka = Object.keys(a as GoMap);
  const bm = b as GoMap;
  if (ka.length !== Object.keys(bm).length) return false;
  if (ka.length === 0) return true;
  visited ??= new Map();
  if (seen(visited, a as object, bm)) return true;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(bm, k)) return false;
    if (!deepValueEqual(mapGet(a as GoMap, k), mapGet(bm, k), visited)) return false;
  }
  return true;
}

/** True for a value whose Go type is exactly the predeclared one of its kind (not a named type). */
function isBasic(t: GoType): boolean {
  return t.name === t.kind;
}

/** The bytes of a []byte value, for strval. */
function byteSliceValue(v: GoValue): Uint8Array | undefined {
  if (!Array.isArray(v)) return undefined;
  const t = (v as { [GO_TYPE]?: GoType })[GO_TYPE];
  if (!t || (t.name !== '[]uint8' && t.name !== '[]byte')) return undefined;
  return Uint8Array.from(v.map((x) => Number(x instanceof GoNum ? x.v : 0)));
}

/** Sprig's strval: strings as they are, []byte as text, errors and Stringers by their method, else %v. */
export function strval(v: GoValue): string {
  if (typeof v === 'string') return v;
  const b = byteSliceValue(v);
  if (b) return fromUtf8(b);
  return sprintf('%v', [v]);
}

// ---------- spf13/cast ----------

const MIN_INT64 = -(1n << 63n);

/** Go's int64(f) on amd64: out-of-range and NaN give the "integer indefinite" value. */
export function floatToInt64(f: number): bigint {
  if (!Number.isFinite(f) || f >= 9223372036854775808 || f < -9223372036854775808) return MIN_INT64;
  return BigInt(Math.trunc(f));
}

/** Go's float64(x) for an integer. */
export function intToFloat(x: bigint): number {
  return Number(x);
}

/** cast.ToInt64 (errors give 0). */
export function toInt64(v: GoValue): bigint {
  switch (typeof v) {
    case 'bigint':
      return v;
    case 'number':
      return floatToInt64(v);
    case 'string': {
      const r = parseInt(trimZeroDecimal(v), 0);
      return r ?? 0n;
    }
    case 'boolean':
      return v ? 1n : 0n;
  }
  if (v instanceof GoNum) {
    const t = v.type;
    if (t.name === 'time.Weekday' || t.name === 'time.Month') return v.v as bigint;
    if (!isBasic(t)) return 0n;
    if (isIntKind(t.kind)) return v.v as bigint;
    if (isUintKind(t.kind)) return BigInt.asIntN(64, v.v as bigint);
    if (isFloatKind(t.kind)) return floatToInt64(v.v as number);
  }
  return 0n;
}

/** cast.ToInt: the same as ToInt64 for a 64-bit int. */
export const toInt = toInt64;

/** cast.ToFloat64 (errors give 0). */
export function toFloat64(v: GoValue): number {
  switch (typeof v) {
    case 'bigint':
      return Number(v);
    case 'number':
      return v;
    case 'string':
      return parseFloat64(v) ?? 0;
    case 'boolean':
      return v ? 1 : 0;
  }
  if (v instanceof GoNum) {
    const t = v.type;
    if (t.name === 'time.Weekday' || t.name === 'time.Month') return Number(v.v);
    if (!isBasic(t)) return 0;
    if (isFloatKind(t.kind)) return v.v as number;
    if (isIntKind(t.kind) || isUintKind(t.kind)) return Number(v.v);
  }
  return 0;
}

function trimZeroDecimal(s: string): string {
  let foundZero = false;
  for (let i = s.length; i > 0; i--) {
    switch (s[i - 1]) {
      case '.':
        if (foundZero) return s.slice(0, i - 1);
        break;
      case '0':
        foundZero = true;
        break;
      default:
        return s;
    }
  }
  return s;
}

// ---------- strconv ----------

export { parseIntFull, type IntParse } from '../go/strconv/strconv.js';

/** strconv.ParseInt(s, base, 64); undefined on any error. */
export function parseInt(s: string, base: number): bigint | undefined {
  const r = parseIntFull(s, base);
  return r.err ? undefined : r.value;
}

/** strconv.ParseFloat(s, 64); undefined on any error (syntax or range). */
export function parseFloat64(s: string): number | undefined {
  let t = s;
  let sign = 1;
  if (t[0] === '+' || t[0] === '-') {
    if (t[0] === '-') sign = -1;
    t = t.slice(1);
  }
  const low = t.toLowerCase();
  if (low === 'inf' || low === 'infinity') return sign * Infinity;
  if (low === 'nan') return NaN;
  if (/^0[xX]/.test(t)) {
    const m = /^0[xX]((?:[0-9a-fA-F]|_)*)(?:\.((?:[0-9a-fA-F]|_)*))?[pP]([+-]?[0-9_]+)$/.exec(t);
    if (!m || (m[1]!.replace(/_/g, '') === '' && (m[2] ?? '').replace(/_/g, '') === '')) return undefined;
    if (t.includes('_') && !underscoreOK(s)) return undefined;
    const intPart = m[1]!.replace(/_/g, '');
    const frac = (m[2] ?? '').replace(/_/g, '');
    const exp = Number(m[3]!.replace(/_/g, ''));
    const mant = BigInt('0x' + (intPart + frac || '0'));
    const e2 = exp - 4 * frac.length;
    const v = bigTimesPow2(mant, e2);
    if (!Number.isFinite(v)) return undefined;
    return sign * v;
  }
  if (!/^(?:[0-9_]*\.?[0-9_]*)(?:[eE][+-]?[0-9][0-9_]*)?$/.test(t) || !/[0-9]/.test(t.split(/[eE]/)[0]!)) return undefined;
  if (t.includes('_') && !underscoreOK(s)) return undefined;
  const v = Number(t.replace(/_/g, ''));
  if (!Number.isFinite(v)) return undefined;
  return sign * v;
}

function bigTimesPow2(m: bigint, e: number): number {
  if (m === 0n) return 0;
  // Scale into a range where Number() rounds correctly once.
  const bits = m.toString(2).length;
  if (bits > 64) {
    const shift = bits - 64;
    const sticky = (m & ((1n << BigInt(shift)) - 1n)) !== 0n ? 1n : 0n;
    m = (m >> BigInt(shift)) | sticky;
    e += shift;
  }
  let v = Number(m);
  // Multiply by 2^e in steps that stay exact until the final rounding.
  while (e > 0) {
    const k = Math.min(e, 1000);
    v *= 2 ** k;
    e -= k;
  }
  while (e < 0) {
    const k = Math.min(-e, 1000);
    v /= 2 ** k;
    e += k;
  }
  return v;
}
