// Go's encoding/json over the Go value model: Marshal (with MarshalIndent and SetEscapeHTML(false)
// variants) and Unmarshal into interface{} / map[string]interface{} / []interface{}, with Go's exact
// output bytes and error texts (Go 1.19).
//
// Mirrors: go1.19 src/encoding/json/{encode,decode,scanner,indent}.go
// Proven by: test/vectors/helm/json.jsonl, test/vectors/regress/json-invalid-utf8.jsonl,
//            test/vectors/hardening/deep-json.jsonl

import {
  sortKeys,
  GO_TYPE,
  GoFunc,
  GoNil,
  GoNum,
  GoStruct,
  type GoMap,
  type GoType,
  type GoValue,
  type StructField,
  funcType,
  isFloatKind,
  isIntKind,
  isMap,
  isUintKind,
  newMap,
  typeOf,
  withType,
  SLICE_IFACE,
  MAP_STRING_IFACE,
} from '../../reflect/value.js';
import { formatFloat } from '../../strconv/ftoa.js';
import { LimitExceeded, checkExpandedSize, currentLimits } from '../../../guard/limits.js';
import { goBytes } from '../../strconv/strconv.js';

/** The bytes of a Go string (a byte that is not valid UTF-8 stays that byte, as the scanner must see it). */
function jsonBytes(text: string): Buffer {
  return text.isWellFormed() ? Buffer.from(text, 'utf8') : Buffer.from(goBytes(text));
}

/** A string with a surrogate (lone or paired) is left to the byte parser. */
const LONE_OR_PAIRED_SURROGATE = /[\ud800-\udfff]/;

/** An error from encoding/json; `message` is Go's text (`json: unsupported value: NaN`). */
export class GoJsonError extends Error {
  /** For syntax errors: the byte offset in the input where Go's scanner stopped. */
  offset?: number;
  constructor(message: string) {
    super(message);
    this.name = 'GoJsonError';
  }
}

export interface JsonMarshalOptions {
  /** MarshalIndent's indent; when indent or prefix is set the output is indented as json.Indent does. */
  indent?: string;
  prefix?: string;
  /** Escape <, > and & as \u003c etc. (json.Marshal does; Encoder.SetEscapeHTML(false) does not). Default true. */
  escapeHTML?: boolean;
}

const HEX = '0123456789abcdef';

/** Characters jsonQuote rewrites (with and without HTML escaping); strings without them are quoted as they are. */
const JSON_ESCAPED_HTML = /["\\\x00-\x1f<>&\u2028\u2029\ud800-\udfff]/;
const JSON_ESCAPED = /["\\\x00-\x1f\u2028\u2029\ud800-\udfff]/;

/** encodeState.string: Go's JSON string quoting. Lone surrogates stand for invalid UTF-8 and become U+FFFD. */
export function jsonQuote(s: string, escapeHTML = true): string {
  if (!(escapeHTML ? JSON_ESCAPED_HTML : JSON_ESCAPED).test(s)) return '"' + s + '"';
  if (s.length > QUOTE_CHUNK) {
    // piece by piece: appending escape by escape to one string builds a rope of one node per escaped
    // character, gigabytes for a long string of backslashes
    const parts: string[] = [];
    for (let i = 0; i < s.length; ) {
      let j = Math.min(i + QUOTE_CHUNK, s.length);
      const c = s.charCodeAt(j - 1);
      const d = s.charCodeAt(j);
      if (c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) j++; // keep a surrogate pair together
      parts.push(quoteEach(s.slice(i, j), escapeHTML));
      i = j;
    }
    return '"' + parts.join('') + '"';
  }
  return '"' + quoteEach(s, escapeHTML) + '"';
}

function quoteEach(s: string, escapeHTML: boolean): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | undefined;
    if (c < 0x20) {
      if (c === 0x0a) rep = '\\n';
      else if (c === 0x0d) rep = '\\r';
      else if (c === 0x09) rep = '\\t';
      else rep = '\\u00' + HEX[c >> 4] + HEX[c & 0xf];
    } else if (c === 0x22) rep = '\\"';
    else if (c === 0x5c) rep = '\\\\';
    else if (escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26)) rep = '\\u00' + HEX[c >> 4] + HEX[c & 0xf];
    else if (c === 0x2028) rep = '\\u2028';
    else if (c === 0x2029) rep = '\\u2029';
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      rep = '\\ufffd';
    }
    if (rep !== undefined) {
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return out + s.slice(start);
}

const QUOTE_CHUNK = 8192;

