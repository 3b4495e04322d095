// The injector inputs of every command and of the library, resolved in one place: the injector config,
// its values and the mesh config, each from the file or flag that gave it, and where each came from.
//
// Istio's ConfigMaps and IstioOperators are found in whatever file holds them (sources.ts): a flag
// names the file of its kind (--injector-configmap, --values, --mesh, --iop, --chart), and what the
// other given files hold fills in a kind no flag names (the mesh ConfigMap beside the injector's in
// one export; the ConfigMaps of a cluster dump given with -f). Found objects of one kind that differ
// are an error naming both; a file that holds nothing of its flag's kind is an error naming what it
// holds.
//
// Upstream: none (istioctl's and the commands' input flags)

import { Bounded, type RenderInputs, type RenderOptions } from '../istio/inject.js';
import { injectorInputsFromChart, type ChartSource } from '../istio/fromchart.js';
import { InputError, firstLineOf, loadYamlDocuments, loadYamlDocumentsByKind, type LoadedDocument } from '../yaml/load.js';
import { formatProblem, validateValues, validateMesh, type Problem } from '../istio/validate.js';
import { isObject, type Json, type JsonObject } from '../go/encoding/json/value.js';
import { injectorFromDocument, istioOperatorPart, parseInjectorConfig, valuesFromDocument, type InjectorConfig } from '../istio/configmap.js';
import { LATEST } from '../istio/version.js';
import { mergeValues, applySet } from '../helm/strvals.js';
import type { ExecOptions } from '../go/text/template/template.js';
import { asConfigObject, configKind, describeObjects, objectsOf, pickConfig, type ConfigObject, type FileObject } from './sources.js';
import { normalizeOptions, type InjectorOptions, type InputFile, type NormalizedOptions } from './options.js';
import { nameOf, textOf, workloadText } from './files.js';
import { lazyDocuments } from '../istio/workload.js';

/** Earlier names of options, still taken (LEGACY_NAMES in options.ts). */
export interface LegacyInputOptions {
  /** @deprecated `injectorConfigmap` */
  injectorConfigMap?: string;
  /** @deprecated `injectConfigFile` */
  injectConfig?: string;
  /** @deprecated `valuesFile` */
  valuesFiles?: InputFile[];
  /** @deprecated `filename` */
  workloads?: string | string[];
  /** @deprecated `mesh` */
  meshInput?: { name: string; text: string };
}

/** What render takes: the inputs (InjectorOptions), and how to print. */
export interface RenderRequest extends Omit<InjectorOptions, 'chart'>, LegacyInputOptions {
  /** `--chart`; the chart with its values, sets and IstioOperator as one object is taken too. */
  chart?: string | ChartSource;
  /** The text of '-' among the workloads. */
  stdin?: string;
  /** `--merged`: each workload with the sidecar merged into its pod. */
  merged?: boolean;
  /** `-o`: the objects printed as YAML or JSON. */
  output?: 'yaml' | 'json';
  /** Limits for each template execution; the engine's defaults otherwise. */
  limits?: ExecOptions;
  /** Fill in the API server's pod defaults first (default true in webhook mode; never in kube-inject mode). */
  kubeDefaults?: boolean;
}

/** A mapping of values or mesh config and where it came from. */
export interface Layer {
  value: JsonObject;
  /** Its document, for positions of its fields (none for a --set). */
  doc?: LoadedDocument;
  /** `--values-file v.yaml`, `data.values of ConfigMap istio-system/istio-sidecar-injector in cm.yaml`. */
  origin: string;
  /** A --set or --set-string: applied to the values so far as Helm parses it into them (`value` is it alone). */
  set?: { arg: string; asString: boolean };
  /** Rendered by a chart: the user's inputs it was rendered from, where a field of it was written. */
  sources?: LayerSources;
}

