// The batch protocol shared with the Go vector tool (tools/gorender): one case in, one result out, so
// the TypeScript engine and Go's text/template can be run over the same corpus and diffed.
//
//   case:   {"name","template","data","dataInt","funcs","defs":{name:text},"option":string|[string],"fixture","delims"}
//   result: {"name","output","error","phase":"parse"|"exec"|null}

import { Template } from './template/index.js';
import { ExecError, ParseError } from './template/errors.js';
import { newMap, type FuncMap, type GoValue } from './template/value.js';
import { funcSet, type FuncSetName } from './funcs/index.js';

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
    if (c.delims) t.delims(c.delims[0], c.delims[1]);
    if (options.length > 0) t.option(...options);
    t.funcs(caseFuncs(c, t, options, opts));
  } catch (e) {
    res.error = message(e);
    return res;
  }

  try {
    t.parse(c.template);
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

// A byte that is not valid UTF-8 is held as a lone surrogate U+DC80..U+DCFF (see template/strconv.ts);
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

/** Go's encoding/json decoding into interface{}; with dataInt, integral numbers become int. */
export function fromJSON(v: unknown, dataInt = false): GoValue {
  if (v === undefined || v === null) return null;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      if (dataInt && Number.isInteger(v) && v >= -9223372036854775808 && v < 9223372036854775808) return BigInt(v);
      return v;
  }
  if (Array.isArray(v)) return v.map((x) => fromJSON(x, dataInt));
  if (typeof v === 'object') {
    const m = newMap();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) m[k] = fromJSON(x, dataInt);
    return m;
  }
  throw new Error(`unsupported data value of type ${typeof v}`);
}

/** Go sorts strings by bytes; for UTF-16 that is code point order, not code unit order. */
function byBytes(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return Buffer.compare(x, y);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Run JSON Lines: one result line per non-blank case line, in order. */
export function runBatch(input: string, opts: BatchOptions = {}): string {
  let out = '';
  for (const line of input.split('\n')) {
    if (line.trim() === '') continue;
    let c: BatchCase;
    try {
      c = JSON.parse(line) as BatchCase;
    } catch (e) {
      out += JSON.stringify({ name: '', output: '', error: `bad case: ${message(e)}`, phase: null }) + '\n';
      continue;
    }
    out += JSON.stringify(runCase(c, opts)) + '\n';
  }
  return out;
}
