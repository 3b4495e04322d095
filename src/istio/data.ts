// The data istiod hands to injection templates (inject.SidecarTemplateData), per Istio release.
//
// Public API
//   buildTemplateData(opts: TemplateDataInput): TemplateData
//     opts: { version, workload | pod, mesh (loaded ProtoStruct or the MeshConfig YAML object), values
//             (Go map or plain JSON object), revision?, namespace?, nativeSidecars?, compliancePolicy?,
//             namespaceObject?, mode?: 'webhook' | 'kube-inject', kubeDefaults? }
//     returns the *inject.SidecarTemplateData Go value to execute templates on; `.info` has the parts:
//             { proxyConfig, meshConfig, pod (v1.Pod view), podJSON, deployMeta, namespace,
//               estimatedConcurrency?, proxyImage?, proxyInitImage?, proxyUID, proxyGID }
//   TemplateDataOptions = TemplateDataInput
//   proxyConfigJSON(version, msg)         the template function protoToJSON of that release (jsonpb, cleaned ≥ 1.6)
//   templateDataType(version)            the SidecarTemplateData Go type of a release
//   deployMetaFromPod(podJSON)            kube.GetDeployMetaFromPod's heuristics → { name, namespace, kind, apiVersion }
//   ownerOfWorkload(workload)             what istiod learns about a controller-created pod's owner
//   proxyImage(values, imageType, annotations, which?)  inject.ProxyImage
//   proxyIDs(namespaceObject?)           inject.GetProxyIDs (1337, or OpenShift's ranges)
//   estimateConcurrency(proxyConfig, annotations, values)
//   inboundTrafficPolicyMode(mesh)
//   PROXY_CONFIG_ANNOTATION
//
// Every release has TypeMeta, DeploymentMeta, ObjectMeta, Spec, ProxyConfig, MeshConfig and Values; what
// else the Go struct has, and which of those are pointers, is the 'data.*' entries of releases.ts. The
// fields are in the Go struct's order (tools/istio-source/check.mjs compares them at every tag).
//
// Mirrors: istio.io/istio pkg/kube/inject/inject.go (SidecarTemplateData, RunTemplate, ProxyImage,
//          GetProxyIDs), pkg/kube/util.go (GetDeployMetaFromPod)
// Proven by: test/parity/own.test.ts, test/istio/data.test.ts

import {
  GoNil,
  GoNum,
  GoStruct,
  MAP_STRING_IFACE,
  RecordStruct,
  T,
  intValue,
  mapGet,
  ptrTo,
  type GoMap,
  type GoType,
  type GoValue,
} from '../go/reflect/value.js';
import { decodeGo, field, GoJsonError, JsonStruct, plainToGo, structType } from '../go/encoding/json/structs.js';
import { Pod, PodSpec } from '../k8s/core.js';
import { NamespacedName, ObjectMeta, TypeMeta } from '../k8s/meta.js';
import { parseQuantity } from '../k8s/resource.js';
import { applyKubeDefaults } from '../k8s/defaults.js';
import { applyProxyConfig, protoToJSONForTemplate } from './proxyconfig.js';
import { applyMeshConfig, meshModel } from './mesh.js';
import { ProtoParseError, ProtoStruct } from './proto.js';
import { formatIstioVersion, type IstioVersion } from './version.js';
import { has } from './releases.js';
import { workloadLabel, type Workload } from './workload.js';
import { InputError, loadYamlDocuments } from '../yaml/load.js';

export const PROXY_CONFIG_ANNOTATION = 'proxy.istio.io/config';
const STATUS_ANNOTATION = 'sidecar.istio.io/status';

// ---------- the struct type per release ----------

const typeCache = new Map<string, GoType>();

