// Sprig's key and certificate functions (crypto.go): genPrivateKey, genCA, genSelfSignedCert,
// genSignedCert, their ...WithKey forms and buildCustomCert. Keys come from node:crypto with the
// system's secure random source, as Go's crypto/rand (a key from an injected, repeatable source would
// be no key at all); certificates are the DER Go's x509.CreateCertificate writes for Sprig's template:
// the same fields, extensions and encodings, signed with node:crypto.
//
// Mirrors: github.com/Masterminds/sprig/v3 crypto.go (keys and certificates); go1.19 src/crypto/x509/x509.go (CreateCertificate)
// Proven by: test/vectors/sprig/certs.jsonl, test/funcs/sprig/certs.test.ts

import type { KeyObject } from 'node:crypto';
import { nodeCrypto } from '../guard/builtins.js';
import { parseIP } from '../go/net/ip.js';
import { GoFunc, GoStruct, GoNum, T, type GoType, type GoValue } from '../go/reflect/value.js';
import { fail, fromUtf8, utf8 } from './util.js';
import { decode64 } from './encoding.js';
import { formatValue } from '../go/fmt/print.js';
import { checkDeadline } from '../guard/limits.js';
import { quote } from '../go/strconv/strconv.js';

/** A failure Sprig reports as the error result of the function (Go's text). */
class CertError extends Error {}

// ---------- DER ----------

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let x = n; x > 0; x = Math.floor(x / 256)) bytes.unshift(x & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

const seq = (...c: Buffer[]) => tlv(0x30, ...c);
const set = (...c: Buffer[]) => tlv(0x31, ...c);
const octets = (b: Buffer) => tlv(0x04, b);
const bitString = (b: Buffer, unused = 0) => tlv(0x03, Buffer.from([unused]), b);
const explicit = (n: number, ...c: Buffer[]) => tlv(0xa0 | n, ...c);

function integer(v: bigint): Buffer {
  let hex = v.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  let b = Buffer.from(hex, 'hex');
  if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [parts[0]! * 40 + parts[1]!];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let x = Math.floor(p / 128); x > 0; x = Math.floor(x / 128)) chunk.unshift(0x80 | (x & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

interface Der {
  tag: number;
  /** The whole element. */
  raw: Buffer;
  /** Its contents. */
  body: Buffer;
}

/** The elements of DER content, one level; throws on malformed input. */
function derItems(b: Buffer): Der[] {
  const out: Der[] = [];
  let i = 0;
  while (i < b.length) {
    const start = i;
    const tag = b[i++]!;
    if (i >= b.length) throw new CertError('truncated');
    let len = b[i++]!;
    if (len & 0x80) {
      const n = len & 0x7f;
      if (n === 0 || n > 4 || i + n > b.length) throw new CertError('bad length');
      len = 0;
      for (let k = 0; k < n; k++) len = len * 256 + b[i++]!;
    }
    if (i + len > b.length) throw new CertError('truncated');
    out.push({ tag, raw: b.subarray(start, i + len), body: b.subarray(i, i + len) });
    i += len;
  }
  return out;
}

const bigOf = (d: Der): bigint => (d.body.length === 0 ? 0n : BigInt('0x' + d.body.toString('hex')));

function modPow(b: bigint, e: bigint, m: bigint): bigint {
  let r = 1n;
  b %= m;
  while (e > 0n) {
    if (e & 1n) r = (r * b) % m;
    e >>= 1n;
    b = (b * b) % m;
  }
  return r;
}

// ---------- PEM ----------

function pem(type: string, der: Buffer): string {
  const b64 = der.toString('base64');
  let body = '';
  for (let i = 0; i < b64.length; i += 64) body += b64.slice(i, i + 64) + '\n';
  return `-----BEGIN ${type}-----\n${body}-----END ${type}-----\n`;
}

/** encoding/pem.Decode's first block: its type and bytes, or undefined. */
function pemDecode(text: string): { type: string; bytes: Buffer } | undefined {
  const re = /-----BEGIN ([^\n]*?)-----[ \t]*\r?\n([\s\S]*?)-----END \1-----/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const body = m[2]!.replace(/^[^\n:]*:[^\n]*\r?\n/gm, '').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 !== 0) continue;
    return { type: m[1]!, bytes: Buffer.from(body, 'base64') };
  }
  return undefined;
}

// ---------- keys ----------

/** A private key as Sprig holds it: a node:crypto key, or DSA's numbers (DSA keys do not sign certificates). */
type PrivateKey = { kind: 'node'; key: KeyObject } | { kind: 'dsa'; p: bigint; q: bigint; g: bigint; y: bigint; x: bigint };

/** Sprig's pemBlockForKey: PKCS#1 for RSA, SEC 1 for ECDSA, OpenSSL's DSA layout, PKCS#8 otherwise. */
function keyPem(k: PrivateKey): string {
  if (k.kind === 'dsa') {
    return pem('DSA PRIVATE KEY', seq(integer(0n), integer(k.p), integer(k.q), integer(k.g), integer(k.y), integer(k.x)));
  }
  switch (k.key.asymmetricKeyType) {
    case 'rsa':
      return k.key.export({ type: 'pkcs1', format: 'pem' }) as string;
    case 'ec':
      return k.key.export({ type: 'sec1', format: 'pem' }) as string;
  }
  return k.key.export({ type: 'pkcs8', format: 'pem' }) as string;
}

/** A DSA key from node:crypto's PKCS#8 (which holds p, q, g and x; y = g^x mod p). */
function dsaFromPkcs8(der: Buffer): PrivateKey {
  const [info] = derItems(der);
  const [, alg, priv] = derItems(info!.body);
  const [, params] = derItems(alg!.body);
  const [p, q, g] = derItems(params!.body).map(bigOf);
  const [x] = derItems(priv!.body).map(bigOf);
  return { kind: 'dsa', p: p!, q: q!, g: g!, x: x!, y: modPow(g!, x!, p!) };
}

function rsaKey(bits: number): PrivateKey {
  checkDeadline();
  return { kind: 'node', key: nodeCrypto().generateKeyPairSync('rsa', { modulusLength: bits, publicExponent: 65537 }).privateKey };
}

function generatePrivateKey(typ: string): string {
  // a key takes up to seconds: a template that asks for many stops at --timeout
  checkDeadline();
  switch (typ) {
    case '':
    case 'rsa':
      return keyPem(rsaKey(4096));
    case 'dsa': {
      const { privateKey } = nodeCrypto().generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 });
      return keyPem(dsaFromPkcs8(privateKey.export({ type: 'pkcs8', format: 'der' })));
    }
    case 'ecdsa':
      return keyPem({ kind: 'node', key: nodeCrypto().generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey });
    case 'ed25519':
      return keyPem({ kind: 'node', key: nodeCrypto().generateKeyPairSync('ed25519').privateKey });
  }
  return 'Unknown type ' + typ;
}

