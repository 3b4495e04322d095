// Instructions executed per phase of a cold `render` (bench/lib/cold-phases.js), counted by valgrind's
// callgrind, which unlike a timer does not move with the machine's load: one process per prefix of the
// phases (COLD_PHASES_STOP), each phase's count the difference of two prefixes. V8 runs on the main
// thread alone (--single-threaded) so that compiler and collector threads do not add their own counts;
// what remains varies by about 5 million instructions from one process to the next.
//   node bench/lib/cold-count.js CONFIGMAP_A CONFIGMAP_B MESH WORKLOADS [--json]
// prints, per phase, the millions of instructions for A and for B and the difference.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PHASES = ['modules', 'configmap YAML', 'data.config', 'data.values', 'detect', 'mesh', 'template parse', 'exec', 'output'];

const script = join(dirname(fileURLToPath(import.meta.url)), 'cold-phases.js');

/** Whether valgrind can be run here. */
export function haveValgrind() {
  return spawnSync('valgrind', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** Instructions of one process stopping after `stop` (undefined: the whole run). */
function count(configMap, mesh, workloads, stop) {
  const env = { ...process.env };
  if (stop) env.COLD_PHASES_STOP = stop;
  else delete env.COLD_PHASES_STOP;
  const p = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--single-threaded', script, configMap, mesh, workloads], { encoding: 'utf8', env, maxBuffer: 16 << 20 });
  const m = /refs:\s+([\d,]+)/.exec(p.stderr ?? '');
  if (p.status !== 0 || !m) throw new Error(`callgrind failed: ${(p.stderr || p.error?.message || '').trim().split('\n').pop()}`);
  return Number(m[1].replaceAll(',', ''));
}

/** Per phase: instructions of A and of B (prefixes interleaved, so a change on the machine hits both alike). */
export function phaseCounts(a, b, mesh, workloads) {
  const cum = { a: [], b: [] };
  for (const stop of [...PHASES.slice(0, -1), undefined]) {
    cum.a.push(count(a, mesh, workloads, stop));
    cum.b.push(count(b, mesh, workloads, stop));
  }
  return PHASES.map((phase, i) => ({
    phase,
    a: cum.a[i] - (i > 0 ? cum.a[i - 1] : 0),
    b: cum.b[i] - (i > 0 ? cum.b[i - 1] : 0),
  })).concat([{ phase: 'total', a: cum.a[cum.a.length - 1], b: cum.b[cum.b.length - 1] }]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [a, b, mesh, workloads, json] = process.argv.slice(2);
  if (!a || !b || !mesh || !workloads) {
    process.stderr.write('usage: node bench/lib/cold-count.js CONFIGMAP_A CONFIGMAP_B MESH WORKLOADS [--json]\n');
    process.exit(2);
  }
  if (!haveValgrind()) {
    process.stderr.write('cold-count: valgrind not found\n');
    process.exit(2);
  }
  const rows = phaseCounts(a, b, mesh, workloads);
  if (json === '--json') process.stdout.write(`${JSON.stringify(rows)}\n`);
  else for (const r of rows) process.stdout.write(`${r.phase.padEnd(16)} ${(r.a / 1e6).toFixed(1).padStart(8)} ${(r.b / 1e6).toFixed(1).padStart(8)} ${((r.a - r.b) / 1e6).toFixed(1).padStart(8)}\n`);
}
