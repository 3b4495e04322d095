// What istiod does to the pod after the templates are merged into it, and before it answers:
//
//   - applyPrometheusMerge (1.7+): with metrics merging on, the pod's prometheus.io annotations move
//     into the proxy's ISTIO_PROMETHEUS_ANNOTATIONS and are replaced by ones pointing at the agent
//     (status port, /stats/prometheus);
//   - applyRewrite: with probe rewriting on, the application's HTTP (later also TCP, gRPC and
//     lifecycle) probes go to the agent's status port under /app-health/<container>/..., and the
//     original probes travel to the agent in ISTIO_KUBE_APP_PROBERS;
//   - the Go round trip: istiod holds the pod as a k8s.io/api corev1.Pod and marshals it back, so
//     quantities are canonical, empty and unknown fields are gone, and so on (goRoundTrip);
//   - the 1.5-1.9 injector's pod-level fsGroup 1337 (applyLegacyFSGroup);
//
// Public API
//   postProcessPod(pod, ctx)          all of the above on a merged pod ({metadata, spec}); a new object
//   goRoundTrip(pod, version)         json.Unmarshal into the release's corev1 types, then json.Marshal
//   kubeApiMinor(version)             the k8s.io/api minor version a release was built with
//   PostProcessContext
//
// Mirrors: istio.io/istio pkg/kube/inject/webhook.go (postProcessPod, applyPrometheusMerge, applyRewrite),
//          pkg/kube/inject/app_probe.go
// Proven by: test/istio/merged-postprocess.test.ts, test/istio/inject-conformance.test.ts

import { T, newMap, ptrTo, withType, type GoMap, type GoType, type GoValue } from '../go/reflect/value.js';
import { goJsonMarshal } from '../go/encoding/json/json.js';
import { GoJsonError, decodeGo, field, structType } from '../go/encoding/json/structs.js';
import { GRPCAction, HTTPGetAction, PodSpec, TCPSocketAction } from '../k8s/core.js';
import { ObjectMeta } from '../k8s/meta.js';
import { PROXY_CONTAINER } from './merge.js';
import { clone, isObject, own, type Json, type JsonObject } from '../go/encoding/json/value.js';
import type { IstioVersion } from './version.js';
import { has, kubeApiMinorOf } from './releases.js';
import { DEFAULT_SDS_UDS_PATH } from './mesh.js';

export interface PostProcessContext {
  version: IstioVersion;
  /** The injector's values (sidecarInjectorWebhook.rewriteAppHTTPProbe). */
  values: JsonObject;
  /** The mesh config as given (enablePrometheusMerge, defaultConfig.statusPort); Istio's defaults apply when unset. */
  mesh: JsonObject;
  /** The pod's annotations before injection (an earlier injection's sidecar.istio.io/status). */
  originalAnnotations: Record<string, Json>;
  /** The config's injectedAnnotations: istiod sets them after the Prometheus annotations, so they win. */
  injectedAnnotations?: Record<string, string>;
  /** istiod's environment (ENABLE_LEGACY_FSGROUP_INJECTION). */
  env?: Record<string, string>;
}

const STATUS_ANNOTATION = 'sidecar.istio.io/status';
const REWRITE_ANNOTATION = 'sidecar.istio.io/rewriteAppHTTPProbers';
const STATUS_PORT_ANNOTATION = 'status.sidecar.istio.io/port';
const MERGE_METRICS_ANNOTATION = 'prometheus.istio.io/merge-metrics';
const INCLUDE_INBOUND_ANNOTATION = 'traffic.sidecar.istio.io/includeInboundPorts';
const EXCLUDE_INBOUND_ANNOTATION = 'traffic.sidecar.istio.io/excludeInboundPorts';
const KUBE_APP_PROBERS_ENV = 'ISTIO_KUBE_APP_PROBERS';
const PROMETHEUS_ENV = 'ISTIO_PROMETHEUS_ANNOTATIONS';
const DEFAULT_STATUS_PORT = 15020;

