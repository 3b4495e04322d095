#!/usr/bin/env node
// `chart` against a real Helm on other projects' charts, outside `npm test`.
//
//   node tools/chart-corpus.mjs prepare CORPUS NAME=SOURCE[@REF] ...
//       Copy every chart of each source (a git directory, bare or not, read at REF, default HEAD; or a
//       plain folder) into CORPUS/NAME/. A dependency missing from a chart's charts/ is filled from a
//       `file://` path or, failing that, from a chart of the same source with that name and a version
//       the range accepts (what `helm dependency build` would fetch, built from the same sources); a
//       chart whose dependencies can only come from a chart repository is left out, and
//       CORPUS/skipped.json says which and why.
//   node tools/chart-corpus.mjs run CORPUS [--only REGEX] [--refresh] [--json FILE]
//       Run each case through `helm template` (twice: lines that differ between Helm's own two runs are
//       random, genCA or randAlphaNum, and are set aside) and through `sidecar-render chart` (dist/, so
//       build first), and compare. Helm's answers are kept in CORPUS/.helm/ (--refresh runs Helm again).
//       Prints a table per repository; --json writes every case's outcome.
//
// Cases per chart: its default values; each ci/*.yaml values file; --kube-version 1.25.0 with two extra
// API versions; every `*.enabled: false` of values.yaml (two levels deep) set true; --show-only of its
// first template; --is-upgrade --no-hooks; --include-crds when it has crds/. Release "corpus", namespace
// "corpus-ns". Helm from $HELM, else `helm` on PATH; it must be v3.17.1.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HELM_VERSION = 'v3.17.1';
const RELEASE = ['corpus', '-n', 'corpus-ns'];

function usage() {
  console.error('usage: chart-corpus.mjs prepare CORPUS NAME=SOURCE[@REF]... | run CORPUS [--only REGEX] [--refresh] [--json FILE]');
  process.exit(2);
}

function yamlOf(text) {
  try {
    return parse(text, { uniqueKeys: false, logLevel: 'silent' });
  } catch {
    return undefined;
  }
}

// ---------- prepare ----------

/** Every file of a source, as {path → Buffer}. */
function sourceFiles(source) {
  const at = source.lastIndexOf('@');
  const where = at > 0 ? source.slice(0, at) : source;
  const ref = at > 0 ? source.slice(at + 1) : 'HEAD';
  const files = new Map();
  const isGit = existsSync(join(where, 'HEAD')) || existsSync(join(where, '.git'));
  if (isGit) {
    // blob by blob: a snapshot may lack some (large) objects, which are simply not there
    const gitDir = existsSync(join(where, '.git')) ? join(where, '.git') : where;
    const ls = spawnSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', ref], { maxBuffer: 2 ** 30, encoding: 'utf8' });
    if (ls.status !== 0) throw new Error(`git ls-tree ${where}@${ref}: ${ls.stderr}`);
    const entries = ls.stdout
      .split('\0')
      .filter((l) => l !== '')
      .map((l) => {
        const tab = l.indexOf('\t');
        const [mode, type, sha] = l.slice(0, tab).split(' ');
        return { mode, type, sha, path: l.slice(tab + 1) };
      })
      .filter((e) => e.type === 'blob' && e.mode !== '120000');
    const cat = spawnSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { input: entries.map((e) => e.sha).join('\n') + '\n', maxBuffer: 2 ** 31 });
    const buf = cat.stdout;
    let pos = 0;
    for (const e of entries) {
      const nl = buf.indexOf(10, pos);
      const head = buf.subarray(pos, nl).toString('utf8').split(' ');
      pos = nl + 1;
      if (head[1] === 'missing') continue;
      const size = Number(head[2]);
      files.set(e.path, Buffer.from(buf.subarray(pos, pos + size)));
      pos += size + 1;
    }
  } else walkFiles(where, '', files);
  return files;
}

