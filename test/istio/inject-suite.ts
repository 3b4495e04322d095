// Istio's own injection test suite (pkg/kube/inject: inject_test.go and testdata/) run through
// `render --merged --mode kube-inject`. The case table is read from the Go source at test time, so any
// release's copy of the suite can be pointed at; only what each case sets is interpreted here: values
// (already Helm-rendered into testdata/inputs), mesh edits, and istiod's environment.

import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, parse } from 'yaml';
import { type NativeSidecarsMode } from '../../src/istio/inject.js';
import { renderRequest } from '../../src/output/render.js';

export interface InjectCase {
  /** Position in the table (names the case's own inputs: `<in>.<index>.*.gen.yaml`). */
  index: number;
  /** The kubelet version of the nodes the test gives istiod (what `auto` native sidecars read). */
  kubeVersion?: string;
  in: string;
  want: string;
  ownSettings: boolean;
  meshBody?: string;
  setupBody?: string;
  skipInjection: boolean;
  expectedError?: string;
  expectedLog?: string;
}

/** The body between the brace at `open` and its match, skipping Go strings and comments. */
function braced(src: string, open: number): string {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i]!;
    if (c === '"' || c === '`') {
      const end = c === '`' ? src.indexOf('`', i + 1) : (() => {
        let j = i + 1;
        while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
        return j;
      })();
      i = end;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      i = src.indexOf('\n', i);
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return src.slice(open + 1, i);
  }
  throw new Error('unbalanced braces in inject_test.go');
}

function goString(s: string): string {
  return s.startsWith('`') ? s.slice(1, -1) : (JSON.parse(s) as string);
}

function fieldBody(entry: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}:\\s*func\\([^)]*\\)\\s*\\{`).exec(entry);
  return m ? braced(entry, m.index + m[0].length - 1) : undefined;
}

/** TestInjection's table, then (as the test does) every other `*.yaml` input of testdata/inject. */
export function readInjectCases(suite: string): InjectCase[] {
  const src = readFileSync(join(suite, 'inject_test.go'), 'utf8');
  const fn = src.indexOf('func TestInjection(');
  const start = src.indexOf('cases := []testCase{', fn);
  if (fn < 0 || start < 0) throw new Error(`${suite}/inject_test.go: no TestInjection case table`);
  const table = braced(src, src.indexOf('{', start + 'cases := []testCase'.length));
  // nodes declared before the table (from 1.28): their oldest kubelet version
  const kubelets = [...src.slice(fn, start).matchAll(/KubeletVersion:\s*"v?(\d+)\.(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
  kubelets.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const kubeVersion = kubelets.length ? `${kubelets[0]![0]}.${kubelets[0]![1]}` : undefined;
  const cases: InjectCase[] = [];
  for (let i = 0; i < table.length; i++) {
    if (table[i] !== '{') continue;
    const entry = braced(table, i);
    i += entry.length + 1;
    const str = (name: string) => {
      const m = new RegExp(`\\b${name}:\\s*("(?:[^"\\\\]|\\\\.)*"|\`[^\`]*\`)`).exec(entry);
      return m ? goString(m[1]!) : undefined;
    };
    const input = str('in')!;
    const c: InjectCase = {
      ...(kubeVersion ? { kubeVersion } : {}),
      index: cases.length,
      in: input,
      want: str('want') ?? `${input}.injected`,
      ownSettings: /\bsetFlags:/.test(entry) || /\binFilePath:/.test(entry),
      skipInjection: /\bskipInjection:\s*true/.test(entry),
    };
    const meshBody = fieldBody(entry, 'mesh');
    const setupBody = fieldBody(entry, 'setup');
    const err = str('expectedError');
    const log = str('expectedLog');
    if (meshBody !== undefined) c.meshBody = meshBody;
    if (setupBody !== undefined) c.setupBody = setupBody;
    if (err !== undefined) c.expectedError = err;
    if (log !== undefined) c.expectedLog = log;
    cases.push(c);
  }
  const tested = new Set(cases.map((c) => c.want));
  for (const f of readdirSync(join(suite, 'testdata/inject')).sort()) {
    if (f.endsWith('.iop.yaml') || !f.endsWith('.yaml')) continue;
    if (tested.has(`${f}.injected`)) continue;
    cases.push({ ...(kubeVersion ? { kubeVersion } : {}), index: cases.length, in: f, want: `${f}.injected`, ownSettings: false, skipInjection: false });
  }
  return cases;
}

// ---------- what a case sets, in render's terms ----------

export interface CaseSettings {
  meshEdits: Array<(mesh: Record<string, unknown>) => void>;
  nativeSidecars?: NativeSidecarsMode;
  /** istiod's environment (`render --env`). */
  env: Record<string, string>;
}

