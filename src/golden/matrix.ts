// A golden matrix file: which render cases exist and where each case's golden file lives.
//
//   goldenDir: golden              # relative to the matrix file (default "golden")
//   compare: exact                 # exact (default) | semantic
//   defaults: { injectorConfigmap: cluster/istio-sidecar-injector.yaml, mesh: cluster/istio.yaml }
//   cases:
//     - name: deployment-default
//       filename: workloads/deployment.yaml
//   matrix:
//     - name: "{istio}-{values}-{workload}"      # optional; default joins the entry names with "."
//       axes:
//         istio:    [{ name: "1.20", injectorConfigmap: cm-1.20.yaml }, { name: "1.24", injectorConfigmap: cm-1.24.yaml }]
//         values:   [{ name: default }, { name: hold, set: [global.proxy.holdApplicationUntilProxyStarts=true] }]
//         workload: [{ name: deploy, filename: deploy.yaml }, { name: job, filename: job.yaml }]
//
// A case's keys are render's flags in camelCase (src/inputs/options.ts). Every case is the cross
// product's entries merged left to right over `defaults`: list fields (valuesFile, iop, set, setString,
// chartValues, ...) concatenate, maps (env) merge, other fields are replaced.

import { InputTooLarge, readTextLimited } from '../guard/fs.js';
import * as path from 'node:path';
import { nodeCrypto } from '../guard/builtins.js';
import { Ajv } from 'ajv';
import { LineCounter, parseDocument, isNode, visit, type Node } from 'yaml';
import { YamlTooDeep, checkYamlDepth } from '../yaml/yamllib.js';
import { matrixSchema } from './schema.js';
import { INPUT_OPTIONS, LEGACY_NAMES, namesFiles, type InjectorOptions } from '../inputs/options.js';
import { readReason, realPathLoose } from '../guard/fs.js';

/**
 * What a case carries: render's inputs as its flags in camelCase (the one table of inputs,
 * src/inputs/options.ts; paths resolved against the matrix file's folder; `filename` is the case's one
 * workloads file), then how it prints and compares. The earlier names (injectorConfigMap, injectConfig,
 * valuesFiles, workloads) are read as the names they became.
 */
export interface CaseSpec extends Omit<InjectorOptions, 'filename' | 'env' | 'chart'> {
  chart?: string;
  filename?: string;
  env?: Record<string, string>;
  merged?: boolean;
  output?: 'yaml' | 'json';
  /** Golden file, relative to goldenDir; default "<name>.yaml" (".json" with output json). */
  golden?: string;
  compare?: CompareMode;
}

export type CompareMode = 'exact' | 'semantic';

export interface GoldenCase extends CaseSpec {
  name: string;
  /** The case's workloads file (its `filename`). */
  workloads?: string;
  /** Absolute path of the golden file, always inside the matrix's golden directory. */
  goldenPath: string;
  compare: CompareMode;
  /** Where the case was declared, for messages: "matrix.yaml:12:5". */
  declaredAt: string;
}

export interface GoldenMatrix {
  file: string;
  baseDir: string;
  goldenDir: string;
  cases: GoldenCase[];
}

export class MatrixError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MatrixError';
  }
}

/** The inputs that name files, and those given as lists (which concatenate across a case's layers). */
const PATH_FIELDS = INPUT_OPTIONS.filter(namesFiles).map((o) => o.key);
const LIST_FIELDS = INPUT_OPTIONS.filter((o) => o.value === 'files' || o.value === 'strings').map((o) => o.key).filter((k) => k !== 'filename');

let validate: ReturnType<Ajv['compile']> | undefined;

function validator(): ReturnType<Ajv['compile']> {
  if (!validate) validate = new Ajv({ allErrors: false, strict: true }).compile(matrixSchema);
  return validate;
}

/** Merge case specs left to right. */
export function mergeSpecs(...specs: CaseSpec[]): CaseSpec {
  const out: CaseSpec = {};
  for (const s of specs) {
    for (const [k, v] of Object.entries(s) as [keyof CaseSpec, unknown][]) {
      if (v === undefined || (k as string) === 'name') continue;
      if ((LIST_FIELDS as readonly string[]).includes(k)) {
        const prev = (out[k] as string[] | undefined) ?? [];
        (out as Record<string, unknown>)[k] = [...prev, ...(v as string[])];
      } else if (k === 'env') {
        out.env = { ...(out.env ?? {}), ...(v as Record<string, string>) };
      } else {
        (out as Record<string, unknown>)[k] = v;
      }
    }
  }
  return out;
}

function resolvePaths(spec: CaseSpec, baseDir: string): CaseSpec {
  const out: Record<string, unknown> = { ...spec };
  const at = (v: string): string => (v === '-' ? v : path.resolve(baseDir, v));
  for (const f of PATH_FIELDS) {
    const v = out[f];
    if (typeof v === 'string') out[f] = at(v);
    else if (Array.isArray(v)) out[f] = (v as string[]).map(at);
  }
  return out as CaseSpec;
}

