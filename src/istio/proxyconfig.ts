// istio.mesh.v1alpha1.ProxyConfig as the injector sees it, per Istio release: the generated Go struct
// (field names, types, getters, enums), Istio's DefaultProxyConfig, and the `proxy.istio.io/config`
// annotation merge (mesh.ApplyProxyConfig).
//
// Public API
//   proxyModel(version)                   the descriptors for a release (cached): { ProxyConfig, Tracing, ..., wkt }
//   defaultProxyConfig(version)           mesh.DefaultProxyConfig() of that release (a ProxyStruct)
//   parseProxyConfig(version, json, opts) proto JSON → ProxyConfig view (unknown fields → opts.warn)
//   applyProxyConfig(version, base, yamlObj, opts)
//                                         Istio's applyProxyConfig: per-field replace (jsonpb, every release)
//                                         + ProxyMetadata union
//   mergeModeFor(version)                 'deep' | 'replace'
//   cleanProxyConfig(version, pc)         inject.cleanProxyConfig (≥ 1.6): fields equal to the defaults dropped
//   protoToJSONForTemplate(version, v)    the protoToJSON template function: jsonpb text, "{}" on nil
//   ProxyModel                            type of proxyModel's result
//
// Mirrors: istio.io/istio pkg/config/mesh/mesh.go (DefaultProxyConfig, ApplyProxyConfig),
//          pkg/kube/inject/template.go (cleanProxyConfig, protoToJSON); istio.io/api mesh/v1alpha1/proxy.pb.go
// Proven by: test/parity/own.test.ts, test/istio/model.test.ts, test/istio/protojson-cache.test.ts

import { GoNil, GoNum, T, newMap, typeOf, withType, type GoValue } from '../go/reflect/value.js';
import {
  duration,
  enumType,
  enumValue,
  gogoTypes,
  msg,
  newMessage,
  parseProto,
  pf,
  protoMerge,
  protoToJSON,
  ProtoStruct as ProtoStructClass,
  v2Types,
  wrap,
  type Enum,
  type MergeMode,
  type Msg,
  type ParseOpts,
  type ProtoField,
  type ProtoStruct,
  type WKT,
} from './proto.js';
import { atLeast, type IstioVersion } from './version.js';
import { has } from './releases.js';

export interface ProxyModel {
  flavour: 'gogo' | 'v2';
  wkt: WKT;
  ProxyConfig: Msg;
  Tracing: Msg;
  ClientTLSSettings: Msg;
  RemoteService: Msg;
  AuthenticationPolicy: Enum;
  InboundInterceptionMode: Enum;
  TracingServiceName: Enum;
  TLSMode: Enum;
}

const cache = new Map<string, ProxyModel>();

/** One model per release: fields come and go at many releases (since() below), so releases share none. */
function modelKey(v: IstioVersion): string {
  return `${v.major}.${v.minor}${v.master ? '+' : ''}`;
}

export function proxyModel(v: IstioVersion): ProxyModel {
  const key = modelKey(v);
  const hit = cache.get(key);
  if (hit) return hit;
  const m = build(v);
  cache.set(key, m);
  return m;
}