/** The length of jsonQuote(s, escapeHTML), without building it. */
export function jsonQuotedLength(s: string, escapeHTML = true): number {
  let n = s.length + 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20) n += c === 0x0a || c === 0x0d || c === 0x09 ? 1 : 5;
    else if (c === 0x22 || c === 0x5c) n += 1;
    else if (escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26)) n += 5;
    else if (c === 0x2028 || c === 0x2029) n += 5;
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
      else n += 5;
    }
  }
  return n;
}

const MAX_EXACT = Number.MAX_SAFE_INTEGER;

/** encoding/json's float64/float32 text: 'f' in [1e-6, 1e21), 'e' outside, "e-07" cleaned to "e-7". */
export function jsonFloat(f: number, bits: 32 | 64 = 64): string {
  // An integral float64 of at most 53 bits: strconv's 'f' digits are JavaScript's (but for -0).
  if (bits === 64 && Number.isInteger(f) && f <= MAX_EXACT && f >= -MAX_EXACT && !Object.is(f, -0)) return String(f);
  if (!Number.isFinite(f)) throw new GoJsonError('json: unsupported value: ' + formatFloat(f, 'g', bits));
  const abs = Math.abs(f);
  let fmt: 'e' | 'f' = 'f';
  if (abs !== 0) {
    if (bits === 64 && (abs < 1e-6 || abs >= 1e21)) fmt = 'e';
    if (bits === 32 && (Math.fround(abs) < Math.fround(1e-6) || Math.fround(abs) >= Math.fround(1e21))) fmt = 'e';
  }
  let s = formatFloat(f, fmt, bits);
  if (fmt === 'e') s = s.replace(/e-0(\d)$/, 'e-$1');
  return s;
}

function b64(bytes: number[]): string {
  return Buffer.from(bytes).toString('base64');
}

interface JsonField {
  name: string;
  /** path of Go field names from the outer struct */
  path: string[];
  omitempty: boolean;
  tagged: boolean;
  depth: number;
  order: number[];
  type: GoType;
}

const fieldCache = new WeakMap<GoType, JsonField[]>();

function isInlineEmbedded(f: StructField): boolean {
  if (!f.embedded) return false;
  const t = f.type.kind === 'ptr' ? f.type.elem : f.type;
  return t?.kind === 'struct' && (f.json === '' || f.json === f.name);
}

/** encoding/json's typeFields: the visible JSON fields of a struct type, with embedded structs inlined
 *  under Go's dominance rules (shallowest wins; at equal depth a tagged field wins; else none). */
function jsonFields(t: GoType): JsonField[] {
  const cached = fieldCache.get(t);
  if (cached) return cached;
  const all: JsonField[] = [];
  const walk = (st: GoType, path: string[], order: number[], depth: number, seen: Set<GoType>): void => {
    if (seen.has(st)) return;
    const seen2 = new Set(seen).add(st);
    (st.fields ?? []).forEach((f, i) => {
      if (f.json === '-') return;
      if (isInlineEmbedded(f)) {
        const inner = f.type.kind === 'ptr' ? f.type.elem! : f.type;
        walk(inner, [...path, f.name], [...order, i], depth + 1, seen2);
        return;
      }
      const tagged = f.json !== '' && f.json !== undefined;
      all.push({
        name: tagged ? f.json : f.name,
        path: [...path, f.name],
        omitempty: !!f.omitempty,
        tagged: tagged && f.json !== f.name ? true : tagged,
        depth,
        order: [...order, i],
        type: f.type,
      });
    });
  };
  walk(t, [], [], 0, new Set());
  const byName = new Map<string, JsonField[]>();
  for (const f of all) {
    const l = byName.get(f.name);
    if (l) l.push(f);
    else byName.set(f.name, [f]);
  }
  const out: JsonField[] = [];
  for (const fs of byName.values()) {
    if (fs.length === 1) {
      out.push(fs[0]!);
      continue;
    }
    const minDepth = Math.min(...fs.map((f) => f.depth));
    const shallow = fs.filter((f) => f.depth === minDepth);
    if (shallow.length === 1) {
      out.push(shallow[0]!);
      continue;
    }
    const tagged = shallow.filter((f) => f.tagged);
    if (tagged.length === 1) out.push(tagged[0]!);
  }
  out.sort((a, b) => {
    for (let i = 0; i < Math.min(a.order.length, b.order.length); i++) {
      if (a.order[i] !== b.order[i]) return a.order[i]! - b.order[i]!;
    }
    return a.order.length - b.order.length;
  });
  fieldCache.set(t, out);
  return out;
}

