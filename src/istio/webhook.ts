// What istiod's webhook does around the template stage once the template output is merged into the
// pod: the user's own containers laid over the injected ones again (reapplyOverwrittenContainers, with
// the proxy.istio.io/overrides record and adjustInitContainerUser), the cluster and network taken from
// values (applyClusterInfo), and the template output read as istiod reads it (parseTemplateOutput).
//
// Mirrors: istio.io/istio pkg/kube/inject/webhook.go
// Proven by: test/istio/ (webhook-overrides, merge, inject-conformance against Istio's goldens)

import { isObject, clone, jsonShaped, type JsonObject, type Json } from '../go/encoding/json/value.js';
import { LATEST, type IstioVersion } from './version.js';
import { has } from './releases.js';
import { strategicMergePod, PROXY_CONTAINER } from './merge.js';
import { goJsonMarshal } from '../go/encoding/json/json.js';
import { decodeGo } from '../go/encoding/json/structs.js';
import { Container } from '../k8s/core.js';
import { type GoValue } from '../go/reflect/value.js';
import { fastParse, Unsupported } from '../yaml/fastload.js';
import { yamlLib, checkYamlDepth } from '../yaml/yamllib.js';
import { indentFlowContinuations } from '../yaml/flowindent.js';
import { firstLineOf } from '../yaml/load.js';

/**
 * istiod's reapplyOverwrittenContainers: a container the user declared under a name the templates inject
 * (`istio-proxy` customizations) is laid over the injected one again, so the user's fields win; the image
 * `auto` means "keep the injected image". Containers of an earlier injection (sidecar.istio.io/status) are not
 * user customizations, and those a previous injection recorded in proxy.istio.io/overrides come from there.
 * From 1.12 what was laid over is recorded in that annotation (on a first injection only).
 */
export function reapplyOverwrittenContainers(merged: JsonObject, original: JsonObject, templatePod: JsonObject, version: IstioVersion = LATEST, interceptionMode = 'REDIRECT'): JsonObject {
  const annos = isObject(original.metadata) && isObject(original.metadata.annotations) ? original.metadata.annotations : {};
  const listed = (text: Json | undefined, field: string): Json[] => {
    if (typeof text !== 'string') return [];
    try {
      const v = JSON.parse(text) as Json;
      return isObject(v) && Array.isArray(v[field]) ? (v[field] as Json[]) : [];
    } catch {
      // an unreadable status is no previous injection
      return [];
    }
  };
  const status = annos['sidecar.istio.io/status'];
  const injectedBefore = (field: string) => listed(status, field).map(String);
  const existing = (field: string) => listed(annos[OVERRIDES_ANNOTATION], field).filter(isObject);
  const ospec = isObject(original.spec) ? original.spec : {};
  const inPod = (field: string, name: string): JsonObject | undefined => {
    const l = ospec[field];
    const c = Array.isArray(l) ? l.find((x) => isObject(x) && x.name === name) : undefined;
    return c && isObject(c) ? c : undefined;
  };
  const tspec = isObject(templatePod.spec) ? templatePod.spec : {};
  const overrides: Record<string, JsonObject[]> = { containers: [], initContainers: [] };
  let out = merged;
  for (const field of ['containers', 'initContainers'] as const) {
    const l = tspec[field];
    if (!Array.isArray(l)) continue;
    for (const c of l) {
      if (!isObject(c)) continue;
      const name = String(c.name ?? '');
      if (injectedBefore(field).includes(name)) continue;
      // an init container (a native sidecar) may be customized under containers too
      const user = existing(field).find((x) => x.name === name) ?? inPod(field, name) ?? (field === 'initContainers' ? inPod('containers', name) : undefined);
      if (!user) continue;
      const overlay = clone(user);
      if (overlay.image === 'auto') delete overlay.image;
      overrides[field]!.push(overlay);
      out = strategicMergePod(out, { spec: { [field]: [overlay] } });
    }
  }
  if (has(version, 'inject.overridesAnnotation') && status === undefined && (overrides.containers!.length > 0 || overrides.initContainers!.length > 0)) {
    const meta = isObject(out.metadata ?? null) ? (out.metadata as JsonObject) : (out.metadata = Object.create(null) as JsonObject);
    const a = isObject(meta.annotations ?? null) ? (meta.annotations as JsonObject) : (meta.annotations = Object.create(null) as JsonObject);
    a[OVERRIDES_ANNOTATION] = containerOverridesJSON(overrides);
  }
  if (has(version, 'inject.adjustInitContainerUser')) adjustInitContainerUser(out, original, interceptionMode);
  return out;
}

