// The audit's link to the real injector (src/istio): an InjectFn that executes the injector
// ConfigMap's template with its values and the mesh config, merges the output into the pod and
// orders the containers as istiod does. Without an injector template there is nothing to execute:
// the audit then uses its model of the template's lifecycle decisions.

import { Renderer, type NativeSidecarsMode } from '../istio/inject.js';
import { jsonShaped } from '../go/encoding/json/value.js';
import { parseInjectorConfig, type InjectorConfig } from '../istio/configmap.js';
import type { Workload as IstioWorkload } from '../istio/workload.js';
import { unpositioned, type LoadedDocument } from '../yaml/load.js';
import type { GoValue } from '../go/reflect/value.js';
import type { InjectContext, InjectFn, InjectWorkload } from './inject.js';
import { asStringMap, get, getIn, isObject, type JsonObject } from './types.js';
import type { Json, JsonObject as IstioJsonObject } from '../go/encoding/json/value.js';

/** Thrown by an InjectFn that has no template to execute: the caller falls back to the model quietly. */
export class InjectorUnavailable extends Error {
  constructor() {
    super('no injector template');
    this.name = 'InjectorUnavailable';
  }
}

const configs = new WeakMap<object, InjectorConfig>();
const renderers = new WeakMap<object, Map<string, Renderer>>();

function injectorConfig(ctx: InjectContext): InjectorConfig | undefined {
  if (ctx.injector?.parsed) return ctx.injector.parsed;
  const cm = ctx.injector?.object;
  if (!cm) return undefined;
  let cfg = configs.get(cm);
  if (!cfg) {
    const text = getIn(cm, ['data', 'config']);
    if (typeof text !== 'string') return undefined;
    cfg = parseInjectorConfig(text, `${ctx.injector!.origin} data.config`);
    configs.set(cm, cfg);
  }
  return cfg;
}

function nativeMode(ctx: InjectContext): NativeSidecarsMode {
  const env = getIn(ctx.values, ['pilot', 'env', 'ENABLE_NATIVE_SIDECARS']);
  if (env !== undefined) return env === true || env === 'true' ? 'true' : 'false';
  if (ctx.nativeSidecars !== undefined) return ctx.nativeSidecars ? 'true' : 'false';
  return 'auto';
}

function rendererFor(ctx: InjectContext, config: InjectorConfig): Renderer {
  // one renderer per injector, values and mesh: templates are parsed once, not per workload
  const v = ctx.istioVersion;
  const key = `${nativeMode(ctx)}|${ctx.kubeVersion?.join('.') ?? ''}|${v ? `${v.major}.${v.minor}${v.master ? 'm' : ''}` : ''}|${ctx.revision ?? ''}|${JSON.stringify(ctx.env ?? {})}`;
  let byKey = renderers.get(ctx.values);
  if (!byKey) {
    byKey = new Map();
    renderers.set(ctx.values, byKey);
  }
  const full = `${key}|${ctx.mesh ? 'm' : ''}|${ctx.injector?.origin ?? ''}`;
  let r = byKey.get(full);
  if (!r || r.inputs.config !== config || (ctx.mesh && r.inputs.meshOrigin !== meshId(ctx.mesh))) {
    r = new Renderer(
      {
        config,
        values: jsonShaped(ctx.values) as IstioJsonObject,
        mesh: (ctx.mesh ? jsonShaped(ctx.mesh) : Object.create(null)) as IstioJsonObject,
        meshOrigin: ctx.mesh ? meshId(ctx.mesh) : undefined,
      },
      {
        nativeSidecars: nativeMode(ctx),
        kubeVersion: ctx.kubeVersion?.join('.'),
        env: { ...asStringMap(getIn(ctx.values, ['pilot', 'env'])), ...(ctx.env ?? {}) },
        ...(ctx.istioVersion ? { istioVersion: ctx.istioVersion } : {}),
        ...(ctx.revision !== undefined ? { revision: ctx.revision } : {}),
      },
    );
    byKey.set(full, r);
  }
  return r;
}

const meshIds = new WeakMap<object, string>();
let nextMesh = 0;
function meshId(mesh: object): string {
  let id = meshIds.get(mesh);
  if (!id) {
    id = `mesh#${++nextMesh}`;
    meshIds.set(mesh, id);
  }
  return id;
}

function stubDoc(value: unknown, file: string): LoadedDocument {
  return unpositioned(value as GoValue, file);
}

