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

import * as path from 'node:path';
import type { GoMap, GoValue } from '../go/reflect/value.js';
import { newMap } from '../go/reflect/value.js';
import { decodeInput, InputError } from '../yaml/load.js';
import { InputTooLarge, readBytesLimited, readReason, readTextLimited } from '../guard/fs.js';
import { chartFullPath, cloneChart, isLibrary, loadChart, type Chart } from './chart.js';
import { isCompatibleRange } from '../sprig/semver.js';
import { renderTemplates, type EngineOptions } from './engine.js';
import { DEFAULT_KUBE_VERSION, capabilitiesObject, parseKubeVersion, releaseObject, type CapabilitiesOptions, type ReleaseOptions } from './objects.js';
import { showOnly, sortManifests, type CrdFile, type Hook, type Manifest } from './manifests.js';
import { SET_KINDS, applyHelmSet, coalesceChartValues, mergeMapsInto, processDependencies, processImportValues, readValuesText, type Warn } from './values.js';
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
  /** The text a values file named `-` stands for: standard input, which the caller reads (Helm reads it there). */
  stdin?: string;
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
  /** --no-hooks: leave the hooks out. */
  noHooks?: boolean;
  /** --skip-tests: leave out hooks of the test event. */
  skipTests?: boolean;
  /** --skip-schema-validation: values.schema.json files are not checked. */
  skipSchemaValidation?: boolean;
  /** --output-dir: the documents go to files under this folder (returned in `outputs`). */
  outputDir?: string;
  /** --release-name: templates' files go under OUTPUT-DIR/RELEASE (CRDs stay under OUTPUT-DIR). */
  useReleaseName?: boolean;
  /** --dependency-update: Helm would download missing dependencies; here they are an error that says so. */
  dependencyUpdate?: boolean;
  /** --post-renderer: the CRDs and manifests (not the hooks) as text in, what replaces them out. */
  postRender?: (manifests: string) => string;
  /** helm template --show-only: only the documents of templates matching these patterns. */
  showOnly?: string[];
  /** Where Helm's coalescing warnings go (default: dropped). */
  warn?: Warn;
}

export interface ChartRender {
  /** What helm template prints (after any "wrote" lines of --output-dir, which the writer prints). */
  text: string;
  /** With outputDir, the files to write in order; nothing is written by renderChart itself. */
  outputs: OutputFile[];
  manifests: Manifest[];
  hooks: Hook[];
  /** Values after coalescing, before any template changed them. */
  values: GoMap;
  chart: Chart;
}

/** A values file's text, read no further than the input limit (a device or an endless pipe ends), and
 *  decoded as yaml.v2 decodes it: UTF-16 after its byte order mark, invalid UTF-8 refused. */
function readText(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readBytesLimited(file);
  } catch (e) {
    if (e instanceof InputTooLarge) throw new InputError(`cannot read values file: ${e.message}`, file);
    // Helm's words for a file that is not there; the others in ours
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`cannot read values file: ${code === 'ENOENT' ? 'no such file or directory' : readReason(e)}`, file);
  }
  return decodeInput(bytes, file);
}

/** The user's values: files, then data, then --set-json, --set, --set-string, --set-file, --set-literal
 *  (pkg/cli/values MergeValues). */
