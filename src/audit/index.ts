// sidecar-render audit: find sidecar lifecycle hazards in workloads, injector templates and cluster dumps.
//
//   audit(inputs, options)          → Finding[]
//   auditDetailed(inputs, options)  → findings plus the judged workloads (for timelines)
//   timeline(subject)               → what the kubelet does at start and stop, step by step

import {
  fromIstioOperator,
  injectorFromConfigMap,
  injectorFromFile,
  isInjectorConfigMap,
  isIstioOperator,
  isMeshConfigMap,
  meshFromConfigMap,
  meshFromFile,
  overlay,
  valuesFromFile,
  type IstioConfig,
} from './context.js';
import { loadObjects, type InputObject, type InputText } from './input.js';
import type { InjectFn } from './inject.js';
import { RULES, type Rule } from './rules/index.js';
import { buildSubject, type Subject } from './subject.js';
import { asStringMap, evidenceOf, get, getIn, parseKubeVersion, SEVERITY_RANK, type Evidence, type Finding, type KubeVersion, type Locator } from './types.js';
import { ownedByPresent, toWorkload, wouldInject, workloadId, type Workload } from './workload.js';
import { InputError } from './input.js';
import { defaultInject } from './render.js';

export type { Finding, Severity, Evidence, KubeVersion } from './types.js';
export type { InjectFn, InjectContext, InjectWorkload } from './inject.js';
export type { Subject, ContainerView, Injection } from './subject.js';
export type { Rule } from './rules/index.js';
export type { InputText } from './input.js';
export { InputError } from './input.js';
export { RULES } from './rules/index.js';
export { timeline, type Timeline, type TimelineStep } from './timeline.js';
export { renderTimelineText, renderTimelineSvg } from './timeline-render.js';
export { formatText, formatJson, formatSarif } from './report.js';
export { modelInject } from './inject.js';

export interface AuditOptions {
  /** A mesh config file (`istio` ConfigMap, IstioOperator, or the mesh config itself); overrides the input's. */
  mesh?: InputText;
  /** Injector values (values object, IstioOperator, or injector ConfigMap); overrides the input's. */
  values?: InputText;
  /** The `istio-sidecar-injector` ConfigMap; overrides the input's. */
  injectorConfigMap?: InputText;
  /** The cluster's Kubernetes version (`1.28`, `v1.29.3`). */
  kubeVersion?: string | KubeVersion;
  /** istiod's ENABLE_NATIVE_SIDECARS when the values do not say. */
  nativeSidecars?: boolean;
  /**
   * How raw workloads are injected: defaults to the real renderer; `null` uses the built-in model of
   * the injector's lifecycle decisions only.
   */
  inject?: InjectFn | null;
  /** Only these rule ids. */
  rules?: string[];
  /** Called while workloads are judged (for progress on big dumps). */
  onProgress?: (event: { phase: 'parsed' | 'judging' | 'done'; done: number; total: number; objects: number }) => void;
}

export interface AuditResult {
  findings: Finding[];
  /** Every workload judged, in input order. */
  subjects: Subject[];
  /** Objects read (List items counted one by one). */
  objects: number;
}

function toTexts(inputs: ReadonlyArray<InputText | string>): InputText[] {
  return inputs.map((x, i) => (typeof x === 'string' ? { name: inputs.length > 1 ? `<input ${i + 1}>` : '<input>', text: x } : x));
}

/** The Istio configuration the input itself carries (ConfigMaps, IstioOperator). */
function configFromObjects(objs: InputObject[]): IstioConfig {
  const cfg: IstioConfig = {};
  const meshes = objs.filter((o) => isMeshConfigMap(o.value));
  const mesh = meshes.find((o) => getIn(o.value, ['metadata', 'name']) === 'istio') ?? meshes[0];
  if (mesh) cfg.mesh = meshFromConfigMap(mesh);
  const injectors = objs.filter((o) => isInjectorConfigMap(o.value));
  const inj = injectors.find((o) => getIn(o.value, ['metadata', 'name']) === 'istio-sidecar-injector') ?? injectors[0];
  if (inj) cfg.injector = injectorFromConfigMap(inj);
  const op = objs.find((o) => isIstioOperator(o.value));
  if (op) {
    const fromOp = fromIstioOperator(op);
    cfg.values = fromOp.values;
    if (!cfg.mesh) cfg.mesh = fromOp.mesh;
  }
  return cfg;
}