/**
 * What a chart's ConfigMap was rendered from: the user's values files, sets and IstioOperator (Helm's
 * order, the last that sets a field wins), each with the path in it of a chart value, and the chart
 * values a field of the ConfigMap comes from (data.values is the chart's values picked by key, with
 * the chart's cni under pilot; data.mesh is its meshConfig).
 */
export interface LayerSources {
  inputs: { layer: Layer; pathOf(chartPath: readonly string[]): string[] | undefined }[];
  chartPaths(path: readonly string[]): string[][];
}

/** Where the injector config, the values and the mesh config came from, for the assumptions line. */
export interface InputSources {
  injector: string;
  values: string;
  mesh: string;
}

export interface ResolvedInputs extends RenderInputs {
  warnings: string[];
  /** The options, checked and in one shape. */
  options: NormalizedOptions;
  /** What the Renderer takes of them (with the revision the inputs decided). */
  renderOptions: RenderOptions;
  sources: InputSources;
  /** Whether an injector config was given or found (the audit judges with its model otherwise). */
  hasInjector: boolean;
  /** The injector ConfigMap as found, when one was (not for a bare template or data.config alone). */
  injectorObject?: ConfigObject;
  /** The values before the layers: --values (replacing), or the injector's data.values. */
  valuesBase?: Layer;
  /** Whether valuesBase is --values, replacing the injector's data.values. */
  valuesReplaced: boolean;
  /** The injector ConfigMap's own data.values (also when --values replaced them). */
  injectorValues?: Layer;
  /** Merged over valuesBase in order: IstioOperators, --values-file, --set, --set-string. */
  valueLayers: Layer[];
  /** The mesh config, then the IstioOperators' meshConfig merged over it. */
  meshLayers: Layer[];
}

export interface ResolveContext {
  /** Objects of the workload inputs (-f): Istio's ConfigMaps among them apply unless a flag names their kind. */
  found?: readonly FileObject[];
  /** Without an injector config (no flag, none found) resolve anyway: the audit judges with its model. */
  injectorOptional?: boolean;
  /**
   * Values and mesh config checked against Istio's schemas (default true): an error fails, as istiod
   * fails, and the rest are warnings. The audit judges such inputs instead (its unknown-field rule).
   */
  validate?: boolean;
}

/** The first error fails the run; warnings are kept for stderr. */
export function checked(problems: Problem[], warnings: string[]): void {
  const err = problems.find((p) => p.severity === 'error');
  if (err) throw new InputError(`${err.where ? `${err.where}: ` : ''}${err.message}`);
  for (const p of problems) warnings.push(formatProblem(p));
}

/**
 * What was read of a file, by purpose and name, valid while the text is the same: a golden matrix names
 * the same few files in hundreds of cases. What is kept is never changed by rendering (values are merged
 * into copies, templates only read); warnings and problems are reported again each time.
 */
const inputCache = new Bounded<{ text: string; value: unknown }>(128);

function cached<T>(kind: string, f: InputFile, load: (name: string, text: string) => T): T {
  const { name, text } = textOf(f);
  const key = `${kind}\0${name}`;
  let hit = inputCache.get(key);
  if (!hit || hit.text !== text) {
    hit = { text, value: load(name, text) };
    inputCache.set(key, hit);
  }
  return hit.value as T;
}

/** Istio's configuration objects among a file's objects. */
function configObjects(objs: readonly FileObject[]): ConfigObject[] {
  return objs.map(asConfigObject).filter((o): o is ConfigObject => o !== undefined);
}

// ---------- each kind of file ----------

interface InjectorFile {
  /** Absent for an injector ConfigMap found with data.values alone (a partial export). */
  config?: InjectorConfig;
  /** The file (or chart) the config was read from, for warnings. */
  file: string;
  values?: Layer;
  valuesProblems: Problem[];
  object?: ConfigObject;
  /** The other configuration objects of the file (a mesh ConfigMap beside the injector's). */
  others: ConfigObject[];
  revision?: string;
  warnings: string[];
  origin: string;
}