/** Why node:crypto refused a key's bytes, briefly. */
function why(e: unknown): string {
  return ((e as Error).message ?? String(e)).split('\n')[0]!;
}

/** Sprig's parsePrivateKeyPEM, with its error texts. */
function parsePrivateKeyPEM(text: string): PrivateKey {
  const block = pemDecode(text);
  if (!block) throw new CertError('no PEM data in input');
  const load = (type: 'pkcs1' | 'pkcs8' | 'sec1', prefix: string): PrivateKey => {
    try {
      return { kind: 'node', key: nodeCrypto().createPrivateKey({ key: block.bytes, format: 'der', type }) };
    } catch (e) {
      throw new CertError(`${prefix}${why(e)}`);
    }
  };
  if (block.type === 'PRIVATE KEY') {
    const k = load('pkcs8', 'decoding PEM as PKCS#8: ');
    if (k.kind === 'node' && k.key.asymmetricKeyType === 'dsa') return dsaFromPkcs8(block.bytes);
    return k;
  }
  if (!block.type.endsWith(' PRIVATE KEY')) throw new CertError(`no private key data in PEM block of type ${block.type}`);
  switch (block.type.slice(0, -12)) {
    case 'RSA':
      return load('pkcs1', 'parsing RSA private key from PEM: ');
    case 'EC':
      return load('sec1', 'parsing EC private key from PEM: x509: failed to parse EC private key: ');
    case 'DSA':
      try {
        const [k] = derItems(block.bytes);
        const [, p, q, g, y, x] = derItems(k!.body).map(bigOf);
        if (x === undefined) throw new CertError('truncated');
        return { kind: 'dsa', p: p!, q: q!, g: g!, y: y!, x };
      } catch (e) {
        throw new CertError(`parsing DSA private key from PEM: asn1: ${why(e)}`);
      }
  }
  throw new CertError(`invalid private key type ${block.type}`);
}

// ---------- certificates ----------

export const CERTIFICATE: GoType = {
  kind: 'struct',
  name: 'sprig.certificate',
  fields: [
    { name: 'Cert', json: 'Cert', type: T.string },
    { name: 'Key', json: 'Key', type: T.string },
  ],
};

