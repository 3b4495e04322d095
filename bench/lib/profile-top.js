// Summarise a V8 .cpuprofile (node --cpu-prof): the functions with the most self time, and the most
// total (inclusive) time.   node bench/lib/profile-top.js FILE.cpuprofile [N]
import { readFileSync } from 'node:fs';

const [file, nArg] = process.argv.slice(2);
const n = Number(nArg ?? 25);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((x) => [x.id, x]));
const parent = new Map();
for (const x of prof.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = dt.reduce((a, b) => a + b, 0);
const key = (x) => {
  const f = x.callFrame;
  const url = f.url.replace(/^.*\/(dist|node_modules)\//, '$1/');
  return `${f.functionName || '(anonymous)'} ${url}:${f.lineNumber + 1}`;
};
const selfBy = new Map();
const inclBy = new Map();
for (const [id, t] of self) {
  const x = byId.get(id);
  selfBy.set(key(x), (selfBy.get(key(x)) ?? 0) + t);
  // inclusive: count each distinct function once per sample stack
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    inclBy.set(k, (inclBy.get(k) ?? 0) + t);
  }
}
const show = (title, m) => {
  console.log(title);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`);
};
show('self time', selfBy);
show('\ntotal time', inclBy);

// self time per file: which stage (engine, fmt, functions, yaml) the time goes to
const byFile = new Map();
for (const [id, t] of self) {
  const f = byId.get(id).callFrame;
  const k = f.url ? f.url.replace(/^.*\/(dist|node_modules)\//, '$1/') : f.functionName;
  byFile.set(k, (byFile.get(k) ?? 0) + t);
}
show('\nself time per file', byFile);