/**
 * What the template's lifecycle decisions can depend on: Istio's annotations and labels, the
 * container names and order, a pod-level istio-proxy override, host networking, restart policy.
 * Workloads that agree on these get the same proxy, init containers and order; a dump of thousands
 * of Deployments has only a handful of such shapes, so the template runs once per shape.
 */
function shapeOf(w: InjectWorkload): string {
  const istioish = (m: unknown): [string, string][] =>
    Object.entries(asStringMap(m)).filter(([k]) => /istio|sidecar|proxy|envoy/.test(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const names = (field: string): string[] => (Array.isArray(w.spec[field]) ? (w.spec[field] as unknown[]).map((c) => String(get(c, 'name'))) : []);
  const override = Array.isArray(w.spec['containers']) ? (w.spec['containers'] as unknown[]).find((c) => get(c, 'name') === 'istio-proxy') : undefined;
  return JSON.stringify([
    w.kind,
    istioish(get(w.metadata, 'annotations')),
    istioish(get(w.metadata, 'labels')),
    names('containers'),
    names('initContainers'),
    override ?? null,
    w.spec['hostNetwork'] ?? null,
    w.spec['restartPolicy'] ?? null,
  ]);
}

const shapes = new WeakMap<Renderer, Map<string, JsonObject | null | Error>>();

/** The rendered spec of a workload of the same shape, with this workload's own containers and pod fields. */
function transplant(rendered: JsonObject, w: InjectWorkload): JsonObject {
  const own = (field: string): Map<string, unknown> =>
    new Map((Array.isArray(w.spec[field]) ? (w.spec[field] as unknown[]) : []).map((c) => [String(get(c, 'name')), c]));
  const mine = { containers: own('containers'), initContainers: own('initContainers') };
  const swap = (field: 'containers' | 'initContainers'): unknown[] =>
    (Array.isArray(rendered[field]) ? (rendered[field] as unknown[]) : []).map((c) => {
      const name = String(get(c, 'name'));
      return name !== 'istio-proxy' && mine[field].has(name) ? mine[field].get(name) : c;
    });
  return { ...rendered, ...w.spec, containers: swap('containers'), initContainers: swap('initContainers') };
}

/** Renders with the injector ConfigMap of the input or flags; InjectorUnavailable without one. */
export const defaultInject: InjectFn = (w: InjectWorkload, ctx: InjectContext): JsonObject | undefined => {
  const config = injectorConfig(ctx);
  if (!config) throw new InjectorUnavailable();
  const renderer = rendererFor(ctx, config);
  let byShape = shapes.get(renderer);
  if (!byShape) {
    byShape = new Map();
    shapes.set(renderer, byShape);
  }
  const shape = shapeOf(w);
  const seen = byShape.get(shape);
  if (seen instanceof Error) throw seen;
  if (seen !== undefined) return seen === null ? undefined : transplant(seen, w);
  let spec: JsonObject | undefined;
  try {
    spec = renderOne(renderer, w);
  } catch (e) {
    byShape.set(shape, e instanceof Error ? e : new Error(String(e)));
    throw e;
  }
  byShape.set(shape, spec ?? null);
  return spec;
};

function renderOne(renderer: Renderer, w: InjectWorkload): JsonObject | undefined {
  const templatePath = templatePathOf(w);
  const iw: IstioWorkload = {
    kind: w.kind,
    apiVersion: String(get(w.object, 'apiVersion') ?? ''),
    name: w.name,
    namespace: w.namespace,
    ownerMeta: isObject(get(w.object, 'metadata')) ? (get(w.object, 'metadata') as JsonObject) : {},
    pod: { metadata: w.metadata, spec: w.spec },
    where: `${w.kind} ${w.namespace ? w.namespace + '/' : ''}${w.name}`,
    doc: stubDoc(w.object, w.kind),
    templatePath,
    index: 0,
  };
  const r = renderer.renderWorkload(iw, true);
  if (r.error !== undefined) throw new Error(r.error);
  if (!r.decision.inject || !r.merged) return undefined;
  const pod = templatePath.length ? getIn(r.merged, templatePath) : r.merged;
  const spec = get(pod, 'spec');
  return isObject(spec) ? (spec as JsonObject) : undefined;
};

function templatePathOf(w: InjectWorkload): (string | number)[] {
  if (w.kind === 'Pod') return [];
  if (w.kind === 'CronJob') return ['spec', 'jobTemplate', 'spec', 'template'];
  if (w.kind === 'PodTemplate') return ['template'];
  return ['spec', 'template'];
}

export type { Json };
