// Go's time package as Sprig's date functions use it: time.Time with its zone (TZif files read as Go
// reads them, Local taken to be UTC as on a host without a zone), layouts for Format and Parse, and
// Duration parsing and printing, with Go's error texts.
//
// Mirrors: go1.19 src/time/{time,format,zoneinfo_read,sys_unix}.go
// Proven by: test/vectors/sprig/

import { readFileSync } from 'node:fs';
import { GoNum, GoStruct, T, type GoMethod, type GoType, type GoValue } from '../reflect/value.js';

// ---------- locations ----------

interface Zone {
  name: string;
  offset: number;
  isDST: boolean;
}

export interface Location {
  name: string;
  lookup(sec: number): Zone;
}

const UTC_ZONE: Zone = { name: 'UTC', offset: 0, isDST: false };
export const UTC: Location = { name: 'UTC', lookup: () => UTC_ZONE };
/** Go's time.Local; a host without a configured zone (and these tests) use UTC. */
export const LOCAL: Location = { name: 'Local', lookup: () => UTC_ZONE };

function fixedZone(name: string, offset: number): Location {
  const z = { name, offset, isDST: false };
  return { name, lookup: () => z };
}

/** A zone from TZif data (version 2+ 64-bit section when present). */
function parseTZif(name: string, b: Buffer): Location | undefined {
  if (b.length < 44 || b.toString('latin1', 0, 4) !== 'TZif') return undefined;
  const version = b[4]!;
  let p = 0;
  const header = (): number[] => {
    const counts = [];
    for (let i = 0; i < 6; i++) counts.push(b.readUInt32BE(p + 20 + 4 * i));
    return counts; // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
  };
  let [isut, isstd, leap, timecnt, typecnt, charcnt] = header() as [number, number, number, number, number, number];
  let wide = false;
  if (version >= 0x32) {
    p += 44 + timecnt * 5 + typecnt * 6 + charcnt + leap * 8 + isstd + isut;
    if (b.toString('latin1', p, p + 4) !== 'TZif') return undefined;
    [isut, isstd, leap, timecnt, typecnt, charcnt] = header() as [number, number, number, number, number, number];
    wide = true;
  }
  let q = p + 44;
  const tx: { when: number; index: number }[] = [];
  for (let i = 0; i < timecnt; i++) {
    const when = wide ? Number(b.readBigInt64BE(q + 8 * i)) : b.readInt32BE(q + 4 * i);
    tx.push({ when, index: 0 });
  }
  q += timecnt * (wide ? 8 : 4);
  for (let i = 0; i < timecnt; i++) tx[i]!.index = b[q + i]!;
  q += timecnt;
  const raw: { offset: number; isDST: boolean; abbr: number }[] = [];
  for (let i = 0; i < typecnt; i++) raw.push({ offset: b.readInt32BE(q + 6 * i), isDST: b[q + 6 * i + 4] !== 0, abbr: b[q + 6 * i + 5]! });
  q += typecnt * 6;
  const chars = b.toString('latin1', q, q + charcnt);
  const zones: Zone[] = raw.map((z) => ({ name: chars.slice(z.abbr, chars.indexOf('\0', z.abbr) >>> 0), offset: z.offset, isDST: z.isDST }));
  if (zones.length === 0) return undefined;
  if (tx.length === 0) tx.push({ when: -Infinity, index: 0 });
  const firstZone = (): number => {
    if (!tx.some((t) => t.index === 0)) return 0;
    if (tx.length > 0 && zones[tx[0]!.index]!.isDST) {
      for (let zi = tx[0]!.index - 1; zi >= 0; zi--) if (!zones[zi]!.isDST) return zi;
    }
    const i = zones.findIndex((z) => !z.isDST);
    return i >= 0 ? i : 0;
  };
  return {
    name,
    lookup(sec: number): Zone {
      if (sec < tx[0]!.when) return zones[firstZone()]!;
      let lo = 0;
      let hi = tx.length;
      while (hi - lo > 1) {
        const m = lo + ((hi - lo) >> 1);
        if (sec < tx[m]!.when) hi = m;
        else lo = m;
      }
      return zones[tx[lo]!.index]!;
    },
  };
}

const zoneCache = new Map<string, Location | undefined>();

/** time.LoadLocation; undefined where Go reports an error. */
export function loadLocation(name: string): Location | undefined {
  if (name === '' || name === 'UTC') return UTC;
  if (name === 'Local') return LOCAL;
  if (name.includes('..') || name[0] === '/' || name[0] === '\\') return undefined;
  if (zoneCache.has(name)) return zoneCache.get(name);
  let loc: Location | undefined;
  for (const dir of ['/usr/share/zoneinfo/', '/usr/share/lib/zoneinfo/', '/usr/lib/locale/TZ/']) {
    try {
      loc = parseTZif(name, readFileSync(dir + name));
      if (loc) break;
    } catch {
      // try the next directory
    }
  }
  zoneCache.set(name, loc);
  return loc;
}

// ---------- calendar ----------

const DAY = 86400;
const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const floorDiv = (a: number, b: number): number => Math.floor(a / b);
const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const DAYS_BEFORE = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];
const daysIn = (m: number, y: number): number => (m === 2 && isLeap(y) ? 29 : DAYS_BEFORE[m]! - DAYS_BEFORE[m - 1]!);

