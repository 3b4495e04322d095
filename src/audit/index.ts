// sidecar-render audit: find sidecar lifecycle hazards in workloads, injector templates and cluster dumps.
//
//   audit(inputs, options)          → Finding[]; inputs (and option files) are paths, as renderRequest
//                                     takes them, or {name, text}; options are render's inputs
//   auditDetailed(inputs, options)  → findings plus the judged workloads (for timelines), the
//                                     assumptions line, ignored findings and notes
//   timeline(subject)               → what the kubelet does at start and stop, step by step

import { configFromResolved, type IstioConfig } from './context.js';
import { DocumentLocator, FileSource, streamObjects, type InputObject, type InputSource, type InputText } from './input.js';
import type { InjectFn } from './inject.js';
import { applies, RULES, type Rule } from './rules/index.js';
import { buildSubject, type Subject } from './subject.js';
import { asStringMap, asArray, detached, evidenceOf, isObject, get, getIn, parseKubeVersion, SEVERITY_RANK, workloadLocationOf, type Evidence, type Finding, type KubeVersion, type Locator } from './types.js';
import { ownedByPresent, toWorkload, wouldInject, workloadId, type Workload } from './workload.js';
import { InputError } from './input.js';
import { defaultInject } from './render.js';
import { InputTooLarge, readBytesLimited, readReason } from '../guard/fs.js';
import { decodeInput } from '../yaml/load.js';
import type { PathSeg, JsonObject } from './types.js';
import { detectIstioVersion, formatIstioVersion, LATEST, releaseWhy } from '../istio/version.js';
import { describeSources, resolveInputs, type ResolvedInputs } from '../inputs/resolve.js';
import { configKind, type FileObject } from '../inputs/sources.js';
import type { InjectorOptions, InputFile } from '../inputs/options.js';

export type { Finding, Severity, Evidence, KubeVersion } from './types.js';
export type { InjectFn, InjectContext, InjectWorkload } from './inject.js';
export type { Subject, ContainerView, Injection } from './subject.js';
export type { Rule } from './rules/index.js';
export type { InputText, InputSource } from './input.js';
export { InputError, FileSource } from './input.js';
export { RULES } from './rules/index.js';
export { timeline, type Timeline, type TimelineStep } from './timeline.js';
export { renderTimelineText, renderTimelineSvg } from './timeline-render.js';
export { formatText, formatJson, formatSarif, textReport, jsonReport, groupByCause, type FindingGroup, type ReportOptions } from './report.js';
export { modelInject } from './inject.js';

/**
 * An input: a path (read from disk, as renderRequest reads its inputs; a big file is read again for
 * the second pass instead of being held), a name and its text, or a source read once per pass.
 */
export type AuditInput = InputText | InputSource | string;

/**
 * The audit's options: the inputs every command takes (InjectorOptions: the flags in camelCase, files as
 * paths or {name, text}), with the same meaning as for render, and the audit's own below. The earlier
 * names `injectorConfigMap` and `valuesFiles` are taken too.
 */
export interface AuditOptions extends Omit<InjectorOptions, 'injectorConfigmap' | 'injectConfigFile' | 'template' | 'values' | 'valuesFile' | 'iop' | 'mesh' | 'kubeVersion' | 'nativeSidecars' | 'filename'> {
  injectorConfigmap?: AuditInput;
  injectConfigFile?: AuditInput;
  /** An injection template, or the ConfigMap's data.config text, instead of the ConfigMap. */
  template?: AuditInput;
  /** Values that replace the injector ConfigMap's data.values, as `render --values` does; valuesFile merges. */
  values?: AuditInput;
  valuesFile?: AuditInput[];
  iop?: AuditInput[];
  /** The mesh config; overrides the input's. */
  mesh?: AuditInput;
  /** Workloads besides the inputs given as the first argument. */
  filename?: AuditInput | AuditInput[];
  /** The cluster's Kubernetes version (`1.28`, `v1.29.3`, or [1, 29]). */
  kubeVersion?: string | KubeVersion;
  /** istiod's ENABLE_NATIVE_SIDECARS when the values do not say (undefined: the values and --kube-version decide). */
  nativeSidecars?: boolean;
  /** @deprecated `injectorConfigmap` */
  injectorConfigMap?: AuditInput;
  /** @deprecated `valuesFile` */
  valuesFiles?: AuditInput[];
  /**
   * How raw workloads are injected: defaults to the real renderer; `null` uses the built-in model of
   * the injector's lifecycle decisions only.
   */
  inject?: InjectFn | null;
  /** Only these rule ids. */
  rules?: string[];
  /** Never these rule ids (an unknown id is an InputError listing the rules). */
  disable?: string[];
  /** Keep each judged workload for AuditResult.subjects (default true); false keeps only findings, so
   *  memory does not grow with the number of workloads. */
  keepSubjects?: boolean;
  /** Called while workloads are judged (for progress on big dumps). */
  onProgress?: (event: { phase: 'parsed' | 'judging' | 'done'; done: number; total: number; objects: number }) => void;
}

