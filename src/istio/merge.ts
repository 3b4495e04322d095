
// What istiod does with the template output: merge it into the pod, then put the containers in order.
//
// Two shapes of template output exist:
//   - 1.10+ (and late 1.9): a partial Pod (`metadata`, `spec`), laid over the pod with Kubernetes'
//     strategic merge patch (lists of containers, volumes, ... merged by their key), as istiod's
//     applyOverlayYAML does;
//   - 1.5-1.9 `template`: a SidecarInjectionSpec (`initContainers`, `containers`, `volumes`,
//     `imagePullSecrets`, `dnsConfig`, `podRedirectAnnot`), whose parts the old injector appended
//     to the pod's lists.
// Afterwards istiod's reorderPod puts the proxy last, or first when holdApplicationUntilProxyStarts
// is on, and orders the init containers around a native-sidecar proxy.
//
// Values here are plain JSON (what the Kubernetes API holds), not the template's Go value model.
//
// Mirrors: istio.io/istio pkg/kube/inject/webhook.go (applyOverlayYAML, reorderPod; for 1.5-1.9 the
//          SidecarInjectionSpec patch); k8s.io/apimachinery pkg/util/strategicpatch/patch.go
// Proven by: test/istio/merge.test.ts, test/istio/inject-conformance.test.ts


import { isObject, own, newObject, clone, type Json, type JsonObject } from '../go/encoding/json/value.js';
import { parseQuantity } from '../k8s/resource.js';

export const PROXY_CONTAINER = 'istio-proxy';
export const INIT_CONTAINER = 'istio-init';
export const VALIDATION_CONTAINER = 'istio-validation';
export const ENABLE_CORE_DUMP = 'enable-core-dump';


// ---------- patch metadata: which lists merge, and by which key ----------

/** The `patchStrategy:"merge"` lists of the Pod types, with their `patchMergeKey` ('' = list of scalars). */
interface ListMeta {
  key: string;
  /** Schema of the list elements. */
  elem?: Schema;
}
interface Schema {
  lists?: Record<string, ListMeta>;
  fields?: Record<string, Schema>;
}

const containerSchema: Schema = {
  lists: {
    ports: { key: 'containerPort' },
    env: { key: 'name' },
    volumeMounts: { key: 'mountPath' },
    volumeDevices: { key: 'devicePath' },
  },
};

const podSchema: Schema = {
  fields: {
    metadata: {
      lists: {
        finalizers: { key: '' },
        ownerReferences: { key: 'uid' },
      },
    },
    spec: {
      lists: {
        containers: { key: 'name', elem: containerSchema },
        initContainers: { key: 'name', elem: containerSchema },
        ephemeralContainers: { key: 'name', elem: containerSchema },
        volumes: { key: 'name' },
        imagePullSecrets: { key: 'name' },
        hostAliases: { key: 'ip' },
        topologySpreadConstraints: { key: 'topologyKey' },
        resourceClaims: { key: 'name' },
        schedulingGates: { key: 'name' },
      },
    },
  },
};

// ---------- strategic merge ----------

/** Kubernetes' strategic merge of `patch` onto `original` for a Pod (neither is modified). */
export function strategicMergePod(original: JsonObject, patch: JsonObject): JsonObject {
  return mergeMap(original, patch, podSchema);
}

function mergeMap(original: JsonObject, patch: JsonObject, schema: Schema | undefined): JsonObject {
  const out = newObject();
  for (const k of Object.keys(original)) out[k] = original[k]!;
  for (const k of Object.keys(patch)) {
    const pv = patch[k]!;
    // A null in the patch deletes the field.
    if (pv === null) {
      delete out[k];
      continue;
    }
    const ov = own(original, k);
    const list = schema?.lists?.[k];
    if (Array.isArray(pv) && Array.isArray(ov) && list) {
      out[k] = mergeList(ov, pv, list);
    } else if (isObject(pv) && isObject(ov)) {
      out[k] = mergeMap(ov, pv, schema?.fields?.[k]);
    } else {
      out[k] = clone(pv);
    }
  }
  return out;
}

