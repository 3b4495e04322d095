// Helm's ways of giving values on the command line (pkg/strvals), parsed into a map that may already
// hold values (strvals.ParseInto: the -f files' values, and earlier flags'):
//
//   --set a.b=c          dotted keys, `\` escapes, `a[0]` list indexes, `{x,y}` lists, typed scalars
//                        (true/false/null in any case, integers as int64; 007, 1e3, 1.5 stay strings)
//   --set-string a.b=c   the same syntax, every value a string
//   --set-json a={...}   each value one JSON value (numbers float64); an empty value is null
//   --set-file a=PATH    each value the text of the file PATH
//   --set-literal a=TEXT the value is the rest of the text, as it is
//
// A key that meets a value of the wrong kind (a map key over a string, an index over a map) fails as
// Helm's type assertion does: "unable to parse key: interface conversion: ...".
//
// The same parser serves the injector values of render and audit (applySet), which are JSON (plain
// numbers) and where `null` deletes the key at once.
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/strvals/{parser,literal_parser}.go, pkg/cli/values/options.go (mergeMaps)
// Proven by: test/vectors/helm-template/set.yaml, test/istio/setvalues.test.ts, test/helm/values-hostile.test.ts

import type { Json, JsonObject } from '../go/encoding/json/value.js';
import { clone, isObject, newObject } from '../go/encoding/json/value.js';
import { GoJsonError, goJsonUnmarshal } from '../go/encoding/json/json.js';
import { GoNum, T, isMap, newMap, typeOf, type GoMap, type GoValue } from '../go/reflect/value.js';

export class SetValuesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetValuesError';
  }
}

/** Helm's mergeMaps for values files: `over` wins; nested maps merge; a null deletes the key. */
export function mergeValues(base: JsonObject, over: JsonObject): JsonObject {
  const out = newObject();
  for (const k of Object.keys(base)) out[k] = base[k]!;
  for (const k of Object.keys(over)) {
    const v = over[k]!;
    if (v === null) {
      delete out[k];
      continue;
    }
    const cur = Object.prototype.hasOwnProperty.call(out, k) ? out[k] : undefined;
    out[k] = isObject(v) && isObject(cur) ? mergeValues(cur, v) : clone(v);
  }
  return out;
}

/** Which flag a text came from: how its values are read. */
export type SetKind = 'set' | 'set-string' | 'set-json' | 'set-file' | 'set-literal';

/** MaxIndex and MaxNestedNameLevel. */
const MAX_INDEX = 65536;
const MAX_NESTED_NAME_LEVEL = 30;

/** Go's io.EOF, as the parser passes it around (not an error of the user's). */
const EOF: unique symbol = Symbol('EOF');
/** strvals' ErrNotList: the value does not start with '{'. */
const NOT_LIST: unique symbol = Symbol('ErrNotList');
type Failure = SetValuesError | typeof EOF;

/** A Go panic of a type assertion, recovered by key() as "unable to parse key: ...". */
class Panic extends Error {}

/** Reads a value's text into its Go value (typedVal, a file's text). Throws SetValuesError. */
type Reader = (text: string) => GoValue;

function goTypeName(v: GoValue): string {
  if (v === null || v === undefined) return 'nil';
  return typeOf(v)?.name ?? 'nil';
}

function assertList(v: GoValue): GoValue[] {
  if (Array.isArray(v)) return v;
  throw new Panic(`interface conversion: interface {} is ${goTypeName(v)}, not []interface {}`);
}

function assertMap(v: GoValue): GoMap {
  if (isMap(v)) return v;
  throw new Panic(`interface conversion: interface {} is ${goTypeName(v)}, not map[string]interface {}`);
}

function own(m: GoMap, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(m, k);
}

/** A key each map was last seen to hold (the parser notes each key it stores). */
const someKey = new WeakMap<GoMap, string>();

/** len(m) == 0, in constant time while the map still holds the key noted for it: listing the keys of a
 *  map that 20,000 flags fill, once a flag, made them quadratic. */
