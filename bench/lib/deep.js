// The deep cases (test/hardening/deep-go.json) at the depths Go allows, as cold processes: sidecar-render
// `template --batch` against tools/gorender, one case line each, so that the TypeScript side pays what a
// user pays (start-up, the first run on the default stack, the second on the big stack). Wall time, CPU
// time (all threads) and peak RSS come from /usr/bin/time when it is there (else wall time alone).
//
//   node bench/lib/deep.js [--runs=N] [--only=SUBSTRING] [--go=PATH] [--bin=PATH]

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expandDeepCases } from '../../tools/deep-cases.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

// deep-go.json's cases, each as deep as Go runs it: 100,000 levels of template nesting; data 9,999 deep
// (encoding/json refuses a case line nested past 10,000, and the data sits inside the line); toYaml of a
// map 5,000 deep (9,999 would be 100 MB of text, past the per-value limit of this project).
export const DEEP_CASES = [
  { name: 'parentheses 100000', template: ['{{', ['(', 100000], '1', [')', 100000], '}}'] },
  { name: 'if 100000', template: [['{{if 1}}', 100000], 'x', ['{{end}}', 100000]] },
  { name: 'with 100000', template: [['{{with 1}}', 100000], 'y', ['{{end}}', 100000]] },
  { name: 'else if 100000', template: ['{{if 0}}', ['{{else if 0}}', 100000], '{{else}}z{{end}}'] },
  { name: 'range 100000', template: [['{{range (list 1)}}', 100000], 'r', ['{{end}}', 100000]], funcs: 'sprig' },
  { name: 'template 100000 deep in if', template: [['{{if 1}}', 100000], '{{template "t" .}}', ['{{end}}', 100000], '{{define "t"}}d{{end}}'] },
  { name: 'template recursion 99999', template: '{{define "a"}}{{if gt . 0}}{{template "a" (sub . 1)}}{{else}}done{{end}}{{end}}{{template "a" .}}', data: 99999, dataInt: true, funcs: 'sprig' },
  { name: "template recursion past Go's limit", template: '{{define "a"}}{{template "a" .}}{{end}}{{template "a" .}}' },
  { name: 'print list 9999', template: '{{print . | sha256sum}}', data: { $list: 9999, leaf: 1 }, funcs: 'helm' },
  { name: 'toJson list 9999', template: '{{toJson . | sha256sum}}', data: { $list: 9999, leaf: 1 }, funcs: 'helm' },
  { name: 'toYaml list 9999', template: '{{toYaml . | sha256sum}}', data: { $list: 9999, leaf: 1 }, funcs: 'helm' },
  { name: 'printf %#v list 9999', template: '{{printf "%#v" . | sha256sum}}', data: { $list: 9999, leaf: 'x' }, funcs: 'helm' },
  { name: 'eq list 9999', template: '{{eq . .}}', data: { $list: 9999, leaf: 1 }, funcs: 'helm' },
  { name: 'print map 9999', template: '{{print . | sha256sum}}', data: { $map: 9999, key: 'a', leaf: 'x' }, funcs: 'helm' },
  { name: 'toYaml map 5000', template: '{{toYaml . | sha256sum}}', data: { $map: 5000, key: 'a', leaf: 'x' }, funcs: 'helm' },
  { name: 'deepCopy map 9999', template: '{{deepCopy . | toJson | sha256sum}}', data: { $map: 9999, key: 'a', leaf: 'x' }, funcs: 'helm' },
  { name: 'fromYaml of toYaml map 5000', template: '{{$y := toYaml .}}{{fromYaml $y | toJson | sha256sum}}', data: { $map: 5000, key: 'a', leaf: 'x' }, funcs: 'helm' },
  { name: 'fromJson map 9999', template: '{{$j := toJson .}}{{fromJson $j | len}}', data: { $map: 9999, key: 'a', leaf: 'x' }, funcs: 'helm' },
  { name: 'fromYamlArray 10000', template: '{{$s := print (repeat 10000 "[") (repeat 10000 "]")}}{{fromYamlArray $s | len}}', funcs: 'helm' },
];

const TIME = '/usr/bin/time';

