// node:crypto in the playground's bundle: Sprig's hashes (sha1sum, sha256sum), derivePassword (scrypt
// and HMAC-SHA256) and AES-CBC (encryptAES, decryptAES) from the noble libraries, pure JavaScript; the
// key and certificate functions (genPrivateKey, genCA, genSelfSignedCert, ...) need Node's crypto and
// fail in the page with one line saying so.

import { Buffer } from 'buffer';
import { sha1, md5 } from '@noble/hashes/legacy.js';
import { sha256, sha512, sha384, sha224 } from '@noble/hashes/sha2.js';
import { hmac } from '@noble/hashes/hmac.js';
import { scrypt } from '@noble/hashes/scrypt.js';
import { cbc } from '@noble/ciphers/aes.js';

type Data = string | Uint8Array;
type HashFn = (b: Uint8Array) => Uint8Array;

const HASHES: Record<string, HashFn> = { sha1, md5, sha256, sha512, sha384, sha224 };

function hashOf(alg: string): HashFn {
  const h = HASHES[alg.toLowerCase()];
  if (!h) throw new Error(`the ${alg} digest is not available in the browser`);
  return h;
}

const bytes = (d: Data, enc?: string): Uint8Array => (typeof d === 'string' ? Buffer.from(d, (enc ?? 'utf8') as BufferEncoding) : d);

function concat(parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

/** A digest computed once its data is all given: Node's Hash, for the digests above. */
class Digest {
  private parts: Uint8Array[] = [];
  constructor(private readonly fn: (b: Uint8Array) => Uint8Array) {}
  update(d: Data, enc?: string): this {
    this.parts.push(bytes(d, enc));
    return this;
  }
  digest(): Buffer;
  digest(enc: string): string;
  digest(enc?: string): Buffer | string {
    const out = Buffer.from(this.fn(concat(this.parts)));
    return enc ? out.toString(enc as BufferEncoding) : out;
  }
}

export function createHash(alg: string): Digest {
  return new Digest(hashOf(alg));
}

export function createHmac(alg: string, key: Data): Digest {
  const h = hashOf(alg);
  const k = bytes(key);
  return new Digest((b) => hmac(h as Parameters<typeof hmac>[0], k, b));
}

export function scryptSync(password: Data, salt: Data, keylen: number, o: { N?: number; r?: number; p?: number } = {}): Buffer {
  return Buffer.from(scrypt(bytes(password), bytes(salt), { N: o.N ?? 16384, r: o.r ?? 8, p: o.p ?? 1, dkLen: keylen, maxmem: 2 ** 31 }));
}

/** aes-256-cbc without automatic padding, as Sprig's encryptAES and decryptAES use it. */
class Cbc {
  private parts: Uint8Array[] = [];
  constructor(
    private readonly alg: string,
    private readonly key: Uint8Array,
    private readonly iv: Uint8Array,
    private readonly encrypt: boolean,
  ) {
    if (alg !== 'aes-256-cbc') throw new Error(`the ${alg} cipher is not available in the browser`);
  }
  setAutoPadding(on: boolean): this {
    if (on) throw new Error(`${this.alg} with automatic padding is not available in the browser`);
    return this;
  }
  update(d: Uint8Array): Buffer {
    this.parts.push(d);
    return Buffer.alloc(0);
  }
  final(): Buffer {
    const c = cbc(this.key, this.iv, { disablePadding: true });
    const data = concat(this.parts);
    return Buffer.from(this.encrypt ? c.encrypt(data) : c.decrypt(data));
  }
}

export function createCipheriv(alg: string, key: Uint8Array, iv: Uint8Array): Cbc {
  return new Cbc(alg, key, iv, true);
}

export function createDecipheriv(alg: string, key: Uint8Array, iv: Uint8Array): Cbc {
  return new Cbc(alg, key, iv, false);
}

/** Node's one-shot digest: absent, so Sprig uses createHash. */
export const hash = undefined;

export function randomBytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  globalThis.crypto.getRandomValues(b);
  return b;
}

/** The message the key and certificate functions give in the page. */
export const NO_KEYS = "keys and certificates (genPrivateKey, genCA, genSelfSignedCert, genSignedCert, buildCustomCert) need Node's crypto: use the command line";

function noKeys(): never {
  throw new Error(NO_KEYS);
}

export const createPrivateKey = noKeys;
export const createPublicKey = noKeys;
export const generateKeyPairSync = noKeys;
export const sign = noKeys;
export class X509Certificate {
  constructor() {
    noKeys();
  }
}
export type KeyObject = never;
