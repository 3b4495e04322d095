// What changes for each workload between two injector setups (an upgrade, a values change): every
// workload rendered both ways and merged into its pod, then compared field by field, with a summary of
// what changed for start-up and shutdown and the audit findings that appear, go, or are still there.
//
//   const report = diffInjection({ injectorConfigmap: 'old.yaml' }, { chart: 'istiod-1.24' }, ['deploy.yaml']);
//   report.changed                      // workloads that differ
//   failures(report, 'lifecycle')       // those whose start-up or shutdown differs (what CI fails on)

import { auditDetailed, atOrAbove, type AuditOptions, type Finding, type InputText, type Severity } from '../audit/index.js';
import { InputError } from '../yaml/load.js';
import { Renderer, type WorkloadResult } from '../istio/inject.js';
import { has } from '../istio/releases.js';
import { formatIstioVersion } from '../istio/version.js';
import { resolveInputs, type RenderRequest } from '../inputs/resolve.js';
import { textOf } from '../inputs/files.js';
import type { InputFile } from '../inputs/options.js';
import { renderRequest } from '../output/render.js';
import { isObject, type Json, type JsonObject } from '../go/encoding/json/value.js';

/**
 * One side of the comparison: its injector inputs, as render takes them (a file holding the injector
 * ConfigMap, or a chart, with values, sets, IstioOperators and mesh config over it). A ConfigMap
 * export that also holds the `istio` mesh ConfigMap gives the mesh config too.
 */
export type DiffSide = Omit<RenderRequest, 'filename' | 'workloads' | 'stdin' | 'merged' | 'output'>;
export interface FieldChange {
  path: string;
  op: 'added' | 'removed' | 'changed';
  from?: Json;
  to?: Json;
}

export interface LifecycleChange {
  aspect: string;
  from: string;
  to: string;
}

export interface WorkloadDiff {
  workload: string;
  changed: boolean;
  changes: FieldChange[];
  lifecycle: LifecycleChange[];
  /** Start-up and shutdown facts of the pod before and after (lifecycleFacts). */
  before: Record<string, string>;
  after: Record<string, string>;
  findingsAppeared: Finding[];
  findingsGone: Finding[];
  /** Findings on both sides (as the --to side words them): a pod that changed nothing may still be unhealthy. */
  findingsStill: Finding[];
  /** A side on which the workload failed to render. */
  errors: { from?: string; to?: string };
}

export interface DiffReport {
  workloads: WorkloadDiff[];
  changed: number;
  /** What each side's run assumed and where its inputs came from (render's assumptions line). */
  assumptions: { from?: string; to?: string };
  /** What the report cannot show without more input: one line each (a side's behaviour that hangs on the Kubernetes version). */
  warnings: string[];
}

/** What fails a diff in CI: any change, a start-up or shutdown change, or a new finding at or above a severity. */
export type FailOn = 'changes' | 'lifecycle' | 'findings' | `findings:${Severity}`;
export const FAIL_ON: readonly FailOn[] = ['changes', 'lifecycle', 'findings', 'findings:error', 'findings:warning', 'findings:info'];

/** The workloads that fail the diff: changed; or whose lifecycle differs (a side failing to render counts); or with a new finding at or above the severity (`findings` is `findings:error`). */
export function failures(r: DiffReport, on: FailOn): WorkloadDiff[] {
  if (on === 'changes') return r.workloads.filter((w) => w.changed);
  if (on === 'lifecycle') return r.workloads.filter((w) => w.lifecycle.length > 0 || w.errors.from !== w.errors.to);
  const severity = (on.split(':')[1] ?? 'error') as Severity;
  return r.workloads.filter((w) => atOrAbove(w.findingsAppeared, severity).length > 0);
}

/** What both sides share: the release, the cluster, istiod's environment, whose injection. */
export type DiffOptions = Pick<RenderRequest, 'istioVersion' | 'revision' | 'kubeVersion' | 'nativeSidecars' | 'env' | 'mode' | 'limits'>;

// ---------- comparing pods ----------

