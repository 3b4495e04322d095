#!/usr/bin/env node
// Differential tester: random templates run through Go's text/template (tools/gorender) and through
// the TypeScript engine (src/batch.ts), compared byte for byte.
//
//   node tools/difffuzz/difffuzz.mjs [--seed N] [--count N] [--cats engine,funcs,yaml] [--show N]
//                                    [--out DIR] [--build] [--dist DIR] [--gorender PATH]
//
// --build compiles src (and the typed fixtures) into tools/difffuzz/.build first; --dist points at
// another compiled tree (e.g. ../../dist, whose batch.js then has no fixtures, so only JSON-data cases
// run). --out writes every divergence as a vector-format case (and Go's result) for triage.

import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Rng } from './rng.mjs';
import { genEngineCase } from './gen-engine.mjs';
import { genFuncsCase } from './gen-funcs.mjs';
import { genYamlCase } from './gen-yaml.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

function parseArgs(argv) {
  const a = { seed: Date.now() % 1e9, count: 2000, cats: 'engine,funcs,yaml', show: 5, out: '', build: false, dist: '', gorender: join(root, 'tools/gorender/gorender'), quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '');
    if (k === 'build' || k === 'quiet' || k === 'errstats') a[k] = true;
    else a[k] = argv[++i];
  }
  a.seed = Number(a.seed);
  a.count = Number(a.count);
  a.show = Number(a.show);
  return a;
}

const GENERATORS = { engine: genEngineCase, funcs: genFuncsCase, yaml: genYamlCase };

// Go prints pointers and funcs as addresses that change every run: such cases tell nothing.
const ADDRESS = /0x[0-9a-f]{6,}|\b824[0-9]{9}\b/;
// Go 1.19 cannot range over an integer; the TypeScript engine follows Go 1.24 there, by design.
// (The fixtures' Phase is a named int: Pending, Running.)
const NEWER_GO = /range can't iterate over (-?\d+|Pending|Running|Unknown)$/;

function errKind(e) {
  return e.replace(/^template: [^:]*:\d+(:\d+)?: /, '').replace(/executing "[^"]*" at <.*?>: /, '').replace(/"[^"]*"/g, '"S"').replace(/\d+/g, 'N').slice(0, 90);
}

// Results of Go for cases, in order; a case that kills the Go process (a fatal stack overflow printing
// a self-referential map, say) gets null, found by bisecting the batch.
function runGo(tool, cases) {
  const input = cases.map((c) => JSON.stringify(c)).join('\n') + '\n';
  // A case with a huge output (over the buffer) counts as a crash and is bisected out too.
  const p = spawnSync(tool, [], { input, maxBuffer: 1 << 28, env: { ...process.env, TZ: 'UTC' }, timeout: 300000 });
  const lines = p.error ? [''] : (p.stdout ?? Buffer.alloc(0)).toString('utf8').split('\n');
  lines.pop(); // after the last newline: empty, or a line cut short by a crash
  if (p.status === 0 && lines.length === cases.length) return lines.map((l) => JSON.parse(l));
  if (cases.length === 1) return [null];
  // everything before the crash is good
  const done = lines.slice(0, Math.min(lines.length, cases.length - 1)).map((l) => JSON.parse(l));
  const rest = cases.slice(done.length);
  if (rest.length === cases.length) {
    const mid = cases.length >> 1;
    return [...runGo(tool, cases.slice(0, mid)), ...runGo(tool, cases.slice(mid))];
  }
  return [...done, ...runGo(tool, rest)];
}

