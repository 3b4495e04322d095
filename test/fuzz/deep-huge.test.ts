// Fuzzing the YAML and template entry points with deep and huge inputs: documents and templates nested
// to 100,000 levels, data nested as deep, long scalars, many keys, doubling strings, truncated and
// doubled documents. Nothing may abort the process, and every failure is the library's own one-line
// error (InputError, TemplateError). The inputs run in a process of their own (deep-huge.child.mjs,
// over the build in dist/), so that an abort is seen rather than suffered.
//
// Runs: FUZZ_RUNS (default 40, at most 500), up to a second each. FUZZ_SEED replays a failure.

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { here } from '../hardening/helpers.js';

const RUNS = Math.min(Number(process.env['FUZZ_RUNS'] ?? 40), 500);
const SEED = Number(process.env['FUZZ_SEED'] ?? Date.now() % 100000);

function fuzz(runs: number, seed: number): void {
  const r = spawnSync(process.execPath, [here('../fuzz/deep-huge.child.mjs'), String(runs), String(seed)], { encoding: 'utf8', timeout: runs * 5000 + 60_000, maxBuffer: 64 << 20 });
  const last = r.stdout.split('\n').filter((l) => l.startsWith('case ')).pop();
  expect(r.signal, `${last}\n${r.stderr.slice(0, 1000)}`).toBeNull();
  expect(r.stderr.slice(0, 2000)).not.toMatch(/FATAL|Allocation failed|out of memory/);
  expect(r.stdout.split('\n').filter((l) => l.startsWith('UNEXPECTED')).join('\n')).toBe('');
  expect(r.status, r.stdout.slice(-2000)).toBe(0);
  expect(r.stdout).toContain(`ran ${runs}, 0 unexpected`);
}

describe('deep and huge inputs', () => {
  it(`never abort and fail only with the library's errors (seed ${SEED})`, () => fuzz(RUNS, SEED), RUNS * 5000 + 90_000);
  // Seeds that found an abort: a regular expression compiled where the stack was nearly spent (the
  // engine's check of a function's RangeError, reached through include nested 1001 deep).
  it.each([26459])('seed %i', (seed) => fuzz(30, seed), 240_000);
});
