// The builtin functions of text/template (Go's funcs.go), with Go's argument rules and error texts.
// Parameters typed reflect.Value receive the raw value: undefined for an invalid value, null for a nil
// interface.
//
// Mirrors: go1.19 src/text/template/funcs.go
// Proven by: test/vectors/template/

import { sprint, sprintf, sprintln, formatValue } from '../../fmt/print.js';
import { isPrint } from '../../strconv/quote.js';
import { byteLength, fromGoBytes, goBytes } from '../../strconv/strconv.js';
import {
  GO_TYPE,
  GoError,
  GoFunc,
  GoNil,
  GoNum,
  GoStruct,
  T,
  compareKeys,
  isFloatKind,
  isIntKind,
  isTrue,
  isUintKind,
  sliceOf,
  typeOf,
  withType,
  zeroValue,
  type FuncMap,
  type GoMap,
  type GoType,
  type GoValue,
  SLICE_IFACE,
  MAP_STRING_IFACE,
  isMap,
} from '../../reflect/value.js';

const RV = T.reflectValue;
const SLICE_RV = sliceOf(RV);
const SLICE_IFACE_T = SLICE_IFACE;

function typeNameOf(v: GoValue): string {
  if (v === null) return 'interface {}';
  const t = typeOf(v);
  return t ? t.name : '<invalid>';
}

/** reflect panics when asked the type of an invalid value; safeCall turns the panic into this error. */
const ZERO_VALUE_TYPE = 'reflect: call of reflect.Value.Type on zero Value';

// ---------- truth ----------

function not(arg: GoValue): boolean {
  return !isTrue(arg);
}

// ---------- len, index, slice ----------

function utf8Length(s: string): number {
  return byteLength(s);
}

function length(item: GoValue): bigint {
  if (item === null || (item instanceof GoNil && item.type.kind === 'ptr')) throw new GoError('len of nil pointer');
  if (item === undefined) throw new GoError(ZERO_VALUE_TYPE);
  if (typeof item === 'string') return BigInt(utf8Length(item));
  if (Array.isArray(item)) return BigInt(item.length);
  if (item instanceof GoNil && (item.type.kind === 'map' || item.type.kind === 'slice' || item.type.kind === 'chan')) return 0n;
  if (isMap(item)) return BigInt(Object.keys(item).length);
  if (item instanceof GoStruct) throw new GoError(`len of type ${item.type.name}`);
  throw new GoError(`len of type ${typeNameOf(item)}`);
}

function indexArg(index: GoValue, cap: number): number {
  let x: bigint;
  if (typeof index === 'bigint') x = index;
  else if (index instanceof GoNum && typeof index.v === 'bigint') x = BigInt.asIntN(64, index.v);
  else if (index === undefined || index === null) throw new GoError('cannot index slice/array with nil');
  else throw new GoError(`cannot index slice/array with type ${typeNameOf(index)}`);
  if (x < 0n || x > BigInt(cap)) throw new GoError(`index out of range: ${x}`);
  return Number(x);
}

const intLike = (t: GoType): boolean => isIntKind(t.kind) || isUintKind(t.kind);

/** Go's prepareArg: a value used as a map key (or `call` argument) of type t. */
export function prepareArg(value: GoValue, t: GoType): GoValue {
  if (value === undefined || value === null) {
    if (!(t.kind === 'interface' || t.kind === 'map' || t.kind === 'slice' || t.kind === 'ptr' || t.kind === 'func' || t.kind === 'chan')) {
      throw new GoError(`value is nil; should be of type ${t.name}`);
    }
    return zeroValue(t);
  }
  const vt = typeOf(value)!;
  if (t.kind === 'interface' || vt.name === t.name) return value;
  if (intLike(vt) && intLike(t)) {
    const n = typeof value === 'bigint' ? value : ((value as GoNum).v as bigint);
    return t === T.int ? BigInt.asIntN(64, n) : new GoNum(t, isUintKind(t.kind) ? BigInt.asUintN(bits(t), n) : BigInt.asIntN(bits(t), n));
  }
  throw new GoError(`value has type ${vt.name}; should be ${t.name}`);
}

function bits(t: GoType): number {
  switch (t.kind) {
    case 'int8':
    case 'uint8':
      return 8;
    case 'int16':
    case 'uint16':
      return 16;
    case 'int32':
    case 'uint32':
      return 32;
  }
  return 64;
}

function utf8Bytes(s: string): Uint8Array {
  return goBytes(s);
}

