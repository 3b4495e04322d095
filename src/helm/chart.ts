// A Helm chart loaded as Helm's pkg/chart/loader loads it: from a directory (honouring .helmignore) or
// a .tgz (`helm package` / `helm pull` output, every file under one top directory). Chart.yaml becomes
// the metadata, values.yaml the default values (as sigs.k8s.io/yaml decodes them: numbers float64),
// templates/ the templates, charts/ the subcharts (directories or archives), everything else .Files.
// Every failure is an InputError naming the chart file and, where known, its line and column.
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/chart/loader/{load,directory,archive}.go, pkg/chart/metadata.go
// Proven by: test/helm/chart.test.ts, test/helm/tar-hostile.test.ts

import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeInput, InputError, loadYamlDocument, loadYamlDocuments, type LoadedDocument } from '../yaml/load.js';
import { newMap, type GoMap } from '../go/reflect/value.js';
import { isObject, type Json, type JsonObject } from '../go/encoding/json/value.js';
import { gunzipLimited, tarItems, TarError, TarFileTooLarge, TarTooLarge, type Unpacked } from './tar.js';
import { goQuote } from '../go/strconv/quote.js';
import { IgnoreRules } from './ignore.js';
import { kindName } from '../go/encoding/json/json.js';
import { InputTooLarge, readBytesLimited, readReason } from '../guard/fs.js';

export interface ChartFile {
  /** '/'-separated, relative to the chart root ("templates/deployment.yaml"). */
  name: string;
  data: Buffer;
}

/** A `dependencies:` entry of Chart.yaml (requirements.yaml for apiVersion v1). */
export interface ChartDependency {
  name: string;
  version: string;
  repository: string;
  condition: string;
  tags: string[];
  alias: string;
  enabled: boolean;
  importValues: Json[];
}

export interface Chart {
  /** Chart.yaml as decoded (the fields .Chart exposes are read from it). */
  metadata: JsonObject;
  /** metadata.name, or the alias a parent gave it. */
  name: string;
  dependenciesMeta: ChartDependency[];
  /** values.yaml (an empty map when absent). */
  values: GoMap;
  /** values.schema.json text, if any. */
  schema?: { text: string; file: string };
  templates: ChartFile[];
  files: ChartFile[];
  dependencies: Chart[];
  parent?: Chart;
  /** Where the chart's files are shown from in messages (a directory, or ARCHIVE.tgz/DIR). */
  location: string;
}

export const MAX_FILES = 10_000;
/** Subcharts nest at most this deep (an archive can nest archives without end). */
export const MAX_CHART_DEPTH = 32;
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** A chart with all its subcharts, at every depth: at most this many charts, files and bytes of files
 *  (an archive counts packed, as a file of its parent, and its files again unpacked). */
export const MAX_TREE_CHARTS = 1_000;
export const MAX_TREE_FILES = 50_000;
export const MAX_TREE_BYTES = 256 * 1024 * 1024;

const MiB = (n: number): string => `${Math.round(n / (1024 * 1024))} MiB`;

/** What one chart tree has taken so far, against the MAX_TREE_ bounds. */
interface Tree {
  charts: number;
  files: number;
  bytes: number;
}

const newTree = (): Tree => ({ charts: 0, files: 0, bytes: 0 });

/** `n` more charts in the tree of the chart at `where`. */
function addCharts(tree: Tree, n: number, where: string): void {
  tree.charts += n;
  if (tree.charts > MAX_TREE_CHARTS) throw new InputError(`more than ${MAX_TREE_CHARTS} charts in one tree (subcharts at every depth count)`, where);
}

/** `files` more files of `bytes` bytes read for the chart at `where`. */
function take(tree: Tree, files: number, bytes: number, where: string): void {
  tree.files += files;
  tree.bytes += bytes;
  if (tree.files > MAX_TREE_FILES) throw new InputError(`more than ${MAX_TREE_FILES} files in one chart with its subcharts`, where);
  if (tree.bytes > MAX_TREE_BYTES) throw new InputError(`more than ${MiB(MAX_TREE_BYTES)} of files in one chart with its subcharts`, where);
}

/**
 * A YAML file as Helm reads it with sigs.k8s.io/yaml.Unmarshal (yaml.v2 underneath): its first
 * document only; undefined when it has none (empty, or comments only), which Helm reads as an empty
 * map. A key written twice keeps the last.
 */
export function firstYamlDocument(text: string, file: string): LoadedDocument | undefined {
  if (text.trim() === '') return undefined;
  return loadYamlDocuments(text, file, { format: 'yaml', duplicateKeys: 'last' })[0];
}

