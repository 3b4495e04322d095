// Typed Go views over JSON data: what encoding/json would produce when decoding Kubernetes JSON into
// k8s.io/api structs, exposed through the shared value model (src/go/reflect/value.ts).
//
// Public API
//   structType(name, fields, opts?)     declare a Go struct type (fields in declaration order)
//   field(name, json, type, opts?)      a StructField; json 'name,omitempty' tag syntax, '' + embedded for inline
//   namedType(kind, name)               a named scalar type (v1.Protocol → kept as string kind, intstr.Type ...)
//   registerCodec(t, codec)             custom decode/marshal for types with (Un)MarshalJSON (Quantity, Time, IntOrString)
//   decodeGo(t, raw, path?)             check raw JSON against t (throws GoJsonError as json.Unmarshal would fail),
//                                       then return the Go value: structs are lazy JsonStruct views
//   plainToGo(raw)                      interface{}-typed data: null-prototype maps, float64 numbers
//   JsonStruct                          GoStruct subclass; .raw is the JSON object it views
//   lookupField(t, name)                the Go field path for a (possibly promoted) field name
//   GoJsonError                         one-line error in encoding/json's words
//
// Representation choices (documented for engine and marshal authors):
//   - A non-nil pointer to a scalar (*int64, *bool, *string) is held dereferenced (the scalar itself);
//     a nil one is GoNil(ptr type). For a field declared as a pointer, "empty" for omitempty means GoNil.
//   - Named string types (v1.Protocol, v1.PullPolicy, ...) are plain JS strings (the value model has no
//     named strings); named integer types are GoNum with their named GoType.
//   - An embedded field with a json name (ObjectMeta `json:"metadata"`) is promoted in Go but not inlined
//     in JSON; only embedded fields with json '' are inlined.
//
// Mirrors: go1.19 src/encoding/json/{encode,decode,tags}.go (struct fields, tags, omitempty, embedding,
//          UnmarshalTypeError)
// Proven by: test/yaml/json.test.ts, test/istio/pointers.test.ts, test/istio/overlay-types/

import {
  GoNil,
  GoNum,
  GoStruct,
  T,
  isIntKind,
  isUintKind,
  newMap,
  withType,
  type GoMap,
  type GoType,
  type GoValue,
  type Kind,
  type StructField,
} from '../../reflect/value.js';

export class GoJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoJsonError';
  }
}

export interface Codec {
  /** Decode JSON into the Go value (throw GoJsonError when Go would fail). */
  decode(raw: unknown, ctx: DecodeCtx): GoValue;
  /** Check only (defaults to decode). */
  check?(raw: unknown, ctx: DecodeCtx): void;
}

export interface DecodeCtx {
  /** Go struct name of the innermost struct (for error messages). */
  struct: string;
  /** JSON path of the field, dotted. */
  path: string;
  /** Object keys are met in sorted order (JSON that json.Marshal wrote from a map), not in the
   *  struct's field order: the first error reported is the first in that order. */
  sorted?: boolean;
}

const codecs = new WeakMap<GoType, Codec>();

export function registerCodec(t: GoType, c: Codec): void {
  codecs.set(t, c);
}

export function codecOf(t: GoType): Codec | undefined {
  return codecs.get(t);
}

export interface FieldOpts {
  embedded?: boolean;
}

/** A StructField from a json tag in Go's syntax: 'name', 'name,omitempty', ',inline' or '' for inline. */
export function field(name: string, tag: string, type: GoType, opts: FieldOpts = {}): StructField {
  const parts = tag.split(',');
  const json = parts[0] ?? '';
  const omitempty = parts.includes('omitempty');
  const f: StructField = { name, json, type };
  if (omitempty) f.omitempty = true;
  if (opts.embedded) f.embedded = true;
  return f;
}

export function structType(name: string, fields: StructField[], extra: Partial<GoType> = {}): GoType {
  return { kind: 'struct', name, fields, ...extra };
}

