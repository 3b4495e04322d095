#!/usr/bin/env node
// Check the per-release table (src/istio/releases.ts, as built in dist/) against Istio's source: every
// behaviour's reading (facts.mjs) at every release tag, SidecarTemplateData's fields in their order,
// DefaultProxyConfig and DefaultMeshConfig as jsonpb prints them, the k8s.io/api version of go.mod, and
// the releases the model knows. Prints one line per disagreement and, per behaviour, the range of
// releases the source gives (what the table should say); exit 1 when anything disagrees.
//
//   node tools/istio-source/check.mjs --git ISTIO_GIT_DIR [--tags 1.20.0,1.21.0,master] [--patches] [--json FILE]
//
// ISTIO_GIT_DIR is a git directory of istio/istio with its release tags (a clone's .git, or a bare
// mirror). The tags read are every x.y.0 from 1.5.0 and master; --patches adds every patch tag, so a
// behaviour a patch release changed shows as a change inside its minor release.

import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FACTS, TagSource } from './facts.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (p) => import(join(root, 'dist', p));
const { BEHAVIOURS, has, kubeApiMinorOf } = await dist('istio/releases.js');
const { parseIstioVersion, KNOWN_RELEASES } = await dist('istio/version.js');
const { templateDataType } = await dist('istio/data.js');
const { defaultProxyConfig } = await dist('istio/proxyconfig.js');
const { defaultMeshConfig } = await dist('istio/mesh.js');
const { protoToJSON } = await dist('istio/proto.js');

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const gitDir = opt('--git');
if (!gitDir) {
  process.stderr.write('usage: check.mjs --git ISTIO_GIT_DIR [--tags T1,T2] [--patches] [--json FILE]\n');
  process.exit(2);
}
const git = (...a) => execFileSync('git', ['--git-dir', gitDir, ...a], { encoding: 'utf8', maxBuffer: 1 << 28 });

// ---------- tags ----------

const semver = (t) => t.split('.').map(Number);
const allTags = git('tag', '--list', '1.*').split('\n').filter((t) => /^1\.\d+\.\d+$/.test(t) && semver(t)[1] >= 5);
allTags.sort((a, b) => semver(a)[1] - semver(b)[1] || semver(a)[2] - semver(b)[2]);
let tags = opt('--tags')?.split(',') ?? [...allTags.filter((t) => t.endsWith('.0') || args.includes('--patches')), 'master'];

// ---------- reading files of many tags: one git cat-file process ----------

class Blobs {
  constructor() {
    this.proc = spawn('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.buf = Buffer.alloc(0);
    this.waiting = [];
    this.proc.stdout.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.drain();
    });
  }
  drain() {
    while (this.waiting.length) {
      const nl = this.buf.indexOf(10);
      if (nl < 0) return;
      const head = this.buf.subarray(0, nl).toString();
      if (head.endsWith(' missing')) {
        this.buf = this.buf.subarray(nl + 1);
        this.waiting.shift()(undefined);
        continue;
      }
      const size = Number(head.split(' ')[2]);
      if (this.buf.length < nl + 1 + size + 1) return;
      const body = this.buf.subarray(nl + 1, nl + 1 + size).toString('utf8');
      this.buf = this.buf.subarray(nl + 1 + size + 1);
      this.waiting.shift()(body);
    }
  }
  get(rev, path) {
    return new Promise((res) => {
      this.waiting.push(res);
      this.proc.stdin.write(`${rev}:${path}\n`);
    });
  }
  close() {
    this.proc.stdin.end();
  }
}

const blobs = new Blobs();
const FILES = [
  'pkg/kube/inject/inject.go',
  'pkg/kube/inject/template.go',
  'pkg/kube/inject/webhook.go',
  'pkg/kube/inject/app_probe.go',
  'pkg/config/mesh/mesh.go',
  'pkg/config/constants/constants.go',
  'pilot/pkg/features/pilot.go',
  'pilot/pkg/features/experimental.go',
  'go.mod',
];

async function sourceOf(tag) {
  const files = new Map();
  for (const f of FILES) files.set(f, await blobs.get(tag, f));
  return new TagSource((p) => files.get(p));
}

// ---------- what the model says ----------

/** The release a tag is, as the model names it (1.26.8 → 1.26; master → master), or undefined. */
function releaseOf(tag) {
  if (tag === 'master') return parseIstioVersion('master');
  const [a, b] = semver(tag);
  if (!KNOWN_RELEASES.includes(`${a}.${b}`)) return undefined;
  return parseIstioVersion(tag);
}

function goTypeName(t) {
  return t.replace(/\binterface\{\}/g, 'any').replace(/\b\w+\./g, '').replace(/\s+/g, '');
}

function modelTypeName(t) {
  const name = t.kind === 'ptr' ? `*${modelTypeName(t.elem)}` : t.kind === 'map' ? `map[${modelTypeName(t.key)}]${modelTypeName(t.elem)}` : t.name ?? t.kind;
  return name.replace(/\binterface \{\}|\binterface\{\}/g, 'any').replace(/\b\w+\./g, '').replace(/\s+/g, '');
}

