// The functions istiod adds on top of Sprig when it parses injection templates
// (pkg/kube/inject/template.go: template.New("inject").Funcs(sprig.TxtFuncMap()).Funcs(injectionFuncmap)).
// Where Istio's function shares a name with Sprig's, Istio's wins:
//   indent      leaves the first line alone (the template supplies its indentation)
//   toYaml      sigs.k8s.io/yaml output with its trailing newline kept; "" when marshalling fails
//   contains    (needle, haystack): the reverse of Sprig's argument order
//   env         reads the environment map the caller gives, never the process environment
// Functions that take Kubernetes types (annotation, includeInboundPorts, applicationPorts) declare
// the Go types of src/k8s, so a wrong argument fails the way Go's reflection does.
//
// Mirrors: istio.io/istio pkg/kube/inject/template.go
// Proven by: test/vectors/istio/

import {
  GoFunc,
  GoNil,
  GoNum,
  GoStruct,
  GO_TYPE,
  MAP_STRING_IFACE,
  MAP_STRING_STRING,
  SLICE_IFACE,
  T,
  def,
  funcMap,
  isMap,
  mapGet,
  mapHas,
  newMap,
  sliceOf,
  withType,
  type FuncMap,
  type GoMap,
  type GoType,
  type GoValue,
} from '../go/reflect/value.js';
import { sprint } from '../go/fmt/print.js';
import { normalizeGoString } from '../go/strconv/strconv.js';
import { goJsonMarshal, goJsonUnmarshal } from '../go/encoding/json/json.js';
import { toYaml as goYamlMarshal } from '../yaml/emit.js';
import { sprigFuncs } from '../sprig/index.js';
import { goLower } from '../sprig/strings.js';
import { ObjectMeta } from '../k8s/meta.js';
import { Container } from '../k8s/core.js';
import { rethrowLimit } from '../guard/limits.js';

export interface IstioFuncOptions {
  /** What `env` (and Sprig's expandenv) read; istiod's process environment in a cluster. */
  env?: Record<string, string>;
  /**
   * protoToJSON for protobuf messages (ProxyConfig and its parts): istio's protomarshal.ToJSON after
   * dropping the fields equal to Istio's defaults. Without it, structs are marshalled as encoding/json would.
   */
  protoToJSON?: (msg: GoValue) => string | undefined;
  /**
   * Istio 1.5-1.7's `render`: parse the argument as a template with the same functions and execute it
   * with the same data; "" on any error. Present only when given.
   */
  render?: (text: string) => string;
  /** Istio up to 1.8 also mapped Sprig's name `toJson` to its own toJSON(map[string]string). */
  legacyToJson?: boolean;
  /**
   * appendMultusNetwork reads `namespace/name` and writes `{"name": N, "namespace": NS}` (master); before,
   * the network is one name, written and compared whole (Istio 1.24's goldens: `{"name": "default/istio-cni"}`).
   */
  multusNamespaced?: boolean;
  /**
   * Istio functions the release does not have (appendMultusNetwork before 1.8, omit before 1.18, ...):
   * left out, so a template using one fails to parse as it does in that istiod (or gets Sprig's, for omit).
   */
  absent?: ReadonlySet<string>;
  /** toYaml folds long strings at 80 columns (false: gopkg.in/yaml.v2 v2.3.0, which did not). */
  yamlLineWrap?: boolean;
  /** Clock for Sprig's date functions. */
  now?: () => Date;
  /** Random source for Sprig's random functions. */
  random?: () => number;
}

const CONTAINERS = sliceOf(Container);

function fn(name: string, params: GoType[], result: GoType, impl: (...args: GoValue[]) => GoValue, variadic = false): GoFunc {
  return new GoFunc(name, params, variadic, 1, result, impl);
}

function stringMap(entries: Iterable<[string, string]>): GoMap {
  const m = newMap();
  for (const [k, v] of entries) m[k] = v;
  return withType(m, MAP_STRING_STRING);
}

function entriesOf(m: GoValue): [string, string][] {
  if (!isMap(m)) return [];
  return Object.keys(m).map((k) => [k, String(m[k])]);
}

function field(s: GoValue, name: string): GoValue {
  return s instanceof GoStruct ? s.field(name) : undefined;
}

function intOf(v: GoValue): bigint {
  if (typeof v === 'bigint') return v;
  if (v instanceof GoNum) return typeof v.v === 'bigint' ? v.v : BigInt(Math.trunc(v.v));
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  return 0n;
}

