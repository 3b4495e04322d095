// Batch lines that are not well-formed cases (a field of the wrong JSON type, null fields, numbers
// beyond 2^53 with dataInt) answered as tools/gorender answers them: Go's json.Unmarshal error texts,
// never a JavaScript TypeError. The expected lines are Go's (tools/gen-vectors.sh writes them).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runBatch } from '../../src/batch.js';
import { cli } from '../helpers/cli.js';

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const input = readFileSync(here('./batch-lines.jsonl'), 'utf8');
const expected = readFileSync(here('./batch-lines.expected.jsonl'), 'utf8').trimEnd().split('\n');

describe('batch lines of the wrong shape', () => {
  const got = runBatch(input).trimEnd().split('\n');
  expected.forEach((want, i) => {
    it(`line ${i + 1}: ${input.split('\n')[i]}`, () => {
      expect(JSON.parse(got[i]!)).toEqual(JSON.parse(want));
    });
  });

  it('template --batch answers the same lines', async () => {
    const stdin = await import('node:stream');
    const orig = Object.getOwnPropertyDescriptor(process, 'stdin')!;
    Object.defineProperty(process, 'stdin', { value: stdin.Readable.from([input]), configurable: true });
    try {
      const r = await cli('template', '--batch');
      expect(r.code).toBe(0);
      expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(expected.map((l) => JSON.parse(l)));
    } finally {
      Object.defineProperty(process, 'stdin', orig);
    }
  });
});
