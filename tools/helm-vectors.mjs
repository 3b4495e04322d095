#!/usr/bin/env node
// Regenerate test/vectors/helm-template/TOPIC.expected.json from TOPIC.yaml with a real Helm: each case's
// chart and files are written to a fresh folder and `helm template ARGS` runs there; its exit code,
// stdout, stderr and the files it wrote are kept. test/helm/helm-vectors.test.ts runs the same cases
// through `sidecar-render chart` and compares, so `npm test` needs no Helm.
//
//   node tools/helm-vectors.mjs [TOPIC...]      Helm from $HELM, else `helm` on PATH
//
// The Helm must be the one `chart` follows (HELM_VERSION below): tools/get-helm.sh fetches it.
// A case that Helm fails must say so (error: TEXT, found in Helm's message); a case that Helm renders
// must not, so a changed answer is seen when the vectors are made, not later.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectOutputs, materialize, readCaseFile } from '../test/helpers/helm-cases.mjs';

export const HELM_VERSION = 'v3.17.1';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const folder = join(root, 'test/vectors/helm-template');
const helm = process.env.HELM ?? 'helm';

const version = spawnSync(helm, ['version', '--template', '{{ .Version }}'], { encoding: 'utf8' });
if (version.status !== 0 || version.stdout.trim() !== HELM_VERSION) {
  console.error(`helm-vectors: need Helm ${HELM_VERSION} ($HELM or helm on PATH; tools/get-helm.sh fetches it), found ${version.error?.message ?? (version.stdout.trim() || version.stderr.trim())}`);
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'helm-vectors-'));
// Helm reads and writes its own folders: fresh ones, so that no repository or plugin of this machine counts
const env = {
  PATH: process.env.PATH,
  HOME: scratch,
  HELM_CACHE_HOME: join(scratch, '.cache'),
  HELM_CONFIG_HOME: join(scratch, '.config'),
  HELM_DATA_HOME: join(scratch, '.data'),
  KUBECONFIG: join(scratch, 'no-kubeconfig'),
};

const topics = process.argv.slice(2);
let failed = false;
let count = 0;
try {
  for (const f of readdirSync(folder).filter((n) => n.endsWith('.yaml')).sort()) {
    const topic = f.replace(/\.yaml$/, '');
    if (topics.length > 0 && !topics.includes(topic)) continue;
    const results = [];
    for (const [i, c] of readCaseFile(join(folder, f)).entries()) {
      const dir = join(scratch, `${topic}-${i}`);
      const args = materialize(c, dir);
      const r = spawnSync(helm, ['template', ...args], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
      // the case's folder is this machine's: named $CASE in what is kept
      const here = (t) => t.split(dir).join('$CASE');
      const result = { name: c.name, exit: r.status, stdout: here(r.stdout), stderr: here(r.stderr) };
      if (c.outputs) result.outputs = collectOutputs(dir, c.outputs);
      if (r.status === 0 && c.error !== undefined) {
        console.error(`${f}: "${c.name}": Helm rendered it, but the case expects the error "${c.error}"`);
        failed = true;
      } else if (r.status !== 0 && (c.error === undefined || !r.stderr.includes(c.error))) {
        console.error(`${f}: "${c.name}": Helm failed: ${r.stderr.trim()}${c.error === undefined ? '' : ` (the case expects "${c.error}")`}`);
        failed = true;
      }
      results.push(result);
      count++;
    }
    writeFileSync(join(folder, `${topic}.expected.json`), JSON.stringify({ helm: HELM_VERSION, cases: results }, null, 2) + '\n');
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`helm-vectors: ${count} cases run through Helm ${HELM_VERSION}`);
process.exit(failed ? 1 : 0);