function keyOf(v: Json, key: string): string | undefined {
  if (key === '') return v === null || typeof v === 'object' ? undefined : JSON.stringify(v);
  if (!isObject(v)) return undefined;
  const k = own(v, key);
  return k === undefined ? undefined : JSON.stringify(k);
}

function mergeList(original: Json[], patch: Json[], meta: ListMeta): Json[] {
  // Merge in place (original order, patch-only items appended), as mergeSliceWithoutSpecialElements does.
  const merged: Json[] = original.map(clone);
  if (meta.key === '') {
    const seen = new Set(merged.map((v) => keyOf(v, '')));
    for (const p of patch) {
      const k = keyOf(p, '');
      if (!seen.has(k)) {
        seen.add(k);
        merged.push(clone(p));
      }
    }
  } else {
    for (const p of patch) {
      const k = keyOf(p, meta.key);
      const i = k === undefined ? -1 : merged.findIndex((m) => keyOf(m, meta.key) === k);
      if (i >= 0 && isObject(merged[i]) && isObject(p)) merged[i] = mergeMap(merged[i] as JsonObject, p, meta.elem);
      else merged.push(clone(p));
    }
  }
  // Then the order is normalized: patch items in patch order, server-only items in server order,
  // interleaved by their positions in the original list (normalizeElementOrder / mergeSortedSlice).
  const patchKeys = patch.map((p) => keyOf(p, meta.key));
  const serverKeys = original.map((o) => keyOf(o, meta.key));
  const inPatch = (v: Json) => patchKeys.includes(keyOf(v, meta.key));
  const patchItems = merged.filter(inPatch);
  const serverOnly = merged.filter((v) => !inPatch(v));
  const idx = (order: (string | undefined)[], v: Json) => order.indexOf(keyOf(v, meta.key));
  patchItems.sort((a, b) => idx(patchKeys, a) - idx(patchKeys, b));
  serverOnly.sort((a, b) => idx(serverKeys, a) - idx(serverKeys, b));
  const out: Json[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patchItems.length) {
    if (i >= serverOnly.length) out.push(patchItems[j++]!);
    else if (j >= patchItems.length) out.push(serverOnly[i++]!);
    else {
      const li = idx(serverKeys, serverOnly[i]!);
      const ri = idx(serverKeys, patchItems[j]!);
      if (li >= 0 && ri >= 0 && li < ri) out.push(serverOnly[i++]!);
      else out.push(patchItems[j++]!);
    }
  }
  return out;
}


// ---------- the old SidecarInjectionSpec ----------

/** True when the template output is a 1.5-1.9 SidecarInjectionSpec rather than a partial Pod. */
export function isInjectionSpec(out: JsonObject): boolean {
  return !('spec' in out) && !('metadata' in out);
}

/**
 * Apply a SidecarInjectionSpec the way the old injector's JSON patch did: init containers, volumes and
 * image pull secrets appended, containers appended (the proxy first when holding the application),
 * dnsConfig replaced, podRedirectAnnot added to the annotations (to 1.7: istiod 1.8 reads the field and
 * no longer applies it, redirectAnnotations false).
 */
