// Values as Helm computes them for a release (pkg/cli/values, pkg/chartutil coalesce.go and
// dependencies.go):
//
//   user values   -f files merged left to right (maps key by key, anything else replaced, null kept),
//                 then --set-json, --set, --set-string, --set-file, --set-literal, each parsed into
//                 that one map (Helm's strvals; integers are int64, null kept)
//   dependencies  tags, then conditions, decide which subcharts stay (checked on the coalesced values)
//   coalesce      the chart's values.yaml under the user's: nested maps merged, a user null deletes the
//                 default; globals copied down into every subchart's `global`; a subchart's values are
//                 its parent's table under the subchart's name over its own values.yaml
//
// Values are Go values (maps with no prototype, numbers float64 as sigs.k8s.io/yaml decodes them).
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/chartutil/{coalesce,dependencies}.go, pkg/cli/values/options.go
// Proven by: test/vectors/helm-template/, test/helm/chart.test.ts, test/helm/istio-charts.test.ts, test/helm/values-hostile.test.ts

import { copyData } from '../go/text/template/copy.js';
import { GO_TYPE, GoNum, T, isMap, newMap, type GoMap, type GoValue } from '../go/reflect/value.js';
import { InputError } from '../yaml/load.js';
import { kindName } from '../go/encoding/json/json.js';
import { sprintf } from '../go/fmt/print.js';
import { parseInto, SetValuesError, type SetKind } from './strvals.js';
import type { Json, JsonObject } from '../go/encoding/json/value.js';
import { firstYamlDocument, type Chart, type ChartDependency } from './chart.js';
import { isCompatibleRange } from '../sprig/semver.js';

const GLOBAL = 'global';

/** Warnings Helm logs while coalescing (type conflicts it skips); callers may print them. */
export type Warn = (message: string) => void;

function istable(v: GoValue): v is GoMap {
  return isMap(v);
}

function has(m: GoMap, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(m, k);
}

/** pkg/cli/values mergeMaps: b over a, maps merged recursively, everything else (null too) replaced. */
export function mergeMaps(a: GoMap, b: GoMap): GoMap {
  const out = newMap();
  for (const k of Object.keys(a)) out[k] = a[k];
  for (const k of Object.keys(b)) {
    const v = b[k];
    const cur = has(out, k) ? out[k] : undefined;
    out[k] = istable(v) && istable(cur) ? mergeMaps(cur, v) : v;
  }
  return out;
}

/**
 * mergeMaps(dst, src) into dst itself: src's entries over dst's, tables merged key by key. Merging each
 * of many -f files into a new map copied everything before it every time (20,000 files: minutes).
 * dst's tables must be the caller's own, to change; src's are taken as they are (src is not to be used
 * after). A table of a Go type other than map[string]interface {} is replaced by a plain copy before
 * it changes, as mergeMaps would copy it.
 */
export function mergeMapsInto(dst: GoMap, src: GoMap): void {
  for (const k of Object.keys(src)) {
    const v = src[k];
    let cur = has(dst, k) ? dst[k] : undefined;
    if (istable(v) && istable(cur)) {
      if (Object.prototype.hasOwnProperty.call(cur, GO_TYPE)) {
        const plain = newMap();
        for (const ck of Object.keys(cur)) plain[ck] = cur[ck];
        dst[k] = cur = plain;
      }
      mergeMapsInto(cur, v);
    } else dst[k] = v;
  }
}

/** A values file (-f): a YAML mapping, or nothing (empty, comments only: {}). Helm reads it with
 *  sigs.k8s.io/yaml.Unmarshal: the first document only, a key written twice keeps the last. */
export function readValuesText(text: string, file: string): GoMap {
  const doc = firstYamlDocument(text, file);
  if (doc === undefined || doc.value === null) return newMap();
  if (!istable(doc.value)) throw doc.errorAt([], `failed to parse ${file}: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kindName(doc.value as Json)} into Go value of type map[string]interface {}`);
  return doc.value;
}

/** The flags of command-line values, in the order Helm applies them (whatever their order given). */
export const SET_KINDS: readonly SetKind[] = ['set-json', 'set', 'set-string', 'set-file', 'set-literal'];