/** A spec with the earlier names read as the names they became; both in one spec is an error. */
function canonical(spec: Record<string, unknown>, where: () => string): CaseSpec {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec)) {
    const key = k === 'workloads' ? 'filename' : (LEGACY_NAMES[k] ?? k);
    if (key !== k && Object.hasOwn(spec, key)) throw new MatrixError(`${where()}: give ${k} or ${key}, not both`);
    out[key] = v;
  }
  return out as CaseSpec;
}

export interface MatrixOptions {
  /** The golden directory given on the command line (relative to the working folder), over the matrix's
   *  goldenDir; only so may it lie outside the matrix's folder. */
  goldenDir?: string;
}

/** Parse and validate a matrix file's text; errors name the file, line and column. */
export function parseMatrix(text: string, file: string, opts: MatrixOptions = {}): GoldenMatrix {
  const lineCounter = new LineCounter();
  const where = (offset: number | undefined): string => {
    if (offset === undefined) return file;
    const p = lineCounter.linePos(offset);
    return `${file}:${p.line}:${p.col}`;
  };
  try {
    checkYamlDepth(text);
  } catch (e) {
    if (e instanceof YamlTooDeep) {
      const p = e.position(text);
      throw new MatrixError(`${file}:${p.line}:${p.col}: ${e.message}`);
    }
    throw e;
  }
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new MatrixError(`${where(e.pos[0])}: ${e.message.split('\n')[0]}`);
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // the yaml library's alias-expansion guard (a "billion laughs") names no place: the first alias is it
    let at: number | undefined;
    visit(doc, {
      Alias(_, n) {
        at = n.range?.[0];
        return visit.BREAK;
      },
    });
    throw new MatrixError(`${where(at)}: ${(e as Error).message.split('\n')[0]}`);
  }
  const v = validator();
  if (!v(raw)) {
    const err = v.errors![0]!;
    const segs = err.instancePath.split('/').slice(1).map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));
    let node = doc.getIn(segs, true) as unknown;
    if (err.keyword === 'additionalProperties') {
      const extra = (err.params as { additionalProperty: string }).additionalProperty;
      const key = findKeyNode(doc.getIn(segs, true), extra);
      if (key) node = key;
      throw new MatrixError(`${where(rangeStart(node))}: unknown field "${extra}"${segs.length ? ` in ${segs.join('.')}` : ''}`);
    }
    const at = segs.length ? segs.join('.') : 'matrix';
    throw new MatrixError(`${where(rangeStart(node))}: ${at} ${err.message ?? 'is invalid'}`);
  }
  const m = raw as {
    goldenDir?: string;
    compare?: CompareMode;
    defaults?: CaseSpec;
    cases?: (CaseSpec & { name: string })[];
    matrix?: { name?: string; axes: Record<string, (CaseSpec & { name: string })[]>; defaults?: CaseSpec }[];
  };
  const named = (nodePath: (string | number)[]) => () => where(rangeStart(doc.getIn(nodePath, true)));
  if (m.defaults) m.defaults = canonical(m.defaults as unknown as Record<string, unknown>, named(['defaults']));
  m.cases = m.cases?.map((c, i) => ({ ...canonical(c as unknown as Record<string, unknown>, named(['cases', i])), name: c.name }));
  for (const [mi, e] of (m.matrix ?? []).entries()) {
    if (e.defaults) e.defaults = canonical(e.defaults as unknown as Record<string, unknown>, named(['matrix', mi, 'defaults']));
    for (const [axis, entries] of Object.entries(e.axes)) e.axes[axis] = entries.map((c, i) => ({ ...canonical(c as unknown as Record<string, unknown>, named(['matrix', mi, 'axes', axis, i])), name: c.name }));
  }
  const baseDir = path.dirname(path.resolve(file));
  const goldenDir = opts.goldenDir !== undefined ? path.resolve(opts.goldenDir) : path.resolve(baseDir, m.goldenDir ?? 'golden');
  // golden update --prune removes what the golden directory holds: one that the matrix file alone
  // names lies beside it, where its writer can see what is there
  if (opts.goldenDir === undefined && m.goldenDir !== undefined && goldenDir !== baseDir && !isInside(baseDir, goldenDir)) {
    throw new MatrixError(`${where(rangeStart(doc.get('goldenDir', true)))}: goldenDir ${m.goldenDir} is outside the matrix's folder; give it on the command line (--golden-dir) to use it`);
  }
  const defaults = m.defaults ?? {};
  const cases: GoldenCase[] = [];
  const seen = new Map<string, string>();
  const writers = new Map<string, string>();

  const add = (name: string, spec: CaseSpec, nodePath: (string | number)[]) => {
    const declaredAt = where(rangeStart(doc.getIn(nodePath, true)));
    const prev = seen.get(name);
    if (prev) throw new MatrixError(`${declaredAt}: duplicate case name "${name}" (first declared at ${prev})`);
    seen.set(name, declaredAt);
    const resolved = resolvePaths(spec, baseDir);
    const ext = resolved.output === 'json' ? '.json' : '.yaml';
    const rel = resolved.golden ?? safeFileName(name) + ext;
    const goldenPath = path.resolve(goldenDir, rel);
    if (!isInside(goldenDir, goldenPath)) {
      throw new MatrixError(`${declaredAt}: golden file "${rel}" of case "${name}" is outside the golden directory`);
    }
    const other = writers.get(goldenPath);
    if (other !== undefined) throw new MatrixError(`${declaredAt}: golden file "${rel}" of case "${name}" is also case "${other}"'s`);
    writers.set(goldenPath, name);
    cases.push({ ...resolved, ...(resolved.filename !== undefined ? { workloads: resolved.filename } : {}), name, goldenPath, compare: resolved.compare ?? m.compare ?? 'exact', declaredAt });
  };

  // Counted before anything is built: a few axes of a few hundred entries multiply to millions of cases.
  let total = (m.cases ?? []).length;
  (m.matrix ?? []).forEach((entry, mi) => {
    total += Object.values(entry.axes).reduce((n, axis) => n * axis.length, 1);
    if (total > MAX_CASES) {
      const count = (m.cases ?? []).length + (m.matrix ?? []).reduce((sum, e) => sum + Object.values(e.axes).reduce((n, axis) => n * axis.length, 1), 0);
      throw new MatrixError(`${where(rangeStart(doc.getIn(['matrix', mi], true)))}: the matrix makes ${fmtCount(count)} cases, more than the limit of ${MAX_CASES}; split it into several files`);
    }
  });
  (m.cases ?? []).forEach((c, i) => add(c.name, mergeSpecs(defaults, c), ['cases', i]));
  (m.matrix ?? []).forEach((entry, mi) => {
    const axisNames = Object.keys(entry.axes);
    for (const combo of crossProduct(axisNames.map((a) => entry.axes[a]!))) {
      const names: Record<string, string> = {};
      combo.forEach((c, i) => (names[axisNames[i]!] = c.name));
      const name = entry.name
        ? entry.name.replace(/\{([^}]+)\}/g, (all, axis: string) => {
            if (!Object.hasOwn(names, axis)) throw new MatrixError(`${where(rangeStart(doc.getIn(['matrix', mi, 'name'], true)))}: name pattern names unknown axis "${axis}"`);
            return names[axis]!;
          })
        : combo.map((c) => c.name).join('.');
      add(name, mergeSpecs(defaults, entry.defaults ?? {}, ...combo), ['matrix', mi]);
    }
  });
  // Everything in the golden directory that no case writes is stale, and `update --prune` removes it:
  // the matrix and the files it reads must live elsewhere.
  // Judged by where the files really are: a linked golden directory or input is no way around this.
  const realGolden = realPathLoose(goldenDir);
  for (const input of [path.resolve(file), ...cases.flatMap(inputsOf)]) {
    if (isInside(goldenDir, input) || isInside(realGolden, realPathLoose(input))) {
      const at = where(rangeStart(doc.get('goldenDir', true)));
      throw new MatrixError(`${at}: the golden directory holds ${path.relative(baseDir, input)}, which golden update --prune would remove; give golden files a folder of their own`);
    }
  }
  return { file, baseDir, goldenDir, cases };
}

