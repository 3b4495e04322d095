// The batch protocol shared with the Go vector tool (tools/gorender): one case in, one result out, so
// the TypeScript engine and Go's text/template can be run over the same corpus and diffed.
//
//   case:   {"name","template","data","dataInt","funcs","defs":{name:text},"option":string|[string],"fixture","delims"}
//   result: {"name","output","error","phase":"parse"|"exec"|null}

import { Template } from './go/text/template/template.js';
import { ExecError, ParseError } from './go/text/template/errors.js';
import { newMap, type FuncMap, type GoMap, type GoValue } from './go/reflect/value.js';
import { funcSet, type FuncSetName } from './funcs/index.js';
import { jsonTooDeep, parseJson, type JsonRawNode } from './go/encoding/json/json.js';
import { isStackOverflow } from './guard/stack.js';

export interface BatchCase {
  /** Name of the root template; it appears in every error text. */
  name: string;
  template: string;
  /** JSON data; numbers are float64 unless dataInt. */
  data?: unknown;
  /** Integral numbers in data become Go `int`. */
  dataInt?: boolean;
  funcs?: FuncSetName;
  /** Associated templates, parsed after the root in sorted name order. */
  defs?: Record<string, string>;
  option?: string | string[];
  /** A named typed Go value used instead of data (see BatchOptions.fixtures). */
  fixture?: string;
  delims?: [string, string];
}

export type BatchPhase = 'parse' | 'exec';

export interface BatchResult {
  name: string;
  output: string;
  error: string | null;
  phase: BatchPhase | null;
}

export interface BatchOptions {
  /** Typed values a case can name instead of carrying data. */
  fixtures?: Record<string, () => GoValue>;
  /** Environment for the Istio `env` function (never the process's own). */
  env?: Record<string, string>;
}

/** Run one case exactly as tools/gorender does. Never throws for problems of the case itself. */
export function runCase(c: BatchCase, opts: BatchOptions = {}): BatchResult {
  const res: BatchResult = { name: c.name, output: '', error: null, phase: null };
  let data: GoValue;
  let options: string[];
  try {
    data = caseData(c, opts);
    options = c.option === undefined || c.option === null ? [] : Array.isArray(c.option) ? c.option : [c.option];
  } catch (e) {
    res.error = message(e);
    return res;
  }

  let t: Template;
  try {
    t = new Template(c.name);
    // as tools/gorender: only a pair sets the delimiters
    if (c.delims && c.delims.length === 2) t.delims(c.delims[0], c.delims[1]);
    if (options.length > 0) t.option(...options);
    t.funcs(caseFuncs(c, t, options, opts));
  } catch (e) {
    res.error = message(e);
    return res;
  }

  try {
    t.parse(c.template ?? '');
    for (const n of Object.keys(c.defs ?? {}).sort(byBytes)) t.new(n).parse(c.defs![n]!);
  } catch (e) {
    res.error = message(e);
    if (e instanceof ParseError) res.phase = 'parse';
    return res;
  }

  try {
    res.output = t.execute(data);
  } catch (e) {
    res.error = message(e);
    if (e instanceof ExecError) {
      res.phase = 'exec';
      res.output = e.output;
    }
  }
  res.output = asJsonText(res.output);
  if (res.error !== null) res.error = asJsonText(res.error);
  return res;
}

// A byte that is not valid UTF-8 is held as a lone surrogate U+DC80..U+DCFF (see go/strconv/strconv.ts);
// Go's encoding/json writes each such byte as U+FFFD, and the protocol is Go's JSON.
const INVALID_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g;
function asJsonText(s: string): string {
  return s.replace(INVALID_BYTE, '\uFFFD');
}

function caseFuncs(c: BatchCase, t: Template, options: string[], opts: BatchOptions): FuncMap {
  const name = c.funcs ?? 'builtin';
  if (!['builtin', 'sprig', 'helm', 'istio'].includes(name)) throw new Error(`unknown function set "${name}"`);
  return funcSet(name, { template: t, strict: options.includes('missingkey=error'), env: opts.env ?? {} });
}

