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

import { readFileSync } from 'node:fs';
import { parse as parseYAML } from 'yaml';
import { Template } from '../template/index.js';
import { ExecError, TemplateError } from '../template/errors.js';
import type { GoValue } from '../template/value.js';
import { istioFuncs } from '../funcs/istio.js';
import { goJsonMarshal } from '../yaml/json.js';
import { jsonToYaml } from '../yaml/emit.js';
import { InputError, type LoadedDocument } from '../yaml/load.js';
import {
  applyInjectionSpec,
  asDecodedByIstiod,
  clone,
  isInjectionSpec,
  isObject,
  moveProxyToInit,
  reorderPod,
  strategicMergePod,
  hasContainer,
  PROXY_CONTAINER,
  type Json,
  type JsonObject,
} from './merge.js';
import { applySet, mergeValues } from './setvalues.js';
import { workloadsFromText, workloadLabel, type Workload } from './workload.js';
import { buildTemplateData, proxyConfigJSON, PROXY_CONFIG_ANNOTATION, type TemplateDataInput } from './data.js';
import { atLeast, detectIstioVersion as detectFromText, LATEST, type IstioVersion } from './version.js';
import { loadInjectorConfigMap, loadValuesFile, parseInjectorConfig, SIDECAR_TEMPLATE, type InjectorConfig } from './configmap.js';
import { loadMeshDocument } from './mesh.js';
import { formatProblem, validateMesh, validateProxyConfigAnnotation, validateValues, type Problem } from './validate.js';

export { SIDECAR_TEMPLATE, type InjectorConfig, type TextPosition } from './configmap.js';


/** A problem with the inputs (not with one workload): the project's one-line InputError. */
export { InputError as RenderInputError };

function strMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (isObject((v ?? null) as Json)) for (const [k, x] of Object.entries(v as JsonObject)) out[k] = typeof x === 'string' ? x : JSON.stringify(x);
  return out;
}

/** What a JSON round trip leaves of a parsed YAML value. */
export function jsonShaped(v: unknown): Json {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(jsonShaped);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Map) {
    const o = Object.create(null) as JsonObject;
    for (const [k, x] of v) o[String(k)] = jsonShaped(x);
    return o;
  }
  if (typeof v === 'object') {
    const o = Object.create(null) as JsonObject;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = jsonShaped(x);
    return o;
  }
  return v as Json;
}

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

export interface RenderOptions {
  istioVersion?: IstioVersion;
  revision?: string;
  nativeSidecars?: NativeSidecarsMode;
  /** "1.33" etc.; `auto` native sidecars turn on from 1.33. */
  kubeVersion?: string;
  /** The environment the template's `env` reads (istiod's). */
  env?: Record<string, string>;
  /** Fill in the API server's pod defaults first, as istiod sees pods after admission defaulting (default true). */
  kubeDefaults?: boolean;
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
      const p = parseYAML(pca, { version: '1.1' }) as unknown;
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

export class Renderer {
  readonly version: IstioVersion;
  private readonly parsed = new Map<string, Template>();

  constructor(
    readonly inputs: RenderInputs,
    readonly opts: RenderOptions = {},
  ) {
    this.version = opts.istioVersion ?? detectIstioVersion(inputs.config);
  }

  /** The environment `env` sees: --env, plus ENABLE_NATIVE_SIDECARS when native sidecars are on. */
  env(): Record<string, string> {
    const env: Record<string, string> = Object.create(null);
    if (nativeSidecarsOn(this.opts, this.version)) env.ENABLE_NATIVE_SIDECARS = 'true';
    Object.assign(env, this.opts.env ?? {});
    return env;
  }

  private template(name: string, data: GoValue): Template {
    const text = this.inputs.config.templates[name];
    if (text === undefined) {
      const have = Object.keys(this.inputs.config.templates).sort().join(', ');
      throw new Error(`requested template "${name}" not found; have ${have}`);
    }
    // render (1.5-1.7) executes with the pod's data: templates are parsed per workload then.
    const legacyRender = this.usesRender();
    const key = legacyRender ? '' : name;
    const cached = key ? this.parsed.get(key) : undefined;
    if (cached) return cached;
    const t = new Template('inject').funcs(this.funcs(data));
    try {
      t.parse(text);
    } catch (e) {
      throw this.positioned(e, name);
    }
    if (key) this.parsed.set(key, t);
    return t;
  }

