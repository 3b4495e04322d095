// Protobuf messages as Go sees them (istio.io/api generated structs): typed Go views with the
// generated Go field names, json tags (`json:"proto_name,omitempty"`), getters `GetX()` that are safe on
// nil pointers, enums with `String()`, well-known types (Duration, wrappers); parsing from proto JSON
// / YAML (camelCase or proto names, as jsonpb accepts) and marshalling as golang/protobuf's jsonpb does.
//
// Public API
//   msg(goName, fullName, fields)            declare a message; fields via pf(...)
//   pf(num, protoName, type, opts?)          a field: type is a scalar name, an Enum, a Msg, or mapOf/listOf
//   enumType(goName, values)                 declare an enum (int32 kind, String method)
//   Msg / ProtoField / Enum                  descriptors
//   ProtoStruct                              the Go view (GoStruct); .msg descriptor, .get(go) raw Go value
//   parseProto(msg, json, opts)              proto JSON (object) → ProtoStruct; unknown fields reported
//   newMessage(msg, values)                  build from Go values keyed by Go field name
//   protoMerge(dst, src, mode)               Istio's ApplyYAML merge: 'replace' (jsonpb v1.4+) or 'deep' (gogo)
//   protoToJSON(v, opts?)                    jsonpb output text (field order, names, int64 as strings, durations)
//   duration(seconds, nanos) / parseDuration / formatDurationProto
//   WKT: Duration, BoolValue, Int32Value, ... types are per-flavour: gogoTypes / v2Types
//
// Mirrors: github.com/golang/protobuf jsonpb/{encode,decode}.go; github.com/gogo/protobuf jsonpb/jsonpb.go;
//          istio.io/istio pkg/util/protomarshal/protomarshal.go (ApplyYAML)
// Proven by: test/parity/own.test.ts, test/istio/model.test.ts

import {
  GoNil,
  GoNum,
  GoStruct,
  RecordStruct,
  T,
  intValue,
  mapOf,
  newMap,
  ptrTo,
  sliceOf,
  withType,
  type GoMethod,
  type GoType,
  type GoValue,
  type StructField,
} from '../go/reflect/value.js';

export type Scalar = 'string' | 'bool' | 'int32' | 'int64' | 'uint32' | 'uint64' | 'double' | 'float' | 'bytes';

export interface Enum {
  kind: 'enum';
  goType: GoType;
  names: Map<number, string>;
  values: Map<string, number>;
}

export type FieldType = Scalar | Enum | Msg | { map: Scalar | Enum | Msg } | { opaque: true };

export interface ProtoField {
  num: number;
  proto: string;
  json: string;
  go: string;
  type: FieldType;
  repeated?: boolean;
  /** Go name of the oneof interface field (ClusterName) when the field is a oneof member. */
  oneof?: string;
}

export interface Msg {
  kind: 'msg';
  full: string;
  goType: GoType;
  fields: ProtoField[];
  /** Well-known type handling. */
  wkt?: 'duration' | 'wrapper';
  /** For wrappers: the scalar type of Value. */
  wrapped?: Scalar;
  /** Oneof wrapper Go types, by member Go name. */
  oneofTypes: Map<string, GoType>;
}

export interface PfOpts {
  repeated?: boolean;
  oneof?: string;
  /** Override the generated Go name. */
  go?: string;
  json?: string;
}