function build(v: IstioVersion): ProxyModel {
  const gogo = has(v, 'proxyConfig.gogo');
  const wkt = gogo ? gogoTypes : v2Types;
  // a proto field by the release that added (or dropped) it: the field lists are their own table
  const since = (a: number, b: number): boolean => atLeast(v, a, b);
  const pick = (fs: (ProtoField | false)[]): ProtoField[] => fs.filter((f): f is ProtoField => f !== false);

  const TLSMode = enumType('v1alpha3.ClientTLSSettings_TLSmode', [
    ['DISABLE', 0], ['SIMPLE', 1], ['MUTUAL', 2], ['ISTIO_MUTUAL', 3],
  ]);
  const ClientTLSSettings = msg('v1alpha3.ClientTLSSettings', 'istio.networking.v1alpha3.ClientTLSSettings', pick([
    pf(1, 'mode', TLSMode),
    pf(2, 'client_certificate', 'string'),
    pf(3, 'private_key', 'string'),
    pf(4, 'ca_certificates', 'string'),
    since(1, 8) && pf(7, 'credential_name', 'string'),
    pf(5, 'subject_alt_names', 'string', { repeated: true }),
    pf(6, 'sni', 'string'),
    since(1, 14) && pf(8, 'insecure_skip_verify', wkt.BoolValue),
    since(1, 20) && pf(9, 'ca_crl', 'string'),
  ]));

  const Zipkin = msg('v1alpha1.Tracing_Zipkin', 'istio.mesh.v1alpha1.Tracing.Zipkin', [pf(1, 'address', 'string')]);
  const Lightstep = msg('v1alpha1.Tracing_Lightstep', 'istio.mesh.v1alpha1.Tracing.Lightstep', pick([
    pf(1, 'address', 'string'),
    pf(2, 'access_token', 'string'),
    !since(1, 8) && pf(3, 'secure', 'bool'),
    !since(1, 8) && pf(4, 'cacert_path', 'string'),
  ]));
  const Datadog = msg('v1alpha1.Tracing_Datadog', 'istio.mesh.v1alpha1.Tracing.Datadog', [pf(1, 'address', 'string')]);
  const Stackdriver = msg('v1alpha1.Tracing_Stackdriver', 'istio.mesh.v1alpha1.Tracing.Stackdriver', [
    pf(1, 'debug', 'bool'),
    pf(2, 'max_number_of_attributes', wkt.Int64Value),
    pf(3, 'max_number_of_annotations', wkt.Int64Value),
    pf(4, 'max_number_of_message_events', wkt.Int64Value),
  ]);
  const TraceContext = enumType('v1alpha1.Tracing_OpenCensusAgent_TraceContext', [
    ['UNSPECIFIED', 0], ['W3C_TRACE_CONTEXT', 1], ['GRPC_BIN', 2], ['CLOUD_TRACE_CONTEXT', 3], ['B3', 4],
  ]);
  const OpenCensusAgent = msg('v1alpha1.Tracing_OpenCensusAgent', 'istio.mesh.v1alpha1.Tracing.OpenCensusAgent', [
    pf(1, 'address', 'string'),
    pf(2, 'context', TraceContext, { repeated: true }),
  ]);
  const Tracing = msg('v1alpha1.Tracing', 'istio.mesh.v1alpha1.Tracing', pick([
    pf(1, 'zipkin', Zipkin, { oneof: 'Tracer' }),
    pf(2, 'lightstep', Lightstep, { oneof: 'Tracer' }),
    pf(3, 'datadog', Datadog, { oneof: 'Tracer' }),
    pf(4, 'stackdriver', Stackdriver, { oneof: 'Tracer' }),
    since(1, 8) && pf(9, 'open_census_agent', OpenCensusAgent, { oneof: 'Tracer' }),
    since(1, 7) && pf(5, 'custom_tags', { map: msg('v1alpha1.Tracing_CustomTag', 'istio.mesh.v1alpha1.Tracing.CustomTag', [pf(1, 'literal', { opaque: true }), pf(2, 'environment', { opaque: true }), pf(3, 'header', { opaque: true })]) }),
    since(1, 7) && pf(6, 'max_path_tag_length', 'uint32'),
    since(1, 7) && pf(7, 'sampling', 'double'),
    since(1, 7) && pf(8, 'tls_settings', ClientTLSSettings),
  ]));

  const RemoteService = msg('v1alpha1.RemoteService', 'istio.mesh.v1alpha1.RemoteService', pick([
    pf(1, 'address', 'string'),
    pf(2, 'tls_settings', ClientTLSSettings),
    pf(3, 'tcp_keepalive', { opaque: true }),
  ]));
  const SDS = msg('v1alpha1.SDS', 'istio.mesh.v1alpha1.SDS', [pf(1, 'enabled', 'bool'), pf(2, 'k8s_sa_jwt_path', 'string')]);
  const XFCC = enumType('v1alpha1.Topology_ForwardClientCertDetails', [
    ['UNDEFINED', 0], ['SANITIZE', 1], ['FORWARD_ONLY', 2], ['APPEND_FORWARD', 3], ['SANITIZE_SET', 4], ['ALWAYS_FORWARD_ONLY', 5],
  ]);
  const Topology = msg('v1alpha1.Topology', 'istio.mesh.v1alpha1.Topology', pick([
    pf(1, 'num_trusted_proxies', 'uint32'),
    pf(2, 'forward_client_cert_details', XFCC),
    since(1, 17) && pf(3, 'proxy_protocol', { opaque: true }),
  ]));
  const ProxyStatsMatcher = msg('v1alpha1.ProxyConfig_ProxyStatsMatcher', 'istio.mesh.v1alpha1.ProxyConfig.ProxyStatsMatcher', [
    pf(1, 'inclusion_prefixes', 'string', { repeated: true }),
    pf(2, 'inclusion_suffixes', 'string', { repeated: true }),
    pf(3, 'inclusion_regexps', 'string', { repeated: true }),
  ]);
  const ProxyImage = msg('v1beta1.ProxyImage', 'istio.networking.v1beta1.ProxyImage', [pf(1, 'image_type', 'string')]);

  const AuthenticationPolicy = enumType('v1alpha1.AuthenticationPolicy', [['NONE', 0], ['MUTUAL_TLS', 1], ['INHERIT', 1000]]);
  const InboundInterceptionMode = enumType('v1alpha1.ProxyConfig_InboundInterceptionMode', [['REDIRECT', 0], ['TPROXY', 1], ['NONE', 2]]);
  const TracingServiceName = enumType('v1alpha1.ProxyConfig_TracingServiceName', [
    ['APP_LABEL_AND_NAMESPACE', 0], ['CANONICAL_NAME_ONLY', 1], ['CANONICAL_NAME_AND_NAMESPACE', 2],
  ]);

  const clusterOneof = has(v, 'proxyConfig.clusterNameOneof');
  const ProxyConfig = msg('v1alpha1.ProxyConfig', 'istio.mesh.v1alpha1.ProxyConfig', pick([
    pf(1, 'config_path', 'string'),
    pf(2, 'binary_path', 'string'),
    clusterOneof ? pf(3, 'service_cluster', 'string', { oneof: 'ClusterName' }) : pf(3, 'service_cluster', 'string'),
    clusterOneof && pf(36, 'tracing_service_name', TracingServiceName, { oneof: 'ClusterName' }),
    pf(4, 'drain_duration', wkt.Duration),
    pf(5, 'parent_shutdown_duration', wkt.Duration),
    pf(6, 'discovery_address', 'string'),
    pf(7, 'discovery_refresh_delay', wkt.Duration),
    pf(8, 'zipkin_address', 'string'),
    !since(1, 7) && pf(9, 'connect_timeout', wkt.Duration),
    pf(10, 'statsd_udp_address', 'string'),
    pf(20, 'envoy_metrics_service_address', 'string'),
    pf(11, 'proxy_admin_port', 'int32'),
    pf(12, 'availability_zone', 'string'),
    pf(13, 'control_plane_auth_policy', AuthenticationPolicy),
    pf(14, 'custom_config_file', 'string'),
    pf(15, 'stat_name_length', 'int32'),
    has(v, 'proxyConfig.concurrencyWrapper') ? pf(16, 'concurrency', wkt.Int32Value) : pf(16, 'concurrency', 'int32'),
    pf(17, 'proxy_bootstrap_template_path', 'string'),
    pf(18, 'interception_mode', InboundInterceptionMode),
    pf(19, 'tracing', Tracing),
    pf(21, 'sds', SDS),
    pf(22, 'envoy_access_log_service', RemoteService),
    pf(23, 'envoy_metrics_service', RemoteService),
    pf(24, 'proxy_metadata', { map: 'string' }),
    since(1, 12) && pf(37, 'runtime_values', { map: 'string' }),
    pf(26, 'status_port', 'int32'),
    pf(27, 'extra_stat_tags', 'string', { repeated: true }),
    since(1, 8) && pf(28, 'gateway_topology', Topology),
    since(1, 7) && pf(29, 'termination_drain_duration', wkt.Duration),
    since(1, 8) && pf(30, 'mesh_id', 'string'),
    since(1, 9) && pf(31, 'readiness_probe', { opaque: true }),
    since(1, 9) && pf(32, 'proxy_stats_matcher', ProxyStatsMatcher),
    since(1, 8) && pf(33, 'hold_application_until_proxy_starts', wkt.BoolValue),
    since(1, 11) && pf(34, 'ca_certificates_pem', 'string', { repeated: true }),
    since(1, 12) && pf(35, 'image', ProxyImage),
    since(1, 14) && pf(38, 'private_key_provider', { opaque: true }),
    since(1, 18) && pf(39, 'proxy_headers', { opaque: true }),
  ]));

  return {
    flavour: gogo ? 'gogo' : 'v2',
    wkt,
    ProxyConfig,
    Tracing,
    ClientTLSSettings,
    RemoteService,
    AuthenticationPolicy,
    InboundInterceptionMode,
    TracingServiceName,
    TLSMode,
  };
}

