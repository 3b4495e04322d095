// Which Istio release a workload is injected by, as far as the input tells, and the remedies that
// release has. A fix must be something the pod's release can do: a hold that 1.6 lacks, or a
// per-pod hold that 1.7 reads only from values, would send the user after a setting that does nothing.

import { detectIstioVersion } from '../istio/version.js';
import { PROXY } from './workload.js';
import { CURRENT_LISTENERS, type Listeners } from './shell.js';
import { asArray, asString, get, getIn, type JsonObject } from './types.js';

export interface Release {
  major: number;
  minor: number;
  patch?: number;
  /** `1.9.0`, or `1.7` when only the minor release is known. */
  text: string;
  /** Where it was read: `the proxy image docker.io/istio/proxyv2:1.9.0`, `the injector template (reads ...)`. */
  from: string;
  /** Only the oldest release consistent with what was read (template detection). */
  lowerBound: boolean;
}

export function releaseAtLeast(r: Release | undefined, major: number, minor: number): boolean {
  if (!r) return true; // unknown: the current remedies, with the release they need named
  return r.major !== major ? r.major > major : r.minor >= minor;
}

/** Older than major.minor for certain (a lower bound from a template is not certain). */
export function releaseBefore(r: Release | undefined, major: number, minor: number): boolean {
  return !!r && !r.lowerBound && !releaseAtLeast(r, major, minor);
}

/** `1.9.0` from an image reference such as `docker.io/istio/proxyv2:1.9.0-distroless`. */
export function releaseFromImage(image: string): Pick<Release, 'major' | 'minor' | 'patch'> | undefined {
  const m = /:v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+][\w.-]*)?(?:@sha256:[0-9a-f]+)?$/.exec(image);
  if (!m || Number(m[1]) !== 1) return undefined;
  return { major: 1, minor: Number(m[2]), patch: m[3] !== undefined ? Number(m[3]) : undefined };
}

function fmt(v: Pick<Release, 'major' | 'minor' | 'patch'>): string {
  return v.patch !== undefined ? `${v.major}.${v.minor}.${v.patch}` : `${v.major}.${v.minor}`;
}

/**
 * The release behind a pod: an injected proxy's image tag, else the injector values' `global.tag`,
 * else the oldest release the injector template can be (what it reads tells).
 */
export function podRelease(spec: JsonObject, values: JsonObject, injectorConfig: unknown): Release | undefined {
  for (const field of ['containers', 'initContainers']) {
    for (const c of asArray(get(spec, field))) {
      if (get(c, 'name') !== PROXY) continue;
      const image = asString(get(c, 'image'));
      const v = image ? releaseFromImage(image) : undefined;
      if (v) return { ...v, text: fmt(v), from: `the proxy image ${image}`, lowerBound: false };
    }
  }
  const tag = getIn(values, ['global', 'tag']);
  if (typeof tag === 'string' || typeof tag === 'number') {
    const v = releaseFromImage(`:${String(tag)}`);
    if (v) return { ...v, text: fmt(v), from: `values global.tag ${String(tag)}`, lowerBound: false };
  }
  if (typeof injectorConfig === 'string') {
    const d = detectIstioVersion(injectorConfig, values);
    if (d && !d.version.master) {
      const v = { major: d.version.major, minor: d.version.minor };
      return { ...v, text: fmt(v), from: `the injector template, which ${d.reason}`, lowerBound: true };
    }
  }
  return undefined;
}

/** What an injector template can do about start order, read from its text. */
export interface TemplateFeatures {
  /** Where it reads the hold from: ProxyConfig (pod annotation or mesh, 1.8+), values only (1.7), or nowhere. */
  hold: 'proxyConfig' | 'values' | 'none';
  /** It can render the proxy as a native sidecar (1.19+). */
  native: boolean;
  /** It reads the per-pod `sidecar.istio.io/nativeSidecar` annotation (1.24+). */
  nativeAnnotation: boolean;
}

export function templateFeatures(configText: string): TemplateFeatures {
  return {
    hold: /\.HoldApplicationUntilProxyStarts\b/.test(configText) ? 'proxyConfig' : /holdApplicationUntilProxyStarts/.test(configText) ? 'values' : 'none',
    native: /ENABLE_NATIVE_SIDECARS|\.NativeSidecars\b|sidecar\.istio\.io\/nativeSidecar/.test(configText),
    nativeAnnotation: /sidecar\.istio\.io\/nativeSidecar/.test(configText),
  };
}

/** The value of `--flag N` or `--flag=N` among a container's args. */
function argValue(args: string[], flag: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === flag) return args[i + 1];
    if (args[i]!.startsWith(`${flag}=`)) return args[i]!.slice(flag.length + 1);
  }
  return undefined;
}

const listenerModels = new Map<string, Listeners>();

/**
 * The sockets the pod's proxy listens on while it runs, as far as its release and its args tell:
 * pilot-agent's status port exists from 1.0.6 and the templates before 1.6 passed `--statusPort` only
 * when it was on (the values' statusPort was 0 in 1.0.x), so an older proxy without the flag has none;
 * Envoy's readiness port 15021 came in 1.6, and an older proxy's inbound (15006) and stats (15090)
 * ports are counted when its init container's args and its ports show them. A current or unknown
 * release gets the current sockets.
 */
export function proxyListeners(spec: JsonObject, release: Release | undefined, proxyConfig: JsonObject): Listeners {
  const containers = [...asArray(get(spec, 'initContainers')), ...asArray(get(spec, 'containers'))];
  const proxy = containers.find((c) => get(c, 'name') === PROXY);
  const args = asArray(get(proxy, 'args')).map(String);
  const flag = argValue(args, '--statusPort');
  const old = !!release && !release.lowerBound && !releaseAtLeast(release, 1, 6);
  if (flag === undefined && !old) {
    const port = get(proxyConfig, 'statusPort');
    if (port === undefined || port === 15020) return CURRENT_LISTENERS;
  }
  const sockets: [string, number][] = [['envoy', 15000], ['envoy', 15001]];
  const init = containers.find((c) => get(c, 'name') === 'istio-init');
  if (!old || asArray(get(init, 'args')).map(String).includes('15006')) sockets.push(['envoy', 15006]);
  let agentWhy: string | undefined;
  const statusPort = flag !== undefined ? Number(flag) : old ? 0 : Number(get(proxyConfig, 'statusPort'));
  if (Number.isInteger(statusPort) && statusPort > 0) {
    sockets.push(['pilot-agent', statusPort]);
    agentWhy = flag !== undefined ? `--statusPort ${statusPort}` : `statusPort ${statusPort}`;
  }
  if (!old) sockets.push(['envoy', 15021]);
  if (!old || asArray(get(proxy, 'ports')).some((p) => get(p, 'containerPort') === 15090)) sockets.push(['envoy', 15090]);
  const key = JSON.stringify([sockets, agentWhy]);
  let model = listenerModels.get(key);
  if (!model) listenerModels.set(key, (model = { sockets, ...(agentWhy ? { agentWhy } : {}) }));
  return model;
}
