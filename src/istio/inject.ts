// What istiod does once it has decided to look at a pod: the injection policy (injectRequired), the
// choice of templates, executing each with the Istio function set over SidecarTemplateData (the
// template stage, whose text `render` prints), and merging that output into the pod (RunTemplate's
// overlay, then webhook.ts's steps, for `render --merged`).
//
//   injectionDecision(config, pod)         istiod's injectRequired, with its reason
//   selectTemplates(config, annotations)   template names for a pod (inject.istio.io/templates, aliases)
//   detectIstioVersion(config)             the release a ConfigMap's templates were written for
//   Renderer                               parsed templates + inputs; .renderWorkload(w) per workload
//
// Mirrors: istio.io/istio pkg/kube/inject/inject.go (injectRequired, RunTemplate)
// Proven by: test/istio/ (inject-conformance runs Istio's own injection goldens)

import { nodeCrypto } from '../guard/builtins.js';
import { Template } from '../go/text/template/template.js';
import { ExecError, TemplateError } from '../go/text/template/errors.js';
import { LimitError, type ExecOptions } from '../go/text/template/template.js';
import type { FuncMap, GoValue } from '../go/reflect/value.js';
import { istioFuncs } from './template.js';
import { goJsonMarshal } from '../go/encoding/json/json.js';
import { InputError, loadYamlDocuments, type LoadedDocument } from '../yaml/load.js';
import { applyInjectionSpec, applySpecConcurrency, asDecodedByIstiod, isInjectionSpec, moveProxyToInit, reorderPod, strategicMergePod, hasContainer, PROXY_CONTAINER } from './merge.js';
import { isObject, jsonShaped, strMap, type Json, type JsonObject } from '../go/encoding/json/value.js';
import { postProcessPod } from './postprocess.js';
import { checkGo, GoJsonError } from '../go/encoding/json/structs.js';
import { Pod } from '../k8s/core.js';
import { applyKubeDefaults } from '../k8s/defaults.js';
import { podAnnotationError } from './annotations.js';
import { workloadLabel, type Workload } from './workload.js';
import { buildTemplateData, proxyConfigJSON, PROXY_CONFIG_ANNOTATION, type TemplateDataInput } from './data.js';
import { detectIstioVersion as detectFromText, formatIstioVersion, LATEST, type IstioVersion } from './version.js';
import { has } from './releases.js';
import { kubeAtLeast } from '../k8s/version.js';
import { SIDECAR_TEMPLATE, type InjectorConfig } from './configmap.js';
import { formatProblem, validateProxyConfigAnnotation } from './validate.js';
import { firstLineOf } from '../yaml/load.js';
import { reapplyOverwrittenContainers, applyClusterInfo, parseTemplateOutput } from './webhook.js';

export { SIDECAR_TEMPLATE, type InjectorConfig, type TextPosition } from './configmap.js';


/** A problem with the inputs (not with one workload): the project's one-line InputError. */
export { InputError as RenderInputError };

/** A template of the config that does not parse: bad input for the whole run, whichever pod found it. */
class UnparsableTemplate extends InputError {}


// ---------- which release wrote the templates ----------

/** The release the templates were written for (from what they use); the newest when nothing tells. */
export function detectIstioVersion(config: InjectorConfig, configText?: string, values?: unknown): IstioVersion {
  const text = configText ?? config.source;
  return detectFromText(text, values)?.version ?? LATEST;
}

// ---------- the injection policy (istiod's injectRequired) ----------

export interface InjectionDecision {
  inject: boolean;
  reason: string;
}

const IGNORED_NAMESPACES = ['kube-system', 'kube-public'];

