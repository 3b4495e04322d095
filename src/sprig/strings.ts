// Sprig's string functions (strings.go and the goutils/xstrings helpers it wraps).
// Go strings are bytes: functions that index (trunc, substr, abbrev, wrap, nospace, initials)
// work on the UTF-8 encoding exactly as the Go code does.
//
// Mirrors: github.com/Masterminds/sprig/v3 {strings,functions}.go;
//          github.com/Masterminds/goutils {stringutils,wordutils}.go; github.com/huandu/xstrings convert.go
// Proven by: test/vectors/sprig/strings.jsonl, test/vectors/regress/sprig-strings.jsonl

import { sprintf } from '../go/fmt/print.js';
import { normalizeGoString } from '../go/strconv/strconv.js';
import { checkStringSize } from '../guard/limits.js';
import { def, type FuncMap, type GoValue } from '../go/reflect/value.js';
import {
  fromRunes,
  fromUtf8,
  isLetter,
  isLower,
  isNumber,
  isPunct,
  isSpace,
  isTitle,
  isUpper,
  isDigit,
  isNilIface,
  mapRunes,
  panic,
  runes,
  strval,
  table,
  toLowerRune,
  toTitleRune,
  toUpperRune,
  utf8,
  type SprigContext,
} from './util.js';

const num = (n: bigint): number => Number(n);

// ---------- Go strings package ----------

export function goRepeat(s: string, count: number): string {
  if (count < 0) panic('strings: negative Repeat count');
  if (count > 0 && s !== '') checkStringSize(Buffer.byteLength(s) * count);
  return s.repeat(count);
}