export function mergeModeFor(_v: IstioVersion): MergeMode {
  // gogo's jsonpb (≤ 1.8) allocates a fresh message for every field it reads, like golang/protobuf's:
  // a nested message named in the YAML replaces the old one in every release.
  return 'replace';
}

const DEFAULT_ZIPKIN = 'zipkin.istio-system:9411';

/** mesh.DefaultProxyConfig() of the release. */
export function defaultProxyConfig(v: IstioVersion): ProtoStruct {
  const m = proxyModel(v);
  const w = m.wkt;
  if (has(v, 'proxyConfig.default.pilot')) {
    // 1.5's (pkg/config/mesh/mesh.go): Pilot's plain-text address, no status port, Concurrency 0 and no
    // tracing; the remote services are set, but empty.
    return newMessage(m.ProxyConfig, {
      ConfigPath: '/etc/istio/proxy',
      BinaryPath: '/usr/local/bin/envoy',
      ServiceCluster: 'istio-proxy',
      DrainDuration: duration(w, 45),
      ParentShutdownDuration: duration(w, 60),
      DiscoveryAddress: 'istio-pilot:15010',
      ConnectTimeout: duration(w, 1),
      EnvoyMetricsService: newMessage(m.RemoteService, {}),
      EnvoyAccessLogService: newMessage(m.RemoteService, {}),
      ProxyAdminPort: new GoNum(T.int32, 15000n),
      ControlPlaneAuthPolicy: enumValue(m.AuthenticationPolicy, 0),
      Concurrency: new GoNum(T.int32, 0n),
      StatNameLength: new GoNum(T.int32, 189n),
    });
  }
  const pc = newMessage(m.ProxyConfig, {
    ConfigPath: './etc/istio/proxy',
    ServiceCluster: 'istio-proxy',
    DrainDuration: duration(w, 45),
    ProxyAdminPort: new GoNum(T.int32, 15000n),
    ControlPlaneAuthPolicy: enumValue(m.AuthenticationPolicy, has(v, 'proxyConfig.default.mutualTLS') ? 1 : 0),
    DiscoveryAddress: 'istiod.istio-system.svc:15012',
    BinaryPath: '/usr/local/bin/envoy',
    StatNameLength: new GoNum(T.int32, 189n),
    StatusPort: new GoNum(T.int32, 15020n),
  });
  // mesh.go's DefaultProxyConfig of each release: parentShutdownDuration to 1.16, concurrency 2 (a plain int
  // in 1.6) to 1.17, after which an unset concurrency means "from the CPU limit", zipkin to 1.21, the
  // empty remote services to 1.8, control-plane mTLS from 1.7.
  if (has(v, 'proxyConfig.default.parentShutdownDuration')) pc.values.set('ParentShutdownDuration', duration(w, 60));
  if (has(v, 'proxyConfig.default.terminationDrainDuration')) pc.values.set('TerminationDrainDuration', duration(w, 5));
  if (has(v, 'proxyConfig.default.concurrency2')) {
    const two = new GoNum(T.int32, 2n);
    pc.values.set('Concurrency', has(v, 'proxyConfig.concurrencyWrapper') ? wrap(w.Int32Value, two) : two);
  }
  if (has(v, 'proxyConfig.default.remoteServices')) {
    pc.values.set('EnvoyMetricsService', newMessage(m.RemoteService, {}));
    pc.values.set('EnvoyAccessLogService', newMessage(m.RemoteService, {}));
  }
  if (has(v, 'proxyConfig.default.zipkin')) {
    const zipkinField = m.Tracing.fields.find((f) => f.go === 'Zipkin')!;
    const zipkinMsg = zipkinField.type as Msg;
    pc.values.set('Tracing', newMessage(m.Tracing, { Zipkin: newMessage(zipkinMsg, { Address: DEFAULT_ZIPKIN }) }));
  }
  return pc;
}