/** The annotation that silences rules for one workload: `RULE[, RULE...]: reason`, one entry a line. */
export const IGNORE_ANNOTATION = 'sidecar-render.io/ignore';

export interface AuditResult {
  /** What the run took for granted (release, Kubernetes version, native sidecars), one line. */
  assumptions: string;
  findings: Finding[];
  /** Findings a sidecar-render.io/ignore annotation silenced, each with the annotation's reason. */
  ignored: Array<Finding & { reason: string }>;
  /** Warnings for stderr, one line each: --values leaving out what the templates read, ignore
   *  annotations without a reason or naming an unknown rule (file:line:col). */
  notes: string[];
  /** Every workload judged, in input order (empty with keepSubjects: false). */
  subjects: Subject[];
  /** How many workloads were judged. */
  judged: number;
  /** Objects read (List items counted one by one). */
  objects: number;
}

function readBytes(file: string): Buffer {
  try {
    return readBytesLimited(file);
  } catch (e) {
    throw new InputError(e instanceof InputTooLarge ? e.message : readReason(e), file);
  }
}

/** A path read from disk, or text given with its name. */
export function inputText(x: AuditInput): InputText {
  if (typeof x === 'string') return { name: x, text: decodeInput(readBytes(x), x) };
  return 'read' in x ? { name: x.name, text: x.read() } : x;
}

/** The inputs judged, each read again for the second pass when it is a big file. */
function inputSource(x: AuditInput): InputText | InputSource {
  return typeof x === 'string' ? new FileSource(x, x, readBytes) : x;
}

/** An option's file as the resolver takes it: a source read for the audit's passes is read once here. */
function optionFile(x: AuditInput): InputFile {
  return typeof x === 'string' ? x : 'read' in x ? { name: x.name, text: x.read() } : x;
}

/** The audit's options as the resolver takes them (files read once, the Kubernetes version as text). */
function resolverOptions(o: AuditOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || ['inject', 'rules', 'disable', 'keepSubjects', 'onProgress', 'filename', 'nativeSidecars'].includes(k)) continue;
    if (k === 'kubeVersion') out[k] = Array.isArray(v) ? v.join('.') : v;
    else if (Array.isArray(v) && ['valuesFile', 'valuesFiles', 'iop'].includes(k)) out[k] = (v as AuditInput[]).map(optionFile);
    else if (['injectorConfigmap', 'injectorConfigMap', 'injectConfigFile', 'template', 'values', 'mesh'].includes(k)) out[k] = optionFile(v as AuditInput);
    else out[k] = v;
  }
  return out;
}

/** An object the first pass kept (Istio's configuration), as the resolver takes it. */
function fileObject(o: InputObject): FileObject | undefined {
  if (!(o.locator instanceof DocumentLocator)) return undefined;
  const doc = o.locator.doc;
  return { value: o.value as FileObject['value'], doc: o.path.length ? doc.sub(o.path) : doc };
}

/** Rules whose finding on a workload the injector renders holds only while native sidecars are off. */
const NEEDS_CLASSIC_PROXY = new Set(['job-never-completes']);

/** A finding that stands on an assumption says which, where nothing the user gave decided it. */
function assumedFor(rule: string, s: Subject): string {
  if (!NEEDS_CLASSIC_PROXY.has(rule) || s.injection === 'injected' || s.settings.native.evidence) return '';
  return ' (Assumed: native sidecars off, as nothing turns them on: no --native-sidecars, no --kube-version 1.33 or later, no ENABLE_NATIVE_SIDECARS in the values.)';
}