function named(list: Json[]): boolean {
  return list.length > 0 && list.every((x) => isObject(x) && typeof x.name === 'string') && new Set(list.map((x) => (x as JsonObject).name)).size === list.length;
}

/** Field-level differences; lists of named items (containers, volumes, env) are matched by name. */
export function fieldChanges(a: Json | undefined, b: Json | undefined, path = ''): FieldChange[] {
  const out: FieldChange[] = [];
  const walk = (x: Json | undefined, y: Json | undefined, p: string): void => {
    // a field set to null is one not set (the Go round trip's `creationTimestamp: null`): no one acts on it
    if ((x === undefined || x === null) && (y === undefined || y === null)) return;
    if (x === undefined) return void out.push({ path: p, op: 'added', to: y! });
    if (y === undefined) return void out.push({ path: p, op: 'removed', from: x });
    if (isObject(x) && isObject(y)) {
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])];
      for (const k of keys) walk(Object.hasOwn(x, k) ? x[k] : undefined, Object.hasOwn(y, k) ? y[k] : undefined, p ? `${p}.${k}` : k);
      return;
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      if (named(x) && named(y)) {
        const byName = (l: Json[]) => new Map(l.map((e) => [(e as JsonObject).name as string, e]));
        const mx = byName(x);
        const my = byName(y);
        for (const k of [...new Set([...mx.keys(), ...my.keys()])]) walk(mx.get(k), my.get(k), `${p}[${k}]`);
        const ox = x.map((e) => (e as JsonObject).name).filter((n) => my.has(n as string));
        const oy = y.map((e) => (e as JsonObject).name).filter((n) => mx.has(n as string));
        if (JSON.stringify(ox) !== JSON.stringify(oy)) out.push({ path: `${p} (order)`, op: 'changed', from: ox, to: oy });
        return;
      }
      const n = Math.max(x.length, y.length);
      for (let i = 0; i < n; i++) walk(x[i], y[i], `${p}[${i}]`);
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y)) out.push({ path: p, op: 'changed', from: x, to: y });
  };
  walk(a, b, path);
  return out;
}

// ---------- lifecycle ----------

function podSpec(w: JsonObject | undefined): JsonObject | undefined {
  if (!w) return undefined;
  const kind = w.kind;
  const spec = isObject(w.spec ?? null) ? (w.spec as JsonObject) : undefined;
  if (kind === 'Pod') return spec;
  if (kind === 'CronJob') {
    const jt = spec && isObject(spec.jobTemplate ?? null) ? (spec.jobTemplate as JsonObject) : undefined;
    const js = jt && isObject(jt.spec ?? null) ? (jt.spec as JsonObject) : undefined;
    const t = js && isObject(js.template ?? null) ? (js.template as JsonObject) : undefined;
    return t && isObject(t.spec ?? null) ? (t.spec as JsonObject) : undefined;
  }
  const t = spec && isObject(spec.template ?? null) ? (spec.template as JsonObject) : undefined;
  return t && isObject(t.spec ?? null) ? (t.spec as JsonObject) : undefined;
}

const list = (v: Json | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);

function handler(h: Json | undefined): string {
  if (!isObject(h ?? null)) return 'none';
  const o = h as JsonObject;
  if (isObject(o.exec ?? null)) return `exec: ${(Array.isArray((o.exec as JsonObject).command) ? ((o.exec as JsonObject).command as Json[]) : []).map(String).join(' ')}`;
  if (isObject(o.httpGet ?? null)) return `httpGet ${String((o.httpGet as JsonObject).path ?? '/')} :${String((o.httpGet as JsonObject).port ?? '')}`;
  if (isObject(o.sleep ?? null)) return `sleep ${String((o.sleep as JsonObject).seconds ?? '')}s`;
  return JSON.stringify(o);
}

function probe(p: Json | undefined): string {
  if (!isObject(p ?? null)) return 'none';
  const o = p as JsonObject;
  const how = handler(o);
  const timing = ['initialDelaySeconds', 'periodSeconds', 'timeoutSeconds', 'failureThreshold'].filter((k) => o[k] !== undefined).map((k) => `${k}=${String(o[k])}`);
  return timing.length ? `${how} (${timing.join(', ')})` : how;
}

