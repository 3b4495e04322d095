// Sprig's base64/base32 functions. Decoding errors are returned as the result text, as Sprig does.
//
// Mirrors: github.com/Masterminds/sprig/v3 strings.go (base64/base32 functions); go1.19 src/encoding/{base64/base64,base32/base32}.go
// Proven by: test/vectors/sprig/encoding.jsonl

import { def, type FuncMap } from '../go/reflect/value.js';
import { fromUtf8, table, utf8 } from './util.js';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function decodeMap(alphabet: string): Int16Array {
  const m = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) m[alphabet.charCodeAt(i)] = i;
  return m;
}
const B64_MAP = decodeMap(B64);
const B32_MAP = decodeMap(B32);

/** base64.StdEncoding.DecodeString: the bytes, or the offset of Go's CorruptInputError. */
export function decode64(s: string): Uint8Array | number {
  const src = utf8(s);
  const out: number[] = [];
  let si = 0;
  const nl = (c: number | undefined): boolean => c === 0x0a || c === 0x0d;
  while (si < src.length) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let err: number | undefined;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Uint8Array.from(out);
        return si - j;
      }
      const c = src[si++]!;
      const d = B64_MAP[c]!;
      if (d !== -1) {
        dbuf[j] = d;
        continue;
      }
      if (nl(c)) {
        j--;
        continue;
      }
      if (c !== 0x3d) return si - 1;
      if (j < 2) return si - 1;
      if (j === 2) {
        while (si < src.length && nl(src[si])) si++;
        if (si === src.length) return src.length;
        if (src[si] !== 0x3d) return si - 1;
        si++;
      }
      while (si < src.length && nl(src[si])) si++;
      if (si < src.length) err = si;
      dlen = j;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    const b = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    out.push(...b.slice(0, dlen - 1));
    if (err !== undefined) return err;
    if (dlen < 4) break;
  }
  return Uint8Array.from(out);
}

/** base32.StdEncoding.DecodeString (newlines are removed before decoding, so offsets count without them). */
function decode32(s: string): Uint8Array | number {
  const src = Array.from(utf8(s)).filter((c) => c !== 0x0a && c !== 0x0d);
  const olen = src.length;
  const out: number[] = [];
  let p = 0;
  let end = false;
  while (p < olen && !end) {
    const dbuf = [0, 0, 0, 0, 0, 0, 0, 0];
    let dlen = 8;
    for (let j = 0; j < 8; ) {
      const rest = olen - p;
      if (rest === 0) return olen - rest - j;
      const c = src[p++]!;
      const left = olen - p;
      if (c === 0x3d && j >= 2 && left < 8) {
        if (left + j < 8 - 1) return olen;
        for (let k = 0; k < 8 - 1 - j; k++) if (left > k && src[p + k] !== 0x3d) return olen - left + k - 1;
        dlen = j;
        end = true;
        if (dlen === 1 || dlen === 3 || dlen === 6) return olen - left - 1;
        break;
      }
      const d = B32_MAP[c]!;
      if (d === -1) return olen - left - 1;
      dbuf[j] = d;
      j++;
    }
    const [d0, d1, d2, d3, d4, d5, d6, d7] = dbuf as [number, number, number, number, number, number, number, number];
    const bytes = [
      ((d0 << 3) | (d1 >> 2)) & 0xff,
      ((d1 << 6) | (d2 << 1) | (d3 >> 4)) & 0xff,
      ((d3 << 4) | (d4 >> 1)) & 0xff,
      ((d4 << 7) | (d5 << 2) | (d6 >> 3)) & 0xff,
      ((d6 << 5) | d7) & 0xff,
    ];
    const keep = ({ 8: 5, 7: 4, 5: 3, 4: 2, 2: 1 } as Record<number, number>)[dlen] ?? 0;
    out.push(...bytes.slice(0, keep));
  }
  return Uint8Array.from(out);
}

function encode(b: Uint8Array, alphabet: string, bitsPer: number): string {
  const blockBytes = bitsPer === 6 ? 3 : 5;
  const blockChars = bitsPer === 6 ? 4 : 8;
  let out = '';
  for (let i = 0; i < b.length; i += blockBytes) {
    const chunk = b.subarray(i, i + blockBytes);
    let acc = 0n;
    for (let k = 0; k < blockBytes; k++) acc = (acc << 8n) | BigInt(chunk[k] ?? 0);
    const nChars = Math.ceil((chunk.length * 8) / bitsPer);
    for (let k = 0; k < blockChars; k++) {
      if (k < nChars) out += alphabet[Number((acc >> BigInt(bitsPer * (blockChars - 1 - k))) & BigInt((1 << bitsPer) - 1))];
      else out += '=';
    }
  }
  return out;
}

function decodeText(r: Uint8Array | number, name: string): string {
  if (typeof r === 'number') return `illegal ${name} data at input byte ${r}`;
  return fromUtf8(r);
}

export function encodingFuncs(): FuncMap {
  return table([
    def('b64enc', 'func(string) string', (s: string) => encode(utf8(s), B64, 6)),
    def('b64dec', 'func(string) string', (s: string) => decodeText(decode64(s), 'base64')),
    def('b32enc', 'func(string) string', (s: string) => encode(utf8(s), B32, 5)),
    def('b32dec', 'func(string) string', (s: string) => decodeText(decode32(s), 'base32')),
  ]);
}