function caseData(c: BatchCase, opts: BatchOptions): GoValue {
  if (c.fixture) {
    const f = opts.fixtures && Object.prototype.hasOwnProperty.call(opts.fixtures, c.fixture) ? opts.fixtures[c.fixture] : undefined;
    if (!f) throw new Error(`unknown fixture "${c.fixture}"`);
    return f();
  }
  return fromJSON(c.data, c.dataInt ?? false);
}

/**
 * Data read from a case line's own text with dataInt: an integer literal keeps its exact value (JSON.parse
 * would round 9007199254740993 to a float64 first).
 */
export class ExactData {
  constructor(readonly value: GoValue) {}
}

/**
 * Go's encoding/json decoding into interface{}; with dataInt, integral numbers become int. A loop with
 * its own stack, not recursion: data nested deeper than the JavaScript stack reaches the template
 * (which runs it on a big stack where needed) instead of failing here.
 */
export function fromJSON(v: unknown, dataInt = false): GoValue {
  const work: Array<{ from: unknown[] | Record<string, unknown>; to: GoValue[] | GoMap }> = [];
  const one = (x: unknown): GoValue => {
    if (x === undefined || x === null) return null;
    if (x instanceof ExactData) return x.value;
    switch (typeof x) {
      case 'string':
      case 'boolean':
        return x;
      case 'number':
        if (dataInt && Number.isInteger(x) && x >= -9223372036854775808 && x < 9223372036854775808) return BigInt(x);
        return x;
    }
    if (Array.isArray(x)) {
      const to: GoValue[] = new Array(x.length);
      work.push({ from: x, to });
      return to;
    }
    if (typeof x === 'object') {
      const to = newMap();
      work.push({ from: x as Record<string, unknown>, to });
      return to;
    }
    throw new Error(`unsupported data value of type ${typeof x}`);
  };
  const root = one(v);
  for (let w = work.pop(); w; w = work.pop()) {
    const { from, to } = w;
    if (Array.isArray(from)) for (let i = 0; i < from.length; i++) (to as GoValue[])[i] = one(from[i]);
    else for (const [k, x] of Object.entries(from)) (to as GoMap)[k] = one(x);
  }
  return root;
}

/** Go sorts strings by bytes; for UTF-16 that is code point order, not code unit order. */
function byBytes(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return Buffer.compare(x, y);
}

function message(e: unknown): string {
  // noted, so that the command line runs the case again on a big stack (guard/stack.ts)
  isStackOverflow(e);
  return e instanceof Error ? e.message : String(e);
}

/** A number literal read as Go's dataInt does: an int64 literal exactly, another integral one through float64. */
function exactNumber(text: string): GoValue {
  if (/^-?(0|[1-9]\d*)$/.test(text)) {
    const i = BigInt(text);
    if (i === BigInt.asIntN(64, i)) return i;
  }
  return fromJSON(Number(text), true);
}

function fromRaw(n: JsonRawNode): GoValue {
  if (n === null || typeof n === 'string' || typeof n === 'boolean') return n;
  if (Array.isArray(n)) return n.map(fromRaw);
  if ('numberText' in n) return exactNumber(n.numberText);
  const m = newMap();
  for (const [k, x] of n.entries) m[k] = fromRaw(x);
  return m;
}

// The protocol's fields and the Go types tools/gorender decodes them into; a field of another JSON type
// is json.Unmarshal's error, as Go reports it.
const FIELD_TYPES: Record<string, 'string' | 'bool' | 'map[string]string' | '[]string'> = {
  name: 'string',
  template: 'string',
  funcs: 'string',
  fixture: 'string',
  dataInt: 'bool',
  defs: 'map[string]string',
  delims: '[]string',
};

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