export function namedType(kind: Kind, name: string): GoType {
  return { kind, name };
}

/** A named slice or map type (v1.ResourceList = map[v1.ResourceName]resource.Quantity). */
export function namedComposite(kind: 'slice' | 'map', name: string, elem: GoType, key?: GoType): GoType {
  const t: GoType = { kind, name, elem };
  if (key) t.key = key;
  return t;
}

// ---------- field lookup with promotion ----------

export interface FieldPath {
  /** The fields walked from the outer struct, last one is the target. */
  steps: StructField[];
}

const lookupCache = new WeakMap<GoType, Map<string, FieldPath | null>>();

/** Go's field selection: the shallowest match wins; an ambiguous match at one depth is no field. */
export function lookupField(t: GoType, name: string): FieldPath | undefined {
  let cache = lookupCache.get(t);
  if (!cache) {
    cache = new Map();
    lookupCache.set(t, cache);
  }
  const hit = cache.get(name);
  if (hit !== undefined) return hit ?? undefined;
  const found = search(t, name);
  cache.set(name, found ?? null);
  return found;
}

function structOf(t: GoType): GoType | undefined {
  if (t.kind === 'struct') return t;
  if (t.kind === 'ptr' && t.elem?.kind === 'struct') return t.elem;
  return undefined;
}

function search(t: GoType, name: string): FieldPath | undefined {
  let level: { t: GoType; steps: StructField[] }[] = [{ t, steps: [] }];
  const seen = new Set<GoType>();
  while (level.length > 0) {
    const matches: FieldPath[] = [];
    const next: { t: GoType; steps: StructField[] }[] = [];
    for (const { t: st, steps } of level) {
      if (seen.has(st)) continue;
      seen.add(st);
      for (const f of st.fields ?? []) {
        if (f.name === name) matches.push({ steps: [...steps, f] });
        if (f.embedded) {
          const inner = structOf(f.type);
          if (inner) next.push({ t: inner, steps: [...steps, f] });
        }
      }
    }
    if (matches.length === 1) return matches[0];
    if (matches.length > 1) return undefined;
    level = next;
  }
  return undefined;
}

