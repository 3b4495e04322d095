// The Istio configuration a workload is injected with: the mesh config (`istio` ConfigMap or --mesh),
// the injector values and template (`istio-sidecar-injector` ConfigMap, IstioOperator, --values,
// --injector-configmap). ConfigMaps found in the input apply to the workloads of that input, as
// they would in the cluster; flags override them.

import { parseEmbedded, InputError, type InputObject } from './input.js';
import type { IstioVersion } from '../istio/version.js';
import { get, getIn, isObject, lazyEvidence, type JsonObject, type Locator, type PathSeg, type Evidence, type KubeVersion } from './types.js';

/** A configuration document plus where it came from, so findings can point into it. */
export interface Sourced<T> {
  value: T;
  locator: Locator;
  /** Path of `value` inside the locator's document. */
  base: PathSeg[];
  /** Human name of the source: `ConfigMap istio-system/istio`, `--values values.yaml`. */
  origin: string;
}

export interface InjectorConfigMap {
  /** The ConfigMap object as given (renderers take it whole). */
  object: JsonObject;
  /** `data.config` parsed (policy, template or templates, ...). */
  config?: JsonObject;
  values?: Sourced<JsonObject>;
  origin: string;
}

export interface IstioConfig {
  mesh?: Sourced<JsonObject>;
  values?: Sourced<JsonObject>;
  /** `values` replace the injector ConfigMap's data.values (as --values does) instead of merging over them. */
  valuesReplace?: boolean;
  /** Merged over the values in order with Helm's rules (--values-file, IstioOperator files, --set). */
  valueLayers?: Sourced<JsonObject>[];
  injector?: InjectorConfigMap;
  /** The release whose template data is built (--istio-version); detected from the templates otherwise. */
  istioVersion?: IstioVersion;
  /** The istiod revision (--revision). */
  revision?: string;
  /** istiod's environment (--env), over the values' pilot.env. */
  env?: Record<string, string>;
}

export function evidenceIn(src: Sourced<unknown> | undefined, path: PathSeg[], fallback: string): Evidence {
  if (!src) return { path: fallback };
  return lazyEvidence(() => {
    const p = src.locator.pos([...src.base, ...path]);
    const shown = `${src.origin}:${path.join('.')}`;
    return p ? { file: src.locator.file, line: p.line, col: p.col, path: shown } : { path: shown };
  });
}

function objName(o: JsonObject): { name: string; namespace: string } {
  return {
    name: String(getIn(o, ['metadata', 'name']) ?? ''),
    namespace: String(getIn(o, ['metadata', 'namespace']) ?? ''),
  };
}

export function isMeshConfigMap(o: JsonObject): boolean {
  const { name } = objName(o);
  return get(o, 'kind') === 'ConfigMap' && (name === 'istio' || /^istio-[a-z0-9-]+$/.test(name)) && typeof getIn(o, ['data', 'mesh']) === 'string' && !name.startsWith('istio-sidecar-injector');
}

export function isInjectorConfigMap(o: JsonObject): boolean {
  const { name } = objName(o);
  return get(o, 'kind') === 'ConfigMap' && name.startsWith('istio-sidecar-injector') && (typeof getIn(o, ['data', 'config']) === 'string' || typeof getIn(o, ['data', 'values']) === 'string');
}

export function isIstioOperator(o: JsonObject): boolean {
  return get(o, 'kind') === 'IstioOperator' && isObject(get(o, 'spec'));
}

/** Mesh config from an `istio` ConfigMap. */
export function meshFromConfigMap(obj: InputObject): Sourced<JsonObject> {
  const { name, namespace } = objName(obj.value);
  const origin = `ConfigMap ${namespace ? namespace + '/' : ''}${name}`;
  const doc = parseEmbedded(obj, ['data', 'mesh'], `${origin} data.mesh`);
  const value = doc && isObject(doc.value) ? doc.value : {};
  return { value, locator: doc?.locator ?? obj.locator, base: [], origin };
}

export function injectorFromConfigMap(obj: InputObject): InjectorConfigMap {
  const { name, namespace } = objName(obj.value);
  const origin = `ConfigMap ${namespace ? namespace + '/' : ''}${name}`;
  const cfg = parseEmbedded(obj, ['data', 'config'], `${origin} data.config`);
  const vals = parseEmbedded(obj, ['data', 'values'], `${origin} data.values`);
  return {
    object: obj.value,
    config: cfg && isObject(cfg.value) ? cfg.value : undefined,
    values: vals && isObject(vals.value) ? { value: vals.value, locator: vals.locator, base: [], origin } : undefined,
    origin,
  };
}