// ---------- small readers ----------

function objAt(o: JsonObject, ...path: string[]): JsonObject | undefined {
  let cur: Json | undefined = o;
  for (const k of path) {
    if (!isObject(cur ?? null)) return undefined;
    cur = own(cur as JsonObject, k);
  }
  return isObject(cur ?? null) ? (cur as JsonObject) : undefined;
}

/** A protobuf BoolValue as the JSON forms carry it: `true` or `{value: true}`. */
function boolValue(v: Json | undefined): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (isObject(v ?? null) && typeof (v as JsonObject).value === 'boolean') return (v as JsonObject).value as boolean;
  return undefined;
}

/** strconv.ParseBool. */
function parseBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

/** strconv.Atoi (an error yields 0, which is what istiod then uses). */
function atoi(s: string): number {
  return /^[+-]?\d+$/.test(s) && Math.abs(Number(s)) <= 2 ** 63 ? Number(s) : 0;
}

function annotationsOf(pod: JsonObject): JsonObject {
  const meta = isObject(pod.metadata ?? null) ? (pod.metadata as JsonObject) : (pod.metadata = Object.create(null) as JsonObject);
  return isObject(meta.annotations ?? null) ? (meta.annotations as JsonObject) : (meta.annotations = Object.create(null) as JsonObject);
}

function containersOf(pod: JsonObject, list: 'containers' | 'initContainers'): JsonObject[] {
  const spec = objAt(pod, 'spec');
  const l = spec ? own(spec, list) : undefined;
  return Array.isArray(l) ? (l.filter((c) => isObject(c)) as JsonObject[]) : [];
}

/** FindSidecar: the proxy among the containers, else among the init containers (native sidecar). */
function findSidecar(pod: JsonObject): JsonObject | undefined {
  return [...containersOf(pod, 'containers'), ...containersOf(pod, 'initContainers')].find((c) => c.name === PROXY_CONTAINER);
}

function meshStatusPort(mesh: JsonObject): number {
  const p = objAt(mesh, 'defaultConfig')?.statusPort;
  return typeof p === 'number' ? p : DEFAULT_STATUS_PORT;
}

function appendEnv(c: JsonObject, name: string, value: string): void {
  const env = Array.isArray(c.env) ? c.env : [];
  c.env = [...env, { name, value }];
}

// ---------- Prometheus merge ----------

/** prometheus/util/strutil.SanitizeLabelName: `prometheus.io/scrape` and `prometheus-io/scrape` are one name. */
function sanitizeLabelName(s: string): string {
  return s.replace(/[^a-zA-Z0-9_]/g, '_');
}

function enablePrometheusMerge(mesh: JsonObject, annos: JsonObject): boolean {
  const a = own(annos, MERGE_METRICS_ANNOTATION);
  if (typeof a === 'string') {
    const b = parseBool(a);
    if (b !== undefined) return b;
  }
  return boolValue(own(mesh, 'enablePrometheusMerge')) ?? true;
}

// Ports pilot-agent and Envoy own: master refuses to merge-scrape them.
const RESERVED_PORTS: Record<string, string> = {
  '15000': 'Envoy admin',
  '15001': 'outbound traffic capture',
  '15004': 'pilot debug',
  '15006': 'inbound traffic capture',
  '15008': 'HBONE tunnel',
  '15020': 'pilot-agent status / merged Prometheus',
  '15021': 'Envoy health',
  '15053': 'DNS proxy',
  '15090': 'Envoy Prometheus (already merged)',
};

/** pilot-agent's ParseScrapeTargets: "port:path" pairs, comma-separated; the path defaults to /metrics. */
function parseScrapeTargets(raw: string): Array<{ port: string; path: string }> | undefined {
  const out: Array<{ port: string; path: string }> = [];
  for (let entry of raw.split(',')) {
    entry = entry.trim();
    if (entry === '') continue;
    const i = entry.indexOf(':');
    const port = (i < 0 ? entry : entry.slice(0, i)).trim();
    if (port === '') return undefined;
    const path = i < 0 || entry.slice(i + 1).trim() === '' ? '/metrics' : entry.slice(i + 1).trim();
    out.push({ port, path });
  }
  return out;
}

