// istio.mesh.v1alpha1.MeshConfig: the Go view templates get as .MeshConfig, Istio's defaults
// (mesh.DefaultMeshConfig) and loading (mesh.ApplyMeshConfig: every field overrides the default, except
// defaultConfig, which is merged over DefaultProxyConfig).
//
// Public API
//   meshModel(version)                      descriptors: { MeshConfig, InboundTrafficPolicyMode, ... }
//   defaultMeshConfig(version)              DefaultMeshConfig() of the release
//   applyMeshConfig(version, json, opts)    mesh YAML (already parsed to an object) over the defaults
//   loadMeshConfig(text, version, opts)     from the `istio` ConfigMap (data.mesh) or plain MeshConfig YAML;
//                                           returns { mesh, warnings }
//   meshFromConfigMapObject(obj)            the data.mesh text when obj is a ConfigMap, else undefined
//   MeshLoadResult, MeshWarning
//
// Mirrors: istio.io/istio pkg/config/mesh/mesh.go (DefaultMeshConfig, ApplyMeshConfig);
//          istio.io/api mesh/v1alpha1/config.pb.go
// Proven by: test/parity/own.test.ts, test/istio/model.test.ts

import { GoNum, T, withType, newMap, type GoValue } from '../go/reflect/value.js';
import {
  duration,
  enumType,
  enumValue,
  msg,
  newMessage,
  parseProto,
  pf,
  ProtoParseError,
  splitPath,
  wrap,
  type Enum,
  type Msg,
  type ParseOpts,
  type ProtoStruct,
} from './proto.js';
import { applyProxyConfig, defaultProxyConfig, proxyModel } from './proxyconfig.js';
import { atLeast, type IstioVersion } from './version.js';
import { has } from './releases.js';
import { loadYamlDocumentsByKind, type LoadedDocument } from '../yaml/load.js';
import { istioOperatorPart } from './configmap.js';

export interface MeshModel {
  MeshConfig: Msg;
  InboundTrafficPolicy: Msg;
  OutboundTrafficPolicy: Msg;
  InboundMode: Enum;
  OutboundMode: Enum;
}

const cache = new Map<string, MeshModel>();

