// Sprig's semver and semverCompare: Masterminds/semver v3 versions and constraints. The constraint
// grammar is RE2 patterns, matched with re2js as Go's regexp matches them; the version grammar, whose
// groups are unambiguous, with a JavaScript regular expression (VERSION_RE).
//
// Mirrors: github.com/Masterminds/sprig/v3 semver.go; github.com/Masterminds/semver/v3 {version,constraints}.go
// Proven by: test/vectors/sprig/semver.jsonl

import type { RE2JS } from 're2js';
import { re2 } from './re2.js';
import { def, GoFunc, GoStruct, ptrTo, T, type GoMethod, type GoType, type FuncMap, type GoValue } from '../go/reflect/value.js';
import { fail, table } from './util.js';

const SEMVER_RE = 'v?([0-9]+)(\\.[0-9]+)?(\\.[0-9]+)?' + '(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?' + '(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?';
const CV_RE = 'v?([0-9|x|X|\\*]+)(\\.[0-9|x|X|\\*]+)?(\\.[0-9|x|X|\\*]+)?' + '(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?' + '(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?';
const OPS = '=||!=|>|<|>=|=>|<=|=<|~|~>|\\^';

let res: { constraint: RE2JS; range: RE2JS; find: RE2JS; valid: RE2JS } | undefined;
function regexes(): NonNullable<typeof res> {
  res ??= {
    constraint: re2().compile(`^\\s*(${OPS})\\s*(${CV_RE})\\s*$`),
    range: re2().compile(`\\s*(${CV_RE})\\s+-\\s+(${CV_RE})\\s*`),
    find: re2().compile(`(${OPS})\\s*(${CV_RE})`),
    valid: re2().compile(`^(\\s*(${OPS})\\s*(${CV_RE})\\s*)((?:\\s+|,\\s*)(${OPS})\\s*(${CV_RE})\\s*)*$`),
  };
  return res;
}

/**
 * The version grammar, anchored, as a JavaScript regular expression: every chart's render parses the
 * Kubernetes version with it, and compiling it with re2js first cost a cold process tens of
 * milliseconds. Its groups are unambiguous (a segment cannot hold the `.`, `-` or `+` that ends it), so
 * a backtracking matcher takes linear time and sets the groups RE2 sets (test/vectors/sprig/semver.jsonl).
 */
const VERSION_RE = new RegExp('^' + SEMVER_RE + '$');

/** VERSION_RE's submatches as FindStringSubmatch gives them ("" when unset), or undefined. */
function versionMatch(v: string): string[] | undefined {
  const m = VERSION_RE.exec(v);
  return m ? Array.from(m, (g) => g ?? '') : undefined;
}

/** FindStringSubmatch: groups as strings ("" when unset), or undefined. */
function submatch(re: RE2JS, s: string, from = 0): { groups: string[]; start: number; end: number } | undefined {
  const m = re.matcher(s);
  if (!m.find(from)) return undefined;
  const groups: string[] = [];
  for (let g = 0; g <= re.groupCount(); g++) groups.push(m.group(g) ?? '');
  return { groups, start: m.start(0), end: m.end(0) };
}

/** FindAllString(s, -1) / FindAllStringSubmatch: non-overlapping matches (these patterns never match empty). */
function findAll(re: RE2JS, s: string): { groups: string[]; start: number; end: number }[] {
  const out = [];
  let pos = 0;
  while (pos <= s.length) {
    const m = submatch(re, s, pos);
    if (!m) break;
    out.push(m);
    pos = m.end > m.start ? m.end : m.end + 1;
  }
  return out;
}

// ---------- versions ----------

const NUM = /^[0-9]*$/;
const ALLOWED = /^[a-zA-Z0-9-]*$/;
const MAX_UINT64 = (1n << 64n) - 1n;

export class Version extends GoStruct {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: string,
    readonly metadata: string,
    readonly original: string,
    ptr = true,
  ) {
    super();
    (this as { ptr: boolean }).ptr = ptr;
  }
  get type(): GoType {
    return this.ptr ? VERSION : VERSION_VALUE;
  }
  override field(): GoValue {
    return undefined;
  }
  text(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.pre !== '') s += '-' + this.pre;
    if (this.metadata !== '') s += '+' + this.metadata;
    return s;
  }
  equalTo(o: GoStruct): boolean {
    return o instanceof Version && o.text() === this.text() && o.original === this.original;
  }
  private vPrefix(): string {
    return this.original.startsWith('v') ? 'v' : '';
  }
  /** A Version value (not a pointer) derived from this one, with `original` recomputed as Go does. */
  derive(major: bigint, minor: bigint, patch: bigint, pre: string, metadata: string): Version {
    const next = new Version(major, minor, patch, pre, metadata, '', false);
    return new Version(major, minor, patch, pre, metadata, this.vPrefix() + next.text(), false);
  }
}