/** time.Duration.String. */
export function goDurationString(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const neg = nanos < 0n;
  let u = neg ? -nanos : nanos;
  let out: string;
  if (u < 1_000_000_000n) {
    // sub-second: ns, µs or ms with a fraction
    let unit: string;
    let prec: number;
    if (u < 1000n) return (neg ? '-' : '') + u.toString() + 'ns';
    if (u < 1_000_000n) {
      unit = 'µs';
      prec = 3;
    } else {
      unit = 'ms';
      prec = 6;
    }
    out = fraction(u, prec) + unit;
  } else {
    const secNanos = u % 60_000_000_000n;
    u = u / 60_000_000_000n;
    out = fraction(secNanos, 9) + 's';
    if (u > 0n) {
      out = (u % 60n).toString() + 'm' + out;
      u = u / 60n;
      if (u > 0n) out = u.toString() + 'h' + out;
    }
  }
  return (neg ? '-' : '') + out;
}

/** v / 10^prec printed without trailing zeros (and without a dot when whole). */
function fraction(v: bigint, prec: number): string {
  const div = 10n ** BigInt(prec);
  const whole = v / div;
  let frac = (v % div).toString().padStart(prec, '0').replace(/0+$/, '');
  return whole.toString() + (frac ? '.' + frac : '');
}

/** path.Split's directory: everything up to and including the last slash. */
function directory(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i + 1);
}

function indent(spaces: bigint, source: string): string {
  // Istio builds "% Ns%s"; a negative N is the '-' flag with the same width, 0 is no padding.
  const n = Number(spaces < 0n ? -spaces : spaces);
  return source.replaceAll('\n', '\n' + ' '.repeat(n));
}

function excludeInboundPort(port: GoValue, excluded: string): string {
  const portStr = sprint([port]).trim();
  if (portStr.length === 0 || portStr === '0') return excluded;
  const out: string[] = [];
  for (const raw of excluded.split(',')) {
    if (raw === portStr) return excluded;
    const p = raw.trim();
    if (p.length > 0) out.push(p);
  }
  out.push(portStr);
  return out.join(',');
}

function containerPorts(containers: GoValue, include: (c: GoValue) => boolean): string {
  const parts: string[] = [];
  if (!Array.isArray(containers)) return '';
  for (const c of containers) {
    if (!include(c)) continue;
    const ports = field(c, 'Ports');
    if (!Array.isArray(ports)) continue;
    for (const p of ports) {
      const proto = field(p, 'Protocol');
      if (proto === 'UDP' || proto === 'SCTP') continue;
      parts.push(intOf(field(p, 'ContainerPort')).toString());
    }
  }
  return parts.join(',');
}

function appendMultusNetwork(existing: string, network: string, namespaced = true): string {
  if (existing === '') return network;
  const i = existing.lastIndexOf(']');
  if (i !== -1) {
    let nets: GoValue;
    try {
      nets = goJsonUnmarshal(existing);
    } catch (e) {
      rethrowLimit(e);
      return existing;
    }
    // Go decodes into []map[string]interface{}: anything else is an unmarshal error.
    if (nets !== null && !Array.isArray(nets)) return existing;
    const list = (nets ?? []) as GoValue[];
    if (list.some((n) => n !== null && !isMap(n))) return existing;
    if (!namespaced) {
      for (const n of list) if (isMap(n) && mapGet(n, 'name') === network) return existing;
      return existing.slice(0, i) + `, {"name": "${network}"}` + existing.slice(i);
    }
    const slash = network.indexOf('/');
    const ns = slash >= 0 ? network.slice(0, slash) : '';
    const name = slash >= 0 ? network.slice(slash + 1) : network;
    for (const n of list) {
      if (!isMap(n) || mapGet(n, 'name') !== name) continue;
      const nns = mapGet(n, 'namespace');
      if ((nns === undefined || nns === null ? '' : nns) === ns) return existing;
    }
    const add = ns === '' ? `, {"name": "${name}"}` : `, {"name": "${name}", "namespace": "${ns}"}`;
    return existing.slice(0, i) + add + existing.slice(i);
  }
  for (const n of existing.split(',')) if (n.trim() === network) return existing;
  return existing + ', ' + network;
}

function isIfaceMap(v: GoValue): v is GoMap {
  return isMap(v) && ((v as GoMap)[GO_TYPE] ?? MAP_STRING_IFACE) === MAP_STRING_IFACE;
}

function isIfaceSlice(v: GoValue): v is GoValue[] {
  return Array.isArray(v) && ((v as { [GO_TYPE]?: GoType })[GO_TYPE] ?? SLICE_IFACE) === SLICE_IFACE;
}