export class Certificate extends GoStruct {
  readonly type = CERTIFICATE;
  constructor(
    readonly cert: string,
    readonly key: string,
  ) {
    super();
  }
  override field(name: string): GoValue {
    return name === 'Cert' ? this.cert : name === 'Key' ? this.key : undefined;
  }
}

const OID = {
  commonName: '2.5.4.3',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  basicConstraints: '2.5.29.19',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ecdsaWithSHA384: '1.2.840.10045.4.3.3',
  ecdsaWithSHA512: '1.2.840.10045.4.3.4',
  ed25519: '1.3.101.112',
};

function listArg(v: GoValue): GoValue[] {
  return Array.isArray(v) ? v : [];
}

/** %v of a list element in Sprig's "is not a string" errors. */
const show = (v: GoValue): string => formatValue(v);

/** A string in an X.501 name: PrintableString when it can be one (with '*'), else UTF8String (encoding/asn1). */
function directoryString(s: string): Buffer {
  const printable = /^[A-Za-z0-9 '()+,\-./:=?*]*$/.test(s);
  return tlv(printable ? 0x13 : 0x0c, Buffer.from(utf8(s)));
}

/** Go's UTCTime before 2050, GeneralizedTime from it (RFC 5280), to the second in UTC. */
function certTime(ms: number): Buffer {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const p2 = (n: number) => String(n).padStart(2, '0');
  const rest = p2(d.getUTCMonth() + 1) + p2(d.getUTCDate()) + p2(d.getUTCHours()) + p2(d.getUTCMinutes()) + p2(d.getUTCSeconds()) + 'Z';
  if (y >= 1950 && y < 2050) return tlv(0x17, Buffer.from(p2(y % 100) + rest));
  if (y < 0 || y > 9999) throw new CertError('x509: asn1: structure error: cannot represent time as GeneralizedTime');
  return tlv(0x18, Buffer.from(String(y).padStart(4, '0') + rest));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), octets(value));
}

/** Key usage bits as x509's marshalKeyUsage writes them: bit 0 first, trailing zero bits left out. */
function keyUsage(bits: number): Buffer {
  let rev = 0;
  for (let i = 0; i < 8; i++) if (bits & (1 << i)) rev |= 0x80 >> i;
  let len = 8;
  while (len > 0 && !(rev & (1 << (8 - len)))) len--;
  return bitString(Buffer.from([rev]), 8 - len);
}

const KU_DIGITAL_SIGNATURE = 1 << 0;
const KU_KEY_ENCIPHERMENT = 1 << 2;
const KU_CERT_SIGN = 1 << 5;

interface Template {
  cn: string;
  ips: Buffer[];
  dns: string[];
  days: bigint;
  isCA: boolean;
}

/** Sprig's getBaseCertTemplate: the addresses and names checked, with its error texts. */
function baseTemplate(cn: string, ips: GoValue, dns: GoValue, days: GoValue, isCA = false): Template {
  const ipBytes = listArg(ips).map((ip) => {
    if (typeof ip !== 'string') throw new CertError(`error parsing ip: ${show(ip)} is not a string`);
    const b = parseIP(ip);
    if (!b) throw new CertError(`error parsing ip: ${ip}`);
    return b;
  });
  const names = listArg(dns).map((n) => {
    if (typeof n !== 'string') throw new CertError(`error processing alternate dns name: ${show(n)} is not a string`);
    return n;
  });
  const d = typeof days === 'bigint' ? days : days instanceof GoNum ? BigInt(days.v) : 0n;
  return { cn, ips: ipBytes, dns: names, days: d, isCA };
}

interface Issuer {
  subject: Buffer;
  subjectKeyId?: Buffer;
  key: PrivateKey;
}

function publicKeyOf(k: PrivateKey): KeyObject {
  if (k.kind === 'dsa') throw new CertError('error creating certificate: x509: unsupported public key type: *dsa.PublicKey');
  return nodeCrypto().createPublicKey(k.key);
}

