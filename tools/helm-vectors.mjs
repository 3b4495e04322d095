#!/usr/bin/env node
// Regenerate test/vectors/helm-template/TOPIC.expected.json from TOPIC.yaml with a real Helm: each case's
// chart and files are written to a fresh folder and `helm template ARGS` runs there; its exit code,
// stdout, stderr and the files it wrote are kept. test/helm/helm-vectors.test.ts runs the same cases
// through `sidecar-render chart` and compares, so `npm test` needs no Helm.
//
//   node tools/helm-vectors.mjs [TOPIC...]      Helm from $HELM, else `helm` on PATH
//   node tools/helm-vectors.mjs --compare [TOPIC...]
//       Run the cases through another Helm (Helm 4, say) and print each case whose exit code or output
//       differs from the committed answers of HELM_VERSION; nothing is written.
//
// The Helm must be the one `chart` follows (HELM_VERSION below): tools/get-helm.sh fetches it.
// A case that Helm fails must say so (error: TEXT, found in Helm's message); a case that Helm renders
// must not, so a changed answer is seen when the vectors are made, not later.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectOutputs, materialize, readCaseFile } from '../test/helpers/helm-cases.mjs';

export const HELM_VERSION = 'v3.17.1';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const folder = join(root, 'test/vectors/helm-template');
const helm = process.env.HELM ?? 'helm';

const compare = process.argv.includes('--compare');
const version = spawnSync(helm, ['version', '--template', '{{ .Version }}'], { encoding: 'utf8' });
if (version.status !== 0 || (!compare && version.stdout.trim() !== HELM_VERSION)) {
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

const topics = process.argv.slice(2).filter((a) => a !== '--compare');
let differ = 0;
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
      if (compare) {
        const was = JSON.parse(readFileSync(join(folder, `${topic}.expected.json`), 'utf8')).cases.find((x) => x.name === c.name);
        if (!was || was.exit !== result.exit || (result.exit === 0 && was.stdout !== result.stdout)) {
          differ++;
          const first = result.exit === 0 && was?.exit === 0 ? firstDifference(was.stdout, result.stdout) : `exit ${was?.exit} -> ${result.exit}: ${(result.stderr || '').trim().split('\n')[0]}`;
          console.log(`${topic}: ${c.name}: ${first}`);
        }
        count++;
        continue;
      }
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
    if (!compare) writeFileSync(join(folder, `${topic}.expected.json`), JSON.stringify({ helm: HELM_VERSION, cases: results }, null, 2) + '\n');
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (compare) console.log(`helm-vectors: ${count} cases run through Helm ${version.stdout.trim()}: ${differ} differ from Helm ${HELM_VERSION}`);
else console.log(`helm-vectors: ${count} cases run through Helm ${HELM_VERSION}`);

/** The first line where two outputs differ, both sides. */
function firstDifference(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  const i = x.findIndex((l, k) => l !== y[k]);
  const k = i < 0 ? x.length : i;
  return `line ${k + 1}: ${JSON.stringify(x[k] ?? '(end)')} -> ${JSON.stringify(y[k] ?? '(end)')}`;
}
process.exit(failed ? 1 : 0);