/** The injector ConfigMap's data.values, as read (JSON, as istiod writes it), for release detection. */
function injectorValues(config: IstioConfig): unknown {
  const text = getIn(config.injector?.object, ['data', 'values']);
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The audit's counterpart of render's assumptions line. */
function describeAssumptions(config: IstioConfig, kube: KubeVersion | undefined, o: AuditOptions, r: ResolvedInputs): string {
  const text = getIn(config.injector?.object, ['data', 'config']);
  const detected = typeof text === 'string' ? detectIstioVersion(text, injectorValues(config)) : undefined;
  const release = config.istioVersion
    ? `Istio ${formatIstioVersion(config.istioVersion)} (${releaseWhy(config.istioVersion, detected)})`
    : typeof text === 'string'
      ? `Istio ${formatIstioVersion(detected?.version ?? LATEST)} (${releaseWhy(undefined, detected)})`
      : o.inject === null
        ? 'the built-in model of current templates (--model)'
        : 'no injector template given: raw workloads judged with the built-in model of current templates';
  const kubeText = kube ? `Kubernetes ${kube.join('.')}` : 'Kubernetes version not given (--kube-version)';
  const native =
    o.nativeSidecars !== undefined
      ? `native sidecars ${o.nativeSidecars ? 'on' : 'off'} (--native-sidecars)`
      : "native sidecars as the values' pilot.env.ENABLE_NATIVE_SIDECARS say, else on from Kubernetes 1.33";
  return `assuming ${release}, ${kubeText}, ${native}; the pod's sidecar.istio.io/nativeSidecar annotation wins; ${describeSources(r.sources)}`;
}

/** The rules a run applies: `rules` (all by default) without `disable`; unknown ids are an error. */
function selectRules(o: AuditOptions): readonly Rule[] {
  const known = new Set(RULES.map((r) => r.id));
  for (const id of [...(o.rules ?? []), ...(o.disable ?? [])]) {
    if (!known.has(id)) throw new InputError(`unknown rule "${id}"; the rules are ${RULES.map((r) => r.id).join(', ')}`);
  }
  return RULES.filter((r) => (!o.rules || o.rules.includes(r.id)) && !(o.disable ?? []).includes(r.id));
}

/**
 * A workload's sidecar-render.io/ignore entries (on the object or its pod template): rule id to reason.
 * An entry without a reason, or naming no rule, silences nothing and becomes a note.
 */
function ignoresOf(w: Workload, notes: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const known = new Set(RULES.map((r) => r.id));
  const places: Array<{ text: string; path: PathSeg[] }> = [];
  const own = getIn(w.object.value, ['metadata', 'annotations', IGNORE_ANNOTATION]);
  if (typeof own === 'string') places.push({ text: own, path: [...w.object.path, 'metadata', 'annotations', IGNORE_ANNOTATION] });
  const pod = w.podPath.length > w.object.path.length ? w.annotations[IGNORE_ANNOTATION] : undefined;
  if (pod !== undefined) places.push({ text: pod, path: [...w.podPath, 'metadata', 'annotations', IGNORE_ANNOTATION] });
  for (const { text, path } of places) {
    const where = (): string => {
      const p = w.object.locator.pos(path);
      return p && w.object.locator.file ? `${w.object.locator.file}:${p.line}:${p.col}` : w.id;
    };
    // one warning of each kind per annotation, however many lines it has
    const unknown = new Set<string>();
    const reasonless: string[] = [];
    for (const entry of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
      const i = entry.indexOf(':');
      const ids = (i < 0 ? entry : entry.slice(0, i)).split(',').map((x) => x.trim()).filter(Boolean);
      const reason = i < 0 ? '' : entry.slice(i + 1).trim();
      for (const id of ids) if (!known.has(id)) unknown.add(id);
      if (!reason) {
        reasonless.push(entry);
        continue;
      }
      for (const id of ids) if (known.has(id)) out.set(id, reason);
    }
    if (unknown.size > 0) {
      notes.push(`${where()}: warning: ${IGNORE_ANNOTATION} names unknown rule${unknown.size > 1 ? 's' : ''} ${someOf([...unknown])}; the rules are ${[...known].join(', ')}`);
    }
    if (reasonless.length === 1) {
      notes.push(`${where()}: warning: ${IGNORE_ANNOTATION} "${clip(reasonless[0]!)}" has no reason, so it silences nothing; write "RULE: why it does not apply"`);
    } else if (reasonless.length > 1) {
      notes.push(`${where()}: warning: ${IGNORE_ANNOTATION} has ${reasonless.length} entries without a reason (the first "${clip(reasonless[0]!)}"), so they silence nothing; write "RULE: why it does not apply"`);
    }
  }
  return out;
}

/** The first names of a list, and how many more there are. */
function someOf(names: string[], n = 5): string {
  const shown = names.slice(0, n).map(clip).join(', ');
  return names.length > n ? `${shown} and ${names.length - n} more` : shown;
}

/** A text of the user's as a warning quotes it: at most 80 characters. */
function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

const NOWHERE: Locator = { file: '', pos: () => undefined };

/** A one-container Deployment: what templates and values alone are judged on. */
function representativeWorkload(): Workload {
  const spec = { containers: [{ name: 'app', image: 'app:latest', ports: [{ containerPort: 8080 }] }] };
  const value = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'representative-pod', namespace: 'default' }, spec: { template: { metadata: {}, spec } } };
  return {
    kind: 'Deployment',
    name: 'representative-pod',
    namespace: 'default',
    id: 'Deployment/default/representative-pod',
    object: { value, locator: NOWHERE, path: [] },
    podPath: ['spec', 'template'],
    annotations: {},
    labels: {},
    spec,
    runsToCompletion: false,
  };
}