export function camel(protoName: string): string {
  // protoc's json_name: drop underscores, upper-case the next letter
  return protoName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function goName(protoName: string): string {
  // protoc-gen-go's CamelCase: initial upper; "_x" → "X"; digits kept; a letter after a digit upper-cased
  let out = '';
  let upNext = true;
  for (let i = 0; i < protoName.length; i++) {
    const c = protoName[i]!;
    if (c === '_') {
      upNext = true;
      continue;
    }
    if (upNext && /[a-z]/.test(c)) out += c.toUpperCase();
    else out += c;
    upNext = /[0-9]/.test(c);
  }
  return out;
}

export function pf(num: number, proto: string, type: FieldType, opts: PfOpts = {}): ProtoField {
  const f: ProtoField = { num, proto, json: opts.json ?? camel(proto), go: opts.go ?? goName(proto), type };
  if (opts.repeated) f.repeated = true;
  if (opts.oneof) f.oneof = opts.oneof;
  return f;
}

export function listOf(t: Scalar | Enum | Msg): { t: Scalar | Enum | Msg; repeated: true } {
  return { t, repeated: true };
}

const methodCache = new WeakMap<GoType, Record<string, GoMethod>>();

function setMethods(t: GoType, methods: Record<string, GoMethod>): void {
  t.methods = { ...(t.methods ?? {}), ...methods };
  const p = ptrTo(t);
  p.methods = { ...(p.methods ?? {}), ...methods };
  methodCache.set(t, t.methods);
}

export function enumType(goTypeName: string, values: [string, number][]): Enum {
  const goType: GoType = { kind: 'int32', name: goTypeName };
  const names = new Map<number, string>();
  const vals = new Map<string, number>();
  for (const [n, v] of values) {
    if (!names.has(v)) names.set(v, n);
    vals.set(n, v);
  }
  const e: Enum = { kind: 'enum', goType, names, values: vals };
  goType.methods = {
    String: {
      name: 'String',
      params: [],
      results: 1,
      resultType: T.string,
      fn: (recv) => {
        const n = Number(intValue(recv) ?? 0n);
        return names.get(n) ?? String(n);
      },
    },
  };
  return e;
}

export function enumValue(e: Enum, n: number): GoNum {
  return new GoNum(e.goType, BigInt(n));
}

// ---------- Go types of fields ----------

function scalarGoType(s: Scalar): GoType {
  switch (s) {
    case 'string':
      return T.string;
    case 'bool':
      return T.bool;
    case 'int32':
      return T.int32;
    case 'int64':
      return T.int64;
    case 'uint32':
      return T.uint32;
    case 'uint64':
      return T.uint64;
    case 'double':
      return T.float64;
    case 'float':
      return T.float32;
    case 'bytes':
      return sliceOf(T.uint8);
  }
}

function elemGoType(t: Scalar | Enum | Msg): GoType {
  if (typeof t === 'string') return scalarGoType(t);
  if (t.kind === 'enum') return t.goType;
  return ptrTo(t.goType);
}

export function fieldGoType(f: ProtoField): GoType {
  const t = f.type;
  if (typeof t === 'object' && 'opaque' in t) return T.iface;
  if (typeof t === 'object' && 'map' in t) return mapOf(T.string, elemGoType(t.map));
  const e = elemGoType(t as Scalar | Enum | Msg);
  return f.repeated ? sliceOf(e) : e;
}

/** Declare a message. Fields may reference messages declared later through thunks resolved by finish(). */
export function msg(goTypeName: string, full: string, fields: ProtoField[], extra: Partial<Msg> = {}): Msg {
  const goType: GoType = { kind: 'struct', name: goTypeName, fields: [] };
  const m: Msg = { kind: 'msg', full, goType, fields, oneofTypes: new Map(), ...extra };
  finish(m);
  return m;
}

/** On a message's Go struct field: the proto field it stands for (a field chain reads it without a lookup). */
const PROTO_FIELD: unique symbol = Symbol('sidecar-render.protoField');

/** (Re)build the Go struct fields and getters from the proto fields. */
export function finish(m: Msg): void {
  const sfields: StructField[] = [];
  const seenOneof = new Set<string>();
  const methods: Record<string, GoMethod> = {};
  const pkg = m.goType.name.split('.')[0]!;
  for (const f of m.fields) {
    if (f.oneof) {
      if (!seenOneof.has(f.oneof)) {
        seenOneof.add(f.oneof);
        const ifaceT: GoType = { kind: 'interface', name: `${pkg}.is${m.goType.name.split('.')[1]}_${f.oneof}` };
        sfields.push({ name: f.oneof, json: '', type: ifaceT });
      }
      // protoc-gen-go appends "_" when the wrapper name collides with a nested message (Tracing_Zipkin_)
      let wrapName = `${m.goType.name}_${f.go}`;
      if (typeof f.type === 'object' && 'goType' in f.type && f.type.goType.name === wrapName) wrapName += '_';
      const wt: GoType = { kind: 'struct', name: wrapName, fields: [{ name: f.go, json: f.proto, omitempty: false, type: fieldGoType(f) }] };
      m.oneofTypes.set(f.go, wt);
    } else {
      const sf: StructField & { [PROTO_FIELD]?: ProtoField } = { name: f.go, json: f.proto, omitempty: true, type: fieldGoType(f) };
      sf[PROTO_FIELD] = f;
      sfields.push(sf);
    }
    const gt = fieldGoType(f);
    methods['Get' + f.go] = {
      name: 'Get' + f.go,
      params: [],
      results: 1,
      resultType: gt,
      fn: (recv) => (recv instanceof ProtoStruct ? recv.getField(f) : zeroOf(gt)),
    };
  }
  if (m.wkt === 'wrapper') {
    // wrappers: Value field already declared
  }
  m.goType.fields = sfields;
  setMethods(m.goType, methods);
}

function zeroOf(t: GoType): GoValue {
  switch (t.kind) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'interface':
      return null;
    case 'float64':
      return 0;
    case 'float32':
      return new GoNum(t, 0);
    case 'ptr':
    case 'slice':
    case 'map':
      return new GoNil(t);
    default:
      return new GoNum(t, 0n);
  }
}

