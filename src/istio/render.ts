// What istiod does once it has decided to look at a pod: the injection policy, the choice of
// templates, executing each with the Istio function set over SidecarTemplateData (the template stage,
// whose text `render` prints), and then merging that output into the pod (`render --merged`).
//
// Public API
//   injectionDecision(config, pod)         istiod's injectRequired, with its reason
//   selectTemplates(config, annotations)   template names for a pod (inject.istio.io/templates, aliases)
//   detectIstioVersion(config)             the release a ConfigMap's templates were written for
//   Renderer                               parsed templates + inputs; .renderWorkload(w) per workload
//   renderInputs(req) / renderRequest(req) the file-level entry points the CLI and golden tests share;
//                                          values, mesh config and each pod's proxy.istio.io/config are
//                                          validated (validate.ts): warnings in messages, errors fail

import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { InputTooLarge, listFiles, readTextLimited } from '../guard/fs.js';
import { checkYamlDepth, yamlLib } from '../yaml/yamllib.js';
import { Template } from '../go/text/template/template.js';
import { ExecError, TemplateError } from '../go/text/template/errors.js';
import { LimitError, type ExecOptions } from '../go/text/template/template.js';
import type { FuncMap, GoValue } from '../go/reflect/value.js';
import { istioFuncs } from './template.js';
import { goJsonMarshal } from '../go/encoding/json/json.js';
import { jsonToYaml, toYaml } from '../yaml/emit.js';
import { InputError, loadYamlDocuments, type LoadedDocument } from '../yaml/load.js';
import { fastParse, Unsupported } from '../yaml/fastload.js';
import { indentFlowContinuations } from '../yaml/flowindent.js';
import { applyInjectionSpec, asDecodedByIstiod, isInjectionSpec, moveProxyToInit, reorderPod, strategicMergePod, hasContainer, PROXY_CONTAINER } from './merge.js';
import { clone, isObject, jsonShaped, strMap, type Json, type JsonObject } from '../go/encoding/json/value.js';
import { postProcessPod } from './postprocess.js';
import { checkGo, decodeGo, GoJsonError } from '../go/encoding/json/structs.js';
import { Container, Pod } from '../k8s/core.js';
import { applyKubeDefaults } from '../k8s/defaults.js';
import { KubeInjectJson, kubeInjectStream } from './kubeinject.js';
import { podAnnotationError } from './annotations.js';
import { applySet, mergeValues } from '../helm/strvals.js';
import { manifestStream, workloadStream, workloadLabel, type ManifestPiece, type Workload } from './workload.js';
import { buildTemplateData, proxyConfigJSON, PROXY_CONFIG_ANNOTATION, type TemplateDataInput } from './data.js';
import { atLeast, detectIstioVersion as detectFromText, formatIstioVersion, LATEST, type IstioVersion } from './version.js';
import { loadInjectorConfigMap, loadIstioOperator, loadValuesFile, parseInjectorConfig, SIDECAR_TEMPLATE, type InjectorConfig } from './configmap.js';
import { loadMeshDocument } from './mesh.js';
import { formatProblem, validateMesh, validateProxyConfigAnnotation, validateValues, type Problem } from './validate.js';
import { injectorInputsFromChart, type ChartSource } from './fromchart.js';

export { SIDECAR_TEMPLATE, type InjectorConfig, type TextPosition } from './configmap.js';


/** A problem with the inputs (not with one workload): the project's one-line InputError. */
export { InputError as RenderInputError };

/** A template of the config that does not parse: bad input for the whole run, whichever pod found it. */
class UnparsableTemplate extends InputError {}


// ---------- which release wrote the templates ----------