export function meshModel(v: IstioVersion): MeshModel {
  const key = `${proxyModel(v).ProxyConfig.fields.length}:${v.minor}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const pm = proxyModel(v);
  const w = pm.wkt;
  // a proto field by the release that added (or dropped) it: the field list is its own table
  const since = (a: number, b: number): boolean => atLeast(v, a, b);
  const OutboundMode = enumType('v1alpha1.MeshConfig_OutboundTrafficPolicy_Mode', [['REGISTRY_ONLY', 0], ['ALLOW_ANY', 1]]);
  const InboundMode = enumType('v1alpha1.MeshConfig_InboundTrafficPolicy_Mode', [['PASSTHROUGH', 0], ['LOCALHOST', 1]]);
  const OutboundTrafficPolicy = msg('v1alpha1.MeshConfig_OutboundTrafficPolicy', 'istio.mesh.v1alpha1.MeshConfig.OutboundTrafficPolicy', [pf(1, 'mode', OutboundMode)]);
  const InboundTrafficPolicy = msg('v1alpha1.MeshConfig_InboundTrafficPolicy', 'istio.mesh.v1alpha1.MeshConfig.InboundTrafficPolicy', [pf(1, 'mode', InboundMode)]);
  const IngressControllerMode = enumType('v1alpha1.MeshConfig_IngressControllerMode', [['UNSPECIFIED', 0], ['OFF', 1], ['DEFAULT', 2], ['STRICT', 3]]);
  const AccessLogEncoding = enumType('v1alpha1.MeshConfig_AccessLogEncoding', [['TEXT', 0], ['JSON', 1]]);
  const H2UpgradePolicy = enumType('v1alpha1.MeshConfig_H2UpgradePolicy', [['DO_NOT_UPGRADE', 0], ['UPGRADE', 1]]);
  const opaque = { opaque: true } as const;
  const fields = [
    !since(1, 8) && pf(1, 'mixer_check_server', 'string'),
    !since(1, 8) && pf(2, 'mixer_report_server', 'string'),
    !since(1, 8) && pf(3, 'disable_policy_checks', 'bool'),
    !since(1, 8) && pf(48, 'disable_mixer_http_reports', 'bool'),
    !since(1, 8) && pf(25, 'policy_check_fail_open', 'bool'),
    !since(1, 8) && pf(30, 'sidecar_to_telemetry_session_affinity', 'bool'),
    pf(4, 'proxy_listen_port', 'int32'),
    since(1, 13) && pf(65, 'proxy_inbound_listen_port', 'int32'),
    pf(5, 'proxy_http_port', 'int32'),
    pf(6, 'connect_timeout', w.Duration),
    pf(42, 'protocol_detection_timeout', w.Duration),
    pf(28, 'tcp_keepalive', opaque),
    pf(7, 'ingress_class', 'string'),
    pf(8, 'ingress_service', 'string'),
    pf(9, 'ingress_controller_mode', IngressControllerMode),
    since(1, 13) && pf(52, 'ingress_selector', 'string'),
    !since(1, 8) && pf(10, 'auth_policy', enumType('v1alpha1.MeshConfig_AuthPolicy', [['NONE', 0], ['MUTUAL_TLS', 1]])),
    !since(1, 8) && pf(11, 'rds_refresh_delay', w.Duration),
    pf(12, 'enable_tracing', 'bool'),
    pf(13, 'access_log_file', 'string'),
    pf(24, 'access_log_format', 'string'),
    pf(27, 'access_log_encoding', AccessLogEncoding),
    pf(40, 'enable_envoy_access_log_service', 'bool'),
    since(1, 13) && pf(56, 'disable_envoy_listener_log', 'bool'),
    pf(14, 'default_config', pm.ProxyConfig),
    !since(1, 8) && pf(16, 'mixer_address', 'string'),
    pf(17, 'outbound_traffic_policy', OutboundTrafficPolicy),
    since(1, 20) && pf(66, 'inbound_traffic_policy', InboundTrafficPolicy),
    pf(22, 'config_sources', opaque, { repeated: false }),
    pf(43, 'enable_auto_mtls', w.BoolValue),
    !since(1, 8) && pf(29, 'sds_uds_path', 'string'),
    pf(26, 'trust_domain', 'string'),
    pf(46, 'trust_domain_aliases', 'string', { repeated: true }),
    since(1, 9) && pf(58, 'ca_certificates', opaque),
    pf(31, 'default_service_export_to', 'string', { repeated: true }),
    pf(32, 'default_virtual_service_export_to', 'string', { repeated: true }),
    pf(33, 'default_destination_rule_export_to', 'string', { repeated: true }),
    pf(34, 'root_namespace', 'string'),
    pf(35, 'locality_lb_setting', opaque),
    pf(36, 'dns_refresh_rate', w.Duration),
    !since(1, 8) && pf(37, 'disable_report_batch', 'bool'),
    !since(1, 8) && pf(38, 'report_batch_max_entries', 'uint32'),
    !since(1, 8) && pf(39, 'report_batch_max_time', w.Duration),
    pf(41, 'h2_upgrade_policy', H2UpgradePolicy),
    pf(44, 'inbound_cluster_stat_name', 'string'),
    pf(45, 'outbound_cluster_stat_name', 'string'),
    pf(47, 'certificates', opaque),
    !since(1, 17) && pf(49, 'thrift_config', opaque),
    since(1, 6) && pf(50, 'service_settings', opaque),
    since(1, 6) && pf(51, 'enable_prometheus_merge', w.BoolValue),
    since(1, 8) && pf(54, 'verify_certificate_at_client', w.BoolValue),
    since(1, 8) && pf(55, 'ca', opaque),
    since(1, 8) && pf(57, 'extension_providers', opaque),
    since(1, 11) && pf(60, 'default_providers', opaque),
    since(1, 10) && pf(59, 'discovery_selectors', opaque),
    since(1, 10) && pf(61, 'path_normalization', opaque),
    since(1, 11) && pf(62, 'default_http_retry_policy', opaque),
    since(1, 14) && pf(63, 'mesh_mTLS', opaque, { json: 'meshMTLS' }),
    since(1, 14) && pf(64, 'tls_defaults', opaque),
    since(1, 22) && pf(67, 'service_scope_configs', opaque),
  ].filter((f) => f !== false);
  const MeshConfig = msg('v1alpha1.MeshConfig', 'istio.mesh.v1alpha1.MeshConfig', fields);
  const model: MeshModel = { MeshConfig, InboundTrafficPolicy, OutboundTrafficPolicy, InboundMode, OutboundMode };
  cache.set(key, model);
  return model;
}

function i32(n: number): GoNum {
  return new GoNum(T.int32, BigInt(n));
}

function strings(xs: string[]): GoValue {
  return withType(xs, { kind: 'slice', name: '[]string', elem: T.string });
}

/** DefaultMeshConfig's sdsUdsPath of 1.6 and 1.7 (mesh.go's DefaultSdsUdsPath). */
export const DEFAULT_SDS_UDS_PATH = 'unix:./etc/istio/proxy/SDS';

/** mesh.DefaultMeshConfig() of the release (the mesh the chart installs when nothing is set). */
export function defaultMeshConfig(v: IstioVersion): ProtoStruct {
  const mm = meshModel(v);
  const w = proxyModel(v).wkt;
  const enumOf = (go: string): Enum => mm.MeshConfig.fields.find((f) => f.go === go)!.type as Enum;
  if (has(v, 'mesh.default.v15')) {
    // 1.5's mesh.go: a one-second connect timeout, access log to stdout, no auto mTLS, no ingress class
    return newMessage(mm.MeshConfig, {
      DisablePolicyChecks: true,
      RootNamespace: 'istio-system',
      ProxyListenPort: i32(15001),
      ConnectTimeout: duration(w, 1),
      IngressService: 'istio-ingressgateway',
      EnableTracing: true,
      AccessLogFile: '/dev/stdout',
      AccessLogEncoding: enumValue(enumOf('AccessLogEncoding'), 0),
      DefaultConfig: defaultProxyConfig(v),
      TrustDomainAliases: strings([]),
      DefaultServiceExportTo: strings(['*']),
      DefaultVirtualServiceExportTo: strings(['*']),
      DefaultDestinationRuleExportTo: strings(['*']),
      OutboundTrafficPolicy: newMessage(mm.OutboundTrafficPolicy, { Mode: enumValue(mm.OutboundMode, 1) }),
      DnsRefreshRate: duration(w, 5),
      ProtocolDetectionTimeout: duration(w, 0, 100_000_000),
      EnableAutoMtls: wrap(w.BoolValue, false),
    });
  }
  const detection = has(v, 'mesh.default.protocolDetection100ms') ? duration(w, 0, 100_000_000) : has(v, 'mesh.default.protocolDetection5s') ? duration(w, 5) : duration(w, 0);
  const m = newMessage(mm.MeshConfig, {
    EnableTracing: true,
    AccessLogFile: '',
    AccessLogEncoding: enumValue(enumOf('AccessLogEncoding'), 0),
    ProtocolDetectionTimeout: detection,
    IngressService: 'istio-ingressgateway',
    IngressControllerMode: enumValue(enumOf('IngressControllerMode'), 3),
    IngressClass: 'istio',
    TrustDomain: 'cluster.local',
    TrustDomainAliases: strings([]),
    EnableAutoMtls: wrap(w.BoolValue, true),
    OutboundTrafficPolicy: newMessage(mm.OutboundTrafficPolicy, { Mode: enumValue(mm.OutboundMode, 1) }),
    LocalityLbSetting: mapOf({ enabled: true }),
    DefaultConfig: defaultProxyConfig(v),
    RootNamespace: 'istio-system',
    ProxyListenPort: i32(15001),
    ConnectTimeout: duration(w, 10),
    DefaultServiceExportTo: strings(['*']),
    DefaultVirtualServiceExportTo: strings(['*']),
    DefaultDestinationRuleExportTo: strings(['*']),
    DnsRefreshRate: duration(w, has(v, 'mesh.default.dnsRefreshRate60s') ? 60 : 5),
  });
  if (has(v, 'mesh.default.mixer')) {
    m.values.set('ReportBatchMaxEntries', new GoNum(T.uint32, 100n));
    m.values.set('ReportBatchMaxTime', duration(w, 1));
    m.values.set('DisableMixerHttpReports', true);
    m.values.set('DisablePolicyChecks', true);
  }
  if (has(v, 'mesh.default.sdsUdsPath')) m.values.set('SdsUdsPath', DEFAULT_SDS_UDS_PATH);
  if (has(v, 'mesh.default.thriftConfig')) m.values.set('ThriftConfig', mapOf({}));
  if (has(v, 'mesh.default.proxyInboundListenPort')) m.values.set('ProxyInboundListenPort', i32(15006));
  if (has(v, 'mesh.default.inboundTrafficPolicy')) m.values.set('InboundTrafficPolicy', newMessage(mm.InboundTrafficPolicy, { Mode: enumValue(mm.InboundMode, 0) }));
  if (has(v, 'mesh.default.enablePrometheusMerge')) m.values.set('EnablePrometheusMerge', wrap(w.BoolValue, true));
  if (has(v, 'mesh.default.envoyAccessLogOnly')) {
    // 1.11: the envoy file access log is the only provider, and the default access log
    m.values.set('DefaultProviders', mapOf({ accessLogging: ['envoy'] }));
    m.values.set('ExtensionProviders', [mapOf({ name: 'envoy', envoyFileAccessLog: mapOf({ path: '/dev/stdout' }) })]);
  } else if (has(v, 'mesh.default.extensionProviders')) {
    m.values.set('DefaultProviders', mapOf({}));
    m.values.set('ExtensionProviders', [
      mapOf({ name: 'prometheus', prometheus: mapOf({}) }),
      mapOf({ name: 'stackdriver', stackdriver: mapOf({}) }),
      mapOf({ name: 'envoy', envoyFileAccessLog: mapOf({ path: '/dev/stdout' }) }),
    ]);
  }
  return m;
}

function mapOf(o: Record<string, GoValue>): GoValue {
  const m = newMap();
  for (const k of Object.keys(o)) m[k] = o[k];
  return m;
}

export interface MeshWarning {
  path: string;
  message: string;
}

/** mesh.ApplyMeshConfig over DefaultMeshConfig: fields replace defaults, defaultConfig merges over
 *  DefaultProxyConfig (with ProxyMetadata unioned), extension providers replace by name. */
export function applyMeshConfig(v: IstioVersion, json: unknown, opts: ParseOpts = {}): ProtoStruct {
  const base = defaultMeshConfig(v);
  const obj = json === null || json === undefined ? {} : json;
  if (typeof obj !== 'object' || Array.isArray(obj)) throw new ProtoParseError('mesh config must be a YAML mapping', '');
  const raw = obj as Record<string, unknown>;
  const withoutPC: Record<string, unknown> = {};
  let pcRaw: unknown;
  for (const k of Object.keys(raw)) {
    if (k === 'defaultConfig' || k === 'default_config') pcRaw = raw[k];
    else withoutPC[k] = raw[k];
  }
  const overlay = parseProto(meshModel(v).MeshConfig, withoutPC, opts);
  for (const [k, val] of overlay.values) {
    if (k === 'ExtensionProviders' && Array.isArray(val) && has(v, 'mesh.extensionProvidersByName')) {
      base.values.set(k, mergeProviders(base.values.get(k), val));
    } else base.values.set(k, val);
  }
  const pcBase = base.values.get('DefaultConfig') as ProtoStruct;
  if (pcRaw !== undefined && pcRaw !== null) {
    base.values.set('DefaultConfig', applyProxyConfig(v, pcBase, pcRaw, { ...opts, path: joinPath(opts.path, 'defaultConfig') }));
  }
  return base;
}

function joinPath(base: string | undefined, k: string): string {
  return base ? `${base}.${k}` : k;
}

function mergeProviders(prev: GoValue, next: GoValue[]): GoValue {
  // Istio keeps default providers unless the user redefines one with the same name
  const out: GoValue[] = [];
  const names = new Set(next.map((p) => (p && typeof p === 'object' && 'name' in p ? String((p as Record<string, GoValue>).name) : '')));
  for (const p of Array.isArray(prev) ? prev : []) {
    const n = p && typeof p === 'object' && 'name' in p ? String((p as Record<string, GoValue>).name) : '';
    if (!names.has(n)) out.push(p);
  }
  return [...out, ...next];
}

export interface MeshLoadResult {
  mesh: ProtoStruct;
  warnings: MeshWarning[];
  /** The mesh YAML text that was applied (data.mesh of a ConfigMap, or the file itself). */
  text: string;
}

/** The `data.mesh` text of an `istio` ConfigMap object, if obj is one. */
export function meshFromConfigMapObject(obj: unknown): string | undefined {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
  const o = obj as Record<string, unknown>;
  if (o.kind !== 'ConfigMap') return undefined;
  const data = o.data as Record<string, unknown> | undefined;
  const mesh = data && typeof data === 'object' ? data.mesh : undefined;
  return typeof mesh === 'string' ? mesh : undefined;
}

/** The mesh config document of a file: the `istio` ConfigMap's data.mesh (positioned in the file), an
 *  IstioOperator's spec.meshConfig, or MeshConfig YAML itself. Undefined for an empty file or an empty data.mesh. */
export function loadMeshDocument(text: string, file: string): LoadedDocument | undefined {
  return meshSource(text, file).doc;
}

function meshSource(text: string, file: string): { doc: LoadedDocument | undefined; text: string } {
  // MeshConfig YAML itself is read by istiod's sigs.k8s.io/yaml.Unmarshal, which keeps a key written
  // twice last; a ConfigMap (kubectl) or IstioOperator (istioctl) may not write one
  const docs = loadYamlDocumentsByKind(text, file, ['ConfigMap', 'IstioOperator']);
  if (docs.length > 1) throw docs[1]!.errorAt([], `expected one document, found ${docs.length}`);
  const doc = docs[0];
  if (!doc) return { doc, text };
  const v = doc.value as Record<string, unknown> | null;
  if (v && typeof v === 'object' && !Array.isArray(v) && v.kind === 'ConfigMap') {
    const inner = meshFromConfigMapObject(v);
    if (inner === undefined) throw doc.errorAt(v.data ? ['data'] : [], 'ConfigMap has no data.mesh');
    // istiod reads data.mesh with sigs.k8s.io/yaml.Unmarshal: a key written twice keeps the last
    return { doc: doc.embedded(['data', 'mesh'], 'data.mesh', { duplicateKeys: 'last' }), text: inner };
  }
  if (v && typeof v === 'object' && !Array.isArray(v) && v.kind === 'IstioOperator') {
    const part = istioOperatorPart(doc, 'meshConfig');
    return { doc: part ?? undefined, text };
  }
  return { doc, text };
}

/** Load a mesh config from file text: a ConfigMap with data.mesh, or MeshConfig YAML itself. */
export function loadMeshConfig(text: string, v: IstioVersion, opts: { file?: string } = {}): MeshLoadResult {
  const file = opts.file ?? '<mesh>';
  const { doc: meshDoc, text: meshText } = meshSource(text, file);
  const warnings: MeshWarning[] = [];
  try {
    const mesh = applyMeshConfig(v, meshDoc?.value ?? {}, {
      warn: (path, message) => warnings.push({ path: meshDoc ? meshDoc.where(splitPath(path), { key: true }) : file, message }),
    });
    return { mesh, warnings, text: meshText };
  } catch (e) {
    if (e instanceof ProtoParseError) throw meshDoc ? meshDoc.errorAt(splitPath(e.path), e.message) : e;
    throw e;
  }
}
