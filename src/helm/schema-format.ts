// The format keyword of values.schema.json as gojsonschema v1.2.0 (Helm 3.17) checks it: a string by
// the checker of its format (each written out here after the Go function it calls: time.Parse,
// net.ParseIP (go/net/ip.ts), url.Parse, mail.ParseAddress, regexp.Compile), a number against any known format fails
// (v1.2.0 hands the checkers a number, which is not a string), anything else and unknown formats pass.
//
// Mirrors: github.com/xeipuuv/gojsonschema v1.2.0 format_checkers.go;
//          go1.23 src/time/format.go (Parse, for the layouts used), src/net/url/url.go (Parse),
//          src/net/mail/message.go (ParseAddress)
// Proven by: test/helm/schema-hostile.test.ts

import type { FuncKeywordDefinition } from 'ajv';
import { re2 } from '../sprig/re2.js';
import { parseIP } from '../go/net/ip.js';

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

// date, time and date-time are Go 1.23's time.Parse (Helm's), not go/time's Go 1.19 twin: since Go 1.20
// a zone offset past +24:00 or a minute past 60 is refused ("12:34:56+25:00" parses in 1.19).

/** time.Parse's "2006-01-02" at s[i]: the index after it, or -1. */
function parseDate(s: string, i: number): number {
  for (const k of [0, 1, 2, 3, 5, 6, 8, 9]) if (!isDigit(s, i + k)) return -1;
  if (s[i + 4] !== '-' || s[i + 7] !== '-') return -1;
  const year = Number(s.slice(i, i + 4));
  const month = Number(s.slice(i + 5, i + 7));
  const day = Number(s.slice(i + 8, i + 10));
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year)) return -1;
  return i + 10;
}

/** time.Parse's "15:04:05" (a one-digit hour too, and fractional seconds after a '.' or ','): the index after it, or -1. */
function parseClock(s: string, i: number): number {
  if (!isDigit(s, i)) return -1;
  let j = isDigit(s, i + 1) ? i + 2 : i + 1;
  const hour = Number(s.slice(i, j));
  if (hour > 23 || s[j] !== ':' || !isDigit(s, j + 1) || !isDigit(s, j + 2) || s[j + 3] !== ':' || !isDigit(s, j + 4) || !isDigit(s, j + 5)) return -1;
  if (Number(s.slice(j + 1, j + 3)) > 59 || Number(s.slice(j + 4, j + 6)) > 59) return -1;
  j += 6;
  if ((s[j] === '.' || s[j] === ',') && isDigit(s, j + 1)) {
    j++;
    while (isDigit(s, j)) j++;
  }
  return j;
}

/** time.Parse's "Z07:00": the index after it, or -1. */
function parseZone(s: string, i: number): number {
  if (s[i] === 'Z') return i + 1;
  if (s[i] !== '+' && s[i] !== '-') return -1;
  if (!isDigit(s, i + 1) || !isDigit(s, i + 2) || s[i + 3] !== ':' || !isDigit(s, i + 4) || !isDigit(s, i + 5)) return -1;
  if (Number(s.slice(i + 1, i + 3)) > 24 || Number(s.slice(i + 4, i + 6)) > 60) return -1;
  return i + 6;
}

const whole = (s: string, end: number): boolean => end === s.length;
const isDate = (s: string): boolean => whole(s, parseDate(s, 0));
function isTime(s: string): boolean {
  const c = parseClock(s, 0);
  return c >= 0 && (c === s.length || whole(s, parseZone(s, c)));
}
function isDateTime(s: string): boolean {
  if (isTime(s) || isDate(s)) return true;
  const d = parseDate(s, 0);
  if (d < 0 || s[d] !== 'T') return false;
  const c = parseClock(s, d + 1);
  return c >= 0 && whole(s, parseZone(s, c));
}

const HEX = /^[0-9a-fA-F]$/;

/** net/url's unescape: whether the %-escapes are whole and, in a host, name no ASCII byte but '%'
 *  and no byte a host cannot hold. */