// ---------- the view ----------

const plainFieldIndexes = new WeakMap<ProtoField[], { n: number; byGo: Map<string, ProtoField> }>();

/** The non-oneof field with this Go name (templates select fields by it on every render). */
function plainFieldByGoName(m: Msg, go: string): ProtoField | undefined {
  const fs = m.fields;
  let ix = plainFieldIndexes.get(fs);
  if (!ix || ix.n !== fs.length) {
    const byGo = new Map<string, ProtoField>();
    for (const f of fs) if (!f.oneof && !byGo.has(f.go)) byGo.set(f.go, f);
    ix = { n: fs.length, byGo };
    plainFieldIndexes.set(fs, ix);
  }
  return ix.byGo.get(go);
}

const fieldZeros = new WeakMap<ProtoField, { type: ProtoField['type']; repeated: boolean; zero: GoValue }>();

/** The zero value of an unset field (immutable, so shared), for the field's current type. */
function fieldZero(f: ProtoField): GoValue {
  const z = fieldZeros.get(f);
  const repeated = f.repeated === true;
  if (z !== undefined && z.type === f.type && z.repeated === repeated) return z.zero;
  const zero = zeroOf(fieldGoType(f));
  fieldZeros.set(f, { type: f.type, repeated, zero });
  return zero;
}

export class ProtoStruct extends GoStruct {
  readonly type: GoType;
  override readonly ptr: boolean;
  constructor(
    readonly msg: Msg,
    /** Set fields, by Go field name (oneof members by member name), holding Go values. */
    readonly values: Map<string, GoValue> = new Map(),
    ptr = true,
  ) {
    super();
    this.type = msg.goType;
    this.ptr = ptr;
  }

  override fieldDeclared(name: string, declared: StructField | undefined): GoValue {
    const f = (declared as { [PROTO_FIELD]?: ProtoField } | undefined)?.[PROTO_FIELD];
    return f !== undefined ? this.getField(f) : this.field(name);
  }

  field(name: string): GoValue {
    const f = plainFieldByGoName(this.msg, name);
    if (f) return this.getField(f);
    // the oneof interface field holds a *Msg_Member wrapper, or nil
    const members = this.msg.fields.filter((x) => x.oneof === name);
    if (members.length > 0) {
      for (const m of members) {
        if (this.values.has(m.go)) {
          return new RecordStruct(this.msg.oneofTypes.get(m.go)!, { [m.go]: this.values.get(m.go) }, true);
        }
      }
      return null;
    }
    return undefined;
  }

