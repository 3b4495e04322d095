// Go's strconv, as far as fmt and the template functions need it: float and integer formatting,
// quoting, and unicode.IsPrint. Output is byte-for-byte what Go 1.19 produces.
//
// Go strings are byte strings; ours are JS strings. Valid UTF-8 maps to the same code points.
// A byte that is not part of valid UTF-8 (Go "\xff") is held as the lone surrogate U+DC00+byte
// (the "surrogateescape" convention), so a byte string survives the round trip
// goBytes(fromGoBytes(b)) unchanged and every invalid byte counts as one rune, as in Go.
//
// Mirrors: go1.19 src/strconv/{ftoa,itoa,quote,isprint,atoi}.go; go1.19 src/unicode/utf8/utf8.go
// Proven by: test/vectors/fmt/, test/template/fmt.cases.jsonl

// ---------- Go strings as bytes ----------

const ESCAPE_BASE = 0xdc00;
const utf8Encoder = new TextEncoder();

/** The bytes of a Go string held as a JS string. */
export function goBytes(s: string): Uint8Array {
  if (s.isWellFormed()) return utf8Encoder.encode(s);
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    } else if (c >= 0xdc80 && c <= 0xdcff) {
      out.push(c - ESCAPE_BASE);
      continue;
    }
    // Any other lone surrogate is not a rune Go can hold; Go's string(rune) gives U+FFFD.
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    pushRune(out, c);
  }
  return Uint8Array.from(out);
}

function pushRune(out: number[], c: number): void {
  if (c < 0x80) out.push(c);
  else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
  else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
}

/** Decode one rune as Go's utf8.DecodeRune: [rune, width]; an invalid byte gives [-1, 1]. */
export function decodeRune(b: ArrayLike<number>, i: number): [number, number] {
  const n = b.length - i;
  const c0 = b[i]!;
  if (c0 < 0x80) return [c0, 1];
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => k < n && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c0 >= 0xc2 && c0 <= 0xdf) {
    if (cont(1)) return [((c0 & 0x1f) << 6) | (b[i + 1]! & 0x3f), 2];
  } else if (c0 >= 0xe0 && c0 <= 0xef) {
    const lo = c0 === 0xe0 ? 0xa0 : 0x80;
    const hi = c0 === 0xed ? 0x9f : 0xbf;
    if (cont(1, lo, hi) && cont(2)) return [((c0 & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f), 3];
  } else if (c0 >= 0xf0 && c0 <= 0xf4) {
    const lo = c0 === 0xf0 ? 0x90 : 0x80;
    const hi = c0 === 0xf4 ? 0x8f : 0xbf;
    if (cont(1, lo, hi) && cont(2) && cont(3)) {
      return [((c0 & 0x07) << 18) | ((b[i + 1]! & 0x3f) << 12) | ((b[i + 2]! & 0x3f) << 6) | (b[i + 3]! & 0x3f), 4];
    }
  }
  return [-1, 1];
}

/** The JS string holding a Go byte string (invalid bytes become escape surrogates). */
export function fromGoBytes(b: ArrayLike<number>): string {
  let out = '';
  let run: number[] = [];
  for (let i = 0; i < b.length; ) {
    const [r, w] = decodeRune(b, i);
    run.push(r < 0 ? ESCAPE_BASE + b[i]! : r);
    if (run.length >= 4096) {
      out += String.fromCodePoint(...run);
      run = [];
    }
    i += w;
  }
  return out + String.fromCodePoint(...run);
}

/** Re-decode a string whose escaped bytes may now form valid UTF-8 (after concatenation). */
export function normalizeGoString(s: string): string {
  // A valid surrogate pair decodes to itself, so only a lone surrogate can change.
  return s.isWellFormed() ? s : fromGoBytes(goBytes(s));
}

/** Go's len(s): the number of bytes. */
export function byteLength(s: string): number {
  return s.isWellFormed() ? Buffer.byteLength(s, 'utf8') : goBytes(s).length;
}