export function applyInjectionSpec(pod: JsonObject, spec: JsonObject, hold: boolean, redirectAnnotations = true): JsonObject {
  const out = clone(pod);
  const podSpec = isObject(out.spec) ? out.spec : (out.spec = newObject());
  const append = (field: string) => {
    const add = own(spec, field);
    if (!Array.isArray(add) || add.length === 0) return;
    const cur = own(podSpec, field);
    podSpec[field] = [...(Array.isArray(cur) ? cur : []), ...add.map(clone)];
  };
  append('initContainers');
  const add = own(spec, 'containers');
  if (Array.isArray(add) && add.length > 0) {
    const cur = own(podSpec, 'containers');
    const existing = Array.isArray(cur) ? cur : [];
    const proxyAt = add.findIndex((c) => isObject(c) && own(c, 'name') === PROXY_CONTAINER);
    if (hold && proxyAt >= 0) {
      podSpec.containers = [clone(add[proxyAt]!), ...existing, ...add.filter((_, i) => i !== proxyAt).map(clone)];
    } else {
      podSpec.containers = [...existing, ...add.map(clone)];
    }
  }
  append('volumes');
  append('imagePullSecrets');
  const dns = own(spec, 'dnsConfig');
  if (dns !== undefined && dns !== null) podSpec.dnsConfig = clone(dns);
  const redirect = own(spec, 'podRedirectAnnot');
  if (redirectAnnotations && isObject(redirect) && Object.keys(redirect).length > 0) {
    const meta = isObject(out.metadata) ? out.metadata : (out.metadata = newObject());
    const annos = isObject(meta.annotations) ? meta.annotations : (meta.annotations = newObject());
    for (const k of Object.keys(redirect)) annos[k] = clone(redirect[k]!);
  }
  return out;
}

// ---------- container order ----------

type Move = 'first' | 'last' | 'remove';

/** Move (or remove) the named container, as istiod's modifyContainers does; other containers keep their order. */
export function modifyContainers(list: Json[] | undefined, name: string, move: Move): Json[] | undefined {
  if (!list) return list;
  const i = list.findIndex((c) => isObject(c) && own(c, 'name') === name);
  if (i < 0) return list;
  const c = list[i]!;
  const rest = list.filter((_, j) => j !== i);
  if (move === 'first') return [c, ...rest];
  if (move === 'last') return [...rest, c];
  return rest;
}

export function hasContainer(list: Json | undefined, name: string): boolean {
  return Array.isArray(list) && list.some((c) => isObject(c) && own(c, 'name') === name);
}

/** istiod's reorderPod: the proxy last (first with hold); init containers around a native sidecar. */
export function reorderPod(pod: JsonObject, hold: boolean): JsonObject {
  const spec = own(pod, 'spec');
  if (!isObject(spec)) return pod;
  const containers = own(spec, 'containers');
  if (Array.isArray(containers)) spec.containers = modifyContainers(containers, PROXY_CONTAINER, hold ? 'first' : 'last')!;
  const inits = own(spec, 'initContainers');
  if (Array.isArray(inits)) {
    let l: Json[] = inits;
    if (hasContainer(l, PROXY_CONTAINER)) {
      // Native sidecar: iptables setup, then the proxy, then everything else, so init containers are in the mesh.
      l = modifyContainers(l, ENABLE_CORE_DUMP, 'first')!;
      l = modifyContainers(l, PROXY_CONTAINER, 'first')!;
      l = modifyContainers(l, VALIDATION_CONTAINER, 'first')!;
      l = modifyContainers(l, INIT_CONTAINER, 'first')!;
    } else {
      // iptables setup last so it does not blackhole other init containers; validation first.
      l = modifyContainers(l, VALIDATION_CONTAINER, 'first')!;
      l = modifyContainers(l, INIT_CONTAINER, 'last')!;
      l = modifyContainers(l, ENABLE_CORE_DUMP, 'last')!;
    }
    spec.initContainers = l;
  }
  return pod;
}

/**
 * With native sidecars on, a proxy the user customized under `containers` belongs under
 * `initContainers` once the template puts it there (istiod's moveContainer).
 */
export function moveProxyToInit(pod: JsonObject): JsonObject {
  const out = clone(pod);
  const spec = own(out, 'spec');
  if (!isObject(spec)) return out;
  const containers = own(spec, 'containers');
  if (!Array.isArray(containers)) return out;
  const i = containers.findIndex((c) => isObject(c) && own(c, 'name') === PROXY_CONTAINER);
  if (i < 0) return out;
  const inits = own(spec, 'initContainers');
  spec.initContainers = [...(Array.isArray(inits) ? inits : []), containers[i]!];
  spec.containers = containers.filter((_, j) => j !== i);
  return out;
}

