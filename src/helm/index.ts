// `helm template` without Helm: a chart (directory or .tgz) and values in, the text Helm prints out.
//
//   const r = renderChart('charts/istiod', { values: ['my-values.yaml'], set: ['revision=canary'] });
//   r.text        // what `helm template charts/istiod -f my-values.yaml --set revision=canary` prints
//   r.manifests   // the documents, in that order, with the template each came from
//   r.values      // the coalesced values the templates started from
//
// Public API
//   loadChart(dirOrTgz) → Chart                   renderChart(chart | path, options) → ChartRender
//   coalesceChartValues, mergeMaps, applyHelmSet   sortManifests, splitManifests, templateOutput, showOnly
//
// Upstream: none (the library's `helm template`: a chart and values in, Helm's text out)

import { readFileSync } from 'node:fs';
import type { GoMap, GoValue } from '../go/reflect/value.js';
import { newMap } from '../go/reflect/value.js';
import { InputError } from '../yaml/load.js';
import { chartFullPath, cloneChart, loadChart, type Chart } from './chart.js';
import { isCompatibleRange } from '../sprig/semver.js';
import { renderTemplates, type EngineOptions } from './engine.js';
import { DEFAULT_KUBE_VERSION, capabilitiesObject, parseKubeVersion, releaseObject, type CapabilitiesOptions, type ReleaseOptions } from './objects.js';
import { showOnly, sortManifests, templateOutput, type CrdFile, type Hook, type Manifest } from './manifests.js';
import { SET_KINDS, applyHelmSet, coalesceChartValues, mergeMaps, processDependencies, processImportValues, readValuesText, type Warn } from './values.js';
import { SetValuesError, type SetKind } from './strvals.js';
import { copyData } from '../go/text/template/copy.js';
import { validateAgainstSchema } from './schema.js';

export { loadChart, loadArchive, loadFiles, chartFullPath, type Chart, type ChartFile, type ChartDependency } from './chart.js';
export { coalesceChartValues, mergeMaps, applyHelmSet, processDependencies, processImportValues, readValuesText } from './values.js';
export { sortManifests, splitManifests, templateOutput, showOnly, INSTALL_ORDER, type Manifest, type Hook } from './manifests.js';
export { renderTemplates, templateOrder } from './engine.js';
export { DEFAULT_KUBE_VERSION, DEFAULT_API_VERSIONS, HELM_VERSION, parseKubeVersion } from './objects.js';
export { validateAgainstSchema } from './schema.js';
export { readTgz } from './tar.js';

export interface ChartRenderOptions extends EngineOptions, CapabilitiesOptions, ReleaseOptions {
  /** Values under everything the user gives (an IstioOperator's, say): the -f files merge over them. */
  baseValues?: GoMap;
  /** `-f`/`--values` files, merged left to right; or values given as data (a mapping), merged after
   *  the files, before --set. */
  values?: string[] | GoMap;
  /** @deprecated `values` (the files of -f) */
  valuesFiles?: string[];
  /** --set a.b=c (typed values); Helm applies the kinds in the order --set-json, --set, --set-string,
   *  --set-file, --set-literal, each parsed into the values of the files. */
  set?: string[];
  /** --set-string: every value a string. */
  setString?: string[];
  /** --set-json a={"b":1}: each value JSON. */
  setJson?: string[];
  /** --set-file a=PATH: each value the text of a file. */
  setFile?: string[];
  /** --set-literal a=TEXT: the rest of the text as it is. */
  setLiteral?: string[];
  /** Print crds/ files first (helm template --include-crds). */
  includeCrds?: boolean;
  /** helm template --show-only: only the documents of templates matching these patterns. */
  showOnly?: string[];
  /** Where Helm's coalescing warnings go (default: dropped). */
  warn?: Warn;
}

export interface ChartRender {
  text: string;
  manifests: Manifest[];
  hooks: Hook[];
  /** Values after coalescing, before any template changed them. */
  values: GoMap;
  chart: Chart;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`cannot read values file: ${code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (code ?? (e as Error).message)}`, file);
  }
}

/** The user's values: files, then data, then --set-json, --set, --set-string, --set-file, --set-literal
 *  (pkg/cli/values MergeValues). */
