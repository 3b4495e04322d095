// k8s.io/apimachinery/pkg/api/resource.Quantity: parsed from a string or number, marshalled as its
// canonical string ("0.5" → "500m", "1024Mi" → "1Gi").
//
// Mirrors: k8s.io/apimachinery pkg/api/resource/{quantity,amount,suffix}.go
// Proven by: test/istio/model.test.ts, test/istio/merged-postprocess.test.ts

import { GoStruct, T, ptrTo, type GoType, type GoValue } from '../go/reflect/value.js';
import { GoJsonError, registerCodec, structType } from '../go/encoding/json/structs.js';

export const Quantity: GoType = structType('resource.Quantity', []);

export class QuantityValue extends GoStruct {
  readonly type = Quantity;
  override readonly ptr: boolean;
  constructor(
    /** Canonical string form. */
    readonly canonical: string,
    ptr = false,
  ) {
    super();
    this.ptr = ptr;
  }
  field(): GoValue {
    return undefined; // Quantity has no exported fields
  }
}

const DEC_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BIN_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DEC_NAMES: [number, string][] = [
  [18, 'E'], [15, 'P'], [12, 'T'], [9, 'G'], [6, 'M'], [3, 'k'], [0, ''], [-3, 'm'], [-6, 'u'], [-9, 'n'],
];
const BIN_NAMES: [number, string][] = [[60, 'Ei'], [50, 'Pi'], [40, 'Ti'], [30, 'Gi'], [20, 'Mi'], [10, 'Ki']];

const QTY_RE = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

/** Parse a quantity into value = num × 10^-9 (rounded up to nano, as Kubernetes does), plus its format. */
export function parseQuantity(s: string): { nanos: bigint; format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent' } | undefined {
  const m = QTY_RE.exec(s.trim());
  if (!m) return undefined;
  const neg = m[1] === '-';
  const [ip, fp = ''] = m[2]!.split('.');
  const digits = BigInt((ip || '0') + fp);
  let scale10 = -fp.length; // value = digits × 10^scale10
  let pow2 = 0;
  const suf = m[3] ?? '';
  let format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent' = 'DecimalSI';
  if (suf in BIN_SUFFIX) {
    pow2 = BIN_SUFFIX[suf]!;
    format = 'BinarySI';
  } else if (/^[eE]/.test(suf)) {
    scale10 += Number(suf.slice(1));
    format = 'DecimalExponent';
  } else scale10 += DEC_SUFFIX[suf] ?? 0;
  // nanos = digits × 2^pow2 × 10^(scale10 + 9), rounded up (away from zero) when fractional
  let num = digits * 2n ** BigInt(pow2);
  const e = scale10 + 9;
  let nanos: bigint;
  if (e >= 0) nanos = num * 10n ** BigInt(e);
  else {
    const d = 10n ** BigInt(-e);
    nanos = num / d;
    if (num % d !== 0n) nanos += 1n;
  }
  if (neg) nanos = -nanos;
  num = 0n;
  return { nanos, format };
}

/** Kubernetes' canonical string of a quantity. */
export function canonicalQuantity(s: string): string | undefined {
  const p = parseQuantity(s);
  if (!p) return undefined;
  const { nanos } = p;
  let format = p.format;
  const neg = nanos < 0n;
  const abs = neg ? -nanos : nanos;
  const sign = neg ? '-' : '';
  if (abs === 0n) return '0';
  if (format === 'BinarySI') {
    const NANO = 1_000_000_000n;
    if (abs % NANO === 0n && abs / NANO >= 1024n) {
      const whole = abs / NANO;
      for (const [p2, name] of BIN_NAMES) {
        const d = 2n ** BigInt(p2);
        if (whole % d === 0n) return `${sign}${whole / d}${name}`;
      }
      return `${sign}${whole}`;
    }
    if (abs % NANO === 0n) return `${sign}${abs / NANO}`;
    format = 'DecimalSI';
  }
  // largest exponent (multiple of 3) leaving an integer mantissa
  let exp = -9;
  let mant = abs;
  while (exp < 18 && mant % 1000n === 0n) {
    mant /= 1000n;
    exp += 3;
  }
  if (format === 'DecimalExponent') return exp === 0 ? `${sign}${mant}` : `${sign}${mant}e${exp}`;
  const name = DEC_NAMES.find(([e]) => e === exp)![1];
  return `${sign}${mant}${name}`;
}

export function quantity(raw: string | number, ptr = false): QuantityValue {
  const s = typeof raw === 'number' ? numberText(raw) : raw;
  const c = canonicalQuantity(s);
  if (c === undefined) throw new GoJsonError(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  return new QuantityValue(c, ptr);
}

function numberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return BigInt(n).toString();
  return String(n);
}

// MarshalJSON returns JSON text (the shared encoder treats a string result as raw JSON).
Quantity.marshalJSON = (v) => JSON.stringify(v instanceof QuantityValue ? v.canonical : '0');

registerCodec(Quantity, {
  decode(raw) {
    if (typeof raw === 'string' || typeof raw === 'number') return quantity(raw);
    throw new GoJsonError('json: cannot unmarshal object into Go value of type resource.Quantity');
  },
});

ptrTo(Quantity).methods = {
  String: { name: 'String', params: [], results: 1, resultType: T.string, fn: (r) => (r instanceof QuantityValue ? r.canonical : '0') },
};