/** encoding/json's isEmptyValue, for omitempty: judged by the field's declared kind, so an
 *  interface field holding 0 or "" is not empty (only a nil interface is). */
function isEmptyValue(v: GoValue, declared: GoType): boolean {
  if (v === undefined || v === null) return true;
  if (declared.kind === 'interface') return false;
  // A pointer to a scalar is held dereferenced (src/go/encoding/json/structs.ts): only nil is empty, so
  // `runAsUser: 0` (*int64) and `runAsNonRoot: false` (*bool) are kept, as Go keeps them.
  if (declared.kind === 'ptr') return v instanceof GoNil;
  switch (typeof v) {
    case 'boolean':
      return !v;
    case 'string':
      return v === '';
    case 'number':
      return v === 0;
    case 'bigint':
      return v === 0n;
  }
  if (v instanceof GoNum) return v.v === 0 || v.v === 0n;
  if (v instanceof GoNil) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof GoStruct || v instanceof GoFunc) return false;
  return Object.keys(v as GoMap).length === 0;
}

/** Thrown by an encoder that does not track its path when a value nests deep enough to be cyclic. */
const TRACK_CYCLES: unique symbol = Symbol('trackCycles');

/** Nesting below which values are encoded without tracking the path (almost all values). */
const UNTRACKED_DEPTH = 64;

class Encoder {
  private onPath: Set<object> | undefined;
  /** The text so far: appending to one string is cheaper than joining the parts of every container. */
  buf = '';
  /** Set when a slice or map with a MarshalJSON method was met (its text may be shorter than its elements). */
  sawCollectionHook = false;
  constructor(
    private readonly escapeHTML: boolean,
    private readonly indent: string | undefined,
    private readonly prefix: string,
    /** Track the containers on the path (cycle errors); without it, deep nesting starts over with it. */
    private readonly track: boolean,
    /** Give up (throw TOO_LONG) once the text is longer than this. */
    private readonly maxLength = Infinity,
  ) {}

  private nl(depth: number): string {
    return '\n' + this.prefix + this.indent!.repeat(depth);
  }

  encode(v: GoValue, depth: number): void {
    switch (typeof v) {
      case 'undefined':
        this.buf += 'null';
        return;
      case 'boolean':
        this.buf += v ? 'true' : 'false';
        return;
      case 'string':
        if (this.maxLength !== Infinity && v.length > 4096 && this.buf.length + jsonQuotedLength(v, this.escapeHTML) > this.maxLength) throw TOO_LONG;
        this.buf += jsonQuote(v, this.escapeHTML);
        return;
      case 'number':
        this.buf += jsonFloat(v, 64);
        return;
      case 'bigint':
        this.buf += v.toString();
        return;
    }
    if (v === null) {
      this.buf += 'null';
      return;
    }
    if (v instanceof GoNum) return this.num(v);
    if (v instanceof GoNil) {
      const k = v.type.kind;
      if (k === 'func' || k === 'chan' || k === 'complex64' || k === 'complex128') this.unsupportedType(v.type);
      if (v.type.marshalJSON && k !== 'ptr' && k !== 'map' && k !== 'slice' && k !== 'interface') return this.hook(v.type, v, depth);
      this.buf += 'null';
      return;
    }
    if (v instanceof GoFunc) this.unsupportedType(funcType(v));
    if (v instanceof GoStruct) {
      if (v.type.marshalJSON) return this.hook(v.type, v, depth);
      return this.struct(v, depth);
    }
    if (Array.isArray(v)) {
      const t = typeOf(v)!;
      if (t.marshalJSON) {
        this.sawCollectionHook = true;
        return this.hook(t, v, depth);
      }
      return this.array(v, t, depth);
    }
    if (isMap(v)) {
      const t = typeOf(v)!;
      if (t.marshalJSON) {
        this.sawCollectionHook = true;
        return this.hook(t, v, depth);
      }
      return this.map(v, t, depth);
    }
    throw new GoJsonError('json: unsupported value');
  }

  private unsupportedType(t: GoType): never {
    throw new GoJsonError('json: unsupported type: ' + t.name);
  }

  private num(v: GoNum): void {
    if (v.type.marshalJSON) return this.hook(v.type, v, 0);
    const k = v.type.kind;
    if (isIntKind(k) || isUintKind(k)) this.buf += String(v.v);
    else if (isFloatKind(k)) this.buf += jsonFloat(Number(v.v), k === 'float32' ? 32 : 64);
    else if (k === 'bool') this.buf += v.v ? 'true' : 'false';
    else this.unsupportedType(v.type);
  }

