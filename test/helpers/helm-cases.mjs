// The case files of test/vectors/helm-template/: small charts written out in YAML, each run through
// `helm template` by tools/helm-vectors.mjs (answers in TOPIC.expected.json) and through `chart` by
// test/helm/helm-vectors.test.ts. Shared by both so that both run exactly the same files.
//
//   cases:
//     - name: what the case shows              (unique in its file)
//       chart:                                  the chart's files, written under ./chart
//         Chart.yaml: |
//           ...
//         templates/x.yaml: |
//           ...
//         files/blob.bin: {base64: "/wCAQlo="}  bytes that are not text
//       files:                                  other files beside ./chart (values files, scripts)
//         v.yaml: "a: 1\n"
//         post.sh: {text: "#!/bin/sh\ncat\n", mode: 0o755}
//       args: [chart, --set, a=1]               what follows `helm template` (default: [chart])
//       error: "text"                           Helm fails, and its message contains this text
//       outputs: out                            a folder the run writes (--output-dir); its files are kept
//
// Every path is relative to the case's own folder, where both programs run.

import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

/** The cases of one file, checked for the fields above. */
export function readCaseFile(path) {
  const doc = parse(readFileSync(path, 'utf8'));
  if (!doc || !Array.isArray(doc.cases)) throw new Error(`${path}: a case file holds cases: [...]`);
  const seen = new Set();
  for (const c of doc.cases) {
    if (typeof c.name !== 'string' || c.name === '') throw new Error(`${path}: a case without a name`);
    if (seen.has(c.name)) throw new Error(`${path}: case "${c.name}" twice`);
    seen.add(c.name);
    for (const k of Object.keys(c)) {
      if (!['name', 'chart', 'files', 'args', 'error', 'outputs'].includes(k)) throw new Error(`${path}: case "${c.name}": unknown field ${k}`);
    }
  }
  return doc.cases;
}

function bytesOf(v) {
  if (typeof v === 'string') return { data: Buffer.from(v, 'utf8') };
  if (v && typeof v === 'object' && typeof v.base64 === 'string') return { data: Buffer.from(v.base64, 'base64'), mode: v.mode };
  if (v && typeof v === 'object' && typeof v.text === 'string') return { data: Buffer.from(v.text, 'utf8'), mode: v.mode };
  throw new Error(`a file is text, {base64}, or {text, mode}: ${JSON.stringify(v)}`);
}

function writeTree(root, files) {
  for (const [name, v] of Object.entries(files ?? {})) {
    const p = join(root, name);
    mkdirSync(dirname(p), { recursive: true });
    const { data, mode } = bytesOf(v);
    writeFileSync(p, data);
    if (mode !== undefined) chmodSync(p, mode);
  }
}

/** Write the case's chart (./chart) and other files into dir; returns the arguments after `template`. */
export function materialize(c, dir) {
  mkdirSync(dir, { recursive: true });
  if (c.chart) writeTree(join(dir, 'chart'), c.chart);
  writeTree(dir, c.files);
  return c.args ?? ['chart'];
}

/** The files under dir/sub (a run's --output-dir), by '/'-separated path, as text. */
export function collectOutputs(dir, sub) {
  const out = {};
  const walk = (abs, rel) => {
    let names;
    try {
      names = readdirSync(abs).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(abs, n);
      const r = rel ? `${rel}/${n}` : n;
      if (statSync(p).isDirectory()) walk(p, r);
      else out[r] = readFileSync(p, 'utf8');
    }
  };
  walk(join(dir, sub), sub);
  return out;
}