export function templateDataType(v: IstioVersion): GoType {
  const key = formatIstioVersion(v);
  const hit = typeCache.get(key);
  if (hit) return hit;
  // pointers to 1.8 (ObjectMeta, Spec) and 1.10 (TypeMeta, DeploymentMeta), values later
  const objPtr = (t: GoType): GoType => (has(v, 'data.pointerObjectMeta') ? ptrTo(t) : t);
  const typePtr = (t: GoType): GoType => (has(v, 'data.pointerTypeMeta') ? ptrTo(t) : t);
  const mm = meshModel(v);
  const pcType = ptrTo(mm.MeshConfig.fields.find((f) => f.go === 'DefaultConfig')!.type === undefined ? T.iface : (mm.MeshConfig.fields.find((f) => f.go === 'DefaultConfig')!.type as { goType: GoType }).goType);
  // in the order of the Go struct
  const fields = [
    field('TypeMeta', 'TypeMeta', typePtr(TypeMeta)),
    field('DeploymentMeta', 'DeploymentMeta', has(v, 'data.DeploymentMeta.namespacedName') ? NamespacedName : typePtr(ObjectMeta)),
    field('ObjectMeta', 'ObjectMeta', objPtr(ObjectMeta)),
    field('Spec', 'Spec', objPtr(PodSpec)),
    field('ProxyConfig', 'ProxyConfig', pcType),
    field('MeshConfig', 'MeshConfig', ptrTo(mm.MeshConfig.goType)),
    field('Values', 'Values', MAP_STRING_IFACE),
  ];
  if (has(v, 'data.Revision')) fields.push(field('Revision', 'Revision', T.string));
  if (has(v, 'data.NativeSidecars')) fields.push(field('NativeSidecars', 'NativeSidecars', T.bool));
  if (has(v, 'data.EstimatedConcurrency')) fields.push(field('EstimatedConcurrency', 'EstimatedConcurrency', T.int));
  if (has(v, 'data.ProxyImage')) fields.push(field('ProxyImage', 'ProxyImage', T.string));
  if (has(v, 'data.ProxyInitImage')) fields.push(field('ProxyInitImage', 'ProxyInitImage', T.string));
  if (has(v, 'data.ProxyUID')) fields.push(field('ProxyUID', 'ProxyUID', T.int64));
  if (has(v, 'data.ProxyGID')) fields.push(field('ProxyGID', 'ProxyGID', T.int64));
  if (has(v, 'data.InboundTrafficPolicyMode')) fields.push(field('InboundTrafficPolicyMode', 'InboundTrafficPolicyMode', T.string));
  if (has(v, 'data.CompliancePolicy')) fields.push(field('CompliancePolicy', 'CompliancePolicy', T.string));
  const t = structType('inject.SidecarTemplateData', fields);
  typeCache.set(key, t);
  return t;
}

// ---------- owner heuristics ----------

export interface DeployMeta {
  name: string;
  namespace: string;
  kind: string;
  apiVersion: string;
}

const CRONJOB_NAME = /^(.+)-\d{8,10}$/;

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function strOf(o: Record<string, unknown> | undefined, k: string): string {
  const v = o?.[k];
  return typeof v === 'string' ? v : '';
}

/** kube.GetDeployMetaFromPod: the pod's name unless it was generated by a controller it names. */
export function deployMetaFromPod(pod: Record<string, unknown>): DeployMeta {
  const meta = isObj(pod.metadata) ? pod.metadata : {};
  const labels = isObj(meta.labels) ? (meta.labels as Record<string, unknown>) : {};
  const out: DeployMeta = { name: strOf(meta, 'name'), namespace: strOf(meta, 'namespace'), kind: 'Pod', apiVersion: 'v1' };
  if (strOf(meta, 'generateName') !== '') {
    const refs = Array.isArray(meta.ownerReferences) ? meta.ownerReferences : [];
    const ctl = refs.find((r) => isObj(r) && r.controller === true) as Record<string, unknown> | undefined;
    if (ctl) {
      out.apiVersion = strOf(ctl, 'apiVersion');
      out.kind = strOf(ctl, 'kind');
      out.name = strOf(ctl, 'name');
      const hash = strOf(labels, 'pod-template-hash');
      const rhash = strOf(labels, 'rollouts-pod-template-hash');
      if (out.kind === 'ReplicaSet' && hash !== '' && out.name.endsWith(hash)) {
        out.name = trimSuffix(out.name, '-' + hash);
        out.kind = 'Deployment';
      } else if (out.kind === 'ReplicaSet' && rhash !== '' && out.name.endsWith(rhash)) {
        out.name = trimSuffix(out.name, '-' + rhash);
        out.kind = 'Rollout';
        out.apiVersion = 'v1alpha1';
      } else if (out.kind === 'ReplicationController' && strOf(labels, 'deploymentconfig') !== '') {
        out.name = strOf(labels, 'deploymentconfig');
        out.kind = 'DeploymentConfig';
      } else if (out.kind === 'Job') {
        const m = CRONJOB_NAME.exec(out.name);
        if (m) {
          out.name = m[1]!;
          out.kind = 'CronJob';
          out.apiVersion = 'batch/v1';
        }
      }
    }
  }
  if (out.name === '') out.name = strOf(meta, 'name');
  return out;
}