/** Most cases one matrix file may make. */
export const MAX_CASES = 100_000;

function fmtCount(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : n.toExponential(3);
}

function inputsOf(c: CaseSpec): string[] {
  return PATH_FIELDS.flatMap((f) => (c as Record<string, unknown>)[f] ?? []).filter((v): v is string => typeof v === 'string' && v !== '-');
}

function crossProduct<X>(lists: X[][]): X[][] {
  let out: X[][] = [[]];
  for (const l of lists) out = out.flatMap((prefix) => l.map((x) => [...prefix, x]));
  return out;
}

function rangeStart(node: unknown): number | undefined {
  return isNode(node) ? (node as Node).range?.[0] : undefined;
}

function findKeyNode(mapNode: unknown, key: string): unknown {
  const items = (mapNode as { items?: { key: unknown }[] } | undefined)?.items;
  const pair = items?.find((p) => (p.key as { value?: unknown } | undefined)?.value === key);
  return pair?.key;
}

/** The longest golden file name made from a case name, with room for an extension in a file system's 255 bytes. */
const MAX_FILE_NAME = 200;

/**
 * A case name as a file name: path separators and other awkward characters become "_"; a name too long
 * for a file keeps its start and ends in a digest of the whole name, so two long names stay apart.
 */
export function safeFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_');
  if (safe.length <= MAX_FILE_NAME) return safe;
  const digest = nodeCrypto().createHash('sha256').update(name).digest('hex').slice(0, 16);
  return `${safe.slice(0, MAX_FILE_NAME - digest.length - 1)}-${digest}`;
}

export function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Read and parse a matrix file. */
export function loadMatrix(file: string, opts: MatrixOptions = {}): GoldenMatrix {
  let text: string;
  try {
    text = readTextLimited(file);
  } catch (e) {
    if (e instanceof InputTooLarge) throw new MatrixError(`${file}: ${e.message}`);
    throw new MatrixError(`${file}: ${readReason(e)}`);
  }
  return parseMatrix(text, file, opts);
}