/**
 * istiod's adjustInitContainerUser (1.20+): the user's own istio-proxy runAsUser/runAsGroup carry over to
 * istio-validation and to istio-iptables' `-u` (never uid 0); in TPROXY mode the proxy keeps uid 0.
 */
export function adjustInitContainerUser(pod: JsonObject, original: JsonObject, interceptionMode: string): void {
  const find = (p: JsonObject, field: string, name: string): JsonObject | undefined => {
    const spec = isObject(p.spec ?? null) ? (p.spec as JsonObject) : {};
    const l = spec[field];
    const c = Array.isArray(l) ? l.find((x) => isObject(x) && x.name === name) : undefined;
    return c && isObject(c) ? c : undefined;
  };
  const user = find(original, 'containers', PROXY_CONTAINER) ?? find(original, 'initContainers', PROXY_CONTAINER);
  const sc = user && isObject(user.securityContext ?? null) ? (user.securityContext as JsonObject) : undefined;
  if (!sc || ((sc.runAsUser ?? null) === null && (sc.runAsGroup ?? null) === null)) return;
  const init = find(pod, 'initContainers', 'istio-init') ?? find(pod, 'initContainers', 'istio-validation');
  if (!init) return;
  const annos = isObject(pod.metadata ?? null) && isObject((pod.metadata as JsonObject).annotations ?? null) ? ((pod.metadata as JsonObject).annotations as JsonObject) : {};
  const tproxy = interceptionMode === 'TPROXY' || annos['sidecar.istio.io/interceptionMode'] === 'TPROXY';
  if (tproxy && (sc.runAsUser ?? null) !== null) {
    const proxy = find(pod, 'containers', PROXY_CONTAINER) ?? find(pod, 'initContainers', PROXY_CONTAINER);
    if (proxy && isObject(proxy.securityContext ?? null)) (proxy.securityContext as JsonObject).runAsUser = 0;
  }
  if (!tproxy && init.name === 'istio-validation') {
    const isc = isObject(init.securityContext ?? null) ? (init.securityContext as JsonObject) : (init.securityContext = Object.create(null) as JsonObject);
    if ((sc.runAsUser ?? null) !== null) isc.runAsUser = sc.runAsUser!;
    if ((sc.runAsGroup ?? null) !== null) isc.runAsGroup = sc.runAsGroup!;
  }
  const uid = sc.runAsUser;
  if (typeof uid !== 'number' || uid === 0 || !Array.isArray(init.args)) return;
  const i = init.args.indexOf('-u');
  if (i >= 0 && i + 1 < init.args.length) init.args[i + 1] = String(uid);
}

export const OVERRIDES_ANNOTATION = 'proxy.istio.io/overrides';