const NOT_INJECTOR = 'not the istio-sidecar-injector ConfigMap';

/** The injector ConfigMap of a file: picked by revision among what it holds; what else it holds is kept. */
function injectorOf(name: string, docs: LoadedDocument[], revision: string | undefined, flag: string): InjectorFile {
  const objs = objectsOf(docs);
  const cfgs = configObjects(objs);
  const picked = pickConfig(cfgs, 'injector', revision, `${flag} ${name}`);
  if (!picked) {
    // one ConfigMap without data.config says so at its data; anything else says what it is
    if (objs.length === 1 && objs[0]!.value.kind === 'ConfigMap') injectorFromDocument(objs[0]!.doc);
    const first = objs[0]?.doc ?? docs[0];
    const why = `${describeObjects(objs)}, ${NOT_INJECTOR} (${flag})`;
    throw first ? first.errorAt([], why) : new InputError(why, name, 1, 1);
  }
  return { ...injectorOfObject(picked.chosen, `${picked.chosen.label} in ${name}`, true), others: cfgs.filter((c) => c !== picked.chosen && c.kind !== 'injector'), ...(picked.revision !== undefined ? { revision: picked.revision } : {}), warnings: picked.warnings };
}

/**
 * The injector config and values of an injector ConfigMap. One found with data.values alone (a partial
 * export) gives the values and no templates, unless the config is required (its own flag named it).
 */
function injectorOfObject(o: ConfigObject, origin: string, requireConfig: boolean): InjectorFile {
  const hasConfig = isObject(o.value.data ?? null) && typeof (o.value.data as JsonObject).config === 'string';
  const cm = hasConfig || requireConfig ? injectorFromDocument(o.doc) : undefined;
  const values = cm
    ? { layer: { value: cm.values, ...(cm.valuesDoc ? { doc: cm.valuesDoc } : {}), origin: `data.values of ${origin}` }, problems: validateValues(cm.values, cm.valuesDoc) }
    : dataValues(o, `data.values of ${origin}`);
  return { ...(cm ? { config: cm.config } : {}), file: o.doc.file, values: values.layer, valuesProblems: values.problems, object: o, others: [], warnings: [], origin };
}

function loadInjectorFile(f: InputFile, kind: 'configmap' | 'config' | 'template', revision: string | undefined): InjectorFile {
  const flag = kind === 'configmap' ? '--injector-configmap' : kind === 'config' ? '--injectConfigFile' : '--template';
  return cached(`injector:${kind}:${revision ?? ''}`, f, (name, text) => {
    // istioctl's --injectConfigFile is data.config alone; a file holding the ConfigMap is taken too
    if (kind === 'template' || (kind === 'config' && !/^\s*["']?kind["']?\s*:\s*["']?(ConfigMap|List)\b/m.test(text))) {
      return { config: parseInjectorConfig(text, name), file: name, valuesProblems: [], others: [], warnings: [], origin: kind === 'template' ? `--template ${name}` : `data.config in ${name}` };
    }
    return injectorOf(name, loadYamlDocuments(text, name), revision, flag);
  });
}

interface ValuesFile {
  layer: Layer;
  problems: Problem[];
  others: ConfigObject[];
}

const isKubeObject = (v: Json): boolean => isObject(v) && typeof v.apiVersion === 'string' && typeof v.kind === 'string';

/**
 * A values file: the values themselves (YAML, or data.values JSON), an IstioOperator's spec.values, or
 * the data.values of the injector ConfigMap a file holds.
 */