/** Go's utf8.RuneCountInString. */
export function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The runes of a Go string; an invalid byte is reported as -1 with its byte value. */
export function* runes(s: string): Generator<{ r: number; byte: number }> {
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        yield { r: 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00), byte: 0 };
        i++;
        continue;
      }
    }
    if (c >= 0xdc80 && c <= 0xdcff) {
      yield { r: -1, byte: c - ESCAPE_BASE };
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    yield { r: c, byte: 0 };
  }
}

/** Go's utf8.ValidRune. */
export function validRune(r: number): boolean {
  return (r >= 0 && r < 0xd800) || (r > 0xdfff && r <= 0x10ffff);
}

/** The string of one rune, as Go's string(rune): invalid runes become U+FFFD. */
export function runeString(r: number): string {
  return String.fromCodePoint(validRune(r) ? r : 0xfffd);
}

// ---------- unicode.IsPrint ----------

let printBounds: Uint32Array | undefined;

/** Go's strconv.IsPrint (letters, marks, numbers, punctuation, symbols and U+0020). */
export function isPrint(r: number): boolean {
  if (r >= 0x20 && r < 0x7f) return true;
  if (r < 0 || r > 0x10ffff) return false;
  if (!printBounds) {
    const runs = NOT_PRINT_RUNS.split(',').map((x) => parseInt(x, 36));
    printBounds = new Uint32Array(runs.length);
    let at = 0;
    runs.forEach((n, i) => {
      at += n;
      printBounds![i] = at;
    });
  }
  // printBounds[i] is the end of run i; runs alternate non-printable, printable, ...
  let lo = 0;
  let hi = printBounds.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (printBounds[mid]! > r) hi = mid;
    else lo = mid + 1;
  }
  return lo % 2 === 1;
}

// ---------- quoting ----------

const lowerhex = '0123456789abcdef';

function hexN(v: number, n: number): string {
  let s = '';
  for (let sh = (n - 1) * 4; sh >= 0; sh -= 4) s += lowerhex[Math.floor(v / 2 ** sh) & 0xf];
  return s;
}

function escapedRune(r: number, quote: string, asciiOnly: boolean): string {
  const q = quote.charCodeAt(0);
  if (r === q || r === 0x5c) return '\\' + String.fromCharCode(r);
  if (asciiOnly) {
    if (r < 0x80 && isPrint(r)) return String.fromCharCode(r);
  } else if (isPrint(r)) {
    return String.fromCodePoint(r);
  }
  switch (r) {
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x0b:
      return '\\v';
  }
  if (r < 0x20 || r === 0x7f) return '\\x' + hexN(r, 2);
  if (!validRune(r)) r = 0xfffd;
  if (r < 0x10000) return '\\u' + hexN(r, 4);
  return '\\U' + hexN(r, 8);
}

// Printable ASCII needs no escapes but the quote and the backslash: the common case, without the rune walk.
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

function quoteWith(s: string, quote: string, asciiOnly: boolean): string {
  if (PLAIN_ASCII.test(s) && !s.includes(quote) && !s.includes('\\')) return quote + s + quote;
  let out = quote;
  for (const { r, byte } of runes(normalizeGoString(s))) {
    out += r < 0 ? '\\x' + hexN(byte, 2) : escapedRune(r, quote, asciiOnly);
  }
  return out + quote;
}

/** strconv.Quote */
export function quote(s: string): string {
  return quoteWith(s, '"', false);
}

/** strconv.QuoteToASCII */
export function quoteToASCII(s: string): string {
  return quoteWith(s, '"', true);
}

/** strconv.QuoteRune */
export function quoteRune(r: number): string {
  return "'" + escapedRune(validRune(r) ? r : 0xfffd, "'", false) + "'";
}

/** strconv.QuoteRuneToASCII */
export function quoteRuneToASCII(r: number): string {
  return "'" + escapedRune(validRune(r) ? r : 0xfffd, "'", true) + "'";
}

