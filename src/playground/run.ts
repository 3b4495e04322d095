// The playground's engine side: one page state in, everything its tabs show out. It calls the library as
// the commands do (render, render --merged, audit with the timeline, diff, template), every input given
// as {name, text}, so that it runs alike in a browser's Web Worker and in Node (where the tests run it).
// Every error comes back as data with the pane and line it names, never thrown.

import { formatOutcome, renderRequest, type RenderOutcome } from '../output/render.js';
import { auditDetailed, type AuditOptions } from '../audit/index.js';
import { timeline } from '../audit/timeline.js';
import { renderTimelineSvg, renderTimelineText } from '../audit/timeline-render.js';
import { diffInjection, formatDiffText, type DiffSide } from '../diff/diff.js';
import { Template, ExecError, LimitError, TemplateError, type ExecOptions } from '../go/text/template/template.js';
import { FUNC_SET_NAMES, funcSet } from '../funcs/index.js';
import { loadYamlDocuments, InputError } from '../yaml/load.js';
import { limitHint } from '../istio/inject.js';
import type { RenderRequest } from '../inputs/resolve.js';
import type { PlaygroundState, Setup } from './state.js';

/** The panes of the page, and the file name each is given to the library as. */
export const PANES = {
  injector: 'injector.yaml',
  values: 'values.yaml',
  set: 'set.txt',
  mesh: 'mesh.yaml',
  workloads: 'workloads.yaml',
  template: 'template.tmpl',
  data: 'data.yaml',
} as const;
export type Pane = keyof typeof PANES;
export type Side = 'a' | 'b';

/** Where a message points: a pane (of setup A or B) and a 1-based line and column. */
export interface Place {
  pane: Pane;
  side: Side;
  line: number;
  col: number;
}

export interface Problem {
  message: string;
  at?: Place;
}

export interface FindingView {
  rule: string;
  severity: 'info' | 'warning' | 'error';
  workload: string;
  container: string | null;
  message: string;
  location: string;
  fix: string;
  at?: Place;
}

export interface TimelineView {
  workload: string;
  svg: string;
  text: string;
  summary: string[];
}

export interface WorkloadView {
  label: string;
  injected: boolean;
  reason?: string;
  hold: boolean;
  native: boolean;
  error?: string;
  /** The containers of the merged pod in start order: init containers, then containers. */
  order?: string[];
}

export interface PlaygroundResult {
  mode: 'inject' | 'template';
  /** A problem that stopped the run: the inputs cannot be read, a template does not parse. */
  error?: Problem;
  /** The template stage output (inject), or the template's output (template mode). */
  templateOutput: string;
  /** The pod istiod admits, every other document given back (render --merged). */
  merged: string;
  workloads: WorkloadView[];
  /** Lines for the output tab: what was assumed, warnings, workloads that failed. */
  assumptions?: string;
  messages: Problem[];
  findings: FindingView[];
  /** Why the audit has no answer (a render that failed, a limit reached). */
  auditError?: Problem;
  timelines: TimelineView[];
  /** Workloads past MAX_TIMELINES, whose timelines are not drawn. */
  timelinesLeftOut?: number;
  /** The A/B diff, when setup B is given. */
  diff?: { text: string; changed: number; lifecycle: { workload: string; aspect: string; from: string; to: string }[]; error?: Problem };
  ms: number;
  /** The pods alone: the audit and the diff are still running. */
  partial?: boolean;
}

/**
 * The most of one output the page is sent (in UTF-16 code units): an output may be as large as the
 * limits allow (256 MiB), which a page cannot lay out without freezing. The rest is counted, not sent.
 */
export const MAX_SHOWN_CHARS = 1 << 20;

/** An output as the page shows it: whole, or its first MAX_SHOWN_CHARS cut at a line, and what was left out. */
export function shown(text: string, max = MAX_SHOWN_CHARS): string {
  if (text.length <= max) return text;
  const nl = text.lastIndexOf('\n', max);
  const cut = nl > max / 2 ? nl + 1 : max;
  const head = text.slice(0, cut);
  return `${head}${head.endsWith('\n') ? '' : '\n'}… ${(text.length - cut).toLocaleString('en')} more characters not shown (the page shows the first ${(max / 1024 / 1024).toFixed(0)} MiB of an output)\n`;
}

