// Cold starts against their references, side by side in one run (bench case `cold`): each command a
// fresh process, the tools taking turns, CPU time (user + system, all threads) and peak RSS from
// /usr/bin/time (10 ms resolution: the median of several runs counts), wall time from the clock.
//
//   - `node -e 0`, the floor every Node program starts from;
//   - `sidecar-render --help` and `version` (goal: within 20 ms of CPU of `node -e 0`);
//   - `render` of examples/deployment.yaml with the real 1.24 ConfigMap when found (goal: within 50 ms);
//   - `chart` of a one-template chart written at run time, and of Istio's istiod chart (1.24, when ../shared/istio-charts or SIDECAR_RENDER_ISTIO_CHARTS
//     holds it) and of every chart folder under SIDECAR_RENDER_CHARTS, against `helm template` of the
//     same chart when a Helm is named by HELM= or found on PATH (goals: CPU no more than Helm's, peak
//     RSS within 1.5x Helm's).
//
//   node bench/lib/cold.js [RUNS]   → the table alone
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TIME = '/usr/bin/time';

/** The Helm to compare with: $HELM, else `helm` on PATH, else undefined. */
export function findHelm() {
  const candidates = process.env.HELM ? [process.env.HELM] : (process.env.PATH ?? '').split(':').filter(Boolean).map((d) => join(d, 'helm'));
  return candidates.find((p) => existsSync(p) && spawnSync(p, ['version', '--short'], { encoding: 'utf8' }).status === 0);
}

/** The charts to render: Istio's istiod chart (1.24) and each chart folder under SIDECAR_RENDER_CHARTS. */
export function coldCharts() {
  const charts = [];
  const istio = process.env.SIDECAR_RENDER_ISTIO_CHARTS ?? join(root, '..', 'shared', 'istio-charts');
  const istiod = join(istio, '1.24.0', 'istio-discovery');
  if (existsSync(join(istiod, 'Chart.yaml'))) charts.push({ name: 'istiod 1.24', dir: istiod });
  const more = process.env.SIDECAR_RENDER_CHARTS;
  if (more && existsSync(more)) {
    for (const d of readdirSync(more).sort()) if (existsSync(join(more, d, 'Chart.yaml'))) charts.push({ name: d, dir: join(more, d) });
  }
  return charts;
}

/** One cold process: { ms, cpuMs, mib } (cpuMs and mib undefined without /usr/bin/time). */
function once(cmd, args, scratch) {
  const usage = join(scratch, 'usage.txt');
  const timed = existsSync(TIME);
  const start = process.hrtime.bigint();
  const p = timed
    ? spawnSync(TIME, ['-f', '%U %S %M', '-o', usage, cmd, ...args], { encoding: 'utf8', maxBuffer: 256 << 20, cwd: root })
    : spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, cwd: root });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (p.status !== 0) throw new Error(`${basename(cmd)} ${args.join(' ')} exited ${p.status}: ${(p.stderr ?? '').trim().split('\n')[0]}`);
  if (!timed) return { ms };
  const [u, s, k] = readFileSync(usage, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { ms, cpuMs: (u + s) * 1000, mib: k / 1024 };
}

