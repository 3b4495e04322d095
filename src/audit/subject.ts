// A workload as the audit judges it: the pod spec the kubelet will run (injected as-is, or
// rendered), the Istio settings behind it, and a way to cite evidence for any part of it.

import type { IstioConfig } from './context.js';
import { InputError } from './input.js';
import { modelInject, type InjectContext, type InjectFn } from './inject.js';
import { InjectorUnavailable } from './render.js';
import { podRelease, proxyListeners, templateFeatures, type Release, type TemplateFeatures } from './release.js';
import type { Listeners } from './shell.js';
import { computeSettings, podEvidence, podSpecPrefix, type Settings } from './settings.js';
import { isInjected, PROXY, type Workload } from './workload.js';
import { asArray, get, getIn, isObject, kubeAtLeast, lazyEvidence, type Evidence, type JsonObject, type KubeVersion, type PathSeg } from './types.js';

const LEGACY_INITS = new Set(['istio-init', 'istio-validation', 'enable-core-dump']);

export type Injection =
  /** The input already carries the proxy. */
  | 'injected'
  /** Rendered by the injector (InjectFn). */
  | 'rendered'
  /** No injector template at hand (or `--model`): the built-in model of its lifecycle decisions. */
  | 'modelled'
  /** No proxy: opted out, or the injector left it alone. */
  | 'none'
  /** The injector fails on this pod (injectionError): istiod's webhook rejects it. */
  | 'failed';

export interface ContainerView {
  name: string;
  field: 'containers' | 'initContainers';
  /** Index in the effective spec. */
  index: number;
  spec: JsonObject;
  isProxy: boolean;
  /** An init container with `restartPolicy: Always` (a Kubernetes sidecar). */
  native: boolean;
  /** Index in the input's pod spec, when the container was written there. */
  inputIndex?: number;
  /** The sockets the pod's proxy listens on (what a listener count in a hook sees), as its release has them. */
  listeners?: Listeners;
}

export interface Subject {
  workload: Workload;
  spec: JsonObject;
  injection: Injection;
  settings: Settings;
  kubeVersion?: KubeVersion;
  initContainers: ContainerView[];
  containers: ContainerView[];
  proxy?: ContainerView;
  /** `args: [proxy, router]`: a gateway, not a sidecar. */
  gateway: boolean;
  grace: { seconds: number; explicit: boolean; evidence: Evidence };
  /** The Istio release the pod is injected by, when the input tells. */
  release?: Release;
  /** What the template that rendered this pod can do (rendered pods only). */
  template?: TemplateFeatures;
  /** Evidence for rel inside a container (or the pod spec when c is undefined). */
  at(c: ContainerView | undefined, rel: PathSeg[]): Evidence;
  /** istiod's error when the injector fails on this pod (a requested template it lacks, an annotation it refuses). */
  injectionError?: string;
}

export interface SubjectOptions {
  config: IstioConfig;
  inject?: InjectFn;
  kubeVersion?: KubeVersion;
  nativeSidecars?: boolean;
  /** False when the injector would not touch the workload (opt-out, namespace not labelled). */
  injectable: boolean;
}