/** Values and mesh config carried by an IstioOperator (`spec.values`, `spec.meshConfig`). */
export function fromIstioOperator(obj: InputObject): IstioConfig {
  const name = String(getIn(obj.value, ['metadata', 'name']) ?? '');
  const origin = `IstioOperator ${name}`;
  const out: IstioConfig = {};
  const values = getIn(obj.value, ['spec', 'values']);
  if (isObject(values)) out.values = { value: values, locator: obj.locator, base: [...obj.path, 'spec', 'values'], origin };
  const mesh = getIn(obj.value, ['spec', 'meshConfig']);
  if (isObject(mesh)) out.mesh = { value: mesh, locator: obj.locator, base: [...obj.path, 'spec', 'meshConfig'], origin };
  return out;
}

/**
 * A --values file: the values object itself (`global:`, `pilot:`), or a document with a top-level
 * `values:` (an IstioOperator spec fragment), or a whole IstioOperator, or an injector ConfigMap.
 */
export function valuesFromFile(objs: InputObject[], file: string): Sourced<JsonObject> {
  for (const o of objs) {
    if (isIstioOperator(o.value)) {
      const v = fromIstioOperator(o).values;
      if (v) return { ...v, origin: `--values ${file}` };
    }
    if (isInjectorConfigMap(o.value)) {
      const v = injectorFromConfigMap(o).values;
      if (v) return { ...v, origin: `--values ${file}` };
    }
    const spec = get(o.value, 'spec');
    if (isObject(spec) && isObject(get(spec, 'values'))) {
      return { value: get(spec, 'values') as JsonObject, locator: o.locator, base: [...o.path, 'spec', 'values'], origin: `--values ${file}` };
    }
    const inner = get(o.value, 'values');
    if (isObject(inner)) return { value: inner, locator: o.locator, base: [...o.path, 'values'], origin: `--values ${file}` };
    return { value: o.value, locator: o.locator, base: o.path, origin: `--values ${file}` };
  }
  throw new InputError('no values found', file);
}

/** A --mesh file: the mesh config itself, an `istio` ConfigMap, or an IstioOperator's meshConfig. */
export function meshFromFile(objs: InputObject[], file: string): Sourced<JsonObject> {
  for (const o of objs) {
    if (get(o.value, 'kind') === 'ConfigMap' && typeof getIn(o.value, ['data', 'mesh']) === 'string') {
      return { ...meshFromConfigMap(o), origin: `--mesh ${file}` };
    }
    if (isIstioOperator(o.value)) {
      const m = fromIstioOperator(o).mesh;
      if (m) return { ...m, origin: `--mesh ${file}` };
    }
    const inner = get(o.value, 'meshConfig');
    if (isObject(inner)) return { value: inner, locator: o.locator, base: [...o.path, 'meshConfig'], origin: `--mesh ${file}` };
    return { value: o.value, locator: o.locator, base: o.path, origin: `--mesh ${file}` };
  }
  throw new InputError('no mesh config found', file);
}

export function injectorFromFile(objs: InputObject[], file: string): InjectorConfigMap {
  for (const o of objs) {
    if (get(o.value, 'kind') === 'ConfigMap') return { ...injectorFromConfigMap(o), origin: `--injector-configmap ${file}` };
  }
  throw new InputError('no ConfigMap found', file);
}

/** Options that change how workloads are injected or judged. */
export interface AuditEnvironment extends IstioConfig {
  /** The cluster's Kubernetes version (`--kube-version`). */
  kubeVersion?: KubeVersion;
  /** istiod's ENABLE_NATIVE_SIDECARS, when known from outside the values. */
  nativeSidecars?: boolean;
}

/** Layer b over a: b's fields win (flags over what the input carried). */
export function overlay(a: IstioConfig, b: IstioConfig): IstioConfig {
  return {
    mesh: b.mesh ?? a.mesh,
    values: b.values ?? a.values,
    valuesReplace: b.values ? b.valuesReplace : a.valuesReplace,
    valueLayers: [...(a.valueLayers ?? []), ...(b.valueLayers ?? [])],
    injector: b.injector ?? a.injector,
    istioVersion: b.istioVersion ?? a.istioVersion,
    revision: b.revision ?? a.revision,
    env: b.env ?? a.env,
  };
}
