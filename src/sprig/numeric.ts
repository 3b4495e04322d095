// Sprig's integer and float math (numeric.go), with spf13/cast conversions and shopspring/decimal
// arithmetic for the *f functions.
//
// Mirrors: github.com/Masterminds/sprig/v3 numeric.go; github.com/spf13/cast caste.go; github.com/shopspring/decimal decimal.go
// Proven by: test/vectors/sprig/numeric.jsonl

import { checkListLength } from '../guard/limits.js';
import { sprint } from '../go/fmt/print.js';
import { def, sliceOf, T, withType, type FuncMap, type GoValue } from '../go/reflect/value.js';
import { panic, parseInt, parseIntFull, table, toFloat64, toInt, toInt64, type SprigContext } from './util.js';

const wrap64 = (n: bigint): bigint => BigInt.asIntN(64, n);

// ---------- shopspring/decimal, as far as execDecimalOp uses it ----------

/** value × 10^exp */
interface Dec {
  v: bigint;
  e: number;
}

const DIVISION_PRECISION = 16;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** decimal.NewFromFloat: the shortest decimal that round-trips. */
function decFromFloat(f: number): Dec {
  if (!Number.isFinite(f)) panic(`Cannot create a Decimal from ${sprint([f])}`);
  if (f === 0) return { v: 0n, e: 0 };
  const [mant, exp] = f.toExponential().split('e') as [string, string];
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const fracLen = digits.length - 1;
  const v = BigInt(digits);
  return { v: neg ? -v : v, e: Number(exp) - fracLen };
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const e = Math.min(a.e, b.e);
  return [a.v * pow10(a.e - e), b.v * pow10(b.e - e), e];
}

const decAdd = (a: Dec, b: Dec): Dec => {
  const [x, y, e] = align(a, b);
  return { v: x + y, e };
};
const decSub = (a: Dec, b: Dec): Dec => {
  const [x, y, e] = align(a, b);
  return { v: x - y, e };
};
const decMul = (a: Dec, b: Dec): Dec => ({ v: a.v * b.v, e: a.e + b.e });

function decCmp(a: Dec, b: Dec): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const abs = (n: bigint): bigint => (n < 0n ? -n : n);
const sign = (n: bigint): number => (n < 0n ? -1 : n > 0n ? 1 : 0);

/** decimal.Div: QuoRem at 16 places, rounded half away from zero. */
function decDiv(d: Dec, d2: Dec): Dec {
  if (d2.v === 0n) panic('decimal division by 0');
  const precision = DIVISION_PRECISION;
  const scale = -precision;
  const e = d.e - d2.e - scale;
  let aa: bigint;
  let bb: bigint;
  let scalerest: number;
  if (e < 0) {
    aa = d.v;
    bb = d2.v * pow10(-e);
    scalerest = d.e;
  } else {
    aa = d.v * pow10(e);
    bb = d2.v;
    scalerest = scale + d2.e;
  }
  const q: Dec = { v: aa / bb, e: scale };
  const r: Dec = { v: aa % bb, e: scalerest };
  const r2: Dec = { v: abs(r.v) * 2n, e: r.e + precision };
  if (decCmp(r2, { v: abs(d2.v), e: d2.e }) < 0) return q;
  const unit: Dec = { v: 1n, e: -precision };
  return sign(d.v) * sign(d2.v) < 0 ? decSub(q, unit) : decAdd(q, unit);
}

/** Decimal.Float64: the nearest float64 to the exact value. */
function decFloat(d: Dec): number {
  return Number(`${d.v}e${d.e}`);
}

function execDecimalOp(a: GoValue, b: GoValue[], f: (x: Dec, y: Dec) => Dec): number {
  let prt = decFromFloat(toFloat64(a));
  for (const x of b) prt = f(prt, decFromFloat(toFloat64(x)));
  return decFloat(prt);
}

// ---------- Go's math ----------

function frexp(f: number): [number, number] {
  if (f === 0 || !Number.isFinite(f)) return [f, 0];
  let e = 0;
  let x = Math.abs(f);
  if (x < 2.2250738585072014e-308) {
    x *= 2 ** 52;
    e = -52;
  }
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  e += ((hi >>> 20) & 0x7ff) - 1022;
  buf.setUint32(0, (hi & ~(0x7ff << 20)) | (1022 << 20));
  const frac = buf.getFloat64(0);
  return [f < 0 ? -frac : frac, e];
}