function labelsMatch(sel: JsonObject, labels: Record<string, string>): boolean | undefined {
  const ml = isObject(sel.matchLabels) ? sel.matchLabels : {};
  const exprs = Array.isArray(sel.matchExpressions) ? sel.matchExpressions.filter(isObject) : [];
  // An empty selector selects nothing here: istiod skips it (`!selector.Empty()`).
  if (Object.keys(ml).length === 0 && exprs.length === 0) return undefined;
  for (const k of Object.keys(ml)) if (labels[k] !== String(ml[k])) return false;
  for (const e of exprs) {
    const key = String(e.key ?? '');
    const vals = Array.isArray(e.values) ? e.values.map(String) : [];
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    switch (e.operator) {
      case 'In':
        if (!has || !vals.includes(labels[key]!)) return false;
        break;
      case 'NotIn':
        if (has && vals.includes(labels[key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return undefined;
    }
  }
  return true;
}

/** istiod's injectRequired for the pod template: host network, system namespaces, annotation/label, selectors, policy. */
export function injectionDecision(config: InjectorConfig, pod: { metadata: JsonObject; spec: JsonObject; namespace: string }): InjectionDecision {
  if (pod.spec.hostNetwork === true) return { inject: false, reason: 'host networking is enabled' };
  if (IGNORED_NAMESPACES.includes(pod.namespace)) return { inject: false, reason: `namespace ${pod.namespace} is never injected` };
  const annos = strMap(pod.metadata.annotations);
  const labels = strMap(pod.metadata.labels);
  let selector = annos['sidecar.istio.io/inject'] ?? '';
  let from = 'annotation';
  if (Object.prototype.hasOwnProperty.call(labels, 'sidecar.istio.io/inject')) {
    // The label is the newer API and wins over the annotation.
    selector = labels['sidecar.istio.io/inject']!;
    from = 'label';
  }
  let useDefault = false;
  let inject = false;
  switch (selector.toLowerCase()) {
    case 'y':
    case 'yes':
    case 'true':
    case 'on':
      inject = true;
      break;
    case '':
      useDefault = true;
      break;
  }
  let reason = useDefault ? '' : `sidecar.istio.io/inject ${from} is "${selector}"`;
  if (useDefault) {
    for (const s of config.neverInjectSelector) {
      if (labelsMatch(s, labels) === true) {
        useDefault = false;
        inject = false;
        reason = 'pod labels match neverInjectSelector';
        break;
      }
    }
  }
  if (useDefault) {
    for (const s of config.alwaysInjectSelector) {
      if (labelsMatch(s, labels) === true) {
        useDefault = false;
        inject = true;
        reason = 'pod labels match alwaysInjectSelector';
        break;
      }
    }
  }
  switch (config.policy) {
    case 'enabled':
      return useDefault ? { inject: true, reason: 'policy is enabled' } : { inject, reason };
    case 'disabled':
      return useDefault ? { inject: false, reason: 'policy is disabled' } : { inject, reason };
    default:
      return { inject: false, reason: `policy "${config.policy}" is neither enabled nor disabled` };
  }
}

/**
 * The config as istioctl kube-inject uses it: only the templates (IntoObject builds its own Config with
 * the policy enabled, the `sidecar` default template, and no aliases, selectors or injectedAnnotations).
 */
export function kubeInjectConfig(config: InjectorConfig): InjectorConfig {
  return { ...config, policy: 'enabled', defaultTemplates: [SIDECAR_TEMPLATE], aliases: Object.create(null) as InjectorConfig['aliases'], neverInjectSelector: [], alwaysInjectSelector: [], injectedAnnotations: Object.create(null) as InjectorConfig['injectedAnnotations'] };
}

/** Template names for a pod: the inject.istio.io/templates annotation, else defaultTemplates; aliases expanded. */
export function selectTemplates(config: InjectorConfig, annotations: Record<string, string>): string[] {
  const a = annotations['inject.istio.io/templates'];
  const names = a !== undefined ? a.split(',').map((s) => s.trim()) : config.defaultTemplates;
  return names.flatMap((n) => config.aliases[n] ?? [n]);
}

// ---------- workloads ----------

export { workloadLabel };

function getPath(o: JsonObject, path: (string | number)[]): JsonObject | undefined {
  let cur: Json = o;
  for (const seg of path) {
    if (Array.isArray(cur) && typeof seg === 'number') cur = cur[seg] ?? null;
    else if (isObject(cur)) cur = cur[String(seg)] ?? null;
    else return undefined;
  }
  return isObject(cur) ? cur : undefined;
}

/** The workload object as given (the document, or the List item). */
export function objectOf(w: Workload): JsonObject {
  return jsonShaped(w.doc.value) as JsonObject;
}

// ---------- rendering ----------

export type NativeSidecarsMode = 'auto' | 'true' | 'false';
export type RenderMode = 'webhook' | 'kube-inject';
export const RENDER_MODES: readonly RenderMode[] = ['webhook', 'kube-inject'];

export interface RenderOptions {
  istioVersion?: IstioVersion;
  revision?: string;
  nativeSidecars?: NativeSidecarsMode;
  /** "1.33" etc.; `auto` native sidecars turn on from 1.33. */
  kubeVersion?: string;
  /** The environment the template's `env` reads (istiod's). */
  env?: Record<string, string>;
  /** Fill in the API server's pod defaults first, as istiod sees pods after admission defaulting (default
   *  true in webhook mode, never in kube-inject mode). */
  kubeDefaults?: boolean;
  /**
   * `webhook` (default): what istiod's admission webhook does to the pod the API server has defaulted.
   * `kube-inject`: what `istioctl kube-inject` does to the pod as written: the policy is always enabled
   * (selectors not read), the `sidecar` template unless the pod names others, no aliases and no
   * injectedAnnotations; with merged output, the file as istioctl prints it.
   */
  mode?: RenderMode;
  /** Limits for each template execution (output size, time, depth, ...); the engine's defaults otherwise. */
  limits?: ExecOptions;
}

export interface RenderInputs {
  config: InjectorConfig;
  values: JsonObject;
  /** Mesh config as given (plain MeshConfig YAML fields); Istio's defaults are filled in by the data builder. */
  mesh: JsonObject;
  /** Where the mesh config came from, for messages. */
  meshOrigin?: string;
  /** Validation warnings about the inputs, one line each (file:line:col: warning: ...). */
  warnings?: string[];
  /** The istiod revision the inputs belong to (a chart's `revision`), when the options do not say. */
  revision?: string;
  /** The whole values (data.values or --values) before edits: release detection reads the chart's keys. */
  releaseValues?: JsonObject;
}

export interface WorkloadResult {
  workload: Workload;
  label: string;
  decision: InjectionDecision;
  /** Template names executed. */
  templates: string[];
  /** The template stage output, one entry per template. */
  outputs: string[];
  /** The workload object with the merged pod, when merging was asked for and injection happened. */
  merged?: JsonObject;
  hold: boolean;
  native: boolean;
  error?: string;
  /** Validation warnings about this workload's inputs (its proxy.istio.io/config annotation). */
  warnings: string[];
}

/**
 * istiod's ENABLE_NATIVE_SIDECARS for this run. `auto` is what istiod does by default: from 1.28 (which
 * detects the nodes' Kubernetes version) on when the cluster runs 1.33 or later; earlier releases had
 * only an explicit flag, off by default.
 */
export function nativeSidecarsOn(opts: RenderOptions, version: IstioVersion = LATEST): boolean {
  const mode = opts.nativeSidecars ?? 'auto';
  if (mode === 'true') return true;
  if (mode === 'false') return false;
  return has(version, 'native.autoFromKubeVersion') && kubeAtLeast(opts.kubeVersion, 1, 33);
}

/** A bool field as istiod reads it: a bool, or a google.protobuf.BoolValue written as {value: bool}. */
export function boolField(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (isObject((v ?? null) as Json) && typeof (v as JsonObject).value === 'boolean') return (v as JsonObject).value as boolean;
  return undefined;
}

/**
 * holdApplicationUntilProxyStarts as istiod's reorderPod decides it: on when the pod's ProxyConfig (the
 * mesh's defaultConfig, the pod's proxy.istio.io/config over it) or the values say so. The one place
 * this is decided; the audit asks it too, with the same fields it cites.
 */
export function holdOf(valuesHold: unknown, proxyConfigHold: unknown): boolean {
  return boolField(proxyConfigHold) === true || boolField(valuesHold) === true;
}

/** holdOf for the values, the mesh config and the pod's annotations as given. */
export function holdRequested(values: JsonObject, mesh: JsonObject, annotations: Record<string, string>): boolean {
  let proxyConfigHold: unknown = isObject(mesh.defaultConfig) ? mesh.defaultConfig.holdApplicationUntilProxyStarts : undefined;
  const pca = annotations[PROXY_CONFIG_ANNOTATION];
  if (pca !== undefined) {
    try {
      const p = loadYamlDocuments(pca, PROXY_CONFIG_ANNOTATION, { format: 'yaml', duplicateKeys: 'last' })[0]?.value as unknown;
      if (isObject(p as Json) && boolField((p as JsonObject).holdApplicationUntilProxyStarts) !== undefined) proxyConfigHold = (p as JsonObject).holdApplicationUntilProxyStarts;
    } catch {
      // an unreadable annotation fails the render elsewhere
    }
  }
  const g = isObject(values.global) ? values.global : undefined;
  const p = g && isObject(g.proxy) ? g.proxy : undefined;
  return holdOf(p?.holdApplicationUntilProxyStarts, proxyConfigHold);
}

/** Function maps built once per (release, environment): templates parsed with one are cached too. */
interface FuncsEntry {
  key: string;
  funcs: FuncMap;
  /** What the legacy `render` function executes with: the data of the execution in progress. */
  ctx: { data: GoValue };
}

/** Small caches that live as long as the process (a golden matrix renders the same inputs many times). */
export class Bounded<V> {
  private readonly m = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(k: string): V | undefined {
    return this.m.get(k);
  }
  set(k: string, v: V): void {
    if (this.m.size >= this.max) this.m.delete(this.m.keys().next().value!);
    this.m.set(k, v);
  }
}

const funcsCache = new Bounded<FuncsEntry>(32);
/** Parsed templates by function map and text (a parse error is cached as the error). */
const templateCache = new Bounded<Template | TemplateError>(256);

/** The Istio template functions this release's FuncMap lacks (template.go or inject.go of the tag). */
function absentFuncs(version: IstioVersion): Set<string> {
  const present: [string, boolean][] = [
    ['appendMultusNetwork', has(version, 'func.appendMultusNetwork')],
    ['excludeInterfaces', has(version, 'func.excludeInterfaces')],
    ['omit', has(version, 'func.omit')],
    ['strdict', has(version, 'func.strdict')],
    ['toJsonMap', has(version, 'func.toJsonMap')],
    ['mergeMaps', has(version, 'func.mergeMaps')],
    ['omitNil', has(version, 'func.omitNil')],
    ['otelResourceAttributes', has(version, 'func.otelResourceAttributes')],
  ];
  return new Set(present.filter(([, on]) => !on).map(([n]) => n));
}

function funcsFor(version: IstioVersion, env: Record<string, string>, legacyRender: boolean): FuncsEntry {
  const envKey = Object.keys(env)
    .sort()
    .map((k) => `${k}=${env[k]}`)
    .join('\0');
  const key = `${formatIstioVersion(version)}|${legacyRender ? 'r' : ''}|${envKey}`;
  const hit = funcsCache.get(key);
  if (hit) return hit;
  const ctx: { data: GoValue } = { data: null };
  const opts: Parameters<typeof istioFuncs>[0] = {
    env: { ...env },
    legacyToJson: has(version, 'func.toJson.istio'),
    multusNamespaced: has(version, 'func.appendMultusNetwork.namespaced'),
    yamlLineWrap: !has(version, 'output.yamlNoLineWrap'),
    absent: absentFuncs(version),
    protoToJSON: (m) => proxyConfigJSON(version, m),
  };
  const entry: FuncsEntry = { key, funcs: Object.create(null) as FuncMap, ctx };
  if (legacyRender) {
    // 1.5-1.7's render: the text parsed with the same functions, executed over the pod's data
    opts.render = (text: string) => {
      try {
        const t = parsedTemplate(entry, text);
        if (t instanceof TemplateError) return '';
        return t.execute(ctx.data);
      } catch {
        return '';
      }
    };
  }
  entry.funcs = istioFuncs(opts);
  funcsCache.set(key, entry);
  return entry;
}

function parsedTemplate(f: FuncsEntry, text: string): Template | TemplateError {
  const key = `${f.key}\0${text}`;
  const hit = templateCache.get(key);
  if (hit) return hit;
  let t: Template | TemplateError = new Template('inject').funcs(f.funcs);
  try {
    t.parse(text);
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    t = e;
  }
  templateCache.set(key, t);
  return t;
}

/** The flag that changes each execution limit, for messages. */
const LIMIT_FLAGS: Array<[RegExp, string]> = [
  [/output exceeds the limit/, '--max-output'],
  [/range iterations exceed/, '--max-iterations'],
  [/time limit/, '--timeout'],
  [/maximum template depth/, '--max-depth'],
  [/bytes per value|printed value exceeds/, '--max-value'],
  [/elements exceeds the limit/, '--max-list'],
  [/built by functions exceed/, '--max-built'],
];

/** A limit error's text with the flag that raises it. */
export function limitHint(message: string): string {
  const f = LIMIT_FLAGS.find(([re]) => re.test(message));
  return f ? `${message} (raise it with ${f[1]})` : message;
}

export class Renderer {
  readonly version: IstioVersion;
  private funcsEntry?: FuncsEntry;
  private readonly parsed = new Map<string, Template | TemplateError>();

  constructor(
    readonly inputs: RenderInputs,
    readonly opts: RenderOptions = {},
  ) {
    this.version = opts.istioVersion ?? detectIstioVersion(inputs.config, undefined, inputs.releaseValues);
    if (opts.mode === 'kube-inject') this.inputs = { ...inputs, config: kubeInjectConfig(inputs.config) };
  }

  /** The environment `env` sees: --env, plus ENABLE_NATIVE_SIDECARS when native sidecars are on. */
  env(): Record<string, string> {
    const env: Record<string, string> = Object.create(null);
    if (nativeSidecarsOn(this.opts, this.version)) env.ENABLE_NATIVE_SIDECARS = 'true';
    Object.assign(env, this.opts.env ?? {});
    return env;
  }

  private usesRender(): boolean {
    return has(this.version, 'func.render');
  }

  private funcs(): FuncsEntry {
    return (this.funcsEntry ??= funcsFor(this.version, this.env(), this.usesRender()));
  }

  /** The config's template `name`, parsed with this release's functions (once per renderer). */
  template(name: string): Template {
    const text = this.inputs.config.templates[name];
    if (text === undefined) {
      const have = Object.keys(this.inputs.config.templates).sort().join(', ');
      throw new Error(`requested template "${name}" not found; have ${have}`);
    }
    let t = this.parsed.get(name);
    if (!t) {
      // the shared cache hashes the whole text: look it up once per renderer, not per workload
      t = parsedTemplate(this.funcs(), text);
      this.parsed.set(name, t);
    }
    if (t instanceof TemplateError) {
      const e = this.positioned(t, name);
      throw e instanceof InputError ? new UnparsableTemplate(e.reason, e.file, e.line, e.col) : new UnparsableTemplate(e.message);
    }
    return t;
  }

  /**
   * Parse the templates every pod gets (defaultTemplates, aliases expanded) before any workload: one that
   * does not parse fails the whole run (an InputError at its line in the file). The others are parsed
   * when a pod first selects them (inject.istio.io/templates), so a ConfigMap of six templates starts as
   * fast as one of one; one of those that does not parse stops the run there, the same way.
   */
  prepare(): void {
    const c = this.inputs.config;
    if (Object.keys(c.templates).length === 0) throw new InputError('the injector config has no templates (neither `templates` nor `template`)', c.positions[SIDECAR_TEMPLATE]?.file);
    for (const name of c.defaultTemplates.flatMap((n) => c.aliases[n] ?? [n])) if (c.templates[name] !== undefined) this.template(name);
  }

  /** Execute a template over the pod's data, with the run's limits. */
  private execute(t: Template, data: GoValue): string {
    const ctx = this.funcs().ctx;
    const prev = ctx.data;
    ctx.data = data;
    try {
      return t.execute(data, this.opts.limits);
    } finally {
      ctx.data = prev;
    }
  }

  /** The mesh's default interception mode (what adjustInitContainerUser reads). */
  private interceptionMode(): string {
    const dc = isObject(this.inputs.mesh.defaultConfig ?? null) ? (this.inputs.mesh.defaultConfig as JsonObject) : {};
    return typeof dc.interceptionMode === 'string' ? dc.interceptionMode : 'REDIRECT';
  }

  /** Prefix a template error with the position of the failing line in the ConfigMap or template file. */
  private positioned(e: unknown, name: string): Error {
    if (!(e instanceof TemplateError)) return e instanceof Error ? e : new Error(String(e));
    const message = e instanceof LimitError ? limitHint(e.message) : e.message;
    const at = this.inputs.config.positions[name];
    if (!at || e.line <= 0) return e instanceof LimitError ? new Error(message) : e;
    const line = at.line + e.line - 1;
    // Go's column is a 0-based byte offset in the template line; ours is 1-based in the file.
    const col = at.col + e.col + 1;
    return new InputError(message, at.file, line, col);
  }

  /** The pod's proxy.istio.io/config (read since 1.6) against the ProxyConfig schema: unknown fields
   *  are warnings naming the workload, a wrong type fails it. */
  private checkProxyConfigAnnotation(w: Workload, annotations: Record<string, string>, result: WorkloadResult): void {
    if (annotations[PROXY_CONFIG_ANNOTATION] === undefined || !has(this.version, 'inject.proxyConfigAnnotation')) return;
    const doc: LoadedDocument | undefined = w.doc.embedded([...w.templatePath, 'metadata', 'annotations', PROXY_CONFIG_ANNOTATION], `annotation ${PROXY_CONFIG_ANNOTATION}`, { duplicateKeys: 'last' });
    if (!doc) return;
    const problems = validateProxyConfigAnnotation(doc.value, doc, LATEST);
    const err = problems.find((p) => p.severity === 'error');
    if (err) throw new Error(`${err.where}: annotation ${PROXY_CONFIG_ANNOTATION}: ${err.message}`);
    for (const p of problems) result.warnings.push(formatProblem({ ...p, message: `${result.label}: ${p.message}` }));
  }

  renderWorkload(w: Workload, merged = false): WorkloadResult {
    const label = workloadLabel(w);
    const pod = jsonShaped(w.pod) as JsonObject;
    const metadata = isObject(pod.metadata) ? pod.metadata : {};
    const spec = isObject(pod.spec) ? pod.spec : {};
    const namespace = String(metadata.namespace ?? w.namespace);
    const annotations = strMap(metadata.annotations);
    // the pod's sidecar.istio.io/nativeSidecar overrides ENABLE_NATIVE_SIDECARS from 1.24
    const perPod = has(this.version, 'native.podAnnotation') ? annotations['sidecar.istio.io/nativeSidecar'] : undefined;
    const native = perPod === 'true' ? true : perPod === 'false' ? false : nativeSidecarsOn(this.opts, this.version);
    const result: WorkloadResult = {
      workload: w,
      label,
      decision: injectionDecision(this.inputs.config, { metadata, spec, namespace }),
      templates: [],
      outputs: [],
      // ProxyConfig learned holdApplicationUntilProxyStarts in 1.8; 1.7 read it from values only.
      hold: has(this.version, 'inject.holdFromProxyConfig')
        ? holdRequested(this.inputs.values, this.inputs.mesh, annotations)
        : holdRequested(this.inputs.values, Object.create(null) as JsonObject, {}),
      native,
      warnings: [],
    };
    if (!result.decision.inject) return result;
    try {
      const bad = podAnnotationError(annotations);
      if (bad !== undefined) throw new Error(bad);
      this.checkProxyConfigAnnotation(w, annotations, result);
      const input: TemplateDataInput = {
        version: this.version,
        workload: w,
        values: this.inputs.values,
        mesh: this.inputs.mesh,
        revision: this.opts.revision ?? this.inputs.revision ?? '',
        nativeSidecars: nativeSidecarsOn(this.opts, this.version),
        kubeDefaults: this.seesDefaultedPod(),
        mode: this.opts.mode ?? 'webhook',
        // istiod reads COMPLIANCE_POLICY from its environment
        ...(this.opts.env?.COMPLIANCE_POLICY !== undefined ? { compliancePolicy: this.opts.env.COMPLIANCE_POLICY } : {}),
      };
      const data = buildTemplateData(input);
      result.templates = selectTemplates(this.inputs.config, annotations);
      for (const name of result.templates) {
        const t = this.template(name);
        try {
          result.outputs.push(this.execute(t, data));
        } catch (e) {
          if (e instanceof ExecError) result.outputs.push(e.output);
          throw this.positioned(e, name);
        }
      }
      if (merged) result.merged = this.merge(w, pod, result, data.info.deployMeta.name);
    } catch (e) {
      if (e instanceof UnparsableTemplate) throw e;
      result.error = firstLineOf(e);
    }
    return result;
  }

  /** Whether istiod is shown the pod after the API server's defaulting (the template data and the
   *  overrides both read it): in webhook mode unless turned off, never in kube-inject mode. */
  private seesDefaultedPod(): boolean {
    return this.opts.mode === 'kube-inject' ? false : (this.opts.kubeDefaults ?? true);
  }

  private merge(w: Workload, pod: JsonObject, r: WorkloadResult, workloadName: string): JsonObject {
    let mergedPod: JsonObject = { metadata: isObject(pod.metadata) ? pod.metadata : {}, spec: isObject(pod.spec) ? pod.spec : {} };
    // What the templates alone produce (istiod's templatePod): its names go into sidecar.istio.io/status.
    let templatePod: JsonObject = { metadata: {}, spec: {} };
    let overlay = false;
    let spec: JsonObject | undefined;
    for (let i = 0; i < r.outputs.length; i++) {
      const out = asDecodedByIstiod(parseTemplateOutput(r.outputs[i]!, r.templates[i]!), has(this.version, 'inject.containerRestartPolicy'));
      if (isInjectionSpec(out)) {
        if (has(this.version, 'inject.specConcurrency')) applySpecConcurrency(out);
        mergedPod = applyInjectionSpec(mergedPod, out, r.hold, has(this.version, 'inject.podRedirectAnnot'));
        spec = out;
        continue;
      }
      overlay = true;
      templatePod = strategicMergePod(templatePod, out);
      // istiod reads the overlay into map[string]interface{} and decodes the merged pod into corev1.Pod
      // with encoding/json: a value of the wrong type (a number in `command`) fails the injection
      try {
        checkGo(Pod, templatePod, { sorted: true });
      } catch (e) {
        if (e instanceof GoJsonError) throw new Error(`failed applying injection overlay of template "${r.templates[i]!}": unmarshal patched pod: ${e.message}`);
        throw e;
      }
      if (r.native && hasContainer((templatePod.spec as JsonObject).initContainers, PROXY_CONTAINER) && hasContainer((mergedPod.spec as JsonObject).containers, PROXY_CONTAINER)) {
        mergedPod = moveProxyToInit(mergedPod);
      }
      mergedPod = strategicMergePod(mergedPod, out);
    }
    if (overlay) {
      // istiod's originalPod: in webhook mode the pod the API server defaulted, so a user's own
      // istio-proxy container is laid over (and recorded in proxy.istio.io/overrides) with those fields
      let original: JsonObject = { metadata: isObject(pod.metadata) ? pod.metadata : {}, spec: isObject(pod.spec) ? pod.spec : {} };
      if (this.seesDefaultedPod()) original = jsonShaped(applyKubeDefaults(original)) as JsonObject;
      mergedPod = reapplyOverwrittenContainers(mergedPod, original, templatePod, this.version, this.interceptionMode());
      this.applyMetadata(mergedPod, templatePod);
      mergedPod = reorderPod(mergedPod, r.hold);
    } else if (spec && has(this.version, 'inject.statusVersion')) {
      this.applySpecStatus(mergedPod, spec);
      this.applySpecLabels(mergedPod, spec, workloadName);
    }
    if (has(this.version, 'inject.clusterInfo')) applyClusterInfo(mergedPod, this.inputs.values, isObject(pod.metadata) && isObject(pod.metadata.labels) ? pod.metadata.labels : {});
    mergedPod = postProcessPod(mergedPod, {
      version: this.version,
      values: this.inputs.values,
      mesh: this.inputs.mesh,
      originalAnnotations: isObject(pod.metadata) && isObject(pod.metadata.annotations) ? pod.metadata.annotations : {},
      injectedAnnotations: this.inputs.config.injectedAnnotations,
      env: this.opts.env,
    });
    const obj = objectOf(w);
    if (w.templatePath.length === 0) {
      obj.metadata = mergedPod.metadata ?? {};
      obj.spec = mergedPod.spec ?? {};
      return obj;
    }
    const parent = getPath(obj, w.templatePath.slice(0, -1))!;
    const last = String(w.templatePath[w.templatePath.length - 1]!);
    const target = isObject(parent[last]) ? (parent[last] as JsonObject) : (parent[last] = Object.create(null) as JsonObject);
    target.metadata = mergedPod.metadata ?? {};
    target.spec = mergedPod.spec ?? {};
    return obj;
  }

  /**
   * The old injector's sidecar.istio.io/status (to 1.8): the SidecarInjectionSpec's names, after a version
   * that is the sha256 of the template as configured (istiod's sidecarTemplateVersionHash).
   */
  private applySpecStatus(pod: JsonObject, spec: JsonObject): void {
    const template = this.inputs.config.template ?? this.inputs.config.templates[SIDECAR_TEMPLATE] ?? '';
    setStatus(pod, spec, { version: nodeCrypto().createHash('sha256').update(template).digest('hex') });
  }

  /**
   * The old injector's labels (to 1.8): the mTLS mode, the canonical service and revision, from 1.7 the
   * revision and in 1.8 the network of the proxy's ISTIO_META_NETWORK; each only where the pod has none
   * or an empty one (addLabels).
   */
  private applySpecLabels(pod: JsonObject, spec: JsonObject, workloadName: string): void {
    const meta = isObject(pod.metadata) ? pod.metadata : (pod.metadata = Object.create(null) as JsonObject);
    const labels = isObject(meta.labels) ? meta.labels : (meta.labels = Object.create(null) as JsonObject);
    const str = (k: string): string | undefined => (typeof labels[k] === 'string' ? (labels[k] as string) : undefined);
    const first = (...ks: string[]): string | undefined => ks.map(str).find((x) => x !== undefined);
    const add: Record<string, string> = {
      'security.istio.io/tlsMode': 'istio',
      'service.istio.io/canonical-name': first('service.istio.io/canonical-name', 'app.kubernetes.io/name', 'app') ?? workloadName,
      'service.istio.io/canonical-revision': first('service.istio.io/canonical-revision', 'app.kubernetes.io/version', 'version') ?? 'latest',
    };
    if (has(this.version, 'inject.specRevisionLabel')) add['istio.io/rev'] = this.opts.revision ?? this.inputs.revision ?? '';
    if (has(this.version, 'inject.specNetworkLabel')) {
      const containers = Array.isArray(spec.containers) ? spec.containers : [];
      let network = '';
      for (const c of containers) {
        for (const e of isObject(c) && Array.isArray(c.env) ? c.env : []) {
          if (isObject(e) && e.name === 'ISTIO_META_NETWORK') network = typeof e.value === 'string' ? e.value : '';
        }
        if (network) break;
      }
      if (network) add['topology.istio.io/network'] = network;
    }
    for (const k of Object.keys(add).sort()) if (!str(k)) labels[k] = add[k]!;
  }

  /** istiod's applyMetadata: the sidecar.istio.io/status annotation, then the config's injectedAnnotations. */
  private applyMetadata(pod: JsonObject, templatePod: JsonObject): void {
    const spec = isObject(templatePod.spec) ? templatePod.spec : {};
    const revision: Record<string, Json> = has(this.version, 'inject.statusRevision') ? { revision: (this.opts.revision ?? this.inputs.revision) || 'default' } : {};
    const annos = setStatus(pod, spec, {}, revision);
    for (const [k, v] of Object.entries(this.inputs.config.injectedAnnotations)) annos[k] = v;
  }
}

/**
 * The pod's sidecar.istio.io/status: SidecarInjectionStatus as json.Marshal writes it, its fields in
 * declaration order (`before` them, the names of the injected spec's lists, `after` them); the pod's
 * annotations are returned.
 */
function setStatus(pod: JsonObject, spec: JsonObject, before: Record<string, Json>, after: Record<string, Json> = {}): JsonObject {
  const meta = isObject(pod.metadata) ? pod.metadata : (pod.metadata = Object.create(null) as JsonObject);
  const annos = isObject(meta.annotations) ? meta.annotations : (meta.annotations = Object.create(null) as JsonObject);
  const names = (field: string): string[] | null => {
    const l = spec[field];
    if (!Array.isArray(l) || l.length === 0) return null;
    return l.map((c) => (isObject(c) ? String(c.name ?? '') : ''));
  };
  const json = (v: Json) => goJsonMarshal(jsonShaped(v) as unknown as GoValue);
  const fields: [string, Json][] = [
    ...Object.entries(before),
    ['initContainers', names('initContainers')],
    ['containers', names('containers')],
    ['volumes', names('volumes')],
    ['imagePullSecrets', names('imagePullSecrets')],
    ...Object.entries(after),
  ];
  annos['sidecar.istio.io/status'] = `{${fields.map(([k, v]) => `${json(k)}:${json(v)}`).join(',')}}`;
  return annos;
}


// ---------- file-level requests (CLI and golden tests) ----------


/** One step of a streamed render: text for the output, a line for stderr, what the run assumed (one
 *  line, first), or a workload's result. */
export type RenderEvent =
  | { type: 'text'; text: string }
  | { type: 'message'; text: string }
  | { type: 'assumptions'; text: string }
  | { type: 'result'; result: WorkloadResult };