  getField(f: ProtoField): GoValue {
    const v = this.values.get(f.go);
    if (v !== undefined || this.values.has(f.go)) return v;
    return fieldZero(f);
  }

  has(go: string): boolean {
    return this.values.has(go);
  }

  get(go: string): GoValue {
    const f = this.msg.fields.find((x) => x.go === go);
    return f ? this.getField(f) : undefined;
  }

  clone(): ProtoStruct {
    const vals = new Map<string, GoValue>();
    for (const [k, v] of this.values) vals.set(k, cloneValue(v));
    return new ProtoStruct(this.msg, vals, this.ptr);
  }
}

function cloneValue(v: GoValue): GoValue {
  if (v instanceof ProtoStruct) return v.clone();
  if (Array.isArray(v)) {
    const t = (v as unknown as Record<symbol, GoType>)[Object.getOwnPropertySymbols(v)[0] as symbol];
    const c = v.map(cloneValue);
    return t ? withType(c, t) : c;
  }
  if (v !== null && typeof v === 'object' && !(v instanceof GoStruct) && !(v instanceof GoNum) && !(v instanceof GoNil)) {
    const m = newMap();
    for (const k of Object.keys(v)) m[k] = cloneValue((v as Record<string, GoValue>)[k]);
    const syms = Object.getOwnPropertySymbols(v);
    if (syms.length) withType(m, (v as unknown as Record<symbol, GoType>)[syms[0]!]!);
    return m;
  }
  return v;
}

export function newMessage(m: Msg, values: Record<string, GoValue> = {}): ProtoStruct {
  const map = new Map<string, GoValue>();
  for (const k of Object.keys(values)) map.set(k, values[k]);
  return new ProtoStruct(m, map);
}

// ---------- well-known types ----------

export interface WKT {
  Duration: Msg;
  BoolValue: Msg;
  Int32Value: Msg;
  UInt32Value: Msg;
  Int64Value: Msg;
  DoubleValue: Msg;
  StringValue: Msg;
}

function wkts(durPkg: string, wrapPkg: string): WKT {
  const w = (name: string, s: Scalar): Msg =>
    msg(`${wrapPkg}.${name}`, `google.protobuf.${name}`, [pf(1, 'value', s)], { wkt: 'wrapper', wrapped: s });
  return {
    Duration: msg(`${durPkg}.Duration`, 'google.protobuf.Duration', [pf(1, 'seconds', 'int64'), pf(2, 'nanos', 'int32')], { wkt: 'duration' }),
    BoolValue: w('BoolValue', 'bool'),
    Int32Value: w('Int32Value', 'int32'),
    UInt32Value: w('UInt32Value', 'uint32'),
    Int64Value: w('Int64Value', 'int64'),
    DoubleValue: w('DoubleValue', 'double'),
    StringValue: w('StringValue', 'string'),
  };
}

/** gogo/protobuf era (Istio ≤ 1.8): github.com/gogo/protobuf/types. */
export const gogoTypes: WKT = wkts('types', 'types');
/** golang/protobuf APIv2 era: durationpb / wrapperspb. */
export const v2Types: WKT = wkts('durationpb', 'wrapperspb');

export function duration(w: WKT, seconds: number | bigint, nanos = 0): ProtoStruct {
  return newMessage(w.Duration, { Seconds: new GoNum(T.int64, BigInt(seconds)), Nanos: new GoNum(T.int32, BigInt(nanos)) });
}

/** A wrapper message (*wrapperspb.BoolValue etc.) around a Go scalar value. */
export function wrap(m: Msg, v: GoValue): ProtoStruct {
  return newMessage(m, { Value: v });
}