/** One --set (or --set-json, --set-string, --set-file, --set-literal) text parsed into values, which it
 *  changes, as strvals.ParseInto does; an error in Helm's words. readFile reads --set-file's paths. */
export function applyHelmSet(values: GoMap, arg: string, kind: SetKind | boolean, readFile?: (path: string) => string): GoMap {
  const k: SetKind = kind === true ? 'set-string' : kind === false ? 'set' : kind;
  try {
    parseInto(values, arg, k, readFile);
  } catch (e) {
    if (!(e instanceof SetValuesError)) throw e;
    // --set-json's message is Helm's own, without the parser's
    throw new InputError(k === 'set-json' ? `failed parsing --set-json data ${arg}` : `failed parsing --${k} data: ${e.message}`);
  }
  return values;
}

// ---------- coalesce.go ----------

/** coalesceTablesFullKey: src into dst, dst authoritative; without merge a null in dst deletes the key. */
function coalesceTables(dst: GoMap, src: GoMap, prefix: string, merge: boolean, warn: Warn): GoMap {
  for (const key of Object.keys(src)) {
    const val = src[key];
    const full = prefix ? `${prefix}.${key}` : key;
    const present = has(dst, key);
    const dv = present ? dst[key] : undefined;
    if (present && !merge && dv === null) delete dst[key];
    else if (!present) dst[key] = val;
    else if (istable(val)) {
      if (istable(dv)) coalesceTables(dv, val, full, merge, warn);
      else warn(`warning: cannot overwrite table with non table for ${full} (${describe(val)})`);
    } else if (istable(dv) && val !== null) {
      warn(`warning: destination for ${full} is a table. Ignoring non-table value (${describe(val)})`);
    }
  }
  return dst;
}

/** The value as the warning prints it: Go's %v (a map's keys sorted, a list in brackets). */
function describe(v: GoValue): string {
  return sprintf('%v', [v]);
}

/** coalesceValues: the chart's own values.yaml under v. */
function coalesceValues(c: Chart, v: GoMap, prefix: string, merge: boolean, warn: Warn): void {
  const sub = prefix ? `${prefix}.${c.name}` : c.name;
  const vc = copyData(c.values) as GoMap;
  for (const key of Object.keys(vc)) {
    const val = vc[key];
    if (has(v, key)) {
      const value = v[key];
      if (value === null && !merge) delete v[key];
      else if (istable(value)) {
        if (!istable(val)) {
          if (val !== null) warn(`warning: skipped value for ${sub}.${key}: Not a table.`);
        } else {
          const childMerge = c.dependencies.some((d) => d.name === key) || merge;
          coalesceTables(value, val, `${sub}.${key}`, childMerge, warn);
        }
      }
    } else v[key] = val;
  }
}

/** coalesceGlobals: the parent's `global` merged into the subchart's (the parent's entries win). */
function coalesceGlobals(dest: GoMap, src: GoMap, prefix: string, warn: Warn): void {
  let dg: GoMap;
  let sg: GoMap;
  if (!has(dest, GLOBAL)) dg = newMap();
  else if (istable(dest[GLOBAL])) dg = dest[GLOBAL];
  else return warn('warning: skipping globals because destination global is not a table.');
  if (!has(src, GLOBAL)) sg = newMap();
  else if (istable(src[GLOBAL])) sg = src[GLOBAL];
  else return warn('warning: skipping globals because source global is not a table.');
  for (const key of Object.keys(sg)) {
    const val = sg[key];
    if (istable(val)) {
      const vv = newMap();
      for (const k of Object.keys(val)) vv[k] = val[k];
      if (!has(dg, key)) dg[key] = vv;
      else {
        const destv = dg[key];
        if (!istable(destv)) warn(`Conflict: cannot merge map onto non-map for "${key}". Skipping.`);
        else {
          coalesceTables(vv, destv, prefix ? `${prefix}.${key}` : key, true, warn);
          dg[key] = vv;
        }
      }
    } else if (has(dg, key) && istable(dg[key])) {
      warn(`key ${key} is table. Skipping`);
    } else dg[key] = val;
  }
  dest[GLOBAL] = dg;
}