/** strconv.CanBackquote */
export function canBackquote(s: string): boolean {
  for (const { r } of runes(normalizeGoString(s))) {
    if (r < 0) return false;
    if (r >= 0x80) {
      if (r === 0xfeff) return false;
      continue;
    }
    if ((r < 0x20 && r !== 0x09) || r === 0x60 || r === 0x7f) return false;
  }
  return true;
}

// ---------- integers ----------

/** strconv.FormatInt / FormatUint (base 2..36, lower-case digits). */
export function formatInt(v: bigint | number, base = 10): string {
  if (base < 2 || base > 36) throw new Error('strconv: illegal AppendInt/FormatInt base');
  return (typeof v === 'bigint' ? v : BigInt(Math.trunc(v))).toString(base);
}

/** strconv.Itoa */
export function itoa(v: bigint | number): string {
  return formatInt(v, 10);
}

// ---------- floats ----------

/** A decimal number 0.d[0]d[1]... × 10^dp with no trailing zeros in d; zero is d = ''. */
interface Digits {
  d: string;
  dp: number;
}

interface FloatInfo {
  mantbits: number;
  expbits: number;
  bias: number;
}

const FLOAT32: FloatInfo = { mantbits: 23, expbits: 8, bias: -127 };
const FLOAT64: FloatInfo = { mantbits: 52, expbits: 11, bias: -1023 };

const bitsView = new DataView(new ArrayBuffer(8));

function float64Bits(f: number): bigint {
  bitsView.setFloat64(0, f);
  return bitsView.getBigUint64(0);
}

function float32Bits(f: number): bigint {
  bitsView.setFloat32(0, f);
  return BigInt(bitsView.getUint32(0));
}

function trimZeros(d: string, dp: number): Digits {
  let n = d.length;
  while (n > 0 && d.charCodeAt(n - 1) === 48) n--;
  return n === 0 ? { d: '', dp: 0 } : { d: d.slice(0, n), dp };
}

/** The exact decimal expansion of mant × 2^e2 (every binary float has a finite one). */
function exactDigits(mant: bigint, e2: number): Digits {
  if (mant === 0n) return { d: '', dp: 0 };
  if (e2 >= 0) {
    const s = (mant << BigInt(e2)).toString();
    return trimZeros(s, s.length);
  }
  // mant / 2^k = mant × 5^k / 10^k
  const k = -e2;
  const s = (mant * 5n ** BigInt(k)).toString();
  return trimZeros(s, s.length - k);
}

/** Round to nd digits, half to even (the expansion is exact, so a tie is a real tie). */
function roundDigits(x: Digits, nd: number): Digits {
  const { d, dp } = x;
  if (nd < 0 || nd >= d.length) return x;
  const c = d.charCodeAt(nd);
  let up: boolean;
  if (c === 53 /* 5 */ && nd + 1 === d.length) up = nd > 0 && (d.charCodeAt(nd - 1) - 48) % 2 === 1;
  else up = c >= 53;
  if (!up) return trimZeros(d.slice(0, nd), dp);
  for (let i = nd - 1; i >= 0; i--) {
    const ci = d.charCodeAt(i);
    if (ci < 57) return { d: d.slice(0, i) + String.fromCharCode(ci + 1), dp };
  }
  return { d: '1', dp: dp + 1 };
}

/** Shortest digits that read back as the same float64, closest to it when several do. */
function shortest64(f: number): Digits {
  if (f === 0) return { d: '', dp: 0 };
  // Number#toString produces exactly these digits (ECMAScript Number::toString, note 2).
  const s = Math.abs(f).toString();
  let mant = s;
  let exp = 0;
  const e = s.indexOf('e');
  if (e >= 0) {
    mant = s.slice(0, e);
    exp = Number(s.slice(e + 1));
  }
  const dot = mant.indexOf('.');
  let intLen = dot < 0 ? mant.length : dot;
  let digits = dot < 0 ? mant : mant.slice(0, dot) + mant.slice(dot + 1);
  let lead = 0;
  while (lead < digits.length - 1 && digits.charCodeAt(lead) === 48) lead++;
  digits = digits.slice(lead);
  intLen -= lead;
  return trimZeros(digits, intLen + exp);
}