/** The signature algorithm x509.CreateCertificate picks for a key, and how node:crypto signs with it. */
function signer(k: PrivateKey): { alg: Buffer; sign: (tbs: Buffer) => Buffer } {
  if (k.kind === 'dsa') throw new CertError('error creating certificate: x509: certificate private key does not implement crypto.Signer');
  const key = k.key;
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return { alg: seq(oid(OID.sha256WithRSA), tlv(0x05, Buffer.alloc(0))), sign: (tbs) => nodeCrypto().sign('sha256', tbs, key) };
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      const [id, hash] = curve === 'secp384r1' ? [OID.ecdsaWithSHA384, 'sha384'] : curve === 'secp521r1' ? [OID.ecdsaWithSHA512, 'sha512'] : [OID.ecdsaWithSHA256, 'sha256'];
      return { alg: seq(oid(id)), sign: (tbs) => nodeCrypto().sign(hash, tbs, { key, dsaEncoding: 'der' }) };
    }
    case 'ed25519':
      return { alg: seq(oid(OID.ed25519)), sign: (tbs) => nodeCrypto().sign(null, tbs, key) };
  }
  throw new CertError('error creating certificate: x509: only RSA, ECDSA and Ed25519 keys supported');
}

/** x509.CreateCertificate for Sprig's template, then Sprig's getCertAndKey: the PEM certificate and key. */
function createCertificate(t: Template, key: PrivateKey, issuer: Issuer | 'self'): Certificate {
  // in x509.CreateCertificate's order: the signing key, the public key, then the extensions
  const signing = issuer === 'self' ? key : issuer.key;
  const sig = signer(signing);
  const spki = publicKeyOf(key).export({ type: 'spki', format: 'der' });
  for (const n of t.dns) {
    if (!/^[\x00-\x7f]*$/.test(n)) throw new CertError(`error creating certificate: x509: ${quote(n)} cannot be encoded as an IA5String`);
  }
  const subject = seq(...(t.cn !== '' ? [set(seq(oid(OID.commonName), directoryString(t.cn)))] : []));
  const issuerName = issuer === 'self' ? subject : issuer.subject;
  // the key's bits inside subjectPublicKeyInfo's BIT STRING, which a CA's subject key id hashes
  const keyBits = derItems(derItems(spki)[0]!.body)[1]!.body.subarray(1);
  const serial = BigInt('0x' + nodeCrypto().randomBytes(16).toString('hex'));
  const now = Date.now();
  const nsValid = BigInt.asIntN(64, 86_400_000_000_000n * t.days);
  const notAfter = now + Number(nsValid / 1_000_000n);

  const exts: Buffer[] = [extension(OID.keyUsage, true, keyUsage(KU_DIGITAL_SIGNATURE | KU_KEY_ENCIPHERMENT | (t.isCA ? KU_CERT_SIGN : 0)))];
  exts.push(extension(OID.extKeyUsage, false, seq(oid(OID.serverAuth), oid(OID.clientAuth))));
  exts.push(extension(OID.basicConstraints, true, seq(...(t.isCA ? [tlv(0x01, Buffer.from([0xff]))] : []))));
  if (t.isCA) exts.push(extension(OID.subjectKeyId, false, octets(nodeCrypto().createHash('sha1').update(keyBits).digest())));
  if (issuer !== 'self' && !issuer.subject.equals(subject) && issuer.subjectKeyId) {
    exts.push(extension(OID.authorityKeyId, false, seq(tlv(0x80, issuer.subjectKeyId))));
  }
  if (t.dns.length > 0 || t.ips.length > 0) {
    exts.push(extension(OID.subjectAltName, false, seq(...t.dns.map((n) => tlv(0x82, Buffer.from(n, 'latin1'))), ...t.ips.map((ip) => tlv(0x87, ip)))));
  }
  let validity: Buffer;
  try {
    validity = seq(certTime(now), certTime(notAfter));
  } catch (e) {
    throw new CertError(`error creating certificate: ${why(e)}`);
  }
  const tbs = seq(explicit(0, integer(2n)), integer(serial), sig.alg, issuerName, validity, subject, spki, explicit(3, seq(...exts)));
  const der = seq(tbs, sig.alg, bitString(sig.sign(tbs)));
  return new Certificate(pem('CERTIFICATE', der), keyPem(key));
}

