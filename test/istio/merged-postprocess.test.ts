// istiod's work on the merged pod: the Go round trip through corev1 types, Prometheus merge, probe
// rewriting and the old injector's fsGroup, on pods of our own.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/go/encoding/json/value.js';
import { goRoundTrip, kubeApiMinor, postProcessPod, type PostProcessContext } from '../../src/istio/postprocess.js';
import { parseIstioVersion } from '../../src/istio/version.js';

const plain = (v: unknown) => JSON.parse(JSON.stringify(v));
const v = parseIstioVersion;

describe('goRoundTrip', () => {
  const pod = (): JsonObject => ({
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'web',
          bogus: 'x',
          resources: { limits: { cpu: '2000m', memory: '1024Mi' }, requests: { cpu: 0.5 } },
          readinessProbe: { initialDelaySeconds: 0, periodSeconds: 5, httpGet: { port: 8080, path: '' } },
          env: [{ name: 'E', value: '' }, { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: 0 } } }],
          restartPolicy: 'Always',
          resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
          securityContext: { appArmorProfile: { type: 'RuntimeDefault' }, runAsUser: 0 },
        },
        { name: 'side' },
      ],
      volumes: [{ name: 'gone', emptyDir: null }, { name: 'kept', emptyDir: {} }],
    },
  });

  it('gives what json.Unmarshal into corev1 and json.Marshal back give', () => {
    const out = plain(goRoundTrip(pod(), v('1.24')));
    expect(out.metadata).toEqual({ name: 'web', creationTimestamp: null, labels: { app: 'web' } });
    const [web, side] = out.spec.containers;
    expect(web.bogus).toBeUndefined();
    expect(web.resources).toEqual({ limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '500m' } });
    expect(web.readinessProbe).toEqual({ periodSeconds: 5, httpGet: { port: 8080 } });
    expect(web.env).toEqual([{ name: 'E' }, { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '0' } } }]);
    // a pointer field keeps its zero value; a struct field is never empty
    expect(web.securityContext.runAsUser).toBe(0);
    expect(side).toEqual({ name: 'side', resources: {} });
    expect(out.spec.volumes).toEqual([{ name: 'gone' }, { name: 'kept', emptyDir: {} }]);
  });

  it("drops fields newer than the release's Kubernetes API", () => {
    const at = (r: string) => plain(goRoundTrip(pod(), v(r))).spec.containers[0];
    expect(at('1.17').resizePolicy).toBeUndefined(); // k8s 1.26
    expect(at('1.18').resizePolicy).toBeDefined(); // k8s 1.27
    expect(at('1.18').restartPolicy).toBeUndefined();
    expect(at('1.19').restartPolicy).toBe('Always'); // k8s 1.28
    expect(at('1.21').securityContext.appArmorProfile).toBeUndefined();
    expect(at('1.22').securityContext.appArmorProfile).toEqual({ type: 'RuntimeDefault' }); // k8s 1.30
  });

  it('knows the Kubernetes API of each release', () => {
    expect(kubeApiMinor(v('1.5'))).toBe(17);
    expect(kubeApiMinor(v('1.19'))).toBe(28);
    expect(kubeApiMinor(v('1.20'))).toBe(28);
    expect(kubeApiMinor(v('master'))).toBe(34);
  });
});

const ctx = (over: Partial<PostProcessContext> = {}): PostProcessContext => ({
  version: v('1.24'),
  values: { sidecarInjectorWebhook: { rewriteAppHTTPProbe: true } },
  mesh: {},
  originalAnnotations: {},
  ...over,
});

describe('postProcessPod of a pod Go cannot decode', () => {
  it('is the pod as merged, with none of the round trip\'s changes (not even the fields it drops first)', () => {
    const pod: JsonObject = { metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 5, restartPolicy: 'Always', bogus: 'x' }] } };
    const out = plain(postProcessPod(pod, ctx({ version: v('1.18') })));
    expect(out.spec.containers[0]).toEqual({ name: 'app', image: 5, restartPolicy: 'Always', bogus: 'x' });
    expect(() => goRoundTrip(pod, v('1.18'))).toThrow(/cannot unmarshal number/);
    // and the pod given is left as it was
    expect((pod.spec as { containers: JsonObject[] }).containers[0]!.restartPolicy).toBe('Always');
  });
});