function validatePrerelease(p: string): string | undefined {
  for (const part of p.split('.')) {
    if (NUM.test(part)) {
      if (part.length > 1 && part[0] === '0') return 'Version segment starts with 0';
    } else if (!ALLOWED.test(part)) return 'Invalid Prerelease string';
  }
  return undefined;
}

function validateMetadata(m: string): string | undefined {
  for (const part of m.split('.')) if (!ALLOWED.test(part)) return 'Invalid Metadata string';
  return undefined;
}

function parseSegment(s: string): bigint | string {
  const v = BigInt(s);
  if (v > MAX_UINT64) return `Error parsing version segment: strconv.ParseUint: parsing "${s}": value out of range`;
  return v;
}

/** semver.NewVersion: the version or Go's error text. */
export function newVersion(v: string): Version | string {
  const g = versionMatch(v);
  if (!g) return 'Invalid Semantic Version';
  const major = parseSegment(g[1]!);
  if (typeof major === 'string') return major;
  const minor = g[2] ? parseSegment(g[2].slice(1)) : 0n;
  if (typeof minor === 'string') return minor;
  const patch = g[3] ? parseSegment(g[3].slice(1)) : 0n;
  if (typeof patch === 'string') return patch;
  const pre = g[5]!;
  const metadata = g[8]!;
  if (pre !== '') {
    const e = validatePrerelease(pre);
    if (e) return e;
  }
  if (metadata !== '') {
    const e = validateMetadata(metadata);
    if (e) return e;
  }
  return new Version(major, minor, patch, pre, metadata, v);
}

