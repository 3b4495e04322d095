// Sprig's crypto functions (crypto.go): hashes, derivePassword (scrypt), AES-CBC with an injected
// random IV, bcrypt/htpasswd with an injected random salt; keys and certificates are in certs.ts.
//
// Mirrors: github.com/Masterminds/sprig/v3 crypto.go
// Proven by: test/vectors/sprig/crypto.jsonl, test/vectors/regress/sprig-crypto.jsonl

import { nodeCrypto } from '../guard/builtins.js';
import { def, type FuncMap } from '../go/reflect/value.js';
import { certFuncs } from './certs.js';
import { bcryptHash } from './bcrypt.js';
import { randomBytes } from './random.js';
import { fail, fromUtf8, panic, table, utf8, type SprigContext } from './util.js';
import { decode64 } from './encoding.js';
import { checkDeadline } from '../guard/limits.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The hex digest of a Go string's bytes (its UTF-8 encoding unless it holds bytes that are not UTF-8). */
function hashHex(alg: string, s: string): string {
  if (!s.isWellFormed()) return hex(nodeCrypto().createHash(alg).update(utf8(s)).digest());
  // crypto.hash (Node 20.12 and later): a one-shot digest, about 2.5 times as fast as a Hash object for
  // the short texts templates hash
  const oneShot = (nodeCrypto() as { hash?: (alg: string, data: string, enc: 'hex') => string }).hash;
  return oneShot ? oneShot(alg, s, 'hex') : nodeCrypto().createHash(alg).update(s, 'utf8').digest('hex');
}

function adler32(b: Uint8Array): number {
  let a = 1;
  let s = 0;
  for (const c of b) {
    a = (a + c) % 65521;
    s = (s + a) % 65521;
  }
  return ((s << 16) | a) >>> 0;
}

const MASTER_PASSWORD_SEED = 'com.lyndir.masterpassword';
const TEMPLATES: Record<string, string[]> = {
  maximum: ['anoxxxxxxxxxxxxxxxxx', 'axxxxxxxxxxxxxxxxxno'],
  long: [
    'CvcvnoCvcvCvcv', 'CvcvCvcvnoCvcv', 'CvcvCvcvCvcvno', 'CvccnoCvcvCvcv', 'CvccCvcvnoCvcv',
    'CvccCvcvCvcvno', 'CvcvnoCvccCvcv', 'CvcvCvccnoCvcv', 'CvcvCvccCvcvno', 'CvcvnoCvcvCvcc',
    'CvcvCvcvnoCvcc', 'CvcvCvcvCvccno', 'CvccnoCvccCvcv', 'CvccCvccnoCvcv', 'CvccCvccCvcvno',
    'CvcvnoCvccCvcc', 'CvcvCvccnoCvcc', 'CvcvCvccCvccno', 'CvccnoCvcvCvcc', 'CvccCvcvnoCvcc',
    'CvccCvcvCvccno',
  ],
  medium: ['CvcnoCvc', 'CvcCvcno'],
  short: ['Cvcn'],
  basic: ['aaanaaan', 'aannaaan', 'aaannaaa'],
  pin: ['nnnn'],
};
const CHARS: Record<string, string> = {
  V: 'AEIOU',
  C: 'BCDFGHJKLMNPQRSTVWXYZ',
  v: 'aeiou',
  c: 'bcdfghjklmnpqrstvwxyz',
  A: 'AEIOUBCDFGHJKLMNPQRSTVWXYZ',
  a: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz',
  n: '0123456789',
  o: "@&%?,=[]_:-+*$#!'^~;()/.",
  x: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789!@#$%^&*()',
};

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/** Master Password's derivation, as Sprig's derivePassword computes it. */
function derivePassword(counter: bigint, passwordType: string, password: string, user: string, site: string): string {
  const templates = Object.prototype.hasOwnProperty.call(TEMPLATES, passwordType) ? TEMPLATES[passwordType]! : undefined;
  if (!templates) return `cannot find password template ${passwordType}`;
  const seed = Buffer.from(MASTER_PASSWORD_SEED);
  const userB = Buffer.from(utf8(user));
  const salt = Buffer.concat([seed, u32(userB.length), userB]);
  // scrypt runs about 150 ms in native code that cannot be stopped: the time limit is checked around it
  checkDeadline();
  const key = nodeCrypto().scryptSync(Buffer.from(utf8(password)), salt, 64, { N: 32768, r: 8, p: 2, maxmem: 64 * 1024 * 1024 });
  checkDeadline();
  const siteB = Buffer.from(utf8(site));
  const msg = Buffer.concat([seed, u32(siteB.length), siteB, u32(Number(BigInt.asUintN(32, counter)))]);
  const digest = nodeCrypto().createHmac('sha256', key).update(msg).digest();
  const temp = templates[digest[0]! % templates.length]!;
  let out = '';
  for (let i = 0; i < temp.length; i++) {
    const chars = CHARS[temp[i]!]!;
    out += chars[digest[i + 1]! % chars.length];
  }
  return out;
}