function loadValues(f: InputFile, flag: string, revision: string | undefined): ValuesFile {
  return cached(`values:${flag}:${revision ?? ''}`, f, (name, text) => {
    // istiod (istioctl's --valuesFile) and Helm (-f) read values with sigs.k8s.io/yaml.Unmarshal, which
    // keeps a key written twice last; istioctl reads an IstioOperator strictly
    const docs = loadYamlDocumentsByKind(text, name, ['IstioOperator']);
    const objs = objectsOf(docs);
    const cfgs = configObjects(objs);
    const what = `${flag} ${name}`;
    const inj = pickConfig(cfgs, 'injector', revision, what);
    if (inj) return { ...dataValues(inj.chosen, `data.values of ${inj.chosen.label} in ${name}`), others: cfgs.filter((c) => c !== inj.chosen) };
    const op = pickConfig(cfgs, 'operator', revision, what);
    if (op) {
      const part = istioOperatorPart(op.chosen.doc, 'values');
      const v = valuesFromDocument(part ?? undefined);
      return { layer: { value: v.values, ...(v.doc ? { doc: v.doc } : {}), origin: `spec.values of ${op.chosen.label} in ${name}` }, problems: validateValues(v.values, v.doc), others: cfgs.filter((c) => c !== op.chosen) };
    }
    if (docs.length > 1) throw docs[1]!.errorAt([], `expected one document of values, found ${docs.length} (${describeObjects(objs)})`);
    const doc = docs[0];
    if (doc && isKubeObject(doc.value as Json)) throw doc.errorAt([], `${describeObjects(objs)}, not injector values (${flag})`);
    const v = valuesFromDocument(doc);
    return { layer: { value: v.values, ...(v.doc ? { doc: v.doc } : {}), origin: `${flag} ${name}` }, problems: validateValues(v.values, v.doc), others: cfgs };
  });
}

/** An injector ConfigMap's data.values, positioned in its file (istiod reads it with sigs.k8s.io/yaml: a key written twice keeps the last). */
function dataValues(o: ConfigObject, origin: string): { layer: Layer; problems: Problem[] } {
  const v = valuesFromDocument(o.doc.embedded(['data', 'values'], 'data.values', { duplicateKeys: 'last' }));
  return { layer: { value: v.values, ...(v.doc ? { doc: v.doc } : {}), origin }, problems: validateValues(v.values, v.doc) };
}

interface MeshFile {
  layer?: Layer;
  problems: Problem[];
  others: ConfigObject[];
  warnings: string[];
}

/** The mesh config of a ConfigMap, an IstioOperator or MeshConfig YAML, validated. */
function meshLayer(doc: LoadedDocument | undefined, origin: string): { layer?: Layer; problems: Problem[] } {
  if (!doc) return { layer: { value: Object.create(null) as JsonObject, origin }, problems: [] };
  if (!isObject(doc.value as Json)) throw doc.errorAt([], 'mesh config must be a mapping');
  // fields of any release are known: the per-release field lists are the model's, not the protos'
  return { layer: { value: doc.value as JsonObject, doc, origin }, problems: validateMesh(doc.value, doc, LATEST) };
}

/** data.mesh of a mesh ConfigMap, positioned in its file. */
function meshOfConfigMap(o: ConfigObject, name: string): { layer?: Layer; problems: Problem[] } {
  // istiod reads data.mesh with sigs.k8s.io/yaml.Unmarshal: a key written twice keeps the last
  return meshLayer(o.doc.embedded(['data', 'mesh'], 'data.mesh', { duplicateKeys: 'last' }), `${o.label} in ${name}`);
}