function configFromFlags(o: AuditOptions): IstioConfig {
  const cfg: IstioConfig = {};
  if (o.mesh) cfg.mesh = meshFromFile(loadObjects([o.mesh]), o.mesh.name);
  if (o.values) cfg.values = valuesFromFile(loadObjects([o.values]), o.values.name);
  if (o.injectorConfigMap) cfg.injector = injectorFromFile(loadObjects([o.injectorConfigMap]), o.injectorConfigMap.name);
  return cfg;
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

/** file:line:col of the evidence; else of the workload it is about (a flag, a default); else its path. */
export function location(e: Evidence, w?: Workload): string {
  if (e.file && e.line) return `${e.file}:${e.line}:${e.col ?? 1}`;
  const p = w?.object.locator.pos(w.object.path);
  return p && w?.object.locator.file ? `${w.object.locator.file}:${p.line}:${p.col}` : e.path;
}

/** Judge every workload of the inputs; findings in input order, most severe first within a workload. */
export function auditDetailed(inputs: ReadonlyArray<InputText | string>, options: AuditOptions = {}): AuditResult {
  const kubeVersion =
    typeof options.kubeVersion === 'string'
      ? (parseKubeVersion(options.kubeVersion) ??
        (() => {
          throw new InputError(`--kube-version: cannot read "${options.kubeVersion}" (expected e.g. 1.29)`);
        })())
      : options.kubeVersion;
  const objects = loadObjects(toTexts(inputs));
  const config = overlay(configFromObjects(objects), configFromFlags(options));

  const namespaces = new Map<string, Record<string, string>>();
  for (const o of objects) {
    if (get(o.value, 'kind') === 'Namespace') namespaces.set(String(getIn(o.value, ['metadata', 'name']) ?? ''), asStringMap(getIn(o.value, ['metadata', 'labels'])));
  }
  let workloads: Workload[] = [];
  for (const o of objects) {
    const w = toWorkload(o);
    if (w) workloads.push(w);
  }
  const present = new Set(workloads.map((w) => workloadId(w.kind, w.namespace, w.name)));
  workloads = workloads.filter((w) => !ownedByPresent(w.object.value, present));
  if (workloads.length === 0 && (config.injector || config.values || config.mesh)) workloads.push(representativeWorkload());

  const inject = options.inject === null ? undefined : (options.inject ?? defaultInject);
  const rules: readonly Rule[] = options.rules ? RULES.filter((r) => options.rules!.includes(r.id)) : RULES;
  const progress = options.onProgress;
  progress?.({ phase: 'parsed', done: 0, total: workloads.length, objects: objects.length });

  const findings: Finding[] = [];
  const subjects: Subject[] = [];
  workloads.forEach((w, i) => {
    const s = buildSubject(w, {
      config,
      inject,
      kubeVersion,
      nativeSidecars: options.nativeSidecars,
      injectable: wouldInject(w, namespaces.size ? namespaces : undefined),
    });
    subjects.push(s);
    const mine: Finding[] = [];
    const seen = new Set<string>();
    for (const rule of rules) {
      rule.check(s, (f) => {
        const finding: Finding = {
          rule: rule.id,
          severity: f.severity ?? rule.severity,
          workload: w.id,
          container: f.container ?? null,
          message: f.message,
          location: location(f.evidence, w),
          fix: f.fix,
        };
        const key = `${finding.rule}\0${finding.container}\0${finding.message}`;
        if (seen.has(key)) return;
        seen.add(key);
        evidenceOf.set(finding, f.evidence);
        mine.push(finding);
      });
    }
    mine.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
    findings.push(...mine);
    if (progress && (i + 1) % 500 === 0) progress({ phase: 'judging', done: i + 1, total: workloads.length, objects: objects.length });
  });
  progress?.({ phase: 'done', done: workloads.length, total: workloads.length, objects: objects.length });
  return { findings, subjects, objects: objects.length };
}

export { evidenceOf } from './types.js';

export function audit(inputs: ReadonlyArray<InputText | string>, options: AuditOptions = {}): Finding[] {
  return auditDetailed(inputs, options).findings;
}

/** Findings at or above a severity. */
export function atOrAbove(findings: Finding[], severity: 'info' | 'warning' | 'error'): Finding[] {
  return findings.filter((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK[severity]);
}
