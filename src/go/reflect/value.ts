// The Go value model: how Go values (as text/template sees them through reflect) are held in JavaScript.
//
//   undefined           an invalid reflect.Value (a missing map key): prints "<no value>"
//   null                nil interface (untyped nil)
//   boolean             bool
//   string              string (Go strings are bytes; byte-level operations go through UTF-8)
//   number              float64
//   bigint              int (Go's default integer type: literals, len, range indexes)
//   GoNum               any other numeric kind (int64, int32, uint8, float32, ...), or a named numeric type
//   Array               slice; its Go type is arr[GO_TYPE] when set, else []interface {}
//   plain object        map with string keys; its Go type is obj[GO_TYPE] when set, else map[string]interface {}
//   GoStruct            a struct (or pointer to struct) with declared fields
//   GoNil               a typed nil: nil pointer, nil map, nil slice of a known type
//   GoFunc              a function value (for `call`, and every function-map entry)
//
// Maps are read with own-property checks only (see mapGet): no prototype is reachable from a template.
//
// Mirrors: go1.19 src/reflect/{type,value}.go (kinds, type strings, Zero); go1.19 src/internal/fmtsort/sort.go
//          (map key order); go1.19 src/text/template/exec.go (IsTrue)
// Proven by: test/vectors/template/, test/vectors/fmt/, test/vectors/helm-template/capabilities.yaml (addressable values)

import { goBytes } from '../strconv/strconv.js';

export const GO_TYPE: unique symbol = Symbol('sidecar-render.goType');

export type Kind =
  | 'bool'
  | 'int' | 'int8' | 'int16' | 'int32' | 'int64'
  | 'uint' | 'uint8' | 'uint16' | 'uint32' | 'uint64' | 'uintptr'
  | 'float32' | 'float64'
  | 'complex64' | 'complex128'
  | 'string'
  | 'interface'
  | 'map' | 'slice' | 'array' | 'ptr' | 'struct' | 'func' | 'chan';

export interface StructField {
  /** Go field name, as templates address it (`.ObjectMeta`). */
  name: string;
  /** encoding/json name; '-' means never marshalled. */
  json: string;
  omitempty?: boolean;
  /** embedded struct whose fields are promoted (and inlined in JSON). */
  embedded?: boolean;
  type: GoType;
}

export interface GoMethod {
  name: string;
  /** Parameter types after the receiver. */
  params: GoType[];
  variadic?: boolean;
  /** Number of results: 1, or 2 when the second is an error. */
  results: 1 | 2;
  resultType: GoType;
  fn: (recv: GoValue, ...args: GoValue[]) => GoValue;
}

export interface GoType {
  kind: Kind;
  /** The name %T prints: "int", "[]interface {}", "map[string]string", "v1.ObjectMeta", "*v1.Probe". */
  name: string;
  elem?: GoType;
  key?: GoType;
  fields?: StructField[];
  /** Methods callable from a template (`.GetValue`, `.String`). */
  methods?: Record<string, GoMethod>;
  /** Methods with a pointer receiver, beyond `methods`: a value of this struct type has them only where
   *  Go can take its address (a field reached through a pointer; see AddressedStruct). */
  ptrMethods?: Record<string, GoMethod>;
  /** When set, encoding/json uses this instead of walking the value (MarshalJSON). */
  marshalJSON?: (v: GoValue) => unknown;
}

export class GoNum {
  constructor(
    readonly type: GoType,
    /** bigint for integer kinds, number for float kinds. */
    readonly v: bigint | number,
  ) {}
}

export class GoNil {
  constructor(readonly type: GoType) {}
}

/** A struct value. `ptr` marks a non-nil pointer to the struct (fields reached through it alike). */
export abstract class GoStruct {
  abstract readonly type: GoType;
  readonly ptr: boolean = false;
  /** The value of a declared field (including promoted ones); undefined when there is no such field. */
  abstract field(name: string): GoValue;
  /** field(name), given `declared` = declaredField(this.type, name), which a field chain keeps per site. */
  fieldDeclared(name: string, declared: StructField | undefined): GoValue {
    void declared;
    return this.field(name);
  }
}