/** Days since 1970-01-01 of a proleptic Gregorian date (month may be out of 1..12). */
function daysFromCivil(y: number, m: number, d: number): number {
  y += floorDiv(m - 1, 12);
  m = ((((m - 1) % 12) + 12) % 12) + 1;
  y -= m <= 2 ? 1 : 0;
  const era = floorDiv(y, 400);
  const yoe = y - era * 400;
  const doy = floorDiv(153 * (m + (m > 2 ? -3 : 9)) + 2, 5) + d - 1;
  const doe = yoe * 365 + floorDiv(yoe, 4) - floorDiv(yoe, 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = floorDiv(z, 146097);
  const doe = z - era * 146097;
  const yoe = floorDiv(doe - floorDiv(doe, 1460) + floorDiv(doe, 36524) - floorDiv(doe, 146096), 365);
  const doy = doe - (365 * yoe + floorDiv(yoe, 4) - floorDiv(yoe, 100));
  const mp = floorDiv(5 * doy + 2, 153);
  const d = doy - floorDiv(153 * mp + 2, 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/**
 * Go's own calendar arithmetic (time.absDate) on the uint64 "absolute" seconds, for Unix seconds beyond
 * what a double holds: near the int64 extremes Go's sums wrap, and the dates it prints follow that.
 */
function absParts(local: bigint): { year: number; month: number; day: number; hour: number; min: number; sec: number; yday: number; wday: number } {
  // unixToInternal + internalToAbsolute of Go's time package
  const abs = BigInt.asUintN(64, local + 9223372028715321600n);
  let d = abs / 86400n;
  let n = d / 146097n;
  let y = 400n * n;
  d -= 146097n * n;
  n = d / 36524n;
  n -= n >> 2n;
  y += 100n * n;
  d -= 36524n * n;
  n = d / 1461n;
  y += 4n * n;
  d -= 1461n * n;
  n = d / 365n;
  n -= n >> 2n;
  y += n;
  d -= 365n * n;
  const year = Number(y - 292277022399n);
  const yday = Number(d);
  let day = yday;
  let month: number;
  if (isLeap(year) && day === 31 + 29 - 1) {
    month = 2;
    day = 29;
  } else {
    if (isLeap(year) && day > 31 + 29 - 1) day--;
    month = Math.floor(day / 31);
    const end = DAYS_BEFORE[month + 1]!;
    let begin: number;
    if (day >= end) {
      month++;
      begin = end;
    } else begin = DAYS_BEFORE[month]!;
    month++;
    day = day - begin + 1;
  }
  const clock = Number(abs % 86400n);
  // January 1 of the absolute year was a Monday
  const wday = Number((BigInt.asUintN(64, abs + 86400n) % 604800n) / 86400n);
  return { year, month, day, hour: Math.floor(clock / 3600), min: Math.floor((clock % 3600) / 60), sec: clock % 60, yday: yday + 1, wday };
}

// ---------- time.Time ----------

const ZERO_SEC = -62135596800;

export class GoTime extends GoStruct {
  readonly type: GoType = TIME;
  constructor(
    /** Unix seconds. */
    readonly sec: number,
    readonly nsec: number,
    readonly loc: Location,
    /** The exact Unix seconds where `sec` cannot hold them (beyond 2^53, as time.Unix(math.MaxInt64, 0)). */
    readonly exact?: bigint,
  ) {
    super();
  }
  override field(): GoValue {
    return undefined;
  }
  zone(): Zone {
    return this.loc.lookup(this.sec);
  }
  /** Broken-down local time. */
  parts(): { year: number; month: number; day: number; hour: number; min: number; sec: number; yday: number; wday: number; zone: Zone } {
    const zone = this.zone();
    if (this.exact !== undefined) return { ...absParts(this.exact + BigInt(zone.offset)), zone };
    const local = this.sec + zone.offset;
    const days = floorDiv(local, DAY);
    const rem = local - days * DAY;
    const [year, month, day] = civilFromDays(days);
    const yday = DAYS_BEFORE[month - 1]! + day + (month > 2 && isLeap(year) ? 1 : 0);
    return {
      year,
      month,
      day,
      hour: Math.floor(rem / 3600),
      min: Math.floor((rem % 3600) / 60),
      sec: rem % 60,
      yday,
      wday: (((days + 4) % 7) + 7) % 7,
      zone,
    };
  }
  equalTo(o: GoStruct): boolean {
    return o instanceof GoTime && o.sec === this.sec && o.nsec === this.nsec && o.loc === this.loc;
  }
}

export const zeroTime = (): GoTime => new GoTime(ZERO_SEC, 0, UTC);

export function fromDate(d: Date, loc: Location = LOCAL): GoTime {
  const ms = d.getTime();
  const sec = Math.floor(ms / 1000);
  return new GoTime(sec, (ms - sec * 1000) * 1e6, loc);
}

/** time.Date with the given location (fields may be out of range; they normalize). */
function makeDate(year: number, month: number, day: number, hour: number, min: number, sec: number, nsec: number, loc: Location): GoTime {
  sec += floorDiv(nsec, 1e9);
  nsec = ((nsec % 1e9) + 1e9) % 1e9;
  let unix = daysFromCivil(year, month, day) * DAY + hour * 3600 + min * 60 + sec;
  // Go: subtract the offset in effect, re-checking once across a transition.
  const off = loc.lookup(unix).offset;
  let u = unix - off;
  const off2 = loc.lookup(u).offset;
  if (off2 !== off) u = unix - off2;
  unix = u;
  return new GoTime(unix, nsec, loc);
}

// ---------- layouts ----------

const enum Std {
  none = 0,
  longMonth = 1,
  month,
  numMonth,
  zeroMonth,
  longWeekDay,
  weekDay,
  day,
  underDay,
  zeroDay,
  underYearDay,
  zeroYearDay,
  hour,
  hour12,
  zeroHour12,
  minute,
  zeroMinute,
  second,
  zeroSecond,
  longYear,
  year,
  PM,
  pm,
  TZ,
  ISO8601TZ,
  ISO8601SecondsTZ,
  ISO8601ShortTZ,
  ISO8601ColonTZ,
  ISO8601ColonSecondsTZ,
  NumTZ,
  NumSecondsTz,
  NumShortTZ,
  NumColonTZ,
  NumColonSecondsTZ,
  fracSecond0,
  fracSecond9,
}

interface Chunk {
  prefix: string;
  std: Std;
  /** fractional-second digits and separator */
  digits: number;
  sep: string;
  suffix: string;
}

const lowerStart = (s: string): boolean => s.length > 0 && s[0]! >= 'a' && s[0]! <= 'z';
const isDigitAt = (s: string, i: number): boolean => i < s.length && s[i]! >= '0' && s[i]! <= '9';

function nextStdChunk(layout: string): Chunk {
  const mk = (i: number, std: Std, rest: number, prefixEnd = i): Chunk => ({
    prefix: layout.slice(0, prefixEnd),
    std,
    digits: 0,
    sep: '.',
    suffix: layout.slice(rest),
  });
  const at = (i: number, s: string): boolean => layout.startsWith(s, i);
  for (let i = 0; i < layout.length; i++) {
    const c = layout[i]!;
    switch (c) {
      case 'J':
        if (at(i, 'Jan')) {
          if (at(i, 'January')) return mk(i, Std.longMonth, i + 7);
          if (!lowerStart(layout.slice(i + 3))) return mk(i, Std.month, i + 3);
        }
        break;
      case 'M':
        if (at(i, 'Mon')) {
          if (at(i, 'Monday')) return mk(i, Std.longWeekDay, i + 6);
          if (!lowerStart(layout.slice(i + 3))) return mk(i, Std.weekDay, i + 3);
        }
        if (at(i, 'MST')) return mk(i, Std.TZ, i + 3);
        break;
      case '0':
        if (i + 1 < layout.length && layout[i + 1]! >= '1' && layout[i + 1]! <= '6') {
          const std = [Std.zeroMonth, Std.zeroDay, Std.zeroHour12, Std.zeroMinute, Std.zeroSecond, Std.year][Number(layout[i + 1]) - 1]!;
          return mk(i, std, i + 2);
        }
        if (at(i, '002')) return mk(i, Std.zeroYearDay, i + 3);
        break;
      case '1':
        if (at(i, '15')) return mk(i, Std.hour, i + 2);
        return mk(i, Std.numMonth, i + 1);
      case '2':
        if (at(i, '2006')) return mk(i, Std.longYear, i + 4);
        return mk(i, Std.day, i + 1);
      case '_':
        if (at(i, '_2')) {
          if (at(i + 1, '2006')) return mk(i, Std.longYear, i + 5, i + 1);
          return mk(i, Std.underDay, i + 2);
        }
        if (at(i, '__2')) return mk(i, Std.underYearDay, i + 3);
        break;
      case '3':
        return mk(i, Std.hour12, i + 1);
      case '4':
        return mk(i, Std.minute, i + 1);
      case '5':
        return mk(i, Std.second, i + 1);
      case 'P':
        if (at(i, 'PM')) return mk(i, Std.PM, i + 2);
        break;
      case 'p':
        if (at(i, 'pm')) return mk(i, Std.pm, i + 2);
        break;
      case '-':
        if (at(i, '-070000')) return mk(i, Std.NumSecondsTz, i + 7);
        if (at(i, '-07:00:00')) return mk(i, Std.NumColonSecondsTZ, i + 9);
        if (at(i, '-0700')) return mk(i, Std.NumTZ, i + 5);
        if (at(i, '-07:00')) return mk(i, Std.NumColonTZ, i + 6);
        if (at(i, '-07')) return mk(i, Std.NumShortTZ, i + 3);
        break;
      case 'Z':
        if (at(i, 'Z070000')) return mk(i, Std.ISO8601SecondsTZ, i + 7);
        if (at(i, 'Z07:00:00')) return mk(i, Std.ISO8601ColonSecondsTZ, i + 9);
        if (at(i, 'Z0700')) return mk(i, Std.ISO8601TZ, i + 5);
        if (at(i, 'Z07:00')) return mk(i, Std.ISO8601ColonTZ, i + 6);
        if (at(i, 'Z07')) return mk(i, Std.ISO8601ShortTZ, i + 3);
        break;
      case '.':
      case ',':
        if (i + 1 < layout.length && (layout[i + 1] === '0' || layout[i + 1] === '9')) {
          const d = layout[i + 1]!;
          let j = i + 1;
          while (j < layout.length && layout[j] === d) j++;
          if (!isDigitAt(layout, j)) {
            const ch = mk(i, d === '0' ? Std.fracSecond0 : Std.fracSecond9, j);
            ch.digits = (j - (i + 1)) & 0xfff;
            ch.sep = c;
            return ch;
          }
        }
        break;
    }
  }
  return { prefix: layout, std: Std.none, digits: 0, sep: '.', suffix: '' };
}

function appendInt(x: number, width: number): string {
  const neg = x < 0;
  let s = String(Math.abs(x));
  while (s.length < width) s = '0' + s;
  return neg ? '-' + s : s;
}

function appendNano(nsec: number, std: Std, digits: number, sep: string): string {
  const trim = std === Std.fracSecond9;
  if (trim && (digits === 0 || nsec === 0)) return '';
  let s = sep + appendInt(nsec, 9);
  if (digits < 9) s = s.slice(0, s.length - 9 + digits);
  if (trim) {
    s = s.replace(/0+$/, '');
    if (s === sep) s = '';
  }
  return s;
}

/** Time.Format */
export function format(t: GoTime, layout: string): string {
  const p = t.parts();
  const offset = p.zone.offset;
  let out = '';
  while (layout !== '') {
    const ch = nextStdChunk(layout);
    out += ch.prefix;
    if (ch.std === Std.none) break;
    layout = ch.suffix;
    const std = ch.std;
    switch (std) {
      case Std.year:
        out += appendInt(Math.abs(p.year) % 100, 2);
        break;
      case Std.longYear:
        out += appendInt(p.year, 4);
        break;
      case Std.month:
        out += LONG_MONTHS[p.month - 1]!.slice(0, 3);
        break;
      case Std.longMonth:
        out += LONG_MONTHS[p.month - 1]!;
        break;
      case Std.numMonth:
        out += appendInt(p.month, 0);
        break;
      case Std.zeroMonth:
        out += appendInt(p.month, 2);
        break;
      case Std.weekDay:
        out += LONG_DAYS[p.wday]!.slice(0, 3);
        break;
      case Std.longWeekDay:
        out += LONG_DAYS[p.wday]!;
        break;
      case Std.day:
        out += appendInt(p.day, 0);
        break;
      case Std.underDay:
        out += (p.day < 10 ? ' ' : '') + appendInt(p.day, 0);
        break;
      case Std.zeroDay:
        out += appendInt(p.day, 2);
        break;
      case Std.underYearDay:
        out += (p.yday < 100 ? (p.yday < 10 ? '  ' : ' ') : '') + appendInt(p.yday, 0);
        break;
      case Std.zeroYearDay:
        out += appendInt(p.yday, 3);
        break;
      case Std.hour:
        out += appendInt(p.hour, 2);
        break;
      case Std.hour12:
      case Std.zeroHour12:
        out += appendInt(p.hour % 12 === 0 ? 12 : p.hour % 12, std === Std.hour12 ? 0 : 2);
        break;
      case Std.minute:
        out += appendInt(p.min, 0);
        break;
      case Std.zeroMinute:
        out += appendInt(p.min, 2);
        break;
      case Std.second:
        out += appendInt(p.sec, 0);
        break;
      case Std.zeroSecond:
        out += appendInt(p.sec, 2);
        break;
      case Std.PM:
        out += p.hour >= 12 ? 'PM' : 'AM';
        break;
      case Std.pm:
        out += p.hour >= 12 ? 'pm' : 'am';
        break;
      case Std.ISO8601TZ:
      case Std.ISO8601ColonTZ:
      case Std.ISO8601SecondsTZ:
      case Std.ISO8601ShortTZ:
      case Std.ISO8601ColonSecondsTZ:
      case Std.NumTZ:
      case Std.NumColonTZ:
      case Std.NumSecondsTz:
      case Std.NumShortTZ:
      case Std.NumColonSecondsTZ: {
        const iso = std >= Std.ISO8601TZ && std <= Std.ISO8601ColonSecondsTZ;
        if (offset === 0 && iso) {
          out += 'Z';
          break;
        }
        let zone = Math.trunc(offset / 60);
        let absoffset = offset;
        if (zone < 0) {
          out += '-';
          zone = -zone;
          absoffset = -absoffset;
        } else out += '+';
        out += appendInt(Math.trunc(zone / 60), 2);
        if (std === Std.ISO8601ColonTZ || std === Std.NumColonTZ || std === Std.ISO8601ColonSecondsTZ || std === Std.NumColonSecondsTZ) out += ':';
        if (std !== Std.NumShortTZ && std !== Std.ISO8601ShortTZ) out += appendInt(zone % 60, 2);
        if (std === Std.ISO8601SecondsTZ || std === Std.NumSecondsTz || std === Std.NumColonSecondsTZ || std === Std.ISO8601ColonSecondsTZ) {
          if (std === Std.NumColonSecondsTZ || std === Std.ISO8601ColonSecondsTZ) out += ':';
          out += appendInt(absoffset % 60, 2);
        }
        break;
      }
      case Std.TZ: {
        if (p.zone.name !== '') {
          out += p.zone.name;
          break;
        }
        let zone = Math.trunc(offset / 60);
        if (zone < 0) {
          out += '-';
          zone = -zone;
        } else out += '+';
        out += appendInt(Math.trunc(zone / 60), 2) + appendInt(zone % 60, 2);
        break;
      }
      case Std.fracSecond0:
      case Std.fracSecond9:
        out += appendNano(t.nsec, std, ch.digits, ch.sep);
        break;
    }
  }
  return out;
}

// ---------- parsing ----------

/** time's quote for error texts. */
function tquote(s: string): string {
  let out = '"';
  for (const c of s) {
    const r = c.codePointAt(0)!;
    if (r >= 0x80 || r < 0x20) {
      for (const b of Buffer.from(c, 'utf8')) out += '\\x' + b.toString(16).padStart(2, '0');
    } else out += c === '"' || c === '\\' ? '\\' + c : c;
  }
  return out + '"';
}

export class ParseErr extends Error {}

function leadingInt(s: string): [bigint, string] | undefined {
  let i = 0;
  let x = 0n;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c < '0' || c > '9') break;
    if (x > (1n << 63n) / 10n) return undefined;
    x = x * 10n + BigInt(c.charCodeAt(0) - 48);
    if (x > 1n << 63n) return undefined;
  }
  return [x, s.slice(i)];
}

function atoi(s: string): number | undefined {
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  const r = leadingInt(s);
  if (!r || r[1] !== '' || s === '') return s === '' && r ? 0 : undefined;
  return neg ? -Number(r[0]) : Number(r[0]);
}

function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigitAt(s, 0)) return undefined;
  if (!isDigitAt(s, 1)) {
    if (fixed) return undefined;
    return [s.charCodeAt(0) - 48, s.slice(1)];
  }
  return [(s.charCodeAt(0) - 48) * 10 + s.charCodeAt(1) - 48, s.slice(2)];
}

