// What the API server fills into a Pod before any admission webhook sees it (k8s.io/kubernetes
// pkg/apis/core/v1 SetDefaults_Pod, SetDefaults_PodSpec, SetDefaults_Container and the generated
// `+default` markers), for pods written by hand rather than read back from a cluster. istiod's webhook
// reads the defaulted pod, so the template data and the overrides it records see these fields.
// A field Go holds as a zero value ("" or 0) counts as unset, as in the Go code.
//
// Public API
//   applyKubeDefaults(pod)        the pod ({metadata, spec} JSON) with the defaults filled in (a copy)
//   defaultImagePullPolicy(image) Always for an image whose tag is (or defaults to) latest, else IfNotPresent
//
// Mirrors: k8s.io/kubernetes pkg/apis/core/v1/{defaults,zz_generated.defaults}.go
// Proven by: test/istio/webhook-overrides.test.ts

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function unset(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === 0;
}

// docker/distribution's reference grammar, as parsers.ParseImageName reads an image through
// ParseNormalizedNamed: [domain/]path[:tag][@digest], the path in lower case.
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
// the grammar's separator `[-]*` may be empty; `-+` reads the same names without the backtracking
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const REFERENCE = new RegExp(
  `^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::([\\w][\\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$`,
);
const DIGEST_HEX_LENGTH: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };

/**
 * SetDefaults_Container's pull policy: Always when the tag is `latest`, which it is when the image names
 * neither a tag nor a digest; IfNotPresent otherwise, also for an image the reference parser refuses.
 */
export function defaultImagePullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image.length > 1024) return 'IfNotPresent';
  const m = REFERENCE.exec(image);
  if (!m || m[1]!.length > 255) return 'IfNotPresent';
  // the first component is a registry only if it looks like a host; else it is part of the lower-case path
  const slash = m[1]!.indexOf('/');
  const first = slash < 0 ? '' : m[1]!.slice(0, slash);
  if (first !== '' && !/[.:]/.test(first) && first !== 'localhost' && first !== first.toLowerCase()) return 'IfNotPresent';
  // a 64-hex name is taken for an image ID, not a repository
  if (/^[a-f0-9]{64}$/.test(image)) return 'IfNotPresent';
  const digest = m[3];
  if (digest !== undefined) {
    const [alg, hex] = digest.split(':') as [string, string];
    const want = DIGEST_HEX_LENGTH[alg];
    if (want === undefined || hex.length !== want || /[A-F]/.test(hex)) return 'IfNotPresent';
  }
  const tag = m[2] ?? (digest === undefined ? 'latest' : '');
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function httpGetDefaults(a: unknown): unknown {
  if (!isObj(a)) return a;
  const o: Obj = { ...a };
  if (unset(o.path)) o.path = '/';
  if (unset(o.scheme)) o.scheme = 'HTTP';
  return o;
}

function probeDefaults(p: unknown): unknown {
  if (!isObj(p)) return p;
  const o: Obj = { ...p };
  if (unset(o.timeoutSeconds)) o.timeoutSeconds = 1;
  if (unset(o.periodSeconds)) o.periodSeconds = 10;
  if (unset(o.successThreshold)) o.successThreshold = 1;
  if (unset(o.failureThreshold)) o.failureThreshold = 3;
  if (o.httpGet !== undefined) o.httpGet = httpGetDefaults(o.httpGet);
  // GRPCAction.Service is `+default=""`
  if (isObj(o.grpc) && (o.grpc.service === undefined || o.grpc.service === null)) o.grpc = { ...o.grpc, service: '' };
  return o;
}

function lifecycleDefaults(l: unknown): unknown {
  if (!isObj(l)) return l;
  const o: Obj = { ...l };
  for (const k of ['postStart', 'preStop']) {
    const h = o[k];
    if (isObj(h) && h.httpGet !== undefined) o[k] = { ...h, httpGet: httpGetDefaults(h.httpGet) };
  }
  return o;
}

function envDefaults(env: unknown): unknown {
  if (!Array.isArray(env)) return env;
  return env.map((e) => {
    if (!isObj(e) || !isObj(e.valueFrom) || !isObj(e.valueFrom.fieldRef)) return e;
    const ref = e.valueFrom.fieldRef;
    if (!unset(ref.apiVersion)) return e;
    return { ...e, valueFrom: { ...e.valueFrom, fieldRef: { ...ref, apiVersion: 'v1' } } };
  });
}

/** SetDefaults_Pod: limits without requests become the requests too (on Pods, not pod templates). */
function resourceDefaults(r: unknown): unknown {
  if (r === undefined || r === null) return {};
  if (!isObj(r) || !isObj(r.limits)) return r;
  const requests: Obj = isObj(r.requests) ? { ...r.requests } : {};
  for (const [k, v] of Object.entries(r.limits)) if (!Object.prototype.hasOwnProperty.call(requests, k)) requests[k] = v;
  return { ...r, requests };
}

function containerDefaults(c: unknown, hostNetwork: boolean): unknown {
  if (!isObj(c)) return c;
  const o: Obj = { ...c };
  if (unset(o.imagePullPolicy)) o.imagePullPolicy = defaultImagePullPolicy(typeof o.image === 'string' ? o.image : '');
  if (unset(o.terminationMessagePath)) o.terminationMessagePath = '/dev/termination-log';
  if (unset(o.terminationMessagePolicy)) o.terminationMessagePolicy = 'File';
  if (Array.isArray(o.ports)) {
    o.ports = o.ports.map((p) => {
      if (!isObj(p)) return p;
      const q: Obj = { ...p };
      if (unset(q.protocol)) q.protocol = 'TCP';
      if (hostNetwork && unset(q.hostPort) && q.containerPort !== undefined) q.hostPort = q.containerPort;
      return q;
    });
  }
  for (const k of ['livenessProbe', 'readinessProbe', 'startupProbe']) if (o[k] !== undefined) o[k] = probeDefaults(o[k]);
  if (o.lifecycle !== undefined) o.lifecycle = lifecycleDefaults(o.lifecycle);
  if (o.env !== undefined) o.env = envDefaults(o.env);
  o.resources = resourceDefaults(o.resources);
  return o;
}

export function applyKubeDefaults(pod: Obj): Obj {
  const spec: Obj = isObj(pod.spec) ? { ...pod.spec } : {};
  const hostNetwork = spec.hostNetwork === true;
  if (Array.isArray(spec.containers)) spec.containers = spec.containers.map((c) => containerDefaults(c, hostNetwork));
  if (Array.isArray(spec.initContainers)) spec.initContainers = spec.initContainers.map((c) => containerDefaults(c, hostNetwork));
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  spec.serviceAccountName ??= 'default';
  spec.serviceAccount ??= spec.serviceAccountName;
  spec.enableServiceLinks ??= true;
  return { ...pod, spec };
}