function compareSegment(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isUint(s: string): bigint | undefined {
  if (!/^[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v > MAX_UINT64 ? undefined : v;
}

function comparePrePart(s: string, o: string): number {
  if (s === o) return 0;
  if (s === '') return o !== '' ? -1 : 1;
  if (o === '') return s !== '' ? 1 : -1;
  const oi = isUint(o);
  const si = isUint(s);
  if (oi === undefined && si === undefined) return s > o ? 1 : -1;
  if (oi === undefined) return -1;
  if (si === undefined) return 1;
  return si > oi ? 1 : -1;
}

function comparePrerelease(v: string, o: string): number {
  const sp = v.split('.');
  const op = o.split('.');
  const l = Math.max(sp.length, op.length);
  for (let i = 0; i < l; i++) {
    const d = comparePrePart(sp[i] ?? '', op[i] ?? '');
    if (d !== 0) return d;
  }
  return 0;
}

export function compareVersions(v: Version, o: Version): number {
  let d = compareSegment(v.major, o.major);
  if (d !== 0) return d;
  d = compareSegment(v.minor, o.minor);
  if (d !== 0) return d;
  d = compareSegment(v.patch, o.patch);
  if (d !== 0) return d;
  if (v.pre === '' && o.pre === '') return 0;
  if (v.pre === '') return 1;
  if (o.pre === '') return -1;
  return comparePrerelease(v.pre, o.pre);
}

// ---------- constraints ----------

interface Constraint {
  con: Version;
  op: string;
  minorDirty: boolean;
  patchDirty: boolean;
  dirty: boolean;
}

const isX = (x: string): boolean => x === 'x' || x === '*' || x === 'X';

function parseConstraint(c: string): Constraint | string {
  if (c.length > 0) {
    const m = submatch(regexes().constraint, c);
    if (!m) return `improper constraint: ${c}`;
    const g = m.groups;
    let ver = g[2]!;
    let minorDirty = false;
    let patchDirty = false;
    let dirty = false;
    if (isX(g[3]!) || g[3] === '') {
      ver = `0.0.0${g[6]}`;
      dirty = true;
    } else if (isX(g[4]!.replace(/^\./, '')) || g[4] === '') {
      minorDirty = true;
      dirty = true;
      ver = `${g[3]}.0.0${g[6]}`;
    } else if (isX(g[5]!.replace(/^\./, '')) || g[5] === '') {
      dirty = true;
      patchDirty = true;
      ver = `${g[3]}${g[4]}.0${g[6]}`;
    }
    const con = newVersion(ver);
    if (typeof con === 'string') return 'constraint Parser Error';
    return { con, op: g[1]!, minorDirty, patchDirty, dirty };
  }
  return { con: new Version(0n, 0n, 0n, '', '', '0.0.0'), op: '', minorDirty: false, patchDirty: false, dirty: true };
}

function rewriteRange(i: string): string {
  const ms = findAll(regexes().range, i);
  let o = i;
  for (const m of ms) {
    const t = `>= ${m.groups[1]}, <= ${m.groups[11]}`;
    const k = o.indexOf(m.groups[0]!);
    if (k >= 0) o = o.slice(0, k) + t + o.slice(k + m.groups[0]!.length);
  }
  return o;
}

function newConstraint(c: string): Constraint[][] | string {
  c = rewriteRange(c);
  const out: Constraint[][] = [];
  for (const v of c.split('||')) {
    if (!regexes().valid.matcher(v).find(0)) return `improper constraint: ${v}`;
    let cs = findAll(regexes().find, v).map((m) => m.groups[0]!);
    if (cs.length === 0) cs = [v];
    const result: Constraint[] = [];
    for (const s of cs) {
      const pc = parseConstraint(s);
      if (typeof pc === 'string') return pc;
      result.push(pc);
    }
    out.push(result);
  }
  return out;
}

const releaseOnly = (v: Version, c: Constraint): boolean => v.pre !== '' && c.con.pre === '';

function tilde(v: Version, c: Constraint): boolean {
  if (releaseOnly(v, c)) return false;
  if (compareVersions(v, c.con) < 0) return false;
  if (c.con.major === 0n && c.con.minor === 0n && c.con.patch === 0n && !c.minorDirty && !c.patchDirty) return true;
  if (v.major !== c.con.major) return false;
  if (v.minor !== c.con.minor && !c.minorDirty) return false;
  return true;
}

const CHECKS: Record<string, (v: Version, c: Constraint) => boolean> = {
  '': tildeOrEqual,
  '=': tildeOrEqual,
  '!=': (v, c) => {
    if (c.dirty) {
      if (releaseOnly(v, c)) return false;
      if (c.con.major !== v.major) return true;
      if (c.con.minor !== v.minor && !c.minorDirty) return true;
      else if (c.minorDirty) return false;
      else if (c.con.patch !== v.patch && !c.patchDirty) return true;
      else if (c.patchDirty) {
        if (v.pre !== '' || c.con.pre !== '') return comparePrerelease(v.pre, c.con.pre) !== 0;
        return false;
      }
    }
    return compareVersions(v, c.con) !== 0;
  },
  '>': (v, c) => {
    if (releaseOnly(v, c)) return false;
    if (!c.dirty) return compareVersions(v, c.con) === 1;
    if (v.major > c.con.major) return true;
    if (v.major < c.con.major) return false;
    if (c.minorDirty) return false;
    if (c.patchDirty) return v.minor > c.con.minor;
    return compareVersions(v, c.con) === 1;
  },
  '<': (v, c) => !releaseOnly(v, c) && compareVersions(v, c.con) < 0,
  '>=': greaterThanEqual,
  '=>': greaterThanEqual,
  '<=': lessThanEqual,
  '=<': lessThanEqual,
  '~': tilde,
  '~>': tilde,
  '^': (v, c) => {
    if (releaseOnly(v, c)) return false;
    if (compareVersions(v, c.con) < 0) return false;
    if (c.con.major > 0n || c.minorDirty) return v.major === c.con.major;
    if (c.con.major === 0n && v.major > 0n) return false;
    if (c.con.minor > 0n || c.patchDirty) return v.minor === c.con.minor;
    if (c.con.minor === 0n && v.minor > 0n) return false;
    return c.con.patch === v.patch;
  },
};

function tildeOrEqual(v: Version, c: Constraint): boolean {
  if (releaseOnly(v, c)) return false;
  if (c.dirty) return tilde(v, c);
  return compareVersions(v, c.con) === 0;
}

function greaterThanEqual(v: Version, c: Constraint): boolean {
  return !releaseOnly(v, c) && compareVersions(v, c.con) >= 0;
}

function lessThanEqual(v: Version, c: Constraint): boolean {
  if (releaseOnly(v, c)) return false;
  if (!c.dirty) return compareVersions(v, c.con) <= 0;
  if (v.major > c.con.major) return false;
  if (v.major === c.con.major && v.minor > c.con.minor && !c.minorDirty) return false;
  return true;
}

function check(cs: Constraint[][], v: Version): boolean {
  return cs.some((and) => and.every((c) => CHECKS[c.op]!(v, c)));
}

// ---------- the Go type ----------

function method(name: string, params: GoType[], results: 1 | 2, resultType: GoType, fn: GoMethod['fn']): GoMethod {
  return { name, params, results, resultType, fn };
}

const VERSION: GoType = { kind: 'struct', name: 'semver.Version', fields: [] };
const VERSION_VALUE: GoType = { kind: 'struct', name: 'semver.Version', fields: [] };
const VERSION_PTR = ptrTo(VERSION);
const ver = (x: GoValue): Version => x as Version;
// Go's method sets: a Version value has the value-receiver methods, a *Version also the
// pointer-receiver ones. (The engine looks methods up on the struct type, so the two are
// distinct type objects with the same name.)
VERSION_VALUE.methods = {
  Major: method('Major', [], 1, T.uint64, (v) => ver(v).major),
  Minor: method('Minor', [], 1, T.uint64, (v) => ver(v).minor),
  Patch: method('Patch', [], 1, T.uint64, (v) => ver(v).patch),
  Prerelease: method('Prerelease', [], 1, T.string, (v) => ver(v).pre),
  Metadata: method('Metadata', [], 1, T.string, (v) => ver(v).metadata),
  String: method('String', [], 1, T.string, (v) => ver(v).text()),
  IncPatch: method('IncPatch', [], 1, VERSION_VALUE, (v) => {
    const x = ver(v);
    return x.derive(x.major, x.minor, x.pre !== '' ? x.patch : x.patch + 1n, '', '');
  }),
  IncMinor: method('IncMinor', [], 1, VERSION_VALUE, (v) => ver(v).derive(ver(v).major, ver(v).minor + 1n, 0n, '', '')),
  IncMajor: method('IncMajor', [], 1, VERSION_VALUE, (v) => ver(v).derive(ver(v).major + 1n, 0n, 0n, '', '')),
  SetPrerelease: method('SetPrerelease', [T.string], 2, VERSION_VALUE, (v, p) => {
    const x = ver(v);
    if ((p as string).length > 0) {
      const e = validatePrerelease(p as string);
      if (e) fail(e);
    }
    return x.derive(x.major, x.minor, x.patch, p as string, x.metadata);
  }),
  SetMetadata: method('SetMetadata', [T.string], 2, VERSION_VALUE, (v, m) => {
    const x = ver(v);
    if ((m as string).length > 0) {
      const e = validateMetadata(m as string);
      if (e) fail(e);
    }
    return x.derive(x.major, x.minor, x.patch, x.pre, m as string);
  }),
};
VERSION.methods = {
  ...VERSION_VALUE.methods,
  Original: method('Original', [], 1, T.string, (v) => ver(v).original),
  LessThan: method('LessThan', [VERSION_PTR], 1, T.bool, (v, o) => compareVersions(ver(v), ver(o)) < 0),
  GreaterThan: method('GreaterThan', [VERSION_PTR], 1, T.bool, (v, o) => compareVersions(ver(v), ver(o)) > 0),
  Equal: method('Equal', [VERSION_PTR], 1, T.bool, (v, o) => compareVersions(ver(v), ver(o)) === 0),
  Compare: method('Compare', [VERSION_PTR], 1, T.int, (v, o) => BigInt(compareVersions(ver(v), ver(o)))),
};
VERSION.marshalJSON = (v) => JSON.stringify(ver(v).text());
VERSION_VALUE.marshalJSON = VERSION.marshalJSON;

export function semverFuncs(): FuncMap {
  return table([
    def('semverCompare', 'func(string, string) (bool, error)', (constraint: string, version: string) => {
      const c = newConstraint(constraint);
      if (typeof c === 'string') fail(c);
      const v = newVersion(version);
      if (typeof v === 'string') fail(v);
      return check(c, v);
    }),
    // The result type is *semver.Version, which value.ts's signature parser does not know.
    new GoFunc('semver', [T.string], false, 2, VERSION_PTR, (version: GoValue) => {
      const v = newVersion(version as string);
      if (typeof v === 'string') fail(v);
      return v;
    }),
  ]);
}

/** Masterminds' Constraints.Check of a version, false when either does not parse (Helm's IsCompatibleRange). */
export function isCompatibleRange(constraint: string, version: string): boolean {
  const v = newVersion(version);
  if (typeof v === 'string') return false;
  const c = newConstraint(constraint);
  if (typeof c === 'string') return false;
  return check(c, v);
}