export function userValues(opts: ChartRenderOptions): GoMap {
  let v = opts.baseValues ? mergeMaps(newMap(), opts.baseValues) : newMap();
  const files = [...(opts.valuesFiles ?? []), ...(Array.isArray(opts.values) ? opts.values : [])];
  for (const f of files) v = mergeMaps(v, readValuesText(readText(f), f));
  if (opts.values && !Array.isArray(opts.values)) v = mergeMaps(v, opts.values);
  // the texts are parsed into the map itself: nothing of the caller's may be changed
  v = copyData(v) as GoMap;
  const lists: Record<SetKind, string[] | undefined> = {
    'set-json': opts.setJson,
    set: opts.set,
    'set-string': opts.setString,
    'set-file': opts.setFile,
    'set-literal': opts.setLiteral,
  };
  const readFile = (p: string): string => {
    try {
      return readFileSync(p, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new SetValuesError(`open ${p}: ${code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (code ?? (e as Error).message)}`);
    }
  };
  for (const kind of SET_KINDS) for (const s of lists[kind] ?? []) applyHelmSet(v, s, kind, readFile);
  return v;
}

function crdFiles(c: Chart): CrdFile[] {
  const out: CrdFile[] = [];
  for (const f of c.files) {
    if (f.name.startsWith('crds/') && /\.(ya?ml|json)$/.test(f.name)) out.push({ name: `${chartFullPath(c)}/${f.name}`, content: f.data.toString('utf8') });
  }
  for (const d of c.dependencies) out.push(...crdFiles(d));
  return out;
}

/** helm template CHART [flags]. Throws InputError (one line, file:line:col where known) on bad input. */
export function renderChart(source: Chart | string, opts: ChartRenderOptions = {}): ChartRender {
  const loaded = typeof source === 'string' ? loadChart(source) : source;
  const chart = cloneChart(loaded);
  if (opts.kubeVersion !== undefined) {
    const kv = parseKubeVersion(opts.kubeVersion);
    if (typeof kv === 'string') throw new InputError(`invalid kube version '${opts.kubeVersion}': ${kv}`);
  }
  // helm template refuses a chart whose Chart.yaml lists a dependency charts/ does not hold
  const missing = chart.dependenciesMeta.filter((r) => !chart.dependencies.some((d) => d.name === r.name)).map((r) => r.name);
  if (missing.length > 0) throw new InputError(`found in Chart.yaml, but missing in charts/ directory: ${missing.join(', ')}`, `${chart.location}/Chart.yaml`);
  const kubeVersion = (parseKubeVersion(opts.kubeVersion ?? DEFAULT_KUBE_VERSION) as { version: string }).version;
  const wants = chart.metadata.kubeVersion;
  if (typeof wants === 'string' && wants !== '' && !isCompatibleRange(wants, kubeVersion)) {
    throw new InputError(`chart requires kubeVersion: ${wants} which is incompatible with Kubernetes ${kubeVersion}`, `${chart.location}/Chart.yaml`);
  }
  const user = userValues(opts);
  const warn = opts.warn ?? (() => {});
  processDependencies(chart, user, warn);
  processImportValues(chart, warn);
  const values = coalesceChartValues(chart, user, warn);
  validateAgainstSchema(chart, values);
  const top = newMap();
  top['Release'] = releaseObject(opts);
  top['Capabilities'] = capabilitiesObject(opts);
  // the templates get (and may change) their own copy; `values` stays as coalesced
  top['Values'] = coalesceChartValues(chart, user, () => {}) as GoValue;
  top['Chart'] = undefined;
  const rendered = renderTemplates(chart, top, opts);
  for (const k of [...rendered.keys()]) if (k.endsWith('NOTES.txt')) rendered.delete(k);
  const sorted = sortManifests(rendered);
  let text = templateOutput(sorted, opts.includeCrds ? crdFiles(chart) : []);
  if (opts.showOnly && opts.showOnly.length > 0) text = showOnly(text, opts.showOnly);
  return { text, manifests: sorted.manifests, hooks: sorted.hooks, values, chart };
}