function isEmpty(m: GoMap): boolean {
  const known = someKey.get(m);
  if (known !== undefined && own(m, known)) return false;
  for (const k in m) {
    if (!own(m, k)) continue;
    someKey.set(m, k);
    return false;
  }
  return true;
}

/** typedVal: the Go value of a --set text. */
function typedVal(v: string, asString: boolean, int: (n: bigint) => GoValue): GoValue {
  if (asString) return v;
  const lower = v.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  if (v === '0') return int(0n);
  // a value that does not start with 0 and strconv.ParseInt accepts
  if (v.length > 0 && v[0] !== '0' && /^[+-]?[0-9]+$/.test(v)) {
    const n = BigInt(v);
    if (n >= -(2n ** 63n) && n < 2n ** 63n) return int(n);
  }
  return v;
}

const int64 = (n: bigint): GoValue => new GoNum(T.int64, n);

/** Where the first JSON value of text (from pos, after spaces) ends, as Go's json.Decoder reads it. */
function jsonValueEnd(text: string, pos: number): number {
  let i = pos;
  while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  const c = text[i];
  if (c === '{' || c === '[') {
    let depth = 0;
    let inString = false;
    for (; i < text.length; i++) {
      const ch = text[i]!;
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return text.length;
  }
  if (c === '"') {
    for (i++; i < text.length; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '"') return i + 1;
    }
    return text.length;
  }
  if (c !== undefined && /[-0-9]/.test(c)) {
    while (i < text.length && /[-+0-9.eE]/.test(text[i]!)) i++;
    return i;
  }
  while (i < text.length && /[a-zA-Z]/.test(text[i]!)) i++;
  return i;
}

class Parser {
  private pos = 0;
  constructor(
    private readonly src: string,
    private readonly data: GoMap,
    /** undefined: each value is JSON (--set-json). */
    private readonly reader: Reader | undefined,
    /** Delete a key set to null instead of keeping the null (the injector values' rule). */
    private readonly deleteNull = false,
    /** --set-literal (literal_parser.go): no escapes, no lists, a value is the rest of the text. */
    private readonly literal = false,
  ) {}

  parse(): void {
    for (;;) {
      const e = this.key(this.data, 0);
      if (e === undefined) continue;
      if (e === EOF) return;
      throw e;
    }
  }

  private readRune(): string | undefined {
    if (this.pos >= this.src.length) return undefined;
    const cp = this.src.codePointAt(this.pos)!;
    const r = String.fromCodePoint(cp);
    this.pos += r.length;
    return r;
  }

  /** runesUntil: the text up to an unescaped stop rune, the stop, or EOF with what was read. */
  private runesUntil(stop: string): { v: string; last?: string; eof: boolean } {
    let v = '';
    for (;;) {
      const r = this.readRune();
      if (r === undefined) return { v, eof: true };
      if (stop.includes(r)) return { v, last: r, eof: false };
      if (r === '\\' && !this.literal) {
        const next = this.readRune();
        if (next === undefined) return { v, eof: true };
        v += next;
        continue;
      }
      v += r;
    }
  }

  private set(data: GoMap, key: string, val: GoValue): void {
    if (key.length === 0) return;
    if (val === null && this.deleteNull) delete data[key];
    else {
      data[key] = val;
      someKey.set(data, key);
    }
  }

  /** key: one name=value (or name.…, name[…]) into data; undefined when more may follow. */
  private key(data: GoMap, level: number): Failure | undefined {
    try {
      return this.keyInner(data, level);
    } catch (e) {
      if (e instanceof Panic) return new SetValuesError(`unable to parse key: ${e.message}`);
      throw e;
    }
  }