const UINT8 = T.uint8;
const hasOwnKey = Object.prototype.hasOwnProperty;

function index(item: GoValue, ...indexes: GoValue[]): GoValue {
  // Fast path: one string key into an untyped map (a missing key gives interface {}'s zero, nil).
  if (indexes.length === 1 && typeof indexes[0] === 'string' && typeof item === 'object' && item !== null && !(item instanceof Object) && (item as GoMap)[GO_TYPE] === undefined) {
    const k = indexes[0];
    // (own properties only: a map from another realm is no instance of this realm's Object either)
    return hasOwnKey.call(item, k) ? (item as GoMap)[k] : null;
  }
  if (item === undefined || item === null) throw new GoError('index of untyped nil');
  for (const idx of indexes) {
    if (item === null || (item instanceof GoNil && item.type.kind === 'ptr')) throw new GoError('index of nil pointer');
    if (typeof item === 'string') {
      const b = utf8Bytes(item);
      const x = indexArg(idx, b.length);
      if (x >= b.length) throw new GoError('reflect: string index out of range');
      item = new GoNum(UINT8, BigInt(b[x]!));
    } else if (Array.isArray(item)) {
      const x = indexArg(idx, item.length);
      if (x >= item.length) throw new GoError('reflect: slice index out of range');
      item = item[x];
    } else if (item instanceof GoNil && item.type.kind === 'slice') {
      indexArg(idx, 0);
      throw new GoError('reflect: slice index out of range');
    } else if (isMap(item)) {
      const t = item[GO_TYPE] ?? MAP_STRING_IFACE;
      const key = prepareArg(idx, t.key ?? T.string);
      const k = keyString(key);
      if (k !== undefined && Object.prototype.hasOwnProperty.call(item, k)) item = item[k];
      else item = zeroValue(t.elem ?? T.iface);
    } else if (item instanceof GoNil && item.type.kind === 'map') {
      prepareArg(idx, item.type.key ?? T.string);
      item = zeroValue(item.type.elem ?? T.iface);
    } else if (item === undefined) {
      throw new GoError(ZERO_VALUE_TYPE);
    } else {
      throw new GoError(`can't index item of type ${item instanceof GoStruct ? item.type.name : typeNameOf(item)}`);
    }
  }
  return item;
}

/** index with one index (the engine calls it so): a string key into an untyped map without the rest array. */
export function index1(item: GoValue, idx: GoValue): GoValue {
  if (typeof idx === 'string' && isMap(item)) {
    const t = item[GO_TYPE];
    if (t === undefined) return Object.prototype.hasOwnProperty.call(item, idx) ? item[idx] : null;
    if (t.key === T.string) return Object.prototype.hasOwnProperty.call(item, idx) ? item[idx] : zeroValue(t.elem ?? T.iface);
  }
  return index(item, idx);
}

function keyString(k: GoValue): string | undefined {
  if (typeof k === 'string') return k;
  if (typeof k === 'bigint') return k.toString();
  if (k instanceof GoNum) return String(k.v);
  if (typeof k === 'boolean' || typeof k === 'number') return String(k);
  return undefined;
}

/** Set by the engine before calling slice: which index arguments were interface values (Go reports their type). */
export const SLICE_INDEX_IFACE: boolean[] = [];

function slice(item: GoValue, ...indexes: GoValue[]): GoValue {
  if (item === undefined || item === null) throw new GoError('slice of untyped nil');
  if (indexes.length > 3) throw new GoError(`too many slice indexes: ${indexes.length}`);
  let cap: number;
  let len: number;
  let bytes: Uint8Array | null = null;
  if (typeof item === 'string') {
    if (indexes.length === 3) throw new GoError('cannot 3-index slice a string');
    bytes = utf8Bytes(item);
    cap = len = bytes.length;
  } else if (Array.isArray(item)) {
    cap = len = item.length;
  } else if (item instanceof GoNil && item.type.kind === 'slice') {
    cap = len = 0;
  } else {
    throw new GoError(`can't slice item of type ${typeNameOf(item)}`);
  }
  const idx = [0, len, 0];
  indexes.forEach((x, i) => {
    if (SLICE_INDEX_IFACE[i]) throw new GoError('cannot index slice/array with type interface {}');
    idx[i] = indexArg(x, cap);
  });
  if (idx[0]! > idx[1]!) throw new GoError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (indexes.length === 3 && idx[1]! > idx[2]!) throw new GoError(`invalid slice index: ${idx[1]} > ${idx[2]}`);
  if (bytes) return fromGoBytes(bytes.subarray(idx[0], idx[1]));
  if (item instanceof GoNil) return item;
  const arr = item as GoValue[];
  const out = arr.slice(idx[0], idx[1]);
  const t = (arr as { [GO_TYPE]?: GoType })[GO_TYPE];
  return t ? withType(out, t) : out;
}

