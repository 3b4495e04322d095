// The pieces of Go's strconv the parser and error texts need: Quote, Unquote, UnquoteChar and %#U.
//
// Mirrors: go1.19 src/strconv/{quote,isprint}.go; go1.19 src/fmt/format.go (fmtUnicode, for %#U)
// Proven by: test/vectors/template/lex-literals.jsonl, test/vectors/template/parse-errors.jsonl

import { fromGoBytes } from './strconv.js';

const PRINT_RE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isPrint(r: number): boolean {
  if (r < 0x80) return r >= 0x20 && r < 0x7f;
  if (r >= 0xd800 && r <= 0xdfff) return false;
  return PRINT_RE.test(String.fromCodePoint(r));
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** strconv.Quote (ASCII-only = false). */
export function goQuote(s: string, quote = '"'): string {
  let out = quote;
  for (let i = 0; i < s.length; i++) {
    let r = s.codePointAt(i)!;
    if (r > 0xffff) i++;
    else if (r >= 0xd800 && r <= 0xdfff) r = 0xfffd;
    out += escapeRune(r, quote);
  }
  return out + quote;
}

function escapeRune(r: number, quote: string): string {
  const c = String.fromCodePoint(r);
  if (c === quote || c === '\\') return '\\' + c;
  if (isPrint(r)) return c;
  switch (r) {
    case 7:
      return '\\a';
    case 8:
      return '\\b';
    case 12:
      return '\\f';
    case 10:
      return '\\n';
    case 13:
      return '\\r';
    case 9:
      return '\\t';
    case 11:
      return '\\v';
  }
  if (r < 0x20 || r === 0x7f) return '\\x' + hex(r, 2);
  if (r < 0x10000) return '\\u' + hex(r, 4);
  return '\\U' + hex(r, 8);
}

/** strconv.QuoteRune. */
export function goQuoteRune(r: number): string {
  return "'" + escapeRune(r, "'") + "'";
}

/** fmt's %#U: U+0041 'A' (the character only when printable). */
export function formatU(r: number): string {
  const u = 'U+' + r.toString(16).toUpperCase().padStart(4, '0');
  return isPrint(r) ? `${u} '${String.fromCodePoint(r)}'` : u;
}

/** fmt's %.Nq: quote the first N runes. */
export function quotePrefix(s: string, n: number): string {
  const runes = Array.from(s);
  return goQuote(runes.length > n ? runes.slice(0, n).join('') : s);
}

export class SyntaxError_ extends Error {
  constructor() {
    super('invalid syntax');
  }
}

function isHex(c: string): boolean {
  return /^[0-9a-fA-F]$/.test(c);
}

/** Bytes from \x and octal escapes are gathered and decoded as Go does; invalid UTF-8 is kept as escaped bytes (strconv.ts). */
function flushBytes(bytes: number[]): string {
  if (bytes.length === 0) return '';
  const s = fromGoBytes(bytes);
  bytes.length = 0;
  return s;
}

/**
 * strconv.UnquoteChar on s starting at i: returns the decoded rune (or byte when `isByte`) and the next index.
 * Throws SyntaxError_ on a bad escape.
 */
export function unquoteChar(s: string, i: number, quote: string): { r: number; isByte: boolean; next: number } {
  const c = s.codePointAt(i)!;
  const ch = String.fromCodePoint(c);
  if (ch === quote && (quote === "'" || quote === '"')) throw new SyntaxError_();
  if (ch !== '\\') return { r: c, isByte: false, next: i + ch.length };
  if (i + 1 >= s.length) throw new SyntaxError_();
  const e = s[i + 1]!;
  let j = i + 2;
  switch (e) {
    case 'a':
      return { r: 7, isByte: false, next: j };
    case 'b':
      return { r: 8, isByte: false, next: j };
    case 'f':
      return { r: 12, isByte: false, next: j };
    case 'n':
      return { r: 10, isByte: false, next: j };
    case 'r':
      return { r: 13, isByte: false, next: j };
    case 't':
      return { r: 9, isByte: false, next: j };
    case 'v':
      return { r: 11, isByte: false, next: j };
    case 'x':
    case 'u':
    case 'U': {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      if (j + n > s.length) throw new SyntaxError_();
      let v = 0;
      for (let k = 0; k < n; k++) {
        const d = s[j + k]!;
        if (!isHex(d)) throw new SyntaxError_();
        v = v * 16 + parseInt(d, 16);
      }
      j += n;
      if (e === 'x') return { r: v, isByte: true, next: j };
      if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) throw new SyntaxError_();
      return { r: v, isByte: false, next: j };
    }
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7': {
      let v = 0;
      j = i + 1;
      if (j + 3 > s.length) throw new SyntaxError_();
      for (let k = 0; k < 3; k++) {
        const d = s.charCodeAt(j + k) - 48;
        if (d < 0 || d > 7) throw new SyntaxError_();
        v = v * 8 + d;
      }
      if (v > 255) throw new SyntaxError_();
      return { r: v, isByte: true, next: j + 3 };
    }
    case '\\':
      return { r: 92, isByte: false, next: j };
    case "'":
    case '"':
      if (e !== quote) throw new SyntaxError_();
      return { r: e.charCodeAt(0), isByte: false, next: j };
    default:
      throw new SyntaxError_();
  }
}

/** strconv.Unquote for "...", `...` and '...'. Throws SyntaxError_. */
export function goUnquote(s: string): string {
  if (s.length < 2) throw new SyntaxError_();
  const q = s[0]!;
  if (q !== s[s.length - 1]) throw new SyntaxError_();
  const body = s.slice(1, -1);
  if (q === '`') {
    if (body.includes('`')) throw new SyntaxError_();
    return body.includes('\r') ? body.replace(/\r/g, '') : body;
  }
  if (q !== '"' && q !== "'") throw new SyntaxError_();
  if (body.includes('\n')) throw new SyntaxError_();
  if (!body.includes('\\') && !body.includes(q)) {
    if (q === '"') return body;
    if (Array.from(body).length === 1) return body;
    throw new SyntaxError_();
  }
  let out = '';
  const bytes: number[] = [];
  let i = 0;
  let count = 0;
  while (i < body.length) {
    const { r, isByte, next } = unquoteChar(body, i, q);
    if (isByte) bytes.push(r);
    else {
      out += flushBytes(bytes) + String.fromCodePoint(r);
    }
    i = next;
    count++;
  }
  out += flushBytes(bytes);
  if (q === "'" && count !== 1) throw new SyntaxError_();
  return out;
}