function envOf(c: JsonObject | undefined, name: string): string | undefined {
  for (const e of list(c?.env)) if (e.name === name && typeof e.value === 'string') return e.value;
  return undefined;
}

/** What a merged pod does at start-up and shutdown, aspect by aspect, as short texts. */
export function lifecycleFacts(r: WorkloadResult | undefined): Record<string, string> {
  const spec = podSpec(r?.merged);
  const out: Record<string, string> = {};
  if (!spec) return { injected: r?.error ? `failed: ${r.error}` : 'no' };
  const inits = list(spec.initContainers);
  const cons = list(spec.containers);
  const nativeIdx = inits.findIndex((c) => c.name === 'istio-proxy');
  const idx = cons.findIndex((c) => c.name === 'istio-proxy');
  const proxy = nativeIdx >= 0 ? inits[nativeIdx] : idx >= 0 ? cons[idx] : undefined;
  out['injected'] = proxy ? 'yes' : 'no';
  out['native sidecar'] = nativeIdx >= 0 && proxy?.restartPolicy === 'Always' ? 'yes (initContainers, restartPolicy: Always)' : 'no';
  out['proxy order'] = nativeIdx >= 0 ? `init container ${nativeIdx + 1} of ${inits.length}` : idx >= 0 ? `container ${idx + 1} of ${cons.length}` : 'none';
  out['postStart'] = handler(isObject(proxy?.lifecycle ?? null) ? (proxy!.lifecycle as JsonObject).postStart : undefined);
  out['preStop'] = handler(isObject(proxy?.lifecycle ?? null) ? (proxy!.lifecycle as JsonObject).preStop : undefined);
  let pc: JsonObject = {};
  try {
    const raw = envOf(proxy, 'PROXY_CONFIG');
    if (raw) pc = JSON.parse(raw) as JsonObject;
  } catch {
    pc = {};
  }
  out['hold application until proxy starts'] = r?.hold ? 'yes' : 'no';
  out['drain'] = [
    `drainDuration ${String(pc.drainDuration ?? 'default')}`,
    `terminationDrainDuration ${String(pc.terminationDrainDuration ?? envOf(proxy, 'TERMINATION_DRAIN_DURATION_SECONDS') ?? 'default')}`,
    ...(envOf(proxy, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS') ? [`EXIT_ON_ZERO_ACTIVE_CONNECTIONS=${envOf(proxy, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS')}`] : []),
  ].join(', ');
  out['terminationGracePeriodSeconds'] = spec.terminationGracePeriodSeconds === undefined ? 'default (30)' : String(spec.terminationGracePeriodSeconds);
  out['startupProbe'] = probe(proxy?.startupProbe);
  out['readinessProbe'] = probe(proxy?.readinessProbe);
  out['livenessProbe'] = probe(proxy?.livenessProbe);
  return out;
}

function lifecycleChanges(fa: Record<string, string>, fb: Record<string, string>): LifecycleChange[] {
  const out: LifecycleChange[] = [];
  for (const k of [...new Set([...Object.keys(fa), ...Object.keys(fb)])]) {
    const x = fa[k] ?? 'n/a';
    const y = fb[k] ?? 'n/a';
    if (x !== y) out.push({ aspect: k, from: x, to: y });
  }
  return out;
}

// ---------- findings ----------

const findingKey = (f: Finding): string => `${f.workload}\0${f.rule}\0${f.container ?? ''}\0${f.severity}`;

// ---------- what a side assumes ----------

/**
 * A side whose release turns native sidecars on by itself from a Kubernetes version (1.27+ on 1.33+)
 * shows an older cluster when no --kube-version is given: a warning that says so.
 */
function kubeVersionWarning(side: DiffSide, opts: DiffOptions, flag: string): string | undefined {
  if (opts.kubeVersion !== undefined || (opts.nativeSidecars !== undefined && String(opts.nativeSidecars) !== 'auto')) return undefined;
  let version;
  try {
    const inputs = resolveInputs({ ...opts, ...side });
    version = new Renderer(inputs, inputs.renderOptions).version;
  } catch {
    return undefined; // the render of the side says what is wrong
  }
  if (!has(version, 'native.autoFromKubeVersion')) return undefined;
  return `${flag}: Istio ${formatIstioVersion(version)} runs the proxy as a native sidecar on Kubernetes 1.33 or later (ENABLE_NATIVE_SIDECARS not set), and no --kube-version was given, so this report shows a cluster older than 1.33; give --kube-version to see what the upgrade does on yours`;
}

// ---------- the report ----------

/** The audit's options for a side: the same inputs, with what both sides share. */
function auditOptions(side: DiffSide, opts: DiffOptions): AuditOptions {
  const { limits: _limits, mode: _mode, nativeSidecars, ...shared } = opts;
  const native = nativeSidecars === 'true' || nativeSidecars === true ? true : nativeSidecars === 'false' || nativeSidecars === false ? false : undefined;
  return { ...(side as AuditOptions), ...(shared as AuditOptions), ...(native !== undefined ? { nativeSidecars: native } : {}) };
}

/** Render and audit every workload of the files both ways, and compare. */
export function diffInjection(from: DiffSide, to: DiffSide, workloadFiles: InputFile[], opts: DiffOptions = {}): DiffReport {
  if (workloadFiles.length === 0) throw new InputError('diff: give the workloads with -f FILE');
  for (const [side, flag] of [[from, '--from'], [to, '--to']] as const) {
    const sources = ['injectorConfigmap', 'injectorConfigMap', 'injectConfigFile', 'injectConfig', 'template', 'chart'].filter((k) => (side as Record<string, unknown>)[k] !== undefined);
    if (sources.length === 0) throw new InputError(`${flag}: give a ConfigMap export or a chart, one of them`);
  }
  const out: WorkloadDiff[] = [];
  const assumptions: DiffReport['assumptions'] = {};
  const warnings = [kubeVersionWarning(from, opts, '--from'), kubeVersionWarning(to, opts, '--to')].filter((x): x is string => x !== undefined);
  for (const file of workloadFiles) {
    const ra = renderRequest({ ...opts, ...from, filename: file, merged: true });
    const rb = renderRequest({ ...opts, ...to, filename: file, merged: true });
    assumptions.from ??= ra.assumptions;
    assumptions.to ??= rb.assumptions;
    const text: InputText = textOf(file);
    const fa = auditDetailed([text], auditOptions(from, opts)).findings;
    const fb = auditDetailed([text], auditOptions(to, opts)).findings;
    const n = Math.max(ra.results.length, rb.results.length);
    for (let i = 0; i < n; i++) {
      const x = ra.results[i];
      const y = rb.results[i];
      const label = (x ?? y)!.label;
      const changes = fieldChanges(x?.merged ?? (x?.workload as unknown as Json), y?.merged ?? (y?.workload as unknown as Json));
      // render labels a workload "Kind ns/name", audit "Kind/ns/name"
      const key = label.replace(' ', '/');
      const mine = (fs: Finding[]) => fs.filter((f) => f.workload === key);
      const ka = new Map(mine(fa).map((f) => [findingKey(f), f]));
      const kb = new Map(mine(fb).map((f) => [findingKey(f), f]));
      const appeared = [...kb.entries()].filter(([k]) => !ka.has(k)).map(([, f]) => f);
      const gone = [...ka.entries()].filter(([k]) => !kb.has(k)).map(([, f]) => f);
      const still = [...kb.entries()].filter(([k]) => ka.has(k)).map(([, f]) => f);
      const errors = { ...(x?.error ? { from: x.error } : {}), ...(y?.error ? { to: y.error } : {}) };
      const before = lifecycleFacts(x);
      const after = lifecycleFacts(y);
      const lifecycle = lifecycleChanges(before, after);
      const changed = changes.length > 0 || appeared.length > 0 || gone.length > 0 || lifecycle.length > 0 || x?.error !== y?.error;
      out.push({ workload: label, changed, changes, lifecycle, before, after, findingsAppeared: appeared, findingsGone: gone, findingsStill: still, errors });
    }
  }
  return { workloads: out, changed: out.filter((w) => w.changed).length, assumptions, warnings };
}

const show = (v: Json | undefined): string => {
  const s = JSON.stringify(v);
  return s === undefined ? '' : s.length > 120 ? s.slice(0, 117) + '...' : s;
};

/**
 * Both sides of a change, each cut to about 120 characters around where they first differ, so that
 * two long values (a sidecar.istio.io/status annotation) never read the same once shortened.
 */
export function showChange(a: Json | undefined, b: Json | undefined): [string, string] {
  const x = JSON.stringify(a) ?? '';
  const y = JSON.stringify(b) ?? '';
  if (x.length <= 120 && y.length <= 120) return [x, y];
  let at = 0;
  while (at < x.length && at < y.length && x[at] === y[at]) at++;
  const from = at < 60 ? 0 : at - 40;
  const cut = (s: string): string => `${from > 0 ? '...' : ''}${s.slice(from, from + 117)}${from + 117 < s.length ? '...' : ''}`;
  return [cut(x), cut(y)];
}

const findingLine = (mark: string, what: string, f: Finding): string => `  ${mark} finding (${what}) ${f.severity} ${f.rule}${f.container ? ` [${f.container}]` : ''}: ${f.message}\n`;

/** The report as text: per workload the lifecycle summary, findings that appear or go, then field changes. */
export function formatDiffText(r: DiffReport): string {
  let out = '';
  for (const w of r.workloads) {
    out += `${w.workload}: ${w.changed ? 'changed' : 'unchanged'}\n`;
    if (!w.changed) {
      // unchanged is not healthy: what is wrong on both sides stays in view
      for (const f of w.findingsStill) out += findingLine('=', 'still present', f);
      continue;
    }
    if (w.errors.from) out += `  failed before: ${w.errors.from}\n`;
    if (w.errors.to) out += `  failed after: ${w.errors.to}\n`;
    if (w.lifecycle.length) {
      out += '  lifecycle:\n';
      for (const l of w.lifecycle) out += `    ${l.aspect}: ${l.from} -> ${l.to}\n`;
    } else {
      const f = w.after;
      const brief = ['native sidecar', 'proxy order', 'postStart', 'preStop'].filter((k) => f[k] !== undefined).map((k) => `${k} ${f[k]}`);
      out += `  lifecycle: unchanged${brief.length ? ` (${brief.join('; ')})` : ''}\n`;
    }
    for (const f of w.findingsAppeared) out += findingLine('+', 'new', f);
    for (const f of w.findingsGone) out += findingLine('-', 'gone', f);
    for (const f of w.findingsStill) out += findingLine('=', 'still present', f);
    if (w.changes.length) {
      out += `  ${w.changes.length} field change${w.changes.length === 1 ? '' : 's'}:\n`;
      for (const c of w.changes) {
        if (c.op === 'added') out += `    + ${c.path}: ${show(c.to)}\n`;
        else if (c.op === 'removed') out += `    - ${c.path}: ${show(c.from)}\n`;
        else {
          const [a, b] = showChange(c.from, c.to);
          out += `    ~ ${c.path}: ${a} -> ${b}\n`;
        }
      }
    }
  }
  const lifecycle = failures(r, 'lifecycle').length;
  const appeared = r.workloads.reduce((n, w) => n + w.findingsAppeared.length, 0);
  const still = r.workloads.reduce((n, w) => n + w.findingsStill.length, 0);
  const more = [lifecycle ? `${lifecycle} with a lifecycle change` : '', appeared ? `${appeared} new finding${appeared === 1 ? '' : 's'}` : '', still ? `${still} finding${still === 1 ? '' : 's'} still present` : ''].filter(Boolean);
  out += `${r.workloads.length} workload${r.workloads.length === 1 ? '' : 's'}, ${r.changed} changed${more.length ? `; ${more.join(', ')}` : ''}\n`;
  return out;
}
