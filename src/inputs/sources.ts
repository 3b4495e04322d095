// Istio's configuration objects found in whatever file holds them: the `istio-sidecar-injector[-REV]`
// ConfigMap (data.config, data.values), the `istio[-REV]` mesh ConfigMap (data.mesh) and IstioOperators,
// in a single document, several, a `kind: List`, or `helm template` output. Each is known by its kind
// and name, and belongs to the revision its name's suffix (or an IstioOperator's spec.revision) says.
//
// Upstream: none (how kubectl exports and helm template output hold istiod's ConfigMaps)

import type { LoadedDocument } from '../yaml/load.js';
import { InputError } from '../yaml/load.js';
import { isObject, type Json, type JsonObject } from '../go/encoding/json/value.js';

/** One Kubernetes object of a file (List items unwrapped), as a document of its own. */
export interface FileObject {
  value: JsonObject;
  /** The object itself (a List item is `sub(['items', i])` of its List): positions are the file's. */
  doc: LoadedDocument;
}

export type ConfigKind = 'injector' | 'mesh' | 'operator';

export interface ConfigObject extends FileObject {
  kind: ConfigKind;
  name: string;
  namespace: string;
  /** The revision it belongs to ('' for the default revision). */
  revision: string;
  /** Its name is not the one Istio gives its kind (`istio-sidecar-injector[-REV]`, `istio[-REV]`). */
  unusualName: boolean;
  /** `ConfigMap istio-system/istio`, for messages. */
  label: string;
  /** `FILE:LINE:COL` of the object. */
  where: string;
}

const INJECTOR = 'istio-sidecar-injector';
const MESH = 'istio';

/** The objects of a file's documents: List items and the elements of a JSON array one by one. */
export function objectsOf(docs: readonly LoadedDocument[]): FileObject[] {
  const out: FileObject[] = [];
  const add = (doc: LoadedDocument, value: Json): void => {
    if (!isObject(value)) return;
    const kind = value.kind;
    if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(value.items)) {
      value.items.forEach((item, i) => add(doc.sub(['items', i]), item));
      return;
    }
    out.push({ value, doc });
  };
  for (const d of docs) {
    const v = d.value as Json;
    if (Array.isArray(v)) v.forEach((item, i) => add(d.sub([i]), item));
    else add(d, v);
  }
  return out;
}

function str(v: Json | undefined): string {
  return typeof v === 'string' ? v : '';
}

function meta(v: JsonObject): { name: string; namespace: string } {
  const m = isObject(v.metadata ?? null) ? (v.metadata as JsonObject) : {};
  return { name: str(m.name), namespace: str(m.namespace) };
}

function dataString(v: JsonObject, key: string): boolean {
  return isObject(v.data ?? null) && typeof (v.data as JsonObject)[key] === 'string';
}

/** Which of Istio's configuration objects v is, if any. */
export function configKind(v: JsonObject): ConfigKind | undefined {
  if (v.kind === 'IstioOperator') return 'operator';
  if (v.kind !== 'ConfigMap') return undefined;
  const { name } = meta(v);
  const injectorName = name === INJECTOR || name.startsWith(`${INJECTOR}-`);
  if (dataString(v, 'config') || (injectorName && dataString(v, 'values'))) return 'injector';
  if (dataString(v, 'mesh') && !injectorName) return 'mesh';
  return undefined;
}

function revisionOf(name: string, base: string): string | undefined {
  if (name === base) return '';
  return name.startsWith(`${base}-`) ? name.slice(base.length + 1) : undefined;
}

/** The object as one of Istio's configuration objects, or undefined when it is none. */
export function asConfigObject(o: FileObject): ConfigObject | undefined {
  const kind = configKind(o.value);
  if (!kind) return undefined;
  const { name, namespace } = meta(o.value);
  let revision: string | undefined;
  if (kind === 'operator') {
    const spec = isObject(o.value.spec ?? null) ? (o.value.spec as JsonObject) : {};
    revision = str(spec.revision);
  } else revision = revisionOf(name, kind === 'injector' ? INJECTOR : MESH);
  const label = `${String(o.value.kind)} ${namespace ? `${namespace}/` : ''}${name || '(no name)'}`;
  return { ...o, kind, name, namespace, revision: revision ?? '', unusualName: revision === undefined, label, where: o.doc.where([]) };
}

