// What `helm template` prints from the rendered templates (pkg/releaseutil manifest_sorter.go and
// kind_sorter.go, pkg/action install.go renderResources, cmd/helm/template.go): NOTES.txt dropped,
// each file split into documents, hooks (helm.sh/hook) apart, manifests stably sorted by kind in
// install order (a file's documents keep their order, files are taken by name), each printed as
// "---\n# Source: FILE\nDOC\n"; then hooks; --show-only picks documents by file pattern.
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/releaseutil/{manifest,manifest_sorter,kind_sorter}.go, pkg/action/action.go
//          (renderResources), cmd/helm/template.go
// Proven by: test/helm/chart.test.ts

import { isMap, type GoMap, type GoValue } from '../go/reflect/value.js';
import { yamlToGoTargeted } from '../yaml/decode.js';
import { fastParse } from '../yaml/fastload.js';
import { GoYamlError } from '../yaml/emit.js';
import { InputError } from '../yaml/load.js';
import { filepathMatch } from './match.js';
import { kindName } from '../go/encoding/json/json.js';

/** releaseutil.InstallOrder. */
export const INSTALL_ORDER: readonly string[] = [
  'PriorityClass',
  'Namespace',
  'NetworkPolicy',
  'ResourceQuota',
  'LimitRange',
  'PodSecurityPolicy',
  'PodDisruptionBudget',
  'ServiceAccount',
  'Secret',
  'SecretList',
  'ConfigMap',
  'StorageClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleList',
  'ClusterRoleBinding',
  'ClusterRoleBindingList',
  'Role',
  'RoleList',
  'RoleBinding',
  'RoleBindingList',
  'Service',
  'DaemonSet',
  'Pod',
  'ReplicationController',
  'ReplicaSet',
  'Deployment',
  'HorizontalPodAutoscaler',
  'StatefulSet',
  'Job',
  'CronJob',
  'IngressClass',
  'Ingress',
  'APIService',
];

const HOOK_EVENTS = new Set(['pre-install', 'post-install', 'pre-delete', 'post-delete', 'pre-upgrade', 'post-upgrade', 'pre-rollback', 'post-rollback', 'test', 'test-success']);

export interface Manifest {
  /** The template it came from (CHART/templates/FILE). */
  name: string;
  content: string;
  kind: string;
  /** metadata.name, if any. */
  resourceName: string;
}

export interface Hook extends Manifest {
  events: string[];
  weight: number;
}

/** releaseutil.SplitManifests: documents split at lines starting "---", each trimmed, empty ones dropped. */
export function splitManifests(big: string): string[] {
  const docs = big.trim().split(/(?:^|[\t\n\f\r ]*\n)---[\t\n\f\r ]*/);
  const out: string[] = [];
  for (const d of docs) {
    if (d === '') continue;
    out.push(d.trim());
  }
  return out;
}

interface SimpleHead {
  kind: string;
  name: string;
  annotations: Record<string, string>;
}


/**
 * The head of a manifest read by the fast reader of plain block YAML (yaml/fastload.ts), when the
 * document is within what it reads and every head field has the type SimpleHead wants; undefined
 * otherwise, and the full yaml.v2 reader answers (with its errors). Both give the same values there.
 */
function fastHead(doc: string): SimpleHead | undefined {
  let docs;
  try {
    docs = fastParse(doc);
  } catch {
    return undefined;
  }
  if (docs.length !== 1) return undefined;
  const v = docs[0]!.value;
  const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const str = (x: unknown): boolean => x === undefined || x === null || typeof x === 'string';
  if (!isObj(v) || !str(v.apiVersion) || !str(v.kind)) return undefined;
  const head: SimpleHead = { kind: typeof v.kind === 'string' ? v.kind : '', name: '', annotations: Object.create(null) as Record<string, string> };
  const meta = v.metadata;
  if (meta === undefined || meta === null) return head;
  if (!isObj(meta) || !str(meta.name)) return undefined;
  head.name = typeof meta.name === 'string' ? meta.name : '';
  const ann = meta.annotations;
  if (ann === undefined || ann === null) return head;
  if (!isObj(ann)) return undefined;
  for (const [k, x] of Object.entries(ann)) {
    if (!str(x)) return undefined;
    head.annotations[k] = typeof x === 'string' ? x : '';
  }
  return head;
}

/** Where SimpleHead has a string: apiVersion, kind, metadata.name and each metadata.annotations value. */
function headString(path: readonly string[]): boolean {
  if (path.length === 1) return path[0] === 'apiVersion' || path[0] === 'kind';
  return path[0] === 'metadata' && ((path.length === 2 && path[1] === 'name') || (path.length === 3 && path[1] === 'annotations'));
}