function detachedMap(m: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const k of Object.keys(m)) out[detached(k)] = detached(m[k]!);
  return out;
}

/** What ownedByPresent reads of an object, copied: its namespace and its owners' kinds, names and controller flags. */
function ownerFacts(namespace: unknown, refs: unknown): JsonObject {
  const kept = (v: unknown): string | undefined => (typeof v === 'string' ? detached(v) : undefined);
  const ownerReferences = asArray(refs).map((r) => (isObject(r) ? { kind: kept(get(r, 'kind')), name: kept(get(r, 'name')), controller: get(r, 'controller') === false ? false : undefined } : null));
  return { metadata: { namespace: kept(namespace), ownerReferences } };
}

/** One copy of the texts findings repeat (fixes, container names), up to a bound so it cannot grow with the input. */
class Interned {
  private readonly seen = new Map<string, string>();
  of(s: string): string {
    const hit = this.seen.get(s);
    if (hit !== undefined) return hit;
    const copy = detached(s);
    if (this.seen.size < 4096) this.seen.set(copy, copy);
    return copy;
  }
}

/** The evidence's values alone: lazy evidence holds its workload's parsed object until read, and
 *  findings outlive the workload they are about. */
function settled(e: Evidence): Evidence {
  const out: Evidence = { path: detached(e.path) };
  if (e.file !== undefined) out.file = e.file;
  if (e.line !== undefined) out.line = e.line;
  if (e.col !== undefined) out.col = e.col;
  if (e.flag !== undefined) out.flag = e.flag;
  return out;
}

/** file:line:col of the evidence; else of the workload it is about (a flag, a default); else its path. */
export function location(e: Evidence, w?: Workload): string {
  if (e.file && e.line) return `${e.file}:${e.line}:${e.col ?? 1}`;
  if (e.flag) return e.flag;
  const p = w?.object.locator.pos(w.object.path);
  return p && w?.object.locator.file ? `${w.object.locator.file}:${p.line}:${p.col}` : e.path;
}