/** A struct whose fields are held in a plain record, keyed by Go field name. */
export class RecordStruct extends GoStruct {
  override readonly ptr: boolean;
  constructor(
    readonly type: GoType,
    private readonly values: Record<string, GoValue>,
    ptr = false,
  ) {
    super();
    this.ptr = ptr;
  }
  field(name: string): GoValue {
    return this.declaredValue(name, declaredField(this.type, name));
  }
  override fieldDeclared(name: string, f: StructField | undefined): GoValue {
    // A subclass that finds fields its own way (promoted ones) keeps its field().
    return this.field === recordField ? this.declaredValue(name, f) : this.field(name);
  }
  private declaredValue(name: string, f: StructField | undefined): GoValue {
    if (!f) return undefined;
    return Object.prototype.hasOwnProperty.call(this.values, name) ? this.values[name] : zeroValue(f.type);
  }
}
const recordField = RecordStruct.prototype.field;

/**
 * A struct value Go can take the address of: a field of a struct reached through a pointer (or of
 * such a field). text/template takes the address before it looks a method up or prints a value, so
 * the type's pointer-receiver methods apply here (`{{ .Capabilities.KubeVersion }}` prints through
 * `(*KubeVersion).String`); passed to a function the value is copied and they do not
 * (`{{ .Capabilities.KubeVersion | quote }}` prints the struct). See addressed and unaddressed.
 */
export class AddressedStruct extends GoStruct {
  readonly type: GoType;
  constructor(readonly plain: GoStruct) {
    super();
    this.type = addressedType(plain.type);
  }
  field(name: string): GoValue {
    return this.plain.field(name);
  }
  override fieldDeclared(name: string, f: StructField | undefined): GoValue {
    return this.plain.fieldDeclared(name, f);
  }
}

const addressedTypes = new WeakMap<GoType, GoType>();

/** The struct type with its pointer-receiver methods in its method set (same name, same fields). */
function addressedType(t: GoType): GoType {
  let a = addressedTypes.get(t);
  if (!a) {
    a = { ...t, methods: { ...(t.methods ?? {}), ...(t.ptrMethods ?? {}) } };
    delete a.ptrMethods;
    addressedTypes.set(t, a);
  }
  return a;
}

/** A field value v of recv as a template reaches it: addressable when recv is a pointer or is itself
 *  addressable, and its type has pointer-receiver methods. */
export function addressed(recv: GoStruct, v: GoValue): GoValue {
  if (v instanceof GoStruct && v.type.ptrMethods !== undefined && !v.ptr && (recv.ptr || recv instanceof AddressedStruct)) return new AddressedStruct(v);
  return v;
}

/** The value a function receives: Go passes a copy, which is not addressable. */
export function unaddressed(v: GoValue): GoValue {
  return v instanceof AddressedStruct ? v.plain : v;
}

const fieldIndexes = new WeakMap<StructField[], { n: number; byName: Map<string, StructField> }>();
let lastFields: StructField[] | undefined;
let lastIndex: { n: number; byName: Map<string, StructField> } | undefined;

/** The first declared (not promoted) field of a struct type with this name: a map lookup, built once per field list. */
export function declaredField(t: GoType, name: string): StructField | undefined {
  const fs = t.fields;
  if (!fs) return undefined;
  // the list last asked about first: templates select many fields of one struct type in a row
  let ix = fs === lastFields ? lastIndex : fieldIndexes.get(fs);
  if (!ix || ix.n !== fs.length) {
    const byName = new Map<string, StructField>();
    for (const f of fs) if (!byName.has(f.name)) byName.set(f.name, f);
    ix = { n: fs.length, byName };
    fieldIndexes.set(fs, ix);
  }
  lastFields = fs;
  lastIndex = ix;
  return ix.byName.get(name);
}