function trimSuffix(s: string, suffix: string): string {
  return s.endsWith(suffix) ? s.slice(0, s.length - suffix.length) : s;
}

/** What istiod's heuristics conclude for a pod created by this workload's controller. */
export function ownerOfWorkload(w: Workload, namespace: string): DeployMeta {
  switch (w.kind) {
    case 'Pod':
      return { ...deployMetaFromPod(w.pod), namespace };
    case 'Deployment':
      return { name: w.name, namespace, kind: 'Deployment', apiVersion: 'apps/v1' };
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
      return { name: w.name, namespace, kind: w.kind, apiVersion: 'apps/v1' };
    case 'Job': {
      const m = CRONJOB_NAME.exec(w.name);
      if (m) return { name: m[1]!, namespace, kind: 'CronJob', apiVersion: 'batch/v1' };
      return { name: w.name, namespace, kind: 'Job', apiVersion: 'batch/v1' };
    }
    case 'CronJob':
      return { name: w.name, namespace, kind: 'CronJob', apiVersion: 'batch/v1' };
    case 'ReplicationController':
      return { name: w.name, namespace, kind: 'ReplicationController', apiVersion: 'v1' };
    case 'DeploymentConfig':
      return { name: w.name, namespace, kind: 'DeploymentConfig', apiVersion: 'v1' };
    default:
      return { name: w.name, namespace, kind: w.kind, apiVersion: w.apiVersion };
  }
}

// ---------- values helpers ----------

function path(values: GoMap, ...keys: string[]): GoValue {
  let cur: GoValue = values;
  for (const k of keys) {
    if (!cur || typeof cur !== 'object' || Array.isArray(cur) || cur instanceof GoStruct || cur instanceof GoNum || cur instanceof GoNil) return undefined;
    cur = mapGet(cur as GoMap, k);
  }
  return cur;
}

function goPrintV(v: GoValue): string {
  // fmt "%v" of a structpb value's AsInterface(): strings as is, float64 as Go prints it
  if (typeof v === 'string') return v;
  if (typeof v === 'number') {
    if (Number.isInteger(v) && Math.abs(v) < 1e21) return String(v);
    const s = String(v);
    return s.replace(/e([+-])(\d)$/, 'e$10$2');
  }
  if (typeof v === 'boolean') return String(v);
  return '';
}

const KNOWN_IMAGE_TYPES = ['distroless', 'debug'];

function updateImageType(tag: string, imageType: string): string {
  if (imageType === '') return tag;
  for (const t of KNOWN_IMAGE_TYPES) {
    if (tag.endsWith('-' + t)) {
      tag = tag.slice(0, tag.length - t.length - 1);
      break;
    }
  }
  if (imageType === 'default') return tag;
  return `${tag}-${imageType}`;
}

/** inject.ProxyImage: hub/image:tag[-type] from values, the ProxyConfig image type and the
 *  `sidecar.istio.io/proxyImageType` annotation. which='proxy_init' gives the init image (ProxyInitImage). */
