#!/usr/bin/env node
// Parity matrix: real injector ConfigMaps (one folder per Istio release, each with
// istio-sidecar-injector.yaml and istio-mesh.yaml) × the workloads in test/parity/workloads × mesh
// variants, rendered by the TypeScript renderer (dist/, build with `npx tsc -p .`) and by the Go
// emulation of istiod's template stage (tools/istiod-stage). Reports the byte-identical rate per
// release and writes every differing pair and a unified diff to the output folder.
//
//   node tools/parity.mjs --configmaps DIR [--out DIR] [--only 1.12.0] [--no-build]
//
// The ConfigMaps are read where they are; nothing derived from them is written into the repository
// unless --out points there (the default is a temporary folder).

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYAML, stringify as stringifyYAML } from 'yaml';
import { createTwoFilesPatch } from 'diff';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const cmDir = opt('--configmaps', process.env.SIDECAR_RENDER_ISTIO_CONFIGMAPS);
if (!cmDir) {
  console.error('parity: give --configmaps DIR (folders <release>/istio-sidecar-injector.yaml, istio-mesh.yaml)');
  process.exit(2);
}
const outDir = resolve(opt('--out', mkdtempSync(join(tmpdir(), 'parity-'))));
const only = opt('--only', '');
const quiet = args.includes('--quiet');

if (!args.includes('--no-build')) {
  const b = spawnSync(join(root, 'tools/istiod-stage/build.sh'), { stdio: 'inherit' });
  if (b.status !== 0) process.exit(2);
}
const goTool = join(root, 'tools/istiod-stage/istiod-stage');
const { renderRequest } = await import(join(root, 'dist/output/render.js'));

const workloadDir = join(root, 'test/parity/workloads');
const workloads = readdirSync(workloadDir).filter((f) => f.endsWith('.yaml')).sort();
const extras = parseYAML(readFileSync(join(root, 'test/parity/mesh/extras.yaml'), 'utf8'));

/** The mesh variants of a release: as given, given + extras, extras alone (Istio's defaults + extras). */
function meshVariants(release, scratch) {
  const givenFile = join(cmDir, release, 'istio-mesh.yaml');
  const cm = parseYAML(readFileSync(givenFile, 'utf8'));
  const given = parseYAML(cm.data.mesh) ?? {};
  const merged = { ...given, defaultConfig: { ...(given.defaultConfig ?? {}), ...extras.defaultConfig } };
  const mergedFile = join(scratch, `${release}-mesh-given+extras.yaml`);
  writeFileSync(mergedFile, stringifyYAML(merged));
  return [
    ['given', givenFile],
    ['given+extras', mergedFile],
    ['extras', join(root, 'test/parity/mesh/extras.yaml')],
  ];
}

function versionArg(release) {
  return release === 'master' ? 'master' : release.split('.').slice(0, 2).join('.');
}

function tsRender(cm, mesh, wl, version) {
  try {
    const r = renderRequest({ injectorConfigMap: cm, mesh, workloads: wl, istioVersion: parseVersion(version) });
    if (r.failed > 0) return { out: r.text, err: r.messages.join('\n') };
    return { out: r.text, err: null };
  } catch (e) {
    return { out: '', err: String(e && e.message ? e.message : e) };
  }
}

let parseVersion;
{
  const v = await import(join(root, 'dist/istio/version.js'));
  parseVersion = v.parseIstioVersion;
}

function goRender(cm, mesh, wl, version) {
  const r = spawnSync(goTool, ['-istio-version', version, '-configmap', cm, '-mesh', mesh, '-f', wl], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  if (r.status !== 0) return { out: r.stdout, err: r.stderr.trim() || `exit ${r.status}` };
  return { out: r.stdout, err: null };
}

const releases = readdirSync(cmDir).filter((d) => existsSync(join(cmDir, d, 'istio-sidecar-injector.yaml'))).filter((d) => !only || d === only);
releases.sort((a, b) => (a === 'master' ? 1 : b === 'master' ? -1 : a.localeCompare(b, undefined, { numeric: true })));
const scratch = mkdtempSync(join(tmpdir(), 'parity-mesh-'));
mkdirSync(outDir, { recursive: true });
const summary = [];
let total = 0;
let same = 0;
for (const rel of releases) {
  const cm = join(cmDir, rel, 'istio-sidecar-injector.yaml');
  const version = versionArg(rel);
  let n = 0;
  let ok = 0;
  const bad = [];
  for (const [meshName, meshFile] of meshVariants(rel, scratch)) {
    for (const wf of workloads) {
      const wl = join(workloadDir, wf);
      const ts = tsRender(cm, meshFile, wl, version);
      const go = goRender(cm, meshFile, wl, version);
      n++;
      const name = `${rel}__${meshName}__${wf.replace(/\.yaml$/, '')}`;
      const equal = ts.err === null && go.err === null ? ts.out === go.out : ts.err !== null && go.err !== null;
      if (equal) {
        ok++;
        continue;
      }
      bad.push(name);
      const dir = join(outDir, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'ts.txt'), ts.out + (ts.err ? `\n# ERROR: ${ts.err}\n` : ''));
      writeFileSync(join(dir, 'go.txt'), go.out + (go.err ? `\n# ERROR: ${go.err}\n` : ''));
      writeFileSync(join(dir, 'diff.txt'), createTwoFilesPatch('go (istiod emulation)', 'ts', go.out + (go.err ? `\n# ERROR: ${go.err}\n` : ''), ts.out + (ts.err ? `\n# ERROR: ${ts.err}\n` : '')));
    }
  }
  total += n;
  same += ok;
  summary.push({ release: rel, cases: n, identical: ok, rate: n ? ok / n : 1, differing: bad });
}
for (const s of summary) {
  console.log(`${s.release.padEnd(8)} ${String(s.identical).padStart(3)}/${String(s.cases).padEnd(3)} ${(100 * s.rate).toFixed(1).padStart(5)}%`);
  if (!quiet) for (const b of s.differing) console.log(`    differs: ${b}`);
}
console.log(`total    ${same}/${total} ${(total ? (100 * same) / total : 100).toFixed(1)}%   diffs in ${outDir}`);
writeFileSync(join(outDir, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