export function parseProxyConfig(v: IstioVersion, json: unknown, opts: ParseOpts = {}): ProtoStruct {
  return parseProto(proxyModel(v).ProxyConfig, json ?? {}, opts);
}

/** Istio's applyProxyConfig: the YAML's set fields over base, then ProxyMetadata = union (YAML wins). */
export function applyProxyConfig(v: IstioVersion, base: ProtoStruct, json: unknown, opts: ParseOpts = {}): ProtoStruct {
  const overlay = parseProxyConfig(v, json, opts);
  const merged = protoMerge(base, overlay, mergeModeFor(v));
  const orig = base.values.get('ProxyMetadata');
  const next = merged.values.get('ProxyMetadata');
  // from 1.11 MergeProxyConfig keeps the base's proxyMetadata keys the overlay does not name; before, the
  // overlay's map replaced the whole map, as jsonpb reads a map
  if (has(v, 'proxyConfig.mergeProxyMetadata') && orig && typeof orig === 'object' && next && typeof next === 'object' && orig !== next) {
    const u = newMap();
    for (const k of Object.keys(orig)) u[k] = (orig as Record<string, GoValue>)[k];
    for (const k of Object.keys(next)) u[k] = (next as Record<string, GoValue>)[k];
    merged.values.set('ProxyMetadata', withType(u, (merged.msg.goType.fields ?? []).find((f) => f.name === 'ProxyMetadata')!.type));
  }
  return merged;
}