// ---------- the view ----------

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function own(o: Record<string, unknown>, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

/** The JSON object a field's value is read from: inline embedded fields share their parent's object. */
function jsonOf(raw: Record<string, unknown>, f: StructField): unknown {
  if (f.embedded && f.json === '') return raw;
  if (f.json === '-' || f.json === '') return undefined;
  return own(raw, f.json);
}

export class JsonStruct extends GoStruct {
  override readonly ptr: boolean;
  private readonly cache = new Map<string, GoValue>();
  constructor(
    readonly type: GoType,
    /** The JSON object viewed (already checked against type). */
    readonly raw: Record<string, unknown>,
    ptr = false,
  ) {
    super();
    this.ptr = ptr;
  }

  field(name: string): GoValue {
    const hit = this.cache.get(name);
    if (hit !== undefined || this.cache.has(name)) return hit;
    const path = lookupField(this.type, name);
    if (!path) return undefined;
    let v: GoValue;
    if (path.steps.length === 1) {
      const f = path.steps[0]!;
      v = convert(f.type, jsonOf(this.raw, f));
    } else {
      // Promoted through embedded fields: go through the embedded value (a nil embedded pointer
      // makes the promoted field unreachable, as in Go where it panics; we give undefined).
      let cur: GoValue = this.field(path.steps[0]!.name);
      for (const f of path.steps.slice(1)) {
        if (!(cur instanceof GoStruct)) return undefined;
        cur = cur.field(f.name);
      }
      v = cur;
    }
    this.cache.set(name, v);
    return v;
  }

  /** Whether the JSON carried the field (used by marshallers that need to know). */
  hasJson(name: string): boolean {
    const p = lookupField(this.type, name);
    if (!p || p.steps.length !== 1) return false;
    return jsonOf(this.raw, p.steps[0]!) !== undefined;
  }
}

// ---------- conversion ----------

/** Convert checked JSON to a Go value of type t. */
function convert(t: GoType, raw: unknown): GoValue {
  return decodeWith(t, raw, { struct: '', path: '' }, false);
}

/** Check raw against t, throwing GoJsonError as json.Unmarshal would fail on it. */
export function checkGo(t: GoType, raw: unknown, opts: { sorted?: boolean } = {}): void {
  checkValue(t, raw, { struct: t.name.replace(/^\*?[\w]+\./, ''), path: '', sorted: opts.sorted });
}

/** Check raw against t (throwing GoJsonError like json.Unmarshal), then convert. */
export function decodeGo(t: GoType, raw: unknown, path = ''): GoValue {
  const ctx: DecodeCtx = { struct: t.name.replace(/^\*?[\w]+\./, ''), path };
  checkValue(t, raw, ctx);
  return decodeWith(t, raw, ctx, false);
}

function jsonKind(raw: unknown): string {
  if (typeof raw === 'string') return 'string';
  if (typeof raw === 'number') return 'number';
  if (typeof raw === 'boolean') return 'bool';
  if (Array.isArray(raw)) return 'array';
  return 'object';
}

export function mismatch(raw: unknown, t: GoType, ctx: DecodeCtx): GoJsonError {
  const what = typeof raw === 'number' && (isIntKind(t.kind) || isUintKind(t.kind)) ? `number ${goNumberText(raw)}` : jsonKind(raw);
  if (ctx.path === '') return new GoJsonError(`json: cannot unmarshal ${what} into Go value of type ${t.name}`);
  return new GoJsonError(`json: cannot unmarshal ${what} into Go struct field ${ctx.struct}.${ctx.path} of type ${t.name}`);
}

function goNumberText(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e21 ? BigInt(n).toString() : String(n);
}

const INT_RANGE: Partial<Record<Kind, [bigint, bigint]>> = {
  int8: [-(2n ** 7n), 2n ** 7n - 1n],
  int16: [-(2n ** 15n), 2n ** 15n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  int: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0n, 2n ** 8n - 1n],
  uint16: [0n, 2n ** 16n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  uint: [0n, 2n ** 64n - 1n],
  uintptr: [0n, 2n ** 64n - 1n],
};

function checkValue(t: GoType, raw: unknown, ctx: DecodeCtx): void {
  if (raw === undefined || raw === null) return; // JSON null leaves the zero value
  const c = codecs.get(t);
  if (c) {
    if (c.check) c.check(raw, ctx);
    else c.decode(raw, ctx);
    return;
  }
  switch (t.kind) {
    case 'interface':
      return;
    case 'string':
      if (typeof raw !== 'string') throw mismatch(raw, t, ctx);
      return;
    case 'bool':
      if (typeof raw !== 'boolean') throw mismatch(raw, t, ctx);
      return;
    case 'float32':
    case 'float64':
      if (typeof raw !== 'number') throw mismatch(raw, t, ctx);
      return;
    case 'ptr':
      checkValue(t.elem!, raw, ctx);
      return;
    case 'slice':
    case 'array':
      if (!Array.isArray(raw)) throw mismatch(raw, t, ctx);
      for (const x of raw) checkValue(t.elem!, x, ctx);
      return;
    case 'map':
      if (!isObject(raw)) throw mismatch(raw, t, ctx);
      for (const k of ctx.sorted ? Object.keys(raw).sort() : Object.keys(raw)) checkValue(t.elem!, raw[k], { struct: ctx.struct, path: ctx.path, sorted: ctx.sorted });
      return;
    case 'struct': {
      if (!isObject(raw)) throw mismatch(raw, t, ctx);
      const sname = t.name.replace(/^[\w]+\./, '');
      let fields = t.fields ?? [];
      if (ctx.sorted) fields = [...fields].sort((a, b) => (a.json < b.json ? -1 : a.json > b.json ? 1 : 0));
      for (const f of fields) {
        const sub = jsonOf(raw, f);
        if (sub === undefined) continue;
        const p = f.embedded && f.json === '' ? ctx.path : ctx.path === '' ? f.json : `${ctx.path}.${f.json}`;
        checkValue(f.type, sub, { struct: f.embedded && f.json === '' ? ctx.struct : sname, path: p, sorted: ctx.sorted });
      }
      return;
    }
    default:
      if (isIntKind(t.kind) || isUintKind(t.kind)) {
        if (typeof raw !== 'number' || !Number.isInteger(raw)) throw mismatch(raw, t, ctx);
        const r = INT_RANGE[t.kind];
        const b = BigInt(raw);
        if (r && (b < r[0] || b > r[1])) throw mismatch(raw, t, ctx);
        return;
      }
      throw mismatch(raw, t, ctx);
  }
}

function decodeWith(t: GoType, raw: unknown, ctx: DecodeCtx, _checked: boolean): GoValue {
  const c = codecs.get(t);
  if (c && raw !== undefined && raw !== null) return c.decode(raw, ctx);
  switch (t.kind) {
    case 'interface':
      return raw === undefined ? null : plainToGo(raw);
    case 'string':
      return typeof raw === 'string' ? raw : '';
    case 'bool':
      return raw === true;
    case 'float64':
      return t === T.float64 || t.name === 'float64' ? (typeof raw === 'number' ? raw : 0) : new GoNum(t, typeof raw === 'number' ? raw : 0);
    case 'float32':
      return new GoNum(t, typeof raw === 'number' ? Math.fround(raw) : 0);
    case 'ptr': {
      if (raw === undefined || raw === null) return new GoNil(t);
      const e = t.elem!;
      if (e.kind === 'struct' && !codecs.has(e)) return new JsonStruct(e, raw as Record<string, unknown>, true);
      if (e.kind === 'struct') {
        const v = decodeWith(e, raw, ctx, true);
        return v instanceof JsonStruct ? new JsonStruct(v.type, v.raw, true) : v;
      }
      return decodeWith(e, raw, ctx, true);
    }
    case 'slice':
    case 'array': {
      if (!Array.isArray(raw)) return new GoNil(t);
      return withType(
        raw.map((x) => decodeWith(t.elem!, x, ctx, true)),
        t,
      );
    }
    case 'map': {
      if (!isObject(raw)) return new GoNil(t);
      const m = newMap();
      for (const k of Object.keys(raw)) m[k] = decodeWith(t.elem!, raw[k], ctx, true);
      return withType(m, t);
    }
    case 'struct':
      return new JsonStruct(t, isObject(raw) ? raw : {});
    default:
      if (isIntKind(t.kind) || isUintKind(t.kind)) {
        const n = typeof raw === 'number' && Number.isInteger(raw) ? BigInt(raw) : 0n;
        return t === T.int || (t.kind === 'int' && t.name === 'int') ? n : new GoNum(t, n);
      }
      return new GoNil(t);
  }
}

/** interface{}-typed data as encoding/json decodes it: float64 numbers, map[string]interface {}, []interface {}. */
export function plainToGo(raw: unknown): GoValue {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'number') return raw;
  if (typeof raw === 'bigint') return Number(raw);
  if (Array.isArray(raw)) return raw.map(plainToGo);
  if (raw instanceof Map) {
    const m = newMap();
    for (const [k, v] of raw) m[String(k)] = plainToGo(v);
    return m;
  }
  if (typeof raw === 'object') {
    const m: GoMap = newMap();
    for (const k of Object.keys(raw as object)) m[k] = plainToGo((raw as Record<string, unknown>)[k]);
    return m;
  }
  return null;
}