// Go's encoding/json writes invalid UTF-8 as U+FFFD; the TS side holds such bytes as lone surrogates
// or similar: compare both through the same lens.
function norm(s) {
  if (s === null || s === undefined) return s;
  // The Go tool's Istio types are local stand-ins named main.IstioX.
  s = s.replace(/main\.IstioObjectMeta/g, 'v1.ObjectMeta').replace(/main\.IstioContainer/g, 'v1.Container').replace(/main\.IstioDuration/g, 'durationpb.Duration');
  return JSON.parse(JSON.stringify(s).replace(/\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/gi, '\\ufffd'));
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let dist = args.dist ? resolve(args.dist) : join(here, '.build/src');
  if (args.build) {
    execFileSync('npx', ['tsc', '-p', join(here, 'tsconfig.json')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  if (!existsSync(join(dist, 'batch.js'))) throw new Error(`no ${dist}/batch.js: run with --build, or --dist DIR after npx tsc -p .`);
  const batch = await import(pathToFileURL(join(dist, 'batch.js')).href);
  let fixtures = {};
  const fixturesJs = join(dist, '../test/vectors/fixtures.js');
  if (existsSync(fixturesJs)) fixtures = (await import(pathToFileURL(fixturesJs).href)).fixtures;
  if (!existsSync(args.gorender)) throw new Error(`no Go tool at ${args.gorender}: build it (tools/gen-vectors.sh builds it)`);

  const cats = args.cats.split(',');
  const summary = {};
  const divergences = [];
  const errKinds = new Map();
  for (const cat of cats) {
    const r = new Rng(args.seed ^ hash(cat));
    const cases = [];
    for (let i = 0; i < args.count; i++) {
      const c = GENERATORS[cat](r, i);
      if (c.fixture && !fixtures[c.fixture]) continue;
      cases.push(c);
    }
    const st = (summary[cat] = { cases: 0, skipped: 0, newerGo: 0, goErrors: 0, outSame: 0, errSame: 0, errCases: 0, phaseSame: 0, allSame: 0, tsThrew: 0, ms: 0 });
    const CHUNK = 2000;
    for (let off = 0; off < cases.length; off += CHUNK) {
      const chunk = cases.slice(off, off + CHUNK);
      const go = runGo(args.gorender, chunk);
      const t0 = Date.now();
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk[i];
        const want = go[i];
        if (want === null || ADDRESS.test(want.output) || ADDRESS.test(want.error ?? '') || (want.error ?? '').startsWith('panic: ')) {
          st.skipped++;
          continue;
        }
        let got;
        try {
          got = batch.runCase(c, { fixtures });
        } catch (e) {
          st.tsThrew++;
          got = { output: '', error: `TS THREW: ${e && e.stack ? e.stack.split('\n').slice(0, 3).join(' / ') : e}`, phase: null };
        }
        if (NEWER_GO.test(want.error ?? '')) {
          st.newerGo++;
          continue;
        }
        st.cases++;
        if (want.error !== null) {
          st.goErrors++;
          if (args.errstats) {
            const k = cat + ' ' + errKind(want.error);
            errKinds.set(k, (errKinds.get(k) ?? 0) + 1);
          }
        }
        const outSame = norm(got.output) === norm(want.output);
        const errSame = norm(got.error) === norm(want.error);
        const phaseSame = got.phase === want.phase;
        if (outSame) st.outSame++;
        if (want.error !== null || got.error !== null) {
          st.errCases++;
          if (errSame) st.errSame++;
        }
        if (phaseSame) st.phaseSame++;
        if (outSame && errSame && phaseSame) st.allSame++;
        else divergences.push({ cat, case: c, go: want, ts: { output: got.output, error: got.error, phase: got.phase } });
      }
      st.ms += Date.now() - t0;
    }
  }

  const pct = (a, b) => (b === 0 ? '-' : ((100 * a) / b).toFixed(2) + '%');
  console.log(`seed ${args.seed}, ${args.count} cases per category`);
  console.log('category  cases  goErr  output-same  error-same(of err cases)  phase-same  all-same  skipped  newerGo  ts-ms');
  for (const [cat, s] of Object.entries(summary)) {
    console.log(
      `${cat.padEnd(8)} ${String(s.cases).padStart(6)} ${String(s.goErrors).padStart(6)}  ${pct(s.outSame, s.cases).padStart(11)}  ${(pct(s.errSame, s.errCases) + ` (${s.errCases})`).padStart(24)}  ${pct(s.phaseSame, s.cases).padStart(10)}  ${pct(s.allSame, s.cases).padStart(8)}  ${String(s.skipped).padStart(7)}  ${String(s.newerGo).padStart(7)}  ${s.ms}${s.tsThrew ? `  TS threw ${s.tsThrew}` : ''}`,
    );
  }
  if (args.errstats) {
    console.log('\nmost common Go errors:');
    for (const [k, n] of [...errKinds].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(String(n).padStart(6), k);
  }
  for (const d of divergences.slice(0, args.show)) {
    console.log(`\n--- ${d.cat} ${d.case.name}`);
    console.log('case:', JSON.stringify(d.case));
    console.log('go:  ', JSON.stringify({ output: d.go.output, error: d.go.error, phase: d.go.phase }));
    console.log('ts:  ', JSON.stringify(d.ts));
  }
  if (args.out) {
    mkdirSync(args.out, { recursive: true });
    for (const cat of cats) {
      const ds = divergences.filter((d) => d.cat === cat);
      writeFileSync(join(args.out, `${cat}.jsonl`), ds.map((d) => JSON.stringify({ ...d.case, go: d.go, ts: d.ts })).join('\n') + (ds.length ? '\n' : ''));
    }
    console.log(`\ndivergences written to ${args.out}/<category>.jsonl`);
  }
}

function hash(s) {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

main().catch((e) => {
  console.error('difffuzz:', e.message);
  process.exit(1);
});
