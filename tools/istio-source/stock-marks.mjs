#!/usr/bin/env node
// Write src/istio/stock-marks.ts: the words of Istio's own sidecar injection template
// (manifests/.../istio-discovery/files/injection-template.yaml) that first appear in one release and stay
// in every later one, read from each x.y.0 tag and master of an istio/istio git directory. A ConfigMap
// rendered from a release's chart carries its template, so these words tell 1.24's template from 1.25's
// where istiod's template data is the same (release detection, src/istio/version.ts).
//
//   node tools/istio-source/stock-marks.mjs --git ISTIO_GIT_DIR           write the file
//   node tools/istio-source/stock-marks.mjs --git ISTIO_GIT_DIR --check   exit 1 when the file differs
//
// The words: annotation and label names in backquotes (`sidecar.istio.io/x`), values paths
// (.Values.global.proxy.x, (.Values.pilot.env).X) and template variables ($name :=).

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'src/istio/stock-marks.ts');
const args = process.argv.slice(2);
const at = args.indexOf('--git');
const gitDir = at >= 0 ? args[at + 1] : undefined;
if (!gitDir) {
  process.stderr.write('usage: stock-marks.mjs --git ISTIO_GIT_DIR [--check]\n');
  process.exit(2);
}
const git = (...a) => execFileSync('git', ['--git-dir', gitDir, ...a], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });

const minor = (t) => Number(t.split('.')[1]);
const tags = git('tag', '--list', '1.*.0')
  .split('\n')
  .filter((t) => /^1\.\d+\.0$/.test(t) && minor(t) >= 5)
  .sort((a, b) => minor(a) - minor(b));
tags.push('master');
const PATHS = ['manifests/charts/istio-control/istio-discovery/files/injection-template.yaml', 'manifests/istio-control/istio-discovery/files/injection-template.yaml'];

function templateOf(tag) {
  for (const p of PATHS) {
    try {
      return git('show', `${tag}:${p}`);
    } catch {
      // the next place
    }
  }
  throw new Error(`${tag}: no injection-template.yaml`);
}

/** The words of a template that a copy of it keeps. */
function words(text) {
  const found = new Set();
  for (const m of text.matchAll(/`([a-z0-9.-]+\.io\/[A-Za-z0-9._-]+)`/g)) found.add(m[1]);
  for (const m of text.matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) found.add(`.Values${m[1]}`);
  for (const m of text.matchAll(/\(\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\)\.([A-Za-z_][A-Za-z0-9_]*)/g)) found.add(`(.Values${m[1]}).${m[2]}`);
  for (const m of text.matchAll(/(\$[A-Za-z_][A-Za-z0-9_]*)\s*:=/g)) found.add(`${m[1]} :=`);
  return found;
}

const texts = tags.map((t) => templateOf(t));
/** Whether the text has the word, however it is quoted, and not as the start of a longer name. */
const hasWord = (text, w) => {
  for (let i = text.indexOf(w); i >= 0; i = text.indexOf(w, i + 1)) if (!/[A-Za-z0-9_]/.test(text[i + w.length] ?? '')) return true;
  return false;
};
// a word of some tag's template, and the tags whose template has it written any way
const all = new Set(texts.flatMap((t) => [...words(t)]));
const per = tags.map((t, i) => ({ tag: t, words: new Set([...all].filter((w) => hasWord(texts[i], w.replace(/ :=$/, ' :=')))) }));
const release = (t) => (t === 'master' ? 'master' : t.replace(/\.0$/, ''));
const marks = [];
for (let i = 1; i < per.length; i++) {
  for (const w of [...per[i].words].sort()) {
    if (per.slice(0, i).some((p) => p.words.has(w))) continue;
    if (!per.slice(i).every((p) => p.words.has(w))) continue;
    marks.push([w, release(per[i].tag)]);
  }
}

// ---------- the chart's values: what data.values of the injector ConfigMap holds ----------

const VALUES = ['manifests/charts/istio-control/istio-discovery/values.yaml', 'manifests/istio-control/istio-discovery/values.yaml'];
function valuesOf(tag) {
  for (const p of VALUES) {
    try {
      const v = parse(git('show', `${tag}:${p}`)) ?? {};
      // 1.21 to 1.23 nest the defaults under `defaults`, 1.24 on under `_internal_defaults_do_not_set`
      return v._internal_defaults_do_not_set ?? v.defaults ?? v;
    } catch {
      // the next place
    }
  }
  return {};
}
const paths = (o, p = '', out = new Set()) => {
  if (o && typeof o === 'object' && !Array.isArray(o)) {
    for (const [k, v] of Object.entries(o)) {
      const q = p ? `${p}.${k}` : k;
      out.add(q);
      paths(v, q, out);
    }
  }
  return out;
};
const valuePaths = tags.map((t) => paths(valuesOf(t)));
const valueMarks = [];
for (let i = 1; i < tags.length; i++) {
  for (const k of [...valuePaths[i]].sort()) {
    if (valuePaths.slice(0, i).some((s) => s.has(k))) continue;
    if (!valuePaths.slice(i).every((s) => s.has(k))) continue;
    // a key under a new key says no more than its parent
    const parent = k.slice(0, k.lastIndexOf('.'));
    if (parent && valueMarks.some(([w, r]) => w === parent && r === release(tags[i]))) continue;
    valueMarks.push([k, release(tags[i])]);
  }
}

const lines = [
  '// The words of Istio\'s own sidecar injection template, and the keys of its istiod chart\'s values, that',
  '// first appear in a release and stay in every later one: a ConfigMap rendered from that release\'s chart',
  '// (or a template copied from it) has them. Generated from each tag\'s',
  '// manifests/charts/istio-control/istio-discovery/{files/injection-template.yaml,values.yaml} by',
  '// tools/istio-source/stock-marks.mjs; `--check` fails when this file and the tags disagree.',
  '//',
  '// Public API',
  '//   STOCK_TEMPLATE_MARKS   [word, release], oldest release first',
  '//   STOCK_VALUES_MARKS     [values path, release]',
  '//',
  '// Upstream: none (facts read from Istio\'s injection template and istiod chart at each tag)',
  '',
  "import type { Release } from './numbering.js';",
  '',
  `/** ${tags.length} tags read, ${tags[0]} to master. */`,
  'export const STOCK_TEMPLATE_MARKS: readonly (readonly [word: string, first: Release])[] = [',
  ...marks.map(([w, r]) => `  [${JSON.stringify(w)}, '${r}'],`),
  '];',
  '',
  '/** Keys of the istiod chart\'s values (values.yaml, its defaults) that first appear in a release and stay. */',
  'export const STOCK_VALUES_MARKS: readonly (readonly [path: string, first: Release])[] = [',
  ...valueMarks.map(([w, r]) => `  [${JSON.stringify(w)}, '${r}'],`),
  '];',
  '',
];
const text = lines.join('\n');
if (args.includes('--check')) {
  let now = '';
  try {
    now = readFileSync(out, 'utf8');
  } catch {
    // missing: differs
  }
  if (now !== text) {
    process.stderr.write('src/istio/stock-marks.ts differs from what the tags give: run tools/istio-source/stock-marks.mjs --git DIR\n');
    process.exit(1);
  }
  process.stdout.write(`src/istio/stock-marks.ts agrees with ${tags.length} tags (${marks.length} marks)\n`);
} else {
  writeFileSync(out, text);
  process.stdout.write(`wrote src/istio/stock-marks.ts: ${marks.length} template marks, ${valueMarks.length} values marks from ${tags.length} tags\n`);
}