const proxy = (env: JsonObject[] = []): JsonObject => ({ name: 'istio-proxy', image: 'proxy', env });
const envOf = (out: JsonObject, name: string) =>
  (plain(out).spec.containers.find((c: { name: string }) => c.name === 'istio-proxy').env ?? []).find((e: { name: string }) => e.name === name)?.value;

describe('Prometheus merge', () => {
  const pod = (annotations: Record<string, string>): JsonObject => ({ metadata: { annotations }, spec: { containers: [{ name: 'app' }, proxy()] } });

  it("points the scrape annotations at the agent and hands the app's to it", () => {
    const out = postProcessPod(pod({ 'prometheus.io/scrape': 'true', 'prometheus.io.port': '9090', 'prometheus-io/path': '/m' }), ctx());
    expect(plain(out).metadata.annotations).toEqual({ 'prometheus.io/port': '15020', 'prometheus.io/path': '/stats/prometheus', 'prometheus.io/scrape': 'true' });
    expect(envOf(out, 'ISTIO_PROMETHEUS_ANNOTATIONS')).toBe('{"scrape":"true","path":"/m","port":"9090"}');
  });

  it('adds the annotations without the env when the pod had none; uses the mesh status port', () => {
    const out = postProcessPod(pod({}), ctx({ mesh: { defaultConfig: { statusPort: 15999 } } }));
    expect(plain(out).metadata.annotations['prometheus.io/port']).toBe('15999');
    expect(envOf(out, 'ISTIO_PROMETHEUS_ANNOTATIONS')).toBeUndefined();
  });

  it('leaves the pod alone when scraping is off, merging is off, or the port is already the agent', () => {
    const same = (annos: Record<string, string>, c = ctx()) => expect(plain(postProcessPod(pod(annos), c)).metadata.annotations ?? {}).toEqual(annos);
    same({ 'prometheus.io/scrape': 'false' });
    same({ 'prometheus.istio.io/merge-metrics': 'false' });
    same({}, ctx({ mesh: { enablePrometheusMerge: false } }));
    same({ 'prometheus.io/port': '15020', 'prometheus.io/path': '/x' });
    // webhook.go has no Prometheus merge in 1.5.0; 1.6.0's createPatch merges
    same({}, ctx({ version: v('1.5') }));
  });

  it("lets the config's injectedAnnotations win", () => {
    const out = postProcessPod(pod({}), ctx({ injectedAnnotations: { 'prometheus.io/path': '/mine' } }));
    expect(plain(out).metadata.annotations['prometheus.io/path']).toBe('/mine');
  });
});

