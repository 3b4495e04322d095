// Sprig's regular-expression functions (regex.go) on RE2 semantics via re2js, with Go's regexp
// iteration rules (FindAll, ReplaceAll, Split) and its $-expansion, written out here.
//
// Mirrors: github.com/Masterminds/sprig/v3 regex.go; go1.19 src/regexp/regexp.go (FindAll, ReplaceAll, Split, Expand)
// Proven by: test/vectors/sprig/regex.jsonl, test/vectors/regress/sprig-regex.jsonl

import type { RE2JS } from 're2js';
import { re2 } from './re2.js';
import { quote as goQuote } from '../go/strconv/strconv.js';
import { def, SLICE_STRING, GoNil, withType, type FuncMap } from '../go/reflect/value.js';
import { byteLen, fail, isDigit, isLetter, panic, table } from './util.js';

interface Compiled {
  re: RE2JS;
  names: Record<string, number>;
  groups: number;
}

const cache = new Map<string, Compiled>();

const RAW_BYTE = /(?<![\ud800-\udbff])[\udc80-\udcff]/;

/** regexp.Compile: the compiled pattern or Go's error text. */
function compile(expr: string): Compiled | string {
  const hit = cache.get(expr);
  if (hit) return hit;
  // A byte that is not valid UTF-8 (held as an escape surrogate): Go's parser stops there, quoting the rest.
  const bad = RAW_BYTE.exec(expr);
  if (bad) return 'error parsing regexp: invalid UTF-8: `' + expr.slice(bad.index) + '`';
  let re: RE2JS;
  try {
    re = re2().compile(expr);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  // Go 1.19 knows only (?P<name>); re2js also accepts (?<name>).
  const m = /\(\?<(?![=!])/.exec(stripEscapes(expr));
  if (m) return 'error parsing regexp: invalid or unsupported Perl syntax: `(?<`';
  const c = { re, names: re.namedGroups(), groups: re.groupCount() };
  if (cache.size > 500) cache.clear();
  cache.set(expr, c);
  return c;
}

/** The pattern with escaped characters and class contents blanked, to look for syntax outside them. */
function stripEscapes(expr: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i]!;
    if (c === '\\') {
      out += '__';
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += '_';
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (expr[i + 1] === ']') {
        out += '_';
        i++;
      }
    }
    out += c;
  }
  return out;
}

function mustCompile(expr: string): Compiled {
  const c = compile(expr);
  if (typeof c === 'string') panic(`regexp: Compile(${quoteExpr(expr)}): ${c}`);
  return c;
}

function tryCompile(expr: string): Compiled {
  const c = compile(expr);
  if (typeof c === 'string') fail(c);
  return c;
}

/** regexp's quote: backquoted when strconv.CanBackquote allows it. */
function quoteExpr(s: string): string {
  for (const ch of s) {
    const r = ch.codePointAt(0)!;
    // strconv.CanBackquote: no backquote, BOM, control character or invalid UTF-8 (an escape surrogate)
    if (r === 0x60 || r === 0xfeff || (r < 0x20 && r !== 0x09) || r === 0x7f || (r >= 0xd800 && r <= 0xdfff)) return goQuote(s);
  }
  return '`' + s + '`';
}

/** One match at or after pos: group index pairs (UTF-16 offsets), -1 for unset groups. */
function exec(c: Compiled, s: string, pos: number): number[] | undefined {
  const m = c.re.matcher(s);
  if (!m.find(pos)) return undefined;
  const out: number[] = [];
  for (let g = 0; g <= c.groups; g++) out.push(m.start(g), m.end(g));
  return out;
}

function width(s: string, pos: number): number {
  if (pos >= s.length) return 0;
  const c = s.charCodeAt(pos);
  return c >= 0xd800 && c <= 0xdbff && pos + 1 < s.length ? 2 : 1;
}

/** regexp.allMatches */
function allMatches(c: Compiled, s: string, n: number): number[][] {
  const out: number[][] = [];
  const end = s.length;
  for (let pos = 0, i = 0, prevMatchEnd = -1; i < n && pos <= end; ) {
    const m = exec(c, s, pos);
    if (!m) break;
    let accept = true;
    if (m[1] === pos) {
      if (m[0] === prevMatchEnd) accept = false;
      const w = width(s, pos);
      pos = w > 0 ? pos + w : end + 1;
    } else pos = m[1]!;
    prevMatchEnd = m[1]!;
    if (accept) {
      out.push(m);
      i++;
    }
  }
  return out;
}

function findAll(c: Compiled, s: string, n: bigint): string[] | undefined {
  const limit = n < 0n ? byteLen(s) + 1 : Number(n);
  const ms = allMatches(c, s, limit);
  if (ms.length === 0) return undefined;
  return ms.map((m) => s.slice(m[0], m[1]));
}

/** Regexp.expand for ReplaceAllString's $1, ${name} and $$. */
function expand(c: Compiled, template: string, src: string, match: number[]): string {
  let dst = '';
  while (template.length > 0) {
    const k = template.indexOf('$');
    if (k < 0) break;
    dst += template.slice(0, k);
    template = template.slice(k + 1);
    if (template.startsWith('$')) {
      dst += '$';
      template = template.slice(1);
      continue;
    }
    const x = extract(template);
    if (!x) {
      dst += '$';
      continue;
    }
    template = x.rest;
    if (x.num >= 0) {
      if (2 * x.num + 1 < match.length && match[2 * x.num]! >= 0) dst += src.slice(match[2 * x.num], match[2 * x.num + 1]);
    } else {
      const i = c.names[x.name];
      if (i !== undefined && match[2 * i]! >= 0) dst += src.slice(match[2 * i], match[2 * i + 1]);
    }
  }
  return dst + template;
}