// ---------- comparison ----------

const enum Kind {
  Invalid,
  Bool,
  Complex,
  Int,
  Float,
  String,
  Uint,
}

function basicKind(v: GoValue): Kind {
  switch (typeof v) {
    case 'boolean':
      return Kind.Bool;
    case 'bigint':
      return Kind.Int;
    case 'number':
      return Kind.Float;
    case 'string':
      return Kind.String;
  }
  if (v instanceof GoNum) {
    const k = v.type.kind;
    if (isIntKind(k)) return Kind.Int;
    if (isUintKind(k)) return Kind.Uint;
    if (isFloatKind(k)) return Kind.Float;
    if (k === 'complex64' || k === 'complex128') return Kind.Complex;
    if (k === 'bool') return Kind.Bool;
    if (k === 'string') return Kind.String;
  }
  return Kind.Invalid;
}

function num(v: GoValue): bigint | number {
  if (v instanceof GoNum) return v.v;
  return v as bigint | number;
}

/** The imaginary part of a complex value (exec.ts complexValue keeps it beside the real part). */
function imagPart(v: GoValue): number {
  return v instanceof GoNum && 'im' in v ? (v as GoNum & { im: number }).im : 0;
}

const BAD_TYPE = 'invalid type for comparison';
const BAD_COMPARISON = 'incompatible types for comparison';

/** reflect's Kind name for the rules on non-basic values. */
function reflectKind(v: GoValue): string {
  if (v === undefined || v === null) return 'invalid';
  if (Array.isArray(v)) return 'slice';
  if (v instanceof GoStruct) return v.ptr ? 'ptr' : 'struct';
  if (v instanceof GoNil) return v.type.kind;
  if (v instanceof GoFunc) return 'func';
  if (v instanceof GoNum) return v.type.kind;
  if (typeof v === 'object') return 'map';
  return typeof v;
}

function isNilValue(v: GoValue): boolean {
  return v === undefined || v === null || v instanceof GoNil;
}

function typeComparable(t: GoType): boolean {
  switch (t.kind) {
    case 'slice':
    case 'map':
    case 'func':
      return false;
    case 'struct':
      return (t.fields ?? []).every((f) => typeComparable(f.type));
  }
  return true;
}

function comparable(v: GoValue): boolean {
  const k = reflectKind(v);
  if (k === 'struct') return typeComparable((v as GoStruct).type);
  return !(k === 'slice' || k === 'map' || k === 'func');
}

/** Go's == on comparable values of the same type. */
function goEqual(a: GoValue, b: GoValue): boolean {
  if (a === b) return true;
  if (a instanceof GoNum && b instanceof GoNum) return a.type.name === b.type.name && a.v === b.v;
  if (a instanceof GoStruct && b instanceof GoStruct) {
    if (a.ptr || b.ptr) return false;
    if (a.type.name !== b.type.name) return false;
    return (a.type.fields ?? []).every((f) => goEqual(a.field(f.name), b.field(f.name)));
  }
  if (a instanceof GoNil && b instanceof GoNil) return a.type.name === b.type.name;
  return false;
}

