// Every vector under test/vectors/<area>/<topic>.jsonl, run through the TypeScript engine and compared
// with what Go's text/template produced (<topic>.expected.jsonl, written by `npm run vectors`).

import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCaseLine, runCase, type BatchCase, type BatchResult } from '../src/batch.js';
import { fixtures } from './vectors/fixtures.js';

const root = fileURLToPath(new URL('./vectors/', import.meta.url));

function vectorFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...vectorFiles(p));
    else if (e.name.endsWith('.jsonl') && !e.name.endsWith('.expected.jsonl')) out.push(p);
  }
  return out;
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
}

for (const file of vectorFiles(root)) {
  const label = relative(root, file).split(sep).join('/').replace(/\.jsonl$/, '');
  const expectedFile = file.replace(/\.jsonl$/, '.expected.jsonl');
  // read as Go reads a line: with dataInt, an integer literal keeps its exact value
  const cases = lines(file).map((l): BatchCase => {
    const p = parseCaseLine(l);
    if ('result' in p) throw new Error(`${file}: ${p.result.error}`);
    return p.case;
  });
  const expected = existsSync(expectedFile) ? lines(expectedFile).map((l) => JSON.parse(l) as BatchResult) : [];

  describe(label, () => {
    it(`${label}: expected outputs are up to date`, () => {
      expect(expected.map((r) => r.name), 'run `npm run vectors`').toEqual(cases.map((c) => c.name));
    });
    cases.forEach((c, i) => {
      const want = expected[i];
      it(`${label}: ${c.name}`, () => {
        expect(want, 'no expected result: run `npm run vectors`').toBeDefined();
        const got = runCase(c, { fixtures });
        expect({ output: got.output, error: got.error, phase: got.phase }).toEqual({
          output: want!.output,
          error: want!.error,
          phase: want!.phase,
        });
      });
    });
  });
}
