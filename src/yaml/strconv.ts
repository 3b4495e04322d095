// The few pieces of Go's strconv that encoding/json and yaml.v2 depend on: shortest float formatting
// ('e', 'f', 'g' with precision -1) and ParseInt/ParseUint/ParseFloat as yaml.v2's resolver calls them.

/** Shortest decimal digits and decimal-point position of |x| (x finite, non-zero): x = 0.DIGITS × 10^dp. */
function shortestDigits(x: number, bits: 32 | 64): { digits: string; dp: number } {
  const a = Math.abs(x);
  let e: string;
  if (bits === 64) {
    e = a.toExponential();
  } else {
    // The shortest decimal that reads back as the same float32.
    e = a.toExponential(8);
    for (let p = 1; p <= 9; p++) {
      const cand = a.toExponential(p - 1);
      if (Math.fround(Number(cand)) === a) {
        e = cand;
        break;
      }
    }
  }
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(e)!;
  let digits = m[1]! + (m[2] ?? '');
  digits = digits.replace(/0+$/, '') || '0';
  return { digits, dp: Number(m[3]) + 1 };
}

function fmtE(neg: boolean, digits: string, dp: number): string {
  let s = neg ? '-' : '';
  s += digits[0];
  if (digits.length > 1) s += '.' + digits.slice(1);
  const exp = digits === '0' ? 0 : dp - 1;
  const ae = Math.abs(exp);
  s += 'e' + (exp < 0 ? '-' : '+') + (ae < 10 ? '0' + ae : String(ae));
  return s;
}

function fmtF(neg: boolean, digits: string, dp: number): string {
  let s = neg ? '-' : '';
  if (dp > 0) {
    s += digits.length >= dp ? digits.slice(0, dp) : digits + '0'.repeat(dp - digits.length);
  } else {
    s += '0';
  }
  const frac = dp >= digits.length ? '' : dp >= 0 ? digits.slice(dp) : '0'.repeat(-dp) + digits;
  if (frac) s += '.' + frac;
  return s;
}

/** strconv.FormatFloat(x, fmt, -1, bits). */
export function formatFloat(x: number, fmt: 'e' | 'f' | 'g', bits: 32 | 64 = 64): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  const neg = x < 0 || Object.is(x, -0);
  const { digits, dp } = x === 0 ? { digits: '0', dp: 1 } : shortestDigits(x, bits);
  switch (fmt) {
    case 'e':
      return fmtE(neg, digits, dp);
    case 'f':
      return fmtF(neg, digits, dp);
    case 'g': {
      // Go decides between %e and %f with precision 6 when formatting the shortest representation.
      const exp = dp - 1;
      if (x !== 0 && (exp < -4 || exp >= 6)) return fmtE(neg, digits, dp);
      return fmtF(neg, digits, dp);
    }
  }
}

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);
const MAX_UINT64 = (1n << 64n) - 1n;

function baseAndBody(s: string): { base: number; body: string } | undefined {
  if (s.length >= 2 && s[0] === '0') {
    const p = s[1]!.toLowerCase();
    if (p === 'x') return { base: 16, body: s.slice(2) };
    if (p === 'b') return { base: 2, body: s.slice(2) };
    if (p === 'o') return { base: 8, body: s.slice(2) };
    return { base: 8, body: s.slice(1) };
  }
  return { base: 10, body: s };
}

const DIGITS: Record<number, RegExp> = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ };

/** Unsigned magnitude of s in the given base (0 = Go literal prefixes), underscores not allowed here. */
function parseMagnitude(s: string, base: number): bigint | undefined {
  let body = s;
  let b = base;
  if (base === 0) {
    const r = baseAndBody(s)!;
    b = r.base;
    body = r.body;
    if (b === 8 && s[1] !== 'o' && s[1] !== 'O') {
      // a leading "0" alone is octal with the zero kept ("0" itself is valid)
      body = s.slice(1);
      if (body === '') return 0n;
    }
  }
  if (!DIGITS[b]!.test(body)) return undefined;
  let v = 0n;
  const bb = BigInt(b);
  for (const ch of body) v = v * bb + BigInt(parseInt(ch, 16));
  return v;
}

/** strconv.ParseInt(s, base, 64); undefined on any error. */
export function parseGoInt(s: string, base = 0): bigint | undefined {
  if (s === '') return undefined;
  let neg = false;
  let body = s;
  if (s[0] === '+' || s[0] === '-') {
    neg = s[0] === '-';
    body = s.slice(1);
  }
  const m = parseMagnitude(body, base);
  if (m === undefined) return undefined;
  const v = neg ? -m : m;
  if (v > MAX_INT64 || v < MIN_INT64) return undefined;
  return v;
}

/** strconv.ParseUint(s, base, 64); undefined on any error (no sign allowed). */
export function parseGoUint(s: string, base = 0): bigint | undefined {
  if (s === '' || s[0] === '+' || s[0] === '-') return undefined;
  const m = parseMagnitude(s, base);
  if (m === undefined || m > MAX_UINT64) return undefined;
  return m;
}

/** strconv's underscoreOK: underscores only between digits (or after a base prefix). */
function underscoreOK(s0: string): boolean {
  let s = s0;
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'box'.includes(s[1]!.toLowerCase())) {
    i = 2;
    saw = '0';
    hex = s[1]!.toLowerCase() === 'x';
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

/**
 * strconv.ParseFloat(s, 64) for the decimal forms yaml.v2 hands it (and inf/nan words): undefined on a
 * syntax error or on overflow (Go reports ErrRange there).
 */
export function parseGoFloat(s: string): number | undefined {
  let t = s;
  if (t.includes('_')) {
    if (!underscoreOK(t)) return undefined;
    t = t.replace(/_/g, '');
  }
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(t)) {
    const low = t.toLowerCase().replace(/^[+-]/, '');
    if (low === 'inf' || low === 'infinity') return t[0] === '-' ? -Infinity : Infinity;
    if (low === 'nan') return NaN;
    return undefined;
  }
  const v = Number(t);
  if (!Number.isFinite(v)) return undefined;
  return v;
}
