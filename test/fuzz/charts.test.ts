// Fuzzing the chart surfaces: random chart folders and archives (Chart.yaml, values, templates,
// .helmignore rules, values.schema.json, subcharts with aliases, symbolic links out of the chart and
// tar entries of every kind) with random --set texts. Every run ends in a rendering or in one of the
// project's own errors (never a TypeError, RangeError or a raw stack overflow), within the render's
// time limit, and nothing outside the chart reaches the output: no file a link leads out to, no
// environment variable. The cases run in a process of their own (charts.child.mjs, over the build in
// dist/), so that a hang is seen as a kill rather than suffered.
//
// Runs per property: FUZZ_RUNS (default 150; `npm run fuzz` uses 20000). FUZZ_SEED replays a failure.

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { here } from '../hardening/helpers.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 150);
const SEED = Number(process.env['FUZZ_SEED'] ?? Date.now() % 100000);
const LIMIT_MS = RUNS * 400 + 60_000;

function fuzz(property: string, runs: number, seed: number): void {
  const r = spawnSync(process.execPath, [here('../fuzz/charts.child.mjs'), property, String(runs), String(seed)], { encoding: 'utf8', timeout: LIMIT_MS, maxBuffer: 256 << 20 });
  const last = r.stdout.split('\n').filter((l) => l.startsWith('case ')).pop();
  expect(r.signal, `killed (a hang?) at ${last}\n${r.stderr.slice(0, 1000)}`).toBeNull();
  const failed = r.stdout.indexOf('FAILED');
  expect(failed < 0 ? '' : r.stdout.slice(failed, failed + 6000)).toBe('');
  expect(r.status, r.stderr.slice(0, 2000)).toBe(0);
  expect(r.stdout).toContain(`ran ${runs}`);
}

describe(`fuzzing charts (seed ${SEED})`, () => {
  it('chart folders with --set: a rendering or our own error, in time, nothing from outside', () => fuzz('folders', RUNS, SEED), LIMIT_MS + 30_000);
  it('chart archives with entries of every kind: the same', () => fuzz('archives', RUNS, SEED), LIMIT_MS + 30_000);
  it('values.schema.json: the same', () => fuzz('schemas', RUNS, SEED), LIMIT_MS + 30_000);
});