const DUR_UNITS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** protobuf JSON durations are "<seconds>[.<frac>]s"; Istio's YAML also goes through this. Returns [seconds, nanos]. */
export function parseDuration(s: string): [bigint, number] | undefined {
  const m = /^(-?)(\d+)(?:\.(\d{1,9}))?s$/.exec(s);
  if (!m) return undefined;
  const sec = BigInt(m[2]!) * (m[1] ? -1n : 1n);
  const nanos = m[3] ? Number(m[3].padEnd(9, '0')) * (m[1] ? -1 : 1) : 0;
  return [sec, nanos];
}

/** Go's time.ParseDuration units, for inputs that are not proto JSON (used by callers with Go durations). */
export function parseGoDuration(s: string): [bigint, number] | undefined {
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let neg = false;
  let i = 0;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    i = 1;
  }
  if (s.slice(i) === '0') return [0n, 0];
  let total = 0n;
  let any = false;
  re.lastIndex = i;
  while (re.lastIndex < s.length) {
    const m = re.exec(s);
    if (!m) return undefined;
    any = true;
    const [ip, fp = ''] = m[1]!.split('.');
    const unit = BigInt(DUR_UNITS[m[2]!]!);
    total += BigInt(ip || '0') * unit;
    if (fp) total += (BigInt(fp) * unit) / 10n ** BigInt(fp.length);
  }
  if (!any) return undefined;
  if (neg) total = -total;
  return [total / 1_000_000_000n, Number(total % 1_000_000_000n)];
}

/** jsonpb's Duration text: seconds with 0, 3, 6 or 9 fractional digits, then "s". */
export function formatDurationProto(seconds: bigint, nanos: number): string {
  const neg = seconds < 0n || nanos < 0;
  const s = seconds < 0n ? -seconds : seconds;
  const n = Math.abs(nanos);
  let x = `${neg ? '-' : ''}${s}.${String(n).padStart(9, '0')}`;
  if (x.endsWith('000')) x = x.slice(0, -3);
  if (x.endsWith('000')) x = x.slice(0, -3);
  if (x.endsWith('.000')) x = x.slice(0, -4);
  return x + 's';
}

// ---------- parsing proto JSON ----------

export interface ParseOpts {
  /** Collects unknown fields and soft problems (path → message; for an unknown field, the known names). */
  warn?: (path: string, message: string, known?: string[]) => void;
  path?: string;
}

export class ProtoParseError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'ProtoParseError';
  }
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The inverse of joinPath: 'a.b[0].c' → ['a', 'b', 0, 'c'] (for file positions of a parse path). */
export function splitPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path))) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

function joinPath(base: string, k: string | number): string {
  if (typeof k === 'number') return `${base}[${k}]`;
  return base === '' ? k : `${base}.${k}`;
}

function parseScalar(s: Scalar, raw: unknown, path: string): GoValue {
  const bad = (): never => {
    throw new ProtoParseError(`invalid value for ${s} field ${path}: ${JSON.stringify(raw)}`, path);
  };
  switch (s) {
    case 'string':
      if (typeof raw !== 'string') bad();
      return raw as string;
    case 'bool':
      if (typeof raw !== 'boolean') bad();
      return raw as boolean;
    case 'double':
    case 'float': {
      let n: number;
      if (typeof raw === 'number') n = raw;
      else if (raw === 'NaN' || raw === 'Infinity' || raw === '-Infinity') n = Number(raw);
      else if (typeof raw === 'string' && raw.trim() !== '' && !Number.isNaN(Number(raw))) n = Number(raw);
      else return bad();
      return s === 'double' ? n : new GoNum(T.float32, Math.fround(n));
    }
    case 'bytes':
      if (typeof raw !== 'string') bad();
      return withType([...Buffer.from(raw as string, 'base64')].map((b) => new GoNum(T.uint8, BigInt(b))), sliceOf(T.uint8));
    default: {
      let b: bigint;
      if (typeof raw === 'number' && Number.isInteger(raw)) b = BigInt(raw);
      else if (typeof raw === 'string' && /^-?\d+$/.test(raw)) b = BigInt(raw);
      else return bad();
      const t = scalarGoType(s);
      const bits = s === 'int32' || s === 'uint32' ? 32 : 64;
      const signed = s.startsWith('int');
      const ok = signed ? BigInt.asIntN(bits, b) === b : b >= 0n && BigInt.asUintN(bits, b) === b;
      if (!ok) bad();
      return new GoNum(t, b);
    }
  }
}

