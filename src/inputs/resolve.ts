// The injector inputs of every command and of the library, read and resolved in one place: the injector
// config, its values and the mesh config, each from the file or flag that gave it.
//
// Upstream: none (istioctl's and the commands' input flags)

import { Bounded, type RenderInputs, type RenderOptions } from '../istio/inject.js';
import { injectorInputsFromChart, type ChartSource } from '../istio/fromchart.js';
import { readTextLimited, InputTooLarge, listFiles } from '../guard/fs.js';
import { InputError, firstLineOf } from '../yaml/load.js';
import { formatProblem, validateValues, validateMesh, type Problem } from '../istio/validate.js';
import { join } from 'node:path';
import { isObject, type Json, type JsonObject } from '../go/encoding/json/value.js';
import { loadValuesFile, parseInjectorConfig, loadInjectorConfigMap, loadIstioOperator, type InjectorConfig } from '../istio/configmap.js';
import { loadMeshDocument } from '../istio/mesh.js';
import { LATEST } from '../istio/version.js';
import { mergeValues, applySet } from '../helm/strvals.js';
import { statSync, readdirSync, type Stats } from 'node:fs';
import { workloadStream, manifestStream, type ManifestPiece } from '../istio/workload.js';

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

export const READ_ERRORS: Record<string, string> = {
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
    throw new InputError((code && READ_ERRORS[code]) ?? `cannot read: ${code ?? firstLineOf(e)}`, file);
  }
}

/** The first error fails the run; warnings are kept for stderr. */
export function checked(problems: Problem[], warnings: string[]): void {
  const err = problems.find((p) => p.severity === 'error');
  if (err) throw new InputError(`${err.where ? `${err.where}: ` : ''}${err.message}`);
  for (const p of problems) warnings.push(formatProblem(p));
}

/**
 * Inputs loaded and validated before, by kind and file, valid while the file's text is the same: a golden
 * matrix names the same few files in hundreds of cases. What is cached is never changed by rendering
 * (values are merged into copies, templates only read); the problems are re-reported each time.
 */
export const inputCache = new Bounded<{ text: string; value: unknown; problems: Problem[] }>(128);

export function cachedInput<T>(kind: string, file: string, load: (text: string) => { value: T; problems: Problem[] }, warnings: string[]): T {
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
export function configSource(req: RenderRequest): { kind: 'configmap' | 'config' | 'template'; file: string } {
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
export function valuePathsRead(texts: string[]): string[][] {
  const seen = new Set<string>();
  for (const t of texts) {
    for (const m of t.matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) seen.add(m[1]!.slice(1));
  }
  return [...seen].sort().map((p) => p.split('.'));
}

export function hasPath(v: Json, path: string[]): boolean {
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
    throw new InputError(`--set: ${firstLineOf(e)}`);
  }
  meshOrigin = [req.mesh ?? meshOrigin, ...(req.iop ?? [])].filter(Boolean).join(', ') || undefined;
  return { config, values, mesh, ...(meshOrigin ? { meshOrigin } : {}), ...(revision !== undefined ? { revision } : {}), warnings };
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
      throw new InputError((code && READ_ERRORS[code]) ?? `cannot read: ${code ?? firstLineOf(e)}`, p);
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
export function* workloadsOf(files: string[], stdin: string | undefined): Generator<ManifestPiece> {
  for (const f of files) {
    const text = f === '-' ? (stdin ?? '') : readInputText(f);
    for (const workload of workloadStream(text, f === '-' ? '<stdin>' : f)) yield { type: 'workload', workload };
  }
}

/** Every document of several files in order (workloads, other objects, Lists), one file read at a time. */
export function* manifestOf(files: string[], stdin: string | undefined): Generator<ManifestPiece> {
  for (const f of files) {
    const text = f === '-' ? (stdin ?? '') : readInputText(f);
    yield* manifestStream(text, f === '-' ? '<stdin>' : f);
  }
}