type Rational = [bigint, bigint];

function pow2(e: number, m: bigint): Rational {
  return e >= 0 ? [m << BigInt(e), 1n] : [m, 1n << BigInt(-e)];
}

function pow10(e: number, m: bigint): Rational {
  return e >= 0 ? [m * 10n ** BigInt(e), 1n] : [m, 10n ** BigInt(-e)];
}

function cmp(a: Rational, b: Rational): number {
  const l = a[0] * b[1];
  const r = b[0] * a[1];
  return l < r ? -1 : l > r ? 1 : 0;
}

/**
 * Shortest digits for a value of the given precision, by search: the first length at which the
 * truncated or the incremented digits fall inside the interval that reads back as the same float.
 */
function shortestSearch(mant: bigint, exp: number, flt: FloatInfo): Digits {
  if (mant === 0n) return { d: '', dp: 0 };
  const e2 = exp - flt.mantbits;
  const exact = exactDigits(mant, e2);
  const upper = pow2(e2 - 1, 2n * mant + 1n);
  const minexp = flt.bias + 1;
  const lower =
    mant > 1n << BigInt(flt.mantbits) || exp === minexp ? pow2(e2 - 1, 2n * mant - 1n) : pow2(e2 - 2, 4n * mant - 1n);
  const inclusive = mant % 2n === 0n;
  const inside = (c: Rational): boolean => {
    const lo = cmp(c, lower);
    const hi = cmp(c, upper);
    return inclusive ? lo >= 0 && hi <= 0 : lo > 0 && hi < 0;
  };
  for (let n = 1; n < exact.d.length; n++) {
    const trunc = BigInt(exact.d.slice(0, n));
    const okDown = inside(pow10(exact.dp - n, trunc));
    const okUp = inside(pow10(exact.dp - n, trunc + 1n));
    if (okDown && okUp) return roundDigits(exact, n);
    if (okDown) return trimZeros(exact.d.slice(0, n), exact.dp);
    if (okUp) {
      const s = (trunc + 1n).toString();
      // 99 + 1 carries into a new leading digit
      return s.length > n ? trimZeros(s, exact.dp + 1) : trimZeros(s, exact.dp);
    }
  }
  return exact;
}

function fmtE(neg: boolean, x: Digits, prec: number, fmt: string): string {
  let out = neg ? '-' : '';
  out += x.d.length ? x.d[0] : '0';
  if (prec > 0) {
    out += '.';
    const m = Math.min(x.d.length, prec + 1);
    out += x.d.slice(1, m);
    for (let i = Math.max(m, 1); i <= prec; i++) out += '0';
  }
  out += fmt;
  let exp = x.d.length === 0 ? 0 : x.dp - 1;
  if (exp < 0) {
    out += '-';
    exp = -exp;
  } else out += '+';
  return out + (exp < 10 ? '0' + exp : String(exp));
}

function fmtF(neg: boolean, x: Digits, prec: number): string {
  let out = neg ? '-' : '';
  if (x.dp > 0) {
    const m = Math.min(x.d.length, x.dp);
    out += x.d.slice(0, m);
    for (let i = m; i < x.dp; i++) out += '0';
  } else out += '0';
  if (prec > 0) {
    out += '.';
    for (let i = 0; i < prec; i++) {
      const j = x.dp + i;
      out += j >= 0 && j < x.d.length ? x.d[j] : '0';
    }
  }
  return out;
}

function formatDigits(shortest: boolean, neg: boolean, x: Digits, prec: number, fmt: string): string {
  switch (fmt) {
    case 'e':
    case 'E':
      return fmtE(neg, x, prec, fmt);
    case 'f':
      return fmtF(neg, x, prec);
    case 'g':
    case 'G': {
      let eprec = prec;
      if (eprec > x.d.length && x.d.length >= x.dp) eprec = x.d.length;
      // %e is used when the exponent is < -4 or >= the precision; shortest uses precision 6 here.
      if (shortest) eprec = 6;
      const exp = x.dp - 1;
      if (exp < -4 || exp >= eprec) {
        if (prec > x.d.length) prec = x.d.length;
        return fmtE(neg, x, prec - 1, fmt === 'g' ? 'e' : 'E');
      }
      if (prec > x.dp) prec = x.d.length;
      return fmtF(neg, x, Math.max(prec - x.dp, 0));
    }
  }
  return '%' + fmt;
}

