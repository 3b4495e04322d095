// The audit's data model: findings, workloads as the kubelet will see them, and where evidence lives.

export type Severity = 'error' | 'warning' | 'info';

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** One hazard found in one workload. `location` is file:line:col when the evidence is in the input. */
export interface Finding {
  rule: string;
  severity: Severity;
  workload: string;
  container: string | null;
  message: string;
  location: string;
  fix: string;
}

/** The structured evidence behind a finding's location (file, line, col, and the workload path). */
export const evidenceOf = new WeakMap<Finding, Evidence>();

/** Where the workload a finding is about is in the input (file:line:col, else its id): what a cause lists it by. */
export const workloadLocationOf = new WeakMap<Finding, string>();

/** Where a piece of evidence is: a position in an input file, else a path inside a workload. */
export interface Evidence {
  file?: string;
  line?: number;
  col?: number;
  /** Always set: `Kind/ns/name:spec.template.spec.containers[istio-proxy].lifecycle` or a values path. */
  path: string;
  /** Written with a flag, in no file (`--set global.proxy.lifecycle...`): the finding's location. */
  flag?: string;
}

export type JsonObject = { [k: string]: unknown };

export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Own property only: input comes from users and must never reach a prototype. */
export function get(o: unknown, key: string): unknown {
  return isObject(o) && Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

export function getIn(o: unknown, path: readonly (string | number)[]): unknown {
  let cur: unknown = o;
  for (const seg of path) {
    if (typeof seg === 'number') cur = Array.isArray(cur) ? cur[seg] : undefined;
    else cur = get(cur, seg);
    if (cur === undefined) return undefined;
  }
  return cur;
}

/**
 * A flat copy of a string that is kept long: a string cut from a parsed workload, or built from such
 * pieces, keeps the whole text it was cut from alive (the JSON round trip copies it exactly, lone
 * surrogates included).
 */
export function detached(s: string): string {
  return s.length < 2 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

export function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function asString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function asStringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!isObject(v)) return out;
  for (const k of Object.keys(v)) {
    const x = v[k];
    if (typeof x === 'string') out[k] = x;
    else if (typeof x === 'number' || typeof x === 'boolean') out[k] = String(x);
  }
  return out;
}

/** A Kubernetes truthy flag as Istio reads it from values (bool or the string "true"). */
export function isTrue(v: unknown): boolean {
  return v === true || v === 'true';
}

export type PathSeg = string | number;

/** Something that can turn a path inside its document into an input position. */
export interface Locator {
  readonly file: string;
  /** Position of the node at path (or of its nearest existing ancestor). */
  pos(path: readonly PathSeg[]): { line: number; col: number } | undefined;
}

export { kubeAtLeast, parseKubeVersion, type KubeVersion } from '../k8s/version.js';

/** Evidence whose position is looked up only when someone reads it (most evidence is never shown). */
export function lazyEvidence(f: () => Evidence): Evidence {
  let v: Evidence | undefined;
  const get = (): Evidence => (v ??= f());
  return {
    get file() {
      return get().file;
    },
    get line() {
      return get().line;
    },
    get col() {
      return get().col;
    },
    get path() {
      return get().path;
    },
    get flag() {
      return get().flag;
    },
  };
}