  /** A MarshalJSON method: a string result is raw JSON (compacted, HTML-escaped as Go does); an
   *  Error thrown is wrapped as Go wraps it; any other result is marshalled in its place. */
  private hook(t: GoType, v: GoValue, depth: number): void {
    let r: unknown;
    try {
      r = t.marshalJSON!(v);
    } catch (e) {
      throw new GoJsonError(`json: error calling MarshalJSON for type ${t.name}: ${(e as Error).message}`);
    }
    if (typeof r === 'string') {
      let parsed: unknown;
      try {
        parsed = parseJson(Buffer.from(r, 'utf8'), true);
      } catch (e) {
        throw new GoJsonError(`json: error calling MarshalJSON for type ${t.name}: ${(e as Error).message}`);
      }
      void parsed;
      const compact = compactJson(r, this.escapeHTML);
      this.buf += this.indent === undefined ? compact : reindent(compact, this.prefix, this.indent, depth);
      return;
    }
    this.encode(r as GoValue, depth);
  }

  private enter(o: object, t: GoType, depth: number): void {
    if (this.buf.length > this.maxLength) throw TOO_LONG;
    if (!this.track) {
      if (depth > UNTRACKED_DEPTH) throw TRACK_CYCLES;
      return;
    }
    this.onPath ??= new Set();
    if (this.onPath.has(o)) throw new GoJsonError('json: unsupported value: encountered a cycle via ' + t.name);
    this.onPath.add(o);
  }

  private leave(o: object): void {
    if (this.track) this.onPath!.delete(o);
  }

  private array(a: GoValue[], t: GoType, depth: number): void {
    const elem = t.elem;
    if (t.kind === 'slice' && elem && elem.kind === 'uint8') {
      const bytes = a.map((x) => Number(x instanceof GoNum ? x.v : typeof x === 'bigint' ? x : 0) & 0xff);
      this.buf += '"' + b64(bytes) + '"';
      return;
    }
    if (a.length === 0) {
      this.buf += '[]';
      return;
    }
    this.enter(a, t, depth);
    try {
      this.buf += '[';
      for (let i = 0; i < a.length; i++) {
        if (i > 0) this.buf += ',';
        if (this.indent !== undefined) this.buf += this.nl(depth + 1);
        this.encode(a[i], depth + 1);
      }
      if (this.indent !== undefined) this.buf += this.nl(depth);
      this.buf += ']';
    } finally {
      this.leave(a);
    }
  }

  private map(m: GoMap, t: GoType, depth: number): void {
    const keys = sortKeys(Object.keys(m));
    if (keys.length === 0) {
      this.buf += '{}';
      return;
    }
    this.enter(m, t, depth);
    try {
      this.buf += '{';
      for (let i = 0; i < keys.length; i++) {
        if (i > 0) this.buf += ',';
        this.member(keys[i]!, m[keys[i]!], depth);
      }
      if (this.indent !== undefined) this.buf += this.nl(depth);
      this.buf += '}';
    } finally {
      this.leave(m);
    }
  }

  private member(k: string, v: GoValue, depth: number): void {
    if (this.indent === undefined) this.buf += jsonQuote(k, this.escapeHTML) + ':';
    else this.buf += this.nl(depth + 1) + jsonQuote(k, this.escapeHTML) + ': ';
    this.encode(v, depth + 1);
  }

  private struct(s: GoStruct, depth: number): void {
    if (s.ptr) this.enter(s, s.type, depth);
    try {
      this.buf += '{';
      let n = 0;
      for (const f of jsonFields(s.type)) {
        let cur: GoValue = s;
        for (const name of f.path) {
          if (cur instanceof GoStruct) cur = cur.field(name);
          else {
            cur = undefined;
            break;
          }
        }
        // A field inside a nil embedded pointer is skipped, as Go does.
        if (f.path.length > 1 && cur === undefined) continue;
        if (f.omitempty && isEmptyValue(cur, f.type)) continue;
        if (n++ > 0) this.buf += ',';
        this.member(f.name, cur, depth);
      }
      if (n > 0 && this.indent !== undefined) this.buf += this.nl(depth);
      this.buf += '}';
    } finally {
      if (s.ptr) this.leave(s);
    }
  }
}

/** Thrown by an encoder given a maxLength when its text grows past it. */
const TOO_LONG: unique symbol = Symbol('tooLong');

