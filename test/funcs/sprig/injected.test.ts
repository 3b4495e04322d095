// The Sprig functions that read the clock, a random source or the environment: Go cannot give
// fixed expected outputs for these, so they are checked here with injected sources.

import { describe, expect, it } from 'vitest';
import { Template } from '../../../src/go/text/template/template.js';
import { sprigFuncs, type SprigOptions } from '../../../src/sprig/index.js';
import { bcryptHash } from '../../../src/sprig/bcrypt.js';

function render(src: string, opts: SprigOptions = {}, data: unknown = null): string {
  return new Template('t').funcs(sprigFuncs(opts)).parse(src).execute(data as never);
}

/** A deterministic source: a fixed cycle of values in [0, 1). */
function cycle(...xs: number[]): () => number {
  let i = 0;
  return () => xs[i++ % xs.length]!;
}

/** A seeded pseudo-random source (mulberry32). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOW = new Date(Date.UTC(2024, 1, 29, 13, 14, 15, 678));

describe('clock', () => {
  it('now, date and htmlDate read the injected clock', () => {
    expect(render('{{ now }}', { now: () => NOW })).toBe('2024-02-29 13:14:15.678 +0000 UTC');
    expect(render('{{ now | date "2006-01-02T15:04:05.000Z07:00" }}', { now: () => NOW })).toBe('2024-02-29T13:14:15.678Z');
    expect(render('{{ date "2006" .x }}', { now: () => NOW }, { x: 1.5 })).toBe('2024');
    expect(render('{{ htmlDate "not a time" }}', { now: () => NOW })).toBe('2024-02-29');
    expect(render('{{ now | unixEpoch }}', { now: () => NOW })).toBe(String(Math.floor(NOW.getTime() / 1000)));
  });

  it('ago and durationRound measure against the injected clock', () => {
    const later = () => new Date(NOW.getTime() + 90_500);
    expect(render('{{ ago .t }}', { now: later }, { t: null })).toBe('0s');
    expect(render('{{ ago (toDate "2006-01-02 15:04:05" "2024-02-29 13:14:15") }}', { now: later })).toBe('1m31s');
    expect(render('{{ durationRound (toDate "2006-01-02" "2024-02-01") }}', { now: () => NOW })).toBe('28d');
    expect(render('{{ ago 1709212455 }}', { now: later })).toBe('1m31s');
  });
});

describe('random source', () => {
  it('random strings draw only from their alphabets', () => {
    const r = seeded(42);
    expect(render('{{ randAlphaNum 30 }}', { random: r })).toMatch(/^[A-Za-z0-9]{30}$/);
    expect(render('{{ randAlpha 30 }}', { random: r })).toMatch(/^[A-Za-z]{30}$/);
    expect(render('{{ randNumeric 30 }}', { random: r })).toMatch(/^[0-9]{30}$/);
    expect(render('{{ randAscii 30 }}', { random: r })).toMatch(/^[ -~]{30}$/);
  });

  it('is reproducible for the same source', () => {
    const a = render('{{ randAlphaNum 16 }} {{ uuidv4 }} {{ shuffle "abcdef" }} {{ randInt 1 100 }}', { random: seeded(7) });
    const b = render('{{ randAlphaNum 16 }} {{ uuidv4 }} {{ shuffle "abcdef" }} {{ randInt 1 100 }}', { random: seeded(7) });
    expect(a).toBe(b);
  });

  it('uuidv4 sets the version and variant bits', () => {
    expect(render('{{ uuidv4 }}', { random: () => 0.999 })).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(render('{{ uuidv4 }}', { random: () => 0 })).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('randInt stays in [min, max)', () => {
    expect(render('{{ randInt 5 10 }}', { random: () => 0 })).toBe('5');
    expect(render('{{ randInt 5 10 }}', { random: () => 0.9999 })).toBe('9');
  });

  it('shuffle permutes runes', () => {
    const out = render('{{ shuffle "héllo😀" }}', { random: cycle(0.3, 0.8, 0.1) });
    expect(Array.from(out).sort()).toEqual(Array.from('héllo😀').sort());
  });

  it('randBytes gives base64 of n bytes', () => {
    expect(render('{{ randBytes 3 }}', { random: () => 0 })).toBe('AAAA');
  });

  it('encryptAES output decrypts with decryptAES (random IV from the source)', () => {
    const enc = render('{{ encryptAES "pw" "secret text ü" }}', { random: cycle(0.2, 0.4) });
    expect(render(`{{ decryptAES "pw" "${enc}" }}`)).toBe('secret text ü');
    expect(enc).toBe(render('{{ encryptAES "pw" "secret text ü" }}', { random: cycle(0.2, 0.4) }));
  });

  it('bcrypt uses the source for its salt', () => {
    const out = render('{{ bcrypt "pw" }}', { random: () => 0 });
    expect(out).toBe(bcryptHash(new TextEncoder().encode('pw'), 10, new Uint8Array(16)));
    expect(render('{{ htpasswd "me" "pw" }}', { random: () => 0 })).toBe('me:' + out);
  });
});

describe('bcrypt', () => {
  // A hash produced by this implementation and accepted by Go's bcrypt.CompareHashAndPassword.
  it('matches golang.org/x/crypto/bcrypt', () => {
    expect(bcryptHash(new TextEncoder().encode('hello'), 10, new Uint8Array(16).fill(7))).toBe(
      '$2a$10$/uaF/uaF/uaF/uaF/uaF/uC3OeB5lsE3fJP/hyB8uvwuKsULyxfai',
    );
  });
  it('uses only the first 72 bytes of the password', () => {
    const salt = new Uint8Array(16).fill(1);
    const a = bcryptHash(new TextEncoder().encode('x'.repeat(72) + 'a'), 4, salt);
    const b = bcryptHash(new TextEncoder().encode('x'.repeat(72) + 'b'), 4, salt);
    expect(a).toBe(b);
  });
});

describe('environment', () => {
  it('env and expandenv read only the given map', () => {
    const env = { HOME: '/home/me', EMPTY: '', '1': 'one' };
    expect(render('{{ env "HOME" }}|{{ env "PATH" }}|{{ env "EMPTY" }}', { env })).toBe('/home/me||');
    expect(render('{{ expandenv "$HOME/x ${HOME}/y $1 $PATH." }}', { env })).toBe('/home/me/x /home/me/y one .');
    expect(render('{{ env "HOME" }}')).toBe('');
  });
  it('never reads a prototype property', () => {
    expect(render('[{{ env "constructor" }}{{ env "__proto__" }}]', { env: {} })).toBe('[]');
  });
});