function getnum3(s: string, fixed: boolean): [number, string] | undefined {
  let n = 0;
  let i = 0;
  for (; i < 3 && isDigitAt(s, i); i++) n = n * 10 + s.charCodeAt(i) - 48;
  if (i === 0 || (fixed && i !== 3)) return undefined;
  return [n, s.slice(i)];
}

function skip(value: string, prefix: string): [string, boolean] {
  while (prefix.length > 0) {
    if (prefix[0] === ' ') {
      if (value.length > 0 && value[0] !== ' ') return [value, false];
      prefix = prefix.replace(/^ +/, '');
      value = value.replace(/^ +/, '');
      continue;
    }
    if (value.length === 0 || value[0] !== prefix[0]) return [value, false];
    prefix = prefix.slice(1);
    value = value.slice(1);
  }
  return [value, true];
}

function lookupName(tab: string[], val: string): [number, string] | undefined {
  for (let i = 0; i < tab.length; i++) {
    const v = tab[i]!;
    if (val.length >= v.length && val.slice(0, v.length).toLowerCase() === v.toLowerCase()) return [i, val.slice(v.length)];
  }
  return undefined;
}

function parseSignedOffset(value: string): number {
  const sign = value[0];
  if (sign !== '-' && sign !== '+') return 0;
  const r = leadingInt(value.slice(1));
  if (!r || value.slice(1) === r[1]) return 0;
  if (r[0] > 23n) return 0;
  return value.length - r[1].length;
}