function fmtB(neg: boolean, mant: bigint, exp: number, flt: FloatInfo): string {
  const e = exp - flt.mantbits;
  return (neg ? '-' : '') + mant.toString() + 'p' + (e >= 0 ? '+' : '') + String(e);
}

const MASK64 = (1n << 64n) - 1n;

function fmtX(prec: number, fmt: string, neg: boolean, mant: bigint, exp: number, flt: FloatInfo): string {
  if (mant === 0n) exp = 0;
  // Put the leading 1 at bit 60.
  mant <<= BigInt(60 - flt.mantbits);
  while (mant !== 0n && (mant & (1n << 60n)) === 0n) {
    mant <<= 1n;
    exp--;
  }
  if (prec >= 0 && prec < 15) {
    const shift = BigInt(prec * 4);
    const extra = (mant << shift) & ((1n << 60n) - 1n);
    mant >>= 60n - shift;
    if ((extra | (mant & 1n)) > 1n << 59n) mant++;
    mant <<= 60n - shift;
    if ((mant & (1n << 61n)) !== 0n) {
      mant >>= 1n;
      exp++;
    }
  }
  const hex = fmt === 'X' ? '0123456789ABCDEF' : lowerhex;
  let out = (neg ? '-' : '') + '0' + fmt + String(Number((mant >> 60n) & 1n));
  mant = (mant << 4n) & MASK64;
  if (prec < 0 && mant !== 0n) {
    out += '.';
    while (mant !== 0n) {
      out += hex[Number((mant >> 60n) & 15n)];
      mant = (mant << 4n) & MASK64;
    }
  } else if (prec > 0) {
    out += '.';
    for (let i = 0; i < prec; i++) {
      out += hex[Number((mant >> 60n) & 15n)];
      mant = (mant << 4n) & MASK64;
    }
  }
  out += fmt === 'X' ? 'P' : 'p';
  if (exp < 0) {
    out += '-';
    exp = -exp;
  } else out += '+';
  return out + (exp < 10 ? '0' + exp : String(exp));
}

/**
 * strconv.FormatFloat(f, fmt, prec, bitSize): fmt is one of b e E f g G x X; prec -1 means the
 * fewest digits that read back exactly; bitSize 32 formats f as a float32.
 */
export function formatFloat(f: number, fmt: string, prec: number, bitSize: 32 | 64 = 64): string {
  const flt = bitSize === 32 ? FLOAT32 : FLOAT64;
  const bits = bitSize === 32 ? float32Bits(f) : float64Bits(f);
  const mb = BigInt(flt.mantbits);
  const neg = bits >> (mb + BigInt(flt.expbits)) !== 0n;
  let exp = Number((bits >> mb) & ((1n << BigInt(flt.expbits)) - 1n));
  let mant = bits & ((1n << mb) - 1n);
  if (exp === (1 << flt.expbits) - 1) {
    if (mant !== 0n) return 'NaN';
    return neg ? '-Inf' : '+Inf';
  }
  if (exp === 0) exp++;
  else mant |= 1n << mb;
  exp += flt.bias;

  if (fmt === 'b') return fmtB(neg, mant, exp, flt);
  if (fmt === 'x' || fmt === 'X') return fmtX(prec, fmt, neg, mant, exp, flt);

  const shortest = prec < 0;
  let x: Digits;
  if (shortest) {
    x = bitSize === 64 ? shortest64(f) : shortestSearch(mant, exp, flt);
    switch (fmt) {
      case 'e':
      case 'E':
        prec = Math.max(x.d.length - 1, 0);
        break;
      case 'f':
        prec = Math.max(x.d.length - x.dp, 0);
        break;
      case 'g':
      case 'G':
        prec = x.d.length;
        break;
    }
  } else {
    x = exactDigits(mant, exp - flt.mantbits);
    switch (fmt) {
      case 'e':
      case 'E':
        x = roundDigits(x, prec + 1);
        break;
      case 'f':
        x = roundDigits(x, x.dp + prec);
        break;
      case 'g':
      case 'G':
        if (prec === 0) prec = 1;
        x = roundDigits(x, prec);
        break;
    }
  }
  return formatDigits(shortest, neg, x, prec, fmt);
}

