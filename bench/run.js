// `npm run bench`: the template engine, its function sets and the CLI, timed side by side with Go's
// own text/template (+ Sprig, + the Istio functions of tools/gorender) and @promptctl/go-template-js.
//
//   node bench/run.js [--time=SECONDS] [--rounds=N] [--quick] [--only=a,b,c,d,r,e,cold,mem,dump,deep,values,audit,golden,playground] [--dump=N] [--values=MB] [--no-go] [--no-gtjs] [--no-count] [--json=FILE]
//
// Cases: (a) bench/templates/injection.tmpl, an injection-style template, Istio functions, warm;
// (b) bench/templates/funcs.tmpl, Sprig-heavy, warm; (c) toYaml of a large nested value; (d) parse +
// compile of (a); (r) the sidecar template of real Istio ConfigMaps when a folder of them is found,
// against tools/istiod-stage (bench/lib/real.js); (e) the CLI from a cold start on one Deployment and on a List of 1,000, and
// with the real 1.24 ConfigMap (six templates) against the same cut to its sidecar template when found; (mem) peak
// RSS of the CLI on 1,000 vs 10,000 workloads; (dump) render, render --merged in both modes and audit (text, JSON,
// and with the heap capped at 128 MB) of a generated cluster dump (bench/lib/dump.js, 23,000 workloads): wall and
// CPU time, peak RSS; (deep) the nesting cases of test/hardening/deep-go.json as deep as Go runs them, cold
// `template --batch` against tools/gorender (bench/lib/deep.js); (values) `render` of one
// Deployment with a large values file of each shape of bench/lib/bigvalues.js (--values=MB, default 10; 50 is the
// hostile-input size), given with --values-file, --values and as the ConfigMap's data.values, beside Go reading the
// same files as istiod does (tools/valuesread); (playground) the playground page's size (gzip) and its time to the first
// render in headless Chromium (bench/lib/playground.js). The Go columns appear when tools/gorender/gorender is
// built (it is built here when `go` is on PATH). TypeScript, Go and go-template-js take turns, round
// after round, and the best round of each counts, so a busy machine skews the ratios less.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gtjsEngine, gtjsInjectionData } from './lib/gtjs.js';
import { configMapFolder, istiodStageRun, realCase, releases, sidecarOnly } from './lib/real.js';
import { haveValgrind } from './lib/cold-count.js';
import { workloadList } from './lib/workloads.js';
import { clusterDump, injectTestdata } from './lib/dump.js';
import { deepTable, runDeep } from './lib/deep.js';
import { coldTable, findHelm, runCold } from './lib/cold.js';
import { SHAPES, bigValues, withDataValues } from './lib/bigvalues.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
// SIDECAR_RENDER_DIST: benchmark another build (e.g. of a clean checkout) instead of ./dist.
const dist = process.env.SIDECAR_RENDER_DIST ?? join(root, 'dist');
const imp = (p) => import(pathToFileURL(join(dist, p)).href);

const { Template } = await imp('go/text/template/template.js');
const { compileTree } = await imp('go/text/template/exec.js');
const { sliceOf } = await imp('go/reflect/value.js');
const { funcSet } = await imp('funcs/index.js');
const { decodeGo, plainToGo } = await imp('go/encoding/json/structs.js');
const { ObjectMeta } = await imp('k8s/meta.js');
const { Container } = await imp('k8s/core.js');
const { jsonToYaml } = await imp('yaml/emit.js');

// ---------- options ----------

const argv = process.argv.slice(2);
const opt = (name) => {
  const a = argv.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  if (!a) return undefined;
  const eq = a.indexOf('=');
  return eq < 0 ? true : a.slice(eq + 1);
};
const quick = opt('quick') === true;
const seconds = Number(opt('time') ?? process.env.BENCH_TIME ?? (quick ? 0.3 : 1));
const only = typeof opt('only') === 'string' ? new Set(String(opt('only')).split(',')) : null;
const want = (c) => !only || only.has(c);
const useGo = opt('no-go') !== true;
const useGtjs = opt('no-gtjs') !== true;
const jsonOut = opt('json');
const rounds = Number(opt('rounds') ?? (quick ? 1 : 3));

// ---------- timing ----------

/** Grow N as Go's testing.B does until one run of N calls lasts `secs`; warm up first. Wall time, and the
 * process's CPU time (all threads, the garbage collector's included), which a busy machine skews less. */
function timeOp(op, secs = seconds) {
  const warmEnd = performance.now() + Math.min(500, secs * 500);
  while (performance.now() < warmEnd) op();
  const goal = secs * 1e9;
  let n = 1;
  for (;;) {
    const cpu0 = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) op();
    const ns = Number(process.hrtime.bigint() - start);
    const cpu = process.cpuUsage(cpu0);
    if (ns >= goal || n >= 1e9) return { n, nsPerOp: ns / n, cpuNsPerOp: ((cpu.user + cpu.system) * 1000) / n };
    let next = Math.floor((goal * n) / Math.max(ns, 1));
    next += Math.floor(next / 5);
    next = Math.min(next, 100 * n);
    n = Math.max(next, n + 1);
  }
}

