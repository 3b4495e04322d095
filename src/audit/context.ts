// The Istio configuration a workload is injected with, as the audit cites it: the mesh config, the
// injector values and template, each with where it came from. They are found by the one resolver of
// every command (src/inputs/resolve.ts): ConfigMaps in the input apply to its workloads, as they would
// in the cluster; flags override them.

import { DocumentLocator } from './input.js';
import type { IstioVersion } from '../istio/version.js';
import type { InjectorConfig } from '../istio/configmap.js';
import type { Layer, ResolvedInputs } from '../inputs/resolve.js';
import { getIn, lazyEvidence, type JsonObject, type Locator, type PathSeg, type Evidence, type KubeVersion } from './types.js';

/** A configuration document plus where it came from, so findings can point into it. */
export interface Sourced<T> {
  value: T;
  locator: Locator;
  /** Path of `value` inside the locator's document. */
  base: PathSeg[];
  /** Human name of the source: `ConfigMap istio-system/istio`, `--values values.yaml`. */
  origin: string;
  /** A flag with no file (`--set a.b=c`): what a finding shows as its location. */
  flag?: string;
  /** Rendered by a chart: the user's inputs it came from, cited instead where a field was written there. */
  sources?: { inputs: { src: Sourced<JsonObject>; pathOf(chartPath: readonly string[]): string[] | undefined }[]; chartPaths(path: readonly string[]): string[][] };
}

export interface InjectorConfigMap {
  /** The ConfigMap object as given (renderers take it whole). */
  object: JsonObject;
  /** `data.config` as the renderer reads it. */
  parsed?: InjectorConfig;
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
  /** The values the injector sees, as the resolver merged them (the layers above only say where each came from). */
  resolvedValues: JsonObject;
}

export function evidenceIn(src: Sourced<unknown> | undefined, path: PathSeg[], fallback: string): Evidence {
  if (!src) return { path: fallback };
  // a chart's output: the values file line, IstioOperator field or --set the user wrote it with
  const written = src.sources ? writtenIn(src.sources, path.map(String)) : undefined;
  if (written) return evidenceIn(written.src, written.path, fallback);
  return lazyEvidence(() => {
    const p = src.locator.pos([...src.base, ...path]);
    const shown = `${src.origin}:${path.join('.')}`;
    if (p) return { file: src.locator.file, line: p.line, col: p.col, path: shown };
    return src.flag ? { path: shown, flag: src.flag } : { path: shown };
  });
}

/** The last of the chart's user inputs that sets the value at path (Helm's order: the last wins). */
function writtenIn(sources: NonNullable<Sourced<unknown>['sources']>, path: string[]): { src: Sourced<JsonObject>; path: string[] } | undefined {
  for (const chartPath of sources.chartPaths(path)) {
    for (let i = sources.inputs.length - 1; i >= 0; i--) {
      const input = sources.inputs[i]!;
      const at = input.pathOf(chartPath);
      if (at && getIn(input.src.value, at) !== undefined) return { src: input.src, path: at };
    }
  }
  return undefined;
}

/** A resolved layer (src/inputs) as the audit cites it: positions through its document's locator. */
function sourced(l: Layer): Sourced<JsonObject> {
  const out: Sourced<JsonObject> = { value: l.value as unknown as JsonObject, locator: l.doc ? new DocumentLocator(l.doc) : NOWHERE, base: [], origin: l.origin };
  if (l.set) out.flag = l.origin;
  if (l.sources) {
    const { chartPaths } = l.sources;
    out.sources = { inputs: l.sources.inputs.map((x) => ({ src: sourced(x.layer), pathOf: (p) => x.pathOf(p) })), chartPaths: (p) => chartPaths(p) };
  }
  return out;
}

const NOWHERE: Locator = { file: '', pos: () => undefined };

/**
 * The Istio configuration the one resolver (src/inputs/resolve.ts) found for the inputs and flags, as
 * the audit reads it: each part with its document, so findings point at the file and line it came from.
 */
export function configFromResolved(r: ResolvedInputs): IstioConfig {
  const cfg: IstioConfig = { values: undefined, valuesReplace: r.valuesReplaced, valueLayers: r.valueLayers.map(sourced), resolvedValues: r.values as unknown as JsonObject };
  if (r.valuesReplaced && r.valuesBase) cfg.values = sourced(r.valuesBase);
  if (r.injectorObject) {
    cfg.injector = {
      object: r.injectorObject.value as unknown as JsonObject,
      ...(r.hasInjector ? { parsed: r.config } : {}),
      origin: r.sources.injector,
      ...(r.injectorValues ? { values: sourced(r.injectorValues) } : {}),
    };
  } else if (r.hasInjector) {
    // a bare template, data.config alone, or a chart: what an injector ConfigMap holds
    cfg.injector = {
      object: { kind: 'ConfigMap', metadata: { name: 'istio-sidecar-injector' }, data: { config: r.config.source } },
      parsed: r.config,
      origin: r.sources.injector,
      ...(r.injectorValues ? { values: sourced(r.injectorValues) } : {}),
    };
  }
  if (r.meshLayers.length) {
    // the IstioOperators' meshConfig merged over the mesh config: cited where the last of them is
    const last = r.meshLayers[r.meshLayers.length - 1]!;
    cfg.mesh = { ...sourced(last), value: r.mesh as unknown as JsonObject };
  }
  if (r.options.istioVersion) cfg.istioVersion = r.options.istioVersion;
  if (r.revision !== undefined) cfg.revision = r.revision;
  if (Object.keys(r.options.env).length) cfg.env = r.options.env;
  return cfg;
}

/** Options that change how workloads are injected or judged. */
export interface AuditEnvironment extends IstioConfig {
  /** The cluster's Kubernetes version (`--kube-version`). */
  kubeVersion?: KubeVersion;
  /** istiod's ENABLE_NATIVE_SIDECARS, when known from outside the values. */
  nativeSidecars?: boolean;
}