export function userValues(opts: ChartRenderOptions): GoMap {
  // merged in place: the caller's maps are copied first, each file's are new
  let v = newMap();
  if (opts.baseValues) mergeMapsInto(v, copyData(opts.baseValues) as GoMap);
  const files = [...(opts.valuesFiles ?? []), ...(Array.isArray(opts.values) ? opts.values : [])];
  for (const f of files) mergeMapsInto(v, readValuesText(f === '-' && opts.stdin !== undefined ? opts.stdin : readText(f), f));
  if (opts.values && !Array.isArray(opts.values)) mergeMapsInto(v, copyData(opts.values) as GoMap);
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
      return readTextLimited(p);
    } catch (e) {
      if (e instanceof InputTooLarge) throw new SetValuesError(`read ${p}: ${e.message}`);
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

/** ValidateReleaseName's pattern: a DNS-1123 subdomain; at most 53 characters. */
const RELEASE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Install.availableName: the release name Helm accepts, or its error. */
export function checkReleaseName(name: string): void {
  if (name === '') throw new InputError(`release name "": no name provided`);
  if (name.length > 53 || !RELEASE_NAME.test(name)) {
    throw new InputError(`release name ${JSON.stringify(name)}: invalid release name, must match regex ${RELEASE_NAME.source} and the length must not be longer than 53`);
  }
}

/** A file written by --output-dir: where, what, and whether it is added to what the run wrote before. */
export interface OutputFile {
  /** OUTPUT-DIR/CHART/templates/FILE, as Helm names it in its "wrote" line. */
  path: string;
  content: string;
  /** Add to the file: an earlier document of the same template in this run wrote it (for hooks: the
   *  file exists at all, from this run or an earlier one). */
  append: 'no' | 'written' | 'exists';
}

/** helm template CHART [flags]. Throws InputError (one line, file:line:col where known) on bad input. */
export function renderChart(source: Chart | string, opts: ChartRenderOptions = {}): ChartRender {
  if (opts.kubeVersion !== undefined) {
    const kv = parseKubeVersion(opts.kubeVersion);
    if (typeof kv === 'string') throw new InputError(`invalid kube version '${opts.kubeVersion}': ${kv}`);
  }
  // what runInstall does before the release: values, the chart, whether it can be installed
  const user = userValues(opts);
  const loaded = typeof source === 'string' ? loadChart(source) : source;
  const chart = cloneChart(loaded);
  if (isLibrary(chart)) throw new InputError('library charts are not installable', `${chart.location}/Chart.yaml`);
  // helm template refuses a chart whose Chart.yaml lists a dependency charts/ does not hold
  const missing = chart.dependenciesMeta.filter((r) => !chart.dependencies.some((d) => d.name === r.name)).map((r) => r.name);
  if (missing.length > 0) {
    throw new InputError(
      opts.dependencyUpdate
        ? `found in Chart.yaml, but missing in charts/ directory: ${missing.join(', ')}; --dependency-update would download them, and chart does not use the network: run \`helm dependency build\` first`
        : `An error occurred while checking for chart dependencies. You may need to run \`helm dependency build\` to fetch missing dependencies: found in Chart.yaml, but missing in charts/ directory: ${missing.join(', ')}`,
      `${chart.location}/Chart.yaml`,
    );
  }
  checkReleaseName(opts.name ?? 'release-name');
  const warn = opts.warn ?? (() => {});
  processDependencies(chart, user, warn);
  processImportValues(chart, warn);
  const values = coalesceChartValues(chart, user, warn);
  if (!opts.skipSchemaValidation) validateAgainstSchema(chart, values);
  const kubeVersion = (parseKubeVersion(opts.kubeVersion ?? DEFAULT_KUBE_VERSION) as { version: string }).version;
  const wants = chart.metadata.kubeVersion;
  if (typeof wants === 'string' && wants !== '' && !isCompatibleRange(wants, kubeVersion)) {
    throw new InputError(`chart requires kubeVersion: ${wants} which is incompatible with Kubernetes ${kubeVersion}`, `${chart.location}/Chart.yaml`);
  }
  const top = newMap();
  top['Release'] = releaseObject(opts);
  top['Capabilities'] = capabilitiesObject(opts);
  // the templates get (and may change) their own copy; `values` stays as coalesced
  top['Values'] = coalesceChartValues(chart, user, () => {}) as GoValue;
  top['Chart'] = undefined;
  const rendered = renderTemplates(chart, top, opts);
  for (const k of [...rendered.keys()]) if (k.endsWith('NOTES.txt')) rendered.delete(k);
  const sorted = sortManifests(rendered);

  // action.renderResources: CRDs (--include-crds) and manifests into one text, or into files
  const outputs: OutputFile[] = [];
  const written = new Set<string>();
  const write = (dir: string, name: string, content: string, append: OutputFile['append']): void => {
    outputs.push({ path: `${dir}/${name}`, content: `---\n# Source: ${name}\n${content}\n`, append });
  };
  const dir = opts.outputDir;
  const manifestDir = dir !== undefined && opts.useReleaseName ? path.posix.join(dir, opts.name ?? 'release-name') : dir;
  let b = '';
  if (opts.includeCrds) {
    for (const c of crdFiles(chart)) {
      if (dir === undefined) b += `---\n# Source: ${c.name}\n${c.content}\n`;
      else {
        write(dir, c.name, c.content, written.has(c.name) ? 'written' : 'no');
        written.add(c.name);
      }
    }
  }
  for (const m of sorted.manifests) {
    if (manifestDir === undefined) b += `---\n# Source: ${m.name}\n${m.content}\n`;
    else {
      write(manifestDir, m.name, m.content, written.has(m.name) ? 'written' : 'no');
      written.add(m.name);
    }
  }
  if (opts.postRender) b = opts.postRender(b);
  // cmd/helm/template.go: the manifests, then the hooks (or their files)
  let text = b.trim() + '\n';
  if (!opts.noHooks) {
    for (const h of sorted.hooks) {
      if (opts.skipTests && h.events.includes('test')) continue;
      if (manifestDir === undefined) text += `---\n# Source: ${h.name}\n${h.content}\n`;
      else write(manifestDir, h.name, h.content, 'exists');
    }
  }
  if (opts.showOnly && opts.showOnly.length > 0) text = showOnly(text, opts.showOnly);
  return { text, manifests: sorted.manifests, hooks: sorted.hooks, values, chart, outputs };
}
