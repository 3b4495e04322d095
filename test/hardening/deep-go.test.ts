// Nesting as deep as Go runs it (10,000 levels of parentheses and more, 100,000 template calls, data
// thousands of levels deep, yaml.v2's 10,000 levels): the command line gives Go's result, by running
// what ran out of the JavaScript stack again on a thread with a big one (src/guard/stack.ts,
// src/cli/bigstack.ts). Expected results are Go's (tools/gen-vectors.sh over tools/deep-cases.mjs).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { here, jsonl } from './helpers.js';
import { runBin } from './spawn.js';
import { cli } from '../helpers/cli.js';
import { expandDeepCases } from '../../tools/deep-cases.mjs';
import { Template } from '../../src/go/text/template/template.js';
import { HeldOutput } from '../../src/cli/bigstack.js';
import type { BatchResult } from '../../src/batch.js';
import { AtomicWriter, observeTemporaries, pendingTemporaries, trackTemporary } from '../../src/guard/fs.js';

const specs = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(here('deep-go.json'), 'utf8'))) as unknown[];
const lines = expandDeepCases(specs) as string[];
const want = jsonl<BatchResult>(here('deep-go.expected.jsonl'));

const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-deep-go-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

const ifs = (n: number) => '{{if 1}}'.repeat(n) + 'x' + '{{end}}'.repeat(n);

describe("deep nesting: Go's results", () => {
  it('the cases and their Go answers line up', () => {
    expect(want.map((w) => w.name)).toEqual(specs.map((s, i) => (want[i]!.error?.startsWith('bad case') ? '' : (s as { name: string }).name)));
  });

  it('template --batch answers every case as Go', { timeout: 600_000 }, () => {
    const r = runBin(['template', '--batch'], { input: lines.join('\n') + '\n', timeoutMs: 600_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const got = r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as BatchResult);
    expect(got).toEqual(want);
  });

  it('the library on a default stack repeats the parse on a big stack', { timeout: 120_000 }, () => {
    expect(new Template('t').parse(ifs(20_000)).execute({})).toBe('x');
  });

  it('template FILE, in process: the output once, as Go writes it', { timeout: 120_000 }, async () => {
    const r = await cli('template', file('ifs.tmpl', ifs(20_000)));
    expect(r).toEqual({ code: 0, stdout: 'x', stderr: '' });
  });

  it('a template read from stdin is given to the second run', { timeout: 120_000 }, () => {
    const r = runBin(['template', '-'], { input: '{{' + '('.repeat(20_000) + '"deep"' + ')'.repeat(20_000) + '}}' });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'deep', '']);
  });

  it('an execution error past Go\'s depth is Go\'s, with the output before it', { timeout: 120_000 }, async () => {
    const r = await cli('template', file('rec.tmpl', 'before {{define "a"}}{{template "a" .}}{{end}}{{template "a" .}}'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('before ');
    expect(r.stderr).toBe('sidecar-render: template: rec.tmpl:1:32: executing "a" at <{{template "a" .}}>: exceeded maximum template depth (100000)\n');
  });
});

describe('output held while a run may be repeated', () => {
  it('is written in order when the run stands, and dropped when it is repeated', () => {
    const seen: string[] = [];
    const ow = process.stdout.write;
    const ew = process.stderr.write;
    process.stdout.write = ((c: string) => (seen.push(`1:${c}`), true)) as typeof process.stdout.write;
    process.stderr.write = ((c: string) => (seen.push(`2:${c}`), true)) as typeof process.stderr.write;
    try {
      const held = new HeldOutput(100, 60_000);
      process.stdout.write('a');
      process.stderr.write('b');
      process.stdout.write('c');
      expect(seen).toEqual([]);
      const kept = held.end();
      expect(held.released).toBe(false);
      for (const k of kept) k.stream.write(k.chunk);
      expect(seen).toEqual(['1:a', '2:b', '1:c']);

      seen.length = 0;
      const big = new HeldOutput(4, 60_000);
      process.stdout.write('12');
      process.stdout.write('345');
      // past its size the output goes through, and the run can no longer be repeated
      expect(seen).toEqual(['1:12', '1:345']);
      process.stderr.write('after');
      expect(seen).toEqual(['1:12', '1:345', '2:after']);
      expect(big.released).toBe(true);
      expect(big.end()).toEqual([]);
    } finally {
      process.stdout.write = ow;
      process.stderr.write = ew;
    }
  });
});

describe('temporary files of the big-stack thread', () => {
  it('are reported as they come and go, so that the main thread removes them on a signal', () => {
    const seen: Array<[string, boolean]> = [];
    observeTemporaries((tmp, live) => seen.push([tmp, live]));
    try {
      const w = new AtomicWriter(join(dir, 'out.yaml'));
      w.write('a: 1\n');
      w.close();
    } finally {
      observeTemporaries(undefined);
    }
    expect(seen.length).toBe(2);
    expect(seen[0]![0]).toMatch(/\.out\.yaml\.\d+\.\w+\.tmp$/);
    expect(seen.map(([t, l]) => [t === seen[0]![0], l])).toEqual([
      [true, true],
      [true, false],
    ]);
    trackTemporary(seen[0]![0], true);
    expect(pendingTemporaries()).toContain(seen[0]![0]);
    trackTemporary(seen[0]![0], false);
    expect(pendingTemporaries()).not.toContain(seen[0]![0]);
  });
});