function eq(arg1: GoValue, ...arg2: GoValue[]): boolean {
  if (arg2.length === 0) throw new GoError('missing argument for comparison');
  const k1 = basicKind(arg1);
  const valid1 = arg1 !== undefined && arg1 !== null;
  for (const arg of arg2) {
    const k2 = basicKind(arg);
    let truth = false;
    if (k1 !== k2) {
      if (k1 === Kind.Int && k2 === Kind.Uint) {
        const a = num(arg1) as bigint;
        truth = a >= 0n && a === (num(arg) as bigint);
      } else if (k1 === Kind.Uint && k2 === Kind.Int) {
        const b = num(arg) as bigint;
        truth = b >= 0n && (num(arg1) as bigint) === b;
      } else if (valid1 && arg !== undefined && arg !== null) {
        throw new GoError(BAD_COMPARISON);
      }
    } else {
      switch (k1) {
        case Kind.Bool:
          truth = (arg1 instanceof GoNum ? arg1.v : arg1) === (arg instanceof GoNum ? arg.v : arg);
          break;
        case Kind.Complex:
          // Go compares both parts: 1+2i != 1+3i
          truth = num(arg1) === num(arg) && imagPart(arg1) === imagPart(arg);
          break;
        case Kind.Float:
        case Kind.Int:
        case Kind.Uint:
          truth = num(arg1) === num(arg);
          break;
        case Kind.String:
          truth = arg1 === arg;
          break;
        default: {
          const ka = reflectKind(arg1);
          const kb = reflectKind(arg);
          if (ka !== kb && ka !== 'invalid' && kb !== 'invalid') {
            throw new GoError(sprintf('non-comparable types %s: %v, %s: %v', [arg1, typeNameOf(arg1), typeNameOf(arg), arg]));
          }
          if (isNilValue(arg1) || isNilValue(arg)) {
            truth = isNilValue(arg) === isNilValue(arg1);
          } else {
            if (!comparable(arg)) throw new GoError(sprintf('non-comparable type %s: %v', [arg, typeNameOf(arg)]));
            truth = goEqual(arg1, arg);
          }
        }
      }
    }
    if (truth) return true;
  }
  return false;
}

/** eq with exactly two arguments (the engine calls it so): strings compared without the general walk. */
export function eq2(arg1: GoValue, arg2: GoValue): boolean {
  if (typeof arg1 === 'string' && typeof arg2 === 'string') return arg1 === arg2;
  return eq(arg1, arg2);
}

function ne(arg1: GoValue, arg2: GoValue): boolean {
  if (typeof arg1 === 'string' && typeof arg2 === 'string') return arg1 !== arg2;
  return !eq(arg1, arg2);
}

function lt(arg1: GoValue, arg2: GoValue): boolean {
  const k1 = basicKind(arg1);
  if (k1 === Kind.Invalid) throw new GoError(BAD_TYPE);
  const k2 = basicKind(arg2);
  if (k2 === Kind.Invalid) throw new GoError(BAD_TYPE);
  if (k1 !== k2) {
    if (k1 === Kind.Int && k2 === Kind.Uint) {
      const a = num(arg1) as bigint;
      return a < 0n || a < (num(arg2) as bigint);
    }
    if (k1 === Kind.Uint && k2 === Kind.Int) {
      const b = num(arg2) as bigint;
      return b >= 0n && (num(arg1) as bigint) < b;
    }
    throw new GoError(BAD_COMPARISON);
  }
  switch (k1) {
    case Kind.Bool:
    case Kind.Complex:
      throw new GoError(BAD_TYPE);
    case Kind.String:
      return compareKeys(arg1 as string, arg2 as string) < 0;
    default:
      return num(arg1) < num(arg2);
  }
}

function le(arg1: GoValue, arg2: GoValue): boolean {
  return lt(arg1, arg2) || eq(arg1, arg2);
}

function gt(arg1: GoValue, arg2: GoValue): boolean {
  return !le(arg1, arg2);
}

function ge(arg1: GoValue, arg2: GoValue): boolean {
  return !lt(arg1, arg2);
}

// ---------- escaping ----------

/** Go's evalArgs for html/js/urlquery: one string as is, else the printable values through fmt.Sprint. */
function evalArgs(args: GoValue[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((a) => (a === null || a === undefined ? '<no value>' : a instanceof GoStruct && a.ptr ? derefView(a) : a)));
}

/** The struct a non-nil pointer points at (printableValue follows pointers before fmt sees them). */
export function derefView(p: GoStruct): GoStruct {
  return Object.create(p, { ptr: { value: false } }) as GoStruct;
}