/**
 * The template output as istiod holds it after decoding it. A 1.5-1.9 SidecarInjectionSpec is decoded
 * by sigs.k8s.io/yaml into its Kubernetes types, which turns scalars into the declared type (an
 * unquoted `- 15001` in `args` is the string "15001"). A partial Pod is read into map[string]interface{}
 * and only reaches corev1.Pod through encoding/json after the merge, where such a number is an error
 * (render.ts checks that), so its scalars stay as written. Either way a field the release's Kubernetes
 * API did not have is dropped (`restartPolicy` on a container before the client of Kubernetes 1.28,
 * which Istio took up in 1.19: the old templates' `restartPolicy: Always` on istio-init never reached a
 * pod).
 */
export function asDecodedByIstiod(out: JsonObject, containerRestartPolicy: boolean): JsonObject {
  const typed = isInjectionSpec(out);
  const spec = isObject(out.spec) ? out.spec : out;
  for (const list of ['initContainers', 'containers']) {
    const l = spec[list];
    if (!Array.isArray(l)) continue;
    for (const c of l) {
      if (!isObject(c)) continue;
      if (typed) {
        for (const f of ['command', 'args']) {
          const a = c[f];
          if (Array.isArray(a)) c[f] = a.map(scalarString);
        }
        if (Array.isArray(c.env)) for (const e of c.env) if (isObject(e) && e.value !== undefined && e.value !== null) e.value = scalarString(e.value);
      }
      if (!containerRestartPolicy) delete c.restartPolicy;
    }
  }
  return out;
}

function scalarString(v: Json): Json {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return v;
}


// ---------- the old injector's --concurrency (1.5 to 1.8) ----------

const CONCURRENCY_ARG = /^-{1,2}concurrency(=(\d+))?$/;

/** strconv.Atoi: a decimal int64 with an optional sign, else undefined. */
function atoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n > 9223372036854775807n || n < -9223372036854775808n ? undefined : Number(n);
}

/** The proxy's --concurrency argument (--concurrency N, -concurrency=N), 0 when absent or unreadable. */
function concurrencyArg(args: Json[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const m = typeof a === 'string' ? CONCURRENCY_ARG.exec(a.trim()) : null;
    if (!m) continue;
    const text = m[2] ?? (i + 1 < args.length ? args[i + 1] : undefined);
    return typeof text === 'string' ? (atoi(text) ?? 0) : 0;
  }
  return 0;
}

/** Quantity.MilliValue of a CPU amount: the value in thousandths, rounded up. */
function milliValue(q: Json | undefined): bigint {
  const p = typeof q === 'string' ? parseQuantity(q) : typeof q === 'number' ? parseQuantity(String(q)) : undefined;
  if (!p) return 0n;
  const n = p.nanos;
  return n >= 0n ? (n + 999_999n) / 1_000_000n : n / 1_000_000n;
}

/**
 * The old injector's applyConcurrency: an istio-proxy container of the SidecarInjectionSpec without a
 * --concurrency above 0 gets `--concurrency N`, N the CPU limit rounded up to whole CPUs, else the request.
 */
export function applySpecConcurrency(spec: JsonObject): void {
  const containers = own(spec, 'containers');
  if (!Array.isArray(containers)) return;
  const c = containers.find((x) => isObject(x) && own(x, 'name') === PROXY_CONTAINER);
  if (!isObject(c)) return;
  const args = Array.isArray(own(c, 'args')) ? (own(c, 'args') as Json[]) : [];
  if (concurrencyArg(args) > 0) return;
  const res = isObject(own(c, 'resources')) ? (own(c, 'resources') as JsonObject) : undefined;
  const cpu = (field: string): bigint => {
    const l = res && isObject(own(res, field)) ? (own(res, field) as JsonObject) : undefined;
    return milliValue(l ? own(l, 'cpu') : undefined);
  };
  for (const millis of [cpu('limits'), cpu('requests')]) {
    // math.Ceil(float64(millis) / 1000)
    const n = Math.ceil(Number(millis) / 1000);
    if (n > 0) {
      c.args = [...args, '--concurrency', String(n)];
      return;
    }
  }
}