export class GoFunc {
  /** @internal Set by funcSet: the call that made it, so that a set can be built again elsewhere (go/text/template/template.ts). */
  origin: unknown = undefined;
  constructor(
    readonly name: string,
    readonly params: GoType[],
    readonly variadic: boolean,
    readonly results: 1 | 2,
    readonly resultType: GoType,
    readonly fn: (...args: GoValue[]) => GoValue,
    /** Builtins that take unevaluated arguments (and, or) or need engine access are marked by the engine. */
    readonly special?: string,
  ) {}
}

export type GoMap = { [key: string]: GoValue; [GO_TYPE]?: GoType };

export type GoValue =
  | undefined
  | null
  | boolean
  | string
  | number
  | bigint
  | GoNum
  | GoNil
  | GoStruct
  | GoFunc
  | GoValue[]
  | GoMap;

/** An error returned by a Go function (its second result). The engine wraps it as Go does:
 *  `error calling NAME: MESSAGE`. */
export class GoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoError';
  }
}

// ---------- types ----------

function basic(kind: Kind, name: string = kind): GoType {
  return { kind, name };
}

export const T = {
  bool: basic('bool'),
  int: basic('int'),
  int8: basic('int8'),
  int16: basic('int16'),
  int32: basic('int32'),
  int64: basic('int64'),
  uint: basic('uint'),
  uint8: basic('uint8'),
  uint16: basic('uint16'),
  uint32: basic('uint32'),
  uint64: basic('uint64'),
  uintptr: basic('uintptr'),
  float32: basic('float32'),
  float64: basic('float64'),
  string: basic('string'),
  iface: basic('interface', 'interface {}'),
  error: basic('interface', 'error'),
  /** reflect.Value parameter (the engine passes the argument unconverted). */
  reflectValue: basic('struct', 'reflect.Value'),
} as const;

const sliceCache = new Map<GoType, GoType>();
export function sliceOf(elem: GoType): GoType {
  let t = sliceCache.get(elem);
  if (!t) {
    t = { kind: 'slice', name: '[]' + elem.name, elem };
    sliceCache.set(elem, t);
  }
  return t;
}

const mapCache = new Map<string, GoType>();
export function mapOf(key: GoType, elem: GoType): GoType {
  const name = `map[${key.name}]${elem.name}`;
  let t = mapCache.get(name);
  if (!t) {
    t = { kind: 'map', name, key, elem };
    mapCache.set(name, t);
  }
  return t;
}

const ptrCache = new Map<GoType, GoType>();
export function ptrTo(elem: GoType): GoType {
  let t = ptrCache.get(elem);
  if (!t) {
    t = { kind: 'ptr', name: '*' + elem.name, elem };
    ptrCache.set(elem, t);
  }
  return t;
}

export const SLICE_IFACE = sliceOf(T.iface);
export const SLICE_STRING = sliceOf(T.string);
export const MAP_STRING_IFACE = mapOf(T.string, T.iface);
export const MAP_STRING_STRING = mapOf(T.string, T.string);

const INT_KINDS = new Set<Kind>(['int', 'int8', 'int16', 'int32', 'int64']);
const UINT_KINDS = new Set<Kind>(['uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr']);
export const isIntKind = (k: Kind): boolean => INT_KINDS.has(k);
export const isUintKind = (k: Kind): boolean => UINT_KINDS.has(k);
export const isFloatKind = (k: Kind): boolean => k === 'float32' || k === 'float64';

/** True for a plain JS object used as a Go map. */
export function isMap(v: unknown): v is GoMap {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  // (a null-prototype map is no instance of Object: answered without asking V8 for the prototype,
  // which its runtime does for such objects)
  return !(v instanceof Object) || Object.getPrototypeOf(v) === Object.prototype;
}

/** The Go type of a value; undefined for an invalid value, null (nil interface) has no type either. */
export function typeOf(v: GoValue): GoType | undefined {
  switch (typeof v) {
    case 'undefined':
      return undefined;
    case 'boolean':
      return T.bool;
    case 'string':
      return T.string;
    case 'number':
      return T.float64;
    case 'bigint':
      return T.int;
  }
  if (v === null) return undefined;
  if (Array.isArray(v)) return (v as { [GO_TYPE]?: GoType })[GO_TYPE] ?? SLICE_IFACE;
  if (v instanceof GoNum || v instanceof GoNil) return v.type;
  if (v instanceof GoStruct) return v.ptr ? ptrTo(v.type) : v.type;
  if (v instanceof GoFunc) return funcType(v);
  return (v as GoMap)[GO_TYPE] ?? MAP_STRING_IFACE;
}

