// The playground's stand-ins for Node's modules (playground/shims/) give Node's answers where the page
// calls them: isIP over many strings, POSIX paths, and Sprig's digests, scrypt, HMAC and AES-CBC.

import * as net from 'node:net';
import * as nodePath from 'node:path';
import * as nodeCrypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as shimNet from '../../playground/shims/net.js';
import * as shimPath from '../../playground/shims/path.js';
import * as shimCrypto from '../../playground/shims/crypto.js';
import * as shimBuffer from '../../playground/shims/node-buffer.js';
import { isUtf8 } from 'node:buffer';

describe('node:net stand-in', () => {
  const known = [
    '', '1.2.3.4', '255.255.255.255', '256.1.1.1', '01.2.3.4', '0.0.0.0', '1.2.3', '1.2.3.4.5', ' 1.2.3.4', '1.2.3.4 ',
    '::', '::1', '1::', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1::2::3', ':::', ':1::', '1::2:',
    '::ffff:1.2.3.4', '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7:1.2.3.4', '1.2.3.4::', 'fe80::1%eth0', 'fe80::1%', 'fe80::1%a b', '12345::',
    'abcd:ef01:2345:6789:abcd:ef01:2345:6789', 'g::1', '1:2:3:4:5:6:7:8%1', '::1.2.3.4', '::1.2.3',
  ];
  it('answers as Node does for the known cases', () => {
    for (const s of known) expect([s, shimNet.isIP(s)]).toEqual([s, net.isIP(s)]);
  });
  it('answers as Node does for strings built of address pieces', () => {
    const piece = fc.constantFrom('1', '0', '00', 'ff', 'FFFF', '12345', '255', '256', '01', ':', '::', '.', '%', 'eth0', 'g', '1.2.3.4', '');
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
      const s = parts.join('');
      expect([s, shimNet.isIP(s), shimNet.isIPv4(s), shimNet.isIPv6(s)]).toEqual([s, net.isIP(s), net.isIPv4(s), net.isIPv6(s)]);
    }), { numRuns: 3000 });
  });
});

describe('node:buffer stand-in', () => {
  it('isUtf8 answers as Node does', () => {
    const known = [[], [0x41], [0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0xe2, 0x82]];
    for (const b of known) expect([b, shimBuffer.isUtf8(new Uint8Array(b))]).toEqual([b, isUtf8(new Uint8Array(b))]);
    fc.assert(fc.property(fc.uint8Array({ maxLength: 12 }), (b) => shimBuffer.isUtf8(b) === isUtf8(b)), { numRuns: 5000 });
  });
});

describe('node:path stand-in', () => {
  it('joins, normalizes and splits as path.posix', () => {
    const cases = ['', '.', '..', '/', 'a', 'a/b', 'a//b/', '/a/../b', 'a/./b/..', '../a', 'a/b/c.tmpl', '/x/y.tar.gz', '.hidden', '.a.b', 'a.', 'a/..', '/..', 'a/b/'];
    for (const p of cases) {
      expect(shimPath.normalize(p)).toBe(nodePath.posix.normalize(p));
      expect(shimPath.dirname(p)).toBe(nodePath.posix.dirname(p));
      expect(shimPath.basename(p)).toBe(nodePath.posix.basename(p));
      expect(shimPath.extname(p)).toBe(nodePath.posix.extname(p));
      expect(shimPath.join('x', p)).toBe(nodePath.posix.join('x', p));
    }
    expect(shimPath.resolve('/a', 'b', '../c')).toBe('/a/c');
  });
});

describe('node:crypto stand-in', () => {
  it("gives Node's digests, HMAC, scrypt and AES-CBC", () => {
    for (const alg of ['sha1', 'sha256', 'sha512', 'md5']) {
      for (const s of ['', 'abc', 'héllo wörld', 'x'.repeat(1000)]) expect(shimCrypto.createHash(alg).update(s, 'utf8').digest('hex')).toBe(nodeCrypto.createHash(alg).update(s, 'utf8').digest('hex'));
    }
    expect(shimCrypto.createHmac('sha256', Buffer.from('key')).update(Buffer.from('msg')).digest().toString('hex')).toBe(nodeCrypto.createHmac('sha256', 'key').update('msg').digest('hex'));
    const o = { N: 1024, r: 8, p: 2 };
    expect(shimCrypto.scryptSync(Buffer.from('pw'), Buffer.from('salt'), 64, o).toString('hex')).toBe(nodeCrypto.scryptSync('pw', 'salt', 64, o).toString('hex'));
    const key = Buffer.alloc(32, 7);
    const iv = Buffer.alloc(16, 3);
    const data = Buffer.alloc(48, 9);
    const n = nodeCrypto.createCipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
    const want = Buffer.concat([n.update(data), n.final()]);
    const c = shimCrypto.createCipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
    const got = Buffer.concat([c.update(data), c.final()]);
    expect(Buffer.from(got).toString('hex')).toBe(want.toString('hex'));
    const d = shimCrypto.createDecipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
    expect(Buffer.from(Buffer.concat([d.update(got), d.final()])).toString('hex')).toBe(data.toString('hex'));
  });
  it('refuses keys and certificates with one line', () => {
    expect(() => shimCrypto.generateKeyPairSync()).toThrow("need Node's crypto");
  });
});