/** master's checks of a port to merge-scrape: a number 1-65535, not the agent's, not one Istio owns. */
function scrapePortError(port: string, agent: string, what: string, label: string): string | undefined {
  const n = /^[+-]?\d+$/.test(port) ? Number(port) : NaN;
  if (!(n >= 1 && n <= 65535)) return `invalid prometheus ${what}: invalid ${label}port ${JSON.stringify(port)}`;
  const canon = String(n);
  if (canon === agent) return `invalid prometheus ${what}: ${label}port ${port} conflicts with agent port`;
  const reason = RESERVED_PORTS[canon];
  if (reason !== undefined) return `invalid prometheus ${what}: ${label}port ${port} is reserved for Istio (${reason}) and cannot be scraped`;
  return undefined;
}

/** istiod's applyPrometheusMerge (with `targets`, master's prometheus.istio.io/scrape-targets and port checks). */
export function applyPrometheusMerge(pod: JsonObject, mesh: JsonObject, targets = false): void {
  const annos = annotationsOf(pod);
  // Go ranges over a map in random order; one spelling of each annotation is what pods carry.
  const keys = Object.keys(annos).sort();
  const valueOf = (name: string): string | undefined => {
    for (const k of keys) if (sanitizeLabelName(k) === name && typeof annos[k] === 'string') return annos[k] as string;
    return undefined;
  };
  let scrape = true;
  for (const k of keys) {
    if (sanitizeLabelName(k) !== 'prometheus_io_scrape' || typeof annos[k] !== 'string') continue;
    const b = parseBool(annos[k] as string);
    if (b !== undefined) {
      scrape = b;
      break;
    }
  }
  if (!scrape || !enablePrometheusMerge(mesh, annos)) return;
  const target = String(meshStatusPort(mesh));
  // Already pointing at the agent: the user controls it, or the pod is being injected again.
  if (valueOf('prometheus_io_port') === target) return;
  const cfg = { scrape: valueOf('prometheus_io_scrape') ?? '', path: valueOf('prometheus_io_path') ?? '', port: valueOf('prometheus_io_port') ?? '' };
  let list: Array<{ port: string; path: string }> = [];
  if (targets) {
    const raw = valueOf('prometheus_istio_io_scrape_targets');
    // an unreadable list is logged and ignored by istiod
    if (raw !== undefined) list = parseScrapeTargets(raw) ?? [];
    if (list.length > 0) {
      cfg.port = list[0]!.port;
      cfg.path = list[0]!.path;
      for (const t of list) {
        const e = scrapePortError(t.port, target, 'scrape targets', 'target ');
        if (e) throw new Error(e);
      }
    } else if (cfg.port !== '') {
      const e = scrapePortError(cfg.port, target, 'scrape configuration', '');
      if (e) throw new Error(e);
    }
  }
  const sidecar = findSidecar(pod);
  if (sidecar && (cfg.scrape !== '' || cfg.path !== '' || cfg.port !== '' || list.length > 0)) {
    // PrometheusScrapeConfiguration marshals scrape, path, port (and targets, omitempty) in that order.
    const t = list.length > 0 ? `,"targets":[${list.map((x) => `{"port":${JSON.stringify(x.port)},"path":${JSON.stringify(x.path)}}`).join(',')}]` : '';
    appendEnv(sidecar, PROMETHEUS_ENV, `{"scrape":${JSON.stringify(cfg.scrape)},"path":${JSON.stringify(cfg.path)},"port":${JSON.stringify(cfg.port)}${t}}`);
  }
  for (const k of keys) {
    const s = sanitizeLabelName(k);
    if (s === 'prometheus_io_scrape' || s === 'prometheus_io_port' || s === 'prometheus_io_path' || (targets && s === 'prometheus_istio_io_scrape_targets')) delete annos[k];
  }
  annos['prometheus.io/port'] = target;
  annos['prometheus.io/path'] = '/stats/prometheus';
  annos['prometheus.io/scrape'] = 'true';
}