/** Timelines drawn for the first workloads only: a cluster dump's thousands would be no page. */
export const MAX_TIMELINES = 25;

/** The limits of one template execution: the command line's defaults, and the page's time limit. */
export function pageLimits(state: Pick<PlaygroundState, 'timeLimit'>): ExecOptions {
  return { timeoutMs: Math.round(state.timeLimit * 1000) };
}

const PANE_OF = new Map<string, Pane>(Object.entries(PANES).map(([k, v]) => [v, k as Pane]));

/** The pane and side a file name given to the library stands for (`b/values.yaml` is B's values). */
export function paneOfFile(file: string): { pane: Pane; side: Side } | undefined {
  const side: Side = file.startsWith('b/') ? 'b' : 'a';
  const pane = PANE_OF.get(side === 'b' ? file.slice(2) : file) ?? (file.endsWith('injector.tmpl') ? 'injector' : undefined);
  return pane ? { pane, side } : undefined;
}

/** `file:line:col` at the start of a message, or after `--set `, as the library writes them. */
export function placeOf(message: string, sets?: { a: string; b?: string }): Place | undefined {
  const m = /(?:^|\s)((?:b\/)?[a-z]+\.(?:yaml|tmpl|txt)):(\d+)(?::(\d+))?/.exec(message);
  if (m) {
    const p = paneOfFile(m[1]!);
    if (p) return { ...p, line: Number(m[2]), col: Number(m[3] ?? 1) };
  }
  // a --set names its argument: the line that holds it
  const s = /--set(?:-string)? ([^\s:]+(?:=[^\s]*)?)/.exec(message);
  if (s && sets) {
    for (const side of ['a', 'b'] as const) {
      const lines = (sets[side] ?? '').split('\n');
      const i = lines.findIndex((l) => l.includes(s[1]!));
      if (i >= 0) return { pane: 'set', side, line: i + 1, col: 1 };
    }
  }
  return undefined;
}

const problem = (e: unknown, sets?: { a: string; b?: string }): Problem => {
  let message = e instanceof Error ? e.message : String(e);
  if (e instanceof LimitError) message = limitHint(message);
  const at = placeOf(message, sets);
  return at ? { message, at } : { message };
};

/** What the injector pane holds: a ConfigMap export, data.config alone, or a bare template. */
export function injectorKind(text: string): 'configmap' | 'config' | 'template' | 'none' {
  if (text.trim() === '') return 'none';
  if (/^(?:kind|apiVersion):/m.test(text)) return 'configmap';
  if (/^(?:templates|template|defaultTemplates|policy|alwaysInjectSelector|neverInjectSelector|injectedAnnotations|aliases):/m.test(text)) return 'config';
  return 'template';
}

/** The --set lines of a pane: `key=value`, `--set key=value` or `--set-string key=value`; # comments. */
export function setLines(text: string): { set: string[]; setString: string[] } {
  const set: string[] = [];
  const setString: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^--set-string(?:\s+|=)(.*)$/.exec(line);
    if (m) setString.push(m[1]!.trim());
    else set.push(line.replace(/^--set(?:\s+|=)/, '').trim());
  }
  return { set, setString };
}

const named = (side: Side, pane: Pane, text: string) => ({ name: side === 'b' ? `b/${PANES[pane]}` : PANES[pane], text });

/** A setup's injector inputs as render's options (the flags in camelCase). */
export function setupOptions(s: Setup, side: Side, state: PlaygroundState): RenderRequest {
  const o: RenderRequest = {};
  const kind = injectorKind(s.injector);
  if (kind === 'configmap') o.injectorConfigmap = named(side, 'injector', s.injector);
  else if (kind === 'config') o.injectConfigFile = named(side, 'injector', s.injector);
  else if (kind === 'template') o.template = { name: side === 'b' ? 'b/injector.tmpl' : 'injector.tmpl', text: s.injector };
  if (s.values.trim() !== '') {
    if (s.valuesMode === 'replace') o.values = named(side, 'values', s.values);
    else o.valuesFile = [named(side, 'values', s.values)];
  }
  const { set, setString } = setLines(s.set);
  if (set.length) o.set = set;
  if (setString.length) o.setString = setString;
  if (s.mesh.trim() !== '') o.mesh = named(side, 'mesh', s.mesh);
  if (s.istioVersion !== '') o.istioVersion = s.istioVersion;
  if (state.kubeVersion.trim() !== '') o.kubeVersion = state.kubeVersion.trim();
  o.nativeSidecars = state.nativeSidecars;
  o.mode = state.renderMode;
  return o;
}