function parseTimeZone(value: string): number | undefined {
  if (value.length < 3) return undefined;
  if (value.startsWith('ChST') || value.startsWith('MeST')) return 4;
  if (value.startsWith('GMT')) return 3 + (value.length === 3 ? 0 : parseSignedOffset(value.slice(3)));
  if (value[0] === '+' || value[0] === '-') {
    const n = parseSignedOffset(value);
    return n > 0 ? n : undefined;
  }
  let n = 0;
  while (n < 6 && n < value.length && value[n]! >= 'A' && value[n]! <= 'Z') n++;
  switch (n) {
    case 5:
      return value[4] === 'T' ? 5 : undefined;
    case 4:
      return value[3] === 'T' || value.startsWith('WITA') ? 4 : undefined;
    case 3:
      return 3;
    default:
      return undefined;
  }
}

function parseNanoseconds(value: string, nbytes: number): { ns: number; range?: string } | undefined {
  if (value[0] !== '.' && value[0] !== ',') return undefined;
  if (nbytes > 10) {
    value = value.slice(0, 10);
    nbytes = 10;
  }
  const ns = atoi(value.slice(1, nbytes));
  if (ns === undefined) return undefined;
  if (ns < 0) return { ns: 0, range: 'fractional second' };
  return { ns: ns * 10 ** (10 - nbytes) };
}

