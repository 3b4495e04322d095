// What Istio configuration says about one workload: is hold requested and by whom, are native
// sidecars requested, is the proxy lifecycle overridden, how long does the proxy drain.

import { parse as parseYaml } from 'yaml';
import { evidenceIn, type IstioConfig, type Sourced } from './context.js';
import { parseEmbedded } from './input.js';
import { PROXY, type Workload } from './workload.js';
import { PROXY_CONFIG_ANNOTATION } from '../istio/data.js';
import { boolField, holdOf } from '../istio/inject.js';
import { asArray, asString, get, getIn, isObject, isTrue, kubeAtLeast, lazyEvidence, type Evidence, type JsonObject, type KubeVersion, type PathSeg } from './types.js';

export { PROXY_CONFIG_ANNOTATION };
export const NATIVE_ANNOTATION = 'sidecar.istio.io/nativeSidecar';

export interface HoldSource {
  /** `values global.proxy.holdApplicationUntilProxyStarts`, `mesh defaultConfig...`, `annotation proxy.istio.io/config`. */
  what: string;
  value: boolean;
  evidence: Evidence;
}

export interface Settings {
  hold: { requested: boolean; sources: HoldSource[]; evidence?: Evidence };
  native: { requested: boolean; evidence?: Evidence };
  /** A lifecycle for the proxy that replaces the template's own (values or a pod-level override). */
  customLifecycle?: { value: JsonObject; evidence: Evidence; from: 'values' | 'pod' };
  /** ProxyConfig after the pod annotation is applied over the mesh default. */
  proxyConfig: JsonObject;
  proxyConfigEvidence: (key: string) => Evidence | undefined;
  /** `.Values` as the injector sees them (explicit values over the injector ConfigMap's). */
  values: JsonObject;
  valueEvidence: (path: string[]) => Evidence | undefined;
  /** The pod's `proxy.istio.io/config`, parsed. */
  annotationProxyConfig?: JsonObject;
}

/** The values the injector sees, as the one resolver merged them (src/inputs/resolve.ts). */
export function effectiveValues(cfg: IstioConfig): JsonObject {
  return cfg.resolvedValues;
}

function valueSource(cfg: IstioConfig, path: string[]): Sourced<JsonObject> | undefined {
  for (const layer of [...(cfg.valueLayers ?? [])].reverse()) if (getIn(layer.value, path) !== undefined) return layer;
  if (cfg.values && getIn(cfg.values.value, path) !== undefined) return cfg.values;
  if (cfg.valuesReplace && cfg.values) return undefined;
  if (cfg.injector?.values && getIn(cfg.injector.values.value, path) !== undefined) return cfg.injector.values;
  return undefined;
}

/** Path of the pod template inside the workload object (relative to the object itself). */
function podRel(w: Workload): PathSeg[] {
  return w.podPath.slice(w.object.path.length);
}

export function podEvidence(w: Workload, rel: PathSeg[], shown: string): Evidence {
  return lazyEvidence(() => {
    const p = w.object.locator.pos([...w.podPath, ...rel]);
    const path = `${w.id}:${shown}`;
    return p ? { file: w.object.locator.file, line: p.line, col: p.col, path } : { path };
  });
}

/** `spec.template.spec` for a Deployment, `spec` for a Pod: how users see the pod spec's path. */
export function podSpecPrefix(w: Workload): string {
  const rel = podRel(w).map(String);
  return [...rel, 'spec'].join('.');
}