function parseElem(t: Scalar | Enum | Msg, raw: unknown, path: string, opts: ParseOpts): GoValue {
  if (typeof t === 'string') return parseScalar(t, raw, path);
  if (t.kind === 'enum') {
    if (typeof raw === 'string') {
      const v = t.values.get(raw);
      if (v === undefined) throw new ProtoParseError(`unknown value ${JSON.stringify(raw)} for enum ${t.goType.name} at ${path}`, path);
      return enumValue(t, v);
    }
    if (typeof raw === 'number' && Number.isInteger(raw)) return enumValue(t, raw);
    throw new ProtoParseError(`invalid value for enum ${t.goType.name} at ${path}: ${JSON.stringify(raw)}`, path);
  }
  return parseProto(t, raw, { ...opts, path });
}

/** Proto JSON (as decoded from YAML/JSON) into a message view, jsonpb-style: both json and proto names accepted. */
export function parseProto(m: Msg, raw: unknown, opts: ParseOpts = {}): ProtoStruct {
  const path = opts.path ?? '';
  if (m.wkt === 'duration') {
    if (typeof raw !== 'string') throw new ProtoParseError(`invalid duration at ${path}: ${JSON.stringify(raw)}`, path);
    const d = parseDuration(raw);
    if (!d) throw new ProtoParseError(`bad Duration: ${JSON.stringify(raw)} at ${path}`, path);
    return newMessage(m, { Seconds: new GoNum(T.int64, d[0]), Nanos: new GoNum(T.int32, BigInt(d[1])) });
  }
  if (m.wkt === 'wrapper') {
    return newMessage(m, { Value: parseScalar(m.wrapped!, raw, path) });
  }
  if (!isObj(raw)) throw new ProtoParseError(`expected an object for ${m.full} at ${path || '<root>'}`, path);
  const out = new ProtoStruct(m);
  for (const k of Object.keys(raw)) {
    const f = m.fields.find((x) => x.json === k) ?? m.fields.find((x) => x.proto === k);
    const p = joinPath(path, k);
    if (!f) {
      opts.warn?.(p, `unknown field "${k}" in ${m.full}`, m.fields.map((x) => x.json));
      continue;
    }
    const v = raw[k];
    // jsonpb leaves a field untouched on null (except google.protobuf.Value)
    if (v === null || v === undefined) continue;
    out.values.set(f.go, parseFieldValue(f, v, p, opts));
  }
  return out;
}

function parseFieldValue(f: ProtoField, v: unknown, p: string, opts: ParseOpts): GoValue {
  const t = f.type;
  if (typeof t === 'object' && 'opaque' in t) return plainClone(v);
  if (typeof t === 'object' && 'map' in t) {
    if (!isObj(v)) throw new ProtoParseError(`expected an object for map field ${p}`, p);
    const mm = newMap();
    for (const mk of Object.keys(v)) mm[mk] = parseElem(t.map, v[mk], joinPath(p, mk), opts);
    return withType(mm, fieldGoType(f));
  }
  if (f.repeated) {
    if (!Array.isArray(v)) throw new ProtoParseError(`expected a list for repeated field ${p}`, p);
    return withType(
      v.map((x, i) => parseElem(t as Scalar | Enum | Msg, x, joinPath(p, i), opts)),
      fieldGoType(f),
    );
  }
  return parseElem(t as Scalar | Enum | Msg, v, p, opts);
}

function plainClone(v: unknown): GoValue {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(plainClone);
  if (isObj(v)) {
    const m = newMap();
    for (const k of Object.keys(v)) m[k] = plainClone(v[k]);
    return m;
  }
  return v as GoValue;
}

