// Workloads as users feed them (files or stdin; multi-document YAML; `kind: List`), reduced to the pod
// each would create plus what istiod learns about its owner.
//
// Public API
//   Workload               { kind, apiVersion, name, namespace, ownerMeta, pod, where, index }
//   workloadsFromText(text, file, opts?)   every workload in the text; other kinds are skipped (ConfigMaps,
//                                          Services...) or, with opts.strict, an error; unknown kinds that
//                                          carry a pod template are accepted like istioctl's reflection path
//   workloadFromObject(obj, doc, at?)      one object → Workload | undefined (not a workload)
//   WORKLOAD_KINDS
//   workloadLabel(w)       "Deployment default/web" for messages

import { loadYamlDocuments, type LoadedDocument } from '../yaml/load.js';

export const WORKLOAD_KINDS = ['Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Job', 'CronJob', 'DeploymentConfig'] as const;

export interface Workload {
  kind: string;
  apiVersion: string;
  /** The workload's own name (metadata.name) and namespace ('' when unset). */
  name: string;
  namespace: string;
  /** The workload's metadata (for Pods, the pod's). */
  ownerMeta: Record<string, unknown>;
  /** The pod as JSON: {metadata, spec} from the pod template (or the Pod itself). */
  pod: Record<string, unknown>;
  /** Where the object came from ("file:line:col"), and positions within it. */
  where: string;
  doc: LoadedDocument;
  /** The JSON path of the pod template inside the object (['spec','template'] ...), [] for a Pod. */
  templatePath: (string | number)[];
  /** Position of the object among the inputs. */
  index: number;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function workloadLabel(w: Pick<Workload, 'kind' | 'namespace' | 'name'>): string {
  return `${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name || '<unnamed>'}`;
}

const NOT_WORKLOADS = new Set([
  'ConfigMap', 'Secret', 'Service', 'ServiceAccount', 'Namespace', 'Ingress', 'Role', 'RoleBinding', 'ClusterRole',
  'ClusterRoleBinding', 'PersistentVolumeClaim', 'PersistentVolume', 'HorizontalPodAutoscaler', 'PodDisruptionBudget',
  'NetworkPolicy', 'CustomResourceDefinition', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration',
  'Endpoints', 'EndpointSlice', 'LimitRange', 'ResourceQuota', 'StorageClass', 'PriorityClass', 'IstioOperator',
  'Gateway', 'VirtualService', 'DestinationRule', 'ServiceEntry', 'Sidecar', 'PeerAuthentication',
  'AuthorizationPolicy', 'EnvoyFilter', 'Telemetry', 'WorkloadEntry', 'WorkloadGroup', 'ProxyConfig',
  'RequestAuthentication', 'WasmPlugin', 'HTTPRoute', 'GRPCRoute', 'TCPRoute', 'TLSRoute', 'GatewayClass',
]);

export interface WorkloadOptions {
  /** Treat a non-workload object as an error instead of skipping it. */
  strict?: boolean;
}

/** One object → its workload, or undefined when it is not a workload (and not an error). */
export function workloadFromObject(obj: unknown, doc: LoadedDocument, at: (string | number)[] = [], index = 0, opts: WorkloadOptions = {}): Workload | undefined {
  const where = doc.where(at, { key: true });
  if (!isObj(obj)) throw doc.errorAt(at, `expected a Kubernetes object, got ${Array.isArray(obj) ? 'a list' : typeof obj}`, { key: true });
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  if (!kind) throw doc.errorAt(at, 'object has no kind', { key: true });
  const meta = isObj(obj.metadata) ? obj.metadata : {};
  const name = typeof meta.name === 'string' ? meta.name : '';
  const namespace = typeof meta.namespace === 'string' ? meta.namespace : '';
  const spec = isObj(obj.spec) ? obj.spec : undefined;
  let templatePath: (string | number)[];
  let tmpl: unknown;
  if (kind === 'Pod') {
    templatePath = [];
    tmpl = { metadata: obj.metadata ?? {}, spec: obj.spec ?? {} };
  } else if (kind === 'CronJob') {
    const jt = isObj(spec?.jobTemplate) ? spec!.jobTemplate : undefined;
    const js = isObj(jt?.spec) ? (jt!.spec as Record<string, unknown>) : undefined;
    tmpl = js?.template;
    templatePath = ['spec', 'jobTemplate', 'spec', 'template'];
  } else if (spec && 'template' in spec) {
    tmpl = spec.template;
    templatePath = ['spec', 'template'];
  } else if ((WORKLOAD_KINDS as readonly string[]).includes(kind)) {
    tmpl = undefined;
    templatePath = ['spec', 'template'];
  } else {
    if (NOT_WORKLOADS.has(kind) && !opts.strict) return undefined;
    if (!opts.strict) return undefined;
    throw doc.errorAt(at, `${kind} ${name || '<unnamed>'} has no pod template (spec.template); supported kinds: ${WORKLOAD_KINDS.join(', ')}`, { key: true });
  }
  if (!isObj(tmpl)) {
    // istioctl: "spec.template is required value"
    throw doc.errorAt(at, `${kind} ${name || '<unnamed>'}: spec.template is required value`, { key: true });
  }
  const pod: Record<string, unknown> = { metadata: isObj(tmpl.metadata) ? tmpl.metadata : {}, spec: isObj(tmpl.spec) ? tmpl.spec : {} };
  return { kind, apiVersion, name, namespace, ownerMeta: meta, pod, where, doc: doc.sub(at), templatePath, index };
}

/** All workloads in a YAML/JSON text (documents, Lists). Non-workload objects are skipped. */
export function workloadsFromText(text: string, file: string, opts: WorkloadOptions = {}): Workload[] {
  const docs = loadYamlDocuments(text, file);
  const out: Workload[] = [];
  let index = 0;
  const visit = (v: unknown, doc: LoadedDocument, at: (string | number)[]): void => {
    if (isObj(v) && typeof v.kind === 'string' && /List$/.test(v.kind) && Array.isArray(v.items)) {
      v.items.forEach((it, i) => visit(it, doc, [...at, 'items', i]));
      return;
    }
    const w = workloadFromObject(v, doc, at, index++, opts);
    if (w) out.push(w);
  };
  for (const d of docs) visit(d.value, d, []);
  return out;
}