export function computeSettings(w: Workload, cfg: IstioConfig, opts: { nativeSidecars?: boolean; kubeVersion?: KubeVersion }): Settings {
  const values = effectiveValues(cfg);
  const valueEvidence = (path: string[]): Evidence | undefined => {
    const src = valueSource(cfg, path);
    return src ? evidenceIn(src, path, `values ${path.join('.')}`) : undefined;
  };

  // the pod annotation overrides the mesh default, key by key
  let annotationProxyConfig: JsonObject | undefined;
  let annotationLocator: ((key: string) => Evidence) | undefined;
  const ann = w.annotations[PROXY_CONFIG_ANNOTATION];
  if (ann !== undefined) {
    const annPath = [...podRel(w), 'metadata', 'annotations', PROXY_CONFIG_ANNOTATION];
    let parsed: unknown;
    try {
      parsed = parseYaml(ann);
    } catch {
      parsed = undefined;
    }
    if (isObject(parsed)) {
      annotationProxyConfig = parsed;
      annotationLocator = (key: string) =>
        lazyEvidence(() => {
          let p: { line: number; col: number } | undefined;
          try {
            p = parseEmbedded(w.object, annPath, `annotation ${PROXY_CONFIG_ANNOTATION}`)?.locator.pos([key]);
          } catch {
            p = undefined;
          }
          const shown = `${w.id}:metadata.annotations[${PROXY_CONFIG_ANNOTATION}].${key}`;
          return p ? { file: w.object.locator.file, line: p.line, col: p.col, path: shown } : podEvidence(w, ['metadata', 'annotations', PROXY_CONFIG_ANNOTATION], `metadata.annotations[${PROXY_CONFIG_ANNOTATION}]`);
        });
    }
  }
  // an injected proxy carries the ProxyConfig it was given
  const envProxyConfig = injectedProxyConfig(w.spec);
  const meshDefault = getIn(cfg.mesh?.value, ['defaultConfig']);
  const proxyConfig: JsonObject = {
    ...(isObject(meshDefault) ? meshDefault : {}),
    ...(envProxyConfig ?? {}),
    ...(annotationProxyConfig ?? {}),
  };
  const proxyConfigEvidence = (key: string): Evidence | undefined => {
    if (annotationProxyConfig && key in annotationProxyConfig && annotationLocator) return annotationLocator(key);
    if (envProxyConfig && key in envProxyConfig) return proxyEnvEvidence(w, 'PROXY_CONFIG');
    if (isObject(meshDefault) && key in meshDefault && cfg.mesh) return evidenceIn(cfg.mesh, ['defaultConfig', key], `mesh defaultConfig.${key}`);
    return undefined;
  };

  // hold: values OR the ProxyConfig (annotation over mesh), as the template's $holdProxy reads them
  const sources: HoldSource[] = [];
  const HOLD = 'holdApplicationUntilProxyStarts';
  const valuesHold = getIn(values, ['global', 'proxy', HOLD]);
  if (valuesHold !== undefined) {
    sources.push({ what: `values global.proxy.${HOLD}`, value: boolField(valuesHold) === true, evidence: valueEvidence(['global', 'proxy', HOLD])! });
  }
  if (isObject(meshDefault) && get(meshDefault, HOLD) !== undefined && cfg.mesh) {
    sources.push({ what: `mesh defaultConfig.${HOLD}`, value: boolField(get(meshDefault, HOLD)) === true, evidence: evidenceIn(cfg.mesh, ['defaultConfig', HOLD], `mesh defaultConfig.${HOLD}`) });
  }
  if (envProxyConfig && get(envProxyConfig, HOLD) !== undefined) {
    sources.push({ what: `injected PROXY_CONFIG ${HOLD}`, value: boolField(get(envProxyConfig, HOLD)) === true, evidence: proxyEnvEvidence(w, 'PROXY_CONFIG') });
  }
  if (annotationProxyConfig && get(annotationProxyConfig, HOLD) !== undefined) {
    sources.push({ what: `annotation ${PROXY_CONFIG_ANNOTATION} ${HOLD}`, value: boolField(get(annotationProxyConfig, HOLD)) === true, evidence: annotationLocator!(HOLD) });
  }
  const pcHold = get(proxyConfig, HOLD);
  const holdRequested = holdOf(valuesHold, pcHold);
  const decisive = boolField(valuesHold) === true ? sources[0] : sources.filter((s) => s.value && !s.what.startsWith('values')).pop();

  // native sidecars: the pod annotation, else istiod's ENABLE_NATIVE_SIDECARS
  let native = false;
  let nativeEvidence: Evidence | undefined;
  const nativeAnn = w.annotations[NATIVE_ANNOTATION];
  if (nativeAnn !== undefined) {
    native = nativeAnn === 'true';
    nativeEvidence = podEvidence(w, ['metadata', 'annotations', NATIVE_ANNOTATION], `metadata.annotations[${NATIVE_ANNOTATION}]`);
  } else {
    const env = getIn(values, ['pilot', 'env', 'ENABLE_NATIVE_SIDECARS']);
    if (env !== undefined) {
      native = isTrue(env);
      nativeEvidence = valueEvidence(['pilot', 'env', 'ENABLE_NATIVE_SIDECARS']);
    } else if (opts.nativeSidecars !== undefined) {
      native = opts.nativeSidecars;
      nativeEvidence = { path: '--native-sidecars' };
    } else if (opts.kubeVersion && kubeAtLeast(opts.kubeVersion, 1, 33)) {
      // Istio 1.27+ turns native sidecars on by itself where the kubelet is 1.33 or newer
      native = true;
      nativeEvidence = { path: `--kube-version ${opts.kubeVersion.join('.')}` };
    }
  }

  // a lifecycle that replaces the template's: values, or a pod-level istio-proxy override
  let customLifecycle: Settings['customLifecycle'];
  const valuesLifecycle = getIn(values, ['global', 'proxy', 'lifecycle']);
  if (isObject(valuesLifecycle) && Object.keys(valuesLifecycle).length > 0) {
    customLifecycle = { value: valuesLifecycle, evidence: valueEvidence(['global', 'proxy', 'lifecycle'])!, from: 'values' };
  }
  asArray(get(w.spec, 'containers')).forEach((c, i) => {
    if (get(c, 'name') === PROXY && isObject(get(c, 'lifecycle')) && !customLifecycle) {
      customLifecycle = {
        value: get(c, 'lifecycle') as JsonObject,
        evidence: podEvidence(w, ['spec', 'containers', i, 'lifecycle'], `${podSpecPrefix(w)}.containers[${PROXY}].lifecycle`),
        from: 'pod',
      };
    }
  });

  return {
    hold: { requested: holdRequested, sources, evidence: decisive?.evidence },
    native: { requested: native, evidence: nativeEvidence },
    customLifecycle,
    proxyConfig,
    proxyConfigEvidence,
    values,
    valueEvidence,
    annotationProxyConfig,
  };
}