// ---------- merging ----------

export type MergeMode = 'replace' | 'deep';

/** Apply src's set fields onto a clone of dst: 'replace' replaces each set top-level field (golang
 *  jsonpb since Istio moved off gogo), 'deep' merges nested messages field by field (gogo jsonpb). */
export function protoMerge(dst: ProtoStruct, src: ProtoStruct, mode: MergeMode): ProtoStruct {
  const out = dst.clone();
  for (const f of src.msg.fields) {
    if (!src.values.has(f.go)) continue;
    const sv = src.values.get(f.go);
    if (f.oneof) for (const o of src.msg.fields) if (o.oneof === f.oneof) out.values.delete(o.go);
    const dv = out.values.get(f.go);
    if (mode === 'deep' && sv instanceof ProtoStruct && dv instanceof ProtoStruct && !f.repeated && !sv.msg.wkt) {
      out.values.set(f.go, protoMerge(dv, sv, mode));
    } else out.values.set(f.go, cloneValue(sv));
  }
  return out;
}

// ---------- jsonpb marshalling ----------

export interface ToJSONOpts {
  /** jsonpb Marshaler.Indent ('' = compact). */
  indent?: string;
  /** Emit fields with zero values too (EmitDefaults). */
  emitDefaults?: boolean;
  /** Escape <, >, & as \u003c... (encoding/json does when jsonpb delegates strings). Default true. */
  escapeHTML?: boolean;
}

function quote(s: string, escapeHTML: boolean): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20) out += '\\u00' + c.toString(16).padStart(2, '0');
    else if (escapeHTML && (ch === '<' || ch === '>' || ch === '&')) out += '\\u00' + c.toString(16).padStart(2, '0');
    else if (c === 0x2028 || c === 0x2029) out += '\\u' + c.toString(16);
    else out += ch;
  }
  return out + '"';
}

function isSet(f: ProtoField, v: GoValue): boolean {
  if (v === undefined || v === null || v instanceof GoNil) return false;
  if (f.oneof) return true;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof GoStruct) return true;
  // an opaque message is set even when empty (DefaultMeshConfig's DefaultProviders: &...{}); a map is not
  if (typeof f.type === 'object' && 'opaque' in f.type && typeof v === 'object' && !(v instanceof GoNum)) return true;
  if (typeof v === 'object' && !(v instanceof GoNum)) return Object.keys(v).length > 0;
  if (typeof v === 'string') return v !== '';
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (v instanceof GoNum) return v.v !== 0 && v.v !== 0n;
  return true;
}

function floatText(n: number): string {
  if (Number.isNaN(n)) return '"NaN"';
  if (n === Infinity) return '"Infinity"';
  if (n === -Infinity) return '"-Infinity"';
  return JSON.stringify(n);
}