/** A --mesh file: the mesh ConfigMap it holds (by revision), an IstioOperator's meshConfig, or MeshConfig YAML. */
function loadMesh(f: InputFile, revision: string | undefined): MeshFile {
  return cached(`mesh:${revision ?? ''}`, f, (name, text) => {
    // MeshConfig YAML itself is read by istiod's sigs.k8s.io/yaml.Unmarshal, which keeps a key written
    // twice last; a ConfigMap (kubectl) or IstioOperator (istioctl) may not write one
    const docs = loadYamlDocumentsByKind(text, name, ['ConfigMap', 'IstioOperator']);
    if (docs.length === 0) return { layer: { value: Object.create(null) as JsonObject, origin: `--mesh ${name}` }, problems: [], others: [], warnings: [] };
    const objs = objectsOf(docs);
    const cfgs = configObjects(objs);
    const what = `--mesh ${name}`;
    const cm = pickConfig(cfgs, 'mesh', revision, what);
    if (cm) return { ...meshOfConfigMap(cm.chosen, name), others: cfgs.filter((c) => c.kind !== 'mesh'), warnings: cm.warnings };
    const op = pickConfig(cfgs, 'operator', revision, what);
    if (op) {
      const part = istioOperatorPart(op.chosen.doc, 'meshConfig');
      return { ...meshLayer(part ?? undefined, `spec.meshConfig of ${op.chosen.label} in ${name}`), others: cfgs.filter((c) => c.kind !== 'operator'), warnings: op.warnings };
    }
    const doc = docs[0]!;
    const v = doc.value as Json;
    if (docs.length === 1 && isObject(v) && v.kind === 'ConfigMap') throw doc.errorAt(v.data ? ['data'] : [], 'ConfigMap has no data.mesh');
    if (docs.length > 1 || (isObject(v) && typeof v.kind === 'string')) throw doc.errorAt([], `${describeObjects(objs)}, not the istio mesh ConfigMap (--mesh)`);
    return { ...meshLayer(doc, `--mesh ${name}`), others: [], warnings: [] };
  });
}

interface OperatorFile {
  values?: Layer;
  mesh?: Layer;
  problems: Problem[];
}

/** An IstioOperator's spec.values and spec.meshConfig. */
function operatorParts(o: ConfigObject, origin: string): OperatorFile {
  const values = istioOperatorPart(o.doc, 'values');
  const mesh = istioOperatorPart(o.doc, 'meshConfig');
  const v = values ? valuesFromDocument(values) : undefined;
  const problems = [...(v ? validateValues(v.values, v.doc) : []), ...(mesh ? validateMesh(mesh.value, mesh, LATEST) : [])];
  return {
    ...(v ? { values: { value: v.values, ...(v.doc ? { doc: v.doc } : {}), origin } } : {}),
    ...(mesh ? { mesh: { value: mesh.value as JsonObject, doc: mesh, origin } } : {}),
    problems,
  };
}

function loadOperator(f: InputFile, revision: string | undefined): OperatorFile {
  return cached(`iop:${revision ?? ''}`, f, (name, text) => {
    const docs = loadYamlDocuments(text, name);
    const objs = objectsOf(docs);
    const op = pickConfig(configObjects(objs), 'operator', revision, `--iop ${name}`);
    if (!op) {
      const first = objs[0]?.doc ?? docs[0];
      const why = `${describeObjects(objs)}, not an IstioOperator (--iop)`;
      throw first ? first.errorAt([], why) : new InputError(why, name, 1, 1);
    }
    return operatorParts(op.chosen, `--iop ${name}`);
  });
}

/**
 * The user's inputs of a chart, positioned, as Helm applies them: the IstioOperator (istioctl maps its
 * spec.values onto the chart's values and spec.meshConfig onto meshConfig), the -f files, --set, then
 * --set-string. Only for citing where a value was written: the chart was rendered from them already, so
 * one that cannot be read here is left out.
 */