function proxyEnvEvidence(w: Workload, name: string): Evidence {
  for (const field of ['containers', 'initContainers'] as const) {
    const list = asArray(get(w.spec, field));
    for (let i = 0; i < list.length; i++) {
      if (get(list[i], 'name') !== PROXY) continue;
      const env = asArray(get(list[i], 'env'));
      const j = env.findIndex((e) => get(e, 'name') === name);
      if (j >= 0) return podEvidence(w, ['spec', field, i, 'env', j], `${podSpecPrefix(w)}.${field}[${PROXY}].env[${name}]`);
    }
  }
  return { path: `${w.id}:env ${name}` };
}

/** The `PROXY_CONFIG` env of an already-injected proxy (JSON of the pod's ProxyConfig). */
function injectedProxyConfig(spec: JsonObject): JsonObject | undefined {
  for (const field of ['containers', 'initContainers'] as const) {
    for (const c of asArray(get(spec, field))) {
      if (get(c, 'name') !== PROXY) continue;
      for (const e of asArray(get(c, 'env'))) {
        if (get(e, 'name') !== 'PROXY_CONFIG') continue;
        const v = asString(get(e, 'value'));
        if (!v) continue;
        try {
          const parsed: unknown = JSON.parse(v);
          if (isObject(parsed)) return parsed;
        } catch {
          try {
            const parsed: unknown = parseYaml(v);
            if (isObject(parsed)) return parsed;
          } catch {
            // not ours to judge
          }
        }
      }
    }
  }
  return undefined;
}

/** A Go/protobuf duration (`5s`, `1m30s`, `500ms`) or a number of seconds, in seconds. */
export function durationSeconds(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (isObject(v)) {
    const s = get(v, 'seconds');
    if (typeof s === 'number' || typeof s === 'string') return Number(s) + Number(get(v, 'nanos') ?? 0) / 1e9;
    return undefined;
  }
  if (typeof v !== 'string') return undefined;
  const str = v.trim();
  if (/^\d+(\.\d+)?$/.test(str)) return Number(str);
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(str); m; m = re.exec(str)) {
    const k = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 }[m[2] as 's'];
    total += Number(m[1]) * k;
    consumed += m[0].length;
  }
  return consumed === str.length && consumed > 0 ? total : undefined;
}