function auditOptionsOf(r: RenderRequest): AuditOptions {
  const { nativeSidecars, mode: _mode, ...rest } = r;
  const o = rest as AuditOptions;
  return nativeSidecars === 'true' ? { ...o, nativeSidecars: true } : nativeSidecars === 'false' ? { ...o, nativeSidecars: false } : o;
}

function workloadView(r: RenderOutcome['results'][number]): WorkloadView {
  const v: WorkloadView = { label: r.label, injected: r.decision.inject, hold: r.hold, native: r.native };
  if (!r.decision.inject) v.reason = r.decision.reason;
  if (r.error !== undefined) v.error = r.error;
  const spec = podSpecOf(r.merged);
  if (spec) {
    const names = (k: string) => (Array.isArray(spec[k]) ? (spec[k] as { name?: unknown }[]).map((c) => String(c.name)) : []);
    v.order = [...names('initContainers').map((n) => `init:${n}`), ...names('containers')];
  }
  return v;
}

function podSpecOf(o: unknown): Record<string, unknown> | undefined {
  if (typeof o !== 'object' || o === null) return undefined;
  const x = o as Record<string, unknown>;
  const spec = x['spec'] as Record<string, unknown> | undefined;
  if (!spec) return undefined;
  if (x['kind'] === 'Pod') return spec;
  if (x['kind'] === 'CronJob') return podSpecOf({ kind: 'Job', spec: (spec['jobTemplate'] as Record<string, unknown> | undefined)?.['spec'] });
  const tpl = spec['template'] as Record<string, unknown> | undefined;
  return tpl?.['spec'] as Record<string, unknown> | undefined;
}

const empty = (mode: 'inject' | 'template'): PlaygroundResult => ({ mode, templateOutput: '', merged: '', workloads: [], messages: [], findings: [], timelines: [], ms: 0 });

/**
 * Render, merge, audit, draw the timelines and diff A against B: everything the page shows. `partial`,
 * when given, gets the result once the pods are rendered, before the audit and the diff (which take
 * longer), so that the page can show them first.
 */
export function runPlayground(state: PlaygroundState, partial?: (r: PlaygroundResult) => void): PlaygroundResult {
  const t0 = performance.now();
  const out = state.mode === 'template' ? runTemplate(state) : runInject(state, partial && ((r) => partial({ ...r, ms: Math.round(performance.now() - t0), partial: true })));
  out.ms = Math.round(performance.now() - t0);
  return out;
}