  private usesRender(): boolean {
    return this.version.minor <= 7 && this.version.major === 1;
  }

  private funcs(data: GoValue) {
    const env = this.env();
    const legacy = this.version.major === 1 && this.version.minor <= 8;
    const opts: Parameters<typeof istioFuncs>[0] = {
      env,
      legacyToJson: legacy,
      protoToJSON: (m) => proxyConfigJSON(this.version, m),
    };
    if (this.usesRender()) {
      opts.render = (text: string) => {
        try {
          const t = new Template('inject').funcs(this.funcs(data));
          t.parse(text);
          return t.execute(data);
        } catch {
          return '';
        }
      };
    }
    return istioFuncs(opts);
  }

  /** Prefix a template error with the position of the failing line in the ConfigMap or template file. */
  private positioned(e: unknown, name: string): Error {
    if (!(e instanceof TemplateError)) return e instanceof Error ? e : new Error(String(e));
    const at = this.inputs.config.positions[name];
    if (!at || e.line <= 0) return e;
    const line = at.line + e.line - 1;
    // Go's column is a 0-based byte offset in the template line; ours is 1-based in the file.
    const col = at.col + e.col + 1;
    const err = new Error(`${at.file}:${line}:${col}: ${e.message}`);
    return err;
  }

  /** The pod's proxy.istio.io/config (read since 1.6) against the ProxyConfig schema: unknown fields
   *  are warnings naming the workload, a wrong type fails it. */
  private checkProxyConfigAnnotation(w: Workload, annotations: Record<string, string>, result: WorkloadResult): void {
    if (annotations[PROXY_CONFIG_ANNOTATION] === undefined || !atLeast(this.version, 1, 6)) return;
    const doc: LoadedDocument | undefined = w.doc.embedded([...w.templatePath, 'metadata', 'annotations', PROXY_CONFIG_ANNOTATION], `annotation ${PROXY_CONFIG_ANNOTATION}`);
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
    const native = annotations['sidecar.istio.io/nativeSidecar'] === 'true' ? true : annotations['sidecar.istio.io/nativeSidecar'] === 'false' ? false : nativeSidecarsOn(this.opts, this.version);
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
      this.checkProxyConfigAnnotation(w, annotations, result);
      const input: TemplateDataInput = {
        version: this.version,
        workload: w,
        values: this.inputs.values,
        mesh: this.inputs.mesh,
        revision: this.opts.revision ?? '',
        nativeSidecars: nativeSidecarsOn(this.opts, this.version),
        kubeDefaults: this.opts.kubeDefaults ?? true,
      };
      const data = buildTemplateData(input);
      result.templates = selectTemplates(this.inputs.config, annotations);
      for (const name of result.templates) {
        const t = this.template(name, data);
        try {
          result.outputs.push(t.execute(data));
        } catch (e) {
          if (e instanceof ExecError) result.outputs.push(e.output);
          throw this.positioned(e, name);
        }
      }
      if (merged) result.merged = this.merge(w, pod, result);
    } catch (e) {
      result.error = firstLine(e);
    }
    return result;
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
      if (r.native && hasContainer((templatePod.spec as JsonObject).initContainers, PROXY_CONTAINER) && hasContainer((mergedPod.spec as JsonObject).containers, PROXY_CONTAINER)) {
        mergedPod = moveProxyToInit(mergedPod);
      }
      mergedPod = strategicMergePod(mergedPod, out);
    }
    if (overlay) {
      mergedPod = reapplyOverwrittenContainers(mergedPod, { metadata: isObject(pod.metadata) ? pod.metadata : {}, spec: isObject(pod.spec) ? pod.spec : {} }, templatePod);
      this.applyMetadata(mergedPod, templatePod);
      mergedPod = reorderPod(mergedPod, r.hold);
    }
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
      ['revision', this.opts.revision || 'default'],
    ];
    annos['sidecar.istio.io/status'] = `{${fields.map(([k, v]) => `${json(k)}:${json(v)}`).join(',')}}`;
    for (const [k, v] of Object.entries(this.inputs.config.injectedAnnotations)) annos[k] = v;
  }
}

