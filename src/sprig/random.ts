// Sprig's random strings (goutils' CryptoRandom*), uuidv4 and randBytes, drawing from the injected
// random source instead of crypto/rand so that tests are reproducible.
//
// Mirrors: github.com/Masterminds/sprig/v3 strings.go (rand*), crypto.go (uuidv4, randBytes);
//          github.com/Masterminds/goutils cryptorandomstringutils.go
// Proven by: test/funcs/sprig/injected.test.ts

import { def, type FuncMap } from '../go/reflect/value.js';
import { isDigit, isLetter, panic, table, type SprigContext } from './util.js';

/** goutils.CryptoRandom without a custom character set (surrogate handling cannot trigger below 'z'). */
function cryptoRandom(random: () => number, count: number, start: number, end: number, letters: boolean, numbers: boolean): string {
  if (count <= 0) return '';
  if (start === 0 && end === 0) {
    if (!letters && !numbers) end = 0x7fffffff;
    else {
      end = 0x7a + 1;
      start = 0x20;
    }
  }
  const gap = end - start;
  const buf: number[] = new Array(count);
  while (count !== 0) {
    count--;
    const ch = Math.floor(random() * gap) + start;
    if ((letters && isLetter(ch)) || (numbers && isDigit(ch)) || (!letters && !numbers)) {
      if (ch >= 0xd800 && ch <= 0xdfff) count++;
      else buf[count] = ch;
    } else count++;
  }
  return String.fromCodePoint(...buf);
}

export function randomBytes(random: () => number, n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(random() * 256);
  return b;
}

export function randomFuncs(ctx: SprigContext): FuncMap {
  const r = ctx.random;
  const n = (c: bigint): number => Number(c);
  return table([
    def('randAlphaNum', 'func(int) string', (c: bigint) => cryptoRandom(r, n(c), 0, 0, true, true)),
    def('randAlpha', 'func(int) string', (c: bigint) => cryptoRandom(r, n(c), 0, 0, true, false)),
    def('randAscii', 'func(int) string', (c: bigint) => cryptoRandom(r, n(c), 32, 127, false, false)),
    def('randNumeric', 'func(int) string', (c: bigint) => cryptoRandom(r, n(c), 0, 0, false, true)),
    def('randBytes', 'func(int) (string, error)', (c: bigint) => {
      if (c < 0n) panic('runtime error: makeslice: len out of range');
      return Buffer.from(randomBytes(r, n(c))).toString('base64');
    }),
    def('uuidv4', 'func() string', () => {
      const b = randomBytes(r, 16);
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      const h = Buffer.from(b).toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }),
  ]);
}