// ---------- probe rewriting ----------

/** What the agent's status server takes over, by release (pilot-agent's FormatProberURL and app_probe.go). */
interface RewriteFeatures {
  startup: boolean;
  tcp: boolean;
  grpc: boolean;
  lifecycle: boolean;
  /** Init containers' probes too (native sidecars brought application init containers under the agent). */
  initContainers: boolean;
  /** Named ports resolved in the probe's own container, else a numeric string parsed (older: own container only). */
  parseNumericNames: boolean;
  /** Ports left out of inbound capture keep their probes (traffic.sidecar.istio.io/include|excludeInboundPorts). */
  portFilter: boolean;
  /** No ISTIO_KUBE_APP_PROBERS when nothing is rewritten (older releases set it to `{}`). */
  skipEmpty: boolean;
}

function rewriteFeatures(v: IstioVersion): RewriteFeatures {
  return {
    startup: has(v, 'probes.startup'),
    tcp: has(v, 'probes.tcp'),
    grpc: has(v, 'probes.grpc'),
    lifecycle: has(v, 'probes.lifecycle'),
    initContainers: has(v, 'probes.initContainers'),
    parseNumericNames: has(v, 'probes.numericPortNames'),
    portFilter: has(v, 'probes.inboundPortFilter'),
    skipEmpty: has(v, 'probes.noEmptyProbers'),
  };
}

// Prober (app_probe.go / status.Prober): the probe's action and its timeout, as the agent reads them.
const Prober = structType('inject.Prober', [
  field('HTTPGet', 'httpGet,omitempty', ptrTo(HTTPGetAction)),
  field('TCPSocket', 'tcpSocket,omitempty', ptrTo(TCPSocketAction)),
  field('GRPC', 'grpc,omitempty', ptrTo(GRPCAction)),
  field('TimeoutSeconds', 'timeoutSeconds,omitempty', T.int32),
]);

function splitPorts(s: string): string[] {
  return s.split(',').map((p) => p.trim()).filter((p) => p !== '');
}

/** Inbound ports that decide which probes are rewritten: true = included, false = excluded; empty = all. */
function portInclusion(annos: JsonObject): Map<number, boolean> {
  const m = new Map<number, boolean>();
  const inc = typeof annos[INCLUDE_INBOUND_ANNOTATION] === 'string' ? (annos[INCLUDE_INBOUND_ANNOTATION] as string) : '';
  const exc = typeof annos[EXCLUDE_INBOUND_ANNOTATION] === 'string' ? (annos[EXCLUDE_INBOUND_ANNOTATION] as string) : '';
  const exclude = () => {
    for (const p of splitPorts(exc)) {
      const n = atoi(p);
      if (n !== 0) m.set(n, false);
    }
    return m;
  };
  if (inc !== '' && inc !== '*') {
    for (const p of splitPorts(inc)) {
      const n = atoi(p);
      if (n !== 0) m.set(n, true);
    }
    return m;
  }
  return exclude();
}

function portIncluded(port: number, ports: Map<number, boolean>): boolean {
  const v = ports.get(port);
  if (v !== undefined) return v;
  for (const x of ports.values()) if (x) return false;
  return true;
}

function intVal(port: Json | undefined): number {
  return typeof port === 'number' ? port : 0; // IntOrString.IntVal of a string port is 0
}

function probeAction(p: JsonObject, f: RewriteFeatures): { kind: 'httpGet' | 'tcpSocket' | 'grpc'; action: JsonObject } | undefined {
  if (isObject(p.httpGet ?? null)) return { kind: 'httpGet', action: p.httpGet as JsonObject };
  if (f.tcp && isObject(p.tcpSocket ?? null)) return { kind: 'tcpSocket', action: p.tcpSocket as JsonObject };
  if (f.grpc && isObject(p.grpc ?? null)) return { kind: 'grpc', action: p.grpc as JsonObject };
  return undefined;
}