// istiod feature flags a case's setup may set, by Go name: the environment variable behind each.
const FEATURE_ENV: Record<string, string> = {
  EnableLegacyFSGroupInjection: 'ENABLE_LEGACY_FSGROUP_INJECTION',
  RewriteTCPProbes: 'REWRITE_TCP_PROBES',
  CompliancePolicy: 'COMPLIANCE_POLICY',
};

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function at(mesh: Record<string, unknown>, path: string[]): Record<string, unknown> {
  let cur = mesh;
  for (const p of path) {
    if (typeof cur[p] !== 'object' || cur[p] === null) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  return cur;
}

/** A Go expression assigned to a MeshConfig field, as mesh YAML; undefined when not understood. */
function goValue(expr: string): unknown {
  expr = expr.trim().replace(/,$/, '');
  let m = /^meshapi\.\w+?_([A-Z0-9_]+)$/.exec(expr);
  if (m) return /_([A-Z0-9]+)$/.exec(expr)![1];
  m = /^durationpb\.New\(time\.(Second|Millisecond|Minute)\s*\*\s*(\d+)\)$/.exec(expr);
  if (m) return `${m[2]}${m[1] === 'Second' ? 's' : m[1] === 'Minute' ? 'm' : 'ms'}`;
  m = /^&meshapi\.[\w]+\{([\s\S]*)\}$/.exec(expr);
  if (m) {
    const o: Record<string, unknown> = {};
    for (const part of m[1]!.split(/,\s*\n|\n/).map((s) => s.trim()).filter(Boolean)) {
      const kv = /^(\w+):\s*(.+)$/.exec(part);
      if (!kv) return undefined;
      const v = goValue(kv[2]!);
      if (v === undefined) return undefined;
      o[lowerFirst(kv[1]!)] = v;
    }
    return o;
  }
  m = /^("(?:[^"\\]|\\.)*")$/.exec(expr);
  if (m) return JSON.parse(m[1]!);
  if (/^(true|false|\d+)$/.test(expr)) return JSON.parse(expr);
  return undefined;
}

/** The case's mesh function and setup as render settings, or why they cannot be expressed. */
export function caseSettings(c: InjectCase): CaseSettings | { unexpressible: string } {
  const s: CaseSettings = { meshEdits: [], env: {} };
  if (c.meshBody !== undefined) {
    // nil-map guards only make room for the assignment that follows
    const body = c.meshBody.replace(/if\s+m\.[\w.]+\s*==\s*nil\s*\{[\s\S]*?\n\s*\}/g, '');
    const stmts = body.split(/\n(?=\s*m\.)/).map((x) => x.trim()).filter(Boolean);
    for (const st of stmts) {
      const mapSet = /^m\.([\w.]+)\["([^"]+)"\]\s*=\s*(.+)$/s.exec(st);
      const set = /^m\.([\w.]+)\s*=\s*(.+)$/s.exec(st);
      const path = (mapSet ?? set)?.[1]?.split('.').map(lowerFirst);
      const value = mapSet ? goValue(mapSet[3]!) : set ? goValue(set[2]!) : undefined;
      if (!path || value === undefined) return { unexpressible: `mesh edit not understood: ${st.split('\n')[0]}` };
      const key = mapSet ? mapSet[2]! : path.pop()!;
      s.meshEdits.push((mesh) => {
        at(mesh, path)[key] = value;
      });
    }
  }
  if (c.setupBody !== undefined) {
    for (const st of c.setupBody.split('\n').map((x) => x.trim()).filter(Boolean)) {
      const native = /features\.EnableNativeSidecars(?:\.Name)?,\s*(?:"(true|false)"|features\.NativeSidecarMode(Enabled|Disabled))\)/.exec(st);
      const flag = /&(?:\w+\.)?(\w+),\s*("(?:[^"\\]|\\.)*"|true|false)\)/.exec(st);
      const envSet = /SetEnvForTest\(t,\s*"(\w+)",\s*("(?:[^"\\]|\\.)*")\)/.exec(st);
      if (native) s.nativeSidecars = native[1] === 'true' || native[2] === 'Enabled' ? 'true' : 'false';
      else if (envSet) s.env[envSet[1]!] = JSON.parse(envSet[2]!) as string;
      else if (flag && FEATURE_ENV[flag[1]!]) s.env[FEATURE_ENV[flag[1]!]!] = flag[2]!.startsWith('"') ? (JSON.parse(flag[2]!) as string) : flag[2]!;
      else return { unexpressible: `setup not expressible with render's flags: ${st}` };
    }
  }
  return s;
}

