// How a raw workload becomes the pod the kubelet runs. The audit takes any InjectFn; the default is
// the real renderer (src/istio), and the model below stands in when there is no template at hand
// (or `--model` asks for it) so that the lifecycle-relevant parts are still judged. A template that
// fails is reported, never replaced by the model.

import type { InjectorConfigMap } from './context.js';
import type { IstioVersion } from '../istio/version.js';
import type { Settings } from './settings.js';
import { PROXY } from './workload.js';
import { asArray, get, getIn, isObject, isTrue, type JsonObject, type KubeVersion } from './types.js';

/** The workload handed to an injector: the pod template as written. */
export interface InjectWorkload {
  kind: string;
  name: string;
  namespace: string;
  /** Pod (template) metadata: labels, annotations. */
  metadata: JsonObject;
  spec: JsonObject;
  /** The whole object (a Deployment, a Job, ...), for `.DeploymentMeta`-like data. */
  object: JsonObject;
}

export interface InjectContext {
  /** The `istio-sidecar-injector` ConfigMap (template + values), if given. */
  injector?: InjectorConfigMap;
  /** Values as the injector sees them (explicit values over the ConfigMap's). */
  values: JsonObject;
  /** Mesh config (`istio` ConfigMap `data.mesh`), if given. */
  mesh?: JsonObject;
  kubeVersion?: KubeVersion;
  nativeSidecars?: boolean;
  /** The release whose template data is built (detected from the templates when absent). */
  istioVersion?: IstioVersion;
  revision?: string;
  /** istiod's environment beside the values' pilot.env. */
  env?: Record<string, string>;
}

/** Returns the injected pod spec, or undefined when the injector would leave the pod alone. */
export type InjectFn = (workload: InjectWorkload, context: InjectContext) => JsonObject | undefined;

export const WAIT_POSTSTART = { exec: { command: ['pilot-agent', 'wait'] } };

function drainPreStop(statusPort: unknown): JsonObject {
  return { exec: { command: ['pilot-agent', 'request', `--debug-port=${String(statusPort ?? 15020)}`, 'POST', 'drain'] } };
}

/**
 * The injector's decisions that matter for start and stop order, as current templates make them:
 * the proxy's lifecycle (values' lifecycle, else the hold's `pilot-agent wait`, else a native
 * sidecar's drain), its probes, its place (first with hold, last otherwise, an init container with
 * `restartPolicy: Always` for native sidecars), ProxyConfig metadata as env.
 */
export function modelInject(w: InjectWorkload, ctx: InjectContext, s: Settings): JsonObject {
  const values = ctx.values;
  const proxyValues = getIn(values, ['global', 'proxy']);
  const native = s.native.requested;
  const hold = s.hold.requested && !native;
  const statusPort = get(proxyValues, 'statusPort') ?? 15020;
  const hub = String(getIn(values, ['global', 'hub']) ?? 'docker.io/istio');
  const tag = String(getIn(values, ['global', 'tag']) ?? 'latest');
  const image = String(get(proxyValues, 'image') ?? 'proxyv2');

  let lifecycle: JsonObject | undefined;
  if (s.customLifecycle?.from === 'values') lifecycle = s.customLifecycle.value;
  else if (hold) lifecycle = { postStart: WAIT_POSTSTART };
  else if (native) lifecycle = { preStop: drainPreStop(statusPort) };

  const env: JsonObject[] = [];
  const meta = get(s.proxyConfig, 'proxyMetadata');
  if (isObject(meta)) for (const k of Object.keys(meta)) env.push({ name: k, value: String(meta[k]) });
  if (s.annotationProxyConfig) env.push({ name: 'PROXY_CONFIG', value: JSON.stringify(s.proxyConfig) });

  const proxy: JsonObject = {
    name: PROXY,
    image: image.includes('/') ? image : `${hub}/${image}:${tag}`,
    args: ['proxy', 'sidecar', '--domain', '$(POD_NAMESPACE).svc.cluster.local'],
    ports: [{ containerPort: 15090, name: 'http-envoy-prom', protocol: 'TCP' }],
    env,
  };
  if (lifecycle) proxy.lifecycle = lifecycle;
  if (String(statusPort) !== '0') {
    const startup = get(proxyValues, 'startupProbe');
    if (!isObject(startup) || get(startup, 'enabled') !== false) {
      proxy.startupProbe = {
        httpGet: { path: '/healthz/ready', port: 15021 },
        initialDelaySeconds: 0,
        periodSeconds: 1,
        timeoutSeconds: 3,
        failureThreshold: get(startup, 'failureThreshold') ?? 600,
      };
    }
    proxy.readinessProbe = {
      httpGet: { path: '/healthz/ready', port: 15021 },
      initialDelaySeconds: get(proxyValues, 'readinessInitialDelaySeconds') ?? 0,
      periodSeconds: get(proxyValues, 'readinessPeriodSeconds') ?? 15,
      timeoutSeconds: 3,
      failureThreshold: get(proxyValues, 'readinessFailureThreshold') ?? 4,
    };
  }
  if (native) proxy.restartPolicy = 'Always';

  // a pod-level `istio-proxy` entry overrides the template's fields (env merged by name)
  const userContainers = asArray(get(w.spec, 'containers')).filter(isObject);
  const override = userContainers.find((c) => get(c, 'name') === PROXY);
  const merged: JsonObject = override ? { ...proxy, ...override } : proxy;
  // istiod lays the pod's entry over the injected proxy with a strategic merge: maps such as
  // lifecycle merge key by key (a pod-level preStop keeps the template's postStart)
  if (override && isObject(proxy.lifecycle) && isObject(get(override, 'lifecycle'))) {
    merged.lifecycle = { ...proxy.lifecycle, ...(get(override, 'lifecycle') as JsonObject) };
  }
  if (override && Array.isArray(get(override, 'env'))) {
    const byName = new Map<string, unknown>();
    for (const e of [...env, ...asArray(get(override, 'env'))]) byName.set(String(get(e, 'name')), e);
    merged.env = [...byName.values()];
  }
  const apps = userContainers.filter((c) => get(c, 'name') !== PROXY);
  const userInits = asArray(get(w.spec, 'initContainers')).filter(isObject);
  const interception = getIn(w.metadata, ['annotations', 'sidecar.istio.io/interceptionMode']) ?? get(s.proxyConfig, 'interceptionMode');
  const cni = isTrue(getIn(values, ['istio_cni', 'enabled'])) || isTrue(getIn(values, ['pilot', 'cni', 'enabled']));
  const inits: JsonObject[] = [];
  if (interception !== 'NONE') {
    inits.push({
      name: cni ? 'istio-validation' : 'istio-init',
      image: proxy.image,
      args: cni ? ['istio-iptables', '--run-validation', '--skip-rule-apply'] : ['istio-iptables', '-p', '15001', '-z', '15006', '-u', '1337'],
    });
  }
  const spec: JsonObject = { ...w.spec };
  if (native) {
    spec.initContainers = [...inits, merged, ...userInits];
    spec.containers = apps;
  } else {
    spec.initContainers = [...inits, ...userInits];
    spec.containers = hold ? [merged, ...apps] : [...apps, merged];
  }
  return spec;
}