function unescapes(s: string, mode: 'host' | 'zone' | 'other'): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || !HEX.test(s[i + 1]!) || !HEX.test(s[i + 2]!)) return false;
      const pct = s.slice(i, i + 3);
      if (mode === 'host' && parseInt(s[i + 1]!, 16) < 8 && pct !== '%25') return false;
      if (mode === 'zone') {
        const v = parseInt(s.slice(i + 1, i + 3), 16);
        if (pct !== '%25' && v !== 0x20 && hostEscapes(v)) return false;
      }
      i += 2;
    } else if (mode !== 'other' && s.charCodeAt(i) < 0x80 && hostEscapes(s.charCodeAt(i))) return false;
  }
  return true;
}

/** net/url's shouldEscape(c, encodeHost). */
function hostEscapes(c: number): boolean {
  const ch = String.fromCharCode(c);
  if (/^[a-zA-Z0-9]$/.test(ch)) return false;
  return !"!$&'()*+,;=:[]<>\"-_.~".includes(ch);
}

function validPort(p: string): boolean {
  return p === '' || (p[0] === ':' && /^:[0-9]*$/.test(p));
}

function parseHost(host: string): boolean {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0 || !validPort(host.slice(i + 1))) return false;
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) return unescapes(host.slice(0, zone), 'host') && unescapes(host.slice(zone, i), 'zone') && unescapes(host.slice(i), 'host');
  } else {
    const i = host.lastIndexOf(':');
    if (i >= 0 && !validPort(host.slice(i))) return false;
  }
  return unescapes(host, 'host');
}

const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

/** url.Parse: whether it succeeds, and the scheme and the unescaped path it finds. */
function parseURL(raw: string): { scheme: string; path: string } | undefined {
  const hash = raw.indexOf('#');
  const u = hash < 0 ? raw : raw.slice(0, hash);
  if (hash >= 0 && !unescapes(raw.slice(hash + 1), 'other')) return undefined;
  for (let i = 0; i < u.length; i++) {
    const c = u.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return undefined;
  }
  if (u === '*') return { scheme: '', path: '*' };
  let scheme = '';
  let rest = u;
  for (let i = 0; i < u.length; i++) {
    const c = u[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return undefined;
      scheme = u.slice(0, i);
      rest = u.slice(i + 1);
    }
    break;
  }
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { scheme, path: '' };
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) return undefined;
  }
  if ((scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) [authority, rest] = [authority.slice(0, slash), authority.slice(slash)];
    const at = authority.lastIndexOf('@');
    if (!parseHost(at < 0 ? authority : authority.slice(at + 1))) return undefined;
    if (at >= 0) {
      const user = authority.slice(0, at);
      if (!USERINFO.test(user) || !user.split(':', 2).every((x) => unescapes(x, 'other'))) return undefined;
    }
  }
  if (!unescapes(rest, 'other')) return undefined;
  // the path unescaped byte by byte (only its braces matter to the caller)
  return { scheme: scheme.toLowerCase(), path: rest.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))) };
}

/** gojsonschema's `^([^{]*({[^}]*})?)*$`: each '{' closed by the next '}'. */
function bracesClose(s: string): boolean {
  for (let i = s.indexOf('{'); i >= 0; i = s.indexOf('{', i + 1)) {
    i = s.indexOf('}', i + 1);
    if (i < 0) return false;
  }
  return true;
}

/** `^(?:/(?:[^~/]|~0|~1)*)*$`: segments after '/', each '~' followed by 0 or 1. */
function jsonPointer(s: string): boolean {
  if (s !== '' && s[0] !== '/') return false;
  for (let i = s.indexOf('~'); i >= 0; i = s.indexOf('~', i + 1)) if (s[i + 1] !== '0' && s[i + 1] !== '1') return false;
  return true;
}

function isHostname(s: string): boolean {
  if (Buffer.byteLength(s) >= 256) return false;
  return s.split('.').every((l) => l.length >= 1 && l.length <= 63 && /^[a-zA-Z0-9-]+$/.test(l) && l[0] !== '-' && l[l.length - 1] !== '-');
}

// ---------- net/mail ParseAddress ----------

const isVchar = (c: string): boolean => (c >= '!' && c <= '~') || c.charCodeAt(0) >= 0x80;
const isWSP = (c: string): boolean => c === ' ' || c === '\t';
function isAtext(c: string, dot: boolean, permissive: boolean): boolean {
  if (c === '.') return dot;
  if ('()[];@\\,'.includes(c)) return permissive;
  if ('<>":'.includes(c)) return false;
  return isVchar(c);
}