function encryptAES(random: () => number, password: string, plaintext: string): string {
  if (plaintext === '') return '';
  const key = Buffer.alloc(32);
  Buffer.from(utf8(password)).copy(key, 0, 0, 32);
  const content = Buffer.from(utf8(plaintext));
  const padding = 16 - (content.length % 16);
  const padded = Buffer.concat([content, Buffer.alloc(padding, padding)]);
  const iv = Buffer.from(randomBytes(random, 16));
  const c = nodeCrypto().createCipheriv('aes-256-cbc', key, iv);
  c.setAutoPadding(false);
  return Buffer.concat([iv, c.update(padded), c.final()]).toString('base64');
}

function decryptAES(password: string, crypt64: string): string {
  if (crypt64 === '') return '';
  const key = Buffer.alloc(32);
  Buffer.from(utf8(password)).copy(key, 0, 0, 32);
  const decoded = decode64(crypt64);
  if (typeof decoded === 'number') fail(`illegal base64 data at input byte ${decoded}`);
  const crypt = Buffer.from(decoded);
  // Go slices the decoded bytes inside DecodeString's buffer, whose capacity is DecodedLen of the input.
  const capacity = Math.floor(utf8(crypt64).length / 4) * 3;
  if (crypt.length < 16) panic(`runtime error: slice bounds out of range [:16] with capacity ${capacity}`);
  const iv = crypt.subarray(0, 16);
  const body = crypt.subarray(16);
  if (body.length % 16 !== 0) panic('crypto/cipher: input not full blocks');
  const d = nodeCrypto().createDecipheriv('aes-256-cbc', key, iv);
  d.setAutoPadding(false);
  const dec = Buffer.concat([d.update(body), d.final()]);
  if (dec.length === 0) panic('runtime error: index out of range [-1]');
  const cut = dec.length - dec[dec.length - 1]!;
  if (cut < 0) panic(`runtime error: slice bounds out of range [:${cut}]`);
  return fromUtf8(dec.subarray(0, cut));
}

export function cryptoFuncs(ctx: SprigContext): FuncMap {
  const bcrypt = (input: string): string => bcryptHash(utf8(input), 10, randomBytes(ctx.random, 16));
  return table([
    def('sha1sum', 'func(string) string', (s: string) => hashHex('sha1', s)),
    def('sha256sum', 'func(string) string', (s: string) => hashHex('sha256', s)),
    def('adler32sum', 'func(string) string', (s: string) => String(adler32(utf8(s)))),
    def('bcrypt', 'func(string) string', bcrypt),
    def('htpasswd', 'func(string, string) string', (user: string, password: string) =>
      user.includes(':') ? `invalid username: ${user}` : `${user}:${bcrypt(password)}`,
    ),
    def('derivePassword', 'func(uint32, string, string, string, string) string', derivePassword),
    def('encryptAES', 'func(string, string) (string, error)', (p: string, t: string) => encryptAES(ctx.random, p, t)),
    def('decryptAES', 'func(string, string) (string, error)', decryptAES),
    ...certFuncs(),
  ]);
}