function encoderFor(opts: JsonMarshalOptions, track: boolean, maxLength?: number): Encoder {
  const indented = opts.indent !== undefined || opts.prefix !== undefined;
  return new Encoder(opts.escapeHTML ?? true, indented ? (opts.indent ?? '') : undefined, opts.prefix ?? '', track, maxLength);
}

/** json.Marshal / json.MarshalIndent / Encoder with SetEscapeHTML(false) (without the trailing newline). */
export function goJsonMarshal(v: GoValue, opts: JsonMarshalOptions = {}, maxLength?: number): string {
  try {
    const e = encoderFor(opts, false, maxLength);
    e.encode(v, 0);
    return e.buf;
  } catch (e) {
    if (e !== TRACK_CYCLES) throw e;
  }
  const e = encoderFor(opts, true, maxLength);
  e.encode(v, 0);
  return e.buf;
}

/** Texts up to this long are written without checkExpandedSize's walk first. */
const SHORT_TEXT = 1 << 16;

/** What the JSON template functions do: checkExpandedSize(v) (a LimitExceeded), then goJsonMarshal(v ?? null). */
export function goJsonMarshalChecked(v: GoValue, opts: JsonMarshalOptions = {}): string {
  const short = goJsonMarshalShort(v ?? null, opts, Math.min(SHORT_TEXT, currentLimits().maxValueBytes));
  if (short !== undefined) return short;
  checkExpandedSize(v, true);
  // the text stops growing at the value limit (UTF-16 units never outnumber UTF-8 bytes)
  const max = currentLimits().maxValueBytes;
  try {
    return goJsonMarshal(v ?? null, opts, max);
  } catch (e) {
    if (e === TOO_LONG) throw new LimitExceeded(`result of more than ${max} bytes exceeds the limit of ${max} bytes per value`);
    throw e;
  }
}

/**
 * goJsonMarshal for a value whose text is at most maxLength long, with no failure of any kind, and no
 * slice or map with a MarshalJSON method; otherwise undefined. Every element of the other values
 * writes at least one byte, so a short text means a small value (see checkExpandedSize).
 */
export function goJsonMarshalShort(v: GoValue, opts: JsonMarshalOptions, maxLength: number): string | undefined {
  const e = encoderFor(opts, false, maxLength);
  try {
    e.encode(v, 0);
  } catch {
    return undefined;
  }
  return e.buf.length <= maxLength && !e.sawCollectionHook ? e.buf : undefined;
}

// ---------- compact / indent of raw JSON (MarshalJSON results) ----------

function compactJson(src: string, escapeHTML: boolean): string {
  let out = '';
  let inStr = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (inStr) {
      if (c === '\\') {
        out += c + src[i + 1];
        i++;
        continue;
      }
      if (c === '"') inStr = false;
    } else if (c === '"') inStr = true;
    else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (escapeHTML && (c === '<' || c === '>' || c === '&')) out += '\\u00' + HEX[c.charCodeAt(0) >> 4] + HEX[c.charCodeAt(0) & 0xf];
    else if (c === '\u2028' || c === '\u2029') out += c === '\u2028' ? '\\u2028' : '\\u2029';
    else out += c;
  }
  return out;
}

function reindent(compact: string, prefix: string, indent: string, depth: number): string {
  let out = '';
  let d = depth;
  let inStr = false;
  const nl = (n: number) => '\n' + prefix + indent.repeat(n);
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i]!;
    if (inStr) {
      out += c;
      if (c === '\\') out += compact[++i];
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') {
      inStr = true;
      out += c;
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      if (compact[i + 1] === close) {
        out += c + close;
        i++;
      } else {
        d++;
        out += c + nl(d);
      }
    } else if (c === '}' || c === ']') {
      d--;
      out += nl(d) + c;
    } else if (c === ',') out += c + nl(d);
    else if (c === ':') out += ': ';
    else out += c;
  }
  return out;
}

// ---------- Unmarshal ----------

/** strconv.Quote of one byte as Go's JSON scanner reports it (quoteChar). */
function quoteChar(b: number): string {
  if (b === 0x27) return `'\\''`;
  if (b === 0x22) return `'"'`;
  let s: string;
  switch (b) {
    case 0x07:
      s = '\\a';
      break;
    case 0x08:
      s = '\\b';
      break;
    case 0x0c:
      s = '\\f';
      break;
    case 0x0a:
      s = '\\n';
      break;
    case 0x0d:
      s = '\\r';
      break;
    case 0x09:
      s = '\\t';
      break;
    case 0x0b:
      s = '\\v';
      break;
    case 0x5c:
      s = '\\\\';
      break;
    default:
      if (b < 0x20 || b === 0x7f) s = '\\x' + HEX[b >> 4] + HEX[b & 0xf];
      else if (b < 0x7f) s = String.fromCharCode(b);
      else if (b < 0xa1 || b === 0xad) s = '\\u00' + HEX[b >> 4] + HEX[b & 0xf];
      else s = String.fromCharCode(b);
  }
  return `'${s}'`;
}

