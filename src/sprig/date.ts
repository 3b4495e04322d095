// Sprig's date functions (date.go) over Go's time package (src/go/time/time.ts). The clock is
// injected through the function set's options.
//
// Mirrors: github.com/Masterminds/sprig/v3 date.go
// Proven by: test/vectors/sprig/

import { GoFunc, GoNum, T, def, type FuncMap, type GoType, type GoValue } from '../go/reflect/value.js';
import { fail, table, type SprigContext } from './util.js';
import { UTC, LOCAL, loadLocation, GoTime, zeroTime, fromDate, format, ParseErr, parseTime, MAX_I64, parseDuration, durationString, durationRoundTo, TIME } from '../go/time/time.js';

function toTime(ctx: SprigContext, date: GoValue): GoTime {
  if (date instanceof GoTime) return date;
  if (typeof date === 'bigint') return unixTime(BigInt.asIntN(64, date));
  if (date instanceof GoNum && (date.type.name === 'int64' || date.type.name === 'int32')) return unixTime(date.v as bigint);
  return fromDate(ctx.now());
}

/** time.Unix(sec, 0) in Local. */
function unixTime(sec: bigint): GoTime {
  const n = Number(sec);
  return new GoTime(n, 0, LOCAL, Number.isSafeInteger(n) ? undefined : sec);
}

function dateInZone(ctx: SprigContext, layout: string, date: GoValue, zone: string): string {
  const t = toTime(ctx, date);
  const loc = loadLocation(zone) ?? UTC;
  return format(new GoTime(t.sec, t.nsec, loc, t.exact), layout);
}

function since(ctx: SprigContext, t: GoTime): bigint {
  const now = fromDate(ctx.now());
  return BigInt.asIntN(64, (BigInt(now.sec) - BigInt(t.sec)) * 1000000000n + BigInt(now.nsec - t.nsec));
}

function addDuration(t: GoTime, d: bigint): GoTime {
  const total = BigInt(t.nsec) + d;
  const secs = total >= 0n ? total / 1000000000n : -((-total + 999999999n) / 1000000000n);
  return new GoTime(t.sec + Number(secs), Number(total - secs * 1000000000n), t.loc);
}

function tryDuration(s: string): bigint | undefined {
  try {
    return parseDuration(s);
  } catch (e) {
    if (e instanceof ParseErr) return undefined;
    throw e;
  }
}

export function dateFuncs(ctx: SprigContext): FuncMap {
  const fn = (name: string, params: GoType[], results: 1 | 2, res: GoType, f: (...a: any[]) => GoValue): GoFunc =>
    new GoFunc(name, params, false, results, res, f);
  const dateModify = (name: string) =>
    fn(name, [T.string, TIME], 1, TIME, (f: string, t: GoTime) => {
      const d = tryDuration(f);
      return d === undefined ? t : addDuration(t, d);
    });
  const mustDateModify = (name: string) =>
    fn(name, [T.string, TIME], 2, TIME, (f: string, t: GoTime) => {
      try {
        return addDuration(t, parseDuration(f));
      } catch (e) {
        if (e instanceof ParseErr) fail(e.message);
        throw e;
      }
    });
  const toDate = (f: string, s: string): GoTime => {
    try {
      return parseTime(f, s);
    } catch (e) {
      if (e instanceof ParseErr) return zeroTime();
      throw e;
    }
  };
  const dateInZoneFn = (name: string) =>
    def(name, 'func(string, interface {}, string) string', (f: string, d: GoValue, z: string) => dateInZone(ctx, f, d, z));
  return table([
    def('ago', 'func(interface {}) string', (d: GoValue) => {
      const t = d instanceof GoTime ? d : typeof d === 'bigint' || (d instanceof GoNum && d.type.name === 'int64') ? toTime(ctx, d) : fromDate(ctx.now());
      return durationString(durationRoundTo(since(ctx, t), 1000000000n));
    }),
    def('date', 'func(string, interface {}) string', (f: string, d: GoValue) => dateInZone(ctx, f, d, 'Local')),
    dateInZoneFn('date_in_zone'),
    dateInZoneFn('dateInZone'),
    dateModify('date_modify'),
    dateModify('dateModify'),
    mustDateModify('must_date_modify'),
    mustDateModify('mustDateModify'),
    def('duration', 'func(interface {}) string', (v: GoValue) => {
      let n = 0n;
      if (typeof v === 'string') n = (/^[+-]?[0-9]+$/.test(v) ? BigInt(v) : 0n);
      else if (v instanceof GoNum && v.type.name === 'int64') n = v.v as bigint;
      if (n > MAX_I64 || n < -(1n << 63n)) n = 0n;
      return durationString(BigInt.asIntN(64, n * 1000000000n));
    }),
    def('durationRound', 'func(interface {}) string', (v: GoValue) => {
      let d = 0n;
      if (typeof v === 'string') d = tryDuration(v) ?? 0n;
      else if (v instanceof GoNum && v.type.name === 'int64') d = v.v as bigint;
      else if (v instanceof GoTime) d = since(ctx, v);
      let u = BigInt.asUintN(64, d);
      if (d < 0n) u = BigInt.asUintN(64, -u);
      const hour = 3600000000000n;
      const units: [bigint, string][] = [
        [hour * 24n * 365n, 'y'],
        [hour * 24n * 30n, 'mo'],
        [hour * 24n, 'd'],
        [hour, 'h'],
        [60000000000n, 'm'],
        [1000000000n, 's'],
      ];
      for (const [size, suffix] of units) if (u > size) return String(u / size) + suffix;
      return '0s';
    }),
    def('htmlDate', 'func(interface {}) string', (d: GoValue) => dateInZone(ctx, '2006-01-02', d, 'Local')),
    def('htmlDateInZone', 'func(interface {}, string) string', (d: GoValue, z: string) => dateInZone(ctx, '2006-01-02', d, z)),
    fn('now', [], 1, TIME, () => fromDate(ctx.now())),
    fn('toDate', [T.string, T.string], 1, TIME, toDate),
    fn('mustToDate', [T.string, T.string], 2, TIME, (f: string, s: string) => {
      try {
        return parseTime(f, s);
      } catch (e) {
        if (e instanceof ParseErr) fail(e.message);
        throw e;
      }
    }),
    fn('unixEpoch', [TIME], 1, T.string, (t: GoTime) => String(t.sec)),
  ]);
}