/** The overrides as Go marshals them: []corev1.Container in field declaration order, empty lists omitted. */
export function containerOverridesJSON(o: Record<string, JsonObject[]>): string {
  const parts: string[] = [];
  for (const field of ['containers', 'initContainers']) {
    const l = o[field]!;
    if (l.length === 0) continue;
    const items = l.map((c) => {
      try {
        return goJsonMarshal(decodeGo(Container, c));
      } catch {
        return goJsonMarshal(jsonShaped(c) as unknown as GoValue);
      }
    });
    parts.push(`"${field}":[${items.join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The cluster and network istiod takes from values (global.multiCluster.clusterName, global.network; the
 * pod's topology.istio.io/network label wins): the network is labelled on the pod (applyMetadata), and
 * both replace the proxy's ISTIO_META_CLUSTER_ID / ISTIO_META_NETWORK, appended in name order
 * (overwriteClusterInfo).
 */
export function applyClusterInfo(pod: JsonObject, values: JsonObject, podLabels: JsonObject): void {
  const g = isObject(values.global ?? null) ? (values.global as JsonObject) : {};
  const mc = isObject(g.multiCluster ?? null) ? (g.multiCluster as JsonObject) : {};
  const str = (v: Json | undefined) => (typeof v === 'string' ? v : '');
  const envs: Record<string, string> = Object.create(null) as Record<string, string>;
  const cluster = str(mc.clusterName);
  let network = str(g.network);
  if (typeof podLabels['topology.istio.io/network'] === 'string') network = podLabels['topology.istio.io/network'] as string;
  if (cluster !== '') envs.ISTIO_META_CLUSTER_ID = cluster;
  if (network !== '') {
    envs.ISTIO_META_NETWORK = network;
    const meta = isObject(pod.metadata ?? null) ? (pod.metadata as JsonObject) : (pod.metadata = Object.create(null) as JsonObject);
    const labels = isObject(meta.labels ?? null) ? (meta.labels as JsonObject) : (meta.labels = Object.create(null) as JsonObject);
    labels['topology.istio.io/network'] = network;
  }
  const keys = Object.keys(envs).sort();
  if (keys.length === 0) return;
  const spec = isObject(pod.spec ?? null) ? (pod.spec as JsonObject) : {};
  const find = (field: string) => (Array.isArray(spec[field]) ? (spec[field] as Json[]).find((c) => isObject(c) && c.name === PROXY_CONTAINER) : undefined);
  const proxy = find('containers') ?? find('initContainers');
  if (!proxy || !isObject(proxy)) return;
  const env = Array.isArray(proxy.env) ? proxy.env.filter((e) => !(isObject(e) && typeof e.name === 'string' && keys.includes(e.name))) : [];
  for (const k of keys) env.push({ name: k, value: envs[k]! });
  proxy.env = env;
}

/** The one document's value when the fast reader reads text whole, else undefined. */
export function fastSingleDocument(text: string): unknown {
  try {
    const docs = fastParse(text, undefined, { multiLineFlow: true });
    if (docs.length === 1 && isObject(docs[0]!.value as Json)) return docs[0]!.value;
  } catch (e) {
    if (!(e instanceof Unsupported || e instanceof RangeError)) throw e;
  }
  return undefined;
}

export function parseOutput(text: string): unknown {
  try {
    return yamlLib().parse(text, { version: '1.1', uniqueKeys: false });
  } catch (e) {
    // a quoted string or flow collection continued at a column YAML 1.2 refuses and yaml.v2 takes
    const reindented = indentFlowContinuations(text);
    if (!reindented || reindented.marker !== undefined) throw e;
    try {
      return yamlLib().parse(reindented.text, { version: '1.1', uniqueKeys: false });
    } catch {
      throw e;
    }
  }
}

/** The template output as istiod reads it (sigs.k8s.io/yaml into a map). */
export function parseTemplateOutput(text: string, name: string): JsonObject {
  let v: unknown;
  // Block YAML as templates write it is read by the fast reader, with sigs.k8s.io/yaml's values (the
  // yaml package took 40% of render --merged); anything else, and every error, by the yaml package.
  try {
    checkYamlDepth(text);
    v = fastSingleDocument(text) ?? parseOutput(text);
  } catch (e) {
    // the yaml package's "MESSAGE at line N, column M:" (and its code excerpt) as "line N, column M: MESSAGE"
    const msg = firstLineOf(e);
    const at = / at line (\d+), column (\d+):?$/.exec(msg);
    const why = at ? `line ${at[1]}, column ${at[2]}: ${msg.slice(0, at.index)}` : msg;
    throw new Error(`failed parsing generated injected YAML of template "${name}" (check Istio sidecar injector configuration): ${why}`);
  }
  if (v === null || v === undefined) return Object.create(null) as JsonObject;
  if (!isObject(v as Json)) throw new Error(`failed parsing generated injected YAML of template "${name}": not a map`);
  return jsonShaped(v) as JsonObject;
}