const diffs = [];
const say = (tag, what, detail) => diffs.push({ tag, what, detail });

function sameJSON(a, b) {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}
function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
  return v;
}
function fieldDiff(src, model, path = '') {
  const out = [];
  const keys = new Set([...Object.keys(src ?? {}), ...Object.keys(model ?? {})]);
  for (const k of [...keys].sort()) {
    const a = src?.[k];
    const b = model?.[k];
    if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a)) out.push(...fieldDiff(a, b, `${path}${k}.`));
    else if (!sameJSON(a, b)) out.push(`${path}${k}: source ${JSON.stringify(a)}, model ${JSON.stringify(b)}`);
  }
  return out;
}

// ---------- per tag ----------

const readings = new Map(); // behaviour → [[tag, bool]]
for (const tag of tags) {
  const src = await sourceOf(tag);
  if (src.read('pkg/kube/inject/inject.go') === undefined) {
    say(tag, 'source', 'no pkg/kube/inject/inject.go at this tag');
    continue;
  }
  const v = releaseOf(tag);
  if (!v) say(tag, 'release', `not a release the model knows (KNOWN_RELEASES ends ${KNOWN_RELEASES.at(-2)}, master)`);
  for (const [name, fact] of Object.entries(FACTS)) {
    let got;
    try {
      got = fact.has(src);
    } catch (e) {
      say(tag, name, `${fact.file} cannot be read: ${e.message}`);
      continue;
    }
    if (!readings.has(name)) readings.set(name, []);
    readings.get(name).push([tag, got]);
    if (!v) continue;
    if (!(name in BEHAVIOURS)) continue;
    const want = has(v, name);
    if (got !== want) say(tag, name, `${fact.file} says ${got ? 'yes' : 'no'}, the table ${want ? 'yes' : 'no'}`);
  }
  if (!v) continue;

  // SidecarTemplateData: the fields, their types and their order
  const goFields = src.templateData().map(([n, t]) => `${n} ${goTypeName(t)}`);
  const ours = templateDataType(v).fields.map((f) => `${f.name} ${modelTypeName(f.type)}`);
  if (goFields.join(', ') !== ours.join(', ')) say(tag, 'SidecarTemplateData', `source ${goFields.join(', ')}; model ${ours.join(', ')}`);

  // DefaultProxyConfig and DefaultMeshConfig as jsonpb prints them
  try {
    const { proxy: pc, mesh: mc } = src.defaults();
    const ourPc = JSON.parse(protoToJSON(defaultProxyConfig(v)));
    const ourMc = JSON.parse(protoToJSON(defaultMeshConfig(v)));
    for (const d of fieldDiff(pc, ourPc)) say(tag, 'DefaultProxyConfig', d);
    for (const d of fieldDiff(mc, ourMc)) if (!d.startsWith('defaultConfig.')) say(tag, 'DefaultMeshConfig', d);
  } catch (e) {
    say(tag, 'defaults', `cannot read: ${e.message}`);
  }

  // k8s.io/api of go.mod
  const api = /^\s*k8s\.io\/api v0\.(\d+)\./m.exec(src.read('go.mod') ?? '');
  if (api && Number(api[1]) !== kubeApiMinorOf(v)) say(tag, 'KUBE_API', `go.mod has k8s.io/api v0.${api[1]}, the table ${kubeApiMinorOf(v)}`);
}
blobs.close();

// behaviours the table has that no reading covers, and readings of behaviours the table lacks
for (const name of Object.keys(BEHAVIOURS)) if (!(name in FACTS)) say('-', name, 'no reading of the source (tools/istio-source/facts.mjs)');
for (const name of Object.keys(FACTS)) if (!(name in BEHAVIOURS)) say('-', name, 'read from the source, but not in the table');

// ---------- report ----------

for (const d of diffs) process.stdout.write(`${d.tag.padEnd(8)} ${d.what}: ${d.detail}\n`);
const ranges = [];
for (const [name, rs] of readings) {
  // the spans of tags where the source has it
  const spans = [];
  for (const [tag, on] of rs) {
    if (on && (spans.length === 0 || spans.at(-1).closed)) spans.push({ first: tag, last: tag });
    else if (on) spans.at(-1).last = tag;
    else if (spans.length && !spans.at(-1).closed) spans.at(-1).closed = true;
  }
  ranges.push({ name, spans: spans.map((s) => (s.first === s.last ? s.first : `${s.first}..${s.last}`)) });
}
if (args.includes('-v')) for (const r of ranges) process.stdout.write(`${r.name.padEnd(44)} ${r.spans.join(', ') || 'never'}\n`);
if (opt('--json')) writeFileSync(opt('--json'), JSON.stringify({ tags, diffs, ranges }, null, 2) + '\n');
process.stdout.write(`${tags.length} tags read; ${diffs.length} disagreement${diffs.length === 1 ? '' : 's'}\n`);
process.exit(diffs.length ? 1 : 0);