function namedPort(container: JsonObject, name: string, f: RewriteFeatures): number | undefined {
  const ports = Array.isArray(container.ports) ? container.ports : [];
  for (const p of ports) if (isObject(p) && p.name === name && name !== '' && typeof p.containerPort === 'number') return p.containerPort;
  if (!f.parseNumericNames) return undefined;
  return /^[+-]?\d+$/.test(name) && Math.abs(Number(name)) < 2 ** 31 ? Number(name) : undefined;
}

/** DumpAppProbers: the probes the agent takes over, with named ports resolved (in the pod, as istiod does). */
function dumpAppProbers(pod: JsonObject, f: RewriteFeatures): string {
  const out: GoMap = newMap();
  const ports = f.portFilter ? portInclusion(annotationsOf(pod)) : new Map<number, boolean>();
  const update = (handler: Json | undefined, container: JsonObject, timeout: boolean): JsonObject | undefined => {
    if (!isObject(handler ?? null)) return undefined;
    const h = handler as JsonObject;
    const a = probeAction(h, f);
    if (!a) return undefined;
    if (a.kind === 'grpc') {
      if (!portIncluded(intVal(a.action.port), ports)) return undefined;
    } else {
      const port = a.action.port;
      if (typeof port === 'string') {
        const n = namedPort(container, port, f);
        if (n === undefined || !portIncluded(n, ports)) return undefined;
        a.action.port = n;
      } else if (!portIncluded(intVal(port), ports)) return undefined;
    }
    const prober: JsonObject = { [a.kind]: a.action };
    if (timeout && typeof h.timeoutSeconds === 'number') prober.timeoutSeconds = h.timeoutSeconds;
    return prober;
  };
  const containers = f.initContainers ? [...containersOf(pod, 'initContainers'), ...containersOf(pod, 'containers')] : containersOf(pod, 'containers');
  for (const c of containers) {
    if (c.name === PROXY_CONTAINER) continue;
    const name = String(c.name ?? '');
    const add = (url: string, p: JsonObject | undefined) => {
      if (p) out[url] = decodeGo(Prober, p);
    };
    add(`/app-health/${name}/readyz`, update(c.readinessProbe, c, true));
    add(`/app-health/${name}/livez`, update(c.livenessProbe, c, true));
    if (f.startup) add(`/app-health/${name}/startupz`, update(c.startupProbe, c, true));
    if (f.lifecycle && isObject(c.lifecycle ?? null)) {
      const l = c.lifecycle as JsonObject;
      add(`/app-lifecycle/${name}/prestopz`, update(l.preStop, c, false));
      add(`/app-lifecycle/${name}/poststartz`, update(l.postStart, c, false));
    }
  }
  if (Object.keys(out).length === 0 && f.skipEmpty) return '';
  return goJsonMarshal(withType(out, { kind: 'map', name: 'inject.KubeAppProbers', key: T.string, elem: ptrTo(Prober) }) as GoValue);
}

/** convertAppProber: the probe (or lifecycle handler) as an HTTP GET of the agent. */
function convertProbe(p: Json | undefined, url: string, statusPort: number, f: RewriteFeatures, ports: Map<number, boolean>): JsonObject | undefined {
  if (!isObject(p ?? null)) return undefined;
  const a = probeAction(p as JsonObject, f);
  if (!a) return undefined;
  if (f.portFilter && !portIncluded(intVal(a.action.port), ports)) return undefined;
  const out = clone(p as JsonObject);
  const get: JsonObject = a.kind === 'httpGet' ? (out.httpGet as JsonObject) : Object.create(null);
  get.port = statusPort;
  get.path = url;
  // Kubelet speaks HTTP to the agent, which speaks HTTPS (or TCP, or gRPC) to the application.
  if (get.scheme === 'HTTPS') get.scheme = 'HTTP';
  out.httpGet = get;
  delete out.tcpSocket;
  delete out.grpc;
  return out;
}