class SyntaxError_ extends GoJsonError {}

/** Decoded JSON: numbers are float64 (or the literal text when keepNumbers). */
type Decoded = unknown;

interface NumberText {
  readonly numberText: string;
}

/** An array or object being filled: `items` for an array; `map` (or `entries` with keepNumbers) and the pending `key` for an object. */
interface Frame {
  items?: Decoded[];
  map?: unknown;
  entries?: [string, Decoded][];
  key?: string;
  depth: number;
}

class Parser {
  pos = 0;
  firstError: string | undefined;
  constructor(
    private readonly b: Buffer,
    private readonly keepNumbers: boolean,
  ) {}

  err(msg: string): never {
    const e = new SyntaxError_(msg);
    e.offset = this.pos;
    throw e;
  }

  /** Go's scanner meets the end of input by stepping a space through the current state: where a
   *  space is not allowed (inside literals, numbers, escapes) that is the error it reports. */
  eof(context?: string): never {
    this.err(context ? `invalid character ' ' ${context}` : 'unexpected end of JSON input');
  }

  ws(): void {
    const b = this.b;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.pos++;
      else break;
    }
  }

  invalid(context: string): never {
    this.err(`invalid character ${quoteChar(this.b[this.pos]!)} ${context}`);
  }

  /**
   * One value and everything inside it, without recursion: nesting to Go's 10,000 levels needs no
   * JavaScript stack. `open` holds the arrays and objects being filled, innermost last.
   */
  value(depth: number): Decoded {
    const open: Frame[] = [];
    for (;;) {
      this.ws();
      if (this.pos >= this.b.length) this.eof();
      const c = this.b[this.pos]!;
      let v: Decoded;
      if (c === 0x7b || c === 0x5b) {
        // Go's scanner refuses to open the 10,001st array or object
        if (depth >= 10000) this.invalid('exceeded max depth');
        const close = c === 0x7b ? 0x7d : 0x5d;
        this.pos++;
        this.ws();
        if (this.pos >= this.b.length) this.eof();
        if (this.b[this.pos] === close) {
          this.pos++;
          v = c === 0x5b ? [] : this.keepNumbers ? { entries: [] } : newMap();
        } else {
          const f: Frame = c === 0x5b ? { items: [], depth } : { map: this.keepNumbers ? undefined : newMap(), entries: this.keepNumbers ? [] : undefined, key: '', depth };
          if (c === 0x7b) this.objectKey(f);
          open.push(f);
          depth++;
          continue;
        }
      } else v = this.scalar(c);
      // v is whole: hand it to the collections it ends, then go on with the next value
      for (;;) {
        const f = open[open.length - 1];
        if (f === undefined) return v;
        if (f.items) f.items.push(v);
        else if (f.entries) f.entries.push([f.key!, v]);
        else (f.map as Record<string, unknown>)[f.key!] = v;
        this.ws();
        if (this.pos >= this.b.length) this.eof();
        const d = this.b[this.pos]!;
        if (d === 0x2c) {
          this.pos++;
          if (!f.items) this.objectKey(f);
          depth = f.depth + 1;
          break;
        }
        if (d === (f.items ? 0x5d : 0x7d)) {
          this.pos++;
          open.pop();
          v = f.items ?? (f.entries ? { entries: f.entries } : f.map);
          continue;
        }
        this.invalid(f.items ? 'after array element' : 'after object key:value pair');
      }
    }
  }

  /** An object's next key and its colon. */
  objectKey(f: Frame): void {
    this.ws();
    if (this.pos >= this.b.length) this.eof();
    if (this.b[this.pos] !== 0x22) this.invalid('looking for beginning of object key string');
    f.key = this.string();
    this.ws();
    if (this.pos >= this.b.length) this.eof();
    if (this.b[this.pos] !== 0x3a) this.invalid('after object key');
    this.pos++;
  }

  scalar(c: number): Decoded {
    switch (c) {
      case 0x22:
        return this.string();
      case 0x74:
        return this.literal('true', true);
      case 0x66:
        return this.literal('false', false);
      case 0x6e:
        return this.literal('null', null);
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    this.invalid('looking for beginning of value');
  }

  literal(word: string, v: Decoded): Decoded {
    this.pos++;
    for (let i = 1; i < word.length; i++) {
      if (this.pos >= this.b.length) this.eof(`in literal ${word} (expecting '${word[i]}')`);
      if (this.b[this.pos] !== word.charCodeAt(i)) this.invalid(`in literal ${word} (expecting '${word[i]}')`);
      this.pos++;
    }
    return v;
  }

  number(): Decoded {
    const b = this.b;
    const start = this.pos;
    const digit = (i: number) => i < b.length && b[i]! >= 0x30 && b[i]! <= 0x39;
    if (b[this.pos] === 0x2d) {
      this.pos++;
      if (this.pos >= b.length) this.eof('in numeric literal');
      if (!digit(this.pos)) this.invalid('in numeric literal');
    }
    if (b[this.pos] === 0x30) this.pos++;
    else while (digit(this.pos)) this.pos++;
    if (this.pos < b.length && b[this.pos] === 0x2e) {
      this.pos++;
      if (this.pos >= b.length) this.eof('after decimal point in numeric literal');
      if (!digit(this.pos)) this.invalid('after decimal point in numeric literal');
      while (digit(this.pos)) this.pos++;
    }
    if (this.pos < b.length && (b[this.pos] === 0x65 || b[this.pos] === 0x45)) {
      this.pos++;
      if (this.pos >= b.length) this.eof('in exponent of numeric literal');
      if (b[this.pos] === 0x2b || b[this.pos] === 0x2d) {
        this.pos++;
        if (this.pos >= b.length) this.eof('in exponent of numeric literal');
      }
      if (!digit(this.pos)) this.invalid('in exponent of numeric literal');
      while (digit(this.pos)) this.pos++;
    }
    const text = b.toString('latin1', start, this.pos);
    if (this.keepNumbers) return { numberText: text } satisfies NumberText;
    const f = Number(text);
    if (!Number.isFinite(f)) {
      this.firstError ??= `json: cannot unmarshal number ${text} into Go value of type float64`;
      return null;
    }
    return f;
  }

  string(): string {
    const b = this.b;
    this.pos++;
    // Fast path: no escapes and no control characters up to the closing quote.
    for (let i = this.pos; i < b.length; i++) {
      const c = b[i]!;
      if (c === 0x22) {
        const s = b.toString('utf8', this.pos, i);
        this.pos = i + 1;
        return s;
      }
      if (c === 0x5c || c < 0x20) break;
    }
    const parts: Buffer[] = [];
    let chunk = this.pos;
    let out = '';
    const flush = () => {
      if (this.pos > chunk) parts.push(b.subarray(chunk, this.pos));
    };
    for (;;) {
      if (this.pos >= b.length) this.eof();
      const c = b[this.pos]!;
      if (c === 0x22) {
        flush();
        this.pos++;
        out += Buffer.concat(parts).toString('utf8');
        return out;
      }
      if (c < 0x20) this.invalid('in string literal');
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      flush();
      out += Buffer.concat(parts).toString('utf8');
      parts.length = 0;
      this.pos++;
      if (this.pos >= b.length) this.eof('in string escape code');
      const e = b[this.pos]!;
      const simple: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };
      if (simple[e] !== undefined) {
        out += simple[e];
        this.pos++;
      } else if (e === 0x75) {
        this.pos++;
        let r = this.hex4();
        if (r >= 0xd800 && r <= 0xdbff) {
          // A valid surrogate pair joins; anything else leaves U+FFFD, as Go's unquote does.
          const save = this.pos;
          if (b[this.pos] === 0x5c && b[this.pos + 1] === 0x75) {
            this.pos += 2;
            const r2 = this.hex4();
            if (r2 >= 0xdc00 && r2 <= 0xdfff) {
              out += String.fromCharCode(r, r2);
              chunk = this.pos;
              continue;
            }
            this.pos = save;
          }
          r = 0xfffd;
        } else if (r >= 0xdc00 && r <= 0xdfff) r = 0xfffd;
        out += String.fromCharCode(r);
      } else this.invalid('in string escape code');
      chunk = this.pos;
    }
  }

  hex4(): number {
    let r = 0;
    for (let i = 0; i < 4; i++) {
      if (this.pos >= this.b.length) this.eof('in \\u hexadecimal character escape');
      const c = this.b[this.pos]!;
      const h = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
      if (h < 0) this.invalid('in \\u hexadecimal character escape');
      r = r * 16 + h;
      this.pos++;
    }
    return r;
  }

  document(): Decoded {
    const v = this.value(0);
    this.ws();
    if (this.pos < this.b.length) this.invalid('after top-level value');
    return v;
  }
}