function fmtNs(ns) {
  if (ns === undefined) return '-';
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${ns.toFixed(0)} ns`;
}
const fmtOps = (ns) => (ns === undefined ? '-' : (1e9 / ns).toFixed(ns > 1e8 ? 2 : 0));
const fmtRatio = (a, b) => (a === undefined || b === undefined ? '-' : `${(a / b).toFixed(3)} (${(b / a).toFixed(1)}x faster)`);

function firstDiff(a, b) {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}: ours ${JSON.stringify(la[i])} vs ${JSON.stringify(lb[i])}`;
  }
  return 'same lines, different bytes';
}

// ---------- the Go tool ----------

const goTool = join(root, 'tools', 'gorender', 'gorender');
function buildGo() {
  if (!useGo) return false;
  const hasGo = spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
  if (hasGo) {
    try {
      execFileSync('go', ['build', '-o', goTool, '.'], {
        cwd: join(root, 'tools', 'gorender'),
        env: { ...process.env, GOPATH: process.env.GORENDER_GOPATH ?? '/usr/share/gocode', GO111MODULE: 'off', GOFLAGS: '' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    } catch {
      console.error('bench: building tools/gorender failed; Go columns from the existing binary, if any');
    }
    if (want('r')) {
      try {
        execFileSync('bash', [join(root, 'tools', 'istiod-stage', 'build.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
      } catch {
        console.error('bench: building tools/istiod-stage failed; case (r) Go columns from the existing binary, if any');
      }
    }
  }
  return existsSync(goTool);
}

/** `gorender -bench` kept running: one case per request, so TS and Go rounds can alternate. */
class GoBench {
  constructor() {
    this.proc = spawn(goTool, ['-bench'], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.waiting = [];
    this.buf = '';
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (d) => {
      this.buf += d;
      let nl;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        this.waiting.shift()?.resolve(JSON.parse(line));
      }
    });
    this.proc.on('close', () => {
      for (const w of this.waiting.splice(0)) w.reject(new Error('gorender -bench exited'));
    });
  }
  run(c) {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.proc.stdin.write(JSON.stringify(c) + '\n');
    });
  }
  close() {
    this.proc.stdin.end();
  }
}

// ---------- inputs ----------

const read = (p) => readFileSync(join(here, p), 'utf8');
const injectionText = read('templates/injection.tmpl');
const injectionJson = JSON.parse(read('data/injection.json'));
const funcsText = read('templates/funcs.tmpl');
const funcsJson = JSON.parse(read('data/funcs.json'));

/** Case (a) data for the TypeScript engine: typed ObjectMeta and Containers, the rest as encoding/json decodes it. */
function injectionData() {
  const d = plainToGo(injectionJson);
  d.ObjectMeta = decodeGo(ObjectMeta, injectionJson.ObjectMeta);
  d.Containers = decodeGo(sliceOf(Container), injectionJson.Containers);
  return d;
}

/** A large nested value (about 200 KB of YAML): what toYaml of a big values tree or pod costs. */
function bigValue() {
  const services = {};
  for (let i = 0; i < 120; i++) {
    services[`service-${String(i).padStart(3, '0')}`] = {
      enabled: i % 3 !== 0,
      replicas: 1 + (i % 5),
      weight: (i % 10) / 4,
      image: { repository: `registry.example.com/team-${i % 9}/svc-${i}`, tag: `1.${i}.0`, pullPolicy: i % 2 ? 'IfNotPresent' : 'Always' },
      labels: { app: `svc-${i}`, 'app.kubernetes.io/part-of': 'shop', tier: i % 2 ? 'backend' : 'frontend', 'yes-or-no': i % 4 ? 'yes' : 'no' },
      ports: [
        { name: 'http', containerPort: 8080 + i, protocol: 'TCP' },
        { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
      ],
      env: Array.from({ length: 4 }, (_, j) => ({ name: `VAR_${j}`, value: j === 2 ? `line one\nline two ${i}` : j === 3 ? `: colon ${i} #` : `value-${i}-${j}` })),
      resources: { requests: { cpu: `${(i % 8) * 50 + 50}m`, memory: `${64 << i % 4}Mi` }, limits: { memory: '1Gi' } },
      annotations: { 'checksum/config': `${'0123456789abcdef'.repeat(4)}`, note: i % 6 ? '' : null, 'on-off': 'on', octal: '0755', number: '12345' },
      nested: { a: { b: { c: { d: [i, i + 0.5, true, null, 'x'] } } } },
    };
  }
  return { global: { hub: 'docker.io/istio', tag: '1.24.1' }, services };
}

// ---------- cases ----------

const istioFuncs = funcSet('istio');
const sprigFuncs = funcSet('sprig');

function tsTemplate(text, funcs) {
  return new Template('inject').funcs(funcs).parse(text);
}

/**
 * Each case: a TypeScript op, maybe a go-template-js op, maybe a Go case; all timed in alternating
 * rounds. A case's inputs are built when it starts and dropped when it ends, so no case is timed with
 * another's data alive in the heap (the 200 KB value of (c) made (a) about 5% slower through garbage
 * collection). No collection is forced between cases: a `gc()` (--expose-gc) before a case is built
 * left every later render of it 10-20% slower, CPU time as well as wall time, while collections V8
 * starts itself at the same point (the old generation filled by allocation) did not; no program
 * outside a benchmark forces one.
 */
const specs = [];

function renderSpec(id, label, text, funcs, set, tsData, goData, goTyped, gtjsData) {
  const t = tsTemplate(text, funcs);
  const spec = { id, label, tsOp: () => t.execute(tsData), tsOutput: t.execute(tsData) };
  if (gtjsData && useGtjs) {
    try {
      const tpl = gtjsEngine(set, jsonToYaml).parse(text);
      const data = gtjsData();
      spec.gtjsOutput = tpl.evaluate(data).join('');
      spec.gtjsOp = () => tpl.evaluate(data).join('');
    } catch (e) {
      spec.gtjsError = String(e?.message ?? e).split('\n')[0];
    }
  }
  spec.goCase = { name: id, template: text, data: goData, funcs: set, typed: goTyped, mode: 'exec', seconds };
  return spec;
}

if (want('a')) {
  specs.push(() => renderSpec('a', '(a) injection template, render (warm)', injectionText, istioFuncs, 'istio', injectionData(), injectionJson, true, () => gtjsInjectionData(injectionJson)));
}
if (want('b')) {
  specs.push(() => renderSpec('b', '(b) Sprig-heavy template, render (warm)', funcsText, sprigFuncs, 'sprig', plainToGo(funcsJson), funcsJson, false, () => structuredClone(funcsJson)));
}
if (want('c')) {
  specs.push(() => {
    const json = JSON.parse(JSON.stringify(bigValue()));
    return renderSpec('c', '(c) toYaml of a large nested value', '{{ toYaml . }}', istioFuncs, 'istio', plainToGo(json), json, false, null);
  });
}
if (want('d')) {
  specs.push(() => {
    const spec = {
      id: 'd',
      label: '(d) parse + compile of (a)',
      tsOp: () => {
        const t = tsTemplate(injectionText, istioFuncs);
        for (const x of t.templates()) if (x.tree) compileTree(x.tree);
      },
      goCase: { name: 'd', template: injectionText, data: injectionJson, funcs: 'istio', typed: true, mode: 'parse', seconds },
    };
    if (useGtjs) {
      const engine = gtjsEngine('istio', jsonToYaml);
      spec.gtjsOp = () => engine.parse(injectionText);
    }
    return spec;
  });
}

const realFolder = want('r') ? configMapFolder(root) : undefined;
if (realFolder) {
  const realImp = { render: { ...(await imp('istio/inject.js')), ...(await imp('inputs/resolve.js')) }, workload: await imp('istio/workload.js'), data: await imp('istio/data.js') };
  for (const release of releases(realFolder)) {
    specs.push(() => {
      const c = realCase(realImp, root, realFolder, release);
      return {
        id: `r ${release}`,
        label: `(r) Istio ${release} sidecar template, render (warm)`,
        tsOp: c.tsOp,
        tsOutput: c.tsOutput,
        goRun: () => istiodStageRun(root, release, c.req, seconds),
      };
    });
  }
}

const results = [];
const goBench = specs.length > 0 && buildGo() ? new GoBench() : null;
/** The best of the rounds, wall and CPU time each on its own. */
const minOf = (a, b) => (!a ? b : { ...a, nsPerOp: Math.min(a.nsPerOp, b.nsPerOp), cpuNsPerOp: Math.min(a.cpuNsPerOp, b.cpuNsPerOp) });
for (let i = 0; i < specs.length; i++) {
  const spec = specs[i]();
  specs[i] = null;
  const r = { id: spec.id, label: spec.label, tsOutput: spec.tsOutput, gtjsError: spec.gtjsError };
  for (let round = 0; round < rounds; round++) {
    console.error(`bench: ${spec.label}, round ${round + 1}/${rounds}`);
    r.ts = minOf(r.ts, timeOp(spec.tsOp));
    if (goBench && !r.goError) {
      const g = spec.goRun ? spec.goRun() : await goBench.run(spec.goCase);
      if (g.error) r.goError = g.error;
      else {
        r.go = minOf(r.go, { n: g.n, nsPerOp: g.nsPerOp, cpuNsPerOp: g.cpuNsPerOp, allocsPerOp: g.allocsPerOp });
        if (spec.tsOutput !== undefined) r.sameAsGo = spec.tsOutput === g.output ? 'yes' : `NO: ${firstDiff(spec.tsOutput, g.output)}`;
        if (spec.gtjsOutput !== undefined) r.gtjsSameAsGo = spec.gtjsOutput === g.output ? 'yes' : `no: ${firstDiff(spec.gtjsOutput, g.output)}`;
      }
    }
    if (spec.gtjsOp) r.gtjs = minOf(r.gtjs, timeOp(spec.gtjsOp));
  }
  results.push(r);
}
goBench?.close();

// ---------- the CLI ----------

const bin = process.env.SIDECAR_RENDER_DIST ? join(here, 'lib', 'cli.js') : join(root, 'bin', 'sidecar-render.cjs');
const ex = (f) => join(root, 'examples', f);
const scratch = mkdtempSync(join(tmpdir(), 'sidecar-render-bench-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

function cliArgs(workloads) {
  return [bin, 'render', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', workloads];
}

/** Wall time of one cold CLI process (stdout to a file, as a pipeline would consume it). */
function runCli(args, env = {}) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const p = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => {
      const ns = Number(process.hrtime.bigint() - start);
      if (code !== 0) reject(new Error(`sidecar-render exited ${code}: ${err.split('\n')[0]}`));
      else resolve(ns);
    });
  });
}

const usagePreload = pathToFileURL(join(here, 'lib', 'usage.js')).href;
let usageSeq = 0;

/** One cold process with the usage preload: wall time, CPU time and peak RSS. */
async function measuredRun(script, args) {
  const file = join(scratch, `usage-${usageSeq++}.json`);
  const ns = await runCli(['--import', usagePreload, script, ...args], { BENCH_USAGE_FILE: file });
  const u = JSON.parse(readFileSync(file, 'utf8'));
  return { ns, cpuNs: (u.user + u.system) * 1000, kib: u.maxRSS };
}

async function cliCase(id, label, workloads, runs, script = bin, args = cliArgs(workloads).slice(1)) {
  const rs = [];
  for (let i = 0; i < runs; i++) rs.push(await measuredRun(script, args));
  cliResult(id, label, rs);
}

/** Median wall and CPU time of cold runs. */
function cliResult(id, label, rs) {
  const runs = rs.length;
  rs.sort((a, b) => a.ns - b.ns);
  const med = rs[Math.floor(rs.length / 2)];
  const cpu = rs.map((r) => r.cpuNs).sort((a, b) => a - b);
  results.push({ id, label, ts: { n: runs, nsPerOp: med.ns, cpuNsPerOp: cpu[Math.floor(cpu.length / 2)], min: rs[0].ns, max: rs[rs.length - 1].ns, cpuMedian: cpu[Math.floor(cpu.length / 2)], cpuMin: cpu[0] }, cli: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Median and least wall and CPU time of cold runs (ms). */
const spread = (rs) => ({ wallMedian: median(rs.map((r) => r.ns)) / 1e6, wallMin: Math.min(...rs.map((r) => r.ns)) / 1e6, cpuMedian: median(rs.map((r) => r.cpuNs)) / 1e6, cpuMin: Math.min(...rs.map((r) => r.cpuNs)) / 1e6 });

/** Instructions of one cold process, counted by callgrind; V8 on the main thread only (--single-threaded),
 *  so that its compiler and collector threads do not add counts of their own that vary run to run. */
function instructions(script, args) {
  const p = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--single-threaded', script, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const m = /refs:\s+([\d,]+)/.exec(p.stderr ?? '');
  if (p.status !== 0 || !m) throw new Error(`callgrind failed: ${(p.stderr || p.error?.message || '').trim().split('\n').pop()}`);
  return Number(m[1].replaceAll(',', ''));
}

/** Six templates against one, cold: filled in by case (e) when the real ConfigMaps are found. */
let coldCompare = null;

if (want('e')) {
  console.error('bench: (e) CLI cold start');
  await cliCase('e0', '(e) for scale: node itself, empty program (median)', '', quick ? 5 : 15, join(here, 'lib', 'noop.js'), []);
  await cliCase('e1', '(e) CLI: one Deployment, cold start (median)', ex('deployment.yaml'), quick ? 5 : 15);
  await cliCase('e1m', '(e) the same without the bundle: dist/ modules loaded one by one (median)', ex('deployment.yaml'), quick ? 5 : 15, join(here, 'lib', 'modules-cli.js'));
  await cliCase('e3', '(e) CLI: --help, cold start (median)', '', quick ? 5 : 15, bin, ['--help']);
  await cliCase('e4', '(e) CLI: version, cold start (median)', '', quick ? 5 : 15, bin, ['version']);
  const list = join(scratch, 'list-1000.yaml');
  writeFileSync(list, workloadList(1000));
  await cliCase('e2', '(e) CLI: List of 1,000 Deployments (median)', list, quick ? 2 : 5);
  // The real 1.24 ConfigMap (six templates) against the same file cut to its sidecar template: a pod
  // that uses one template should not pay for reading the others. Runs alternate, so load drifts alike.
  const real = configMapFolder(root);
  const full = real && join(real, '1.24.0', 'istio-sidecar-injector.yaml');
  const cut = full && existsSync(full) ? sidecarOnly(readFileSync(full, 'utf8')) : undefined;
  if (cut) {
    console.error('bench: (e) CLI cold start, real 1.24 ConfigMap, six templates vs its sidecar template alone');
    const cutFile = join(scratch, 'istio-sidecar-injector-sidecar-only.yaml');
    writeFileSync(cutFile, cut);
    const args = (cm) => ['render', '--injector-configmap', cm, '--mesh', join(real, '1.24.0', 'istio-mesh.yaml'), '-f', ex('deployment.yaml')];
    const six = [];
    const one = [];
    for (let i = 0; i < (quick ? 5 : 9); i++) {
      six.push(await measuredRun(bin, args(full)));
      one.push(await measuredRun(bin, args(cutFile)));
    }
    cliResult('e6', '(e) CLI: one Deployment, real 1.24 ConfigMap, 6 templates (median)', six);
    cliResult('e7', '(e) CLI: the same, ConfigMap cut to its sidecar template (median)', one);
    coldCompare = { runs: six.length, six: spread(six), cut: spread(one) };
    // the same two files phase by phase (lib/cold-phases.js), CPU time of each phase in one process
    const phases = { six: [], cut: [] };
    for (let i = 0; i < (quick ? 3 : 9); i++) {
      for (const [k, cm] of [['six', full], ['cut', cutFile]]) {
        const p = spawnSync(process.execPath, [join(here, 'lib', 'cold-phases.js'), cm, join(real, '1.24.0', 'istio-mesh.yaml'), ex('deployment.yaml')], { encoding: 'utf8', env: process.env });
        if (p.status !== 0) throw new Error(`cold-phases failed: ${p.stderr.split('\n')[0]}`);
        phases[k].push(JSON.parse(p.stdout));
      }
    }
    coldCompare.phases = Object.keys(phases.six[0]).map((name) => ({ name, six: median(phases.six.map((x) => x[name].cpuMs)), cut: median(phases.cut.map((x) => x[name].cpuMs)) }));
    // instructions, which do not move with the machine's load (valgrind; --no-count skips it)
    if (opt('no-count') !== true && haveValgrind()) {
      console.error('bench: (e) instructions of the two cold runs (valgrind, about 30 s a run)');
      const counts = { six: [], cut: [] };
      for (let i = 0; i < (quick ? 1 : 3); i++) {
        counts.six.push(instructions(bin, args(full)));
        counts.cut.push(instructions(bin, args(cutFile)));
      }
      coldCompare.instructions = { runs: counts.six.length, six: median(counts.six), cut: median(counts.cut), sixAll: counts.six, cutAll: counts.cut };
    }
  }
}

let memory = null;
if (want('mem')) {
  console.error('bench: peak RSS, 1,000 vs 10,000 workloads (CLI, and the streaming prototype)');
  memory = [];
  for (const n of [1000, 10000]) {
    const list = join(scratch, `list-${n}.yaml`);
    if (!existsSync(list)) writeFileSync(list, workloadList(n));
    const cli = await measuredRun(bin, cliArgs(list).slice(1));
    const streamed = await measuredRun(join(here, 'lib', 'stream-render.js'), [ex('istio-sidecar-injector.yaml'), ex('istio-mesh.yaml'), list]);
    memory.push({ workloads: n, inputBytes: readFileSync(list).length, cli, streamed });
  }
}

// ---------- a cluster dump: render, render --merged (both modes) and audit ----------

let dumpRuns = null;
if (want('dump')) {
  // --dump=N workloads (default 23,000, about 57 MB; --quick 2,300); the real 1.24 ConfigMap when found
  const n = Number(opt('dump') === undefined || opt('dump') === true ? (quick ? 2300 : 23000) : opt('dump'));
  const real = configMapFolder(root);
  const cmDir = real && existsSync(join(real, '1.24.0', 'istio-sidecar-injector.yaml')) ? join(real, '1.24.0') : join(root, 'examples');
  const file = join(scratch, `dump-${n}.yaml`);
  console.error(`bench: dump of ${n} workloads against ${cmDir}`);
  writeFileSync(file, clusterDump(n, 'list', injectTestdata(root)));
  const inputs = ['--injector-configmap', join(cmDir, 'istio-sidecar-injector.yaml'), '--mesh', join(cmDir, 'istio-mesh.yaml'), '-f', file, '-q'];
  dumpRuns = { workloads: n, bytes: readFileSync(file).length, configMap: cmDir.startsWith(root) ? 'examples' : 'real 1.24.0', runs: [] };
  for (const [label, args, nodeFlags = []] of [
    ['render', ['render']],
    ['render --merged', ['render', '--merged']],
    ['render --merged --mode kube-inject', ['render', '--merged', '--mode', 'kube-inject']],
    ['audit', ['audit']],
    ['audit -o json', ['audit', '-o', 'json']],
    // the audit's live heap, not V8's sizing of the heap to the allocation rate
    ['audit, --max-old-space-size=128', ['audit'], ['--max-old-space-size=128']],
  ]) {
    console.error(`bench: dump, ${label}`);
    dumpRuns.runs.push({ label, ...dumpRun(bin, [...args, ...inputs], nodeFlags) });
  }
}

// ---------- large values files: render with each shape, and Go reading the same files ----------

let valuesRuns = null;
if (want('values')) {
  const mb = Number(opt('values') === undefined || opt('values') === true ? 10 : opt('values'));
  const real = configMapFolder(root);
  const cmDir = real && existsSync(join(real, '1.24.0', 'istio-sidecar-injector.yaml')) ? join(real, '1.24.0') : join(root, 'examples');
  const cm = join(cmDir, 'istio-sidecar-injector.yaml');
  const base = ['render', '-q', '--mesh', join(cmDir, 'istio-mesh.yaml'), '-f', ex('deployment.yaml')];
  const goReader = useGo ? buildValuesRead() : undefined;
  valuesRuns = { mb, configMap: cmDir.startsWith(root) ? 'examples' : 'real 1.24.0', runs: [] };
  const cases = [...SHAPES.map((shape) => [shape, '--values-file']), ['maps', '--values'], ['json', '--values'], ['maps', 'data.values'], ['json', 'data.values']];
  for (const [shape, how] of cases) {
    const file = join(scratch, `values-${shape}.yaml`);
    if (!existsSync(file)) writeFileSync(file, bigValues(shape, mb * 1e6));
    let args;
    if (how === 'data.values') {
      const cmFile = join(scratch, `cm-values-${shape}.yaml`);
      writeFileSync(cmFile, withDataValues(readFileSync(cm, 'utf8'), readFileSync(file, 'utf8')));
      args = [...base, '--injector-configmap', cmFile];
    } else args = [...base, '--injector-configmap', cm, how, file];
    console.error(`bench: values, ${shape} ${how} (${mb} MB)`);
    const r = { shape, how, bytes: readFileSync(file).length, ...valuesRun(args) };
    if (goReader && how === '--values-file') r.go = goValuesRead(goReader, file);
    valuesRuns.runs.push(r);
    if (how === 'data.values') rmSync(join(scratch, `cm-values-${shape}.yaml`), { force: true });
  }
}

/** tools/valuesread built into the scratch folder, or undefined without Go. */
function buildValuesRead() {
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0) return undefined;
  const out = join(scratch, 'valuesread');
  const b = spawnSync('go', ['build', '-o', out, '.'], {
    cwd: join(root, 'tools', 'valuesread'),
    env: { ...process.env, GOPATH: process.env.GORENDER_GOPATH ?? '/usr/share/gocode', GO111MODULE: 'off', GOFLAGS: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return b.status === 0 ? out : undefined;
}

/** Go's reading of one values file (its own CPU time and peak RSS, printed by tools/valuesread). */
function goValuesRead(tool, file) {
  const p = spawnSync(tool, [file], { encoding: 'utf8' });
  const m = /: (.*); wall ([\d.]+) s, CPU ([\d.]+) s, peak RSS (\d+) MB$/.exec(p.stdout.trim());
  return m ? { result: m[1], ns: Number(m[2]) * 1e9, cpuNs: Number(m[3]) * 1e9, kib: Number(m[4]) * 1024 } : { result: `failed: ${(p.stderr || p.stdout).trim()}` };
}

/** One cold render: wall and CPU time, peak RSS, exit code and the first line on stderr. */
function valuesRun(args) {
  const file = join(scratch, `usage-${usageSeq++}.json`);
  const start = process.hrtime.bigint();
  const p = spawnSync(process.execPath, ['--import', usagePreload, bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: { ...process.env, BENCH_USAGE_FILE: file } });
  const ns = Number(process.hrtime.bigint() - start);
  const u = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  return { ns, cpuNs: u ? (u.user + u.system) * 1000 : undefined, kib: u?.maxRSS, code: p.status ?? p.signal, stderr: (p.stderr ?? '').split('\n')[0].replace(scratch, '<scratch>') };
}

/** One cold process, as measuredRun; exit code 1 is a result here (audit's findings), not a failure. */
function dumpRun(script, args, nodeFlags = []) {
  const file = join(scratch, `usage-${usageSeq++}.json`);
  const start = process.hrtime.bigint();
  const p = spawnSync(process.execPath, [...nodeFlags, '--import', usagePreload, script, ...args], { stdio: 'ignore', env: { ...process.env, BENCH_USAGE_FILE: file } });
  const ns = Number(process.hrtime.bigint() - start);
  if (p.status !== 0 && p.status !== 1) throw new Error(`sidecar-render exited ${p.status}`);
  const u = JSON.parse(readFileSync(file, 'utf8'));
  return { ns, cpuNs: (u.user + u.system) * 1000, kib: u.maxRSS };
}

// ---------- nesting as deep as Go runs it: cold processes, TypeScript against Go ----------

// ---------- cold starts against node and Helm (bench/lib/cold.js) ----------

let coldRows = null;
let coldHelm;
if (want('cold')) {
  console.error('bench: cold starts against node -e 0 and helm template (one process a run, the tools taking turns)');
  coldHelm = findHelm();
  coldRows = runCold({ bin, runs: quick ? 3 : 9, helm: coldHelm, log: (m) => console.error(`bench: ${m}`) });
}

let deepRows = null;
if (want('deep')) {
  console.error('bench: deep nesting (cold template --batch, one case a process)');
  const go = useGo && (existsSync(goTool) || buildGo()) ? goTool : undefined;
  deepRows = runDeep({ go, bin, runs: quick ? 1 : 3, log: (m) => console.error(`bench: ${m}`) });
}

// ---------- audit and golden at scale (their own scripts; each prints one summary line) ----------

const scaleLines = [];
for (const [id, script, args] of [
  ['audit', 'audit-bench.js', ['10000']],
  ['golden', 'golden-bench.js', ['50']],
]) {
  if (!want(id) || quick) continue;
  console.error(`bench: ${id} at scale`);
  const r = spawnSync(process.execPath, [join(here, script), ...args], { encoding: 'utf8', env: process.env });
  scaleLines.push(`${id}: ${(r.stdout || r.stderr).trim().split('\n').pop()}${r.status === 0 ? '' : ' (over budget or failed)'}`);
}

// ---------- the playground page: its size and its first render in Chromium ----------

let playground = null;
if (want('playground')) {
  console.error('bench: playground (build, serve, headless Chromium)');
  const { measurePlayground } = await import('./lib/playground.js');
  try {
    playground = await measurePlayground({ runs: quick ? 1 : 5 });
  } catch (e) {
    playground = { error: e instanceof Error ? e.message : String(e) };
  }
}

// ---------- report ----------

function table(title, pick) {
  const rows = [['case', 'TS ns/op', 'TS ops/s', 'Go ns/op', 'TS/Go', 'go-template-js ns/op', 'TS/go-template-js']];
  for (const r of results) {
    const ts = pick(r.ts);
    const go = r.go ? pick(r.go) : undefined;
    const gt = r.gtjs ? pick(r.gtjs) : undefined;
    if (ts === undefined) continue;
    rows.push([
      r.label,
      fmtNs(ts),
      fmtOps(ts),
      go !== undefined ? fmtNs(go) : r.goError ? 'error' : '-',
      fmtRatio(ts, go),
      gt !== undefined ? fmtNs(gt) : r.gtjsError ? 'cannot render' : '-',
      fmtRatio(ts, gt),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  console.log(title);
  for (const [i, row] of rows.entries()) {
    console.log(row.map((c, j) => c.padEnd(widths[j])).join('  ').trimEnd());
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

console.log(`sidecar-render bench, node ${process.version}, ${seconds}s per case, best of ${rounds} round(s)${quick ? ' (quick)' : ''}`);
table('wall time', (x) => x.nsPerOp);
console.log('');
table('CPU time (user+system, all threads of the process)', (x) => x.cpuNsPerOp);
console.log('');
for (const r of results) {
  const notes = [];
  if (r.sameAsGo) notes.push(`output identical to Go: ${r.sameAsGo}`);
  if (r.goError) notes.push(`Go error: ${r.goError}`);
  if (r.gtjsSameAsGo) notes.push(`go-template-js output identical to Go: ${r.gtjsSameAsGo}`);
  if (r.gtjsError) notes.push(`go-template-js: ${r.gtjsError}`);
  if (r.cli) notes.push(`${r.ts.n} runs, wall min ${fmtNs(r.ts.min)}, max ${fmtNs(r.ts.max)}; CPU (user+sys) median ${fmtNs(r.ts.cpuMedian)}, min ${fmtNs(r.ts.cpuMin)}`);
  if (r.go?.allocsPerOp !== undefined) notes.push(`Go allocs/op ${r.go.allocsPerOp.toFixed(0)}`);
  if (notes.length) console.log(`${r.id}: ${notes.join('; ')}`);
}
if (coldCompare) {
  const c = coldCompare;
  const ms = (x) => `${x.toFixed(1)} ms`;
  const d = (a, b) => `${a - b >= 0 ? '+' : ''}${(a - b).toFixed(1)} ms`;
  console.log('');
  console.log(`(e) cold render, real 1.24 ConfigMap: six templates against the file cut to its sidecar template (${c.runs} runs each, alternating)`);
  console.log(`  wall: six ${ms(c.six.wallMedian)} (min ${ms(c.six.wallMin)}), cut ${ms(c.cut.wallMedian)} (min ${ms(c.cut.wallMin)}); six - cut ${d(c.six.wallMedian, c.cut.wallMedian)} median, ${d(c.six.wallMin, c.cut.wallMin)} min`);
  console.log(`  CPU:  six ${ms(c.six.cpuMedian)} (min ${ms(c.six.cpuMin)}), cut ${ms(c.cut.cpuMedian)} (min ${ms(c.cut.cpuMin)}); six - cut ${d(c.six.cpuMedian, c.cut.cpuMedian)} median, ${d(c.six.cpuMin, c.cut.cpuMin)} min`);
  if (c.instructions) {
    const i = c.instructions;
    const m = (x) => `${(x / 1e6).toFixed(1)} M`;
    console.log(`  instructions (callgrind, median of ${i.runs}): six ${m(i.six)}, cut ${m(i.cut)}; six - cut ${i.six - i.cut >= 0 ? '+' : ''}${m(i.six - i.cut)} (${((100 * (i.six - i.cut)) / i.cut).toFixed(1)}%)`);
  } else console.log('  instructions: not counted (valgrind not found, or --no-count)');
  console.log(`  CPU per phase (bench/lib/cold-phases.js, median): ${c.phases.map((p) => `${p.name} ${p.six.toFixed(1)}/${p.cut.toFixed(1)}`).join(', ')} ms (six/cut)`);
}
if (memory) {
  console.log('');
  for (const m of memory) {
    const mib = (k) => `${(k / 1024).toFixed(0)} MiB`;
    console.log(
      `peak RSS on ${m.workloads} workloads (${(m.inputBytes / 1e6).toFixed(1)} MB of YAML): CLI ${mib(m.cli.kib)} in ${fmtNs(m.cli.ns)}; ` +
        `streaming prototype (bench/lib/stream-render.js) ${mib(m.streamed.kib)} in ${fmtNs(m.streamed.ns)}`,
    );
  }
}
if (dumpRuns) {
  console.log('');
  console.log(`cluster dump: ${dumpRuns.workloads} workloads (${(dumpRuns.bytes / 1e6).toFixed(1)} MB, kind: List), ${dumpRuns.configMap} ConfigMap`);
  for (const r of dumpRuns.runs) {
    console.log(`  ${r.label.padEnd(38)} wall ${fmtNs(r.ns).padStart(9)}  CPU ${fmtNs(r.cpuNs).padStart(9)}  CPU per workload ${fmtNs(r.cpuNs / dumpRuns.workloads).padStart(8)}  peak RSS ${(r.kib / 1024).toFixed(0)} MiB`);
  }
}
if (coldRows) {
  console.log('');
  console.log(`cold starts, medians of ${quick ? 3 : 9} runs (CPU: user+system of all threads, /usr/bin/time; MiB: peak RSS); Helm: ${coldHelm ?? 'none found (HELM= or helm on PATH)'}`);
  console.log(coldTable(coldRows));
}
if (deepRows) {
  console.log('');
  console.log('deep nesting, one cold process a case (least of the runs; CPU is user+system of all threads; MiB is peak RSS)');
  console.log(deepTable(deepRows));
}
if (valuesRuns) {
  console.log('');
  console.log(`large values files: ${valuesRuns.mb} MB of each shape (bench/lib/bigvalues.js), render of one Deployment, ${valuesRuns.configMap} ConfigMap; Go: tools/valuesread (sigs.k8s.io/yaml.Unmarshal)`);
  const mib = (k) => (k === undefined ? '-' : `${(k / 1024).toFixed(0)} MiB`);
  for (const r of valuesRuns.runs) {
    const go = r.go ? `  | Go CPU ${fmtNs(r.go.cpuNs).padStart(9)}  peak RSS ${mib(r.go.kib).padStart(8)}` : '';
    console.log(`  ${`${r.shape} ${r.how}`.padEnd(26)} exit ${String(r.code).padEnd(2)} wall ${fmtNs(r.ns).padStart(9)}  CPU ${fmtNs(r.cpuNs).padStart(9)}  peak RSS ${mib(r.kib).padStart(8)}${go}${r.code === 0 ? '' : `  ${r.stderr.slice(0, 120)}`}`);
  }
}
if (playground) {
  const { playgroundLine } = await import('./lib/playground.js');
  console.log('');
  console.log(playground.error ? `playground: ${playground.error}` : playgroundLine(playground));
}
if (scaleLines.length) {
  console.log('');
  for (const l of scaleLines) console.log(l);
}
if (jsonOut) {
  const strip = results.map(({ tsOutput, gtjsOutput, ...rest }) => rest);
  writeFileSync(String(jsonOut), JSON.stringify({ node: process.version, seconds, results: strip, memory, coldCompare, cold: coldRows, dump: dumpRuns, values: valuesRuns, playground }, null, 2) + '\n');
}