function ldexp(frac: number, exp: number): number {
  let v = frac;
  while (exp > 1000) {
    v *= 2 ** 1000;
    exp -= 1000;
  }
  while (exp < -1000) {
    v *= 2 ** -1000;
    exp += 1000;
  }
  return v * 2 ** exp;
}

/** math.Pow for the integral exponents `round` uses (repeated squaring, as Go computes it). */
export function goPow(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (y === 1) return x;
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === 0 || !Number.isFinite(x) || !Number.isFinite(y) || !Number.isInteger(y)) return Math.pow(x, y);
  const yi = Math.abs(y);
  if (yi >= 2 ** 63) {
    if (x === -1) return 1;
    return (Math.abs(x) < 1) === y > 0 ? 0 : Infinity;
  }
  let a1 = 1;
  let ae = 0;
  let [x1, xe] = frexp(x);
  for (let i = BigInt(yi); i !== 0n; i >>= 1n) {
    if (xe < -(1 << 12) || 1 << 12 < xe) {
      ae += xe;
      break;
    }
    if ((i & 1n) === 1n) {
      a1 *= x1;
      ae += xe;
    }
    x1 *= x1;
    xe <<= 1;
    if (x1 < 0.5) {
      x1 += x1;
      xe--;
    }
  }
  if (y < 0) {
    a1 = 1 / a1;
    ae = -ae;
  }
  return ldexp(a1, ae);
}

function goMax(x: number, y: number): number {
  if (x === Infinity || y === Infinity) return Infinity;
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === 0 && x === y) return Object.is(x, -0) ? y : x;
  return x > y ? x : y;
}

function goMin(x: number, y: number): number {
  if (x === -Infinity || y === -Infinity) return -Infinity;
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === 0 && x === y) return Object.is(x, -0) ? x : y;
  return x < y ? x : y;
}

function round(a: GoValue, p: bigint, ...rOpt: number[]): number {
  const roundOn = rOpt.length > 0 ? rOpt[0]! : 0.5;
  const val = toFloat64(a);
  const places = Number(p);
  const pow = goPow(10, places);
  const digit = pow * val;
  // math.Modf: the fraction keeps the sign; Modf(±Inf) has a NaN fraction.
  const frac = Number.isFinite(digit) ? digit - Math.trunc(digit) : NaN;
  const r = frac >= roundOn ? Math.ceil(digit) : Math.floor(digit);
  return r / pow;
}

// ---------- sequences ----------

export function untilStep(start: bigint, stop: bigint, step: bigint): bigint[] {
  const v: bigint[] = [];
  // Go would build any length (and run out of memory); we refuse before building.
  if (stop < start ? step < 0n : step > 0n) checkListLength((stop - start + step + (step > 0n ? -1n : 1n)) / step);
  if (stop < start) {
    if (step >= 0n) return v;
    for (let i = start; i > stop; i += step) v.push(i);
    return v;
  }
  if (step <= 0n) return v;
  for (let i = start; i < stop; i += step) v.push(i);
  return v;
}

const INT_SLICE = sliceOf(T.int);

function seq(...params: bigint[]): string {
  let increment = 1n;
  const str = (xs: bigint[]): string => xs.join(' ');
  switch (params.length) {
    case 0:
      return '';
    case 1: {
      const start = 1n;
      const end = params[0]!;
      if (end < start) increment = -1n;
      return str(untilStep(start, end + increment, increment));
    }
    case 3: {
      const [start, step, end] = params as [bigint, bigint, bigint];
      if (end < start) {
        increment = -1n;
        if (step > 0n) return '';
      }
      return str(untilStep(start, end + increment, step));
    }
    case 2: {
      const [start, end] = params as [bigint, bigint];
      const step = end < start ? -1n : 1n;
      return str(untilStep(start, end + step, step));
    }
    default:
      return '';
  }
}