/** Load a chart directory or archive. */
export function loadChart(where: string): Chart {
  let st: fs.Stats;
  try {
    st = fs.statSync(where);
  } catch {
    throw new InputError('no such chart directory or archive', where);
  }
  const tree = newTree();
  if (st.isDirectory()) return loadFiles(readDirectory(where, tree), where, 0, tree);
  return loadArchive(readArchiveFile(where), where, 0, tree);
}

/** The bytes of a chart archive, read no further than the bound on a chart: a link to /dev/zero or a
 *  huge sparse file is refused as its first bytes are not gzip's, or as it passes the bound. */
function readArchiveFile(file: string): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    throw new InputError(`cannot read: ${readReason(e)}`, file);
  }
  try {
    const head = Buffer.alloc(3);
    let n = 0;
    for (let got = -1; n < 3 && got !== 0; n += got) got = fs.readSync(fd, head, n, 3 - n, null);
    if (n < 3 || head[0] !== 0x1f || head[1] !== 0x8b || head[2] !== 8) throw new InputError('not a chart archive: not a gzip archive', file);
    return Buffer.concat([head, readBytesLimited(fd, MAX_TREE_BYTES - 3)]);
  } catch (e) {
    if (e instanceof InputError) throw e;
    if (e instanceof InputTooLarge) throw new InputError(`the archive is more than ${MiB(MAX_TREE_BYTES)}, the limit of a chart`, file);
    throw new InputError(`cannot read: ${readReason(e)}`, file);
  } finally {
    fs.closeSync(fd);
  }
}