// ---------- running ----------

export type CaseStatus = 'bytes' | 'parsed' | 'differs' | 'error-ok' | 'error-missed' | 'unexpressible';

export interface CaseResult {
  c: InjectCase;
  status: CaseStatus;
  detail?: string;
}

function docs(text: string): unknown[] {
  return parseAllDocuments(text).map((d) => d.toJS());
}

function firstDifference(a: string, b: string): string {
  const al = a.split('\n');
  const bl = b.split('\n');
  for (let i = 0; i < Math.max(al.length, bl.length); i++) if (al[i] !== bl[i]) return `line ${i + 1}: got ${JSON.stringify(al[i])}, want ${JSON.stringify(bl[i])}`;
  return '';
}

export function runInjectCase(suite: string, c: InjectCase, scratch: string): CaseResult {
  if (c.skipInjection) return { c, status: 'unexpressible', detail: 'Istio runs this case through its webhook only (no kube-inject golden)' };
  const settings = caseSettings(c);
  if ('unexpressible' in settings) return { c, status: 'unexpressible', detail: settings.unexpressible };
  const inputs = join(suite, 'testdata/inputs');
  const prefix = c.ownSettings ? `${c.in}.${c.index}` : 'default';
  const file = (k: string) => join(inputs, `${prefix}.${k}.gen.yaml`);
  if (!existsSync(file('template'))) return { c, status: 'differs', detail: `no inputs ${prefix}.*.gen.yaml` };
  let mesh = file('mesh');
  if (settings.meshEdits.length) {
    const m = (parse(readFileSync(mesh, 'utf8')) ?? {}) as Record<string, unknown>;
    for (const e of settings.meshEdits) e(m);
    mesh = join(scratch, `${c.index}.mesh.json`);
    writeFileSync(mesh, JSON.stringify(m));
  }
  let text: string;
  let messages: string[];
  try {
    const out = renderRequest({
      template: file('template'),
      values: file('values'),
      mesh,
      workloads: join(suite, 'testdata/inject', c.in),
      merged: true,
      mode: 'kube-inject',
      ...(settings.nativeSidecars ? { nativeSidecars: settings.nativeSidecars } : {}),
      env: settings.env,
      ...(c.kubeVersion ? { kubeVersion: c.kubeVersion } : {}),
    });
    text = out.text;
    messages = out.messages;
    if (out.failed > 0) throw new Error(messages.filter((m) => m.startsWith('error:')).join('; '));
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (c.expectedError !== undefined) {
      return msg.toLowerCase().includes(c.expectedError) ? { c, status: 'error-ok' } : { c, status: 'error-missed', detail: `error without "${c.expectedError}": ${msg}` };
    }
    return { c, status: 'differs', detail: `failed: ${msg.split('\n')[0]}` };
  }
  if (c.expectedError !== undefined) return { c, status: 'error-missed', detail: `rendered; Istio fails with "${c.expectedError}"` };
  const want = readFileSync(join(suite, 'testdata/inject', c.want), 'utf8');
  if (text === want) return { c, status: 'bytes' };
  let same = false;
  try {
    same = JSON.stringify(docs(text)) === JSON.stringify(docs(want));
  } catch {
    same = false;
  }
  return { c, status: same ? 'parsed' : 'differs', detail: firstDifference(text, want) };
}

export interface SuiteReport {
  results: CaseResult[];
  expressible: number;
  agreeParsed: number;
  agreeBytes: number;
}

export function runInjectSuite(suite: string): SuiteReport {
  const scratch = mkdtempSync(join(tmpdir(), 'inject-suite-'));
  const results = readInjectCases(suite).map((c) => runInjectCase(suite, c, scratch));
  const expressible = results.filter((r) => r.status !== 'unexpressible').length;
  const agreeBytes = results.filter((r) => r.status === 'bytes' || r.status === 'error-ok').length;
  const agreeParsed = agreeBytes + results.filter((r) => r.status === 'parsed').length;
  return { results, expressible, agreeParsed, agreeBytes };
}

export function formatReport(name: string, r: SuiteReport): string {
  const lines = r.results.map((x) => `[${String(x.c.index).padStart(2, '0')}] ${x.status.padEnd(13)} ${x.c.want}${x.detail ? `  ${x.detail}` : ''}`);
  const pct = (n: number) => (r.expressible ? ((100 * n) / r.expressible).toFixed(1) : '0');
  lines.push(`${name}: ${r.results.length} cases, ${r.expressible} expressible; agree parsed ${r.agreeParsed} (${pct(r.agreeParsed)}%), byte for byte ${r.agreeBytes} (${pct(r.agreeBytes)}%)`);
  return lines.join('\n');
}