class MailParser {
  constructor(public s: string) {}
  skipSpace(): void {
    let i = 0;
    while (i < this.s.length && isWSP(this.s[i]!)) i++;
    this.s = this.s.slice(i);
  }
  consume(c: string): boolean {
    if (this.s[0] !== c) return false;
    this.s = this.s.slice(1);
    return true;
  }
  comment(): boolean {
    let depth = 1;
    while (this.s.length > 0 && depth > 0) {
      if (this.s[0] === '\\' && this.s.length > 1) this.s = this.s.slice(1);
      else if (this.s[0] === '(') depth++;
      else if (this.s[0] === ')') depth--;
      this.s = this.s.slice(1);
    }
    return depth === 0;
  }
  skipCFWS(): boolean {
    this.skipSpace();
    while (this.consume('(')) {
      if (!this.comment()) return false;
      this.skipSpace();
    }
    return true;
  }
  quoted(): string | undefined {
    let i = 1;
    let out = '';
    let escaped = false;
    for (;;) {
      const c = [...this.s.slice(i, i + 2)][0];
      if (c === undefined) return undefined;
      if (escaped) {
        if (!isVchar(c) && !isWSP(c)) return undefined;
        out += c;
        escaped = false;
      } else if ((isVchar(c) && c !== '\\' && c !== '"') || isWSP(c)) out += c;
      else if (c === '"') break;
      else if (c === '\\') escaped = true;
      else return undefined;
      i += c.length;
    }
    this.s = this.s.slice(i + 1);
    return out;
  }
  atom(dot: boolean, permissive: boolean): string | undefined {
    let i = 0;
    while (i < this.s.length) {
      const c = [...this.s.slice(i, i + 2)][0]!;
      if (!isAtext(c, dot, permissive)) break;
      i += c.length;
    }
    if (i === 0) return undefined;
    const a = this.s.slice(0, i);
    this.s = this.s.slice(i);
    if (!permissive && (a.startsWith('.') || a.includes('..') || a.endsWith('.'))) return undefined;
    return a;
  }
  addrSpec(): boolean {
    const orig = this.s;
    const fail = (): boolean => ((this.s = orig), false);
    this.skipSpace();
    if (this.s === '') return fail();
    if (this.s[0] === '"') {
      const q = this.quoted();
      if (q === undefined || q === '') return fail();
    } else if (this.atom(true, false) === undefined) return fail();
    if (!this.consume('@')) return fail();
    this.skipSpace();
    if (this.s === '') return fail();
    if (this.s[0] === '[') {
      // a domain literal: an IP address in brackets (Go 1.23; asked of Helm 3.17.1)
      const end = this.s.indexOf(']');
      if (end < 0 || parseIP(this.s.slice(1, end)) === undefined) return fail();
      this.s = this.s.slice(end + 1);
      return true;
    }
    if (this.atom(true, false) === undefined) return fail();
    return true;
  }
  /** consumePhrase: whether it found at least one word. */
  phrase(): boolean {
    let words = 0;
    for (;;) {
      this.skipSpace();
      if (this.s === '') break;
      if (this.s[0] === '"') {
        if (this.quoted() === undefined) break;
      } else {
        const a = this.atom(true, true);
        if (a === undefined || unknownCharset(a)) break;
      }
      words++;
    }
    return words > 0;
  }
  displayComment(): boolean {
    if (!this.consume('(')) return false;
    const before = this.s;
    if (!this.comment()) return false;
    const text = before.slice(0, before.length - this.s.length - 1);
    return !text.split(/[ \t]+/).some((w) => w !== '' && unknownCharset(w));
  }
  /** parseAddress: how many addresses, or undefined for an error. */
  address(group: boolean): number | undefined {
    this.skipSpace();
    if (this.s === '') return undefined;
    if (this.addrSpec()) {
      this.skipSpace();
      if (this.s[0] === '(' && !this.displayComment()) return undefined;
      return 1;
    }
    if (this.s[0] !== '<' && !this.phrase()) return undefined;
    this.skipSpace();
    if (group && this.consume(':')) return this.groupList();
    if (!this.consume('<')) return undefined;
    if (!this.addrSpec()) return undefined;
    return this.consume('>') ? 1 : undefined;
  }
  groupList(): number | undefined {
    let n = 0;
    this.skipSpace();
    if (this.consume(';')) {
      this.skipCFWS();
      return 0;
    }
    for (let guard = 0; guard <= this.s.length; guard++) {
      this.skipSpace();
      const k = this.address(false);
      if (k === undefined) return undefined;
      n += k;
      if (!this.skipCFWS()) return undefined;
      if (this.consume(';')) {
        this.skipCFWS();
        return n;
      }
      if (!this.consume(',')) return undefined;
    }
    return undefined;
  }
}