/** yaml.Unmarshal into releaseutil.SimpleHead (apiVersion, kind, metadata.name, metadata.annotations). */
function simpleHead(doc: string, file: string): SimpleHead {
  const fast = fastHead(doc);
  if (fast) return fast;
  let v: GoValue;
  try {
    v = yamlToGoTargeted(doc, headString);
  } catch (e) {
    if (e instanceof GoYamlError) throw new InputError(`YAML parse error on ${file}: ${e.message}`);
    throw e;
  }
  const head: SimpleHead = { kind: '', name: '', annotations: Object.create(null) as Record<string, string> };
  if (v === null) return head;
  const bad = (what: string, field: string, type: string): never => {
    throw new InputError(`YAML parse error on ${file}: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${what} into Go ${field} of type ${type}`);
  };
  if (!isMap(v)) return bad(kindName(v), 'value', 'releaseutil.SimpleHead');
  const m = v as GoMap;
  const get = (o: GoMap, k: string): GoValue => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
  const api = get(m, 'apiVersion');
  if (api !== undefined && api !== null && typeof api !== 'string') bad(kindName(api), 'struct field SimpleHead.apiVersion', 'string');
  const kind = get(m, 'kind');
  if (kind !== undefined && kind !== null && typeof kind !== 'string') bad(kindName(kind), 'struct field SimpleHead.kind', 'string');
  head.kind = typeof kind === 'string' ? kind : '';
  const meta = get(m, 'metadata');
  if (meta !== undefined && meta !== null) {
    if (!isMap(meta)) bad(kindName(meta), 'struct field SimpleHead.metadata', 'struct { Name string "json:\\"name\\""; Annotations map[string]string "json:\\"annotations\\"" }');
    const mm = meta as GoMap;
    const name = get(mm, 'name');
    if (name !== undefined && name !== null && typeof name !== 'string') bad(kindName(name), 'struct field .metadata.name', 'string');
    head.name = typeof name === 'string' ? name : '';
    const ann = get(mm, 'annotations');
    if (ann !== undefined && ann !== null) {
      if (!isMap(ann)) bad(kindName(ann), 'struct field .metadata.annotations', 'map[string]string');
      for (const [k, x] of Object.entries(ann as GoMap)) {
        if (x !== null && typeof x !== 'string') bad(kindName(x), 'struct field .metadata.annotations', 'string');
        head.annotations[k] = typeof x === 'string' ? x : '';
      }
    }
  }
  return head;
}

function byteCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const ORDER = new Map(INSTALL_ORDER.map((k, i) => [k, i]));

/** lessByKind: install order; unknown kinds last, among themselves by kind name; ties keep their order. */
function lessByKind(a: string, b: string): number {
  const first = ORDER.get(a);
  const second = ORDER.get(b);
  if (first === undefined && second === undefined) return a === b ? 0 : a < b ? -1 : 1;
  if (first === undefined) return 1;
  if (second === undefined) return -1;
  return first - second;
}

/** SortManifests: hooks and manifests, each sorted by kind (Array.prototype.sort is stable). */
export function sortManifests(files: Map<string, string>): { hooks: Hook[]; manifests: Manifest[] } {
  const hooks: Hook[] = [];
  const manifests: Manifest[] = [];
  for (const file of [...files.keys()].sort(byteCompare)) {
    const content = files.get(file)!;
    if (file.slice(file.lastIndexOf('/') + 1).startsWith('_')) continue;
    if (content.trim() === '') continue;
    for (const doc of splitManifests(content)) {
      const head = simpleHead(doc, file);
      const m: Manifest = { name: file, content: doc, kind: head.kind, resourceName: head.name };
      const hookTypes = Object.prototype.hasOwnProperty.call(head.annotations, 'helm.sh/hook') ? head.annotations['helm.sh/hook'] : undefined;
      if (hookTypes === undefined) {
        manifests.push(m);
        continue;
      }
      const events = hookTypes.split(',').map((h) => h.trim().toLowerCase());
      // Helm logs and drops a document whose hook it does not know
      if (!events.every((e) => HOOK_EVENTS.has(e))) continue;
      const w = Number.parseInt(head.annotations['helm.sh/hook-weight'] ?? '', 10);
      hooks.push({ ...m, events, weight: /^[+-]?\d+$/.test((head.annotations['helm.sh/hook-weight'] ?? '').trim()) ? w : 0 });
    }
  }
  manifests.sort((a, b) => lessByKind(a.kind, b.kind));
  hooks.sort((a, b) => lessByKind(a.kind, b.kind));
  return { hooks, manifests };
}

export interface CrdFile {
  /** CHART/crds/FILE */
  name: string;
  content: string;
}

/** The text `helm template` prints: CRDs (when included), manifests, then hooks. */
export function templateOutput(sorted: { hooks: Hook[]; manifests: Manifest[] }, crds: CrdFile[] = []): string {
  let b = '';
  for (const c of crds) b += `---\n# Source: ${c.name}\n${c.content}\n`;
  for (const m of sorted.manifests) b += `---\n# Source: ${m.name}\n${m.content}\n`;
  let out = b.trim() + '\n';
  for (const h of sorted.hooks) out += `---\n# Source: ${h.name}\n${h.content}\n`;
  return out;
}

/** --show-only: the documents whose template path (after the chart name) matches each pattern, in turn. */
export function showOnly(output: string, patterns: string[]): string {
  const docs = splitManifests(output);
  let out = '';
  for (const f of patterns) {
    let missing = true;
    for (const doc of docs) {
      const m = /# Source: [^/]+\/(.+)/.exec(doc);
      if (!m) continue;
      if (!filepathMatch(f, m[1]!)) continue;
      out += `---\n${doc}\n`;
      missing = false;
    }
    if (missing) throw new InputError(`could not find template ${f} in chart`);
  }
  return out;
}