function extract(str: string): { name: string; num: number; rest: string } | undefined {
  if (str === '') return undefined;
  let brace = false;
  if (str[0] === '{') {
    brace = true;
    str = str.slice(1);
  }
  let i = 0;
  while (i < str.length) {
    const r = str.codePointAt(i)!;
    if (!isLetter(r) && !isDigit(r) && r !== 0x5f) break;
    i += r > 0xffff ? 2 : 1;
  }
  if (i === 0) return undefined;
  const name = str.slice(0, i);
  if (brace) {
    if (i >= str.length || str[i] !== '}') return undefined;
    i++;
  }
  let num = 0;
  for (let j = 0; j < name.length; j++) {
    const ch = name.charCodeAt(j);
    if (ch < 0x30 || ch > 0x39 || num >= 1e8) {
      num = -1;
      break;
    }
    num = num * 10 + ch - 0x30;
  }
  if (name[0] === '0' && name.length > 1) num = -1;
  return { name, num, rest: str.slice(i) };
}

/** Regexp.replaceAll */
function replaceAll(c: Compiled, src: string, repl: (m: number[]) => string): string {
  let lastMatchEnd = 0;
  let searchPos = 0;
  let buf = '';
  const end = src.length;
  while (searchPos <= end) {
    const a = exec(c, src, searchPos);
    if (!a) break;
    buf += src.slice(lastMatchEnd, a[0]);
    if (a[1]! > lastMatchEnd || a[0] === 0) buf += repl(a);
    lastMatchEnd = a[1]!;
    const w = width(src, searchPos);
    if (searchPos + w > a[1]!) searchPos += w;
    else if (searchPos + 1 > a[1]!) searchPos++;
    else searchPos = a[1]!;
  }
  return buf + src.slice(lastMatchEnd);
}

/** Regexp.Split */
function split(c: Compiled, expr: string, s: string, n: bigint): string[] | undefined {
  if (n === 0n) return undefined;
  if (expr.length > 0 && s.length === 0) return [''];
  const limit = n < 0n ? byteLen(s) + 1 : Number(n);
  const matches = allMatches(c, s, limit);
  const out: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of matches) {
    if (n > 0n && out.length >= Number(n) - 1) break;
    end = m[0]!;
    if (m[1] !== 0) out.push(s.slice(beg, end));
    beg = m[1]!;
  }
  if (end !== s.length) out.push(s.slice(beg));
  return out;
}

const strs = (xs: string[] | undefined): string[] | GoNil => (xs ? withType(xs, SLICE_STRING) : new GoNil(SLICE_STRING));

export function regexFuncs(): FuncMap {
  const matchString = (c: Compiled, s: string): boolean => exec(c, s, 0) !== undefined;
  return table([
    def('regexMatch', 'func(string, string) bool', (re: string, s: string) => {
      const c = compile(re);
      return typeof c === 'string' ? false : matchString(c, s);
    }),
    def('mustRegexMatch', 'func(string, string) (bool, error)', (re: string, s: string) => matchString(tryCompile(re), s)),
    def('regexFindAll', 'func(string, string, int) []string', (re: string, s: string, n: bigint) => strs(findAll(mustCompile(re), s, n))),
    def('mustRegexFindAll', 'func(string, string, int) ([]string, error)', (re: string, s: string, n: bigint) => {
      const c = compile(re);
      if (typeof c === 'string') fail(c);
      return strs(findAll(c, s, n));
    }),
    def('regexFind', 'func(string, string) string', (re: string, s: string) => {
      const m = exec(mustCompile(re), s, 0);
      return m ? s.slice(m[0], m[1]) : '';
    }),
    def('mustRegexFind', 'func(string, string) (string, error)', (re: string, s: string) => {
      const m = exec(tryCompile(re), s, 0);
      return m ? s.slice(m[0], m[1]) : '';
    }),
    def('regexReplaceAll', 'func(string, string, string) string', (re: string, s: string, repl: string) => {
      const c = mustCompile(re);
      return replaceAll(c, s, (m) => expand(c, repl, s, m));
    }),
    def('mustRegexReplaceAll', 'func(string, string, string) (string, error)', (re: string, s: string, repl: string) => {
      const c = tryCompile(re);
      return replaceAll(c, s, (m) => expand(c, repl, s, m));
    }),
    def('regexReplaceAllLiteral', 'func(string, string, string) string', (re: string, s: string, repl: string) =>
      replaceAll(mustCompile(re), s, () => repl),
    ),
    def('mustRegexReplaceAllLiteral', 'func(string, string, string) (string, error)', (re: string, s: string, repl: string) =>
      replaceAll(tryCompile(re), s, () => repl),
    ),
    def('regexSplit', 'func(string, string, int) []string', (re: string, s: string, n: bigint) => strs(split(mustCompile(re), re, s, n))),
    def('mustRegexSplit', 'func(string, string, int) ([]string, error)', (re: string, s: string, n: bigint) =>
      strs(split(tryCompile(re), re, s, n)),
    ),
    def('regexQuoteMeta', 'func(string) string', (s: string) => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&')),
  ]);
}