describe('probe rewriting', () => {
  const app = (): JsonObject => ({
    name: 'app',
    ports: [{ name: 'http', containerPort: 8080 }],
    readinessProbe: { httpGet: { path: '/ready', port: 'http', scheme: 'HTTPS' }, timeoutSeconds: 3 },
    livenessProbe: { tcpSocket: { port: 8081 } },
    startupProbe: { exec: { command: ['true'] } },
  });
  const pod = (annotations: Record<string, string> = {}): JsonObject => ({ metadata: { annotations: { 'prometheus.io/scrape': 'false', ...annotations } }, spec: { containers: [app(), proxy()] } });
  const appOf = (out: JsonObject) => plain(out).spec.containers[0];

  it('sends HTTP and TCP probes to the agent and tells it the originals', () => {
    const out = postProcessPod(pod(), ctx());
    expect(appOf(out).readinessProbe).toEqual({ httpGet: { path: '/app-health/app/readyz', port: 15020, scheme: 'HTTP' }, timeoutSeconds: 3 });
    expect(appOf(out).livenessProbe).toEqual({ httpGet: { path: '/app-health/app/livez', port: 15020 } });
    expect(appOf(out).startupProbe).toEqual({ exec: { command: ['true'] } });
    expect(envOf(out, 'ISTIO_KUBE_APP_PROBERS')).toBe(
      '{"/app-health/app/livez":{"tcpSocket":{"port":8081}},"/app-health/app/readyz":{"httpGet":{"path":"/ready","port":8080,"scheme":"HTTPS"},"timeoutSeconds":3}}',
    );
  });

  // app_probe.go: TCPSocket rewritten from 1.12.0, GRPC from 1.13.0; DumpAppProbers' "prevent generate '{}'"
  // from 1.8.0 (Istio 1.9's hello.yaml golden has no ISTIO_KUBE_APP_PROBERS)
  it('follows the release: no TCP before 1.12, an empty {} before 1.8, gRPC from 1.13', () => {
    const old = postProcessPod(pod(), ctx({ version: v('1.11') }));
    expect(appOf(old).livenessProbe).toEqual({ tcpSocket: { port: 8081 } });
    expect(appOf(postProcessPod(pod(), ctx({ version: v('1.12') }))).livenessProbe.httpGet.port).toBe(15020);
    const none: JsonObject = { metadata: {}, spec: { containers: [{ name: 'a' }, proxy()] } };
    expect(envOf(postProcessPod(none, ctx({ version: v('1.7') })), 'ISTIO_KUBE_APP_PROBERS')).toBe('{}');
    expect(envOf(postProcessPod(none, ctx({ version: v('1.8') })), 'ISTIO_KUBE_APP_PROBERS')).toBeUndefined();
    expect(envOf(postProcessPod(none, ctx()), 'ISTIO_KUBE_APP_PROBERS')).toBeUndefined();
    const grpc: JsonObject = { spec: { containers: [{ name: 'g', livenessProbe: { grpc: { port: 9000 } } }, proxy()] } };
    // 1.12's k8s.io/api (0.22) has no gRPC probe: istiod's decoding drops it
    expect(appOf(postProcessPod(grpc, ctx({ version: v('1.12') }))).livenessProbe).toEqual({});
    expect(appOf(postProcessPod(grpc, ctx({ version: v('1.13') }))).livenessProbe).toEqual({ httpGet: { path: '/app-health/g/livez', port: 15020 } });
  });

  it('takes the status port from the annotation, and can be turned off per pod or by values', () => {
    expect(appOf(postProcessPod(pod({ 'status.sidecar.istio.io/port': '15888' }), ctx())).readinessProbe.httpGet.port).toBe(15888);
    expect(appOf(postProcessPod(pod({ 'sidecar.istio.io/rewriteAppHTTPProbers': 'false' }), ctx())).livenessProbe).toEqual({ tcpSocket: { port: 8081 } });
    expect(appOf(postProcessPod(pod(), ctx({ values: {} }))).livenessProbe).toEqual({ tcpSocket: { port: 8081 } });
    expect(appOf(postProcessPod(pod({ 'sidecar.istio.io/rewriteAppHTTPProbers': 'true' }), ctx({ values: {} }))).livenessProbe.httpGet.port).toBe(15020);
  });

  it('merges with the probers of an earlier injection, the earlier ones winning', () => {
    const earlier = '{"/app-health/app/livez":{"httpGet":{"path":"/old","port":1}}}';
    const p = pod();
    (p.spec as { containers: JsonObject[] }).containers[1] = proxy([{ name: 'ISTIO_KUBE_APP_PROBERS', value: earlier }]);
    const out = postProcessPod(p, ctx({ originalAnnotations: { 'sidecar.istio.io/status': '{}' } }));
    expect(envOf(out, 'ISTIO_KUBE_APP_PROBERS')).toBe(
      '{"/app-health/app/livez":{"httpGet":{"path":"/old","port":1}},"/app-health/app/readyz":{"httpGet":{"path":"/ready","port":8080,"scheme":"HTTPS"},"timeoutSeconds":3}}',
    );
  });

  it('rewrites lifecycle hooks from 1.25 and keeps probes of uncaptured ports on master', () => {
    const hooks: JsonObject = { spec: { containers: [{ name: 'h', lifecycle: { preStop: { httpGet: { path: '/stop', port: 80 } } } }, proxy()] } };
    expect(appOf(postProcessPod(hooks, ctx())).lifecycle.preStop.httpGet.path).toBe('/stop');
    expect(appOf(postProcessPod(hooks, ctx({ version: v('1.25') }))).lifecycle.preStop.httpGet).toEqual({ path: '/app-lifecycle/h/prestopz', port: 15020 });
    const excluded = postProcessPod(pod({ 'traffic.sidecar.istio.io/excludeInboundPorts': '8081' }), ctx({ version: v('master') }));
    expect(appOf(excluded).livenessProbe).toEqual({ tcpSocket: { port: 8081 } });
    expect(appOf(excluded).readinessProbe.httpGet.port).toBe(15020);
  });
});