export function proxyImage(values: GoMap, imageType: string, annotations: Record<string, string>, which: 'proxy' | 'proxy_init' = 'proxy'): string {
  const hub = goPrintV(path(values, 'global', 'hub'));
  const tagV = path(values, 'global', 'tag');
  const tag = tagV === undefined || tagV === null ? '' : goPrintV(tagV);
  let image = 'proxyv2';
  const configured = path(values, 'global', which, 'image');
  if (typeof configured === 'string' && configured !== '') image = configured;
  let it = imageType;
  if (it === '') {
    const variant = path(values, 'global', 'variant');
    if (typeof variant === 'string') it = variant;
  }
  if (Object.prototype.hasOwnProperty.call(annotations, 'sidecar.istio.io/proxyImageType')) it = annotations['sidecar.istio.io/proxyImageType']!;
  return `${hub}/${image}:${updateImageType(tag, it)}`;
}

/** inject.GetProxyIDs: 1337/1337, or on OpenShift the namespace's allocated uid range max and first group max. */
export function proxyIDs(namespaceObject?: Record<string, unknown>): { uid: bigint; gid: bigint } {
  let uid = 1337n;
  let gid = 1337n;
  const ann = isObj(namespaceObject?.metadata) && isObj((namespaceObject!.metadata as Record<string, unknown>).annotations)
    ? ((namespaceObject!.metadata as Record<string, unknown>).annotations as Record<string, unknown>)
    : undefined;
  const range = (s: unknown): bigint | undefined => {
    if (typeof s !== 'string') return undefined;
    const m = /^(\d+)(?:\/(\d+)|-(\d+))$/.exec(s.split(',')[0]!.trim());
    if (!m) return undefined;
    const start = BigInt(m[1]!);
    if (m[2] !== undefined) return start + BigInt(m[2]) - 1n;
    return BigInt(m[3]!);
  };
  const u = range(ann?.['openshift.io/sa.scc.uid-range']);
  if (u !== undefined) uid = u;
  const g = range(ann?.['openshift.io/sa.scc.supplemental-groups']);
  if (g !== undefined) gid = g;
  return { uid, gid };
}

function cpuCores(q: string): number | undefined {
  const p = parseQuantity(q);
  if (!p) return undefined;
  // MilliValue rounds up; then ceil(milli/1000)
  const milli = p.nanos >= 0n ? (p.nanos + 999_999n) / 1_000_000n : p.nanos / 1_000_000n;
  return Math.ceil(Number(milli) / 1000);
}

/** inject.estimateConcurrency (1.12–1.19): a positive ProxyConfig.Concurrency as it is; an explicit 0 means
 *  "from the CPU": the proxyCPULimit annotation, else (only when that annotation is absent) proxyCPU, else
 *  (only when neither is there) the values' proxy resources, limits before requests; everything else,
 *  an unset Concurrency included, is 2. */
export function estimateConcurrency(pc: ProtoStruct, annotations: Record<string, string>, values: GoMap): bigint {
  const c = pc.values.get('Concurrency');
  if (!(c instanceof GoStruct)) return 2n;
  const set = intValue(c.field('Value')) ?? 0n;
  if (set > 0n) return set;
  const has = (a: string): boolean => Object.prototype.hasOwnProperty.call(annotations, a);
  if (has('sidecar.istio.io/proxyCPULimit')) {
    const n = cpuCores(annotations['sidecar.istio.io/proxyCPULimit']!);
    if (n !== undefined) return BigInt(n);
  } else if (has('sidecar.istio.io/proxyCPU')) {
    const n = cpuCores(annotations['sidecar.istio.io/proxyCPU']!);
    if (n !== undefined) return BigInt(n);
  } else {
    for (const kind of ['limits', 'requests']) {
      const q = path(values, 'global', 'proxy', 'resources', kind, 'cpu');
      // the values' resources decode into map[string]string: a quantity written as a number is still read
      if (typeof q === 'string' || typeof q === 'number') {
        const n = cpuCores(String(q));
        if (n !== undefined) return BigInt(n);
      }
    }
  }
  return 2n;
}