function statusPortFor(annos: JsonObject, mesh: JsonObject): number {
  const v = own(annos, STATUS_PORT_ANNOTATION);
  return typeof v === 'string' ? atoi(v) : meshStatusPort(mesh);
}

/** The KubeAppProbers JSON of an earlier injection, merged with the new one (earlier entries win). */
function mergeProbers(existing: string, fresh: string): string | undefined {
  let old: unknown;
  let neu: unknown;
  try {
    old = JSON.parse(existing);
    neu = JSON.parse(fresh);
  } catch {
    return undefined;
  }
  if (!isObject((old ?? null) as Json) || !isObject((neu ?? null) as Json)) return undefined;
  const m: GoMap = newMap();
  for (const [k, v] of Object.entries(neu as JsonObject)) m[k] = v === null ? null : decodeGo(ptrTo(Prober), v);
  for (const [k, v] of Object.entries(old as JsonObject)) m[k] = v === null ? null : decodeGo(ptrTo(Prober), v);
  return goJsonMarshal(withType(m, { kind: 'map', name: 'inject.KubeAppProbers', key: T.string, elem: ptrTo(Prober) }) as GoValue);
}

/** istiod's applyRewrite (1.10+; the 1.5-1.9 injector did the same from the SidecarInjectionSpec's flag). */
export function applyRewrite(pod: JsonObject, ctx: PostProcessContext): void {
  const sidecar = findSidecar(pod);
  if (!sidecar) return;
  const annos = annotationsOf(pod);
  let rewrite = boolValue(own(objAt(ctx.values, 'sidecarInjectorWebhook') ?? {}, 'rewriteAppHTTPProbe')) ?? false;
  const a = own(annos, REWRITE_ANNOTATION);
  if (typeof a === 'string' && parseBool(a) !== undefined) rewrite = parseBool(a)!;
  if (!rewrite) return;
  const f = rewriteFeatures(ctx.version);
  // istiod's REWRITE_TCP_PROBES=false leaves TCP probes to the kubelet
  if (ctx.env?.REWRITE_TCP_PROBES === 'false') f.tcp = false;
  const prober = dumpAppProbers(pod, f);
  if (prober !== '') {
    const previouslyInjected = has(ctx.version, 'probes.mergePrevious') && Object.prototype.hasOwnProperty.call(ctx.originalAnnotations, STATUS_ANNOTATION);
    const env = Array.isArray(sidecar.env) ? sidecar.env : [];
    const i = previouslyInjected ? env.findIndex((e) => isObject(e) && e.name === KUBE_APP_PROBERS_ENV) : -1;
    if (i < 0) appendEnv(sidecar, KUBE_APP_PROBERS_ENV, prober);
    else {
      const merged = mergeProbers(String((env[i] as JsonObject).value ?? ''), prober);
      if (merged !== undefined) sidecar.env = env.map((e, j) => (j === i ? { name: KUBE_APP_PROBERS_ENV, value: merged } : e));
    }
  }
  // The status port the agent listens on: the pod's annotation over the mesh's (Atoi errors give 0).
  const statusPort = statusPortFor(annos, ctx.mesh);
  const ports = f.portFilter ? portInclusion(annos) : new Map<number, boolean>();
  const lists: ('containers' | 'initContainers')[] = f.initContainers ? ['containers', 'initContainers'] : ['containers'];
  for (const list of lists) {
    for (const c of containersOf(pod, list)) {
      if (c.name === PROXY_CONTAINER) continue;
      const name = String(c.name ?? '');
      for (const [field, url] of [
        ['readinessProbe', `/app-health/${name}/readyz`],
        ['livenessProbe', `/app-health/${name}/livez`],
        ...(f.startup ? [['startupProbe', `/app-health/${name}/startupz`]] : []),
      ] as [string, string][]) {
        const p = convertProbe(c[field], url, statusPort, f, ports);
        if (p) c[field] = p;
      }
      if (f.lifecycle && isObject(c.lifecycle ?? null)) {
        const l = c.lifecycle as JsonObject;
        for (const [field, url] of [
          ['preStop', `/app-lifecycle/${name}/prestopz`],
          ['postStart', `/app-lifecycle/${name}/poststartz`],
        ] as [string, string][]) {
          const h = convertProbe(l[field], url, statusPort, f, ports);
          if (h) l[field] = h;
        }
      }
    }
  }
}