export function funcType(f: GoFunc): GoType {
  const ps = f.params.map((p, i) => (f.variadic && i === f.params.length - 1 ? '...' + (p.elem?.name ?? p.name) : p.name));
  const res = f.results === 2 ? `(${f.resultType.name}, error)` : f.resultType.name;
  return { kind: 'func', name: `func(${ps.join(', ')}) ${res}` };
}

/** Attach a Go type to a slice or map value (returns the same value). */
export function withType<V extends GoValue[] | GoMap>(v: V, t: GoType): V {
  // A slice or map without a type has the default one (typeOf): nothing to attach. Defining the
  // property was a few percent of rendering templates that build lists.
  if ((t === SLICE_IFACE || t === MAP_STRING_IFACE) && !Object.prototype.hasOwnProperty.call(v, GO_TYPE) && t === (Array.isArray(v) ? SLICE_IFACE : MAP_STRING_IFACE)) return v;
  TYPE_PROPERTY.value = t;
  Object.defineProperty(v, GO_TYPE, TYPE_PROPERTY);
  TYPE_PROPERTY.value = undefined;
  return v;
}

const TYPE_PROPERTY: PropertyDescriptor = { value: undefined, enumerable: false, configurable: true, writable: true };

/** Own-property map read: the only way a template reads a map. */
export function mapGet(m: GoMap, key: string): GoValue {
  return Object.prototype.hasOwnProperty.call(m, key) ? m[key] : undefined;
}

export function mapHas(m: GoMap, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(m, key);
}

/** A fresh empty map[string]interface {} with no prototype. */
export function newMap(): GoMap {
  // Not Object.create(null): V8 makes that a dictionary-mode object, and enumerating one (Object.keys,
  // for-in: toJson, toYaml, range, if) cost about 100 ns even when small; an empty literal given a null
  // prototype keeps fast properties (up to a dozen or so keys), with the same null prototype.
  return Object.setPrototypeOf({}, null) as GoMap;
}

/** Go compares map keys by bytes (UTF-8); for string keys this equals code point order. */
const RAW_BYTE = /(?<![\ud800-\udbff])[\udc80-\udcff]/;

export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  // A byte that is not valid UTF-8 is held as an escape surrogate (strconv.ts): Go compares bytes.
  if (RAW_BYTE.test(a) || RAW_BYTE.test(b)) return Buffer.compare(goBytes(a), goBytes(b));
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length - b.length;
}

/** Characters where UTF-16 order and code point order can part (surrogates against U+E000..U+FFFF). */
const HIGH_UNITS = /[\ud800-\uffff]/;

/** Sort string keys in place in Go's order (compareKeys); without high code units, JavaScript's own order is the same. */
export function sortKeys(keys: string[]): string[] {
  // Keys often come in order already (kubectl writes them sorted, dict keeps its arguments' order).
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (HIGH_UNITS.test(k)) return keys.sort(compareKeys);
    if (sorted && i > 0 && keys[i - 1]! > k) sorted = false;
  }
  if (sorted) return keys;
  if (keys.length > 16) return keys.sort();
  // Array.prototype.sort allocates a work array on every call; a few keys sort in place.
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > k; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = k;
  }
  return keys;
}

export function sortedKeys(m: GoMap): string[] {
  return sortKeys(Object.keys(m));
}

/** The zero value of a type, as Go's reflect.Zero gives it. */
export function zeroValue(t: GoType): GoValue {
  switch (t.kind) {
    case 'bool':
      return false;
    case 'string':
      return t === T.string || t.name === 'string' ? '' : new GoNum(t, 0n) /* unreachable for strings */;
    case 'int':
      return t === T.int ? 0n : new GoNum(t, 0n);
    case 'float64':
      return t === T.float64 ? 0 : new GoNum(t, 0);
    case 'float32':
      return new GoNum(t, 0);
    case 'interface':
      return null;
    case 'struct':
      return new RecordStruct(t, {});
    case 'map':
    case 'slice':
    case 'ptr':
    case 'func':
    case 'chan':
      return new GoNil(t);
    default:
      if (isIntKind(t.kind) || isUintKind(t.kind)) return new GoNum(t, 0n);
      return new GoNil(t);
  }
}

