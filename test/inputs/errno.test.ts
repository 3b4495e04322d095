// What failed, in words: a file that cannot be read is named with the reason (no such file, a loop of
// symbolic links, a name too long, a directory), never as a bare errno code (ENOENT, ELOOP, ...).

import { mkdtempSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const root = join(import.meta.dirname, '..', '..');
const DEPLOY = join(root, 'examples', 'deployment.yaml');
const CM = join(root, 'examples', 'istio-sidecar-injector.yaml');
const dir = mkdtempSync(join(tmpdir(), 'errno-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const loop = join(dir, 'loop.yaml');
symlinkSync(loop, loop);
const long = join(dir, `${'n'.repeat(300)}.yaml`);
const folder = join(dir, 'folder.yaml');
mkdirSync(folder);

const cases: Array<[string, string, string]> = [
  ['a loop of symbolic links', loop, 'too many levels of symbolic links'],
  ['a name too long', long, 'file name too long'],
  ['a directory', folder, 'is a directory, not a file'],
  ['a missing file', join(dir, 'missing.yaml'), 'no such file'],
];

describe('a file that cannot be read is named, with the reason in words', () => {
  for (const [what, file, reason] of cases) {
    it(what, async () => {
      const runs = [
        await cli('render', '--injector-configmap', file, '-f', DEPLOY),
        await cli('render', '--injector-configmap', CM, '--mesh', file, '-f', DEPLOY),
        await cli('audit', '--injector-configmap', CM, '--values', file, '-f', DEPLOY),
        await cli('golden', 'check', file),
      ];
      for (const r of runs) {
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(`sidecar-render: ${file}: ${reason}\n`);
        expect(r.stderr).not.toMatch(/\bE[A-Z]{3,}\b/);
      }
    });
  }
});
