// Every case of test/vectors/helm-template/TOPIC.yaml run through `sidecar-render chart` and compared with
// what Helm printed for it (TOPIC.expected.json, written by tools/helm-vectors.mjs with a real Helm):
// the same stdout byte for byte, and the same files written; where Helm fails, `chart` fails too
// (exit 2, one line) and both messages name the case's cause.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { collectOutputs, materialize, readCaseFile } from '../helpers/helm-cases.mjs';
import { cli } from '../helpers/cli.js';

interface HelmResult {
  name: string;
  exit: number;
  stdout: string;
  stderr: string;
  outputs?: Record<string, string>;
}

interface HelmCase {
  name: string;
  error?: string;
  outputs?: string;
}

const folder = fileURLToPath(new URL('../vectors/helm-template/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'sidecar-render-helm-vectors-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const topics = readdirSync(folder)
  .filter((n) => n.endsWith('.yaml'))
  .sort()
  .map((n) => n.replace(/\.yaml$/, ''));

/** `sidecar-render chart ARGS` run in dir, as Helm ran there. */
async function chartIn(dir: string, args: string[]) {
  const back = process.cwd();
  process.chdir(dir);
  try {
    return await cli('chart', ...args);
  } finally {
    process.chdir(back);
  }
}

it('there are Helm vectors, each with its answers', () => {
  expect(topics.length).toBeGreaterThan(0);
  for (const t of topics) expect(existsSync(join(folder, `${t}.expected.json`)), `${t}: run tools/helm-vectors.mjs`).toBe(true);
});

for (const topic of topics) {
  const cases = readCaseFile(join(folder, `${topic}.yaml`)) as HelmCase[];
  const answers = JSON.parse(readFileSync(join(folder, `${topic}.expected.json`), 'utf8')) as { helm: string; cases: HelmResult[] };
  describe(`helm-template/${topic}`, () => {
    it('the answers are those of the cases (run tools/helm-vectors.mjs)', () => {
      expect(answers.cases.map((r) => r.name)).toEqual(cases.map((c) => c.name));
    });
    cases.forEach((c, i) => {
      it(c.name, async () => {
        const want = answers.cases[i]!;
        const dir = join(scratch, `${topic}-${i}`);
        const args = materialize(c, dir) as string[];
        const got = await chartIn(dir, args);
        if (want.exit !== 0) {
          expect(c.error, 'a case Helm fails names its cause').toBeDefined();
          expect(want.stderr).toContain(c.error);
          expect(got.code, got.stdout).toBe(2);
          expect(got.stderr.trim().split('\n'), got.stderr).toHaveLength(1);
          expect(got.stderr).toContain(c.error);
        } else {
          expect(got.code, got.stderr).toBe(0);
          expect(got.stdout).toBe(want.stdout);
        }
        if (c.outputs) expect(collectOutputs(dir, c.outputs)).toEqual(want.outputs);
      });
    });
  });
}