/** Go's truth of a value for if/with/and/or/not: false, 0, nil, empty string/slice/map, invalid. */
export function isTrue(v: GoValue): boolean {
  switch (typeof v) {
    case 'undefined':
      return false;
    case 'boolean':
      return v;
    case 'string':
      return v.length > 0;
    case 'number':
      return v !== 0;
    case 'bigint':
      return v !== 0n;
  }
  if (v === null) return false;
  if (Array.isArray(v)) return v.length > 0;
  // A complex constant keeps its imaginary part beside the real one (exec.ts complexValue).
  if (v instanceof GoNum) return (v.v !== 0 && v.v !== 0n) || ('im' in v && v.im !== 0);
  if (v instanceof GoNil) return false;
  if (v instanceof GoStruct) return true;
  if (v instanceof GoFunc) return true;
  return Object.keys(v as GoMap).length > 0;
}

// ---------- conversions used by function libraries ----------

/** Integer value of any integer kind, or undefined. */
export function intValue(v: GoValue): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (v instanceof GoNum && typeof v.v === 'bigint') return v.v;
  return undefined;
}

/** Float value of any float kind, or undefined. */
export function floatValue(v: GoValue): number | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof GoNum && typeof v.v === 'number') return v.v;
  return undefined;
}

export function int64(n: bigint | number): GoNum {
  return new GoNum(T.int64, typeof n === 'bigint' ? BigInt.asIntN(64, n) : BigInt.asIntN(64, BigInt(Math.trunc(n))));
}

export function goInt(n: bigint | number): bigint {
  return typeof n === 'bigint' ? BigInt.asIntN(64, n) : BigInt.asIntN(64, BigInt(Math.trunc(n)));
}

// ---------- Go signatures ----------

/** Parse a Go type expression: "string", "[]interface {}", "map[string]interface {}", "*int64", "...string". */
export function parseType(src: string): GoType {
  const s = src.trim();
  if (s.startsWith('[]')) return sliceOf(parseType(s.slice(2)));
  if (s.startsWith('*')) return ptrTo(parseType(s.slice(1)));
  if (s.startsWith('map[')) {
    let depth = 0;
    for (let i = 3; i < s.length; i++) {
      if (s[i] === '[') depth++;
      else if (s[i] === ']' && --depth === 0) return mapOf(parseType(s.slice(4, i)), parseType(s.slice(i + 1)));
    }
  }
  if (s === 'interface {}' || s === 'interface{}' || s === 'any') return T.iface;
  if (s === 'error') return T.error;
  if (s === 'reflect.Value') return T.reflectValue;
  const b = (T as Record<string, GoType>)[s];
  if (b) return b;
  throw new Error(`unknown Go type in signature: ${src}`);
}

/** Split a parameter list at top-level commas. */
function splitParams(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '[' || ch === '(' || ch === '{') depth++;
    if (ch === ']' || ch === ')' || ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur);
  return out.map((x) => x.trim());
}

/**
 * Define a template function by its Go signature, e.g.
 *   def('trim', 'func(string) string', (s) => ...)
 *   def('default', 'func(interface {}, ...interface {}) interface {}', ...)
 *   def('mustFromJson', 'func(string) (interface {}, error)', ...)  // throw GoError for the error result
 * Arguments arrive converted to the declared parameter types (variadic ones as separate arguments).
 */
export function def(name: string, signature: string, fn: (...args: any[]) => GoValue): GoFunc {
  // Function sets are built per template set (Sprig's and Istio's are ~250 functions over ~90 distinct
  // signatures), and parsing every signature again was a few ms of a cold start.
  const known = signatures.get(signature);
  if (known) return new GoFunc(name, known.params, known.variadic, known.results, known.resultType, fn);
  const f = parseSignature(name, signature, fn);
  signatures.set(signature, f);
  return f;
}