/** inject.cleanProxyConfig: drop fields equal to DefaultProxyConfig so the PROXY_CONFIG env stays small. */
export function cleanProxyConfig(v: IstioVersion, pc: ProtoStruct): ProtoStruct {
  const out = pc.clone();
  const def = defaultProxyConfig(v);
  const same = (go: string): boolean => {
    const a = out.values.get(go);
    const b = def.values.get(go);
    if (a === undefined || b === undefined) return a === b;
    return protoToJSON(wrapForCompare(a)) === protoToJSON(wrapForCompare(b));
  };
  for (const go of ['ConfigPath', 'BinaryPath', 'DiscoveryAddress', 'ProxyAdminPort', 'StatNameLength', 'StatusPort', 'ControlPlaneAuthPolicy']) {
    if (scalarEq(out.values.get(go), def.values.get(go))) out.values.delete(go);
  }
  if (typeof out.values.get('ServiceCluster') === 'string' && out.values.get('ServiceCluster') === def.values.get('ServiceCluster')) {
    out.values.delete('ServiceCluster');
  }
  for (const go of ['DrainDuration', 'TerminationDrainDuration', 'ParentShutdownDuration', 'EnvoyMetricsService', 'EnvoyAccessLogService', 'Tracing', 'Concurrency']) {
    if (same(go)) out.values.delete(go);
  }
  const md = out.values.get('ProxyMetadata');
  if (md && typeof md === 'object' && !(md instanceof GoNil) && Object.keys(md).length === 0) out.values.delete('ProxyMetadata');
  return out;
}

function scalarEq(a: GoValue, b: GoValue): boolean {
  if (a instanceof GoNum && b instanceof GoNum) return a.v === b.v;
  if (a === undefined || b === undefined) return false;
  return a === b;
}

function wrapForCompare(x: GoValue): GoValue {
  return x;
}

/** The protoToJSON template function: jsonpb of the message ("{}" for nil); a ProxyConfig is cleaned
 *  (istiod's cleanProxyConfig, inside protoToJSON since 1.6). */
export function protoToJSONForTemplate(v: IstioVersion, m: GoValue): string {
  if (!(m instanceof ProtoStructClass)) return '{}';
  const key = `${v.major}.${v.minor}${v.master ? '+' : ''}`;
  const known = templateJSON.get(m);
  const hit = known?.get(key);
  if (hit !== undefined) return hit;
  const msg = m.msg.full === 'istio.mesh.v1alpha1.ProxyConfig' && has(v, 'func.protoToJSON.cleanProxyConfig') ? cleanProxyConfig(v, m) : m;
  const json = protoToJSON(msg);
  if (known) known.set(key, json);
  else if (unchangeable(m, 0)) templateJSON.set(m, new Map([[key, json]]));
  return json;
}

/**
 * The text per message and release. Template data is not changed once built, and a template can
 * change no part of a message but a map[string]interface {} inside it (Sprig's set, unset and merges
 * take only that type), so a message without one keeps its text (the mesh's defaultConfig is the
 * ProxyConfig of every workload without a proxy.istio.io/config annotation).
 */
const templateJSON = new WeakMap<ProtoStruct, Map<string, string>>();

function unchangeable(x: GoValue, depth: number): boolean {
  if (x === null || typeof x !== 'object' || x instanceof GoNum || x instanceof GoNil) return true;
  if (depth > 32) return false;
  if (x instanceof ProtoStructClass) {
    for (const y of x.values.values()) if (!unchangeable(y, depth + 1)) return false;
    return true;
  }
  if (Array.isArray(x)) return x.every((y) => unchangeable(y, depth + 1));
  if (Object.getPrototypeOf(x) !== null && Object.getPrototypeOf(x) !== Object.prototype) return false;
  const t = typeOf(x);
  if (!t || t.kind !== 'map' || !t.elem || t.elem.kind === 'interface') return false;
  for (const k of Object.keys(x)) if (!unchangeable((x as Record<string, GoValue>)[k], depth + 1)) return false;
  return true;
}