/** Judge every workload of the inputs; findings in input order, most severe first within a workload. */
export function auditDetailed(inputs: ReadonlyArray<AuditInput>, options: AuditOptions = {}): AuditResult {
  const kubeVersion =
    typeof options.kubeVersion === 'string'
      ? (parseKubeVersion(options.kubeVersion) ??
        (() => {
          throw new InputError(`--kube-version: cannot read "${options.kubeVersion}" (expected e.g. 1.29)`);
        })())
      : options.kubeVersion;
  // First pass: only what judging any workload needs from the whole input (the Istio configuration,
  // Namespace labels, which workloads exist); each object is dropped once looked at.
  const sources = [...inputs, ...(options.filename === undefined ? [] : Array.isArray(options.filename) ? options.filename : [options.filename])].map(inputSource);
  const configObjects: InputObject[] = [];
  const namespaces = new Map<string, Record<string, string>>();
  const present = new Set<string>();
  const owners: JsonObject[] = [];
  let objectCount = 0;
  let workloadCount = 0;
  for (const o of streamObjects(sources)) {
    objectCount++;
    if (configKind(o.value as FileObject['value'])) configObjects.push(o);
    // what is kept of an object is copied: a piece of it would keep the whole text of its List item
    if (get(o.value, 'kind') === 'Namespace') namespaces.set(detached(String(getIn(o.value, ['metadata', 'name']) ?? '')), detachedMap(asStringMap(getIn(o.value, ['metadata', 'labels']))));
    const w = toWorkload(o);
    if (!w) continue;
    workloadCount++;
    present.add(detached(workloadId(w.kind, w.namespace, w.name)));
    const refs = getIn(o.value, ['metadata', 'ownerReferences']);
    if (refs !== undefined) owners.push(ownerFacts(getIn(o.value, ['metadata', 'namespace']), refs));
  }
  const found = configObjects.map(fileObject).filter((x): x is FileObject => x !== undefined);
  const resolved = resolveInputs(resolverOptions(options) as InjectorOptions, { found, injectorOptional: true, validate: false });
  const config = configFromResolved(resolved);
  const notes: string[] = [...resolved.warnings];
  const total = workloadCount - owners.filter((o) => ownedByPresent(o, present)).length;
  const representative = total === 0 && !!(config.injector || config.values || config.mesh);
  /** Second pass: the workloads judged, in input order, each parsed again and dropped once judged. */
  function* judged(): Generator<Workload> {
    if (representative) {
      yield representativeWorkload();
      return;
    }
    for (const o of streamObjects(sources)) {
      const w = toWorkload(o);
      if (w && !ownedByPresent(w.object.value, present)) yield w;
    }
  }

  const inject = options.inject === null ? undefined : (options.inject ?? defaultInject);
  const rules = selectRules(options);
  const progress = options.onProgress;
  const workloadsTotal = representative ? 1 : total;
  progress?.({ phase: 'parsed', done: 0, total: workloadsTotal, objects: objectCount });

  const findings: Finding[] = [];
  const ignored: AuditResult['ignored'] = [];
  const shared = new Interned();
  const subjects: Subject[] = [];
  const keep = options.keepSubjects !== false;
  let i = -1;
  for (const w of judged()) {
    i++;
    const ignores = ignoresOf(w, notes);
    const s = buildSubject(w, {
      config,
      inject,
      kubeVersion,
      nativeSidecars: options.nativeSidecars,
      injectable: wouldInject(w, namespaces.size ? namespaces : undefined),
    });
    if (keep) subjects.push(s);
    const mine: Finding[] = [];
    const seen = new Set<string>();
    let place: string | undefined;
    for (const rule of rules) {
      if (!applies(rule, s)) continue;
      rule.check(s, (f) => {
        const message = f.message + assumedFor(rule.id, s);
        const container = f.container ?? null;
        const key = `${rule.id}\0${container}\0${message}`;
        if (seen.has(key)) return;
        seen.add(key);
        const finding: Finding = {
          rule: rule.id,
          severity: f.severity ?? rule.severity,
          workload: detached(w.id),
          container: container === null ? null : shared.of(container),
          message: detached(message),
          location: detached(location(f.evidence, w)),
          fix: shared.of(f.fix),
        };
        evidenceOf.set(finding, settled(f.evidence));
        workloadLocationOf.set(finding, (place ??= detached(location({ path: w.id }, w))));
        mine.push(finding);
      });
    }
    mine.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
    for (const f of mine) {
      const reason = ignores.get(f.rule);
      if (reason === undefined) findings.push(f);
      else ignored.push({ ...f, reason });
    }
    if (progress && (i + 1) % 500 === 0) progress({ phase: 'judging', done: i + 1, total: workloadsTotal, objects: objectCount });
  }
  progress?.({ phase: 'done', done: workloadsTotal, total: workloadsTotal, objects: objectCount });
  return { assumptions: describeAssumptions(config, kubeVersion, options, resolved), findings, ignored, notes, subjects, judged: i + 1, objects: objectCount };
}

export { evidenceOf, workloadLocationOf } from './types.js';

export function audit(inputs: ReadonlyArray<AuditInput>, options: AuditOptions = {}): Finding[] {
  return auditDetailed(inputs, options).findings;
}

/** Findings at or above a severity. */
export function atOrAbove(findings: Finding[], severity: 'info' | 'warning' | 'error'): Finding[] {
  return findings.filter((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK[severity]);
}