export function inboundTrafficPolicyMode(mesh: ProtoStruct): string {
  const itp = mesh.values.get('InboundTrafficPolicy');
  if (itp instanceof GoStruct) {
    const mode = intValue(itp.field('Mode'));
    if (mode === 1n) return 'localhost';
  }
  return 'passthrough';
}

// ---------- the pod istiod sees ----------

/** stripPod: a re-injected pod loses the containers its status annotation lists, and the annotation. */
function stripPod(pod: Record<string, unknown>): Record<string, unknown> {
  const meta = isObj(pod.metadata) ? pod.metadata : {};
  const ann = isObj(meta.annotations) ? (meta.annotations as Record<string, unknown>) : undefined;
  const status = ann?.[STATUS_ANNOTATION];
  if (typeof status !== 'string') return pod;
  let st: Record<string, unknown>;
  try {
    st = JSON.parse(status) as Record<string, unknown>;
  } catch {
    return pod;
  }
  const spec = isObj(pod.spec) ? { ...pod.spec } : {};
  const drop = (list: unknown, names: unknown): unknown => {
    if (!Array.isArray(list) || !Array.isArray(names)) return list;
    return list.filter((c) => !(isObj(c) && names.includes(c.name)));
  };
  if (spec.containers !== undefined) spec.containers = drop(spec.containers, st.containers);
  if (spec.initContainers !== undefined) spec.initContainers = drop(spec.initContainers, st.initContainers);
  const newAnn: Record<string, unknown> = { ...ann };
  delete newAnn[STATUS_ANNOTATION];
  return { ...pod, metadata: { ...meta, annotations: newAnn }, spec };
}

// ---------- building ----------

export type TemplateDataInput = TemplateDataOptions;

export interface TemplateDataOptions {
  version: IstioVersion;
  /** The workload (from workload.ts); or give `pod` (JSON {metadata, spec}) directly. */
  workload?: Workload;
  pod?: Record<string, unknown>;
  /** Loaded MeshConfig (mesh.ts), or the MeshConfig YAML object (Istio's defaults are applied to it). */
  mesh: ProtoStruct | Record<string, unknown>;
  /** Injector values: a Go map, or plain JSON (numbers become float64). */
  values: GoMap | Record<string, unknown>;
  revision?: string;
  /** The namespace of the admission request (default: the workload's, else "default"). */
  namespace?: string;
  /** Native sidecars on (istiod's ENABLE_NATIVE_SIDECARS resolved by the caller). */
  nativeSidecars?: boolean;
  /** COMPLIANCE_POLICY of istiod. */
  compliancePolicy?: string;
  /** The Namespace object (OpenShift uid/gid ranges). */
  namespaceObject?: Record<string, unknown>;
  /** 'webhook' (default): the pod a controller would create, as istiod's webhook sees it;
   *  'kube-inject': istioctl kube-inject's view (owner metadata as written, no namespace filled in). */
  mode?: 'webhook' | 'kube-inject';
  /** Fill in the API server's pod defaults first (inputs written by hand rather than read from a cluster). */
  kubeDefaults?: boolean;
}

export interface TemplateDataResult {
  /** Effective ProxyConfig (mesh defaultConfig + proxy.istio.io/config annotation). */
  proxyConfig: ProtoStruct;
  meshConfig: ProtoStruct;
  /** The pod as the template sees it (v1.Pod view) and its JSON. */
  pod: JsonStruct;
  podJSON: Record<string, unknown>;
  deployMeta: DeployMeta;
  namespace: string;
  estimatedConcurrency?: bigint;
  proxyImage?: string;
  proxyInitImage?: string;
  proxyUID: bigint;
  proxyGID: bigint;
}

function annotationsOf(pod: Record<string, unknown>): Record<string, string> {
  const meta = isObj(pod.metadata) ? pod.metadata : {};
  const ann = isObj(meta.annotations) ? (meta.annotations as Record<string, unknown>) : {};
  const out: Record<string, string> = {};
  for (const k of Object.keys(ann)) if (typeof ann[k] === 'string') out[k] = ann[k] as string;
  return out;
}

