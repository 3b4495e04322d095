// Workloads in the input: anything that carries a pod template, with where its pod spec sits.

import type { InputObject } from './input.js';
import { get, getIn, isObject, asArray, asString, asStringMap, type JsonObject, type PathSeg } from './types.js';

import { PROXY_CONTAINER as PROXY } from '../istio/merge.js';

export { PROXY };

export interface Workload {
  kind: string;
  name: string;
  namespace: string;
  /** `Kind/namespace/name` (or `Kind/name` without a namespace). */
  id: string;
  object: InputObject;
  /** Path of the pod (or pod template: metadata + spec) inside the document. */
  podPath: PathSeg[];
  annotations: Record<string, string>;
  labels: Record<string, string>;
  /** The pod spec as written in the input. */
  spec: JsonObject;
  /** Jobs and CronJobs run to completion; so do bare pods with restartPolicy Never/OnFailure. */
  runsToCompletion: boolean;
}

const TEMPLATE_PATHS: Record<string, PathSeg[]> = {
  Pod: [],
  PodTemplate: ['template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
};

export function workloadId(kind: string, namespace: string, name: string): string {
  return namespace ? `${kind}/${namespace}/${name}` : `${kind}/${name}`;
}

/** The workload this object defines, if it carries a pod spec with containers. */
export function toWorkload(obj: InputObject): Workload | undefined {
  const kind = asString(get(obj.value, 'kind'));
  if (!kind) return undefined;
  const rel = TEMPLATE_PATHS[kind] ?? ['spec', 'template'];
  const pod = rel.length ? getIn(obj.value, rel) : obj.value;
  if (!isObject(pod)) return undefined;
  const spec = get(pod, 'spec');
  if (!isObject(spec) || !Array.isArray(get(spec, 'containers'))) return undefined;
  const name = asString(getIn(obj.value, ['metadata', 'name'])) ?? asString(getIn(obj.value, ['metadata', 'generateName'])) ?? '';
  const namespace = asString(getIn(obj.value, ['metadata', 'namespace'])) ?? '';
  const meta = get(pod, 'metadata');
  const restartPolicy = asString(get(spec, 'restartPolicy'));
  return {
    kind,
    name,
    namespace,
    id: workloadId(kind, namespace, name),
    object: obj,
    podPath: [...obj.path, ...rel],
    annotations: asStringMap(get(meta, 'annotations')),
    labels: asStringMap(get(meta, 'labels')),
    spec,
    runsToCompletion: kind === 'Job' || kind === 'CronJob' || restartPolicy === 'Never' || restartPolicy === 'OnFailure',
  };
}

/**
 * Already injected: istiod stamps `sidecar.istio.io/status`, and a full proxy has an image and
 * `proxy` args. A bare `istio-proxy` entry without them is a user override awaiting injection.
 */
export function isInjected(w: Workload): boolean {
  if (w.annotations['sidecar.istio.io/status']) return true;
  for (const field of ['containers', 'initContainers'] as const) {
    for (const c of asArray(get(w.spec, field))) {
      if (get(c, 'name') !== PROXY) continue;
      const image = asString(get(c, 'image'));
      const args = asArray(get(c, 'args')).map(String);
      if (image && image !== 'auto' && args.includes('proxy')) return true;
    }
  }
  return false;
}

const IGNORED_NAMESPACES = new Set(['kube-system', 'kube-public', 'kube-node-lease', 'local-path-storage']);

/**
 * Would the injector touch this workload? Opt-outs on the pod, host networking and the namespaces
 * istiod never injects say no; Namespace objects in the same input, when present, say whether the
 * namespace is labelled for injection.
 */
export function wouldInject(w: Workload, namespaces: Map<string, Record<string, string>> | undefined): boolean {
  const opt = w.labels['sidecar.istio.io/inject'] ?? w.annotations['sidecar.istio.io/inject'];
  if (opt === 'false') return false;
  if (get(w.spec, 'hostNetwork') === true) return false;
  if (IGNORED_NAMESPACES.has(w.namespace)) return false;
  if (opt === 'true') return true;
  if (namespaces && w.namespace && namespaces.has(w.namespace)) {
    const labels = namespaces.get(w.namespace)!;
    if (labels['istio-injection'] === 'disabled') return false;
    return labels['istio-injection'] === 'enabled' || !!labels['istio.io/rev'] || !!w.labels['istio.io/rev'];
  }
  return true;
}

/** Objects created by a controller that is itself in the input are judged through their owner. */
export function ownedByPresent(obj: JsonObject, present: Set<string>): boolean {
  const ns = asString(getIn(obj, ['metadata', 'namespace'])) ?? '';
  for (const ref of asArray(getIn(obj, ['metadata', 'ownerReferences']))) {
    if (!isObject(ref) || get(ref, 'controller') === false) continue;
    const kind = asString(get(ref, 'kind'));
    const name = asString(get(ref, 'name'));
    if (!kind || !name) continue;
    if (present.has(workloadId(kind, ns, name))) return true;
    // a Deployment's pods point at a ReplicaSet named <deployment>-<hash>
    if (kind === 'ReplicaSet') {
      const dep = name.replace(/-[a-z0-9]{5,10}$/, '');
      if (dep !== name && present.has(workloadId('Deployment', ns, dep))) return true;
    }
    if (kind === 'Job') {
      const cj = name.replace(/-\d{6,}$/, '');
      if (cj !== name && present.has(workloadId('CronJob', ns, cj))) return true;
    }
  }
  return false;
}