const ARTICLE = (w: string): string => (/^[AEIOU]/.test(w) ? 'an' : 'a');

/** What an object is, in a few words: `a Deployment`, `the istio mesh ConfigMap`, `a ConfigMap named foo`. */
export function describeObject(v: Json): string {
  if (!isObject(v)) return Array.isArray(v) ? 'a sequence' : v === null ? 'an empty document' : `a ${typeof v}`;
  const kind = configKind(v);
  if (kind === 'injector') return `the ${INJECTOR} ConfigMap`;
  if (kind === 'mesh') return 'the istio mesh ConfigMap';
  if (kind === 'operator') return 'an IstioOperator';
  if (typeof v.kind !== 'string' || v.kind === '') return 'a mapping without kind';
  const { name } = meta(v);
  if (v.kind === 'ConfigMap') return `a ConfigMap${name ? ` named ${name}` : ''}`;
  return `${ARTICLE(v.kind)} ${v.kind}`;
}

/** What a file holds, for an error: `a Deployment`, `a Deployment and 2 more documents`. */
export function describeObjects(objs: readonly FileObject[]): string {
  if (objs.length === 0) return 'no Kubernetes object';
  const first = describeObject(objs[0]!.value);
  return objs.length === 1 ? first : `${first} and ${objs.length - 1} more object${objs.length > 2 ? 's' : ''}`;
}

/** Two found objects of a kind are one source when they say the same. */
function sameContent(a: ConfigObject, b: ConfigObject): boolean {
  const part = (o: ConfigObject): unknown => (o.kind === 'operator' ? o.value.spec : o.value.data);
  return JSON.stringify(part(a)) === JSON.stringify(part(b));
}

export interface Picked {
  chosen: ConfigObject;
  /** The revision the object belongs to, where it decides one nothing else gave. */
  revision?: string;
  warnings: string[];
}

/**
 * The object of `kind` for the revision among `found` (in the order they were found): the `-REV` one
 * for a revision, else the unsuffixed one, else the only one there is (whose suffix is then the
 * revision). Objects that say the same count once; two that differ for one revision are an error
 * naming both. `what` names the source in messages (`--injector-configmap cm.yaml`).
 */
export function pickConfig(found: readonly ConfigObject[], kind: ConfigKind, revision: string | undefined, what: string): Picked | undefined {
  const all: ConfigObject[] = [];
  for (const o of found) if (o.kind === kind && !all.some((x) => sameContent(x, o))) all.push(o);
  if (all.length === 0) return undefined;
  const warnings: string[] = [];
  const exact = revision === undefined ? all.filter((o) => o.revision === '' && !o.unusualName) : all.filter((o) => o.revision === revision && !o.unusualName);
  let pool = exact.length > 0 ? exact : all;
  if (pool.length > 1 && exact.length === 0 && revision === undefined) {
    const revs = [...new Set(pool.map((o) => o.revision || '(default)'))];
    if (revs.length > 1) throw new InputError(`${what}: ${pool.map((o) => `${o.label} (${o.where})`).join(' and ')} belong to revisions ${revs.join(', ')}; give --revision`);
  }
  if (pool.length > 1) {
    const [a, b] = pool;
    throw new InputError(`${what}: ${a!.label} (${a!.where}) and ${b!.label} (${b!.where}) differ; give the one to use with its own flag`);
  }
  const chosen = pool[0]!;
  if (chosen.unusualName) {
    const expected = kind === 'injector' ? INJECTOR : kind === 'mesh' ? MESH : '';
    if (expected) warnings.push(`${chosen.where}: warning: ${chosen.label} is not named ${expected}${revision ? `-${revision}` : ''}; taken as the ${kind === 'injector' ? 'injector' : 'mesh'} config`);
  } else if (revision !== undefined && chosen.revision !== revision) {
    warnings.push(`${chosen.where}: warning: --revision ${revision || '""'}, but ${chosen.label} belongs to ${chosen.revision ? `revision ${chosen.revision}` : 'the default revision'}; taken as the ${kind === 'injector' ? 'injector' : kind === 'mesh' ? 'mesh' : 'IstioOperator'} config`);
  }
  return { chosen, ...(revision === undefined && chosen.revision !== '' ? { revision: chosen.revision } : {}), warnings };
}