function walkFiles(abs, rel, out) {
  for (const n of readdirSync(abs)) {
    if (n === '.git') continue;
    const p = join(abs, n);
    const r = rel ? `${rel}/${n}` : n;
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) walkFiles(p, r, out);
    else if (st.isFile()) out.set(r, readFileSync(p));
  }
}

/** Chart directories and archives of a source: a Chart.yaml not inside another chart's charts/. */
function chartsOf(files) {
  const dirs = [...files.keys()].filter((p) => p === 'Chart.yaml' || p.endsWith('/Chart.yaml')).map((p) => posix.dirname(p));
  const top = dirs.filter((d) => {
    const m = /^(?:(.*)\/)?charts\/[^/]+$/.exec(d);
    return !m || !dirs.includes(m[1] ?? '.');
  });
  const archives = [...files.keys()].filter((p) => p.endsWith('.tgz') && !/(^|\/)charts\/[^/]+\.tgz$/.test(p) && /testcharts\//.test(p));
  return { dirs: top.sort(), archives: archives.sort() };
}

function metaOf(files, dir) {
  const m = yamlOf(files.get(dir === '.' ? 'Chart.yaml' : `${dir}/Chart.yaml`)?.toString('utf8') ?? '');
  return m && typeof m === 'object' ? m : {};
}

/** The names of the charts in a charts/ folder: a directory's Chart.yaml name, an archive's file name. */
function presentNames(dir) {
  const names = new Set();
  if (!existsSync(dir)) return names;
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (n.endsWith('.tgz')) names.add(n.replace(/-v?\d+\.\d+\.\d+.*\.tgz$/, ''));
    else if (existsSync(join(p, 'Chart.yaml'))) {
      const m = yamlOf(readFileSync(join(p, 'Chart.yaml'), 'utf8'));
      if (m && typeof m.name === 'string') names.add(m.name);
      names.add(n);
    }
  }
  return names;
}

async function prepare(corpus, sources) {
  const { isCompatibleRange } = await import(join(root, 'dist/sprig/semver.js'));
  mkdirSync(corpus, { recursive: true });
  const skippedFile = join(corpus, 'skipped.json');
  const skipped = existsSync(skippedFile) ? JSON.parse(readFileSync(skippedFile, 'utf8')) : {};
  for (const s of sources) {
    const eq = s.indexOf('=');
    if (eq <= 0) usage();
    const name = s.slice(0, eq);
    const files = sourceFiles(s.slice(eq + 1));
    const { dirs, archives } = chartsOf(files);
    const byName = new Map();
    for (const d of dirs) {
      const m = metaOf(files, d);
      if (typeof m.name === 'string') (byName.get(m.name) ?? byName.set(m.name, []).get(m.name)).push({ dir: d, version: String(m.version ?? '') });
    }
    const out = join(corpus, name);
    rmSync(out, { recursive: true, force: true });
    skipped[name] = [];
    const copyDir = (from, to) => {
      const prefix = from === '.' ? '' : `${from}/`;
      for (const [p, data] of files) {
        if (!p.startsWith(prefix)) continue;
        const dest = join(to, p.slice(prefix.length));
        mkdirSync(dirname(dest), { recursive: true });
        writeFileSync(dest, data);
      }
    };
    /** Fill dest/charts/ with what dir's Chart.yaml (or requirements.yaml) lists; a reason when it cannot. */
    const fill = (dir, dest, depth) => {
      if (depth > 8) return 'dependencies nest too deep';
      const m = metaOf(files, dir);
      let deps = Array.isArray(m.dependencies) ? m.dependencies : [];
      if (deps.length === 0 && m.apiVersion === 'v1') {
        const r = yamlOf(files.get(`${dir}/requirements.yaml`)?.toString('utf8') ?? '');
        if (r && Array.isArray(r.dependencies)) deps = r.dependencies;
      }
      for (const d of deps) {
        if (!d || typeof d.name !== 'string') continue;
        const have = presentNames(join(dest, 'charts')).has(d.name);
        if (have) continue;
        const repo = typeof d.repository === 'string' ? d.repository : '';
        let from;
        if (repo.startsWith('file://')) {
          from = posix.normalize(posix.join(dir, repo.slice('file://'.length)));
          if (!files.has(`${from}/Chart.yaml`)) return `dependency ${d.name}: ${repo} is not in the source`;
        } else {
          const found = (byName.get(d.name) ?? []).find((c) => !d.version || isCompatibleRange(String(d.version), c.version));
          if (!found) return `dependency ${d.name} ${d.version ?? ''} comes from ${repo || 'a chart repository'}`;
          from = found.dir;
        }
        const target = join(dest, 'charts', d.name);
        copyDir(from, target);
        const why = fill(from, target, depth + 1);
        if (why) return why;
      }
      return undefined;
    };
    let n = 0;
    for (const d of dirs) {
      const dest = join(out, d === '.' ? basename(s.slice(eq + 1).replace(/@.*$/, '')) : d.split('/').join('__'));
      copyDir(d, dest);
      const why = fill(d, dest, 0);
      if (why) {
        skipped[name].push({ chart: d, reason: why });
        rmSync(dest, { recursive: true, force: true });
      } else n++;
    }
    for (const a of archives) {
      const dest = join(out, a.split('/').join('__'));
      mkdirSync(dirname(dest), { recursive: true });
      writeFileSync(dest, files.get(a));
      n++;
    }
    console.log(`${name}: ${n} charts, ${skipped[name].length} left out`);
  }
  writeFileSync(skippedFile, JSON.stringify(skipped, null, 2) + '\n');
}