describe('the old injector fsGroup', () => {
  const pod = (): JsonObject => ({ metadata: {}, spec: { containers: [{ name: 'a' }], securityContext: { runAsUser: 10 } } });
  const sc = (c: PostProcessContext) => plain(postProcessPod(pod(), c)).spec.securityContext;
  it('is 1337 for 1.7-1.9 unless ENABLE_LEGACY_FSGROUP_INJECTION=false, for 1.5-1.6 with an sdsUdsPath', () => {
    expect(sc(ctx({ version: v('1.8') }))).toEqual({ runAsUser: 10, fsGroup: 1337 });
    expect(sc(ctx({ version: v('1.8'), env: { ENABLE_LEGACY_FSGROUP_INJECTION: 'false' } }))).toEqual({ runAsUser: 10 });
    expect(sc(ctx({ version: v('1.5') }))).toEqual({ runAsUser: 10 });
    expect(sc(ctx({ version: v('1.5'), mesh: { sdsUdsPath: 'unix:/etc/istio/proxy/SDS' } }))).toEqual({ runAsUser: 10, fsGroup: 1337 });
    expect(sc(ctx({ version: v('1.10') }))).toEqual({ runAsUser: 10 });
  });
});

describe("master's prometheus.istio.io/scrape-targets", () => {
  const pod = (annotations: Record<string, string>): JsonObject => ({
    metadata: { annotations },
    spec: { containers: [{ name: 'app', image: 'a' }, { name: 'istio-proxy', image: 'p' }] },
  });
  const env = (p: JsonObject) => ((p.spec as any).containers[1].env as Array<{ name: string; value: string }> | undefined)?.find((e) => e.name === 'ISTIO_PROMETHEUS_ANNOTATIONS')?.value;

  it('lists the targets for the agent, the first as the legacy port and path, and drops the annotation', () => {
    const p = postProcessPod(pod({ 'prometheus.istio.io/scrape-targets': '8080, 9100:/custom' }), { version: v('master'), values: {}, mesh: {} } as PostProcessContext);
    expect(env(p)).toBe('{"scrape":"","path":"/metrics","port":"8080","targets":[{"port":"8080","path":"/metrics"},{"port":"9100","path":"/custom"}]}');
    expect(Object.keys((p.metadata as any).annotations).sort()).toEqual(['prometheus.io/path', 'prometheus.io/port', 'prometheus.io/scrape']);
  });

  it('refuses ports Istio owns, and is not read before master', () => {
    expect(() => postProcessPod(pod({ 'prometheus.istio.io/scrape-targets': '15090:/stats' }), { version: v('master'), values: {}, mesh: {} } as PostProcessContext)).toThrow(
      /target port 15090 is reserved for Istio \(Envoy Prometheus \(already merged\)\)/,
    );
    expect(() => postProcessPod(pod({ 'prometheus.io/port': 'http' }), { version: v('master'), values: {}, mesh: {} } as PostProcessContext)).toThrow(/invalid port "http"/);
    const old = postProcessPod(pod({ 'prometheus.istio.io/scrape-targets': '8080' }), { version: v('1.28'), values: {}, mesh: {} } as PostProcessContext);
    expect(env(old)).toBeUndefined();
    expect((old.metadata as any).annotations['prometheus.istio.io/scrape-targets']).toBe('8080');
  });
});

describe("istiod's REWRITE_TCP_PROBES", () => {
  const pod = (): JsonObject => ({
    metadata: {},
    spec: { containers: [{ name: 'app', image: 'a', readinessProbe: { tcpSocket: { port: 8080 } } }, { name: 'istio-proxy', image: 'p' }] },
  });
  const ctx = (env: Record<string, string>) => ({ version: v('1.24'), values: { sidecarInjectorWebhook: { rewriteAppHTTPProbe: true } }, mesh: {}, env, originalAnnotations: {} }) as unknown as PostProcessContext;

  it('rewrites TCP probes to the agent unless it is false', () => {
    expect((postProcessPod(pod(), ctx({})).spec as any).containers[0].readinessProbe.httpGet.port).toBe(15020);
    expect((postProcessPod(pod(), ctx({ REWRITE_TCP_PROBES: 'false' })).spec as any).containers[0].readinessProbe).toEqual({ tcpSocket: { port: 8080 } });
  });
});