// ---------- the Go round trip ----------

/**
 * The k8s.io/api minor version each Istio release was built with (its go.mod; releases.ts's KUBE_API): a
 * field the API gained later is unknown to that release's istiod and dropped when it decodes the pod.
 */
export function kubeApiMinor(v: IstioVersion): number {
  return kubeApiMinorOf(v);
}

// Fields by the Kubernetes minor version that added them to the API types (json names, per Go struct).
const FIELD_SINCE: Record<string, Record<string, number>> = {
  'v1.PodSpec': {
    preemptionPolicy: 15, overhead: 16, topologySpreadConstraints: 16, ephemeralContainers: 16, setHostnameAsFQDN: 19,
    os: 23, hostUsers: 25, schedulingGates: 26, resourceClaims: 26, resources: 32, hostnameOverride: 34,
  },
  'v1.Container': { resizePolicy: 27, restartPolicy: 28 },
  'v1.Probe': { terminationGracePeriodSeconds: 21, grpc: 23 },
  'v1.LifecycleHandler': { sleep: 29 },
  'v1.Lifecycle': { stopSignal: 33 },
  'v1.SecurityContext': { seccompProfile: 19, appArmorProfile: 30 },
  'v1.WindowsSecurityContextOptions': { hostProcess: 22 },
  'v1.PodSecurityContext': { fsGroupChangePolicy: 18, seccompProfile: 19, appArmorProfile: 30, supplementalGroupsPolicy: 31, seLinuxChangePolicy: 32 },
  'v1.VolumeMount': { recursiveReadOnly: 30 },
  'v1.ResourceRequirements': { claims: 26 },
  'v1.ResourceClaim': { request: 31 },
  'v1.VolumeSource': { ephemeral: 19, image: 31 },
  'v1.VolumeProjection': { clusterTrustBundle: 29, podCertificate: 34 },
};

/** Remove the fields the release's API types did not have, walking the JSON with the Go types. */
function dropNewerFields(t: GoType, raw: Json, kube: number): void {
  if (t.kind === 'ptr') return dropNewerFields(t.elem!, raw, kube);
  if ((t.kind === 'slice' || t.kind === 'array') && Array.isArray(raw)) {
    for (const x of raw) dropNewerFields(t.elem!, x, kube);
    return;
  }
  if (t.kind === 'map' && isObject(raw)) {
    for (const k of Object.keys(raw)) dropNewerFields(t.elem!, raw[k]!, kube);
    return;
  }
  if (t.kind !== 'struct' || !isObject(raw)) return;
  const since = FIELD_SINCE[t.name.replace(/^v1\.EphemeralContainerCommon$/, 'v1.Container')];
  if (since) for (const [k, minor] of Object.entries(since)) if (minor > kube) delete raw[k];
  for (const f of t.fields ?? []) {
    if (f.embedded && f.json === '') dropNewerFields(f.type, raw, kube);
    else if (f.json !== '' && f.json !== '-' && own(raw, f.json) !== undefined) dropNewerFields(f.type, raw[f.json]!, kube);
  }
}

// The pod as the merge holds it: metadata and spec (a workload's pod template has no more).
const PodParts = structType('v1.Pod', [field('ObjectMeta', 'metadata,omitempty', ObjectMeta, { embedded: true }), field('Spec', 'spec,omitempty', PodSpec)]);

/**
 * The pod after istiod's json.Unmarshal into corev1.Pod and json.Marshal back: quantities in canonical form,
 * zero values of omitempty fields gone, unknown fields (and fields newer than the release's API) dropped,
 * an unset creationTimestamp as null. Throws GoJsonError where Go's Unmarshal fails.
 */