export function numericFuncs(ctx: SprigContext): FuncMap {
  const I = 'interface {}';
  return table([
    def('atoi', 'func(string) int', (s: string) => {
      const r = parseIntFull(s, 10);
      return r.err === 'syntax' ? 0n : r.value;
    }),
    def('int64', `func(${I}) int64`, (v: GoValue) => toInt64(v)),
    def('int', `func(${I}) int`, (v: GoValue) => toInt(v)),
    def('float64', `func(${I}) float64`, (v: GoValue) => toFloat64(v)),
    def('seq', 'func(...int) string', seq),
    def('toDecimal', `func(${I}) int64`, (v: GoValue) => parseInt(sprint([v]), 8) ?? 0n),
    def('until', 'func(int) []int', (n: bigint) => withType(untilStep(0n, n, n < 0n ? -1n : 1n), INT_SLICE)),
    def('untilStep', 'func(int, int, int) []int', (a: bigint, b: bigint, c: bigint) => withType(untilStep(a, b, c), INT_SLICE)),
    def('add1', `func(${I}) int64`, (v: GoValue) => wrap64(toInt64(v) + 1n)),
    def('add', `func(...${I}) int64`, (...vs: GoValue[]) => vs.reduce<bigint>((a, b) => wrap64(a + toInt64(b)), 0n)),
    def('sub', `func(${I}, ${I}) int64`, (a: GoValue, b: GoValue) => wrap64(toInt64(a) - toInt64(b))),
    def('div', `func(${I}, ${I}) int64`, (a: GoValue, b: GoValue) => {
      const d = toInt64(b);
      if (d === 0n) panic('runtime error: integer divide by zero');
      return wrap64(toInt64(a) / d);
    }),
    def('mod', `func(${I}, ${I}) int64`, (a: GoValue, b: GoValue) => {
      const d = toInt64(b);
      if (d === 0n) panic('runtime error: integer divide by zero');
      return toInt64(a) % d;
    }),
    def('mul', `func(${I}, ...${I}) int64`, (a: GoValue, ...vs: GoValue[]) => vs.reduce<bigint>((x, y) => wrap64(x * toInt64(y)), toInt64(a))),
    def('randInt', 'func(int, int) int', (min: bigint, max: bigint) => {
      const n = max - min;
      if (n <= 0n) panic('invalid argument to Intn');
      return BigInt(Math.floor(ctx.random() * Number(n))) + min;
    }),
    def('add1f', `func(${I}) float64`, (v: GoValue) => execDecimalOp(v, [1n], decAdd)),
    def('addf', `func(...${I}) float64`, (...vs: GoValue[]) => execDecimalOp(0, vs, decAdd)),
    def('subf', `func(${I}, ...${I}) float64`, (a: GoValue, ...vs: GoValue[]) => execDecimalOp(a, vs, decSub)),
    def('divf', `func(${I}, ...${I}) float64`, (a: GoValue, ...vs: GoValue[]) => execDecimalOp(a, vs, decDiv)),
    def('mulf', `func(${I}, ...${I}) float64`, (a: GoValue, ...vs: GoValue[]) => execDecimalOp(a, vs, decMul)),
    def('biggest', `func(${I}, ...${I}) int64`, maxInt),
    def('max', `func(${I}, ...${I}) int64`, maxInt),
    def('min', `func(${I}, ...${I}) int64`, (a: GoValue, ...vs: GoValue[]) =>
      vs.reduce<bigint>((x, y) => {
        const b = toInt64(y);
        return b < x ? b : x;
      }, toInt64(a)),
    ),
    def('maxf', `func(${I}, ...${I}) float64`, (a: GoValue, ...vs: GoValue[]) => vs.reduce<number>((x, y) => goMax(x, toFloat64(y)), toFloat64(a))),
    def('minf', `func(${I}, ...${I}) float64`, (a: GoValue, ...vs: GoValue[]) => vs.reduce<number>((x, y) => goMin(x, toFloat64(y)), toFloat64(a))),
    def('ceil', `func(${I}) float64`, (v: GoValue) => Math.ceil(toFloat64(v))),
    def('floor', `func(${I}) float64`, (v: GoValue) => Math.floor(toFloat64(v))),
    def('round', `func(${I}, int, ...float64) float64`, round),
  ]);
}

function maxInt(a: GoValue, ...vs: GoValue[]): bigint {
  return vs.reduce<bigint>((x, y) => {
    const b = toInt64(y);
    return b > x ? b : x;
  }, toInt64(a));
}