  private keyInner(data: GoMap, level: number): Failure | undefined {
    const { v: k, last, eof } = this.runesUntil(this.literal ? '=[.' : '=[,.');
    if (eof) {
      if (k.length === 0) return EOF;
      return new SetValuesError(`key "${k}" has no value`);
    }
    switch (last) {
      case '[': {
        const i = this.keyIndex();
        if (typeof i !== 'number') return new SetValuesError(`error parsing index: ${i === EOF ? 'EOF' : i.message}`);
        const list = own(data, k) ? assertList(data[k]) : [];
        const r = this.listItem(list, i, level);
        this.set(data, k, r.list);
        return r.err;
      }
      case '=': {
        if (this.literal) {
          this.set(data, k, this.runesUntil('').v);
          return undefined;
        }
        if (this.reader === undefined) return this.jsonValue((v) => this.set(data, k, v));
        const vl = this.valList();
        if (Array.isArray(vl)) {
          this.set(data, k, vl);
          return undefined;
        }
        if (vl === EOF) {
          this.set(data, k, '');
          return EOF;
        }
        if (vl === NOT_LIST) {
          const rs = this.runesUntil(',').v;
          this.set(data, k, this.reader(rs));
          return undefined;
        }
        return vl;
      }
      case ',':
        this.set(data, k, '');
        return new SetValuesError(`key "${k}" has no value (cannot end with ,)`);
      default: {
        // '.'
        level++;
        if (level > MAX_NESTED_NAME_LEVEL) return new SetValuesError(`value name nested level is greater than maximum supported nested level of ${MAX_NESTED_NAME_LEVEL}`);
        const inner = own(data, k) ? assertMap(data[k]) : newMap();
        const e = this.key(inner, level);
        const empty = isEmpty(inner);
        if (e === undefined && empty) return new SetValuesError(`key map "${k}" has no value`);
        if (!empty) this.set(data, k, inner);
        return e;
      }
    }
  }

  /** A JSON value after '=' (--set-json): empty is null; then spaces and one comma are skipped. */
  private jsonValue(store: (v: GoValue) => void): Failure | undefined {
    if (this.emptyVal()) {
      store(null);
      return undefined;
    }
    const end = jsonValueEnd(this.src, this.pos);
    let v: GoValue;
    try {
      v = goJsonUnmarshal(this.src.slice(this.pos, end));
    } catch (e) {
      if (e instanceof GoJsonError) return new SetValuesError(e.message);
      throw e;
    }
    store(v);
    this.pos = end;
    this.emptyVal();
    return undefined;
  }

  /** emptyVal: spaces up to a comma or the end (consumed) mean no value; anything else is left. */
  private emptyVal(): boolean {
    for (;;) {
      const start = this.pos;
      const r = this.readRune();
      if (r === undefined || r === ',') return true;
      if (!/^\s$/u.test(r)) {
        this.pos = start;
        return false;
      }
    }
  }

  private keyIndex(): number | Failure {
    const { v, eof } = this.runesUntil(']');
    if (eof) return EOF;
    // strconv.Atoi
    if (!/^[+-]?[0-9]+$/.test(v)) return new SetValuesError(`strconv.Atoi: parsing ${JSON.stringify(v)}: invalid syntax`);
    const n = BigInt(v);
    if (n < -(2n ** 63n) || n >= 2n ** 63n) return new SetValuesError(`strconv.Atoi: parsing ${JSON.stringify(v)}: value out of range`);
    return Number(n);
  }

  private setIndex(list: GoValue[], index: number, val: GoValue): { list: GoValue[]; err?: Failure } {
    if (index < 0) return { list, err: new SetValuesError(`negative ${index} index not allowed`) };
    if (index > MAX_INDEX) return { list, err: new SetValuesError(`index of ${index} is greater than maximum supported index of ${MAX_INDEX}`) };
    // a longer slice, filled with nil: Go copies it into a new one at every growth; here the list
    // grows in place (no one else holds it), so a[0]=..., a[1]=..., a[20000]=... is not quadratic
    while (list.length <= index) list.push(null);
    list[index] = val;
    return { list };
  }

