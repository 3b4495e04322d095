// bcrypt ($2a$, as golang.org/x/crypto/bcrypt produces it) on a Blowfish whose initial P-array
// and S-boxes are computed: they are the fractional hexadecimal digits of pi, in order.
//
// Mirrors: golang.org/x/crypto bcrypt/bcrypt.go, blowfish/{block,cipher,const}.go
// Proven by: test/funcs/sprig/injected.test.ts, test/vectors/sprig/crypto.jsonl

import { checkDeadline } from '../guard/limits.js';

const WORDS = 18 + 4 * 256;

let initial: Uint32Array | undefined;

/** The first WORDS 32-bit words of pi's fraction (Machin's formula in fixed point). */
function piWords(): Uint32Array {
  if (initial) return initial;
  const bits = BigInt(WORDS * 32 + 64);
  const one = 1n << bits;
  const arctanInv = (x: bigint): bigint => {
    const x2 = x * x;
    let power = one / x;
    let sum = power;
    let n = 1n;
    let negative = true;
    while (power !== 0n) {
      power /= x2;
      n += 2n;
      sum += negative ? -(power / n) : power / n;
      negative = !negative;
    }
    return sum;
  };
  const pi = 4n * (4n * arctanInv(5n) - arctanInv(239n));
  const frac = pi - 3n * one;
  const out = new Uint32Array(WORDS);
  for (let i = 0; i < WORDS; i++) out[i] = Number((frac >> (bits - 32n * BigInt(i + 1))) & 0xffffffffn);
  initial = out;
  return out;
}

class Blowfish {
  readonly p: Uint32Array;
  readonly s: Uint32Array;
  constructor() {
    const w = piWords();
    this.p = w.slice(0, 18);
    this.s = w.slice(18);
  }
  private f(x: number): number {
    const s = this.s;
    return ((((s[x >>> 24]! + s[256 + ((x >>> 16) & 0xff)]!) >>> 0) ^ s[512 + ((x >>> 8) & 0xff)]!) + s[768 + (x & 0xff)]!) >>> 0;
  }
  encrypt(l: number, r: number): [number, number] {
    const p = this.p;
    for (let i = 0; i < 16; i++) {
      l = (l ^ p[i]!) >>> 0;
      r = (r ^ this.f(l)) >>> 0;
      const t = l;
      l = r;
      r = t;
    }
    const t = l;
    l = r;
    r = t;
    r = (r ^ p[16]!) >>> 0;
    l = (l ^ p[17]!) >>> 0;
    return [l, r];
  }
  /** Blowfish's key schedule, with bcrypt's optional salt mixed into the encrypted blocks. */
  expandKey(key: Uint8Array, salt?: Uint8Array): void {
    let j = 0;
    const next = (b: Uint8Array): number => {
      let w = 0;
      for (let k = 0; k < 4; k++) {
        w = ((w << 8) | b[j]!) >>> 0;
        j = (j + 1) % b.length;
      }
      return w;
    };
    for (let i = 0; i < 18; i++) this.p[i] = (this.p[i]! ^ next(key)) >>> 0;
    j = 0;
    let l = 0;
    let r = 0;
    const fill = (arr: Uint32Array, n: number): void => {
      for (let i = 0; i < n; i += 2) {
        if (salt) {
          l = (l ^ next(salt)) >>> 0;
          r = (r ^ next(salt)) >>> 0;
        }
        [l, r] = this.encrypt(l, r);
        arr[i] = l;
        arr[i + 1] = r;
      }
    };
    fill(this.p, 18);
    fill(this.s, 1024);
  }
}

const ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function b64(b: Uint8Array): string {
  const s = Buffer.from(b).toString('base64').replace(/=+$/, '');
  return Array.from(s, (c) => ALPHABET[STD.indexOf(c)]).join('');
}

/** bcrypt.GenerateFromPassword with the given cost and 16-byte salt. */
export function bcryptHash(password: Uint8Array, cost: number, salt: Uint8Array): string {
  const key = new Uint8Array(password.length + 1);
  key.set(password);
  const c = new Blowfish();
  c.expandKey(key, salt);
  for (let i = 0; i < 2 ** cost; i++) {
    // 2^cost rounds of ~10 us: the execution's time limit is checked as they run
    if ((i & 15) === 0) checkDeadline();
    c.expandKey(key);
    c.expandKey(salt);
  }
  const data = Buffer.from('OrpheanBeholderScryDoubt');
  for (let i = 0; i < 24; i += 8) {
    let l = data.readUInt32BE(i);
    let r = data.readUInt32BE(i + 4);
    for (let k = 0; k < 64; k++) [l, r] = c.encrypt(l, r);
    data.writeUInt32BE(l, i);
    data.writeUInt32BE(r, i + 4);
  }
  return `$2a$${String(cost).padStart(2, '0')}$${b64(salt)}${b64(data.subarray(0, 23))}`;
}