/** golang/protobuf jsonpb (v1.4+) Marshaler output for a message value. */
export function protoToJSON(v: GoValue, opts: ToJSONOpts = {}): string {
  const indent = opts.indent ?? '';
  const esc = opts.escapeHTML ?? true;
  const nl = (d: number): string => (indent ? '\n' + indent.repeat(d) : '');
  const colon = indent ? ': ' : ':';

  const elem = (t: Scalar | Enum | Msg, x: GoValue, d: number): string => {
    if (typeof t === 'string') {
      switch (t) {
        case 'string':
          return quote(String(x ?? ''), esc);
        case 'bool':
          return x === true ? 'true' : 'false';
        case 'int64':
        case 'uint64':
          return `"${intValue(x) ?? 0n}"`;
        case 'int32':
        case 'uint32':
          return String(intValue(x) ?? 0n);
        case 'double':
          return floatText(typeof x === 'number' ? x : 0);
        case 'float':
          return floatText(x instanceof GoNum ? Number(x.v) : 0);
        case 'bytes':
          return quote(Buffer.from((x as GoNum[]).map((b) => Number(b.v))).toString('base64'), esc);
      }
    }
    if (t.kind === 'enum') {
      const n = Number(intValue(x) ?? 0n);
      const name = t.names.get(n);
      return name === undefined ? String(n) : `"${name}"`;
    }
    return message(x, d);
  };

  const message = (x: GoValue, d: number): string => {
    if (!(x instanceof ProtoStruct)) return 'null';
    const m = x.msg;
    if (m.wkt === 'duration') {
      const s = intValue(x.get('Seconds')) ?? 0n;
      const n = Number(intValue(x.get('Nanos')) ?? 0n);
      return `"${formatDurationProto(s, n)}"`;
    }
    if (m.wkt === 'wrapper') return elem(m.wrapped!, x.get('Value'), d);
    const parts: string[] = [];
    const done = new Set<string>();
    for (const f of m.fields) {
      if (f.oneof) {
        if (done.has(f.oneof)) continue;
        const member = m.fields.find((o) => o.oneof === f.oneof && x.values.has(o.go));
        done.add(f.oneof);
        if (!member) continue;
        parts.push(quote(member.json, esc) + colon + fieldText(member, x.values.get(member.go), d + 1));
        continue;
      }
      const val = x.values.get(f.go);
      if (!isSet(f, val)) {
        if (!opts.emitDefaults) continue;
        parts.push(quote(f.json, esc) + colon + defaultText(f));
        continue;
      }
      parts.push(quote(f.json, esc) + colon + fieldText(f, val, d + 1));
    }
    if (parts.length === 0) return '{}';
    return '{' + parts.map((p) => nl(d + 1) + p).join(',') + nl(d) + '}';
  };

  const defaultText = (f: ProtoField): string => {
    const t = f.type;
    if (f.repeated) return '[]';
    if (typeof t === 'object' && 'map' in t) return '{}';
    if (typeof t === 'object' && 'opaque' in t) return 'null';
    if (typeof t === 'string') return elem(t, zeroOf(scalarGoType(t)), 0);
    if (t.kind === 'enum') return elem(t, enumValue(t, 0), 0);
    return 'null';
  };

  const fieldText = (f: ProtoField, val: GoValue, d: number): string => {
    const t = f.type;
    if (typeof t === 'object' && 'opaque' in t) return plainJSON(val, esc);
    if (typeof t === 'object' && 'map' in t) {
      const mm = val as Record<string, GoValue>;
      const keys = Object.keys(mm).sort();
      if (keys.length === 0) return '{}';
      return '{' + keys.map((k) => nl(d + 1) + quote(k, esc) + colon + elem(t.map, mm[k], d + 1)).join(',') + nl(d) + '}';
    }
    if (f.repeated) {
      const arr = val as GoValue[];
      if (arr.length === 0) return '[]';
      return '[' + arr.map((e) => nl(d + 1) + elem(t as Scalar | Enum | Msg, e, d + 1)).join(',') + nl(d) + ']';
    }
    return elem(t as Scalar | Enum | Msg, val, d);
  };

  return message(v, 0);
}

function plainJSON(v: GoValue, esc: boolean): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return '[' + v.map((x) => plainJSON(x, esc)).join(',') + ']';
  if (typeof v === 'object' && !(v instanceof GoStruct) && !(v instanceof GoNum) && !(v instanceof GoNil)) {
    const keys = Object.keys(v);
    return '{' + keys.map((k) => quote(k, esc) + ':' + plainJSON((v as Record<string, GoValue>)[k], esc)).join(',') + '}';
  }
  if (typeof v === 'string') return quote(v, esc);
  if (typeof v === 'number') return JSON.stringify(v);
  if (typeof v === 'boolean') return String(v);
  return 'null';
}

/** Proto JSON value (plain JS) of a message: the object protoToJSON prints, for merging or YAML output. */
export function protoToPlain(v: GoValue): unknown {
  return JSON.parse(protoToJSON(v, { escapeHTML: false }));
}