/** An RFC 2047 encoded-word that decodes but names a character set mime.WordDecoder cannot read. */
function unknownCharset(w: string): boolean {
  if (w.length < 8 || !w.startsWith('=?') || !w.endsWith('?=') || w.split('?').length !== 5) return false;
  const [charset, enc, text] = w.slice(2, -2).split('?') as [string, string, string];
  if (charset === '' || enc.length !== 1) return false;
  if (enc === 'B' || enc === 'b') {
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return false;
  } else if (enc === 'Q' || enc === 'q') {
    if (/=(?![0-9A-Fa-f]{2})/.test(text)) return false;
  } else return false;
  return !['utf-8', 'iso-8859-1', 'us-ascii'].includes(charset.toLowerCase());
}

function isEmail(s: string): boolean {
  const p = new MailParser(s);
  const n = p.address(true);
  return n === 1 && p.skipCFWS() && p.s === '';
}

/** Whether Go's regexp compiles the pattern. */
export function goRegexpCompiles(pattern: string): boolean {
  try {
    re2().compile(pattern);
    return true;
  } catch {
    return false;
  }
}

const CHECKS: Record<string, (s: string) => boolean> = {
  date: isDate,
  time: isTime,
  'date-time': isDateTime,
  hostname: isHostname,
  email: isEmail,
  'idn-email': isEmail,
  ipv4: (s) => parseIP(s) !== undefined && s.includes('.'),
  ipv6: (s) => parseIP(s) !== undefined && s.includes(':'),
  uri: (s) => {
    const u = parseURL(s);
    return u !== undefined && u.scheme !== '' && !s.includes('\\');
  },
  'uri-reference': (s) => parseURL(s) !== undefined && !s.includes('\\'),
  iri: (s) => {
    const u = parseURL(s);
    return u !== undefined && u.scheme !== '' && !s.includes('\\');
  },
  'iri-reference': (s) => parseURL(s) !== undefined && !s.includes('\\'),
  'uri-template': (s) => {
    const u = parseURL(s);
    return u !== undefined && !s.includes('\\') && bracesClose(u.path);
  },
  uuid: (s) => /^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/.test(s), // lower case only in v1.2.0
  regex: (s) => s === '' || goRegexpCompiles(s),
  'json-pointer': (s) => jsonPointer(s),
  'relative-json-pointer': (s) => {
    const m = /^(?:0|[1-9][0-9]*)/.exec(s);
    return m !== null && (s.slice(m[0].length) === '#' || jsonPointer(s.slice(m[0].length)));
  },
};

/** Whether gojsonschema v1.2.0 finds data of the format. */
export function goFormat(format: string, data: unknown): boolean {
  const check = Object.prototype.hasOwnProperty.call(CHECKS, format) ? CHECKS[format] : undefined;
  if (!check) return true;
  if (typeof data === 'number') return false;
  return typeof data !== 'string' || check(data);
}

/** ajv's `format` keyword replaced by gojsonschema's: no warnings, Go's checks. */
export function formatKeyword(): FuncKeywordDefinition {
  const validate = function validateFormat(format: string, data: unknown): boolean {
    if (goFormat(format, data)) return true;
    validate.errors = [{ keyword: 'format', params: { format }, message: `Does not match format '${format}'` }];
    return false;
  } as FuncKeywordDefinition['validate'] & { errors?: unknown[] };
  return { keyword: 'format', schemaType: 'string', type: ['string', 'number'], validate, errors: true };
}