const signatures = new Map<string, GoFunc>();

function parseSignature(name: string, signature: string, fn: (...args: any[]) => GoValue): GoFunc {
  const sig = signature.trim();
  if (!sig.startsWith('func(')) throw new Error(`bad signature for ${name}: ${signature}`);
  let depth = 0;
  let close = -1;
  for (let i = 4; i < sig.length && close < 0; i++) {
    if (sig[i] === '(') depth++;
    else if (sig[i] === ')' && --depth === 0) close = i;
  }
  if (close < 0) throw new Error(`bad signature for ${name}: ${signature}`);
  const m = [sig, sig.slice(5, close), sig.slice(close + 1)];
  const rawParams = splitParams(m[1]!);
  let variadic = false;
  const params = rawParams.map((p, i) => {
    if (p.startsWith('...')) {
      if (i !== rawParams.length - 1) throw new Error(`bad variadic in ${name}`);
      variadic = true;
      return sliceOf(parseType(p.slice(3)));
    }
    return parseType(p);
  });
  let res = m[2]!.trim();
  let results: 1 | 2 = 1;
  if (res.startsWith('(')) {
    const parts = splitParams(res.slice(1, -1));
    if (parts.length !== 2 || parts[1] !== 'error') throw new Error(`bad results for ${name}: ${res}`);
    results = 2;
    res = parts[0]!;
  }
  if (res === '') throw new Error(`function ${name} must return a value`);
  return new GoFunc(name, params, variadic, results, parseType(res), fn);
}

export type FuncMap = Record<string, GoFunc>;

/** Compose function maps; later maps override earlier ones (as Go's Funcs calls do). */
export function funcMap(...maps: FuncMap[]): FuncMap {
  const out: FuncMap = Object.create(null);
  for (const m of maps) for (const k of Object.keys(m)) out[k] = m[k]!;
  return out;
}

/**
 * Give a function's raw result its declared Go type: a bigint or number returned for a declared
 * int64/float32/... becomes a GoNum of that kind; a bigint for `int` and a number for `float64` stay as they are.
 */
export function asDeclared(t: GoType, v: GoValue): GoValue {
  if (typeof v === 'bigint') {
    if (t === T.int || t.kind === 'interface') return v;
    if (isIntKind(t.kind)) return new GoNum(t, BigInt.asIntN(bitsOf(t.kind), v));
    if (isUintKind(t.kind)) return new GoNum(t, BigInt.asUintN(bitsOf(t.kind), v));
    if (isFloatKind(t.kind)) return t === T.float64 ? Number(v) : new GoNum(t, Number(v));
    return v;
  }
  if (typeof v === 'number') {
    if (t === T.float64 || t.kind === 'interface') return v;
    if (isFloatKind(t.kind)) return new GoNum(t, Math.fround(v));
    if (t === T.int) return goInt(v);
    if (isIntKind(t.kind) || isUintKind(t.kind)) return new GoNum(t, BigInt.asIntN(bitsOf(t.kind), BigInt(Math.trunc(v))));
    return v;
  }
  return v;
}

export function bitsOf(k: Kind): number {
  switch (k) {
    case 'int8':
    case 'uint8':
      return 8;
    case 'int16':
    case 'uint16':
      return 16;
    case 'int32':
    case 'uint32':
    case 'float32':
      return 32;
    default:
      return 64;
  }
}

/**
 * The same text as the property key V8 keeps (an internalized string). The engine interns the names
 * and string literals a template looks up, once, when a site first runs: looking up a map key that is
 * not internalized hashes it against V8's string table on every lookup, and names of keys that are
 * absent (an annotation a pod does not have) never become internalized by lookups alone.
 */
export function intern(s: string): string {
  // (no prototype: a setter planted on Object.prototype must not see the name)
  const o = Object.create(null) as Record<string, number>;
  o[s] = 0;
  for (const k in o) return k;
  return s;
}