function runInject(state: PlaygroundState, partial?: (r: PlaygroundResult) => void): PlaygroundResult {
  const out = empty('inject');
  const sets = { a: state.a.set, ...(state.b ? { b: state.b.set } : {}) };
  if (state.workloads.trim() === '') {
    out.error = { message: 'give one or more workloads (a Deployment, Job, Pod, ... or a List) in the workloads pane' };
    return out;
  }
  const workloads = named('a', 'workloads', state.workloads);
  const a = setupOptions(state.a, 'a', state);
  const limits = pageLimits(state);
  let merged: RenderOutcome;
  try {
    // one render: the template stage output is printed from the same results, as render prints it
    merged = renderRequest({ ...a, filename: workloads, merged: true, limits });
    out.templateOutput = shown(formatOutcome(merged.results, { merged: false }).text);
  } catch (e) {
    out.error = problem(e, sets);
    return out;
  }
  out.merged = shown(merged.text);
  out.workloads = merged.results.map(workloadView);
  if (merged.assumptions !== undefined) out.assumptions = merged.assumptions;
  out.messages = merged.messages.map((m) => problem(m, sets));
  for (const r of merged.results) if (r.error !== undefined) out.messages.push(problem(new Error(`${r.label}: ${r.error}`), sets));
  const limited = merged.results.find((r) => r.error !== undefined && /limit|timed out|time limit/i.test(r.error));
  if (limited) {
    // the audit and the diff would run the same template again, without the time limit
    out.auditError = { message: `not audited: ${limited.label} did not render (${limited.error})` };
    return out;
  }
  partial?.(out);
  try {
    const res = auditDetailed([workloads], { ...auditOptionsOf(a), keepSubjects: true });
    out.findings = res.findings.map((f) => {
      const at = placeOf(f.location, sets);
      return { ...f, ...(at ? { at } : {}) };
    });
    out.timelines = res.subjects.slice(0, MAX_TIMELINES).map((s) => {
      const t = timeline(s);
      return { workload: t.workload, svg: renderTimelineSvg(t), text: renderTimelineText(t), summary: t.summary.map((x) => x.text) };
    });
    if (res.subjects.length > MAX_TIMELINES) out.timelinesLeftOut = res.subjects.length - MAX_TIMELINES;
  } catch (e) {
    out.auditError = problem(e, sets);
  }
  if (state.b) {
    const b = setupOptions(state.b, 'b', state);
    try {
      const { nativeSidecars, kubeVersion, mode, istioVersion: _ia, ...sideA } = a;
      const { nativeSidecars: _n, kubeVersion: _k, mode: _m, istioVersion: _ib, ...sideB } = b;
      const withRelease = (side: DiffSide, v: string) => (v !== '' ? { ...side, istioVersion: v } : side);
      const report = diffInjection(withRelease(sideA as DiffSide, state.a.istioVersion), withRelease(sideB as DiffSide, state.b.istioVersion), [workloads], {
        ...(nativeSidecars !== undefined ? { nativeSidecars } : {}),
        ...(kubeVersion !== undefined ? { kubeVersion } : {}),
        ...(mode !== undefined ? { mode } : {}),
        limits,
      });
      out.diff = {
        text: shown(formatDiffText(report)),
        changed: report.changed,
        lifecycle: report.workloads.flatMap((w) => w.lifecycle.map((l) => ({ workload: w.workload, aspect: l.aspect, from: l.from, to: l.to }))),
      };
    } catch (e) {
      out.diff = { text: '', changed: 0, lifecycle: [], error: problem(e, sets) };
    }
  }
  return out;
}

function runTemplate(state: PlaygroundState): PlaygroundResult {
  const out = empty('template');
  const s = state.template;
  let data: unknown = null;
  try {
    if (s.data.trim() !== '') data = loadYamlDocuments(s.data, PANES.data, { duplicateKeys: 'last' })[0]?.value ?? null;
  } catch (e) {
    out.error = problem(e);
    return out;
  }
  const t = new Template(PANES.template);
  if (s.missingkey !== 'default') t.option(`missingkey=${s.missingkey}`);
  t.funcs(funcSet(s.funcs, { template: t, strict: s.missingkey === 'error' }));
  try {
    t.parse(s.text);
  } catch (e) {
    out.error = templateProblem(e, s.funcs);
    return out;
  }
  try {
    out.templateOutput = shown(t.execute(data as never, pageLimits(state)));
  } catch (e) {
    if (e instanceof ExecError) out.templateOutput = shown(e.output);
    out.error = templateProblem(e, s.funcs);
  }
  return out;
}

/** A template error at its line, with the function set that has a function the chosen one lacks. */
function templateProblem(e: unknown, chosen: string): Problem {
  const p = problem(e);
  const m = /function "([^"]+)" not defined$/.exec(p.message);
  if (m) {
    const set = FUNC_SET_NAMES.find((n) => n !== chosen && Object.hasOwn(funcSet(n), m[1]!));
    if (set) p.message += ` (it is in the ${set} set)`;
  }
  if (e instanceof TemplateError && e.templateName === PANES.template && e.line) p.at = { pane: 'template', side: 'a', line: e.line, col: (e.col ?? 0) + 1 };
  else if (e instanceof InputError && e.line) p.at = { pane: 'data', side: 'a', line: e.line, col: e.col ?? 1 };
  return p;
}
