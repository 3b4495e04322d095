// Tests that read Istio's own files (not part of this repository) ask for them through
// test/helpers/outside.ts: a fresh clone passes `npm test`, each such test saying in one line what it
// skipped for, and a CI run (CI=true) without the files fails with that line.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { needsLine, OUTSIDE_INPUTS, underCI } from './helpers/outside.js';

const root = fileURLToPath(new URL('../', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe('tests that read inputs from outside the repository', () => {
  it('find them only through the helper (no variable or ../shared path read directly)', () => {
    const allowed = [join(root, 'test', 'helpers', 'outside.ts'), fileURLToPath(import.meta.url)];
    const direct = testFiles(join(root, 'test'))
      .filter((f) => !allowed.includes(f))
      .filter((f) => {
        const text = readFileSync(f, 'utf8');
        return /process\.env(\.|\[['"`])SIDECAR_RENDER_ISTIO_/.test(text) || /['"`][^'"`\n]*\.\.\/shared\b/.test(text);
      })
      .map((f) => relative(root, f));
    expect(direct).toEqual([]);
  });

  it('every variable is filled in by vitest.config.ts and listed in the README', () => {
    const config = readFileSync(join(root, 'vitest.config.ts'), 'utf8');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const { variable, folder } of Object.values(OUTSIDE_INPUTS)) {
      expect(config, variable).toContain(`${variable}: '${folder}'`);
      expect(readme, variable).toContain(`| \`${variable}\` | \`../shared/${folder}\` |`);
    }
  });

  it('CI is read as CI systems set it', () => {
    expect([undefined, '', '0', 'false', 'FALSE'].map((CI) => underCI({ CI }))).toEqual([false, false, false, false, false]);
    expect(['true', '1', 'yes'].map((CI) => underCI({ CI }))).toEqual([true, true, true]);
  });

  // a test file run on its own, as a developer or a CI job would, with the input's variable emptied
  const run = (ci: string) =>
    spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/istio/inject-conformance.test.ts'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, CI: ci, SIDECAR_RENDER_ISTIO_INJECT_TESTS: '', NO_COLOR: '1', FORCE_COLOR: '0' },
      timeout: 120_000,
    });
  const line = needsLine('injectTests');

  it('without them a test is skipped, saying in one line what it needs', () => {
    const r = run('');
    const out = r.stdout + r.stderr;
    expect(r.status, out).toBe(0);
    expect(out).toContain(`\n${line}\n`);
    expect(out).toMatch(/Tests\s+\d+ skipped/);
  }, 120_000);

  it('without them under CI=true, the run fails with that line', () => {
    const r = run('true');
    const out = r.stdout + r.stderr;
    expect(r.status, out).toBe(1);
    expect(out).toContain(`Error: ${line}\n`);
    expect(out).toMatch(/Tests\s+1 failed/);
  }, 120_000);
});