  private listItem(list: GoValue[], i: number, level: number): { list: GoValue[]; err?: Failure } {
    if (i < 0) return { list, err: new SetValuesError(`negative ${i} index not allowed`) };
    const { v: k, last, eof } = this.runesUntil('[.=');
    if (k.length > 0) return { list, err: new SetValuesError(`unexpected data at end of array index: ${JSON.stringify(k)}`) };
    if (eof) return { list, err: EOF };
    switch (last) {
      case '=': {
        if (this.literal) return this.setIndex(list, i, this.runesUntil('').v);
        if (this.reader === undefined) {
          let out: { list: GoValue[]; err?: Failure } = { list };
          const e = this.jsonValue((v) => (out = this.setIndex(list, i, v)));
          return e === undefined ? out : { list: out.list, err: e };
        }
        const vl = this.valList();
        if (Array.isArray(vl)) return this.setIndex(list, i, vl);
        if (vl === EOF) return this.setIndex(list, i, '');
        if (vl === NOT_LIST) return this.setIndex(list, i, this.reader(this.runesUntil(',').v));
        return { list, err: vl };
      }
      case '[': {
        const next = this.keyIndex();
        if (typeof next !== 'number') return { list, err: new SetValuesError(`error parsing index: ${next === EOF ? 'EOF' : next.message}`) };
        let cur: GoValue[] = [];
        if (list.length > i && list[i] !== null && list[i] !== undefined) cur = assertList(list[i]);
        const r = this.listItem(cur, next, level);
        if (r.err !== undefined) return { list, err: r.err };
        return this.setIndex(list, i, r.list);
      }
      default: {
        // '.'
        let inner = newMap();
        if (list.length > i) {
          const cur = list[i];
          if (isMap(cur)) inner = cur;
          else list[i] = inner;
        }
        const e = this.key(inner, level);
        if (e !== undefined) return { list, err: e };
        return this.setIndex(list, i, inner);
      }
    }
  }

  /** valList: `{a,b}` as a list; NOT_LIST when the value does not start with '{'. */
  private valList(): GoValue[] | Failure | typeof NOT_LIST {
    const start = this.pos;
    const r = this.readRune();
    if (r === undefined) return EOF;
    if (r !== '{') {
      this.pos = start;
      return NOT_LIST;
    }
    const list: GoValue[] = [];
    for (;;) {
      const { v, last, eof } = this.runesUntil(',}');
      if (eof) return new SetValuesError("list must terminate with '}'");
      if (last === '}') {
        if (this.src[this.pos] === ',') this.pos++;
        list.push(this.reader!(v));
        return list;
      }
      list.push(this.reader!(v));
    }
  }
}

/**
 * One command-line value text parsed into dest (changed in place), as Helm's --set (kind 'set') and
 * its siblings do. readFile gives --set-file's text of a path. Throws SetValuesError.
 */
export function parseInto(dest: GoMap, text: string, kind: SetKind, readFile?: (path: string) => string): void {
  switch (kind) {
    case 'set':
      return new Parser(text, dest, (v) => typedVal(v, false, int64)).parse();
    case 'set-string':
      return new Parser(text, dest, (v) => v).parse();
    case 'set-json':
      return new Parser(text, dest, undefined).parse();
    case 'set-file':
      return new Parser(text, dest, (p) => readFile!(p)).parse();
    case 'set-literal':
      return new Parser(text, dest, (v) => v, false, true).parse();
  }
}

/** Apply one `--set` (or `--set-string` when asString) argument to JSON values (a new object is
 *  returned; integers are plain numbers). With keepNull, `k=null` stores null, as Helm does before a
 *  chart's defaults are coalesced; without it the key is deleted at once. */
export function applySet(values: JsonObject, arg: string, asString = false, keepNull = false): JsonObject {
  const out = clone(values) as unknown as GoMap;
  new Parser(arg, out, (v) => typedVal(v, asString, (n) => Number(n)), !keepNull).parse();
  return out as unknown as JsonObject;
}

export type { Json };