function chartUserInputs(c: ChartSource): LayerSources['inputs'] {
  const out: LayerSources['inputs'] = [];
  const read = (f: string): LoadedDocument[] => {
    try {
      const { name, text } = textOf(f);
      return loadYamlDocuments(text, name, { duplicateKeys: 'last' });
    } catch {
      return [];
    }
  };
  if (c.iop) {
    const doc = read(c.iop).find((d) => isObject(d.value as Json) && (d.value as JsonObject).kind === 'IstioOperator');
    const spec = doc && isObject((doc.value as JsonObject).spec ?? null) ? doc.sub(['spec']) : undefined;
    if (spec) {
      const pathOf = (p: readonly string[]): string[] => (p[0] === 'meshConfig' ? [...p] : ['values', ...p]);
      out.push({ layer: { value: spec.value as JsonObject, doc: spec, origin: `--iop ${c.iop}` }, pathOf });
    }
  }
  const same = (p: readonly string[]): string[] => [...p];
  for (const f of c.values ?? []) {
    const doc = read(f)[0];
    if (doc && isObject(doc.value as Json)) out.push({ layer: { value: doc.value as JsonObject, doc, origin: `--chart-values ${f}` }, pathOf: same });
  }
  const sets = [...(c.set ?? []).map((a): [string, boolean] => [a, false]), ...(c.setString ?? []).map((a): [string, boolean] => [a, true])];
  for (const [arg, asString] of sets) {
    try {
      const value = applySet(Object.create(null) as JsonObject, arg, asString);
      out.push({ layer: { value, origin: `${asString ? '--chart-set-string' : '--chart-set'} ${arg}`, set: { arg, asString } }, pathOf: same });
    } catch {
      // Helm refused it already when the chart was rendered
    }
  }
  return out;
}

// ---------- the values the templates read ----------

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

// ---------- resolving ----------

const foundIn = (o: ConfigObject): string => `${o.label} in ${o.doc.file}`;

/**
 * The inputs of render, audit, golden and diff, resolved: the injector config (one source), the values
 * (the base, then IstioOperators, values files, --set, --set-string) and the mesh config (then the
 * IstioOperators' meshConfig), each with where it came from. Throws a one-line InputError for what
 * cannot be read or does not fit its flag; warnings are kept for stderr.
 */