// Alternating run lengths (base 36) of non-printable and printable runes from U+0000,
// generated from Go 1.19 strconv.IsPrint over every rune (tools/fmt/isprint).
const NOT_PRINT_RUNS =
  'w,2n,y,c,1,ju,2,6,4,7,1,1,1,k,1,b1,1,12,2,1e,2,3,1,1j,8,r,4,6,h,m,2,5b,1,1c,2,1n,2,2t,e,1n,2,1d,2,f,1,s,2,1,1,' +
  'b,1h,l,1,i,b,f,1,4h,1,8,2,2,2,m,1,7,1,1,3,4,2,9,2,2,2,4,8,1,4,2,1,5,2,p,2,3,1,6,4,2,2,m,1,7,1,2,1,2,1,2,2,1,1,' +
  '5,4,2,2,3,3,1,7,4,1,1,7,h,a,3,1,9,1,3,1,m,1,7,1,2,1,5,2,a,1,3,1,3,2,1,f,4,2,c,7,7,1,3,1,8,2,2,2,m,1,7,1,2,1,5,' +
  '2,9,2,2,2,3,7,3,4,2,1,5,2,i,a,2,1,6,3,3,1,4,3,2,1,1,1,2,3,2,3,3,3,c,4,5,3,3,1,4,2,1,6,1,e,l,5,d,1,3,1,n,1,g,3,' +
  '8,1,3,1,4,7,2,1,3,5,4,2,a,7,m,1,3,1,n,1,a,1,5,2,9,1,3,1,4,7,2,7,1,1,4,2,a,1,2,d,d,1,3,1,1f,1,3,1,6,4,g,2,q,1,3' +
  ',1,i,3,o,1,9,1,1,2,7,3,1,4,6,1,1,1,8,6,a,2,3,c,1m,4,t,11,2,1,1,1,5,1,o,1,1,1,n,2,5,1,1,1,6,2,a,2,4,w,20,1,10,4' +
  ',13,1,10,1,f,1,d,11,5i,1,1,5,1,2,ah,1,4,2,7,1,1,1,4,2,15,1,4,2,x,1,4,2,7,1,1,1,4,2,f,1,1l,1,4,2,1v,2,w,3,q,6,2' +
  'e,2,6,2,hs,1,s,3,2h,7,d,1,7,b,n,9,k,c,d,1,3,1,2,c,2m,2,a,6,a,6,e,2,a,6,2h,7,17,5,1y,a,v,1,c,4,c,4,1,3,16,2,5,b' +
  ',18,4,q,6,b,3,1q,2,1t,1,t,2,b,6,a,6,e,2,h,1r,24,4,19,3,38,8,1o,3,f,3,1o,7,17,2,b,8,17,5,6y,1,7v,2,6,2,12,2,6,2' +
  ',8,1,1,1,1,1,1,1,v,2,1h,1,f,1,e,2,6,1,j,2,3,1,9,h,o,8,1b,h,2,2,r,1,d,3,w,g,x,f,3w,4,if,p,b,l,1ec,2,w,1,48,1,1b' +
  ',1,44,5,19,1,1,5,1,2,1k,7,2,e,o,9,7,1,7,1,7,1,7,1,7,1,7,1,7,1,7,1,37,19,q,1,2h,c,5y,q,c,5,1r,1,2e,2,2v,5,17,1,' +
  '2m,1,2c,c,1b,1,lp9,3,wd,3,1j,9,9o,k,54,8,5c,2,9,16,1k,3,a,6,1k,8,1y,8,c,6,38,b,u,3,26,1,b,4,x,1,1j,9,e,2,a,2,2' +
  'v,o,s,a,6,2,6,2,6,9,7,1,7,1,1o,4,3i,2,a,6,8mc,c,n,4,1d,6is,a6,2,2y,12,7,c,5,5,q,1,5,1,1,1,2,1,2,1,3g,h,a5,g,1s' +
  ',2,1i,14,e,2,q,6,1f,1,j,1,4,4,5,1,3r,4,5a,3,6,2,6,2,6,2,3,3,7,1,7,d,2,2,c,1,q,1,j,1,2,1,f,2,e,y,3f,5,3,4,19,3,' +
  '2g,1,d,3,1,1b,1a,3m,t,3,1d,f,s,4,10,9,u,5,17,5,u,1,11,4,e,16,4e,2,a,6,10,4,10,4,14,8,1g,b,1,40,8n,9,m,a,8,48,6' +
  ',2,1,1,18,1,2,3,1,2,n,1,20,8,9,1c,j,1,2,5,x,3,r,5,1,1s,1k,4,k,2,1e,1,2,5,8,1,3,1,t,2,3,4,a,7,9,7,1s,w,13,4,c,9' +
  ',1i,3,t,2,r,5,q,7,4,c,7,28,21,1j,1f,d,1f,7,1a,8,a,86,v,1,16,1,3,2,2,26,14,8,16,2e,s,k,n,9,26,4,u,f,1q,1,4,e,p,' +
  '7,a,6,1h,1,i,8,13,9,2o,1,k,b,i,1,18,1t,7,1,1,1,4,1,f,1,b,6,1n,5,a,6,4,1,8,2,2,2,m,1,7,1,2,1,5,1,a,2,2,2,3,2,1,' +
  '6,1,5,7,2,7,3,5,3v,2k,1,5,u,20,8,a,4m,1i,2,12,y,1x,b,a,6,d,j,1l,7,a,1i,r,2,f,4,g,5c,1o,2s,2b,c,8,2,1,2,8,1,2,1' +
  ',u,1,2,2,c,9,a,1y,8,2,1a,2,b,r,20,8,2b,t,1l,7b,9,1,19,1,e,a,t,3,w,2,m,1,e,21,7,1,2,1,18,3,1,1,2,1,9,8,a,6,6,1,' +
  '2,1,11,1,2,1,6,7,a,8m,p,53,1,f,1e,d,pn,2u,33,1,5,b,5g,24c,tr,34h,g7,6nt,ft,7,v,1,a,4,2,2o,u,2,6,a,1y,a,a,1,7,1' +
  ',l,5,j,j4,2j,2t,23,4,1l,7,h,1s,5,b,2,e,4qg,8,ye,16,9,6wn,7z,1d,3,h,4,8,b0,1s4,2z,5,d,3,9,7,a,2,4,3ts,6u,a,13,2' +
  ',22,8,32,n,1y,4a,k,c,2f,9,p,3r,2d,1,1z,1,2,2,1,2,2,2,4,1,c,1,1,1,7,1,1t,1,4,2,8,1,7,1,s,1,4,1,5,1,1,3,7,1,9g,2' +
  ',84,2,ji,f,5,1,f,11s,7,1,h,2,7,1,2,1,5,5x,19,3,e,2,a,4,2,a8,1m,5,1,zk,5h,2,g,15,24,4,a,4,2,lt,1w,24,1p,5e,4,1,' +
  'r,1,2,1,1,2,1,1,a,1,4,1,1,1,1,6,1,4,1,1,1,1,1,1,3,1,2,1,1,2,1,1,1,1,1,1,1,1,1,1,2,1,1,2,4,1,7,1,4,1,4,1,1,1,a,' +
  '1,h,5,3,1,5,1,h,1g,2,7i,18,4,2s,c,f,2,f,1,f,1,11,a,4u,1k,t,d,18,4,9,7,2,e,6,4a,rc,8,d,3,d,3,38,c,2h,7,c,k,c,4,' +
  '1k,8,a,6,14,8,u,2,2,26,3d,1,2a,1,3r,c,e,2,5,3,3,5,7,9,p,7,7,9,3,d,7,15,43,1,1j,11,a,sm,wym,y,379,b,66,2,4g2,e,' +
  '5rl,2e7,f2,15u,3t7,fcmt,6o,47bk';