export function buildSubject(w: Workload, o: SubjectOptions): Subject {
  const settings = computeSettings(w, o.config, { nativeSidecars: o.nativeSidecars, kubeVersion: o.kubeVersion });
  let spec = w.spec;
  let injection: Injection = 'none';
  let injectionError: string | undefined;
  if (isInjected(w)) injection = 'injected';
  else if (o.injectable) {
    const iw = {
      kind: w.kind,
      name: w.name,
      namespace: w.namespace,
      metadata: podMetadata(w),
      spec: w.spec,
      object: w.object.value,
    };
    const ctx: InjectContext = {
      injector: o.config.injector,
      values: settings.values,
      mesh: o.config.mesh?.value,
      kubeVersion: o.kubeVersion,
      nativeSidecars: o.nativeSidecars,
      ...(o.config.istioVersion ? { istioVersion: o.config.istioVersion } : {}),
      ...(o.config.revision !== undefined ? { revision: o.config.revision } : {}),
      ...(o.config.env ? { env: o.config.env } : {}),
    };
    let rendered: JsonObject | undefined;
    let unavailable = false;
    if (o.inject) {
      try {
        rendered = o.inject(iw, ctx);
        injection = rendered ? 'rendered' : 'none';
      } catch (e) {
        if (e instanceof InjectorUnavailable) unavailable = true;
        // a template that does not parse fails every pod: the input is bad, as for render
        else if (e instanceof InputError) throw injectorFailed(w, o.config, e);
        else {
          // this pod alone: istiod rejects it, the rest of the input is judged (injection-fails)
          injectionError = (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
          injection = 'failed';
        }
      }
    }
    // no template at hand (or --model): the model of the injector's lifecycle decisions; a template
    // that fails is an error of its own, never papered over by the model
    if ((!o.inject || unavailable) && injection !== 'failed') {
      rendered = modelInject(iw, ctx, settings);
      injection = 'modelled';
    }
    if (rendered) spec = rendered;
  }

  const configText = getIn(o.config.injector?.object, ['data', 'config']);
  const release = podRelease(spec, settings.values, configText);
  const listeners = proxyListeners(spec, release, settings.proxyConfig);
  const rawIndex = (field: 'containers' | 'initContainers', name: string): number | undefined => {
    const i = asArray(get(w.spec, field)).findIndex((c) => get(c, 'name') === name);
    return i >= 0 ? i : undefined;
  };
  const views = (field: 'containers' | 'initContainers'): ContainerView[] =>
    asArray(get(spec, field))
      .filter(isObject)
      .map((c, index) => {
        const name = String(get(c, 'name') ?? `#${index}`);
        const inputIndex = rawIndex(field, name);
        return {
          name,
          field,
          index,
          spec: c,
          isProxy: name === PROXY,
          native: field === 'initContainers' && get(c, 'restartPolicy') === 'Always' && (!LEGACY_INITS.has(name) || legacyInitIsSidecar),
          // a pod-level istio-proxy override is not where the injected proxy's fields come from
          inputIndex: name === PROXY && injection !== 'injected' ? undefined : inputIndex,
          listeners,
        };
      });
  // Templates before native sidecars wrote `restartPolicy: Always` on istio-init, a field the API
  // server dropped then; only a cluster known to honour it makes istio-init a sidecar.
  const legacyInitIsSidecar = !!o.kubeVersion && kubeAtLeast(o.kubeVersion, 1, 29);
  const initContainers = views('initContainers');
  const containers = views('containers');
  const proxy = [...initContainers, ...containers].find((c) => c.isProxy);
  const gateway = !!proxy && asArray(get(proxy.spec, 'args')).map(String).includes('router');

  const prefix = podSpecPrefix(w);
  const at = (c: ContainerView | undefined, rel: PathSeg[]): Evidence => {
    if (!c) {
      const shown = [prefix, ...rel].join('.');
      return podEvidence(w, ['spec', ...rel], shown);
    }
    const shown = `${prefix}.${c.field}[${c.name}]${rel.length ? '.' + rel.join('.') : ''}`;
    if (c.inputIndex !== undefined) return podEvidence(w, ['spec', c.field, c.inputIndex, ...rel], shown);
    // the injected proxy: its lifecycle comes from values or a pod-level override when customised
    if (c.isProxy && rel[0] === 'lifecycle' && settings.customLifecycle) {
      if (settings.customLifecycle.from === 'values') {
        const ev = settings.valueEvidence(['global', 'proxy', 'lifecycle', ...rel.slice(1).map(String)]);
        if (ev) return ev;
      }
      return settings.customLifecycle.evidence;
    }
    // not written in the input: cite the pod spec the injector adds it to, and say so in the path
    const how = injection === 'modelled' ? 'as the injector would add it' : injection === 'rendered' ? 'as rendered' : 'as injected';
    return podEvidence(w, ['spec', c.field], `${shown} (${how})`);
  };

  const g = get(spec, 'terminationGracePeriodSeconds');
  const grace =
    typeof g === 'number'
      ? { seconds: g, explicit: true, evidence: at(undefined, ['terminationGracePeriodSeconds']) }
      : { seconds: 30, explicit: false, evidence: lazyEvidence(() => ({ ...at(undefined, []), path: `${w.id}:${prefix}.terminationGracePeriodSeconds (default 30)` })) };

  const template = injection === 'rendered' && typeof configText === 'string' ? templateFeatures(configText) : undefined;
  return { workload: w, spec, injection, settings, kubeVersion: o.kubeVersion, initContainers, containers, proxy, gateway, grace, release, template, at, ...(injectionError !== undefined ? { injectionError } : {}) };
}

/** The injector could not render this workload: a one-line error naming where, and the way out. */
function injectorFailed(w: Workload, cfg: IstioConfig, e: unknown): InputError {
  const why = (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
  const origin = cfg.injector?.origin ?? 'the injector';
  const where = why.includes(origin) ? why : `${origin}: ${why}`;
  return new InputError(`${where} (cannot render ${w.id}; --model judges raw workloads with the built-in model instead)`);
}

function podMetadata(w: Workload): JsonObject {
  return { labels: { ...w.labels }, annotations: { ...w.annotations }, name: w.name, namespace: w.namespace };
}
