// Sprig's keys and certificates: random as in Go, so their structure is checked here (PEM blocks, key
// types, certificate fields, validity, names, signatures); Go's error texts are vectors
// (test/vectors/sprig/certs.jsonl).

import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Template } from '../../../src/go/text/template/template.js';
import { sprigFuncs } from '../../../src/sprig/index.js';

function render(src: string, data: unknown = null): string {
  return new Template('t').funcs(sprigFuncs({})).parse(src).execute(data as never);
}

/** Cert and Key of a certificate-returning call, separated by a marker. */
function certOf(call: string, data: unknown = null): { cert: X509Certificate; certPem: string; keyPem: string } {
  const [certPem, keyPem] = render(`{{ $c := ${call} }}{{ $c.Cert }}@@{{ $c.Key }}`, data).split('@@') as [string, string];
  return { cert: new X509Certificate(certPem), certPem, keyPem };
}

const DAY = 86_400_000;

function blocks(pem: string): string[] {
  return [...pem.matchAll(/-----BEGIN ([A-Z ]+)-----\n(?:[A-Za-z0-9+/=]{1,64}\n)+-----END \1-----\n/g)].map((m) => m[1]!);
}

describe('genPrivateKey', () => {
  it.each([
    ['rsa', 'RSA PRIVATE KEY', 'rsa', 4096],
    ['', 'RSA PRIVATE KEY', 'rsa', 4096],
    ['ecdsa', 'EC PRIVATE KEY', 'ec', undefined],
    ['ed25519', 'PRIVATE KEY', 'ed25519', undefined],
  ])('%j: one %s block of a %s key', (typ, block, keyType, bits) => {
    const pem = render(`{{ genPrivateKey "${typ}" }}`);
    expect(blocks(pem)).toEqual([block]);
    expect(pem).toBe(pem.match(/-----BEGIN[\s\S]*-----END [A-Z ]+-----\n/)![0]);
    const key = createPrivateKey(pem);
    expect(key.asymmetricKeyType).toBe(keyType);
    if (bits) expect(key.asymmetricKeyDetails?.modulusLength).toBe(bits);
    if (keyType === 'ec') expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    // a 4096-bit RSA key takes seconds: a second one is drawn for the quick types only
    if (keyType !== 'rsa') expect(render(`{{ genPrivateKey "${typ}" }}`)).not.toBe(pem);
  });

  it('dsa: a "DSA PRIVATE KEY" block (OpenSSL\'s layout, as Sprig writes it) of 2048/256 bits', () => {
    const pem = render('{{ genPrivateKey "dsa" }}');
    expect(blocks(pem)).toEqual(['DSA PRIVATE KEY']);
    const key = createPrivateKey(pem);
    expect(key.asymmetricKeyType).toBe('dsa');
    expect(key.asymmetricKeyDetails).toMatchObject({ modulusLength: 2048, divisorLength: 256 });
  });
});

describe('certificates', () => {
  it('genCA: a self-signed RSA 2048 CA for the days asked, valid from now', () => {
    const before = Date.now() - 1000;
    const { cert, keyPem } = certOf('genCA "my-ca" 365');
    expect(cert.subject).toBe('CN=my-ca');
    expect(cert.issuer).toBe('CN=my-ca');
    expect(cert.ca).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(keyPem))).toBe(true);
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const from = Date.parse(cert.validFrom);
    expect(from).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(from).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(cert.validTo) - from).toBe(365 * DAY);
    expect(cert.keyUsage).toEqual(expect.arrayContaining(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']));
    expect(cert.subjectAltName).toBeUndefined();
    expect(BigInt('0x' + cert.serialNumber)).toBeLessThan(1n << 128n);
  });

  it('genSelfSignedCert: names and addresses as subject alternative names, not a CA', () => {
    const { cert } = certOf('genSelfSignedCert "web" (list "10.0.0.1" "::ffff:1.2.3.4" "2001:db8::1") (list "web.ns.svc" "*.example.com") 30');
    expect(cert.ca).toBe(false);
    expect(cert.subject).toBe('CN=web');
    expect(cert.subjectAltName).toBe('DNS:web.ns.svc, DNS:*.example.com, IP Address:10.0.0.1, IP Address:1.2.3.4, IP Address:2001:DB8:0:0:0:0:0:1');
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(Date.parse(cert.validTo) - Date.parse(cert.validFrom)).toBe(30 * DAY);
  });

  it('genSignedCert: issued and signed by the CA, named by it', () => {
    const out = render('{{ $ca := genCA "root" 10 }}{{ $c := genSignedCert "leaf" nil (list "leaf.local") 5 $ca }}{{ $ca.Cert }}@@{{ $c.Cert }}@@{{ $c.Key }}');
    const [caPem, leafPem, leafKey] = out.split('@@') as [string, string, string];
    const ca = new X509Certificate(caPem);
    const leaf = new X509Certificate(leafPem);
    expect(leaf.issuer).toBe('CN=root');
    expect(leaf.subject).toBe('CN=leaf');
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.verify(leaf.publicKey)).toBe(false);
    expect(leaf.checkPrivateKey(createPrivateKey(leafKey))).toBe(true);
    expect(leaf.subjectAltName).toBe('DNS:leaf.local');
  });

  it('the ...WithKey forms certify the key given, of each type that signs', () => {
    for (const typ of ['ecdsa', 'ed25519', 'rsa']) {
      const data = { key: render(`{{ genPrivateKey "${typ}" }}`) };
      const own = createPublicKey(createPrivateKey(data.key)).export({ type: 'spki', format: 'der' });
      const ca = certOf('genCAWithKey "k" 1 .key', data);
      expect(ca.keyPem).toBe(data.key);
      expect(ca.cert.publicKey.export({ type: 'spki', format: 'der' })).toEqual(own);
      expect(ca.cert.verify(ca.cert.publicKey)).toBe(true);
      const self = certOf('genSelfSignedCertWithKey "s" nil nil 1 .key', data);
      expect(self.cert.publicKey.export({ type: 'spki', format: 'der' })).toEqual(own);
      expect(self.cert.verify(self.cert.publicKey)).toBe(true);
    }
  });

  it('genSignedCertWithKey: a CA with an EC key signs an Ed25519 leaf', () => {
    const data = { caKey: render('{{ genPrivateKey "ecdsa" }}'), leafKey: render('{{ genPrivateKey "ed25519" }}') };
    const out = render('{{ $ca := genCAWithKey "ec-root" 2 .caKey }}{{ $c := genSignedCertWithKey "ed-leaf" nil nil 2 $ca .leafKey }}{{ $ca.Cert }}@@{{ $c.Cert }}', data);
    const [caPem, leafPem] = out.split('@@') as [string, string];
    const ca = new X509Certificate(caPem);
    const leaf = new X509Certificate(leafPem);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.publicKey.asymmetricKeyType).toBe('ed25519');
  });

  it('buildCustomCert takes back what genCA gave', () => {
    const r = render('{{ $ca := genCA "x" 1 }}{{ $b := buildCustomCert ($ca.Cert | b64enc) ($ca.Key | b64enc) }}{{ eq $b.Cert $ca.Cert }} {{ eq $b.Key $ca.Key }}');
    expect(r).toBe('true true');
  });

  it('a template prints a certificate as Go prints the struct: {CERT KEY}', () => {
    const r = render('{{ genCA "x" 1 }}');
    expect(r).toMatch(/^\{-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n -----BEGIN RSA PRIVATE KEY-----\n[\s\S]+-----END RSA PRIVATE KEY-----\n\}$/);
  });
});