/** The release the templates were written for (from what they use); the newest when nothing tells. */
export function detectIstioVersion(config: InjectorConfig, configText?: string): IstioVersion {
  const text = configText ?? config.source;
  return detectFromText(text)?.version ?? LATEST;
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
function objectOf(w: Workload): JsonObject {
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

function kubeAtLeast(v: string | undefined, major: number, minor: number): boolean {
  if (!v) return false;
  const m = /^v?(\d+)\.(\d+)/.exec(v.trim());
  if (!m) return false;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a > major || (a === major && b >= minor);
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
  return atLeast(version, 1, 28) && kubeAtLeast(opts.kubeVersion, 1, 33);
}

function readBoolish(v: Json | undefined): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (isObject(v ?? null) && typeof (v as JsonObject).value === 'boolean') return (v as JsonObject).value as boolean;
  return undefined;
}

/** holdApplicationUntilProxyStarts as reorderPod decides it: ProxyConfig (mesh, then the pod annotation) or values. */
export function holdRequested(values: JsonObject, mesh: JsonObject, annotations: Record<string, string>): boolean {
  let fromMesh = readBoolish(isObject(mesh.defaultConfig) ? mesh.defaultConfig.holdApplicationUntilProxyStarts : undefined) ?? false;
  const pca = annotations['proxy.istio.io/config'];
  if (pca !== undefined) {
    try {
      const p = loadYamlDocuments(pca, PROXY_CONFIG_ANNOTATION, { format: 'yaml', duplicateKeys: 'last' })[0]?.value as unknown;
      if (isObject(p as Json)) {
        const h = readBoolish((p as JsonObject).holdApplicationUntilProxyStarts);
        if (h !== undefined) fromMesh = h;
      }
    } catch {
      // an unreadable annotation fails the render elsewhere
    }
  }
  const g = isObject(values.global) ? values.global : undefined;
  const p = g && isObject(g.proxy) ? g.proxy : undefined;
  return fromMesh || readBoolish(p?.holdApplicationUntilProxyStarts) === true;
}

/** Function maps built once per (release, environment): templates parsed with one are cached too. */
interface FuncsEntry {
  key: string;
  funcs: FuncMap;
  /** What the legacy `render` function executes with: the data of the execution in progress. */
  ctx: { data: GoValue };
}

/** Small caches that live as long as the process (a golden matrix renders the same inputs many times). */
class Bounded<V> {
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

function funcsFor(version: IstioVersion, env: Record<string, string>, legacyRender: boolean): FuncsEntry {
  const envKey = Object.keys(env)
    .sort()
    .map((k) => `${k}=${env[k]}`)
    .join('\0');
  const key = `${version.major}.${version.minor}${version.master ? 'm' : ''}|${legacyRender ? 'r' : ''}|${envKey}`;
  const hit = funcsCache.get(key);
  if (hit) return hit;
  const ctx: { data: GoValue } = { data: null };
  const opts: Parameters<typeof istioFuncs>[0] = {
    env: { ...env },
    legacyToJson: version.major === 1 && version.minor <= 8,
    multusNamespaced: atLeast(version, 1, 28),
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
    this.version = opts.istioVersion ?? detectIstioVersion(inputs.config);
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
    return this.version.minor <= 7 && this.version.major === 1;
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
    if (annotations[PROXY_CONFIG_ANNOTATION] === undefined || !atLeast(this.version, 1, 6)) return;
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
    const perPod = atLeast(this.version, 1, 24) ? annotations['sidecar.istio.io/nativeSidecar'] : undefined;
    const native = perPod === 'true' ? true : perPod === 'false' ? false : nativeSidecarsOn(this.opts, this.version);
    const result: WorkloadResult = {
      workload: w,
      label,
      decision: injectionDecision(this.inputs.config, { metadata, spec, namespace }),
      templates: [],
      outputs: [],
      // ProxyConfig learned holdApplicationUntilProxyStarts in 1.8; 1.7 read it from values only.
      hold: atLeast(this.version, 1, 8)
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
      if (merged) result.merged = this.merge(w, pod, result);
    } catch (e) {
      if (e instanceof UnparsableTemplate) throw e;
      result.error = firstLine(e);
    }
    return result;
  }

  /** Whether istiod is shown the pod after the API server's defaulting (the template data and the
   *  overrides both read it): in webhook mode unless turned off, never in kube-inject mode. */
  private seesDefaultedPod(): boolean {
    return this.opts.mode === 'kube-inject' ? false : (this.opts.kubeDefaults ?? true);
  }

  private merge(w: Workload, pod: JsonObject, r: WorkloadResult): JsonObject {
    let mergedPod: JsonObject = { metadata: isObject(pod.metadata) ? pod.metadata : {}, spec: isObject(pod.spec) ? pod.spec : {} };
    // What the templates alone produce (istiod's templatePod): its names go into sidecar.istio.io/status.
    let templatePod: JsonObject = { metadata: {}, spec: {} };
    let overlay = false;
    for (let i = 0; i < r.outputs.length; i++) {
      const out = asDecodedByIstiod(parseTemplateOutput(r.outputs[i]!, r.templates[i]!), atLeast(this.version, 1, 19));
      if (isInjectionSpec(out)) {
        mergedPod = applyInjectionSpec(mergedPod, out, r.hold);
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
    }
    if (atLeast(this.version, 1, 10)) applyClusterInfo(mergedPod, this.inputs.values, isObject(pod.metadata) && isObject(pod.metadata.labels) ? pod.metadata.labels : {});
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

  /** istiod's applyMetadata: the sidecar.istio.io/status annotation, then the config's injectedAnnotations. */
  private applyMetadata(pod: JsonObject, templatePod: JsonObject): void {
    const meta = isObject(pod.metadata) ? pod.metadata : (pod.metadata = Object.create(null) as JsonObject);
    const annos = isObject(meta.annotations) ? meta.annotations : (meta.annotations = Object.create(null) as JsonObject);
    const spec = isObject(templatePod.spec) ? templatePod.spec : {};
    const names = (field: string): string[] | null => {
      const l = spec[field];
      if (!Array.isArray(l) || l.length === 0) return null;
      return l.map((c) => (isObject(c) ? String(c.name ?? '') : ''));
    };
    // SidecarInjectionStatus marshals its fields in declaration order.
    const json = (v: Json) => goJsonMarshal(jsonShaped(v) as unknown as GoValue);
    const fields: [string, Json][] = [
      ['initContainers', names('initContainers')],
      ['containers', names('containers')],
      ['volumes', names('volumes')],
      ['imagePullSecrets', names('imagePullSecrets')],
      ['revision', (this.opts.revision ?? this.inputs.revision) || 'default'],
    ];
    annos['sidecar.istio.io/status'] = `{${fields.map(([k, v]) => `${json(k)}:${json(v)}`).join(',')}}`;
    for (const [k, v] of Object.entries(this.inputs.config.injectedAnnotations)) annos[k] = v;
  }
}

/**
 * istiod's reapplyOverwrittenContainers: a container the user declared under a name the templates inject
 * (`istio-proxy` customizations) is laid over the injected one again, so the user's fields win; the image
 * `auto` means "keep the injected image". Containers of an earlier injection (sidecar.istio.io/status) are not
 * user customizations, and those a previous injection recorded in proxy.istio.io/overrides come from there.
 * From 1.12 what was laid over is recorded in that annotation (on a first injection only).
 */
export function reapplyOverwrittenContainers(merged: JsonObject, original: JsonObject, templatePod: JsonObject, version: IstioVersion = LATEST, interceptionMode = 'REDIRECT'): JsonObject {
  const annos = isObject(original.metadata) && isObject(original.metadata.annotations) ? original.metadata.annotations : {};
  const listed = (text: Json | undefined, field: string): Json[] => {
    if (typeof text !== 'string') return [];
    try {
      const v = JSON.parse(text) as Json;
      return isObject(v) && Array.isArray(v[field]) ? (v[field] as Json[]) : [];
    } catch {
      // an unreadable status is no previous injection
      return [];
    }
  };
  const status = annos['sidecar.istio.io/status'];
  const injectedBefore = (field: string) => listed(status, field).map(String);
  const existing = (field: string) => listed(annos[OVERRIDES_ANNOTATION], field).filter(isObject);
  const ospec = isObject(original.spec) ? original.spec : {};
  const inPod = (field: string, name: string): JsonObject | undefined => {
    const l = ospec[field];
    const c = Array.isArray(l) ? l.find((x) => isObject(x) && x.name === name) : undefined;
    return c && isObject(c) ? c : undefined;
  };
  const tspec = isObject(templatePod.spec) ? templatePod.spec : {};
  const overrides: Record<string, JsonObject[]> = { containers: [], initContainers: [] };
  let out = merged;
  for (const field of ['containers', 'initContainers'] as const) {
    const l = tspec[field];
    if (!Array.isArray(l)) continue;
    for (const c of l) {
      if (!isObject(c)) continue;
      const name = String(c.name ?? '');
      if (injectedBefore(field).includes(name)) continue;
      // an init container (a native sidecar) may be customized under containers too
      const user = existing(field).find((x) => x.name === name) ?? inPod(field, name) ?? (field === 'initContainers' ? inPod('containers', name) : undefined);
      if (!user) continue;
      const overlay = clone(user);
      if (overlay.image === 'auto') delete overlay.image;
      overrides[field]!.push(overlay);
      out = strategicMergePod(out, { spec: { [field]: [overlay] } });
    }
  }
  if (atLeast(version, 1, 12) && status === undefined && (overrides.containers!.length > 0 || overrides.initContainers!.length > 0)) {
    const meta = isObject(out.metadata ?? null) ? (out.metadata as JsonObject) : (out.metadata = Object.create(null) as JsonObject);
    const a = isObject(meta.annotations ?? null) ? (meta.annotations as JsonObject) : (meta.annotations = Object.create(null) as JsonObject);
    a[OVERRIDES_ANNOTATION] = containerOverridesJSON(overrides);
  }
  if (atLeast(version, 1, 20)) adjustInitContainerUser(out, original, interceptionMode);
  return out;
}

/**
 * istiod's adjustInitContainerUser (1.20+): the user's own istio-proxy runAsUser/runAsGroup carry over to
 * istio-validation and to istio-iptables' `-u` (never uid 0); in TPROXY mode the proxy keeps uid 0.
 */
function adjustInitContainerUser(pod: JsonObject, original: JsonObject, interceptionMode: string): void {
  const find = (p: JsonObject, field: string, name: string): JsonObject | undefined => {
    const spec = isObject(p.spec ?? null) ? (p.spec as JsonObject) : {};
    const l = spec[field];
    const c = Array.isArray(l) ? l.find((x) => isObject(x) && x.name === name) : undefined;
    return c && isObject(c) ? c : undefined;
  };
  const user = find(original, 'containers', PROXY_CONTAINER) ?? find(original, 'initContainers', PROXY_CONTAINER);
  const sc = user && isObject(user.securityContext ?? null) ? (user.securityContext as JsonObject) : undefined;
  if (!sc || ((sc.runAsUser ?? null) === null && (sc.runAsGroup ?? null) === null)) return;
  const init = find(pod, 'initContainers', 'istio-init') ?? find(pod, 'initContainers', 'istio-validation');
  if (!init) return;
  const annos = isObject(pod.metadata ?? null) && isObject((pod.metadata as JsonObject).annotations ?? null) ? ((pod.metadata as JsonObject).annotations as JsonObject) : {};
  const tproxy = interceptionMode === 'TPROXY' || annos['sidecar.istio.io/interceptionMode'] === 'TPROXY';
  if (tproxy && (sc.runAsUser ?? null) !== null) {
    const proxy = find(pod, 'containers', PROXY_CONTAINER) ?? find(pod, 'initContainers', PROXY_CONTAINER);
    if (proxy && isObject(proxy.securityContext ?? null)) (proxy.securityContext as JsonObject).runAsUser = 0;
  }
  if (!tproxy && init.name === 'istio-validation') {
    const isc = isObject(init.securityContext ?? null) ? (init.securityContext as JsonObject) : (init.securityContext = Object.create(null) as JsonObject);
    if ((sc.runAsUser ?? null) !== null) isc.runAsUser = sc.runAsUser!;
    if ((sc.runAsGroup ?? null) !== null) isc.runAsGroup = sc.runAsGroup!;
  }
  const uid = sc.runAsUser;
  if (typeof uid !== 'number' || uid === 0 || !Array.isArray(init.args)) return;
  const i = init.args.indexOf('-u');
  if (i >= 0 && i + 1 < init.args.length) init.args[i + 1] = String(uid);
}

const OVERRIDES_ANNOTATION = 'proxy.istio.io/overrides';

/** The overrides as Go marshals them: []corev1.Container in field declaration order, empty lists omitted. */
function containerOverridesJSON(o: Record<string, JsonObject[]>): string {
  const parts: string[] = [];
  for (const field of ['containers', 'initContainers']) {
    const l = o[field]!;
    if (l.length === 0) continue;
    const items = l.map((c) => {
      try {
        return goJsonMarshal(decodeGo(Container, c));
      } catch {
        return goJsonMarshal(jsonShaped(c) as unknown as GoValue);
      }
    });
    parts.push(`"${field}":[${items.join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The cluster and network istiod takes from values (global.multiCluster.clusterName, global.network; the
 * pod's topology.istio.io/network label wins): the network is labelled on the pod (applyMetadata), and
 * both replace the proxy's ISTIO_META_CLUSTER_ID / ISTIO_META_NETWORK, appended in name order
 * (overwriteClusterInfo).
 */
function applyClusterInfo(pod: JsonObject, values: JsonObject, podLabels: JsonObject): void {
  const g = isObject(values.global ?? null) ? (values.global as JsonObject) : {};
  const mc = isObject(g.multiCluster ?? null) ? (g.multiCluster as JsonObject) : {};
  const str = (v: Json | undefined) => (typeof v === 'string' ? v : '');
  const envs: Record<string, string> = Object.create(null) as Record<string, string>;
  const cluster = str(mc.clusterName);
  let network = str(g.network);
  if (typeof podLabels['topology.istio.io/network'] === 'string') network = podLabels['topology.istio.io/network'] as string;
  if (cluster !== '') envs.ISTIO_META_CLUSTER_ID = cluster;
  if (network !== '') {
    envs.ISTIO_META_NETWORK = network;
    const meta = isObject(pod.metadata ?? null) ? (pod.metadata as JsonObject) : (pod.metadata = Object.create(null) as JsonObject);
    const labels = isObject(meta.labels ?? null) ? (meta.labels as JsonObject) : (meta.labels = Object.create(null) as JsonObject);
    labels['topology.istio.io/network'] = network;
  }
  const keys = Object.keys(envs).sort();
  if (keys.length === 0) return;
  const spec = isObject(pod.spec ?? null) ? (pod.spec as JsonObject) : {};
  const find = (field: string) => (Array.isArray(spec[field]) ? (spec[field] as Json[]).find((c) => isObject(c) && c.name === PROXY_CONTAINER) : undefined);
  const proxy = find('containers') ?? find('initContainers');
  if (!proxy || !isObject(proxy)) return;
  const env = Array.isArray(proxy.env) ? proxy.env.filter((e) => !(isObject(e) && typeof e.name === 'string' && keys.includes(e.name))) : [];
  for (const k of keys) env.push({ name: k, value: envs[k]! });
  proxy.env = env;
}

/** The one document's value when the fast reader reads text whole, else undefined. */
function fastSingleDocument(text: string): unknown {
  try {
    const docs = fastParse(text, undefined, { multiLineFlow: true });
    if (docs.length === 1 && isObject(docs[0]!.value as Json)) return docs[0]!.value;
  } catch (e) {
    if (!(e instanceof Unsupported || e instanceof RangeError)) throw e;
  }
  return undefined;
}

function parseOutput(text: string): unknown {
  try {
    return yamlLib().parse(text, { version: '1.1', uniqueKeys: false });
  } catch (e) {
    // a quoted string or flow collection continued at a column YAML 1.2 refuses and yaml.v2 takes
    const reindented = indentFlowContinuations(text);
    if (!reindented || reindented.marker !== undefined) throw e;
    try {
      return yamlLib().parse(reindented.text, { version: '1.1', uniqueKeys: false });
    } catch {
      throw e;
    }
  }
}

/** The template output as istiod reads it (sigs.k8s.io/yaml into a map). */
export function parseTemplateOutput(text: string, name: string): JsonObject {
  let v: unknown;
  // Block YAML as templates write it is read by the fast reader, with sigs.k8s.io/yaml's values (the
  // yaml package took 40% of render --merged); anything else, and every error, by the yaml package.
  try {
    checkYamlDepth(text);
    v = fastSingleDocument(text) ?? parseOutput(text);
  } catch (e) {
    // the yaml package's "MESSAGE at line N, column M:" (and its code excerpt) as "line N, column M: MESSAGE"
    const msg = firstLine(e);
    const at = / at line (\d+), column (\d+):?$/.exec(msg);
    const why = at ? `line ${at[1]}, column ${at[2]}: ${msg.slice(0, at.index)}` : msg;
    throw new Error(`failed parsing generated injected YAML of template "${name}" (check Istio sidecar injector configuration): ${why}`);
  }
  if (v === null || v === undefined) return Object.create(null) as JsonObject;
  if (!isObject(v as Json)) throw new Error(`failed parsing generated injected YAML of template "${name}": not a map`);
  return jsonShaped(v) as JsonObject;
}

// ---------- file-level requests (CLI and golden tests) ----------

export interface RenderRequest extends RenderOptions {
  /** The istio-sidecar-injector ConfigMap (its data.config and data.values). */
  injectorConfigMap?: string;
  /** istioctl's --injectConfigFile: the ConfigMap's data.config text on its own (a whole ConfigMap is taken too). */
  injectConfig?: string;
  /** An istiod chart (with its values) instead of an exported ConfigMap: its injector and mesh ConfigMaps are used. */
  chart?: ChartSource;
  /** Mesh config given as text (an `istio` ConfigMap or MeshConfig YAML), used when `mesh` is not given. */
  meshInput?: { name: string; text: string };
  /** A bare injection template. */
  template?: string;
  /** Values that replace the ConfigMap's data.values (a values file, data.values JSON, or an IstioOperator). */
  values?: string;
  /** Values files merged over the values in order, Helm's rules. */
  valuesFiles?: string[];
  /** IstioOperator files: spec.values merged over the values, spec.meshConfig over the mesh config. */
  iop?: string[];
  set?: string[];
  setString?: string[];
  mesh?: string;
  /** Files or directories of workloads ('-' is stdin, given as `stdin`). */
  workloads: string | string[];
  /** Directories in `workloads` are read with their subdirectories (kubectl's -R). */
  recursive?: boolean;
  stdin?: string;
  merged?: boolean;
  output?: 'yaml' | 'json';
}

export interface RenderOutcome {
  text: string;
  results: WorkloadResult[];
  failed: number;
  /** Lines for stderr: skipped workloads, failures. */
  messages: string[];
  /** What the run assumed (release, Kubernetes version, native sidecars): describeAssumptions. */
  assumptions?: string;
}

const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'no such file (a parent is not a directory)',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
};

/** A file's text, or an InputError `FILE: no such file` (never a bare errno code). */
export function readInputText(file: string): string {
  try {
    return readTextLimited(file);
  } catch (e) {
    if (e instanceof InputTooLarge) throw new InputError(e.message, file);
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError((code && READ_ERRORS[code]) ?? `cannot read: ${code ?? firstLine(e)}`, file);
  }
}

/** The first error fails the run; warnings are kept for stderr. */
function checked(problems: Problem[], warnings: string[]): void {
  const err = problems.find((p) => p.severity === 'error');
  if (err) throw new InputError(`${err.where ? `${err.where}: ` : ''}${err.message}`);
  for (const p of problems) warnings.push(formatProblem(p));
}

/**
 * Inputs loaded and validated before, by kind and file, valid while the file's text is the same: a golden
 * matrix names the same few files in hundreds of cases. What is cached is never changed by rendering
 * (values are merged into copies, templates only read); the problems are re-reported each time.
 */
const inputCache = new Bounded<{ text: string; value: unknown; problems: Problem[] }>(128);

function cachedInput<T>(kind: string, file: string, load: (text: string) => { value: T; problems: Problem[] }, warnings: string[]): T {
  const text = readInputText(file);
  const key = `${kind}\0${file}`;
  let hit = inputCache.get(key);
  if (!hit || hit.text !== text) {
    hit = { text, ...load(text) };
    inputCache.set(key, hit);
  }
  checked(hit.problems, warnings);
  return hit.value as T;
}

/** The config named by exactly one of --injector-configmap, --injectConfigFile or --template. */
function configSource(req: RenderRequest): { kind: 'configmap' | 'config' | 'template'; file: string } {
  const given = (
    [
      ['configmap', req.injectorConfigMap, '--injector-configmap'],
      ['config', req.injectConfig, '--injectConfigFile'],
      ['template', req.template, '--template'],
    ] as const
  ).filter(([, f]) => f);
  if (given.length > 1) throw new InputError(`give only one of ${given.map(([, , flag]) => flag).join(', ')}`);
  if (given.length === 0) throw new InputError('give --injector-configmap FILE, or --template FILE with --values FILE');
  return { kind: given[0]![0], file: given[0]![1]! };
}

/** `.Values.a.b` paths the templates read. */
function valuePathsRead(texts: string[]): string[][] {
  const seen = new Set<string>();
  for (const t of texts) {
    for (const m of t.matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) seen.add(m[1]!.slice(1));
  }
  return [...seen].sort().map((p) => p.split('.'));
}

function hasPath(v: Json, path: string[]): boolean {
  let cur: Json = v;
  for (const k of path) {
    if (!isObject(cur) || !Object.prototype.hasOwnProperty.call(cur, k)) return false;
    cur = cur[k]!;
  }
  return true;
}

/**
 * --values replaces data.values: a warning naming what the templates (their texts, or the whole
 * data.config) read that the ConfigMap's values had and the replacement has not.
 */
export function replacedValuesWarning(templates: string[], before: JsonObject, after: JsonObject, file: string): string | undefined {
  const lost = valuePathsRead(templates).filter((p) => hasPath(before, p) && !hasPath(after, p));
  if (lost.length === 0) return undefined;
  const shown = lost.slice(0, 5).map((p) => p.join('.'));
  const more = lost.length > shown.length ? ` and ${lost.length - shown.length} more` : '';
  return `${file}: warning: --values replaces the ConfigMap's data.values, and ${lost.length} value${lost.length === 1 ? '' : 's'} the templates read ${lost.length === 1 ? 'is' : 'are'} now missing (${shown.join(', ')}${more}); use --values-file to merge instead`;
}

export function renderInputs(req: RenderRequest): RenderInputs {
  let config: InjectorConfig;
  let values: JsonObject;
  const warnings: string[] = [];
  const valuesFile = (file: string): JsonObject =>
    cachedInput(
      'values',
      file,
      (text) => {
        const v = loadValuesFile(text, file);
        return { value: v.values, problems: validateValues(v.values, v.doc) };
      },
      warnings,
    );
  let chartMesh: { name: string; text: string } | undefined;
  let revision: string | undefined;
  let ownValues: { values: JsonObject; problems: Problem[] } | undefined;
  let file: string;
  if (req.chart) {
    if (req.injectorConfigMap || req.injectConfig || req.template) throw new InputError('give only one of --chart, --injector-configmap, --injectConfigFile, --template');
    const fromChart = injectorInputsFromChart(req.chart);
    file = req.chart.chart;
    config = fromChart.config;
    chartMesh = fromChart.mesh;
    if (fromChart.revision) revision = fromChart.revision;
    ownValues = { values: fromChart.values, problems: validateValues(fromChart.values, fromChart.valuesDoc) };
  } else {
    const source = configSource(req);
    file = source.file;
    if (source.kind === 'template') {
      config = cachedInput('template', file, (text) => ({ value: parseInjectorConfig(text, file), problems: [] }), warnings);
    } else {
      // istioctl's --injectConfigFile is data.config alone; a whole ConfigMap there is taken as one
      const loaded = cachedInput<{ config: InjectorConfig; values?: JsonObject; valuesProblems?: Problem[] }>(
        source.kind,
        file,
        (text) => {
          if (source.kind === 'config' && !/^\s*kind:\s*["']?(ConfigMap|List)\b/m.test(text)) return { value: { config: parseInjectorConfig(text, file) }, problems: [] };
          const c = loadInjectorConfigMap(text, file);
          return { value: { config: c.config, values: c.values, valuesProblems: validateValues(c.values, c.valuesDoc) }, problems: [] };
        },
        warnings,
      );
      config = loaded.config;
      if (loaded.values) ownValues = { values: loaded.values, problems: loaded.valuesProblems ?? [] };
    }
  }
  if (req.values) {
    // values given separately replace data.values, which is then not checked either
    values = valuesFile(req.values);
    if (ownValues) {
      const w = replacedValuesWarning(Object.values(config.templates), ownValues.values, values, req.values);
      if (w) warnings.push(w);
    }
  } else if (ownValues) {
    values = ownValues.values;
    checked(ownValues.problems, warnings);
  } else {
    values = Object.create(null) as JsonObject;
    if (!(req.valuesFiles ?? []).length && !(req.iop ?? []).length && !(req.set ?? []).length && !(req.setString ?? []).length) {
      warnings.push(`${file}: warning: no injector values given (--values, --values-file or --set): .Values is empty, so the template sees <no value> wherever it reads one`);
    }
  }
  const meshFrom = (file: string) => (text: string) => {
    const doc = loadMeshDocument(text, file);
    if (!doc) return { value: Object.create(null) as JsonObject, problems: [] };
    if (!isObject(doc.value as Json)) throw doc.errorAt([], 'mesh config must be a mapping');
    // fields of any release are known: the per-release field lists are the model's, not the protos'
    return { value: doc.value as JsonObject, problems: validateMesh(doc.value, doc, LATEST) };
  };
  let mesh = Object.create(null) as JsonObject;
  let meshOrigin: string | undefined;
  if (req.mesh) mesh = cachedInput('mesh', req.mesh, meshFrom(req.mesh), warnings);
  else if (chartMesh ?? req.meshInput) {
    const given = (chartMesh ?? req.meshInput)!;
    const m = meshFrom(given.name)(given.text);
    checked(m.problems, warnings);
    mesh = m.value;
    meshOrigin = given.name;
  }
  for (const f of req.iop ?? []) {
    const op = cachedInput(
      'iop',
      f,
      (text) => {
        const o = loadIstioOperator(text, f);
        const problems = [...(o.values ? validateValues(o.values.values, o.values.doc) : []), ...(o.mesh ? validateMesh(o.mesh.value, o.mesh, LATEST) : [])];
        return { value: { values: o.values?.values, mesh: o.mesh?.value as JsonObject | undefined }, problems };
      },
      warnings,
    );
    if (op.values) values = mergeValues(values, op.values);
    if (op.mesh) mesh = mergeValues(mesh, op.mesh);
  }
  for (const f of req.valuesFiles ?? []) values = mergeValues(values, valuesFile(f));
  try {
    for (const s of req.set ?? []) values = applySet(values, s, false);
    for (const s of req.setString ?? []) values = applySet(values, s, true);
  } catch (e) {
    throw new InputError(`--set: ${firstLine(e)}`);
  }
  meshOrigin = [req.mesh ?? meshOrigin, ...(req.iop ?? [])].filter(Boolean).join(', ') || undefined;
  return { config, values, mesh, ...(meshOrigin ? { meshOrigin } : {}), ...(revision !== undefined ? { revision } : {}), warnings };
}

/** One step of a streamed render: text for the output, a line for stderr, what the run assumed (one
 *  line, first), or a workload's result. */
export type RenderEvent =
  | { type: 'text'; text: string }
  | { type: 'message'; text: string }
  | { type: 'assumptions'; text: string }
  | { type: 'result'; result: WorkloadResult };

/**
 * What a run takes for granted unless told: the Istio release whose template data is built (and why),
 * the cluster's Kubernetes version, and whether native sidecars are on. One line, for stderr.
 */
export function describeAssumptions(renderer: Renderer): string {
  const opts = renderer.opts;
  const detected = detectFromText(renderer.inputs.config.source);
  const why = opts.istioVersion ? '--istio-version' : detected ? `detected: ${detected.reason}` : 'nothing in the templates names an older one';
  const release = `Istio ${formatIstioVersion(renderer.version)} (${why})`;
  const kube = opts.kubeVersion ? `Kubernetes ${opts.kubeVersion}` : 'Kubernetes version not given (--kube-version)';
  const native = opts.nativeSidecars ?? 'auto';
  const on = nativeSidecarsOn(opts, renderer.version);
  const nativeWhy = native !== 'auto' ? `--native-sidecars ${native}` : 'auto: on for Istio 1.28+ on Kubernetes 1.33+';
  const mode = opts.mode === 'kube-inject' ? 'kube-inject mode (the pod as written)' : "webhook mode (the pod as the API server defaulted it)";
  return `assuming ${release}, ${kube}, native sidecars ${on ? 'on' : 'off'} (${nativeWhy}; the pod's sidecar.istio.io/nativeSidecar annotation wins), ${mode}`;
}

/**
 * `sidecar-render render` as a stream: inputs are loaded and every template parsed first (bad input
 * throws InputError before anything is produced), then each workload is read, rendered and formatted
 * in turn, so memory stays flat however many workloads the file holds. The text events, concatenated,
 * are exactly renderRequest's text.
 */
export function* renderStream(req: RenderRequest): Generator<RenderEvent, { failed: number; total: number }> {
  const inputs = renderInputs(req);
  const renderer = new Renderer(inputs, req);
  renderer.prepare();
  const files = workloadFiles(req.workloads, req.recursive ?? false);
  if (req.mode === 'kube-inject' && req.merged) {
    const json = req.output === 'json' ? new KubeInjectJson() : undefined;
    yield { type: 'assumptions', text: describeAssumptions(renderer) };
    for (const w of inputs.warnings ?? []) yield { type: 'message', text: w };
    let failed = 0;
    let total = 0;
    for (const f of files) {
      const text = f === '-' ? (req.stdin ?? '') : readInputText(f);
      const r = yield* kubeInjectStream(renderer, text, f === '-' ? '<stdin>' : f, undefined, json);
      failed += r.failed;
      total += r.total;
    }
    if (json) yield* json.end();
    return { failed, total };
  }
  // merged output gives every document back; the template output is the workloads' alone
  const it = req.merged ? manifestOf(files, req.stdin) : workloadsOf(files, req.stdin);
  let cur = it.next();
  let next = cur.done ? cur : it.next();
  // only once the first pieces read well: input that cannot be rendered at all stays one line
  yield { type: 'assumptions', text: describeAssumptions(renderer) };
  for (const w of inputs.warnings ?? []) yield { type: 'message', text: w };
  const fmt = new OutputFormat(req, next.done === true);
  let failed = 0;
  let total = 0;
  while (!cur.done) {
    const p = cur.value;
    if (p.type === 'workload') {
      const r = renderer.renderWorkload(p.workload, req.merged ?? false);
      total++;
      if (r.error !== undefined) failed++;
      yield* fmt.add(r);
      yield { type: 'result', result: r };
    } else yield* fmt.piece(p);
    cur = next;
    if (!cur.done) next = it.next();
  }
  yield* fmt.end();
  return { failed, total };
}

/**
 * Workload paths as kubectl takes them: files, '-' for stdin, and directories, whose .yaml, .yml and
 * .json files are read in name order (with subdirectories when recursive). Every path is checked here,
 * so a missing one fails the run before anything is rendered.
 */
export function workloadFiles(paths: string | readonly string[], recursive = false): string[] {
  const list = typeof paths === 'string' ? [paths] : [...paths];
  if (list.length === 0) throw new InputError('no workload files given (-f FILE, a directory, or - for stdin)');
  const out: string[] = [];
  for (const p of list) {
    if (p === '-') {
      out.push(p);
      continue;
    }
    let st: Stats;
    try {
      st = statSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new InputError((code && READ_ERRORS[code]) ?? `cannot read: ${code ?? firstLine(e)}`, p);
    }
    if (!st.isDirectory()) {
      out.push(p);
      continue;
    }
    const found = (recursive ? listFiles(p) : readdirSync(p).filter((n) => !n.startsWith('.')).map((n) => join(p, n)).sort()).filter(
      (f) => /\.(ya?ml|json)$/i.test(f) && statSync(f).isFile(),
    );
    if (found.length === 0) throw new InputError(`no .yaml, .yml or .json files in the directory${recursive ? ' or below it' : ' (-R reads subdirectories)'}`, p);
    out.push(...found);
  }
  return out;
}

/** The workloads of several files, one file read at a time. */
function* workloadsOf(files: string[], stdin: string | undefined): Generator<ManifestPiece> {
  for (const f of files) {
    const text = f === '-' ? (stdin ?? '') : readInputText(f);
    for (const workload of workloadStream(text, f === '-' ? '<stdin>' : f)) yield { type: 'workload', workload };
  }
}

/** Every document of several files in order (workloads, other objects, Lists), one file read at a time. */
function* manifestOf(files: string[], stdin: string | undefined): Generator<ManifestPiece> {
  for (const f of files) {
    const text = f === '-' ? (stdin ?? '') : readInputText(f);
    yield* manifestStream(text, f === '-' ? '<stdin>' : f);
  }
}

/** Everything `sidecar-render render` does, minus writing: the text to print and what happened per workload. */
export function renderRequest(req: RenderRequest): RenderOutcome {
  return collect(renderStream(req));
}

function collect(events: Generator<RenderEvent, { failed: number; total: number }>): RenderOutcome {
  let text = '';
  const messages: string[] = [];
  const results: WorkloadResult[] = [];
  let failed = 0;
  let assumptions: string | undefined;
  for (const ev of events) {
    if (ev.type === 'text') text += ev.text;
    else if (ev.type === 'message') messages.push(ev.text);
    else if (ev.type === 'assumptions') assumptions = ev.text;
    else {
      results.push(ev.result);
      if (ev.result.error !== undefined) failed++;
    }
  }
  return { text, results, failed, messages, ...(assumptions !== undefined ? { assumptions } : {}) };
}

export function formatOutcome(results: WorkloadResult[], req: { merged?: boolean; output?: 'yaml' | 'json' }): RenderOutcome {
  return collect(
    (function* (): Generator<RenderEvent, { failed: number; total: number }> {
      const fmt = new OutputFormat(req, results.length === 1);
      for (const r of results) {
        yield* fmt.add(r);
        yield { type: 'result', result: r };
      }
      yield* fmt.end();
      return { failed: 0, total: results.length };
    })(),
  );
}

/** A List being printed: its fields without `items`, and what its items have become so far. */
interface ListFrame {
  header: JsonObject;
  /** Items of a List inside a List, held until its end. */
  items: Json[];
  /** A top-level List, printed item by item: the text after its items, the comma that follows them
   *  in JSON, and how many items were printed. */
  streamed?: { after: string; comma: string; count: number };
}

/**
 * How results are printed, one at a time holding back at most one document: the template output alone
 * for a single workload, `# Source:` headers and `---` between several; -o json prints one document
 * alone and several as a JSON array. With --merged, other objects are printed as read and a List as a
 * List, a top-level one item by item (the text is what emitting the whole List would give), so a dump
 * of 10,000 workloads in one List is never held whole, except as -o json's first document.
 */
class OutputFormat {
  private pending: string | undefined;
  private count = 0;
  /** The document being written, held back until it is known to be the only one (a JSON array needs
   *  its `[` first). */
  private held = false;
  /** The last text of the document being written (a JSON document ends without its newline). */
  private tail: string | undefined;
  private readonly lists: ListFrame[] = [];
  constructor(
    private readonly req: { merged?: boolean; output?: 'yaml' | 'json' },
    /** The run has exactly one workload. */
    private readonly single: boolean,
  ) {}

  /** The events for one result, in order. (Arrays, not generators: see visitDocument in workload.ts.) */
  add(r: WorkloadResult): RenderEvent[] {
    const out: RenderEvent[] = [];
    for (const w of r.warnings ?? []) out.push({ type: 'message', text: w });
    if (r.error !== undefined) {
      out.push({ type: 'message', text: `error: ${r.label} (${r.workload.where}): ${r.error}` });
      return out;
    }
    const req = this.req;
    if (!r.decision.inject) {
      out.push({ type: 'message', text: `skipped: ${r.label}: ${r.decision.reason}` });
      if (req.merged) this.object(objectOf(r.workload), out);
      return out;
    }
    if (req.merged) {
      this.object(r.merged!, out);
    } else if (req.output) {
      const parsed = r.outputs.map((o, i) => parseTemplateOutput(o, r.templates[i]!));
      for (const p of parsed) this.doc(emit(p, req.output), out);
    } else {
      const text = r.outputs.join(r.outputs.length > 1 ? '\n---\n' : '');
      this.doc(this.single ? text : `# Source: ${r.label}\n${text}`, out);
    }
    return out;
  }

  /** The events for what is not a workload (merged output only). */
  piece(p: Exclude<ManifestPiece, { type: 'workload' }>): RenderEvent[] {
    const out: RenderEvent[] = [];
    if (p.type === 'object') this.object(jsonShaped(p.value) as JsonObject, out);
    else if (p.type === 'list') this.beginList(jsonShaped(p.header) as JsonObject, out);
    else this.endList(out);
    return out;
  }

  /** An object of the output: a document, or an item of the List being printed. */
  private object(v: Json, out: RenderEvent[]): void {
    const top = this.lists[this.lists.length - 1];
    if (!top) this.doc(emit(v as JsonObject, this.req.output ?? 'yaml'), out);
    else if (!top.streamed) top.items.push(v);
    else this.listItem(top, v, out);
  }

  private beginList(header: JsonObject, out: RenderEvent[]): void {
    if (this.lists.length > 0) {
      this.lists.push({ header, items: [] });
      return;
    }
    // the List with no items, cut where its items go
    const json = this.req.output === 'json';
    const empty = emit({ ...header, items: [] }, json ? 'json' : 'yaml');
    const m = json ? /^ {2}"items": \[\](,?)\n/m.exec(empty) : /^items: \[\]\n/m.exec(empty);
    this.open(out);
    this.write(empty.slice(0, m!.index), out);
    this.lists.push({ header, items: [], streamed: { after: empty.slice(m!.index + m![0].length), comma: m![1] ?? '', count: 0 } });
  }

  private listItem(frame: ListFrame, v: Json, out: RenderEvent[]): void {
    const s = frame.streamed!;
    if (this.req.output === 'json') {
      const text = goJsonMarshal(v as unknown as GoValue, { indent: '  ' }).replace(/^/gm, '    ');
      this.write(`${s.count === 0 ? '  "items": [\n' : ',\n'}${text}`, out);
    } else {
      // an item is printed as it is inside any top-level `items:`
      const text = jsonToYaml(goJsonMarshal({ items: [v] } as unknown as GoValue));
      this.write(s.count === 0 ? text : text.slice('items:\n'.length), out);
    }
    s.count++;
  }

  private endList(out: RenderEvent[]): void {
    const frame = this.lists.pop()!;
    if (!frame.streamed) {
      this.object({ ...frame.header, items: frame.items }, out);
      return;
    }
    const s = frame.streamed;
    const json = this.req.output === 'json';
    if (s.count === 0) this.write(json ? `  "items": []${s.comma}\n` : 'items: []\n', out);
    else if (json) this.write(`\n  ]${s.comma}\n`, out);
    this.write(s.after, out);
    this.close(out);
  }

  private doc(d: string, out: RenderEvent[]): void {
    this.open(out);
    this.write(d, out);
    this.close(out);
  }

  private open(out: RenderEvent[]): void {
    const json = this.req.output === 'json';
    const n = ++this.count;
    this.tail = '';
    if (n === 1) {
      this.held = true;
      this.pending = '';
      return;
    }
    if (n === 2 && this.held) {
      const first = this.pending!;
      this.pending = undefined;
      this.held = false;
      out.push({ type: 'text', text: json ? `[\n${first.replace(/\n$/, '')}` : ensureNewline(first) });
    }
    out.push({ type: 'text', text: json ? ',\n' : '---\n' });
  }

  private write(text: string, out: RenderEvent[]): void {
    const prev = this.tail!;
    this.tail = text;
    if (prev === '') return;
    // a YAML first document is only held to see that it is the only one: a List need not wait
    if (this.held && (this.req.output === 'json' || this.lists.length === 0)) this.pending += prev;
    else {
      if (this.held) {
        out.push({ type: 'text', text: this.pending! });
        this.pending = '';
        this.held = false;
      }
      out.push({ type: 'text', text: prev });
    }
  }

  private close(out: RenderEvent[]): void {
    const last = this.tail!;
    this.tail = undefined;
    if (this.held) {
      this.pending += last;
      return;
    }
    const json = this.req.output === 'json';
    const text = json ? last.replace(/\n$/, '') : this.count === 1 ? last : ensureNewline(last);
    if (text !== '') out.push({ type: 'text', text });
  }

  end(): RenderEvent[] {
    const json = this.req.output === 'json';
    if (this.count === 1) return this.held ? [{ type: 'text', text: this.pending! }] : [];
    if (json) return [{ type: 'text', text: this.count === 0 ? '[\n\n]\n' : '\n]\n' }];
    return [];
  }
}

function ensureNewline(d: string): string {
  return d.endsWith('\n') ? d : d + '\n';
}

function emit(v: JsonObject, output: 'yaml' | 'json'): string {
  if (output === 'json') return goJsonMarshal(v as unknown as GoValue, { indent: '  ' }) + '\n';
  // sigs.k8s.io/yaml.Marshal: JSONToYAML of json.Marshal's text, without writing the text for plain values
  return toYaml(v as unknown as GoValue);
}

function firstLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split('\n')[0]!;
}