/** Istio's omitNil: [changed, result]; only map[string]interface{} and []interface{} are walked. */
function omitNilInternal(v: GoValue): [GoValue, boolean] {
  if (v === null) return [null, true];
  if (isIfaceMap(v)) {
    const keys = Object.keys(v);
    if (!keys.some((k) => omitNilInternal(v[k]!)[1])) return [v, false];
    const out = newMap();
    for (const k of keys) {
      const f = omitNilInternal(v[k]!)[0];
      if (f !== null) out[k] = f;
    }
    return Object.keys(out).length === 0 ? [null, true] : [out, true];
  }
  if (isIfaceSlice(v)) {
    if (!v.some((e) => omitNilInternal(e)[1])) return [v, false];
    const out = v.map((e) => omitNilInternal(e)[0]).filter((e) => e !== null);
    return out.length === 0 ? [null, true] : [out, true];
  }
  return [v, false];
}

function mergeMaps(maps: GoValue[]): GoValue {
  if (maps.length === 0) return new GoNil(MAP_STRING_STRING);
  const out = newMap();
  for (const m of maps) for (const [k, v] of entriesOf(m)) out[k] = v;
  return withType(out, MAP_STRING_STRING);
}

/** The service attributes of the OpenTelemetry Kubernetes conventions, when the mesh asks for them. */
function otelResourceAttributes(mesh: GoValue, annotations: GoValue, labels: GoValue, namespace: string, containers: GoValue): string {
  if (!otelEnrichment(mesh)) return '';
  const get = (m: GoValue, k: string) => (isMap(m) ? String(mapGet(m, k) ?? '') : '');
  const first = (...vs: string[]) => vs.find((v) => v !== '') ?? '';
  const attrs: string[] = [];
  // values as written (no escaping), as Istio at head joins them
  const add = (k: string, v: string) => {
    if (v !== '') attrs.push(`${k}=${v}`);
  };
  const list = Array.isArray(containers) ? containers : [];
  add('service.namespace', first(get(annotations, 'resource.opentelemetry.io/service.namespace'), namespace));
  let version = first(get(annotations, 'resource.opentelemetry.io/service.version'), get(labels, 'app.kubernetes.io/version'));
  if (version === '' && list.length === 1) version = imageVersion(String(field(list[0]!, 'Image') ?? ''));
  add('service.version', version);
  // the pod name is not known at injection: Kubernetes substitutes $(POD_NAME) in the proxy's env
  const instance = get(annotations, 'resource.opentelemetry.io/service.instance.id');
  if (instance !== '') add('service.instance.id', instance);
  else if (list.length > 0) attrs.push(`service.instance.id=${namespace}.$(POD_NAME).${String(field(list[0]!, 'Name') ?? '')}`);
  return attrs.join(',');
}

function otelEnrichment(mesh: GoValue): boolean {
  const providers = isMap(mesh) ? mapGet(mesh, 'extensionProviders') : field(mesh, 'ExtensionProviders');
  if (!Array.isArray(providers)) return false;
  return providers.some((p) => {
    const otel = isMap(p) ? mapGet(p, 'opentelemetry') : undefined;
    return isMap(otel) && mapGet(otel, 'serviceAttributeEnrichment') === 'OTEL_SEMANTIC_CONVENTIONS';
  });
}

function imageVersion(image: string): string {
  let digest = '';
  const at = image.indexOf('@');
  if (at >= 0) {
    digest = image.slice(at + 1);
    image = image.slice(0, at);
  }
  const colon = image.lastIndexOf(':');
  const tag = colon > image.lastIndexOf('/') ? image.slice(colon + 1) : '';
  if (tag && digest) return `${tag}@${digest}`;
  return digest || tag;
}

function durationNanos(d: GoValue): bigint {
  if (!(d instanceof GoStruct)) return 0n;
  return intOf(d.field('Seconds')) * 1_000_000_000n + intOf(d.field('Nanos'));
}