export function resolveInputs(given: RenderRequest | InjectorOptions, ctx: ResolveContext = {}): ResolvedInputs {
  const o = normalizeOptions(given as Record<string, unknown>);
  const warnings: string[] = [];
  const check = ctx.validate === false ? (): void => undefined : checked;
  let revision = o.revision;
  // what the given files hold beyond their flag's kind, and what the workloads hold: fills in a kind no flag names
  const pool: ConfigObject[] = [];

  // the injector config: its flag, else what was found
  let inj: InjectorFile | undefined;
  let chartMesh: { name: string; text: string } | undefined;
  let injectorSource: string;
  let chartInputs: LayerSources['inputs'] = [];
  if (o.chart) {
    const fromChart = injectorInputsFromChart(o.chart);
    if (revision === undefined && fromChart.revision) revision = fromChart.revision;
    chartInputs = chartUserInputs(o.chart);
    inj = {
      config: fromChart.config,
      file: o.chart.chart,
      values: {
        value: fromChart.values,
        ...(fromChart.valuesDoc ? { doc: fromChart.valuesDoc } : {}),
        origin: `data.values of the chart's injector ConfigMap`,
        sources: { inputs: chartInputs, chartPaths: (p) => (p[0] === 'pilot' ? [[...p], p.slice(1)] : [[...p]]) },
      },
      valuesProblems: validateValues(fromChart.values, fromChart.valuesDoc),
      others: [],
      warnings: [],
      origin: `chart ${o.chart.chart}`,
    };
    chartMesh = fromChart.mesh ? { name: fromChart.mesh.name, text: fromChart.mesh.text } : undefined;
    injectorSource = `chart ${o.chart.chart}`;
  } else {
    const file = o.injectorConfigmap ?? o.injectConfigFile ?? o.template;
    const kind = o.injectorConfigmap ? 'configmap' : o.injectConfigFile ? 'config' : 'template';
    if (file !== undefined) inj = loadInjectorFile(file, kind, revision);
    injectorSource = inj?.origin ?? '';
  }
  if (inj) {
    warnings.push(...inj.warnings);
    if (revision === undefined && inj.revision !== undefined) revision = inj.revision;
    pool.push(...inj.others);
  }
  // --values and --mesh files may hold what another flag's kind is (helm template output holds both ConfigMaps)
  const valuesFile = o.values !== undefined ? loadValues(o.values, '--values', revision) : undefined;
  if (valuesFile) pool.push(...valuesFile.others);
  const meshFile = o.mesh !== undefined ? loadMesh(o.mesh, revision) : undefined;
  if (meshFile) {
    pool.push(...meshFile.others);
    warnings.push(...meshFile.warnings);
  }
  pool.push(...configObjects(ctx.found ?? []));
  if (!inj) {
    const found = pickConfig(pool, 'injector', revision, 'the inputs');
    if (found) {
      inj = injectorOfObject(found.chosen, foundIn(found.chosen), false);
      warnings.push(...found.warnings);
      if (revision === undefined && found.revision !== undefined) revision = found.revision;
      injectorSource = inj.config ? inj.origin : '';
    }
  }
  if (!inj?.config && !ctx.injectorOptional) throw new InputError('give --injector-configmap FILE, --chart CHART, or --template FILE with --values FILE');

  // the values: --values, else the injector's data.values; then the layers
  let valuesBase: Layer | undefined;
  let valuesReplaced = false;
  if (valuesFile) {
    valuesBase = valuesFile.layer;
    valuesReplaced = true;
    check(valuesFile.problems, warnings);
    if (inj?.values && inj.config) {
      const w = replacedValuesWarning(Object.values(inj.config.templates), inj.values.value, valuesBase.value, nameOf(o.values!));
      if (w) warnings.push(w);
    }
  } else if (inj?.values) {
    valuesBase = inj.values;
    check(inj.valuesProblems, warnings);
  }
  const valueLayers: Layer[] = [];
  const meshOverlays: Layer[] = [];
  const operators: OperatorFile[] = [];
  const foundOp = pickConfig(pool, 'operator', revision, 'the inputs');
  if (foundOp) operators.push(operatorParts(foundOp.chosen, foundIn(foundOp.chosen)));
  for (const f of o.iop) operators.push(loadOperator(f, revision));
  for (const op of operators) {
    check(op.problems, warnings);
    if (op.values) valueLayers.push(op.values);
    if (op.mesh) meshOverlays.push(op.mesh);
  }
  for (const f of o.valuesFile) {
    const v = loadValues(f, '--values-file', revision);
    check(v.problems, warnings);
    valueLayers.push({ ...v.layer, origin: `--values-file ${nameOf(f)}` });
  }
  const sets: Array<[string, boolean]> = [...o.set.map((a): [string, boolean] => [a, false]), ...o.setString.map((a): [string, boolean] => [a, true])];
  for (const [arg, asString] of sets) {
    let value: JsonObject;
    try {
      value = applySet(Object.create(null) as JsonObject, arg, asString);
    } catch (e) {
      throw new InputError(`--set: ${firstLineOf(e)}`);
    }
    valueLayers.push({ value, origin: `${asString ? '--set-string' : '--set'} ${arg}`, set: { arg, asString } });
  }
  if (!valuesBase && valueLayers.length === 0 && inj?.config) {
    warnings.push(`${inj.file}: warning: no injector values given (--values, --values-file or --set): .Values is empty, so the template sees <no value> wherever it reads one`);
  }
  let values = valuesBase?.value ?? (Object.create(null) as JsonObject);
  try {
    for (const l of valueLayers) values = l.set ? applySet(values, l.set.arg, l.set.asString) : mergeValues(values, l.value);
  } catch (e) {
    throw new InputError(`--set: ${firstLineOf(e)}`);
  }

  // the mesh config: --mesh, else the chart's, else what was found; then the IstioOperators' meshConfig
  let meshBase: Layer | undefined;
  if (meshFile) {
    check(meshFile.problems, warnings);
    meshBase = meshFile.layer;
  } else if (chartMesh) {
    const m = loadMesh(chartMesh, revision);
    check(m.problems, warnings);
    meshBase = m.layer ? { ...m.layer, origin: `${injectorSource}'s mesh ConfigMap`, sources: { inputs: chartInputs, chartPaths: (p) => [['meshConfig', ...p]] } } : undefined;
  } else {
    const found = pickConfig(pool, 'mesh', revision, 'the inputs');
    if (found) {
      warnings.push(...found.warnings);
      const m = meshOfConfigMap(found.chosen, found.chosen.doc.file);
      check(m.problems, warnings);
      meshBase = m.layer;
    }
  }
  let mesh = meshBase?.value ?? (Object.create(null) as JsonObject);
  for (const l of meshOverlays) mesh = mergeValues(mesh, l.value);
  const meshLayers = [...(meshBase ? [meshBase] : []), ...meshOverlays];
  const meshOrigin = meshLayers.map((l) => l.origin).join(', ') || undefined;

  const sources: InputSources = {
    injector: injectorSource || 'none (no injector config given or found)',
    values: [valuesBase ? valuesBase.origin : 'none', ...valueLayers.map((l) => l.origin)].join(', then '),
    mesh: meshLayers.length ? meshLayers.map((l) => l.origin).join(', then ') : "none (Istio's defaults)",
  };
  const renderOptions: RenderOptions = {
    nativeSidecars: o.nativeSidecars,
    env: o.env,
    mode: o.mode,
    ...(o.istioVersion ? { istioVersion: o.istioVersion } : {}),
    ...(o.kubeVersion ? { kubeVersion: o.kubeVersion } : {}),
    ...(revision !== undefined ? { revision } : {}),
  };
  return {
    config: inj?.config ?? parseInjectorConfig('', '<none>'),
    values,
    // whole values (the injector ConfigMap's data.values, or --values) tell the release of the chart that
    // wrote them; --values-file, --set and IstioOperator layers are edits
    ...(valuesBase ? { releaseValues: valuesBase.value } : {}),
    mesh,
    ...(meshOrigin ? { meshOrigin } : {}),
    ...(revision !== undefined ? { revision } : {}),
    warnings,
    options: o,
    renderOptions,
    sources,
    hasInjector: inj?.config !== undefined,
    ...(inj?.object ? { injectorObject: inj.object } : {}),
    ...(valuesBase ? { valuesBase } : {}),
    valuesReplaced,
    ...(inj?.values ? { injectorValues: inj.values } : {}),
    valueLayers,
    meshLayers,
  };
}