// ---------- ParseInt / ParseUint (the one copy: template number literals, Sprig, YAML resolution) ----------

/** strconv's underscoreOK: underscores only between digits or after a base prefix. */
export function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1]!)) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

export type IntParse = { value: bigint; err?: 'syntax' | 'range' };

/** strconv.ParseInt(s, base, 64) with its error kind; on a range error value is the clamped bound. */
export function parseIntFull(s0: string, base: number): IntParse {
  if (s0 === '') return { value: 0n, err: 'syntax' };
  let s = s0;
  let neg = false;
  if (s[0] === '+' || s[0] === '-') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  const u = parseUintFull(s, base, s0);
  if (u.err === 'syntax') return { value: 0n, err: 'syntax' };
  const cutoff = 1n << 63n;
  if (u.err === 'range') return { value: neg ? -cutoff : cutoff - 1n, err: 'range' };
  if (!neg && u.value >= cutoff) return { value: cutoff - 1n, err: 'range' };
  if (neg && u.value > cutoff) return { value: -cutoff, err: 'range' };
  return { value: neg ? -u.value : u.value };
}

const DECIMAL_DIGITS = /^[0-9]+$/;

function parseUintFull(s: string, base: number, whole: string): IntParse {
  if (s === '') return { value: 0n, err: 'syntax' };
  const base0 = base === 0;
  if (base === 0) {
    base = 10;
    if (s[0] === '0') {
      if (s.length >= 3 && (s[1] === 'b' || s[1] === 'B')) {
        base = 2;
        s = s.slice(2);
      } else if (s.length >= 3 && (s[1] === 'o' || s[1] === 'O')) {
        base = 8;
        s = s.slice(2);
      } else if (s.length >= 3 && (s[1] === 'x' || s[1] === 'X')) {
        base = 16;
        s = s.slice(2);
      } else {
        base = 8;
        s = s.slice(1);
      }
    }
  }
  // Up to 15 decimal digits fit a float64 exactly: one conversion instead of a bigint step per digit.
  if (base === 10 && s.length <= 15 && DECIMAL_DIGITS.test(s)) return { value: BigInt(Number(s)) };
  const max = (1n << 64n) - 1n;
  let n = 0n;
  let underscores = false;
  let overflow = false;
  const b = BigInt(base);
  for (const c of s) {
    let d: number;
    if (c === '_' && base0) {
      underscores = true;
      continue;
    } else if (c >= '0' && c <= '9') d = c.charCodeAt(0) - 48;
    else if (/[a-z]/i.test(c)) d = c.toLowerCase().charCodeAt(0) - 87;
    else return { value: 0n, err: 'syntax' };
    if (d >= base) return { value: 0n, err: 'syntax' };
    if (!overflow) {
      n = n * b + BigInt(d);
      if (n > max) overflow = true;
    }
  }
  if (underscores && !underscoreOK(whole)) return { value: 0n, err: 'syntax' };
  if (overflow) return { value: max, err: 'range' };
  return { value: n };
}

/** strconv.ParseUint(s, base, 64) with its error kind. */
export function parseUintFullGo(s: string, base: number): IntParse {
  if (s !== '' && (s[0] === '+' || s[0] === '-')) return { value: 0n, err: 'syntax' };
  return parseUintFull(s, base, s);
}

/** strconv.ParseInt(s, base, 64); undefined on any error. */
export function parseGoInt(s: string, base = 0): bigint | undefined {
  const r = parseIntFull(s, base);
  return r.err ? undefined : r.value;
}

/** strconv.ParseUint(s, base, 64); undefined on any error (no sign allowed). */
export function parseGoUint(s: string, base = 0): bigint | undefined {
  const r = parseUintFullGo(s, base);
  return r.err ? undefined : r.value;
}