function coalesceDeps(c: Chart, dest: GoMap, prefix: string, merge: boolean, warn: Warn): GoMap {
  for (const sub of c.dependencies) {
    if (!has(dest, sub.name)) dest[sub.name] = newMap();
    const dv = dest[sub.name];
    if (!istable(dv)) throw new InputError(`type mismatch on ${sub.name}: %!t(${typeof dv})`, c.location);
    const subPrefix = prefix ? `${prefix}.${c.name}` : c.name;
    coalesceGlobals(dv, dest, subPrefix, warn);
    dest[sub.name] = coalesce(sub, dv, subPrefix, merge, warn);
  }
  return dest;
}

function coalesce(c: Chart, dest: GoMap, prefix: string, merge: boolean, warn: Warn): GoMap {
  coalesceValues(c, dest, prefix, merge, warn);
  return coalesceDeps(c, dest, prefix, merge, warn);
}

/** CoalesceValues: the chart's (and its subcharts') defaults under a copy of the user's values. */
export function coalesceChartValues(c: Chart, user: GoMap, warn: Warn = () => {}): GoMap {
  return coalesce(c, copyData(user) as GoMap, '', false, warn);
}

// ---------- dependencies.go: which subcharts are enabled ----------

/** Values.PathValue: a dotted path to a value that is not a table. */
function pathValue(v: GoMap, p: string): { found: boolean; value?: GoValue } {
  const parts = p.split('.');
  let cur: GoValue = v;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!istable(cur) || !has(cur, parts[i]!)) return { found: false };
    cur = cur[parts[i]!];
  }
  const last = parts[parts.length - 1]!;
  if (!istable(cur) || !has(cur, last)) return { found: false };
  const value = cur[last];
  if (istable(value)) return { found: false };
  return { found: true, value };
}

function processTags(reqs: ChartDependency[], cvals: GoMap, warn: Warn): void {
  const vt = cvals['tags'];
  if (!has(cvals, 'tags') || !istable(vt)) return;
  for (const r of reqs) {
    let hasTrue = false;
    let hasFalse = false;
    for (const k of r.tags) {
      if (!has(vt, k)) continue;
      const b = vt[k];
      if (typeof b === 'boolean') {
        if (b) hasTrue = true;
        else hasFalse = true;
      } else warn(`Warning: Tag '${k}' for chart ${r.name} returned non-bool value`);
    }
    if (!hasTrue && hasFalse) r.enabled = false;
    else r.enabled = true;
  }
}

function processConditions(reqs: ChartDependency[], cvals: GoMap, cpath: string, warn: Warn): void {
  for (const r of reqs) {
    for (const cond of r.condition.trim().split(',')) {
      if (cond.length === 0) continue;
      const { found, value } = pathValue(cvals, cpath + cond);
      if (!found) continue;
      if (typeof value === 'boolean') {
        r.enabled = value;
        break;
      }
      warn(`Warning: Condition path '${cond}' for chart ${r.name} returned non-bool value`);
    }
  }
}

/** Chart.SetDependencies: the chart's own new list, each subchart's parent pointed at it. */
function setDependencies(c: Chart, deps: Chart[]): void {
  c.dependencies = [...deps];
  for (const d of deps) d.parent = c;
}

/**
 * processDependencyEnabled: aliases applied, disabled subcharts removed (recursively). It changes the
 * chart given (renderChart gives it a copy of the loaded chart), as Helm changes its own:
 *
 * an alias is a shallow copy of the subchart (getAliasDependency), sharing its subcharts and its
 * Chart.yaml dependency entries with every other alias of it; processing the first copy renames those
 * shared entries to their aliases, so in every later copy of the same subchart no entry names a
 * subchart any more: its subcharts stay as they are, unaliased (Helm 3.17.1: a chart listing `sub`
 * twice as `a` and `b` renders a/charts/a, a/charts/b and b/charts/sub). The tree grows with the
 * chart's folders, never doubling per level.
 */
