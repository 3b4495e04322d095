// Sprig's urlParse and urlJoin over a port of Go's net/url Parse and URL.String. The URL code works
// on Go's bytes, held here as "binary" JS strings (one char per byte).
//
// Mirrors: github.com/Masterminds/sprig/v3 url.go; go1.19 src/net/url/url.go (Parse, URL.String)
// Proven by: test/vectors/sprig/url.jsonl

import { fromGoBytes, goBytes, quote } from '../go/strconv/strconv.js';
import { def, isMap, mapGet, mapHas, newMap, type FuncMap, type GoMap, type GoValue } from '../go/reflect/value.js';
import { isNilIface, kindOf, NIL_DEREF, panic, table } from './util.js';

function bin(s: string): string {
  let out = '';
  for (const b of goBytes(s)) out += String.fromCharCode(b);
  return out;
}
const text = (b: string): string => fromGoBytes(Array.from(b, (c) => c.charCodeAt(0)));

const enum Mode {
  path = 1,
  pathSegment,
  host,
  zone,
  userPassword,
  queryComponent,
  fragment,
}

class UrlError extends Error {}

const isHex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);
const unhex = (c: string): number => parseInt(c, 16);
const isAlnum = (c: string): boolean => /^[a-zA-Z0-9]$/.test(c);

function shouldEscape(c: string, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  if ((mode === Mode.host || mode === Mode.zone) && "!$&'()*+,;=:[]<>\"".includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    switch (mode) {
      case Mode.path:
        return c === '?';
      case Mode.pathSegment:
        return c === '/' || c === ';' || c === ',' || c === '?';
      case Mode.userPassword:
        return c === '@' || c === '/' || c === '?' || c === ':';
      case Mode.queryComponent:
        return true;
      case Mode.fragment:
        return false;
    }
  }
  if (mode === Mode.fragment && '!()*'.includes(c)) return false;
  return true;
}

function unescape(s: string, mode: Mode): string {
  let n = 0;
  let hasPlus = false;
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === '%') {
      n++;
      if (i + 2 >= s.length || !isHex(s[i + 1]!) || !isHex(s[i + 2]!)) {
        throw new UrlError('invalid URL escape ' + quote(text(s.slice(i, i + 3))));
      }
      if (mode === Mode.host && unhex(s[i + 1]!) < 8 && s.slice(i, i + 3) !== '%25') {
        throw new UrlError('invalid URL escape ' + quote(text(s.slice(i, i + 3))));
      }
      if (mode === Mode.zone) {
        const v = String.fromCharCode((unhex(s[i + 1]!) << 4) | unhex(s[i + 2]!));
        if (s.slice(i, i + 3) !== '%25' && v !== ' ' && shouldEscape(v, Mode.host)) {
          throw new UrlError('invalid URL escape ' + quote(text(s.slice(i, i + 3))));
        }
      }
      i += 3;
    } else if (c === '+') {
      hasPlus = mode === Mode.queryComponent;
      i++;
    } else {
      if ((mode === Mode.host || mode === Mode.zone) && c.charCodeAt(0) < 0x80 && shouldEscape(c, mode)) {
        throw new UrlError('invalid character ' + quote(c) + ' in host name');
      }
      i++;
    }
  }
  if (n === 0 && !hasPlus) return s;
  let t = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      t += String.fromCharCode((unhex(s[i + 1]!) << 4) | unhex(s[i + 2]!));
      i += 2;
    } else if (c === '+') t += mode === Mode.queryComponent ? ' ' : '+';
    else t += c;
  }
  return t;
}

function escape(s: string, mode: Mode): string {
  let t = '';
  for (const c of s) {
    if (c === ' ' && mode === Mode.queryComponent) t += '+';
    else if (shouldEscape(c, mode)) t += '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
    else t += c;
  }
  return t;
}

interface Userinfo {
  username: string;
  password: string;
  passwordSet: boolean;
}

interface URL {
  scheme: string;
  opaque: string;
  user?: Userinfo;
  host: string;
  path: string;
  rawPath: string;
  omitHost: boolean;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
  rawFragment: string;
}

const newURL = (): URL => ({
  scheme: '',
  opaque: '',
  host: '',
  path: '',
  rawPath: '',
  omitHost: false,
  forceQuery: false,
  rawQuery: '',
  fragment: '',
  rawFragment: '',
});

