// The few pieces of Go's strconv that encoding/json and yaml.v2 depend on: shortest float formatting
// ('e', 'f', 'g' with precision -1) and ParseInt/ParseUint/ParseFloat as yaml.v2's resolver calls them
// (ParseInt/ParseUint and underscoreOK are src/go/strconv/strconv.ts's).
//
// Mirrors: go1.19 src/strconv/{ftoa,atof}.go (shortest formatting; ParseFloat as yaml.v2 resolve.go calls it)
// Proven by: test/vectors/yaml/

import { underscoreOK } from './strconv.js';

export { parseGoInt, parseGoUint } from './strconv.js';

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