export function goRoundTrip(pod: JsonObject, version: IstioVersion, owned = false): JsonObject {
  // newer fields are dropped in place: from a copy, unless the caller hands its own over
  const raw = owned ? pod : clone(pod);
  dropNewerFields(PodParts, raw, kubeApiMinor(version));
  const kube = kubeApiMinor(version);
  const text = goJsonMarshal(decodeGo(PodParts, raw));
  const out = toJson(JSON.parse(text) as unknown) as JsonObject;
  if (kube >= 34 && isObject(out.metadata ?? null) && (out.metadata as JsonObject).creationTimestamp === null) delete (out.metadata as JsonObject).creationTimestamp;
  return out;
}

function toJson(v: unknown): Json {
  if (Array.isArray(v)) return v.map(toJson);
  if (v !== null && typeof v === 'object') {
    const o = Object.create(null) as JsonObject;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = toJson(x);
    return o;
  }
  return v as Json;
}

// ---------- fsGroup ----------

/**
 * The 1.5-1.8 injector gave the pod fsGroup 1337 so the proxy could read the projected token: 1.5 to 1.7
 * when the mesh config had an sdsUdsPath, 1.8 unless ENABLE_LEGACY_FSGROUP_INJECTION=false (webhook.go's
 * injectPod). From 1.9 the templates carry it.
 */
/** The mesh's sdsUdsPath, DefaultMeshConfig's where the mesh config does not set it. */
function meshSdsUdsPath(ctx: PostProcessContext): string {
  const set = ctx.mesh.sdsUdsPath;
  if (typeof set === 'string') return set;
  return has(ctx.version, 'mesh.default.sdsUdsPath') ? DEFAULT_SDS_UDS_PATH : '';
}

export function applyLegacyFSGroup(pod: JsonObject, ctx: PostProcessContext): void {
  if (!has(ctx.version, 'inject.legacyFSGroup')) return;
  const on = has(ctx.version, 'inject.legacyFSGroupFlag')
    ? (ctx.env?.ENABLE_LEGACY_FSGROUP_INJECTION ?? 'true') === 'true'
    : meshSdsUdsPath(ctx) !== '';
  if (!on) return;
  const spec = isObject(pod.spec ?? null) ? (pod.spec as JsonObject) : (pod.spec = Object.create(null) as JsonObject);
  const sc = isObject(spec.securityContext ?? null) ? (spec.securityContext as JsonObject) : (spec.securityContext = Object.create(null) as JsonObject);
  sc.fsGroup = 1337;
}

// ---------- all together ----------

/** istiod's postProcessPod (Prometheus merge, probe rewriting, the old fsGroup) and its Go round trip, on a merged pod. */
export function postProcessPod(pod: JsonObject, ctx: PostProcessContext): JsonObject {
  try {
    return goRoundTrip(postProcessed(pod, ctx), ctx.version, true);
  } catch (e) {
    // A pod Go cannot decode never reaches istiod (the API server rejects it first); the template stage
    // renders it anyway, so the merge shows it too, as merged (made again: the round trip took the
    // first copy), rather than failing late.
    if (e instanceof GoJsonError) return postProcessed(pod, ctx);
    throw e;
  }
}

/** A copy of the pod with istiod's changes before the round trip. */
function postProcessed(pod: JsonObject, ctx: PostProcessContext): JsonObject {
  const out = clone(pod);
  if (has(ctx.version, 'inject.prometheusMerge')) {
    applyPrometheusMerge(out, ctx.mesh, has(ctx.version, 'inject.prometheusScrapeTargets'));
    // istiod merges before it sets the config's injectedAnnotations, so theirs win.
    const annos = annotationsOf(out);
    for (const [k, v] of Object.entries(ctx.injectedAnnotations ?? {})) if (sanitizeLabelName(k).startsWith('prometheus_io_')) annos[k] = v;
  }
  applyRewrite(out, ctx);
  applyLegacyFSGroup(out, ctx);
  return out;
}
