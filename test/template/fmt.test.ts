// Go's fmt, checked against a table of Go 1.19's own output (test/template/fmt.cases.jsonl, made by
// tools/fmt: `node tools/fmt/cases.mjs | fmtcases > test/template/fmt.cases.jsonl`).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatValue, goTypeName, sprint, sprintf, sprintln } from '../../src/go/fmt/print.js';
import {
  canBackquote,
  formatFloat,
  formatInt,
  fromGoBytes,
  isPrint,
  quote,
  quoteRune,
  quoteRuneToASCII,
  quoteToASCII,
} from '../../src/go/strconv/strconv.js';
import { GoNil, GoNum, T, ptrTo, type GoValue } from '../../src/go/reflect/value.js';
import { operand } from './fmt.operands.js';

const FNS = ['sprintf', 'sprint', 'sprintln', 'value', 'formatFloat', 'formatInt', 'quote', 'quoteToASCII', 'canBackquote',
  'quoteRune', 'quoteRuneToASCII', 'isPrint'] as const;

interface Row {
  fn: (typeof FNS)[number];
  format: string;
  args: unknown[];
  out?: string;
  outHex?: string;
}

const rows: Row[] = readFileSync(new URL('./fmt.cases.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Row);

function expected(r: Row): string {
  if (r.outHex !== undefined) return fromGoBytes(Buffer.from(r.outHex, 'hex'));
  return r.out!;
}

const bitsView = new DataView(new ArrayBuffer(8));

function run(r: Row): string {
  if (r.fn === 'formatFloat') {
    const [bits, fmt, prec, bitSize] = r.args as [string, string, number, 32 | 64];
    bitsView.setBigUint64(0, BigInt('0x' + bits));
    return formatFloat(bitsView.getFloat64(0), fmt, prec, bitSize);
  }
  const args = r.args.map(operand);
  const rune = (): number => Number((args[0] as GoNum).v);
  switch (r.fn) {
    case 'formatInt':
      return formatInt((args[0] as GoNum).v as bigint, Number(args[1]));
    case 'quote':
      return quote(args[0] as string);
    case 'quoteToASCII':
      return quoteToASCII(args[0] as string);
    case 'canBackquote':
      return String(canBackquote(args[0] as string));
    case 'quoteRune':
      return quoteRune(rune());
    case 'quoteRuneToASCII':
      return quoteRuneToASCII(rune());
    case 'isPrint':
      return String(isPrint(rune()));
    case 'sprintf':
      return sprintf(r.format, args);
    case 'sprint':
      return sprint(args);
    case 'sprintln':
      return sprintln(args);
    case 'value':
      return formatValue(args[0]);
  }
}

describe('fmt and strconv against Go 1.19', () => {
  for (const fn of FNS) {
    const mine = rows.filter((r) => r.fn === fn);
    it(`${fn}: ${mine.length} rows byte-identical`, () => {
      expect(mine.length).toBeGreaterThan(5);
      const failures: string[] = [];
      for (const r of mine) {
        let got: string;
        try {
          got = run(r);
        } catch (e) {
          got = 'THROWN: ' + (e as Error).message;
        }
        const want = expected(r);
        if (got !== want) {
          failures.push(`${r.format} ${JSON.stringify(r.args)}\n   go: ${JSON.stringify(want)}\n   ts: ${JSON.stringify(got)}`);
        }
      }
      expect(failures.slice(0, 25).join('\n'), `${failures.length} of ${mine.length} differ`).toBe('');
    });
  }
});

describe('fmt details', () => {
  // Expected values below were printed by Go 1.19.
  it.each<[string, GoValue[], string]>([
    ['%d', [42n], '42'],
    ['%v', [1e21], '1e+21'],
    ['%v', [100], '100'],
    ['%v', [0.1], '0.1'],
    ['%v', [1e-5], '1e-05'],
    ['%v', [new GoNum(T.float32, Math.fround(0.1))], '0.1'],
    ['%v', [new GoNum(T.int64, -3n)], '-3'],
    ['%5.2f|', [3.14159], ' 3.14|'],
    ['%-10s|', ['ab'], 'ab        |'],
    ['%d', ['x'], '%!d(string=x)'],
    ['%s', [1n, 'a'], '%!s(int=1)%!(EXTRA string=a)'],
    ['%d %d', [1n], '1 %!d(MISSING)'],
    ['%', [], '%!(NOVERB)'],
    ['%*d', ['x', 1n], '%!(BADWIDTH)1'],
    ['%.*d', ['x', 1n], '%!(BADPREC)1'],
    ['%[3]d', [1n], '%!d(BADINDEX)'],
    ['%s', [null], '%!s(<nil>)'],
    ['%v', [null], '<nil>'],
    ['%x', ['hi'], '6869'],
    ['%q', ['a\n'], '"a\\n"'],
    ['%c', [0x65e5n], '日'],
    ['%U', [0x65e5n], 'U+65E5'],
    ['%3s|', ['日本'], ' 日本|'],
    ['%.1s', ['日本'], '日'],
    ['%v', [new GoNil(ptrTo(T.int))], '<nil>'],
    ['%s', [new GoNil(ptrTo(T.int))], '%!s(*int=<nil>)'],
  ])('sprintf %s', (format, args, want) => {
    expect(sprintf(format, args)).toBe(want);
  });

  it('keeps a string that needs bytes (\\xff) byte-exact through %s and %x', () => {
    const s = fromGoBytes([0x61, 0xff, 0x62]);
    expect(sprintf('%x', [s])).toBe('61ff62');
    expect(sprintf('%q', [s])).toBe('"a\\xffb"');
    expect(sprintf('%s', [s])).toBe(s);
    expect(sprintf('%3.2s|', [s])).toBe(' ' + fromGoBytes([0x61, 0xff]) + '|');
  });

  it('names types as %T does', () => {
    expect(goTypeName(1n)).toBe('int');
    expect(goTypeName(1.5)).toBe('float64');
    expect(goTypeName('a')).toBe('string');
    expect(goTypeName([])).toBe('[]interface {}');
    expect(goTypeName({})).toBe('map[string]interface {}');
    expect(goTypeName(null)).toBe('<nil>');
  });

  it('prints a missing value as text/template does', () => {
    expect(formatValue(undefined)).toBe('<no value>');
    expect(sprint([undefined])).toBe('<nil>');
  });
});