/** One cold process fed one case line: { ms, cpuMs, mib, out } (cpuMs and mib need /usr/bin/time). */
function measure(cmd, args, line, scratch) {
  const usage = join(scratch, 'usage.txt');
  const timed = existsSync(TIME);
  const start = process.hrtime.bigint();
  const p = timed
    ? spawnSync(TIME, ['-f', '%U %S %M', '-o', usage, cmd, ...args], { input: line + '\n', encoding: 'utf8', maxBuffer: 256 << 20 })
    : spawnSync(cmd, args, { input: line + '\n', encoding: 'utf8', maxBuffer: 256 << 20 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (p.status !== 0) throw new Error(`${cmd} exited ${p.status}: ${(p.stderr ?? '').split('\n')[0]}`);
  const r = { ms, out: p.stdout.trim() };
  if (timed) {
    const [u, s, k] = readFileSync(usage, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    r.cpuMs = (u + s) * 1000;
    r.mib = k / 1024;
  }
  return r;
}

const best = (rs, k) => (rs[0][k] === undefined ? undefined : Math.min(...rs.map((r) => r[k])));

/**
 * Every case, TypeScript and Go taking turns `runs` times; the least of each figure counts. go: the
 * gorender binary, or undefined for TypeScript alone. bin: bin/sidecar-render.cjs (or a stand-in).
 */
export function runDeep({ go, bin = join(root, 'bin', 'sidecar-render.cjs'), runs = 1, only, log = () => {} } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'sidecar-render-deep-'));
  try {
    const cases = DEEP_CASES.filter((c) => !only || c.name.includes(only));
    const lines = expandDeepCases(cases);
    return cases.map((c, i) => {
      const ts = [];
      const gs = [];
      for (let r = 0; r < runs; r++) {
        log(`deep: ${c.name}, run ${r + 1}/${runs}`);
        ts.push(measure(process.execPath, [bin, 'template', '--batch'], lines[i], scratch));
        if (go) gs.push(measure(go, [], lines[i], scratch));
      }
      const row = { name: c.name, ts: { ms: best(ts, 'ms'), cpuMs: best(ts, 'cpuMs'), mib: best(ts, 'mib') } };
      if (go) {
        row.go = { ms: best(gs, 'ms'), cpuMs: best(gs, 'cpuMs'), mib: best(gs, 'mib') };
        row.same = ts[0].out === gs[0].out;
        if (!row.same) row.note = `ours ${ts[0].out.slice(0, 160)}`;
      }
      return row;
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function deepTable(rows) {
  const f = (x, d = 0) => (x === undefined ? '-' : x.toFixed(d));
  const ratio = (a, b) => (a === undefined || b === undefined ? '-' : (a / b).toFixed(2));
  const out = [['case', 'TS wall ms', 'TS CPU ms', 'TS MiB', 'Go wall ms', 'Go CPU ms', 'Go MiB', 'CPU TS/Go', 'MiB TS/Go', 'same output']];
  for (const r of rows) out.push([r.name, f(r.ts.ms), f(r.ts.cpuMs), f(r.ts.mib), f(r.go?.ms), f(r.go?.cpuMs), f(r.go?.mib), ratio(r.ts.cpuMs, r.go?.cpuMs), ratio(r.ts.mib, r.go?.mib), r.go ? (r.same ? 'yes' : 'NO') : '-']);
  const w = out[0].map((_, i) => Math.max(...out.map((row) => row[i].length)));
  const lines = out.map((row) => row.map((c, j) => (j === 0 ? c.padEnd(w[j]) : c.padStart(w[j]))).join('  '));
  lines.splice(1, 0, w.map((n) => '-'.repeat(n)).join('  '));
  for (const r of rows) if (r.note) lines.push(`${r.name}: ${r.note}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const opt = (name) => process.argv.slice(2).find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const go = opt('go') ?? (existsSync(join(root, 'tools', 'gorender', 'gorender')) ? join(root, 'tools', 'gorender', 'gorender') : undefined);
  const rows = runDeep({ go, bin: opt('bin'), runs: Number(opt('runs') ?? 1), only: opt('only'), log: (m) => console.error(m) });
  console.log(deepTable(rows));
  if (opt('json')) writeFileSync(opt('json'), JSON.stringify(rows, null, 2) + '\n');
}
