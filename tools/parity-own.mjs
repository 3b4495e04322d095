#!/usr/bin/env node
// Regenerate test/parity/own.expected.jsonl: our own templates (test/parity/own-cases.json) × the
// parity workloads, rendered by the Go emulation of istiod's template stage. test/parity/own.test.ts
// renders the same cases with the TypeScript renderer and compares bytes.
//
//   node tools/parity-own.mjs [--no-build]

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
if (!process.argv.includes('--no-build')) {
  const b = spawnSync(join(root, 'tools/istiod-stage/build.sh'), { stdio: 'inherit' });
  if (b.status !== 0) process.exit(2);
}
const tool = join(root, 'tools/istiod-stage/istiod-stage');
const spec = JSON.parse(readFileSync(join(root, 'test/parity/own-cases.json'), 'utf8'));
const workloads = readdirSync(join(root, 'test/parity/workloads')).filter((f) => f.endsWith('.yaml')).sort();

export function caseName(t, inp, w) {
  const base = (p) => p.split('/').pop().replace(/\.(tmpl|json|yaml)$/, '');
  return `${base(t.template)}@${t.version}__${base(inp.values)}__${base(inp.mesh)}__${base(w)}`;
}

const lines = [];
for (const t of spec.templates) {
  for (const inp of spec.inputs) {
    for (const w of workloads) {
      const args = ['-istio-version', t.version, '-template', t.template, '-values', inp.values, '-mesh', inp.mesh, '-f', `test/parity/workloads/${w}`];
      const env = { PATH: process.env.PATH };
      if (t.native) {
        args.push('-native-sidecars');
        env.ENABLE_NATIVE_SIDECARS = 'true';
      }
      const r = spawnSync(tool, args, { cwd: root, encoding: 'utf8', env });
      const error = r.status === 0 ? null : r.stderr.trim().split('\n')[0];
      lines.push(JSON.stringify({ name: caseName(t, inp, w), output: r.stdout, error }));
    }
  }
}
writeFileSync(join(root, 'test/parity/own.expected.jsonl'), lines.join('\n') + '\n');
console.log(`parity-own: ${lines.length} cases, ${lines.filter((l) => JSON.parse(l).error).length} with errors`);