export function processDependencies(c: Chart, user: GoMap, warn: Warn = () => {}, cpath = ''): void {
  if (c.dependenciesMeta.length === 0) return;
  const compatible = (d: Chart, r: ChartDependency): boolean => d.name === r.name && isCompatibleRange(r.version, typeof d.metadata.version === 'string' ? d.metadata.version : '');
  const subcharts = c.dependencies;
  // subcharts in charts/ that Chart.yaml does not list (in a version it accepts) are always kept
  const kept: Chart[] = subcharts.filter((d) => !c.dependenciesMeta.some((r) => compatible(d, r)));
  for (const r of c.dependenciesMeta) {
    const found = subcharts.find((d) => compatible(d, r));
    if (found) {
      const copy: Chart = { ...found, metadata: { ...found.metadata } };
      if (r.alias) {
        copy.name = r.alias;
        copy.metadata.name = r.alias;
      }
      kept.push(copy);
    }
    // the entry is shared with every copy of this chart
    if (r.alias) r.name = r.alias;
  }
  setDependencies(c, kept);
  for (const r of c.dependenciesMeta) r.enabled = true;
  const cvals = coalesceChartValues(c, user, () => {});
  processTags(c.dependenciesMeta, cvals, warn);
  processConditions(c.dependenciesMeta, cvals, cpath, warn);
  const disabled = new Set(c.dependenciesMeta.filter((r) => !r.enabled).map((r) => r.name));
  const enabled = c.dependencies.filter((d) => !disabled.has(d.name));
  const enabledMeta = c.dependenciesMeta.filter((r) => !disabled.has(r.name));
  for (const d of enabled) processDependencies(d, cvals, warn, `${cpath}${d.name}.`);
  c.dependenciesMeta = enabledMeta;
  setDependencies(c, enabled);
}

// ---------- dependencies.go: import-values ----------

/** Values.Table: the map at a dotted path, or undefined. */
function table(v: GoMap, p: string): GoMap | undefined {
  let cur: GoValue = v;
  for (const k of p.split('.')) {
    if (!istable(cur) || !has(cur, k)) return undefined;
    cur = cur[k];
  }
  return istable(cur) ? cur : undefined;
}

/** pathToMap: data placed under a dotted path ("." is the root). */
function pathToMap(p: string, data: GoMap): GoMap {
  if (p === '.') return data;
  const parts = p.split('.').filter((x) => x !== '');
  let out = data;
  for (let i = parts.length - 1; i >= 0; i--) {
    const m = newMap();
    m[parts[i]!] = out;
    out = m;
  }
  return out;
}

/**
 * processDependencyImportValues as `helm template` runs it (merging): deepest charts first, each
 * chart's values become its defaults merged with its subcharts', plus the tables its dependencies'
 * `import-values` name (`exports.NAME` for a string; `child` into `parent` for a mapping), which the
 * chart's own values override.
 */
export function processImportValues(c: Chart, warn: Warn = () => {}): void {
  for (const d of c.dependencies) processImportValues(d, warn);
  if (c.dependenciesMeta.length === 0) return;
  const cvals = coalesce(c, newMap(), '', true, warn);
  let b = newMap();
  for (const r of c.dependenciesMeta) {
    for (const iv of r.importValues) {
      if (typeof iv === 'string') {
        const vm = table(cvals, `${r.name}.exports.${iv}`);
        if (!vm) warn(`Warning: ImportValues missing table: ${r.name}.exports.${iv}`);
        else b = coalesceTables(b, copyData(vm) as GoMap, '', true, warn);
      } else if (istable(iv as GoValue)) {
        const m = iv as unknown as GoMap;
        const child = m['child'];
        const parent = m['parent'];
        if (typeof child !== 'string' || typeof parent !== 'string') throw new InputError(`import-values of ${r.name}: child and parent must be strings`, c.location);
        const vv = table(cvals, `${r.name}.${child}`);
        if (!vv) warn(`Warning: ImportValues missing table from chart ${r.name}: ${r.name}.${child}`);
        else b = coalesceTables(b, pathToMap(parent, copyData(vv) as GoMap), '', true, warn);
      }
    }
  }
  c.values = coalesceTables(copyData(cvals) as GoMap, b, '', true, warn);
}