function typeMismatch(c: Record<string, unknown>): string | undefined {
  for (const [k, v] of Object.entries(c)) {
    const want = Object.hasOwn(FIELD_TYPES, k) ? FIELD_TYPES[k]! : undefined;
    if (want === undefined || v === null) continue;
    const bad = (kind: string, type: string) => `json: cannot unmarshal ${kind} into Go struct field batchCase.${k} of type ${type}`;
    const kind = jsonKind(v);
    if (want === 'string' && kind !== 'string') return bad(kind, 'string');
    if (want === 'bool' && kind !== 'bool') return bad(kind, 'bool');
    if (want === 'map[string]string' || want === '[]string') {
      const items = want === '[]string' ? (kind === 'array' ? (v as unknown[]) : undefined) : kind === 'object' ? Object.values(v as object) : undefined;
      if (!items) return bad(kind, want);
      const item = items.find((x) => x !== null && typeof x !== 'string');
      if (item !== undefined) return bad(jsonKind(item), 'string');
    }
  }
  if (c['option'] !== undefined && c['option'] !== null && typeof c['option'] !== 'string') {
    const o = c['option'];
    if (!Array.isArray(o)) return `bad option: json: cannot unmarshal ${jsonKind(o)} into Go value of type []string`;
    const item = o.find((x) => x !== null && typeof x !== 'string');
    if (item !== undefined) return `bad option: json: cannot unmarshal ${jsonKind(item)} into Go value of type string`;
  }
  return undefined;
}

/**
 * One line of the protocol as tools/gorender decodes it: the case, or the result line of a line that is
 * not one (not JSON, or a field of the wrong JSON type, with Go's error text).
 */
export function parseCaseLine(line: string): { case: BatchCase } | { result: BatchResult } {
  const bad = (error: string, name = '') => ({ result: { name, output: '', error, phase: null } });
  let c: unknown;
  try {
    c = JSON.parse(line);
  } catch (e) {
    return bad(`bad case: ${message(e)}`);
  }
  // encoding/json's scanner refuses nesting past 10,000 levels (the case object is one)
  const deep = jsonTooDeep(line, 10_000);
  if (deep >= 0) return bad(`bad case: invalid character '${line[deep]}' exceeded max depth`);
  if (c === null || typeof c !== 'object' || Array.isArray(c)) {
    return bad(`bad case: json: cannot unmarshal ${jsonKind(c)} into Go value of type main.batchCase`);
  }
  // encoding/json matches a field name without regard to case when no field has it exactly
  const fields = ['name', 'template', 'data', 'dataInt', 'funcs', 'defs', 'option', 'fixture', 'delims', 'goVersion', 'expect'];
  const named: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c as Record<string, unknown>)) {
    const f = fields.includes(k) ? k : fields.find((x) => x.toLowerCase() === k.toLowerCase());
    if (f !== undefined) named[f] = v;
  }
  c = named;
  const mismatch = typeMismatch(c as Record<string, unknown>);
  if (mismatch !== undefined) {
    // Go decodes the option after the case, so its error comes with the case's name
    // encoding/json decodes the fields around one of the wrong type, so the case keeps its name (when
    // that is the string), and Go decodes the option after the case, so its error comes with it too
    const name = typeof (c as BatchCase).name === 'string' ? (c as BatchCase).name : '';
    return mismatch.startsWith('bad option') ? bad(mismatch, String((c as BatchCase).name ?? '')) : bad(`bad case: ${mismatch}`, name);
  }
  const bc = c as BatchCase;
  // null is Go's zero value: "" for the strings, no definitions
  for (const k of ['name', 'template', 'funcs', 'fixture', 'defs', 'delims'] as const) if (bc[k] === null) delete bc[k];
  if (bc.defs) for (const k of Object.keys(bc.defs)) bc.defs[k] ??= '';
  if (Array.isArray(bc.option)) bc.option = bc.option.map((o) => o ?? '');
  if (bc.delims) bc.delims = bc.delims.map((d) => d ?? '') as [string, string];
  if (bc.dataInt && bc.data !== undefined && bc.data !== null) {
    const raw = parseJson(Buffer.from(line, 'utf8'), true).value as { entries: [string, JsonRawNode][] };
    const entry = raw.entries.filter(([k]) => k.toLowerCase() === 'data').pop();
    if (entry) bc.data = new ExactData(fromRaw(entry[1]));
  }
  return { case: bc };
}

/** One line of the protocol to its result line (without the newline), as tools/gorender answers it. */
export function runLine(line: string, opts: BatchOptions = {}): string {
  const p = parseCaseLine(line);
  return JSON.stringify('result' in p ? p.result : runCase(p.case, opts));
}

/** Run JSON Lines: one result line per non-blank case line, in order. */
export function runBatch(input: string, opts: BatchOptions = {}): string {
  let out = '';
  for (const line of input.split('\n')) {
    if (line.trim() === '') continue;
    out += runLine(line, opts) + '\n';
  }
  return out;
}