/**
 * istiod's reapplyOverwrittenContainers: a container the user declared under a name the templates inject
 * (`istio-proxy` customizations) is laid over the injected one again, so the user's fields win; the image
 * `auto` means "keep the injected image". Containers of an earlier injection (sidecar.istio.io/status) are not
 * user customizations.
 */
export function reapplyOverwrittenContainers(merged: JsonObject, original: JsonObject, templatePod: JsonObject): JsonObject {
  const annos = isObject(original.metadata) && isObject(original.metadata.annotations) ? original.metadata.annotations : {};
  let injectedBefore: string[] = [];
  const status = annos['sidecar.istio.io/status'];
  if (typeof status === 'string') {
    try {
      const st = JSON.parse(status) as { containers?: unknown };
      if (Array.isArray(st.containers)) injectedBefore = st.containers.map(String);
    } catch {
      // an unreadable status is no previous injection
    }
  }
  const ospec = isObject(original.spec) ? original.spec : {};
  const find = (name: string): JsonObject | undefined => {
    for (const field of ['containers', 'initContainers']) {
      const l = ospec[field];
      if (!Array.isArray(l)) continue;
      const c = l.find((x) => isObject(x) && x.name === name);
      if (c && isObject(c)) return c;
    }
    return undefined;
  };
  const tspec = isObject(templatePod.spec) ? templatePod.spec : {};
  let out = merged;
  for (const field of ['containers', 'initContainers'] as const) {
    const l = tspec[field];
    if (!Array.isArray(l)) continue;
    for (const c of l) {
      if (!isObject(c)) continue;
      const name = String(c.name ?? '');
      if (field === 'containers' && injectedBefore.includes(name)) continue;
      const user = find(name);
      if (!user) continue;
      const overlay = clone(user);
      if (overlay.image === 'auto') delete overlay.image;
      out = strategicMergePod(out, { spec: { [field]: [overlay] } });
    }
  }
  return out;
}

/** The template output as istiod reads it (sigs.k8s.io/yaml into a map). */
export function parseTemplateOutput(text: string, name: string): JsonObject {
  let v: unknown;
  try {
    v = parseYAML(text, { version: '1.1', uniqueKeys: false });
  } catch (e) {
    throw new Error(`failed parsing generated injected YAML of template "${name}" (check Istio sidecar injector configuration): ${firstLine(e)}`);
  }
  if (v === null || v === undefined) return Object.create(null) as JsonObject;
  if (!isObject(v as Json)) throw new Error(`failed parsing generated injected YAML of template "${name}": not a map`);
  return jsonShaped(v) as JsonObject;
}

// ---------- file-level requests (CLI and golden tests) ----------

