// The built command line in a process of its own: the only way to see what a V8 abort, a heap
// exhaustion or a read of an endless device would do to a user (in-process runs share the test's stack
// and heap). Needs the build (`npm test` type-checks and builds first).

import { spawnSync } from 'node:child_process';
import { here } from './helpers.js';

export const BIN = here('../../bin/sidecar-render.cjs');

export interface ProcRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Run `sidecar-render ARGS` with stdin `input` (a string, or a file descriptor to inherit). */
export function runBin(args: string[], opts: { input?: string; stdinFd?: number; timeoutMs?: number; maxOldSpaceMb?: number } = {}): ProcRun {
  const t0 = Date.now();
  const node = opts.maxOldSpaceMb ? [`--max-old-space-size=${opts.maxOldSpaceMb}`] : [];
  const r = spawnSync(process.execPath, [...node, BIN, ...args], {
    input: opts.input,
    stdio: [opts.stdinFd ?? 'pipe', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ms: Date.now() - t0 };
}

/** A clean failure: exit 2, one line on stderr, no stack trace or V8 report. */
export function cleanError(r: ProcRun): string | undefined {
  if (r.code !== 2) return `exit ${r.code} signal ${r.signal}: ${r.stderr.slice(0, 300)}`;
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  if (lines.length !== 1) return `${lines.length} lines on stderr: ${r.stderr.slice(0, 300)}`;
  if (/FATAL|\n\s+at |RangeError|Maximum call stack|Invalid string length/.test(r.stderr)) return `raw error: ${r.stderr.slice(0, 300)}`;
  return undefined;
}