/** time.ParseInLocation(layout, value, Local) */
export function parseTime(layout0: string, value0: string): GoTime {
  let layout = layout0;
  let value = value0;
  const perr = (layoutElem: string, valueElem: string, msg = ''): never => {
    if (msg === '') {
      throw new ParseErr(`parsing time ${tquote(value0)} as ${tquote(layout0)}: cannot parse ${tquote(valueElem)} as ${tquote(layoutElem)}`);
    }
    throw new ParseErr(`parsing time ${tquote(value0)}${msg}`);
  };
  let rangeErr = '';
  let amSet = false;
  let pmSet = false;
  let year = 0;
  let month = -1;
  let day = -1;
  let yday = -1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let z: Location | undefined;
  let zoneOffset = -1;
  let zoneName = '';
  for (;;) {
    const ch = nextStdChunk(layout);
    const stdstr = layout.slice(ch.prefix.length, layout.length - ch.suffix.length);
    const [v, ok] = skip(value, ch.prefix);
    value = v;
    if (!ok) perr(ch.prefix, value);
    if (ch.std === Std.none) {
      if (value.length !== 0) perr('', value, ': extra text: ' + tquote(value));
      break;
    }
    layout = ch.suffix;
    const std = ch.std;
    let bad = false;
    const num = (r: [number, string] | undefined): number => {
      if (!r) {
        bad = true;
        return 0;
      }
      value = r[1];
      return r[0];
    };
    switch (std) {
      case Std.year: {
        if (value.length < 2) {
          bad = true;
          break;
        }
        const y = atoi(value.slice(0, 2));
        if (y === undefined) bad = true;
        else {
          value = value.slice(2);
          year = y >= 69 ? y + 1900 : y + 2000;
        }
        break;
      }
      case Std.longYear: {
        if (value.length < 4 || !isDigitAt(value, 0)) {
          bad = true;
          break;
        }
        const y = atoi(value.slice(0, 4));
        value = value.slice(4);
        if (y === undefined) bad = true;
        else year = y;
        break;
      }
      case Std.month:
      case Std.longMonth: {
        const r = lookupName(std === Std.month ? LONG_MONTHS.map((m) => m.slice(0, 3)) : LONG_MONTHS, value);
        if (!r) bad = true;
        else [month, value] = [r[0] + 1, r[1]];
        break;
      }
      case Std.numMonth:
      case Std.zeroMonth:
        month = num(getnum(value, std === Std.zeroMonth));
        if (!bad && (month <= 0 || month > 12)) rangeErr = 'month';
        break;
      case Std.weekDay:
      case Std.longWeekDay: {
        const r = lookupName(std === Std.weekDay ? LONG_DAYS.map((d) => d.slice(0, 3)) : LONG_DAYS, value);
        if (!r) bad = true;
        else value = r[1];
        break;
      }
      case Std.day:
      case Std.underDay:
      case Std.zeroDay:
        if (std === Std.underDay && value[0] === ' ') value = value.slice(1);
        day = num(getnum(value, std === Std.zeroDay));
        break;
      case Std.underYearDay:
      case Std.zeroYearDay:
        for (let i = 0; i < 2; i++) if (std === Std.underYearDay && value[0] === ' ') value = value.slice(1);
        yday = num(getnum3(value, std === Std.zeroYearDay));
        break;
      case Std.hour:
        hour = num(getnum(value, false));
        if (hour < 0 || hour >= 24) rangeErr = 'hour';
        break;
      case Std.hour12:
      case Std.zeroHour12:
        hour = num(getnum(value, std === Std.zeroHour12));
        if (hour < 0 || hour > 12) rangeErr = 'hour';
        break;
      case Std.minute:
      case Std.zeroMinute:
        min = num(getnum(value, std === Std.zeroMinute));
        if (min < 0 || min >= 60) rangeErr = 'minute';
        break;
      case Std.second:
      case Std.zeroSecond: {
        sec = num(getnum(value, std === Std.zeroSecond));
        if (sec < 0 || sec >= 60) {
          rangeErr = 'second';
          break;
        }
        if (value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigitAt(value, 1)) {
          const next = nextStdChunk(layout).std;
          if (next === Std.fracSecond0 || next === Std.fracSecond9) break;
          let n = 2;
          while (n < value.length && isDigitAt(value, n)) n++;
          const r = parseNanoseconds(value, n);
          if (!r) bad = true;
          else {
            nsec = r.ns;
            rangeErr = r.range ?? '';
          }
          value = value.slice(n);
        }
        break;
      }
      case Std.PM:
      case Std.pm: {
        if (value.length < 2) {
          bad = true;
          break;
        }
        const p = value.slice(0, 2);
        value = value.slice(2);
        const [pmS, amS] = std === Std.PM ? ['PM', 'AM'] : ['pm', 'am'];
        if (p === pmS) pmSet = true;
        else if (p === amS) amSet = true;
        else bad = true;
        break;
      }
      case Std.ISO8601TZ:
      case Std.ISO8601ColonTZ:
      case Std.ISO8601SecondsTZ:
      case Std.ISO8601ShortTZ:
      case Std.ISO8601ColonSecondsTZ:
      case Std.NumTZ:
      case Std.NumShortTZ:
      case Std.NumColonTZ:
      case Std.NumSecondsTz:
      case Std.NumColonSecondsTZ: {
        if ((std === Std.ISO8601TZ || std === Std.ISO8601ShortTZ || std === Std.ISO8601ColonTZ) && value[0] === 'Z') {
          value = value.slice(1);
          z = UTC;
          break;
        }
        let parts: [string, string, string, string] | undefined;
        if (std === Std.ISO8601ColonTZ || std === Std.NumColonTZ) {
          if (value.length >= 6 && value[3] === ':') parts = [value[0]!, value.slice(1, 3), value.slice(4, 6), '00'], (value = value.slice(6));
        } else if (std === Std.NumShortTZ || std === Std.ISO8601ShortTZ) {
          if (value.length >= 3) parts = [value[0]!, value.slice(1, 3), '00', '00'], (value = value.slice(3));
        } else if (std === Std.ISO8601ColonSecondsTZ || std === Std.NumColonSecondsTZ) {
          if (value.length >= 9 && value[3] === ':' && value[6] === ':') {
            parts = [value[0]!, value.slice(1, 3), value.slice(4, 6), value.slice(7, 9)];
            value = value.slice(9);
          }
        } else if (std === Std.ISO8601SecondsTZ || std === Std.NumSecondsTz) {
          if (value.length >= 7) parts = [value[0]!, value.slice(1, 3), value.slice(3, 5), value.slice(5, 7)], (value = value.slice(7));
        } else if (value.length >= 5) parts = [value[0]!, value.slice(1, 3), value.slice(3, 5), '00'], (value = value.slice(5));
        if (!parts) {
          bad = true;
          break;
        }
        const [sign, hh, mm, ss] = parts;
        const h = atoi(hh);
        const m = atoi(mm);
        const s = atoi(ss);
        if (h === undefined || m === undefined || s === undefined) bad = true;
        zoneOffset = ((h ?? 0) * 60 + (m ?? 0)) * 60 + (s ?? 0);
        if (sign === '-') zoneOffset = -zoneOffset;
        else if (sign !== '+') bad = true;
        break;
      }
      case Std.TZ: {
        if (value.startsWith('UTC')) {
          z = UTC;
          value = value.slice(3);
          break;
        }
        const n = parseTimeZone(value);
        if (n === undefined) {
          bad = true;
          break;
        }
        zoneName = value.slice(0, n);
        value = value.slice(n);
        break;
      }
      case Std.fracSecond0: {
        const ndigit = 1 + ch.digits;
        if (value.length < ndigit) {
          bad = true;
          break;
        }
        const r = parseNanoseconds(value, ndigit);
        if (!r) bad = true;
        else {
          nsec = r.ns;
          rangeErr = r.range ?? '';
        }
        value = value.slice(ndigit);
        break;
      }
      case Std.fracSecond9: {
        if (value.length < 2 || (value[0] !== '.' && value[0] !== ',') || !isDigitAt(value, 1)) break;
        let i = 0;
        while (i < 9 && i + 1 < value.length && isDigitAt(value, i + 1)) i++;
        const r = parseNanoseconds(value, 1 + i);
        if (!r) bad = true;
        else {
          nsec = r.ns;
          rangeErr = r.range ?? '';
        }
        value = value.slice(1 + i);
        break;
      }
    }
    if (rangeErr !== '') perr(stdstr, value, ': ' + rangeErr + ' out of range');
    if (bad) perr(stdstr, value);
  }
  if (pmSet && hour < 12) hour += 12;
  else if (amSet && hour === 12) hour = 0;
  if (yday >= 0) {
    let d = 0;
    let m = 0;
    if (isLeap(year)) {
      if (yday === 31 + 29) {
        m = 2;
        d = 29;
      } else if (yday > 31 + 29) yday--;
    }
    if (yday < 1 || yday > 365) perr('', value, ': day-of-year out of range');
    if (m === 0) {
      m = Math.floor((yday - 1) / 31) + 1;
      if (DAYS_BEFORE[m]! < yday) m++;
      d = yday - DAYS_BEFORE[m - 1]!;
    }
    if (month >= 0 && month !== m) perr('', value, ': day-of-year does not match month');
    month = m;
    if (day >= 0 && day !== d) perr('', value, ': day-of-year does not match day');
    day = d;
  } else {
    if (month < 0) month = 1;
    if (day < 0) day = 1;
  }
  if (day < 1 || day > daysIn(month, year)) perr('', value, ': day out of range');
  if (z) return makeDate(year, month, day, hour, min, sec, nsec, z);
  if (zoneOffset !== -1) {
    const t = makeDate(year, month, day, hour, min, sec, nsec, UTC);
    const usec = t.sec - zoneOffset;
    const lz = LOCAL.lookup(usec);
    if (lz.offset === zoneOffset && (zoneName === '' || lz.name === zoneName)) return new GoTime(usec, t.nsec, LOCAL);
    return new GoTime(usec, t.nsec, fixedZone(zoneName, zoneOffset));
  }
  if (zoneName !== '') {
    const t = makeDate(year, month, day, hour, min, sec, nsec, UTC);
    if (zoneName === 'UTC') return new GoTime(t.sec, t.nsec, LOCAL);
    let offset = 0;
    if (zoneName.length > 3 && zoneName.startsWith('GMT')) offset = (atoi(zoneName.slice(3)) ?? 0) * 3600;
    return new GoTime(t.sec - 0, t.nsec, fixedZone(zoneName, offset));
  }
  return makeDate(year, month, day, hour, min, sec, nsec, LOCAL);
}