function label(opts: TemplateDataOptions): string {
  return opts.workload ? workloadLabel(opts.workload) : 'pod';
}

/** *inject.SidecarTemplateData, with the pieces it was built from. */
export class TemplateData extends RecordStruct {
  constructor(
    type: GoType,
    values: Record<string, GoValue>,
    readonly info: TemplateDataResult,
  ) {
    super(type, values, true);
  }
}

export function buildTemplateData(input: TemplateDataInput): TemplateData {
  const mesh = input.mesh instanceof ProtoStruct ? input.mesh : meshFromObject(input.version, input.mesh);
  const goValues = plainToGo(input.values ?? {}) as GoMap;
  const opts = { ...input, mesh, values: goValues };
  const v = opts.version;
  const mode = opts.mode ?? 'webhook';
  const w = opts.workload;
  let podJSON: Record<string, unknown> = w ? w.pod : (opts.pod ?? { metadata: {}, spec: {} });
  if (opts.kubeDefaults) podJSON = applyKubeDefaults(podJSON);
  const meta0 = isObj(podJSON.metadata) ? podJSON.metadata : {};
  const namespace = opts.namespace ?? (strOf(meta0, 'namespace') || w?.namespace || (mode === 'webhook' ? 'default' : ''));

  // the webhook fills in the request namespace and drops managed fields
  let meta: Record<string, unknown> = { ...meta0 };
  if (mode === 'webhook') {
    if (!strOf(meta, 'namespace') && namespace) meta.namespace = namespace;
    delete meta.managedFields;
  }
  podJSON = stripPod({ ...podJSON, metadata: meta });
  meta = podJSON.metadata as Record<string, unknown>;

  let deploy: DeployMeta;
  if (w && w.kind !== 'Pod') {
    deploy = mode === 'webhook' ? ownerOfWorkload(w, namespace) : { name: w.name, namespace: w.namespace, kind: w.kind, apiVersion: w.apiVersion };
  } else {
    deploy = deployMetaFromPod(podJSON);
    if (mode === 'webhook') deploy.namespace = namespace;
  }

  const where = (): string => (w ? w.where : '<pod>');
  let pod: JsonStruct;
  try {
    pod = decodeGo(Pod, { apiVersion: 'v1', kind: 'Pod', ...podJSON }) as JsonStruct;
  } catch (e) {
    if (e instanceof GoJsonError) throw new InputError(`${where()}: ${label(opts)}: ${e.message}`);
    throw e;
  }

  // ProxyConfig: mesh defaultConfig, then the pod's proxy.istio.io/config annotation (read since 1.6)
  const annotations = annotationsOf(podJSON);
  let proxyConfig = opts.mesh.values.get('DefaultConfig') as ProtoStruct;
  const pca = annotations[PROXY_CONFIG_ANNOTATION];
  if (pca !== undefined && has(v, 'inject.proxyConfigAnnotation')) {
    // istiod: protomarshal.ApplyYAML, through sigs.k8s.io/yaml.YAMLToJSON (a key written twice keeps the last)
    let pcDoc;
    try {
      pcDoc = loadYamlDocuments(pca, `annotation ${PROXY_CONFIG_ANNOTATION}`, { format: 'yaml', duplicateKeys: 'last' })[0];
    } catch (e) {
      // the workload's place, found only now: finding it can mean reading its file again
      if (e instanceof InputError) throw new (e.constructor as typeof InputError)(e.reason, `${where()}: annotation ${PROXY_CONFIG_ANNOTATION}`, e.line, e.col);
      throw e;
    }
    try {
      proxyConfig = applyProxyConfig(v, proxyConfig, pcDoc?.value ?? {}, {});
    } catch (e) {
      if (e instanceof ProtoParseError) throw new InputError(`${where()}: ${label(opts)}: could not parse proxy config: ${e.message}`);
      throw e;
    }
  }

  const metaView = pod.field('ObjectMeta') as JsonStruct;
  const specView = pod.field('Spec') as JsonStruct;
  const asPtr = (s: JsonStruct): JsonStruct => new JsonStruct(s.type, s.raw, true);
  const objPtrs = has(v, 'data.pointerObjectMeta');
  const typePtrs = has(v, 'data.pointerTypeMeta');

  const typeMeta = new JsonStruct(TypeMeta, { kind: deploy.kind, apiVersion: deploy.apiVersion }, typePtrs);
  let deploymentMeta: GoStruct;
  if (has(v, 'data.DeploymentMeta.namespacedName')) {
    deploymentMeta = new RecordStruct(NamespacedName, { Namespace: deploy.namespace, Name: deploy.name });
  } else {
    // older releases pass an ObjectMeta: the pod's (webhook) or the owner's (kube-inject) with the owner's name
    const base = mode === 'kube-inject' && w && w.kind !== 'Pod' ? w.ownerMeta : meta;
    const dm: Record<string, unknown> = { ...base, name: deploy.name };
    if (deploy.namespace) dm.namespace = deploy.namespace;
    else delete dm.namespace;
    delete dm.ownerReferences;
    delete dm.managedFields;
    deploymentMeta = new JsonStruct(ObjectMeta, dm, typePtrs);
  }

  const uid = proxyIDs(opts.namespaceObject);
  const values: Record<string, GoValue> = {
    TypeMeta: typeMeta,
    DeploymentMeta: deploymentMeta,
    ObjectMeta: objPtrs ? asPtr(metaView) : metaView,
    Spec: objPtrs ? asPtr(specView) : specView,
    ProxyConfig: proxyConfig,
    MeshConfig: opts.mesh,
    Values: opts.values,
  };
  const result: TemplateDataResult = {
    proxyConfig,
    meshConfig: opts.mesh,
    pod,
    podJSON,
    deployMeta: deploy,
    namespace,
    proxyUID: uid.uid,
    proxyGID: uid.gid,
  };
  if (has(v, 'data.Revision')) values.Revision = opts.revision ?? '';
  if (has(v, 'data.EstimatedConcurrency')) {
    result.estimatedConcurrency = estimateConcurrency(proxyConfig, annotations, opts.values);
    values.EstimatedConcurrency = result.estimatedConcurrency;
  }
  const imageType = (() => {
    const img = proxyConfig.values.get('Image');
    return img instanceof GoStruct ? String(img.field('ImageType') ?? '') : '';
  })();
  if (has(v, 'data.ProxyImage')) {
    result.proxyImage = proxyImage(opts.values, imageType, annotations);
    values.ProxyImage = result.proxyImage;
  }
  if (has(v, 'data.ProxyUID')) values.ProxyUID = new GoNum(T.int64, uid.uid);
  if (has(v, 'data.ProxyGID')) values.ProxyGID = new GoNum(T.int64, uid.gid);
  if (has(v, 'data.InboundTrafficPolicyMode')) values.InboundTrafficPolicyMode = inboundTrafficPolicyMode(opts.mesh);
  if (has(v, 'data.CompliancePolicy')) values.CompliancePolicy = opts.compliancePolicy ?? '';
  if (has(v, 'data.NativeSidecars')) values.NativeSidecars = opts.nativeSidecars ?? false;
  if (has(v, 'data.ProxyInitImage')) {
    result.proxyInitImage = proxyImage(opts.values, imageType, annotations, 'proxy_init');
    values.ProxyInitImage = result.proxyInitImage;
  }
  return new TemplateData(templateDataType(v), values, result);
}

function meshFromObject(v: IstioVersion, obj: Record<string, unknown>): ProtoStruct {
  try {
    return applyMeshConfig(v, obj ?? {}, {});
  } catch (e) {
    if (e instanceof ProtoParseError) throw new InputError(`mesh config: ${e.message}`);
    throw e;
  }
}

/** The protoToJSON template function of the release. */
export function proxyConfigJSON(v: IstioVersion, m: GoValue): string {
  return protoToJSONForTemplate(v, m);
}