/**
 * Parse JSON text with Go's scanner rules and error texts. With keepNumbers, numbers stay as their
 * literal text ({numberText}) and objects as {entries} in source order (what yaml.v2 sees of JSON).
 */
export function parseJson(bytes: Buffer, keepNumbers = false): { value: unknown; error?: string } {
  const p = new Parser(bytes, keepNumbers);
  const value = p.document();
  return { value, error: p.firstError };
}

export type JsonRawNode = null | boolean | string | { numberText: string } | JsonRawNode[] | { entries: [string, JsonRawNode][] };

/** Parse JSON keeping number literals and key order (the input of the JSON → YAML step of toYaml). */
export function parseJsonRaw(text: string): JsonRawNode {
  return parseJson(jsonBytes(text), true).value as JsonRawNode;
}

/** The JSON kind a value came from, as encoding/json's UnmarshalTypeError names it. */
export function kindName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'object';
}

const NOT_NATIVE: unique symbol = Symbol('notNative');

/** A \uXXXX escape of a surrogate: Go decodes a lone one as U+FFFD, JSON.parse keeps it. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * json.Unmarshal into interface{} through the engine's JSON.parse, where the two agree: text without
 * surrogates (bytes that are not UTF-8, or escapes of surrogates), every number finite, nesting within
 * Go's 10,000 levels. NOT_NATIVE otherwise, and for text JSON.parse rejects: the byte parser then gives
 * Go's result or Go's error. Objects become null-prototype maps (own keys only, `__proto__` included).
 */
