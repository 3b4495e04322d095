// yaml.v2's implicit scalar resolution (resolve.go): which plain scalars are bools, nulls, ints,
// floats, timestamps or the merge key. The emitter asks it whether a string must be quoted; the
// decoder asks it what a plain scalar means.
//
// Mirrors: gopkg.in/yaml.v2 resolve.go
// Proven by: test/vectors/yaml/, test/yaml/v2-inputs/

import { parseGoFloat, parseGoInt, parseGoUint } from '../go/strconv/ftoa.js';

export type ResolvedTag = 'str' | 'bool' | 'null' | 'int' | 'float' | 'timestamp' | 'merge';

export interface Resolved {
  tag: ResolvedTag;
  /** bool: boolean; null: null; int: bigint (int64 or uint64 range); float: number; others: the text. */
  value: boolean | null | bigint | number | string;
}

const BOOL_NULL: Record<string, Resolved> = Object.create(null);
function add(words: string, r: Resolved): void {
  for (const w of words.split(' ')) BOOL_NULL[w] = r;
}
add('y Y yes Yes YES true True TRUE on On ON', { tag: 'bool', value: true });
add('n N no No NO false False FALSE off Off OFF', { tag: 'bool', value: false });
add('~ null Null NULL', { tag: 'null', value: null });
BOOL_NULL[''] = { tag: 'null', value: null };
add('.nan .NaN .NAN', { tag: 'float', value: NaN });
add('.inf .Inf .INF +.inf +.Inf +.INF', { tag: 'float', value: Infinity });
add('-.inf -.Inf -.INF', { tag: 'float', value: -Infinity });
BOOL_NULL['<<'] = { tag: 'merge', value: '<<' };

/** resolveTable: the hint for a scalar's first byte. */
function hint(s: string): string | undefined {
  if (s === '') return 'N';
  const c = s[0]!;
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return undefined;
}

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** resolve("", in): the implicit type of an untagged plain scalar. Timestamps are only tried for
 *  untagged (or !!timestamp) scalars, so explicit tags pass tryTimestamp = false. */
export function resolvePlain(s: string, tryTimestamp = true): Resolved {
  const h = hint(s);
  if (h === undefined) return { tag: 'str', value: s };
  const known = BOOL_NULL[s];
  if (known) return known;
  switch (h) {
    case '.': {
      const f = parseGoFloat(s);
      if (f !== undefined) return { tag: 'float', value: f };
      break;
    }
    case 'D':
    case 'S': {
      if (tryTimestamp && isTimestamp(s)) return { tag: 'timestamp', value: s };
      const plain = s.replace(/_/g, '');
      const i = parseGoInt(plain, 0);
      if (i !== undefined) return { tag: 'int', value: i };
      const u = parseGoUint(plain, 0);
      if (u !== undefined) return { tag: 'int', value: u };
      if (YAML_STYLE_FLOAT.test(plain)) {
        const f = parseGoFloat(plain);
        if (f !== undefined) return { tag: 'float', value: f };
      }
      if (plain.startsWith('0b')) {
        const b = parseGoInt(plain.slice(2), 2) ?? parseGoUint(plain.slice(2), 2);
        if (b !== undefined) return { tag: 'int', value: b };
      } else if (plain.startsWith('-0b')) {
        const b = parseGoInt('-' + plain.slice(3), 2);
        if (b !== undefined) return { tag: 'int', value: b };
      }
      break;
    }
  }
  return { tag: 'str', value: s };
}

// Base-60 floats are not resolved by yaml.v2, but it still quotes them on output.
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

export function isBase60Float(s: string): boolean {
  if (s === '') return false;
  const c = s[0]!;
  if (!(c === '+' || c === '-' || (c >= '0' && c <= '9')) || !s.includes(':')) return false;
  return BASE60_FLOAT.test(s);
}

// ---------- timestamps: time.Parse with yaml.v2's four layouts ----------

const isDigit = (s: string, i: number): boolean => i < s.length && s[i]! >= '0' && s[i]! <= '9';

/** time's getnum(s, false): one or two digits. */
function getnum(s: string): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return [s.charCodeAt(0) - 48, s.slice(1)];
  return [(s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), s.slice(2)];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** time's atoi: optional sign, then digits only. */
function atoiOK(s: string): boolean {
  return /^[+-]?[0-9]+$/.test(s);
}

type Step = (v: string) => string | undefined;

function literal(lit: string): Step {
  return (v) => {
    if (lit === ' ') {
      // A space in a layout matches any run of spaces (time's skip).
      if (v.length > 0 && v[0] !== ' ') return undefined;
      return v.replace(/^ +/, '');
    }
    return v.startsWith(lit) ? v.slice(lit.length) : undefined;
  };
}

function parseLayout(s: string, withTime: boolean, sep: string, tz: boolean): boolean {
  if (s.length < 4 || !isDigit(s, 0)) return false;
  const year = Number(s.slice(0, 4));
  let v: string | undefined = s.slice(4);
  const num = (lo: number, hi: number): number | undefined => {
    const r = getnum(v!);
    if (!r) return undefined;
    v = r[1];
    return r[0] >= lo && r[0] <= hi ? r[0] : undefined;
  };
  v = literal('-')(v);
  if (v === undefined) return false;
  const month = num(1, 12);
  if (month === undefined) return false;
  v = literal('-')(v);
  if (v === undefined) return false;
  const day = num(0, 31);
  if (day === undefined) return false;
  if (withTime) {
    v = literal(sep)(v);
    if (v === undefined) return false;
    if (num(0, 23) === undefined) return false;
    v = literal(':')(v);
    if (v === undefined) return false;
    if (num(0, 59) === undefined) return false;
    v = literal(':')(v);
    if (v === undefined) return false;
    if (num(0, 59) === undefined) return false;
    // optional fractional second, with '.' or ','
    if (v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigit(v, 1)) {
      let i = 1;
      while (isDigit(v, i)) i++;
      v = v.slice(i);
    }
    if (tz) {
      if (v.length >= 1 && v[0] === 'Z') v = v.slice(1);
      else {
        if (v.length < 6 || v[3] !== ':') return false;
        const sign = v[0];
        if (!atoiOK(v.slice(1, 3)) || !atoiOK(v.slice(4, 6))) return false;
        if (sign !== '+' && sign !== '-') return false;
        v = v.slice(6);
      }
    }
  }
  if (v.length > 0) return false;
  return day >= 1 && day <= daysIn(month, year);
}

/** yaml.v2's parseTimestamp: does the plain scalar read as one of its timestamp layouts? */
export function isTimestamp(s: string): boolean {
  let i = 0;
  while (i < s.length && s[i]! >= '0' && s[i]! <= '9') i++;
  if (i !== 4 || i === s.length || s[i] !== '-') return false;
  return (
    parseLayout(s, true, 'T', true) ||
    parseLayout(s, true, 't', true) ||
    parseLayout(s, true, ' ', false) ||
    parseLayout(s, false, '', false)
  );
}

// The leaves of a deep document are resolved where the stack is deepest, and V8 compiles a regular
// expression at its first uses (bytecode, then machine code), aborting the process when it does so
// with the stack nearly spent. Resolving a sample of every kind here compiles them where there is room.
for (let i = 0; i < 3; i++) {
  for (const s of ['1', '-1_000', '0x1F', '0b101', '-0b1', '0o17', '017', '1.5e3', '.5', '-.inf', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '1:20', '1:20.5', 'true', 'No', '~', 'x1', '+1']) resolvePlain(s);
}