export function trimSpace(s: string): string {
  // Every Unicode space is one UTF-16 unit outside the surrogates, and a surrogate (half of a pair, or a
  // byte that is not UTF-8) is never a space: scanning units trims what Go's byte scan trims and keeps
  // such bytes as they are.
  let a = 0;
  let b = s.length;
  while (a < b && isSpaceUnit(s.charCodeAt(a))) a++;
  while (b > a && isSpaceUnit(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

function isSpaceUnit(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x80 && isSpace(c));
}

/** strings.Trim(s, cutset) */
export function trimCutset(s: string, cutset: string): string {
  if (s === '' || cutset === '') return s;
  const cut = new Set(runes(cutset));
  const rs = runes(s);
  let a = 0;
  let b = rs.length;
  while (a < b && cut.has(rs[a]!)) a++;
  while (b > a && cut.has(rs[b - 1]!)) b--;
  return fromRunes(rs.slice(a, b));
}

/** strings.Replace(s, old, new, -1), including Go's rule for an empty `old` (insert around every rune). */
export function replaceAll(s: string, old: string, rep: string): string {
  if (rep.length > old.length) checkStringSize(Buffer.byteLength(s) + occurrences(s, old) * Buffer.byteLength(rep));
  if (old === '') {
    let out = rep;
    for (const c of s) out += c + rep;
    return out;
  }
  return s.split(old).join(rep);
}

/** How many times replaceAll inserts: non-overlapping matches, or one more than the runes for "". */
function occurrences(s: string, sub: string): number {
  if (sub === '') return s.length + 1;
  let n = 0;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

/** strings.SplitN(s, sep, n) (n < 0: all). */
export function splitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const rs = Array.from(s);
    if (n < 0 || n > rs.length) return rs;
    return [...rs.slice(0, n - 1), rs.slice(n - 1).join('')];
  }
  const out: string[] = [];
  let i = 0;
  while (n < 0 || out.length < n - 1) {
    const j = s.indexOf(sep, i);
    if (j < 0) break;
    out.push(s.slice(i, j));
    i = j + sep.length;
  }
  out.push(s.slice(i));
  return out;
}

/** strings.Title */
function title(s: string): string {
  let prev = 0x20;
  return mapRunes(s, (r) => {
    const sep = isSeparator(prev);
    prev = r;
    return sep ? toTitleRune(r) : r;
  });
}

function isSeparator(r: number): boolean {
  if (r <= 0x7f) {
    if ((r >= 0x30 && r <= 0x39) || (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a) || r === 0x5f) return false;
    return true;
  }
  if (isLetter(r) || isDigit(r)) return false;
  return isSpace(r);
}

// ---------- goutils ----------

/** goutils.AbbreviateFull on bytes; errors are swallowed by Sprig (empty result). */
function abbreviateFull(str: string, offset: number, maxWidth: number): string {
  if (str === '') return '';
  if (maxWidth < 4) return '';
  const b = utf8(str);
  const len = b.length;
  if (len <= maxWidth) return str;
  if (offset > len) offset = len;
  if (len - offset < maxWidth - 3) offset = len - (maxWidth - 3);
  const marker = '...';
  if (offset <= 4) return fromUtf8(b.subarray(0, maxWidth - 3)) + marker;
  if (maxWidth < 7) return '';
  if (offset + maxWidth - 3 < len) return marker + abbreviateFull(fromUtf8(b.subarray(offset)), 0, maxWidth - 3);
  return marker + fromUtf8(b.subarray(len - (maxWidth - 3)));
}

function abbrev(width: number, s: string): string {
  if (width < 4) return s;
  return abbreviateFull(s, 0, width);
}

function abbrevboth(left: number, right: number, s: string): string {
  if (right < 4 || (left > 0 && right < 7)) return s;
  return abbreviateFull(s, left, right);
}

/** goutils reads bytes as Latin-1 runes; kept bytes are re-encoded as runes (so non-ASCII text changes). */
function latin1(bytes: number[]): string {
  return String.fromCharCode(...bytes);
}

function deleteWhiteSpace(s: string): string {
  if (s === '') return s;
  const b = utf8(s);
  const kept: number[] = [];
  for (const c of b) if (!isSpace(c)) kept.push(c);
  if (kept.length === b.length) return s;
  return latin1(kept);
}

function initials(s: string): string {
  if (s === '') return s;
  const out: number[] = [];
  let lastWasGap = true;
  for (const c of utf8(s)) {
    if (isSpace(c)) lastWasGap = true;
    else if (lastWasGap) {
      out.push(c);
      lastWasGap = false;
    }
  }
  return latin1(out);
}

function uncapitalize(s: string): string {
  if (s === '') return s;
  let next = true;
  return mapRunes(s, (r) => {
    if (isSpace(r)) {
      next = true;
      return r;
    }
    if (next) {
      next = false;
      return toLowerRune(r);
    }
    return r;
  });
}

function swapCase(s: string): string {
  if (s === '') return s;
  let whitespace = true;
  return mapRunes(s, (r) => {
    if (isUpper(r) || isTitle(r)) {
      whitespace = false;
      return toLowerRune(r);
    }
    if (isLower(r)) {
      if (whitespace) {
        whitespace = false;
        return toTitleRune(r);
      }
      return toUpperRune(r);
    }
    whitespace = isSpace(r);
    return r;
  });
}

/** goutils.WrapCustom, on bytes. */
export function wrapCustom(str: string, wrapLength: number, newLine: string, wrapLongWords: boolean): string {
  if (str === '') return '';
  if (newLine === '') newLine = '\n';
  if (wrapLength < 1) wrapLength = 1;
  const b = utf8(str);
  const nl = utf8(newLine);
  const len = b.length;
  // A line break goes in at a space or after wrapLength bytes: at most spaces + len/wrapLength of them.
  let spaces = 0;
  for (const c of b) if (c === 0x20) spaces++;
  checkStringSize(len + (spaces + Math.floor(len / wrapLength) + 1) * nl.length);
  let offset = 0;
  const out: number[] = [];
  const put = (x: Uint8Array): void => {
    for (const c of x) out.push(c);
  };
  while (len - offset > wrapLength) {
    if (b[offset] === 0x20) {
      offset++;
      continue;
    }
    const end = wrapLength + offset + 1;
    const spaceToWrapAt = b.subarray(offset, end).lastIndexOf(0x20) + offset;
    if (spaceToWrapAt >= offset) {
      put(b.subarray(offset, spaceToWrapAt));
      put(nl);
      offset = spaceToWrapAt + 1;
    } else if (wrapLongWords) {
      put(b.subarray(offset, wrapLength + offset));
      put(nl);
      offset += wrapLength;
    } else {
      const e = wrapLength + offset;
      const index = b.subarray(e).indexOf(0x20);
      if (index === -1) {
        put(b.subarray(offset));
        offset = len;
      } else {
        put(b.subarray(offset, index + e));
        put(nl);
        offset = index + e + 1;
      }
    }
  }
  put(b.subarray(offset));
  return fromUtf8(Uint8Array.from(out));
}

// ---------- xstrings ----------

const RUNE_ERROR = 0xfffd;

function isConnector(r: number): boolean {
  return r === 0x2d || r === 0x5f || isSpace(r);
}

function isAlphabet(r: number): boolean {
  if (!isLetter(r)) return false;
  if (r < 0x3400) return true;
  if (r >= 0x4e00 && r <= 0x9fcc) return false;
  if (r >= 0x3400 && r <= 0x4d85) return false;
  if (r >= 0x20000 && r <= 0x2b81d) return false;
  return true;
}

function toCamelCase(s: string): string {
  if (s === '') return '';
  const rs = runes(s);
  let i = 0;
  let out = '';
  let r0 = 0;
  let size = 0;
  while (i < rs.length) {
    r0 = rs[i++]!;
    size = 1;
    if (!isConnector(r0)) {
      r0 = toUpperRune(r0);
      break;
    }
    out += String.fromCodePoint(r0);
  }
  if (i >= rs.length) {
    if (size !== 0) out += String.fromCodePoint(r0);
    return out;
  }
  while (i < rs.length) {
    const r1 = r0;
    r0 = rs[i++]!;
    if (isConnector(r0) && isConnector(r1)) {
      out += String.fromCodePoint(r1);
      continue;
    }
    if (isConnector(r1)) r0 = toUpperRune(r0);
    else {
      r0 = toLowerRune(r0);
      out += String.fromCodePoint(r1);
    }
  }
  return out + String.fromCodePoint(r0);
}

const enum W {
  invalid,
  number,
  upper,
  alphabet,
  connector,
  punct,
  other,
}

interface Word {
  wt: W;
  word: number[];
  rest: number[];
}

function nextValidRune(s: number[], from: number, prev: number): [number, number] {
  let size = 0;
  for (let i = from; i < s.length; i++) {
    size++;
    if (s[i] !== RUNE_ERROR) return [s[i]!, size];
  }
  return [prev, size];
}

function nextWord(str: number[]): Word {
  if (str.length === 0) return { wt: W.invalid, word: [], rest: [] };
  let offset = 0;
  let rem = 0;
  let [r, size] = nextValidRune(str, 0, RUNE_ERROR);
  offset += size;
  if (r === RUNE_ERROR) return { wt: W.invalid, word: str.slice(0, offset), rest: str.slice(offset) };
  let wt: W;
  const scan = (cond: (r: number) => boolean): void => {
    rem += size;
    while (rem < str.length) {
      [r, size] = nextValidRune(str, rem, r);
      if (!cond(r)) break;
      offset += size;
      rem += size;
    }
  };
  if (isConnector(r)) {
    wt = W.connector;
    scan(isConnector);
  } else if (isPunct(r)) {
    wt = W.punct;
    scan(isPunct);
  } else if (isUpper(r)) {
    wt = W.upper;
    rem += size;
    if (rem < str.length) {
      [r, size] = nextValidRune(str, rem, r);
      if (isUpper(r)) {
        let prevSize = size;
        offset += size;
        rem += size;
        while (rem < str.length) {
          [r, size] = nextValidRune(str, rem, r);
          if (!isUpper(r)) break;
          prevSize = size;
          offset += size;
          rem += size;
        }
        if (rem < str.length && isAlphabet(r)) {
          offset -= prevSize;
          rem = offset;
        }
      } else if (isAlphabet(r)) {
        offset += size;
        rem += size;
        while (rem < str.length) {
          [r, size] = nextValidRune(str, rem, r);
          if (!isAlphabet(r) || isUpper(r)) break;
          offset += size;
          rem += size;
        }
      }
    }
  } else if (isAlphabet(r)) {
    wt = W.alphabet;
    scan((x) => isAlphabet(x) && !isUpper(x));
  } else if (isNumber(r)) {
    wt = W.number;
    scan(isNumber);
  } else {
    wt = W.other;
    rem += size;
    while (rem < str.length) {
      [r, size] = nextValidRune(str, rem, r);
      if (size === 0 || isConnector(r) || isAlphabet(r) || isNumber(r) || isPunct(r)) break;
      offset += size;
      rem += size;
    }
  }
  return { wt, word: str.slice(0, offset), rest: str.slice(rem) };
}

function lowerWord(wt: W, word: number[], connector: number): string {
  if (wt !== W.upper && wt !== W.connector) return fromRunes(word);
  let out = '';
  for (const r of word) {
    if (isConnector(r)) out += String.fromCodePoint(connector);
    else if (isUpper(r)) out += String.fromCodePoint(toLowerRune(r));
    else out += String.fromCodePoint(r);
  }
  return out;
}

function camelCaseToLowerCase(s: string, connector: number): string {
  if (s === '') return '';
  let out = '';
  const conn = String.fromCodePoint(connector);
  let st = nextWord(runes(s));
  // A function, not a variable, so the checks below are not narrowed across advance().
  const wt = (): W => st.wt;
  const advance = (): void => {
    st = nextWord(st.rest);
  };
  while (st.rest.length > 0) {
    if (wt() !== W.connector) out += lowerWord(wt(), st.word, connector);
    const prev = wt();
    const last = st.word;
    advance();
    switch (prev) {
      case W.number:
        while (wt() === W.alphabet || wt() === W.number) {
          out += lowerWord(wt(), st.word, connector);
          advance();
        }
        if (wt() !== W.invalid && wt() !== W.punct && wt() !== W.connector) out += conn;
        break;
      case W.connector:
        out += lowerWord(prev, last, connector);
        break;
      case W.punct:
        break;
      default: {
        if (wt() !== W.number) {
          if (wt() !== W.connector && wt() !== W.punct) out += conn;
          break;
        }
        if (st.rest.length === 0) break;
        const lastNum = st.word;
        advance();
        if (wt() !== W.alphabet) {
          out += lowerWord(W.number, lastNum, connector);
          if (wt() !== W.connector && wt() !== W.punct) out += conn;
          break;
        }
        out += conn;
        out += lowerWord(W.number, lastNum, connector);
        while (wt() === W.alphabet || wt() === W.number) {
          out += lowerWord(wt(), st.word, connector);
          advance();
        }
        if (wt() !== W.invalid && wt() !== W.connector && wt() !== W.punct) out += conn;
      }
    }
  }
  return out + lowerWord(wt(), st.word, connector);
}

// ---------- Sprig ----------

// Bounds stay bigint: Go prints an int64 bound in its panic exactly.
function substr(start: bigint, end: bigint, s: string): string {
  const b = utf8(s);
  const len = BigInt(b.length);
  if (start < 0n) {
    if (end < 0n) panic(`runtime error: slice bounds out of range [:${end}]`);
    if (end > len) panic(`runtime error: slice bounds out of range [:${end}] with length ${len}`);
    return fromUtf8(b.subarray(0, Number(end)));
  }
  if (end < 0n || end > len) {
    if (start > len) panic(`runtime error: slice bounds out of range [${start}:${len}]`);
    return fromUtf8(b.subarray(Number(start)));
  }
  if (start > end) panic(`runtime error: slice bounds out of range [${start}:${end}]`);
  return fromUtf8(b.subarray(Number(start), Number(end)));
}

function trunc(c: number, s: string): string {
  // ASCII: a byte is a UTF-16 unit
  if (ASCII_ONLY.test(s)) return c < 0 ? (s.length + c > 0 ? s.slice(s.length + c) : s) : s.length > c ? s.slice(0, c) : s;
  const b = utf8(s);
  if (c < 0 && b.length + c > 0) return fromUtf8(b.subarray(b.length + c));
  if (c >= 0 && b.length > c) return fromUtf8(b.subarray(0, c));
  return s;
}

function indent(spaces: number, v: string): string {
  if (spaces > 0) {
    let lines = 1;
    for (let i = v.indexOf('\n'); i >= 0; i = v.indexOf('\n', i + 1)) lines++;
    checkStringSize(Buffer.byteLength(v) + spaces * lines);
  }
  const pad = goRepeat(' ', spaces);
  return pad + v.split('\n').join('\n' + pad);
}

/** Printable ASCII but '"' and '\\': %q of such a string is the string between double quotes. */
const PLAIN_QUOTABLE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** ASCII only: a UTF-16 unit per byte, and JavaScript's case mapping is Go's. */
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** strings.ToUpper (Sprig's upper). */
export function goUpper(s: string): string {
  return ASCII_ONLY.test(s) ? s.toUpperCase() : mapRunes(s, toUpperRune);
}

/** strings.ToLower (Sprig's lower, Istio's toLower): a byte that is not UTF-8 becomes U+FFFD. */
export function goLower(s: string): string {
  return ASCII_ONLY.test(s) ? s.toLowerCase() : mapRunes(s, toLowerRune);
}

export function quote(...args: GoValue[]): string {
  // Most calls quote one plain string (a name, a port, an annotation value).
  if (args.length === 1) {
    const a = args[0];
    if (typeof a === 'string') {
      if (PLAIN_QUOTABLE.test(a)) return '"' + a + '"';
      // JSON text and the like: printable ASCII, where %q escapes only quotes and backslashes, as
      // JSON does.
      if (PRINTABLE_ASCII.test(a)) return JSON.stringify(a);
    }
  }
  const out: string[] = [];
  for (const a of args) if (!isNilIface(a)) out.push(sprintf('%q', [strval(a)]));
  return out.join(' ');
}

export function squote(...args: GoValue[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return "'" + normalizeGoString(args[0]) + "'";
  const out: string[] = [];
  for (const a of args) if (!isNilIface(a)) out.push(sprintf("'%v'", [a]));
  return out.join(' ');
}

export function cat(...args: GoValue[]): string {
  const v = args.filter((a) => !isNilIface(a));
  return sprintf(v.map(() => '%v').join(' '), v);
}

export function stringFuncs(ctx: SprigContext): FuncMap {
  const intn = (n: number): number => Math.floor(ctx.random() * n);
  const shuffle = (s: string): string => {
    if (s === '') return s;
    const rs = runes(s);
    for (let i = rs.length - 1; i > 0; i--) {
      const j = intn(i + 1);
      if (i !== j) [rs[i], rs[j]] = [rs[j]!, rs[i]!];
    }
    return fromRunes(rs);
  };
  const fns = [
    def('hello', 'func() string', () => 'Hello!'),
    def('abbrev', 'func(int, string) string', (w: bigint, s: string) => abbrev(num(w), s)),
    def('abbrevboth', 'func(int, int, string) string', (l: bigint, r: bigint, s: string) => abbrevboth(num(l), num(r), s)),
    def('trunc', 'func(int, string) string', (c: bigint, s: string) => trunc(num(c), s)),
    def('trim', 'func(string) string', trimSpace),
    def('upper', 'func(string) string', goUpper),
    def('lower', 'func(string) string', goLower),
    def('title', 'func(string) string', title),
    def('untitle', 'func(string) string', uncapitalize),
    def('substr', 'func(int, int, string) string', (a: bigint, b: bigint, s: string) => substr(a, b, s)),
    def('repeat', 'func(int, string) string', (n: bigint, s: string) => goRepeat(s, num(n))),
    def('trimall', 'func(string, string) string', (a: string, b: string) => trimCutset(b, a)),
    def('trimAll', 'func(string, string) string', (a: string, b: string) => trimCutset(b, a)),
    def('trimSuffix', 'func(string, string) string', (a: string, b: string) => (a !== '' && b.endsWith(a) ? b.slice(0, b.length - a.length) : b)),
    def('trimPrefix', 'func(string, string) string', (a: string, b: string) => (a !== '' && b.startsWith(a) ? b.slice(a.length) : b)),
    def('nospace', 'func(string) string', deleteWhiteSpace),
    def('initials', 'func(string) string', initials),
    def('swapcase', 'func(string) string', swapCase),
    def('shuffle', 'func(string) string', shuffle),
    def('snakecase', 'func(string) string', (s: string) => camelCaseToLowerCase(s, 0x5f)),
    def('camelcase', 'func(string) string', toCamelCase),
    def('kebabcase', 'func(string) string', (s: string) => camelCaseToLowerCase(s, 0x2d)),
    def('wrap', 'func(int, string) string', (l: bigint, s: string) => wrapCustom(s, num(l), '', false)),
    def('wrapWith', 'func(int, string, string) string', (l: bigint, sep: string, s: string) => wrapCustom(s, num(l), sep, true)),
    def('contains', 'func(string, string) bool', (sub: string, s: string) => s.includes(sub)),
    def('hasPrefix', 'func(string, string) bool', (sub: string, s: string) => s.startsWith(sub)),
    def('hasSuffix', 'func(string, string) bool', (sub: string, s: string) => s.endsWith(sub)),
    def('quote', 'func(...interface {}) string', quote),
    def('squote', 'func(...interface {}) string', squote),
    def('cat', 'func(...interface {}) string', cat),
    def('indent', 'func(int, string) string', (n: bigint, v: string) => indent(num(n), v)),
    def('nindent', 'func(int, string) string', (n: bigint, v: string) => '\n' + indent(num(n), v)),
    def('replace', 'func(string, string, string) string', (o: string, n: string, s: string) => replaceAll(s, o, n)),
    def('plural', 'func(string, string, int) string', (one: string, many: string, n: bigint) => (n === 1n ? one : many)),
  ];
  return table(fns);
}