function nativeUnmarshal(text: string): GoValue | typeof NOT_NATIVE {
  if (LONE_OR_PAIRED_SURROGATE.test(text) || SURROGATE_ESCAPE.test(text)) return NOT_NATIVE;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return NOT_NATIVE;
  }
  try {
    return fromNative(raw, 0);
  } catch (e) {
    if (e === NOT_NATIVE || e instanceof RangeError) return NOT_NATIVE;
    throw e;
  }
}

function fromNative(v: unknown, depth: number): GoValue {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      if (!Number.isFinite(v)) throw NOT_NATIVE;
      return v;
  }
  if (v === null) return null;
  // deeper values go to the byte parser, which needs no stack
  if (depth >= 500) throw NOT_NATIVE;
  if (Array.isArray(v)) {
    const out: GoValue[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = fromNative(v[i], depth + 1);
    return out;
  }
  const o = v as Record<string, unknown>;
  const m = newMap();
  for (const k of Object.keys(o)) m[k] = fromNative(o[k], depth + 1);
  return m;
}

/** json.Unmarshal(text, &v) with v interface{}: numbers float64, objects null-prototype maps. Throws GoJsonError. */
export function goJsonUnmarshal(text: string): GoValue {
  const fast = nativeUnmarshal(text);
  if (fast !== NOT_NATIVE) return fast;
  const { value, error } = parseJson(jsonBytes(text));
  if (error) throw new GoJsonError(error);
  return value as GoValue;
}

/**
 * json.Unmarshal into a Go target of type map[string]interface {} or []interface {} that starts out
 * as an empty value: returns the resulting value (the target unchanged on null) and Go's first error.
 */
export function goJsonUnmarshalInto(text: string, target: 'map' | 'slice'): { value: GoValue; error?: string } {
  const empty: GoValue = target === 'map' ? newMap() : withType([], SLICE_IFACE);
  let parsed: { value: unknown; error?: string };
  try {
    parsed = parseJson(jsonBytes(text));
  } catch (e) {
    if (e instanceof GoJsonError) return { value: empty, error: e.message };
    throw e;
  }
  const v = parsed.value;
  // Go sets the target itself to nil on a JSON null.
  if (v === null) return { value: new GoNil(target === 'map' ? MAP_STRING_IFACE : SLICE_IFACE), error: parsed.error };
  const want = target === 'map' ? 'object' : 'array';
  const got = kindName(v);
  if (got !== want) {
    const tname = target === 'map' ? 'map[string]interface {}' : '[]interface {}';
    return { value: empty, error: `json: cannot unmarshal ${got} into Go value of type ${tname}` };
  }
  return { value: v as GoValue, error: parsed.error };
}

export { GO_TYPE };

/** Offset where JSON text first nests deeper than max, or -1. */
export function jsonTooDeep(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}
