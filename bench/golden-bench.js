// Benchmark: `golden check` of a 1,000-case matrix (4 of the project's templates x 5 values variants x
// 50 generated Deployments), after `golden update` wrote the goldens; then a one-character change planted
// in 100 of them must be reported, each with its own case name.
// Usage: node bench/golden-bench.js [cases-per-axis-of-workloads=50]   (after `npm run build`)
// Exits 1 when the check takes longer than the budget (10 s for 1,000 cases) or a planted change is missed.

import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const dist = process.env.SIDECAR_RENDER_DIST ?? join(root, 'dist');
const { loadMatrix, checkMatrix, updateMatrix, istioCaseRenderer } = await import(pathToFileURL(join(dist, 'golden', 'index.js')).href);

const perAxis = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 50);
const BUDGET_MS = 10_000;
const dir = mkdtempSync(join(tmpdir(), 'golden-bench-'));

try {
  mkdirSync(join(dir, 'w'));
  const deployment = readFileSync(join(root, 'examples', 'deployment.yaml'), 'utf8');
  for (let i = 0; i < perAxis; i++) {
    writeFileSync(join(dir, 'w', `d${i}.yaml`), deployment.replace(/name: reviews\n/, `name: reviews-${i}\n`).replace('replicas: 2', `replicas: ${1 + (i % 5)}`));
  }
  const templates = ['lifecycle-1.5', 'hold-1.7', 'hold-1.8', 'native-sidecar'];
  const values = ['defaults', 'hold-on', 'lifecycle-drain', 'lifecycle-with-wait'];
  const rel = (p) => JSON.stringify(join(root, p));
  const matrix = [
    'goldenDir: golden',
    'matrix:',
    '  - name: "{template}-{values}-{workload}"',
    '    axes:',
    '      template:',
    ...templates.map((t) => `        - { name: ${JSON.stringify(t)}, template: ${rel(`templates/${t}.tmpl`)}, values: ${rel('values/defaults.json')} }`),
    '      values:',
    ...values.map((v) => `        - { name: ${v}, valuesFiles: [${rel(`values/${v}.json`)}] }`),
    '        - { name: merged, merged: true }',
    '      workload:',
    ...Array.from({ length: perAxis }, (_, i) => `        - { name: d${i}, workloads: w/d${i}.yaml }`),
  ].join('\n');
  writeFileSync(join(dir, 'golden.yaml'), matrix + '\n');

  const m = loadMatrix(join(dir, 'golden.yaml'));
  const render = istioCaseRenderer(m);
  const up = await updateMatrix(m, render);
  if (up.failed) throw new Error(`${up.failed} cases failed to render: ${up.results.find((r) => r.status === 'failed').error}`);

  const t0 = performance.now();
  const clean = await checkMatrix(m, render);
  const ms = performance.now() - t0;

  // plant a one-character change in every tenth golden
  const planted = m.cases.filter((_, i) => i % Math.max(1, Math.floor(m.cases.length / 100)) === 0).slice(0, 100);
  for (const c of planted) {
    const text = readFileSync(c.goldenPath, 'utf8');
    const at = text.indexOf('istio-proxy');
    const i = at >= 0 ? at + 6 : Math.floor(text.length / 2);
    writeFileSync(c.goldenPath, text.slice(0, i) + (text[i] === 'x' ? 'y' : 'x') + text.slice(i + 1));
  }
  const dirty = await checkMatrix(m, render);
  const reported = new Set(dirty.results.filter((r) => r.status === 'changed').map((r) => r.name));
  const missed = planted.filter((c) => !reported.has(c.name)).map((c) => c.name);
  const extra = [...reported].filter((n) => !planted.some((c) => c.name === n));

  console.log(
    `golden check: ${m.cases.length} cases in ${(ms / 1000).toFixed(2)} s (${(ms / m.cases.length).toFixed(2)} ms/case; budget ${BUDGET_MS / 1000} s); ` +
      `clean run: ${clean.passed} passed, ${clean.changed} changed; planted changes: ${planted.length}, reported ${reported.size}, missed ${missed.length}, wrongly reported ${extra.length}`,
  );
  if (ms > BUDGET_MS * (m.cases.length / 1000) || clean.passed !== m.cases.length || missed.length || extra.length) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