// ---------- durations ----------

const NS = 1n;
const UNITS: Record<string, bigint> = {
  ns: NS,
  us: 1000n,
  'µs': 1000n,
  'μs': 1000n,
  ms: 1000000n,
  s: 1000000000n,
  m: 60000000000n,
  h: 3600000000000n,
};
export const MAX_I64 = (1n << 63n) - 1n;

/** time.ParseDuration; throws ParseErr with Go's text. */
export function parseDuration(orig: string): bigint {
  let s = orig;
  let d = 0n;
  let neg = false;
  const invalid = (): never => {
    throw new ParseErr('time: invalid duration ' + tquote(orig));
  };
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') invalid();
  while (s !== '') {
    let f = 0n;
    let scale = 1;
    if (!(s[0] === '.' || isDigitAt(s, 0))) invalid();
    const pl = s.length;
    const r = leadingInt(s);
    if (!r) invalid();
    let v = r![0];
    s = r![1];
    const pre = pl !== s.length;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      const pl2 = s.length;
      let i = 0;
      let overflow = false;
      for (; i < s.length && isDigitAt(s, i); i++) {
        if (overflow) continue;
        if (f > MAX_I64 / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(i) - 48);
        if (y > 1n << 63n) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      s = s.slice(i);
      post = pl2 !== s.length;
    }
    if (!pre && !post) invalid();
    let i = 0;
    while (i < s.length && !(s[i] === '.' || isDigitAt(s, i))) i++;
    if (i === 0) throw new ParseErr('time: missing unit in duration ' + tquote(orig));
    const u = s.slice(0, i);
    s = s.slice(i);
    const unit = UNITS[u];
    if (unit === undefined) throw new ParseErr('time: unknown unit ' + tquote(u) + ' in duration ' + tquote(orig));
    if (v > (1n << 63n) / unit) invalid();
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > 1n << 63n) invalid();
    }
    d += v;
    if (d > 1n << 63n) invalid();
  }
  if (neg) return BigInt.asIntN(64, -d);
  if (d > MAX_I64) invalid();
  return d;
}