// ---------- cases ----------

function valuesOf(chartDir) {
  const v = yamlOf(existsSync(join(chartDir, 'values.yaml')) ? readFileSync(join(chartDir, 'values.yaml'), 'utf8') : '');
  return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

function firstTemplate(chartDir) {
  const t = join(chartDir, 'templates');
  if (!existsSync(t)) return undefined;
  const names = readdirSync(t)
    .filter((n) => !n.startsWith('_') && /\.(ya?ml|json)$/.test(n) && statSync(join(t, n)).isFile())
    .sort();
  return names.length > 0 ? `templates/${names[0]}` : undefined;
}

function casesOf(repo, chartPath) {
  const id = `${repo}/${basename(chartPath)}`;
  const cases = [{ id: `${id}#default`, args: [] }];
  if (chartPath.endsWith('.tgz')) return cases;
  const ci = join(chartPath, 'ci');
  if (existsSync(ci)) {
    for (const f of readdirSync(ci).filter((n) => /\.ya?ml$/.test(n)).sort()) cases.push({ id: `${id}#ci/${f}`, args: ['-f', join(ci, f)] });
  }
  cases.push({ id: `${id}#kube-1.25`, args: ['--kube-version', '1.25.0', '-a', 'monitoring.coreos.com/v1', '-a', 'policy/v1beta1/PodSecurityPolicy'] });
  const v = valuesOf(chartPath);
  const on = [];
  for (const [k, x] of Object.entries(v)) {
    if (x && typeof x === 'object' && !Array.isArray(x)) {
      if (x.enabled === false) on.push([k]);
      for (const [k2, y] of Object.entries(x)) if (y && typeof y === 'object' && !Array.isArray(y) && y.enabled === false) on.push([k, k2]);
    }
  }
  const key = (s) => s.replace(/[.[\],=\\]/g, '\\$&');
  if (on.length > 0) cases.push({ id: `${id}#enabled`, args: on.flatMap((p) => ['--set', `${p.map(key).join('.')}.enabled=true`]) });
  const t = firstTemplate(chartPath);
  if (t) cases.push({ id: `${id}#show-only`, args: ['-s', t] });
  cases.push({ id: `${id}#upgrade`, args: ['--is-upgrade', '--no-hooks', '--set', 'fullnameOverride=corpus-full'] });
  if (existsSync(join(chartPath, 'crds'))) cases.push({ id: `${id}#crds`, args: ['--include-crds'] });
  return cases;
}

// ---------- run ----------

const helmEnv = (home) => ({
  PATH: process.env.PATH,
  HOME: home,
  HELM_CACHE_HOME: join(home, '.cache'),
  HELM_CONFIG_HOME: join(home, '.config'),
  HELM_DATA_HOME: join(home, '.data'),
  KUBECONFIG: join(home, 'no-kubeconfig'),
});

function runHelm(helm, home, chart, args) {
  const r = spawnSync(helm, ['template', ...RELEASE, chart, ...args], { env: helmEnv(home), encoding: 'utf8', timeout: 120_000, maxBuffer: 2 ** 30 });
  return { exit: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

async function runOurs(main, chart, args) {
  let stdout = '';
  let stderr = '';
  const ow = process.stdout.write;
  const ew = process.stderr.write;
  const text = (c) => (typeof c === 'string' ? c : Buffer.from(c).toString());
  process.stdout.write = (c) => ((stdout += text(c)), true);
  process.stderr.write = (c) => ((stderr += text(c)), true);
  let exit;
  try {
    exit = await main(['node', 'sidecar-render', 'chart', ...RELEASE, chart, ...args]);
  } catch (e) {
    exit = -1;
    stderr += `crash: ${e?.stack ?? e}`;
  } finally {
    process.stdout.write = ow;
    process.stderr.write = ew;
    process.exitCode = undefined;
  }
  return { exit, stdout, stderr };
}

/** Lines of a that b has otherwise: Helm's random lines (same line count), else undefined. */
function randomLines(a, b) {
  if (a === b) return new Set();
  const la = a.split('\n');
  const lb = b.split('\n');
  if (la.length !== lb.length) return undefined;
  const s = new Set();
  for (let i = 0; i < la.length; i++) if (la[i] !== lb[i]) s.add(i);
  return s;
}

function sameAside(ours, helm, random) {
  if (ours === helm) return true;
  if (!random || random.size === 0) return false;
  const lo = ours.split('\n');
  const lh = helm.split('\n');
  if (lo.length !== lh.length) return false;
  for (let i = 0; i < lh.length; i++) if (!random.has(i) && lo[i] !== lh[i]) return false;
  return true;
}

/** Helm's message without its "Error: " and debug hint, and the words of it that name the cause. */
function helmCause(stderr) {
  const lines = stderr.split('\n').filter((l) => l.startsWith('Error: '));
  const msg = (lines[lines.length - 1] ?? stderr.trim().split('\n').pop() ?? '').replace(/^Error: /, '');
  return msg;
}

function firstDiff(a, b) {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return { line: i + 1, helm: lb[i] ?? '<end>', ours: la[i] ?? '<end>' };
  }
  return undefined;
}

async function run(corpus, opts) {
  const helm = process.env.HELM ?? 'helm';
  const v = spawnSync(helm, ['version', '--template', '{{ .Version }}'], { encoding: 'utf8' });
  if (v.status !== 0 || v.stdout.trim() !== HELM_VERSION) {
    console.error(`chart-corpus: need Helm ${HELM_VERSION} ($HELM or helm on PATH; tools/get-helm.sh fetches it)`);
    process.exit(2);
  }
  const { main } = await import(join(root, 'dist/cli/index.js'));
  const home = mkdtempSync(join(tmpdir(), 'chart-corpus-helm-'));
  const cacheDir = join(corpus, '.helm');
  mkdirSync(cacheDir, { recursive: true });
  const only = opts.only ? new RegExp(opts.only) : undefined;
  const results = [];
  const repos = readdirSync(corpus).filter((n) => !n.startsWith('.') && statSync(join(corpus, n)).isDirectory()).sort();
  for (const repo of repos) {
    for (const c of readdirSync(join(corpus, repo)).sort()) {
      const chart = join(corpus, repo, c);
      for (const k of casesOf(repo, chart)) {
        if (only && !only.test(k.id)) continue;
        const key = createHash('sha256').update(k.id + '\0' + k.args.join('\0')).digest('hex').slice(0, 24);
        const cached = join(cacheDir, `${key}.json`);
        let h;
        if (!opts.refresh && existsSync(cached)) h = JSON.parse(readFileSync(cached, 'utf8'));
        else {
          const a = runHelm(helm, home, chart, k.args);
          const b = a.exit === 0 ? runHelm(helm, home, chart, k.args) : a;
          h = { ...a, second: b.stdout };
          writeFileSync(cached, JSON.stringify(h));
        }
        const o = await runOurs(main, chart, k.args);
        const r = { id: k.id, repo, args: k.args, helmExit: h.exit, oursExit: o.exit };
        if (h.exit === 0) {
          const random = randomLines(h.stdout, h.second);
          if (o.exit !== 0) Object.assign(r, { outcome: 'fails-here', ours: o.stderr.trim() });
          else if (sameAside(o.stdout, h.stdout, random)) Object.assign(r, { outcome: 'equal', randomLines: random ? random.size : 'all' });
          else Object.assign(r, { outcome: 'differs', diff: firstDiff(o.stdout, h.stdout) });
        } else {
          const cause = helmCause(h.stderr);
          if (o.exit === 0) Object.assign(r, { outcome: 'renders-here', helm: cause });
          else Object.assign(r, { outcome: 'both-fail', helm: cause, ours: o.stderr.trim() });
        }
        results.push(r);
        if (r.outcome !== 'equal' && r.outcome !== 'both-fail') console.error(`${r.outcome}: ${r.id} ${k.args.join(' ')}\n  ${JSON.stringify(r.diff ?? r.ours ?? r.helm)}`);
      }
    }
  }
  rmSync(home, { recursive: true, force: true });
  if (opts.json) writeFileSync(opts.json, JSON.stringify(results, null, 2) + '\n');
  const table = new Map();
  for (const r of results) {
    const t = table.get(r.repo) ?? table.set(r.repo, { cases: 0, helmRenders: 0, equal: 0, differs: 0, failsHere: 0, bothFail: 0, rendersHere: 0 }).get(r.repo);
    t.cases++;
    if (r.helmExit === 0) t.helmRenders++;
    if (r.outcome === 'equal') t.equal++;
    if (r.outcome === 'differs') t.differs++;
    if (r.outcome === 'fails-here') t.failsHere++;
    if (r.outcome === 'both-fail') t.bothFail++;
    if (r.outcome === 'renders-here') t.rendersHere++;
  }
  const total = { cases: 0, helmRenders: 0, equal: 0, differs: 0, failsHere: 0, bothFail: 0, rendersHere: 0 };
  console.log('| repository | cases | Helm renders | equal | differ | fail in chart only | Helm fails | chart renders where Helm fails |');
  console.log('| --- | --: | --: | --: | --: | --: | --: | --: |');
  for (const [repo, t] of table) {
    for (const k of Object.keys(total)) total[k] += t[k];
    console.log(`| ${repo} | ${t.cases} | ${t.helmRenders} | ${t.equal} | ${t.differs} | ${t.failsHere} | ${t.bothFail + t.rendersHere} | ${t.rendersHere} |`);
  }
  const t = total;
  console.log(`| all | ${t.cases} | ${t.helmRenders} | ${t.equal} | ${t.differs} | ${t.failsHere} | ${t.bothFail + t.rendersHere} | ${t.rendersHere} |`);
  console.log(`equal on ${t.helmRenders === 0 ? 0 : ((100 * t.equal) / t.helmRenders).toFixed(1)}% of the ${t.helmRenders} cases Helm renders`);
}

const [cmd, corpus, ...rest] = process.argv.slice(2);
if (!cmd || !corpus) usage();
if (cmd === 'prepare') await prepare(resolve(corpus), rest);
else if (cmd === 'run') {
  const opts = {};
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--only') opts.only = rest[++i];
    else if (rest[i] === '--refresh') opts.refresh = true;
    else if (rest[i] === '--json') opts.json = rest[++i];
    else usage();
  }
  await run(resolve(corpus), opts);
} else usage();