/** Istio's own functions only (without Sprig underneath). */
export function istioOnlyFuncs(opts: IstioFuncOptions = {}): FuncMap {
  const env = opts.env ?? {};
  const m: FuncMap = Object.create(null);
  const add = (f: GoFunc) => {
    m[f.name] = f;
  };
  add(def('formatDuration', 'func(interface {}) string', (d: GoValue) => goDurationString(durationNanos(d))));
  add(def('isset', 'func(map[string]string, string) bool', (mp: GoValue, key: string) => isMap(mp) && mapHas(mp, key)));
  add(def('excludeInboundPort', 'func(interface {}, string) string', excludeInboundPort));
  add(fn('includeInboundPorts', [CONTAINERS], T.string, (cs) => containerPorts(cs, () => true)));
  add(fn('applicationPorts', [CONTAINERS], T.string, (cs) => containerPorts(cs, (c) => field(c, 'Name') !== 'istio-proxy')));
  add(def('kubevirtInterfaces', 'func(string) string', (s: string) => s));
  add(def('excludeInterfaces', 'func(string) string', (s: string) => s));
  add(
    fn('annotation', [ObjectMeta, T.string, T.iface], T.string, (meta, name, dflt) => {
      const annos = field(meta, 'Annotations');
      if (isMap(annos) && mapHas(annos, name as string)) return String(annos[name as string]);
      // fmt.Sprint of one string is that string
      return typeof dflt === 'string' ? normalizeGoString(dflt) : sprint([dflt ?? null]);
    }),
  );
  add(
    def('valueOrDefault', 'func(interface {}, interface {}) interface {}', (value: GoValue, dflt: GoValue) =>
      value === '' || value === null || value === undefined ? dflt : value,
    ),
  );
  add(
    def('toJSON', 'func(map[string]string) string', (mp: GoValue) => {
      if (!isMap(mp)) return '{}';
      try {
        return goJsonMarshal(mp);
      } catch (e) {
        rethrowLimit(e);
        return '{}';
      }
    }),
  );
  add(
    def('fromJSON', 'func(string) interface {}', (j: string) => {
      try {
        return goJsonUnmarshal(j);
      } catch (e) {
        rethrowLimit(e);
        return '{}';
      }
    }),
  );
  const structToJSON = (v: GoValue) => {
    if (v === null || v === undefined) return '{}';
    try {
      return goJsonMarshal(v);
    } catch (e) {
      rethrowLimit(e);
      return '{}';
    }
  };
  add(def('structToJSON', 'func(interface {}) string', structToJSON));
  add(
    def('protoToJSON', 'func(interface {}) string', (v: GoValue) => {
      // jsonpb refuses a nil message; Istio logs that and answers "{}".
      if (v === null || v === undefined || v instanceof GoNil) return '{}';
      const s = opts.protoToJSON?.(v);
      return s ?? structToJSON(v);
    }),
  );
  add(
    def('toYaml', 'func(interface {}) string', (v: GoValue) => {
      try {
        return goYamlMarshal(v, { lineWrap: opts.yamlLineWrap ?? true });
      } catch (e) {
        rethrowLimit(e);
        return '';
      }
    }),
  );
  add(def('indent', 'func(int, string) string', indent));
  add(def('directory', 'func(string) string', directory));
  add(def('contains', 'func(string, string) bool', (needle: string, haystack: string) => haystack.includes(needle)));
  add(def('toLower', 'func(string) string', goLower));
  add(def('appendMultusNetwork', 'func(string, string) string', (e: string, n: string) => appendMultusNetwork(e, n, opts.multusNamespaced ?? true)));
  add(
    def('env', 'func(string, string) string', (key: string, dflt: string) => {
      const v = Object.prototype.hasOwnProperty.call(env, key) ? env[key]! : '';
      return v === '' ? dflt : v;
    }),
  );
  add(
    def('omit', 'func(map[string]string, ...string) map[string]string', (mp: GoValue, ...keys: string[]) =>
      stringMap(entriesOf(mp).filter(([k]) => !keys.includes(k))),
    ),
  );
  add(
    def('strdict', 'func(...string) map[string]string', (...v: string[]) => {
      const out: [string, string][] = [];
      for (let i = 0; i < v.length; i += 2) out.push([v[i]!, i + 1 < v.length ? v[i + 1]! : '']);
      return stringMap(out);
    }),
  );
  add(
    def('toJsonMap', 'func(...map[string]string) string', (...maps: GoValue[]) => {
      try {
        return goJsonMarshal(mergeMaps(maps));
      } catch (e) {
        rethrowLimit(e);
        return '';
      }
    }),
  );
  add(def('mergeMaps', 'func(...map[string]string) map[string]string', (...maps: GoValue[]) => mergeMaps(maps)));
  add(def('omitNil', 'func(interface {}) interface {}', (v: GoValue) => omitNilInternal(v)[0]));
  add(
    fn(
      'otelResourceAttributes',
      [T.iface, MAP_STRING_STRING, MAP_STRING_STRING, T.string, CONTAINERS],
      T.string,
      (mesh, annos, labels, ns, cs) => otelResourceAttributes(mesh, annos, labels, ns as string, cs),
    ),
  );
  if (opts.render) {
    const render = opts.render;
    add(def('render', 'func(string) string', (text: string) => render(text)));
  }
  if (opts.legacyToJson) add(new GoFunc('toJson', m.toJSON!.params, false, 1, T.string, m.toJSON!.fn));
  for (const name of opts.absent ?? []) delete m[name];
  return m;
}

/** The whole set istiod parses injection templates with: Sprig's text functions overlaid with Istio's. */
export function istioFuncs(opts: IstioFuncOptions = {}): FuncMap {
  const sprigOpts: { env: Record<string, string>; now?: () => Date; random?: () => number } = { env: opts.env ?? {} };
  if (opts.now) sprigOpts.now = opts.now;
  if (opts.random) sprigOpts.random = opts.random;
  return funcMap(sprigFuncs(sprigOpts), istioOnlyFuncs(opts));
}