function fmtFrac(v: bigint, prec: number): [string, bigint] {
  let out = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    print ||= digit !== 0n;
    if (print) out = String(digit) + out;
    v /= 10n;
  }
  if (print) out = '.' + out;
  return [out, v];
}

/** Duration.String */
export function durationString(d: bigint): string {
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < 1000000000n) {
    if (u === 0n) return '0s';
    let prec: number;
    let unit: string;
    if (u < 1000n) [prec, unit] = [0, 'ns'];
    else if (u < 1000000n) [prec, unit] = [3, 'µs'];
    else [prec, unit] = [6, 'ms'];
    const [frac, rest] = fmtFrac(u, prec);
    out = String(rest) + frac + unit;
  } else {
    const [frac, rest] = fmtFrac(u, 9);
    u = rest;
    out = String(u % 60n) + frac + 's';
    u /= 60n;
    if (u > 0n) {
      out = String(u % 60n) + 'm' + out;
      u /= 60n;
      if (u > 0n) out = String(u) + 'h' + out;
    }
  }
  return neg ? '-' + out : out;
}

export function durationRoundTo(d: bigint, m: bigint): bigint {
  const lessThanHalf = (x: bigint, y: bigint): boolean => x + x < y;
  let r = d % m;
  if (d < 0n) {
    r = -r;
    if (lessThanHalf(r, m)) return d + r;
    const d1 = d - m + r;
    return d1 < d && d1 >= -(1n << 63n) ? d1 : -(1n << 63n);
  }
  if (lessThanHalf(r, m)) return d - r;
  const d1 = d + m - r;
  return d1 > d && d1 <= MAX_I64 ? d1 : MAX_I64;
}