/** A kind, Istio's configuration objects may be, in a file: the cheap test before a file is read for them. */
const MAY_HOLD_CONFIG = /["']?kind["']?\s*:\s*["']?(ConfigMap|IstioOperator)\b/;

/**
 * Istio's configuration objects among the workloads (-f files, '-' for stdin), read before the workloads
 * are rendered: a cluster dump (`kubectl get cm,deploy -A -o yaml`) carries the ConfigMaps its pods are
 * injected with. Big files are read piece by piece and only these objects are kept.
 */
export function configObjectsOf(files: readonly InputFile[], stdin: string | undefined): FileObject[] {
  const out: FileObject[] = [];
  for (const f of files) {
    const found = cached('found', workloadText(f, stdin), (n, text) => {
      if (!MAY_HOLD_CONFIG.test(text)) return [];
      const kept: FileObject[] = [];
      for (const d of lazyDocuments(text, n)) {
        if (!('positionOf' in d)) continue;
        for (const o of objectsOf([d])) if (configKind(o.value)) kept.push(o);
      }
      return kept;
    });
    out.push(...found);
  }
  return out;
}

/** Where the injector config, the values and the mesh config came from, as the assumptions line says it. */
export function describeSources(s: InputSources): string {
  return `injector config: ${s.injector}; values: ${s.values}; mesh config: ${s.mesh}`;
}

/** The injector inputs of a request (RenderInputs, as the Renderer takes them), resolved. */
export function renderInputs(req: RenderRequest): RenderInputs {
  return resolveInputs(req);
}

export type { ChartSource };