const median = (xs) => {
  if (xs.some((x) => x === undefined)) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Every case, `runs` rounds, each round running every command once (so a change in the machine's
 * load hits all alike). Rows: { case, tool, ms, cpuMs, mib } with the medians.
 */
export function runCold({ bin = join(root, 'bin', 'sidecar-render.cjs'), runs = 9, helm = findHelm(), log = () => {} } = {}) {
  const node = process.execPath;
  const ex = (f) => join(root, 'examples', f);
  const cm = join(process.env.SIDECAR_RENDER_ISTIO_CONFIGMAPS ?? join(root, '..', 'shared', 'istio-configmaps'), '1.24.0');
  const commands = [
    { case: 'node -e 0', tool: 'node', cmd: node, args: ['-e', '0'] },
    { case: '--help', tool: 'sidecar-render', cmd: node, args: [bin, '--help'] },
    { case: 'version', tool: 'sidecar-render', cmd: node, args: [bin, 'version'] },
    { case: 'render, examples ConfigMap', tool: 'sidecar-render', cmd: node, args: [bin, 'render', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml')] },
  ];
  if (existsSync(join(cm, 'istio-sidecar-injector.yaml'))) {
    commands.push({ case: 'render, real 1.24 ConfigMap', tool: 'sidecar-render', cmd: node, args: [bin, 'render', '--injector-configmap', join(cm, 'istio-sidecar-injector.yaml'), '--mesh', join(cm, 'istio-mesh.yaml'), '-f', ex('deployment.yaml')] });
  }
  const scratch = mkdtempSync(join(tmpdir(), 'sidecar-render-cold-'));
  const got = [];
  try {
    const one = join(scratch, 'one');
    mkdirSync(join(one, 'templates'), { recursive: true });
    writeFileSync(join(one, 'Chart.yaml'), 'apiVersion: v2\nname: one\nversion: 0.1.0\n');
    writeFileSync(join(one, 'values.yaml'), 'name: one\n');
    writeFileSync(join(one, 'templates', 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n');
    for (const c of [{ name: 'one template', dir: one }, ...coldCharts()]) {
      commands.push({ case: `chart ${c.name}`, tool: 'sidecar-render', cmd: node, args: [bin, 'chart', c.dir] });
      if (helm) commands.push({ case: `chart ${c.name}`, tool: 'helm', cmd: helm, args: ['template', c.dir] });
    }
    // one untimed run of each first: the page cache holds every file before a round is timed
    for (const c of commands) {
      log(`cold: warm-up ${c.tool} ${c.case}`);
      once(c.cmd, c.args, scratch);
      got.push([]);
    }
    for (let r = 0; r < runs; r++) {
      log(`cold: round ${r + 1}/${runs}`);
      for (const [i, c] of commands.entries()) got[i].push(once(c.cmd, c.args, scratch));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return commands.map((c, i) => ({ case: c.case, tool: c.tool, ms: median(got[i].map((x) => x.ms)), cpuMs: median(got[i].map((x) => x.cpuMs)), mib: median(got[i].map((x) => x.mib)) }));
}

const f0 = (x) => (x === undefined ? '-' : x.toFixed(0));

/** The rows as a table, with each goal of the cold start checked where its reference ran. */
export function coldTable(rows) {
  const floor = rows.find((r) => r.case === 'node -e 0');
  const goal = (r) => {
    if (r.tool !== 'sidecar-render' || r.cpuMs === undefined || !floor) return '';
    const over = Math.round(r.cpuMs - floor.cpuMs);
    if (r.case === '--help' || r.case === 'version') return `CPU <= node + 20 ms: ${over <= 20 ? 'met' : `not met (+${over})`}`;
    if (r.case.startsWith('render')) return `CPU <= node + 50 ms: ${over <= 50 ? 'met' : `not met (+${over})`}`;
    const h = rows.find((x) => x.case === r.case && x.tool === 'helm');
    if (!h) return 'no Helm to compare';
    return `CPU <= Helm: ${r.cpuMs <= h.cpuMs ? 'met' : `not met (${(r.cpuMs / h.cpuMs).toFixed(1)}x)`}; RSS <= 1.5x Helm: ${r.mib <= 1.5 * h.mib ? 'met' : `not met (${(r.mib / h.mib).toFixed(1)}x)`}`;
  };
  const head = ['case', 'tool', 'wall ms', 'CPU ms', 'peak RSS MiB', 'goal'];
  const body = rows.map((r) => [r.case, r.tool, f0(r.ms), f0(r.cpuMs), f0(r.mib), goal(r)]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(w[i])).join('  ').trimEnd();
  return [line(head), line(w.map((n) => '-'.repeat(n))), ...body.map(line)].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 9);
  console.log(coldTable(runCold({ runs, log: (m) => console.error(`bench: ${m}`) })));
}