/** path.Clean of a relative '/'-separated path. */
function cleanPath(p: string): string {
  const n = path.posix.normalize(p);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

/** A chart archive (LoadArchiveFiles): every entry lives under one top directory, which is dropped.
 *  Folders and PAX headers are skipped; every other entry is a file, links and devices too (empty,
 *  as Go reads no data for them). A name's checks come before its data is read, as in Helm. */
export function loadArchive(gz: Buffer, label: string, depth = 0, tree: Tree = newTree()): Chart {
  const files: ChartFile[] = [];
  let top: string | undefined;
  try {
    const room = MAX_TREE_BYTES - tree.bytes;
    let tar: Unpacked;
    try {
      tar = gunzipLimited(gz, room);
    } catch (e) {
      if (!(e instanceof TarTooLarge)) throw e;
      throw new InputError(
        room === MAX_TREE_BYTES
          ? `decompressed, the archive is more than ${MiB(MAX_TREE_BYTES)}, the limit of a chart`
          : `decompressed, the archive takes the chart and its subcharts past ${MiB(MAX_TREE_BYTES)}, the limit of a chart`,
        label,
      );
    }
    for (const item of tarItems(tar)) {
      if (item.isDir || item.header.typeflag === 'g') continue;
      const raw = item.header.name;
      // an archive written on Windows may use '\\'
      const delimiter = raw.includes('\\') ? '\\' : '/';
      const parts = raw.split(delimiter);
      let n = parts.slice(1).join('/');
      if (n.startsWith('/')) throw new InputError('chart illegally contains absolute paths', label);
      n = cleanPath(n);
      if (n === '.') throw new InputError(`chart illegally contains content outside the base directory: ${goQuote(raw)}`, label);
      if (n.startsWith('..')) throw new InputError('chart illegally references parent directory', label);
      if (/^[a-zA-Z]:\//.test(n)) throw new InputError('chart contains illegally named files', label);
      if (parts[0] === 'Chart.yaml') throw new InputError('chart yaml not in base directory', label);
      let data: Buffer;
      try {
        data = item.read(MAX_FILE_BYTES);
      } catch (e) {
        if (e instanceof TarFileTooLarge) throw new InputError(`${n} is ${e.size} bytes, more than the limit of ${MAX_FILE_BYTES} for a file`, label);
        throw e;
      }
      top ??= parts[0];
      take(tree, 1, data.length, label);
      files.push({ name: n, data: stripBom(data) });
      if (files.length > MAX_FILES) throw new InputError(`chart has more than ${MAX_FILES} files`, label);
    }
  } catch (e) {
    // Helm's LoadFile words for a gzip header it cannot read in the archive given
    if (e instanceof TarError && depth === 0 && e.message === 'gzip: invalid header') throw new InputError('does not appear to be a valid chart file (details: gzip: invalid header)', label);
    if (e instanceof TarError) throw new InputError(`not a chart archive: ${e.message}`, label);
    throw e;
  }
  if (files.length === 0) throw new InputError('no files in chart archive', label);
  return loadFiles(files, `${label}/${top ?? ''}`.replace(/\/$/, ''), depth, tree);
}

function stripBom(b: Buffer): Buffer {
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b;
}

/**
 * Where a chart's symbolic link leads, when that is inside the chart. Helm follows links wherever they
 * go, with a warning; a chart is untrusted here, so a link out of its folder (to /proc/self/environ,
 * say) or into a loop is refused, naming the link and its target.
 */
function insideLink(full: string, realRoot: string, walking: ReadonlySet<string>): string {
  let target: string;
  try {
    target = fs.realpathSync(full);
  } catch (e) {
    throw new InputError(`cannot follow the link: ${readReason(e)}`, full);
  }
  if (target !== realRoot && !target.startsWith(realRoot + path.sep)) {
    throw new InputError(`a link to ${target}, outside the chart: links that leave the chart are not followed`, full);
  }
  if (walking.has(target)) throw new InputError(`a link to ${target}, a folder that holds it: the chart would never end`, full);
  return target;
}

function readDirectory(root: string, tree: Tree): ChartFile[] {
  const realRoot = fs.realpathSync(root);
  let rules = IgnoreRules.parse(Buffer.alloc(0), '');
  const ignoreFile = path.join(root, '.helmignore');
  if (fs.existsSync(ignoreFile)) {
    if (fs.lstatSync(ignoreFile).isSymbolicLink()) insideLink(ignoreFile, realRoot, new Set());
    rules = IgnoreRules.parse(readBytesLimited(ignoreFile, MAX_FILE_BYTES), ignoreFile);
  }
  const found: { name: string; full: string; size: number }[] = [];
  // the real folders being walked, the chart's own first: a link back into one of them is a loop
  const walking = new Set<string>([realRoot]);
  const walk = (dir: string, rel: string): void => {
    const names = fs.readdirSync(dir).sort();
    for (const name of names) {
      const full = path.join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const link = fs.lstatSync(full).isSymbolicLink();
      let st: fs.Stats;
      try {
        st = fs.statSync(full);
      } catch (e) {
        // a link to nothing or into a loop: nothing to read if the chart ignores it
        if (link && (rules.ignore(r, true) || rules.ignore(r, false))) continue;
        if (link) insideLink(full, realRoot, walking);
        throw new InputError(`cannot read: ${readReason(e)}`, full);
      }
      // once a path, as Helm asks: a rule that starts with '/' changes as it is tried
      const ignore = rules.ignore(r, st.isDirectory());
      if (st.isDirectory()) {
        if (ignore) continue;
        const real = link ? insideLink(full, realRoot, walking) : fs.realpathSync(full);
        walking.add(real);
        walk(full, r);
        walking.delete(real);
        continue;
      }
      if (link && !ignore) insideLink(full, realRoot, walking);
      if (ignore) continue;
      if (!st.isFile()) throw new InputError('cannot load irregular file as it has file mode type bits set', full);
      if (st.size > MAX_FILE_BYTES) throw new InputError(`file is ${st.size} bytes, more than the limit of ${MAX_FILE_BYTES}`, full);
      take(tree, 1, st.size, root);
      found.push({ name: r, full, size: st.size });
      if (found.length > MAX_FILES) throw new InputError(`chart has more than ${MAX_FILES} files`, root);
    }
  };
  walk(root, '');
  // every file is listed and counted before any is read: a chart past the bounds reads nothing
  return found.map((f) => {
    const data = readFileBounded(f.full);
    // a file that grew since it was listed counts as it is now
    take(tree, 0, data.length - f.size, root);
    return { name: f.name, data: stripBom(data) };
  });
}

/** A chart file, read no further than the limit on one file (it may have grown since it was listed). */
function readFileBounded(file: string): Buffer {
  try {
    return readBytesLimited(file, MAX_FILE_BYTES);
  } catch (e) {
    if (e instanceof InputTooLarge) throw new InputError(`file is more than the limit of ${MAX_FILE_BYTES} bytes`, file);
    throw new InputError(`cannot read: ${readReason(e)}`, file);
  }
}

/** Chart.yaml, values.yaml, requirements.yaml: bytes decoded as yaml.v2 decodes them (UTF-16 after its
 *  byte order mark; invalid UTF-8 refused at its line and column, never read as U+FFFD). */
function yamlDoc(f: ChartFile, location: string): LoadedDocument | undefined {
  const file = `${location}/${f.name}`;
  return firstYamlDocument(decodeInput(f.data, file), file);
}

const METADATA_STRINGS = ['name', 'home', 'version', 'description', 'icon', 'apiVersion', 'condition', 'tags', 'appVersion', 'kubeVersion', 'type'];
const METADATA_LISTS = ['sources', 'keywords', 'maintainers', 'dependencies'];

function checkMetadata(doc: LoadedDocument, meta: JsonObject): void {
  const goField = (k: string): string => `Metadata.${k}`;
  for (const k of METADATA_STRINGS) {
    const v = meta[k];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw doc.errorAt([k], `cannot load Chart.yaml: json: cannot unmarshal ${kindName(v)} into Go struct field ${goField(k)} of type string`);
    }
  }
  for (const k of METADATA_LISTS) {
    const v = meta[k];
    if (v !== undefined && v !== null && !Array.isArray(v)) throw doc.errorAt([k], `cannot load Chart.yaml: json: cannot unmarshal ${kindName(v)} into Go struct field ${goField(k)} of type []`);
  }
  if (meta.deprecated !== undefined && meta.deprecated !== null && typeof meta.deprecated !== 'boolean') {
    throw doc.errorAt(['deprecated'], `cannot load Chart.yaml: json: cannot unmarshal ${kindName(meta.deprecated)} into Go struct field Metadata.deprecated of type bool`);
  }
  if (meta.annotations !== undefined && meta.annotations !== null) {
    if (!isObject(meta.annotations)) throw doc.errorAt(['annotations'], 'cannot load Chart.yaml: annotations must be a map of strings');
    for (const [k, v] of Object.entries(meta.annotations)) {
      if (typeof v !== 'string') throw doc.errorAt(['annotations', k], `cannot load Chart.yaml: json: cannot unmarshal ${kindName(v)} into Go struct field Metadata.annotations of type string`);
    }
  }
}


const SEMVER = /^v?(0|[1-9]\d*)(\.(0|[1-9]\d*))?(\.(0|[1-9]\d*))?(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/** Chart.Validate's checks on the metadata. */
function validateMetadata(doc: LoadedDocument, meta: JsonObject): void {
  const s = (k: string): string => (typeof meta[k] === 'string' ? (meta[k] as string) : '');
  if (s('apiVersion') === '') meta.apiVersion = 'v1';
  if (s('name') === '') throw doc.errorAt([], 'validation: chart.metadata.name is required');
  if (s('name').includes('/') || s('name').includes('\\') || s('name') === '.' || s('name') === '..') {
    throw doc.errorAt(['name'], `validation: chart.metadata.name "${s('name')}" is invalid`);
  }
  if (s('version') === '') throw doc.errorAt([], 'validation: chart.metadata.version is required');
  if (!SEMVER.test(s('version'))) throw doc.errorAt(['version'], `validation: chart.metadata.version "${s('version')}" is invalid`);
  if (s('type') !== '' && s('type') !== 'application' && s('type') !== 'library') {
    throw doc.errorAt(['type'], 'validation: chart.metadata.type must be application or library');
  }
}

function dependencyList(doc: LoadedDocument, list: Json | undefined, key: string[]): ChartDependency[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw doc.errorAt(key, 'dependencies must be a list');
  return list.map((d, i) => {
    if (!isObject(d)) throw doc.errorAt([...key, i], 'a dependency must be a mapping');
    const str = (k: string): string => {
      const v = d[k];
      if (v === undefined || v === null) return '';
      if (typeof v !== 'string') throw doc.errorAt([...key, i, k], `json: cannot unmarshal ${kindName(v)} into Go struct field Dependency.dependencies.${k} of type string`);
      return v;
    };
    const name = str('name');
    if (name === '') throw doc.errorAt([...key, i], 'validation: dependencies must have a name');
    const tags = Array.isArray(d.tags) ? d.tags.map((t) => String(t)) : [];
    return {
      name,
      version: str('version'),
      repository: str('repository'),
      condition: str('condition'),
      tags,
      alias: str('alias'),
      enabled: true,
      importValues: Array.isArray(d['import-values']) ? (d['import-values'] as Json[]) : [],
    };
  });
}

/** LoadFiles: sort the files of one chart into its parts. */
export function loadFiles(files: ChartFile[], location: string, depth = 0, tree: Tree = newTree()): Chart {
  if (depth > MAX_CHART_DEPTH) throw new InputError(`subcharts nest more than ${MAX_CHART_DEPTH} deep`, location);
  // a subchart was counted by its parent, with its siblings, before any of them was read
  if (depth === 0) addCharts(tree, 1, location);
  let metadata: JsonObject | undefined;
  let metaDoc: LoadedDocument | undefined;
  let requirements: { doc: LoadedDocument; list: Json | undefined } | undefined;
  let values: GoMap = newMap();
  let schema: Chart['schema'];
  const templates: ChartFile[] = [];
  const other: ChartFile[] = [];
  const subcharts = new Map<string, ChartFile[]>();
  for (const f of files) {
    if (f.name === 'Chart.yaml') {
      metaDoc = yamlDoc(f, location);
      const v = metaDoc?.value;
      if (metaDoc && v !== null && !isObject(v as Json)) throw metaDoc.errorAt([], 'cannot load Chart.yaml: not a mapping');
      metadata = (v as JsonObject | null) ?? (Object.create(null) as JsonObject);
      if (metaDoc) checkMetadata(metaDoc, metadata);
    } else if (f.name === 'values.yaml') {
      const doc = yamlDoc(f, location);
      if (doc && doc.value !== null && !isObject(doc.value as Json)) throw doc.errorAt([], 'cannot load values.yaml: values must be a mapping');
      values = (doc?.value as GoMap | null) ?? newMap();
    } else if (f.name === 'values.schema.json') {
      schema = { text: f.data.toString('utf8'), file: `${location}/${f.name}` };
    } else if (f.name === 'requirements.yaml') {
      const doc = yamlDoc(f, location);
      if (doc) requirements = { doc, list: isObject(doc.value as Json) ? (doc.value as JsonObject).dependencies : undefined };
      other.push(f);
    } else if (f.name === 'Chart.lock' || f.name === 'requirements.lock') {
      other.push(f);
    } else if (f.name.startsWith('templates/')) {
      templates.push(f);
    } else if (f.name.startsWith('charts/') && !f.name.endsWith('.prov')) {
      const rest = f.name.slice('charts/'.length);
      const cname = rest.split('/')[0]!;
      const list = subcharts.get(cname) ?? [];
      list.push({ name: rest, data: f.data });
      subcharts.set(cname, list);
    } else {
      other.push(f);
    }
  }
  if (!metadata) throw new InputError('Chart.yaml file is missing', location);
  const chartFile = metaDoc ?? loadYamlDocument('{}', `${location}/Chart.yaml`);
  validateMetadata(chartFile, metadata);
  let deps = dependencyList(chartFile, metadata.dependencies, ['dependencies']);
  if (metadata.apiVersion === 'v1' && requirements) deps = dependencyList(requirements.doc, requirements.list, ['dependencies']);
  const chart: Chart = {
    metadata,
    name: metadata.name as string,
    dependenciesMeta: deps,
    values,
    ...(schema ? { schema } : {}),
    templates,
    files: other,
    dependencies: [],
    location,
  };
  // Go ranges over a map here, in no fixed order; by name is one Helm may produce, and stable.
  // (a file directly in charts/ that is not an archive is not a chart)
  const names = [...subcharts.keys()].sort().filter((n) => !n.startsWith('_') && !n.startsWith('.') && (n.endsWith('.tgz') || subcharts.get(n)!.some((f) => f.name.includes('/'))));
  addCharts(tree, names.length, location);
  for (const cname of names) {
    const sub = subcharts.get(cname)!;
    let sc: Chart;
    if (cname.endsWith('.tgz')) {
      const f = sub[0]!;
      if (f.name !== cname) throw new InputError(`error unpacking subchart tar in ${chart.name}: expected ${cname}, got ${f.name}`, location);
      sc = loadArchive(f.data, `${location}/charts/${cname}`, depth + 1, tree);
    } else {
      const inner = sub.filter((f) => f.name.includes('/')).map((f) => ({ name: f.name.slice(f.name.indexOf('/') + 1), data: f.data }));
      sc = loadFiles(inner, `${location}/charts/${cname}`, depth + 1, tree);
    }
    sc.parent = chart;
    chart.dependencies.push(sc);
  }
  return chart;
}

/** Helm's ChartFullPath: the root's name, then /charts/NAME for each level down. */
export function chartFullPath(c: Chart): string {
  return c.parent ? `${chartFullPath(c.parent)}/charts/${c.name}` : c.name;
}

export function isLibrary(c: Chart): boolean {
  return c.metadata.type === 'library';
}

/** A copy of the chart tree (its own dependency lists, parents pointing into the copy; files shared):
 *  enabling dependencies and aliasing change the copy, never the loaded chart. */
export function cloneChart(c: Chart, parent?: Chart): Chart {
  const copy: Chart = { ...c, metadata: { ...c.metadata }, dependenciesMeta: c.dependenciesMeta.map((d) => ({ ...d, tags: [...d.tags] })), dependencies: [] };
  if (parent) copy.parent = parent;
  else delete copy.parent;
  copy.dependencies = c.dependencies.map((d) => cloneChart(d, copy));
  return copy;
}