function userString(u: Userinfo): string {
  let s = escape(u.username, Mode.userPassword);
  if (u.passwordSet) s += ':' + escape(u.password, Mode.userPassword);
  return s;
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new UrlError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  return /^[0-9]*$/.test(port.slice(1));
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new UrlError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${quote(text(colonPort))} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) {
      return unescape(host.slice(0, zone), Mode.host) + unescape(host.slice(zone, i), Mode.zone) + unescape(host.slice(i), Mode.host);
    }
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${quote(text(colonPort))} after host`);
    }
  }
  return unescape(host, Mode.host);
}

function validUserinfo(s: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);
}

function parseAuthority(authority: string): [Userinfo | undefined, string] {
  const i = authority.lastIndexOf('@');
  const host = parseHost(i < 0 ? authority : authority.slice(i + 1));
  if (i < 0) return [undefined, host];
  const userinfo = authority.slice(0, i);
  if (!validUserinfo(userinfo)) throw new UrlError('net/url: invalid userinfo');
  if (!userinfo.includes(':')) return [{ username: unescape(userinfo, Mode.userPassword), password: '', passwordSet: false }, host];
  const k = userinfo.indexOf(':');
  return [
    { username: unescape(userinfo.slice(0, k), Mode.userPassword), password: unescape(userinfo.slice(k + 1), Mode.userPassword), passwordSet: true },
    host,
  ];
}

function setPath(u: URL, p: string): void {
  u.path = unescape(p, Mode.path);
  u.rawPath = escape(u.path, Mode.path) === p ? '' : p;
}

function parse(raw: string): URL {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new UrlError('net/url: invalid control character in URL');
  const url = newURL();
  if (raw === '*') {
    url.path = '*';
    return url;
  }
  let rest: string;
  [url.scheme, rest] = getScheme(raw);
  url.scheme = url.scheme.toLowerCase();
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    url.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      url.opaque = rest;
      return url;
    }
    const seg = rest.split('/')[0]!;
    if (seg.includes(':')) throw new UrlError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    [url.user, url.host] = parseAuthority(authority);
  } else if (url.scheme !== '' && rest.startsWith('/')) url.omitHost = true;
  setPath(url, rest);
  return url;
}

function validEncoded(s: string, mode: Mode): boolean {
  for (const c of s) {
    if ("!$&'()*+,;=:@[]%".includes(c)) continue;
    if (shouldEscape(c, mode)) return false;
  }
  return true;
}

function escapedPath(u: URL): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath, Mode.path)) {
    try {
      if (unescape(u.rawPath, Mode.path) === u.path) return u.rawPath;
    } catch {
      // fall through to escaping Path
    }
  }
  if (u.path === '*') return '*';
  return escape(u.path, Mode.path);
}

function escapedFragment(u: URL): string {
  if (u.rawFragment !== '' && validEncoded(u.rawFragment, Mode.fragment)) {
    try {
      if (unescape(u.rawFragment, Mode.fragment) === u.fragment) return u.rawFragment;
    } catch {
      // fall through
    }
  }
  return escape(u.fragment, Mode.fragment);
}

/** url.Parse; throws UrlError with Go's message (including the `parse "...": ` prefix). */
function urlParse(rawURL: string): URL {
  const h = rawURL.indexOf('#');
  const u = h >= 0 ? rawURL.slice(0, h) : rawURL;
  const frag = h >= 0 ? rawURL.slice(h + 1) : '';
  let url: URL;
  try {
    url = parse(u);
  } catch (e) {
    if (e instanceof UrlError) throw new UrlError(`parse ${quote(text(u))}: ${e.message}`);
    throw e;
  }
  if (frag === '') return url;
  try {
    url.fragment = unescape(frag, Mode.fragment);
    url.rawFragment = escape(url.fragment, Mode.fragment) === frag ? '' : frag;
  } catch (e) {
    if (e instanceof UrlError) throw new UrlError(`parse ${quote(text(rawURL))}: ${e.message}`);
    throw e;
  }
  return url;
}

function urlString(u: URL): string {
  let buf = '';
  if (u.scheme !== '') buf += u.scheme + ':';
  if (u.opaque !== '') buf += u.opaque;
  else {
    if (u.scheme !== '' || u.host !== '' || u.user) {
      if (!(u.omitHost && u.host === '' && !u.user)) {
        if (u.host !== '' || u.path !== '' || u.user) buf += '//';
        if (u.user) buf += userString(u.user) + '@';
        if (u.host !== '') buf += escape(u.host, Mode.host);
      }
    }
    const path = escapedPath(u);
    if (path !== '' && path[0] !== '/' && u.host !== '') buf += '/';
    if (buf.length === 0 && path.split('/')[0]!.includes(':')) buf += './';
    buf += path;
  }
  if (u.forceQuery || u.rawQuery !== '') buf += '?' + u.rawQuery;
  if (u.fragment !== '') buf += '#' + escapedFragment(u);
  return buf;
}

function hostname(host: string): string {
  let h = host;
  const colon = h.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(h.slice(colon))) h = h.slice(0, colon);
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h;
}

function parseDict(v: string): GoMap {
  let u: URL;
  try {
    u = urlParse(bin(v));
  } catch (e) {
    if (e instanceof UrlError) panic(`unable to parse url: ${e.message}`);
    throw e;
  }
  const d = newMap();
  d.scheme = text(u.scheme);
  d.host = text(u.host);
  d.hostname = text(hostname(u.host));
  d.path = text(u.path);
  d.query = text(u.rawQuery);
  d.opaque = text(u.opaque);
  d.fragment = text(u.fragment);
  d.userinfo = u.user ? text(userString(u.user)) : '';
  return d;
}

function getOrEmpty(d: GoMap, key: string): string {
  if (!isMap(d) || !mapHas(d, key)) return '';
  const v: GoValue = mapGet(d, key);
  if (isNilIface(v)) panic(NIL_DEREF);
  const k = kindOf(v);
  if (k !== 'string') panic(`unable to parse ${key} key, must be of type string, but ${k} found`);
  return bin(typeof v === 'string' ? v : String((v as { v: unknown }).v));
}

function join(d: GoMap): string {
  const u = newURL();
  u.scheme = getOrEmpty(d, 'scheme');
  u.host = getOrEmpty(d, 'host');
  u.path = getOrEmpty(d, 'path');
  u.rawQuery = getOrEmpty(d, 'query');
  u.opaque = getOrEmpty(d, 'opaque');
  u.fragment = getOrEmpty(d, 'fragment');
  const userinfo = getOrEmpty(d, 'userinfo');
  if (userinfo !== '') {
    try {
      u.user = urlParse(`proto://${userinfo}@host`).user;
    } catch (e) {
      if (e instanceof UrlError) panic(`unable to parse userinfo in dict: ${e.message}`);
      throw e;
    }
  }
  return text(urlString(u));
}

export function urlFuncs(): FuncMap {
  return table([
    def('urlParse', 'func(string) map[string]interface {}', parseDict),
    def('urlJoin', 'func(map[string]interface {}) string', join),
  ]);
}
