#!/usr/bin/env node
// Run Istio's own injection tests (TestInjection) of one or more releases through the built package's
// `render --merged --mode kube-inject`, with the release given (--istio-version) and detected, and print
// per case whether it agrees with kube-inject's golden, then the figures per release.
//
//   node tools/inject-tests/run.mjs [options] SUITE...
//   node tools/inject-tests/run.mjs [options] --git ISTIO_GIT_DIR TAG...
//
// A SUITE is a folder named after its release (1.22.0/) holding a checkout of istio/istio at that tag
// (pkg/kube/inject/, manifests/) or the injection tests alone (inject_test.go, testdata/). With --git,
// each TAG's pkg/kube/inject and manifests are taken from that git directory of istio/istio
// (`git archive`) into a scratch folder first.
//
// Options:
//   --release R     the release the suite is (default: the folder's or tag's name; master for master)
//   --given-only    run with the release given only; --detected-only: detected only
//   --only REGEX    only the cases whose input or golden matches
//   -q              the figures only, no line per case
//   --json FILE     write the figures (and each case's status) as JSON
//
// Exit code: 0 when every expressible case agrees byte for byte in every run, 1 otherwise.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatReport, runInjectSuite, summaryLine } from './suite.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { renderRequest } = await import(join(root, 'dist/output/render.js'));
const { renderChart } = await import(join(root, 'dist/helm/index.js'));

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const flag = (name) => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const gitDir = opt('--git');
const release = opt('--release');
const only = opt('--only');
const jsonOut = opt('--json');
const quiet = flag('-q');
const givenOnly = flag('--given-only');
const detectedOnly = flag('--detected-only');
if (args.length === 0) {
  process.stderr.write('usage: run.mjs [--release R] [--given-only|--detected-only] [--only REGEX] [-q] [--json FILE] (SUITE... | --git DIR TAG...)\n');
  process.exit(2);
}

const scratchRoot = mkdtempSync(join(tmpdir(), 'inject-tests-'));

/** The suite folder of a tag, from the git directory. */
function extract(tag) {
  const dir = join(scratchRoot, 'src', tag);
  mkdirSync(dir, { recursive: true });
  const paths = ['pkg/kube/inject', 'manifests/charts/istio-control/istio-discovery', 'manifests/profiles'];
  // the operator's translation before its rewrite (1.24), which suite.mjs tells by this file
  const legacy = 'operator/pkg/translate/translate.go';
  if (execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '--name-only', tag, legacy], { encoding: 'utf8' }).trim()) paths.push(legacy);
  const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', tag, ...paths], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return dir;
}

/** The release as --istio-version takes it: 1.22.0 → 1.22.0, master → master. */
function releaseOf(name) {
  if (release) return release;
  const m = /^v?(\d+\.\d+(\.\d+)?)/.exec(name);
  return m ? m[1] : name;
}

const figures = [];
let allAgree = true;
for (const a of args) {
  const dir = gitDir ? extract(a) : resolve(a);
  const name = gitDir ? a : basename(dir);
  const runs = [];
  if (!detectedOnly) runs.push(['given', releaseOf(name)]);
  if (!givenOnly) runs.push(['detected', undefined]);
  const entry = { release: name };
  for (const [how, version] of runs) {
    const scratch = join(scratchRoot, 'run', name, how);
    mkdirSync(scratch, { recursive: true });
    const r = runInjectSuite(dir, { renderRequest, renderChart, scratch, ...(version ? { istioVersion: version } : {}), ...(only ? { only: new RegExp(only) } : {}) });
    const label = `${name} (${how === 'given' ? `--istio-version ${version}` : 'detected'})`;
    process.stdout.write((quiet ? summaryLine(label, r) : formatReport(label, r)) + '\n');
    if (r.agreeBytes !== r.expressible) allAgree = false;
    // the releases the runs assumed, as their assumptions lines name them
    const assumed = [...new Set(r.results.map((x) => /assuming Istio (\S+ \([^)]*\))/.exec(x.assumptions ?? '')?.[1]).filter(Boolean))];
    if (!quiet && assumed.length) process.stdout.write(`  assumed: ${assumed.join('; ')}\n`);
    entry[how] = {
      cases: r.results.length,
      expressible: r.expressible,
      agreeParsed: r.agreeParsed,
      agreeBytes: r.agreeBytes,
      assumed,
      results: r.results.map((x) => ({ index: x.c.index, want: x.c.want, status: x.status, ...(x.detail ? { detail: x.detail } : {}) })),
    };
  }
  figures.push(entry);
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(figures, null, 2) + '\n');
process.exit(allAgree ? 0 : 1);