export interface RenderRequest extends RenderOptions {
  injectorConfigMap?: string;
  template?: string;
  values?: string;
  valuesFiles?: string[];
  set?: string[];
  setString?: string[];
  mesh?: string;
  /** A file, or '-' with stdin given. */
  workloads: string;
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
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? firstLine(e)}`);
  }
}

/** The first error fails the run; warnings are kept for stderr. */
function checked(problems: Problem[], warnings: string[]): void {
  const err = problems.find((p) => p.severity === 'error');
  if (err) throw new InputError(`${err.where ? `${err.where}: ` : ''}${err.message}`);
  for (const p of problems) warnings.push(formatProblem(p));
}

export function renderInputs(req: RenderRequest): RenderInputs {
  let config: InjectorConfig;
  let values: JsonObject;
  const warnings: string[] = [];
  const valuesFile = (file: string): JsonObject => {
    const v = loadValuesFile(readText(file), file);
    checked(validateValues(v.values, v.doc), warnings);
    return v.values;
  };
  if (req.injectorConfigMap) {
    if (req.template) throw new InputError('give --injector-configmap or --template, not both');
    const cm = loadInjectorConfigMap(readText(req.injectorConfigMap), req.injectorConfigMap);
    config = cm.config;
    if (req.values) values = valuesFile(req.values);
    else {
      values = cm.values;
      checked(validateValues(cm.values, cm.valuesDoc), warnings);
    }
  } else if (req.template) {
    config = parseInjectorConfig(readText(req.template), req.template);
    values = req.values ? valuesFile(req.values) : (Object.create(null) as JsonObject);
  } else {
    throw new InputError('give --injector-configmap FILE, or --template FILE with --values FILE');
  }
  for (const f of req.valuesFiles ?? []) values = mergeValues(values, valuesFile(f));
  try {
    for (const s of req.set ?? []) values = applySet(values, s, false);
    for (const s of req.setString ?? []) values = applySet(values, s, true);
  } catch (e) {
    throw new InputError(`--set: ${firstLine(e)}`);
  }
  let mesh = Object.create(null) as JsonObject;
  if (req.mesh) {
    const doc = loadMeshDocument(readText(req.mesh), req.mesh);
    if (doc) {
      if (!isObject(doc.value as Json)) throw doc.errorAt([], 'mesh config must be a mapping');
      // fields of any release are known: the per-release field lists are the model's, not the protos'
      checked(validateMesh(doc.value, doc, LATEST), warnings);
      mesh = doc.value as JsonObject;
    }
  }
  return { config, values, mesh, ...(req.mesh ? { meshOrigin: req.mesh } : {}), warnings };
}

/** Everything `sidecar-render render` does, minus writing: the text to print and what happened per workload. */
export function renderRequest(req: RenderRequest): RenderOutcome {
  const inputs = renderInputs(req);
  const renderer = new Renderer(inputs, req);
  const file = req.workloads === '-' ? '<stdin>' : req.workloads;
  const workloads = workloadsFromText(req.workloads === '-' ? (req.stdin ?? '') : readText(req.workloads), file);
  if (workloads.length === 0) throw new InputError('no workloads with a pod template', file);
  const results = workloads.map((w) => renderer.renderWorkload(w, req.merged ?? false));
  const out = formatOutcome(results, req);
  out.messages.unshift(...(inputs.warnings ?? []));
  return out;
}

export function formatOutcome(results: WorkloadResult[], req: { merged?: boolean; output?: 'yaml' | 'json' }): RenderOutcome {
  const messages: string[] = [];
  const docs: string[] = [];
  let failed = 0;
  const single = results.length === 1;
  for (const r of results) {
    for (const w of r.warnings ?? []) messages.push(w);
    if (r.error !== undefined) {
      failed++;
      messages.push(`error: ${r.label} (${r.workload.where}): ${r.error}`);
      continue;
    }
    if (!r.decision.inject) {
      messages.push(`skipped: ${r.label}: ${r.decision.reason}`);
      if (req.merged) docs.push(emit(objectOf(r.workload), req.output ?? 'yaml'));
      continue;
    }
    if (req.merged) {
      docs.push(emit(r.merged!, req.output ?? 'yaml'));
    } else if (req.output) {
      const parsed = r.outputs.map((o, i) => parseTemplateOutput(o, r.templates[i]!));
      for (const p of parsed) docs.push(emit(p, req.output));
    } else {
      const text = r.outputs.join(r.outputs.length > 1 ? '\n---\n' : '');
      docs.push(single ? text : `# Source: ${r.label}\n${text}`);
    }
  }
  let text: string;
  if (req.output === 'json' && (req.merged || docs.length !== 1)) {
    text = docs.length === 1 ? docs[0]! : `[\n${docs.map((d) => d.replace(/\n$/, '')).join(',\n')}\n]\n`;
  } else if (single || docs.length <= 1) {
    text = docs[0] ?? '';
  } else {
    text = docs.map((d) => (d.endsWith('\n') ? d : d + '\n')).join('---\n');
  }
  return { text, results, failed, messages };
}

function emit(v: JsonObject, output: 'yaml' | 'json'): string {
  const json = goJsonMarshal(v as unknown as GoValue, output === 'json' ? { indent: '  ' } : {});
  return output === 'json' ? json + '\n' : jsonToYaml(json);
}

function firstLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split('\n')[0]!;
}