/** The parts of a PEM certificate an issuer needs: its subject as written and its subject key id. */
function issuerOf(ca: GoValue): Issuer {
  const c = ca as Certificate;
  const block = pemDecode(c.cert);
  if (!block) throw new CertError('unable to decode certificate');
  let subject: Buffer;
  let subjectKeyId: Buffer | undefined;
  try {
    new (nodeCrypto().X509Certificate)(block.bytes);
    const tbs = derItems(derItems(derItems(block.bytes)[0]!.body)[0]!.raw)[0]!;
    const parts = derItems(tbs.body);
    const at = parts[0]!.tag === 0xa0 ? 1 : 0;
    subject = parts[at + 4]!.raw;
    const ext = parts.find((p) => p.tag === 0xa3);
    if (ext) {
      for (const e of derItems(derItems(ext.body)[0]!.body)) {
        const f = derItems(e.body);
        if (f[0]!.body.equals(oid(OID.subjectKeyId).subarray(2))) subjectKeyId = derItems(f[f.length - 1]!.body)[0]!.body;
      }
    }
  } catch {
    throw new CertError('error parsing certificate: decodedSignerCert.Bytes: x509: malformed certificate');
  }
  let key: PrivateKey;
  try {
    key = parsePrivateKeyPEM(c.key);
  } catch (e) {
    throw new CertError(`error parsing private key: ${why(e)}`);
  }
  return { subject, ...(subjectKeyId ? { subjectKeyId } : {}), key };
}

function buildCustomCert(b64cert: string, b64key: string): Certificate {
  const cert = decode64(b64cert);
  if (typeof cert === 'number') throw new CertError('unable to decode base64 certificate');
  const key = decode64(b64key);
  if (typeof key === 'number') throw new CertError('unable to decode base64 private key');
  const certText = fromUtf8(cert);
  const block = pemDecode(Buffer.from(cert).toString('latin1'));
  if (!block) throw new CertError('unable to decode certificate');
  try {
    new (nodeCrypto().X509Certificate)(block.bytes);
  } catch {
    throw new CertError('error parsing certificate: decodedCert.Bytes: x509: malformed certificate');
  }
  const keyText = fromUtf8(key);
  try {
    parsePrivateKeyPEM(Buffer.from(key).toString('latin1'));
  } catch (e) {
    throw new CertError(`error parsing private key: ${why(e)}`);
  }
  return new Certificate(certText, keyText);
}

/** The private key a ...WithKey function is given, with Sprig's "parsing private key" prefix. */
function givenKey(text: string): PrivateKey {
  try {
    return parsePrivateKeyPEM(text);
  } catch (e) {
    throw new CertError(`parsing private key: ${why(e)}`);
  }
}

/** A function returning (certificate, error): an error is Go's error result. */
function certFunc(name: string, params: GoType[], f: (...a: any[]) => Certificate): GoFunc {
  return new GoFunc(name, params, false, 2, CERTIFICATE, (...a: unknown[]) => {
    try {
      return f(...a);
    } catch (e) {
      if (e instanceof CertError) fail(e.message);
      throw e;
    }
  });
}

export function certFuncs(): GoFunc[] {
  const S = T.string;
  const list = { kind: 'slice', name: '[]interface {}', elem: T.iface } as GoType;
  return [
    new GoFunc('genPrivateKey', [S], false, 1, S, (typ) => generatePrivateKey(typ as string)),
    certFunc('buildCustomCert', [S, S], buildCustomCert),
    certFunc('genCA', [S, T.int], (cn: string, days: GoValue) => createCertificate(baseTemplate(cn, null, null, days, true), rsaKey(2048), 'self')),
    certFunc('genCAWithKey', [S, T.int, S], (cn: string, days: GoValue, k: string) => {
      const key = givenKey(k);
      return createCertificate(baseTemplate(cn, null, null, days, true), key, 'self');
    }),
    certFunc('genSelfSignedCert', [S, list, list, T.int], (cn: string, ips: GoValue, dns: GoValue, days: GoValue) => {
      const t = baseTemplate(cn, ips, dns, days);
      return createCertificate(t, rsaKey(2048), 'self');
    }),
    certFunc('genSelfSignedCertWithKey', [S, list, list, T.int, S], (cn: string, ips: GoValue, dns: GoValue, days: GoValue, k: string) => {
      const key = givenKey(k);
      return createCertificate(baseTemplate(cn, ips, dns, days), key, 'self');
    }),
    certFunc('genSignedCert', [S, list, list, T.int, CERTIFICATE], (cn: string, ips: GoValue, dns: GoValue, days: GoValue, ca: GoValue) => {
      const key = rsaKey(2048);
      const issuer = issuerOf(ca);
      return createCertificate(baseTemplate(cn, ips, dns, days), key, issuer);
    }),
    certFunc('genSignedCertWithKey', [S, list, list, T.int, CERTIFICATE, S], (cn: string, ips: GoValue, dns: GoValue, days: GoValue, ca: GoValue, k: string) => {
      const key = givenKey(k);
      const issuer = issuerOf(ca);
      return createCertificate(baseTemplate(cn, ips, dns, days), key, issuer);
    }),
  ];
}