export function htmlEscapeString(s: string): string {
  if (!/['"&<>\0]/.test(s)) return s;
  let out = '';
  for (const c of s) {
    switch (c) {
      case '\0':
        out += '\uFFFD';
        break;
      case '"':
        out += '&#34;';
        break;
      case "'":
        out += '&#39;';
        break;
      case '&':
        out += '&amp;';
        break;
      case '<':
        out += '&lt;';
        break;
      case '>':
        out += '&gt;';
        break;
      default:
        out += c;
    }
  }
  return out;
}

export function jsEscapeString(s: string): string {
  let out = '';
  for (const c of s) {
    const r = c.codePointAt(0)!;
    switch (c) {
      case '\\':
        out += '\\\\';
        continue;
      case "'":
        out += "\\'";
        continue;
      case '"':
        out += '\\"';
        continue;
      case '<':
        out += '\\u003C';
        continue;
      case '>':
        out += '\\u003E';
        continue;
      case '&':
        out += '\\u0026';
        continue;
      case '=':
        out += '\\u003D';
        continue;
    }
    if (r >= 0xdc80 && r <= 0xdcff) out += c; // an invalid byte: Go writes it through
    else if (r < 0x20) out += '\\u00' + r.toString(16).toUpperCase().padStart(2, '0');
    else if (r < 0x80) out += c;
    else if (isPrint(r)) out += c;
    else out += '\\u' + r.toString(16).toUpperCase().padStart(4, '0');
  }
  return out;
}

/** url.QueryEscape */
export function urlQueryEscape(s: string): string {
  let out = '';
  for (const b of goBytes(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

// ---------- call ----------

function call(fn: GoValue, ...args: GoValue[]): GoValue {
  if (fn === undefined || fn === null) throw new GoError('call of nil');
  if (!(fn instanceof GoFunc)) throw new GoError(`non-function of type ${typeNameOf(fn)}`);
  const numIn = fn.params.length;
  let ddd: GoType | undefined;
  if (fn.variadic) {
    if (args.length < numIn - 1) throw new GoError(`wrong number of args: got ${args.length} want at least ${numIn - 1}`);
    ddd = fn.params[numIn - 1]!.elem ?? T.iface;
  } else if (args.length !== numIn) {
    throw new GoError(`wrong number of args: got ${args.length} want ${numIn}`);
  }
  const argv = args.map((a, i) => {
    const t = !fn.variadic || i < numIn - 1 ? fn.params[i]! : ddd!;
    let v: GoValue;
    try {
      v = prepareArg(a, t);
    } catch (e) {
      throw new GoError(`arg ${i}: ${(e as Error).message}`);
    }
    if (v instanceof GoNum && t.kind !== 'interface') return v.v;
    return v;
  });
  return fn.fn(...argv);
}

// ---------- the table ----------

function b(name: string, params: GoType[], variadic: boolean, results: 1 | 2, resultType: GoType, fn: (...a: any[]) => GoValue, special?: string): GoFunc {
  return new GoFunc(name, params, variadic, results, resultType, fn, special);
}

const unreachable = (): GoValue => {
  throw new GoError('unreachable');
};

/** Go's builtins(). `and`/`or` are evaluated by the engine (short-circuit). */
export const BUILTINS: FuncMap = Object.assign(Object.create(null) as FuncMap, {
  and: b('and', [RV, SLICE_RV], true, 1, RV, unreachable, 'and'),
  or: b('or', [RV, SLICE_RV], true, 1, RV, unreachable, 'or'),
  not: b('not', [RV], false, 1, T.bool, not),
  len: b('len', [RV], false, 2, T.int, length),
  index: b('index', [RV, SLICE_RV], true, 2, RV, index),
  slice: b('slice', [RV, SLICE_RV], true, 2, RV, slice, 'slice'),
  call: b('call', [RV, SLICE_RV], true, 2, RV, call),
  print: b('print', [SLICE_IFACE_T], true, 1, T.string, (...a: GoValue[]) => sprint(a)),
  printf: b('printf', [T.string, SLICE_IFACE_T], true, 1, T.string, (f: string, ...a: GoValue[]) => sprintf(f, a)),
  println: b('println', [SLICE_IFACE_T], true, 1, T.string, (...a: GoValue[]) => sprintln(a)),
  html: b('html', [SLICE_IFACE_T], true, 1, T.string, (...a: GoValue[]) => htmlEscapeString(evalArgs(a))),
  js: b('js', [SLICE_IFACE_T], true, 1, T.string, (...a: GoValue[]) => jsEscapeString(evalArgs(a))),
  urlquery: b('urlquery', [SLICE_IFACE_T], true, 1, T.string, (...a: GoValue[]) => urlQueryEscape(evalArgs(a))),
  eq: b('eq', [RV, SLICE_RV], true, 2, T.bool, eq),
  ne: b('ne', [RV, RV], false, 2, T.bool, ne),
  lt: b('lt', [RV, RV], false, 2, T.bool, lt),
  le: b('le', [RV, RV], false, 2, T.bool, le),
  gt: b('gt', [RV, RV], false, 2, T.bool, gt),
  ge: b('ge', [RV, RV], false, 2, T.bool, ge),
});