// ---------- the Go types ----------

function method(name: string, params: GoType[], results: 1 | 2, resultType: GoType, fn: GoMethod['fn']): GoMethod {
  return { name, params, results, resultType, fn };
}

export const TIME: GoType = { kind: 'struct', name: 'time.Time', fields: [] };
const MONTH: GoType = { kind: 'int', name: 'time.Month' };
const WEEKDAY: GoType = { kind: 'int', name: 'time.Weekday' };
MONTH.methods = { String: method('String', [], 1, T.string, (m) => LONG_MONTHS[Number((m as GoNum).v) - 1] ?? `%!Month(${(m as GoNum).v})`) };
WEEKDAY.methods = { String: method('String', [], 1, T.string, (d) => LONG_DAYS[Number((d as GoNum).v)] ?? `%!Weekday(${(d as GoNum).v})`) };

const tm = (v: GoValue): GoTime => v as GoTime;
const STRING_LAYOUT = '2006-01-02 15:04:05.999999999 -0700 MST';
TIME.methods = {
  String: method('String', [], 1, T.string, (t) => format(tm(t), STRING_LAYOUT)),
  Format: method('Format', [T.string], 1, T.string, (t, l) => format(tm(t), l as string)),
  Unix: method('Unix', [], 1, T.int64, (t) => BigInt(tm(t).sec)),
  UnixMilli: method('UnixMilli', [], 1, T.int64, (t) => BigInt(tm(t).sec) * 1000n + BigInt(Math.floor(tm(t).nsec / 1e6))),
  UnixNano: method('UnixNano', [], 1, T.int64, (t) => BigInt.asIntN(64, BigInt(tm(t).sec) * 1000000000n + BigInt(tm(t).nsec))),
  Year: method('Year', [], 1, T.int, (t) => BigInt(tm(t).parts().year)),
  Month: method('Month', [], 1, MONTH, (t) => new GoNum(MONTH, BigInt(tm(t).parts().month))),
  Day: method('Day', [], 1, T.int, (t) => BigInt(tm(t).parts().day)),
  Weekday: method('Weekday', [], 1, WEEKDAY, (t) => new GoNum(WEEKDAY, BigInt(tm(t).parts().wday))),
  YearDay: method('YearDay', [], 1, T.int, (t) => BigInt(tm(t).parts().yday)),
  Hour: method('Hour', [], 1, T.int, (t) => BigInt(tm(t).parts().hour)),
  Minute: method('Minute', [], 1, T.int, (t) => BigInt(tm(t).parts().min)),
  Second: method('Second', [], 1, T.int, (t) => BigInt(tm(t).parts().sec)),
  Nanosecond: method('Nanosecond', [], 1, T.int, (t) => BigInt(tm(t).nsec)),
  IsZero: method('IsZero', [], 1, T.bool, (t) => tm(t).sec === ZERO_SEC && tm(t).nsec === 0),
  UTC: method('UTC', [], 1, TIME, (t) => new GoTime(tm(t).sec, tm(t).nsec, UTC)),
  Local: method('Local', [], 1, TIME, (t) => new GoTime(tm(t).sec, tm(t).nsec, LOCAL)),
  Before: method('Before', [TIME], 1, T.bool, (t, u) => tm(t).sec < tm(u).sec || (tm(t).sec === tm(u).sec && tm(t).nsec < tm(u).nsec)),
  After: method('After', [TIME], 1, T.bool, (t, u) => tm(t).sec > tm(u).sec || (tm(t).sec === tm(u).sec && tm(t).nsec > tm(u).nsec)),
  Equal: method('Equal', [TIME], 1, T.bool, (t, u) => tm(t).sec === tm(u).sec && tm(t).nsec === tm(u).nsec),
  AddDate: method('AddDate', [T.int, T.int, T.int], 1, TIME, (t, y, m, d) => {
    const p = tm(t).parts();
    return makeDate(p.year + Number(y), p.month + Number(m), p.day + Number(d), p.hour, p.min, p.sec, tm(t).nsec, tm(t).loc);
  }),
};
TIME.marshalJSON = (v) => JSON.stringify(format(tm(v), '2006-01-02T15:04:05.999999999Z07:00'));
