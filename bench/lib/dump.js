// A cluster dump as `kubectl get deploy,job,cronjob,pod -A -o yaml` prints it, for the scale cases of
// bench/run.js (`merged`): Deployments, Jobs, Pods and CronJobs mixed, with what a live object carries
// (uid, resourceVersion, the last-applied-configuration annotation, a status), about 2.2 KB each, and now
// and then a workload of Istio's own injection tests (read at run time from their folder, renamed), so
// the templates take their less common paths too. Built in memory; never committed.
//
//   node bench/lib/dump.js N [list|multi] [INJECT_TESTDATA_DIR] > dump.yaml
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, stringify } from 'yaml';

/** Workloads of Istio's injection tests that every mode renders without error (no refused annotations). */
const REAL = ['frontend', 'cronjob', 'daemonset', 'hello', 'job', 'multi-container', 'statefulset', 'replicaset', 'startup_ready_live', 'traffic-annotations', 'user-volume', 'pod', 'hello-probes', 'two_container', 'multi-init', 'hello-probes-proxyHoldApplication-ProxyConfig'];
const KINDS = new Set(['Deployment', 'Job', 'CronJob', 'Pod', 'DaemonSet', 'StatefulSet', 'ReplicaSet']);

/** The folder of Istio's injection test inputs (1.24.0), if there is one. */
export function injectTestdata(root) {
  const base = process.env.SIDECAR_RENDER_ISTIO_INJECT_TESTS ?? join(root, '..', 'shared', 'istio-inject-tests');
  const dir = join(base, '1.24.0', 'testdata', 'inject');
  return existsSync(dir) ? dir : undefined;
}

function realWorkloads(dir) {
  if (!dir) return [];
  const out = [];
  for (const n of REAL) {
    const f = join(dir, `${n}.yaml`);
    if (!existsSync(f)) continue;
    for (const d of parseAllDocuments(readFileSync(f, 'utf8'))) {
      const v = d.toJS();
      if (v && KINDS.has(v.kind)) out.push(v);
    }
  }
  return out;
}

function container(i, j) {
  const name = j === 0 ? 'app' : `sidecar-${j}`;
  return {
    name,
    image: `registry.example.com/team-${i % 23}/svc-${i}${j ? `-${name}` : ''}:${1 + (i % 9)}.${i % 50}.${j}`,
    imagePullPolicy: 'IfNotPresent',
    ...(i % 6 === 0 ? { command: ['/bin/app'], args: ['--port=8080', `--name=svc-${i}`, '--log-level=info'] } : {}),
    ports: [{ containerPort: 8080 + j, name: j ? `http-${j}` : 'http', protocol: 'TCP' }, ...(i % 3 === 0 && j === 0 ? [{ containerPort: 9090, name: 'grpc', protocol: 'TCP' }] : [])],
    env: [
      { name: 'LOG_LEVEL', value: i % 4 ? 'info' : 'debug' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      ...(i % 5 === 0 ? [{ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: `db-${i % 31}`, key: 'password' } } }] : []),
    ],
    resources: { requests: { cpu: `${50 + (i % 8) * 50}m`, memory: `${64 << i % 4}Mi` }, limits: { memory: `${256 << i % 3}Mi` } },
    readinessProbe: { httpGet: { path: '/ready', port: 8080 + j, scheme: 'HTTP' }, periodSeconds: 5 },
    ...(i % 4 === 0 ? { livenessProbe: { httpGet: { path: '/live', port: 8080 + j, scheme: 'HTTP' }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 } } : {}),
    ...(i % 7 === 0 ? { lifecycle: { preStop: { exec: { command: ['/bin/sh', '-c', 'sleep 5'] } } } } : {}),
    volumeMounts: [{ name: 'config', mountPath: '/etc/app', readOnly: true }],
  };
}

function podSpec(i, job) {
  return {
    ...(job ? { restartPolicy: i % 2 ? 'Never' : 'OnFailure' } : { restartPolicy: 'Always' }),
    serviceAccountName: `svc-${i % 97}`,
    terminationGracePeriodSeconds: i % 4 === 0 ? 60 : 30,
    dnsPolicy: 'ClusterFirst',
    schedulerName: 'default-scheduler',
    securityContext: i % 3 === 0 ? { runAsNonRoot: true, fsGroup: 2000 } : {},
    containers: Array.from({ length: i % 8 === 0 ? 2 : 1 }, (_, j) => container(i, j)),
    volumes: [{ name: 'config', configMap: { name: `cm-${i}`, defaultMode: 420 } }],
  };
}

function meta(kind, i, labels) {
  return {
    name: `${kind.toLowerCase()}-${i}`,
    namespace: `team-${i % 41}`,
    uid: `6f1c${String(i).padStart(4, '0')}-0000-4000-8000-${String(i * 7919).padStart(12, '0')}`,
    resourceVersion: String(1000000 + i * 13),
    generation: 1 + (i % 4),
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels,
  };
}

function lastApplied(obj) {
  const { metadata, spec } = obj;
  return JSON.stringify({ apiVersion: obj.apiVersion, kind: obj.kind, metadata: { labels: metadata.labels, name: metadata.name, namespace: metadata.namespace }, spec });
}

function annotate(obj, i) {
  const tmpl = obj.kind === 'Pod' ? obj : obj.kind === 'CronJob' ? obj.spec.jobTemplate.spec.template : obj.spec.template;
  const a = {};
  if (i % 5 === 0) a['proxy.istio.io/config'] = 'holdApplicationUntilProxyStarts: true\n';
  if (i % 9 === 0) a['traffic.sidecar.istio.io/excludeOutboundPorts'] = '5432,6379';
  if (i % 13 === 0) a['sidecar.istio.io/nativeSidecar'] = 'true';
  if (i % 11 === 0) a['prometheus.io/scrape'] = 'true';
  if (Object.keys(a).length) tmpl.metadata.annotations = { ...(tmpl.metadata.annotations ?? {}), ...a };
  if (obj.kind !== 'Pod' && i % 6 === 0) obj.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied(obj) + '\n' };
  return obj;
}

function generated(i) {
  const app = `svc-${i}`;
  const labels = { app, 'app.kubernetes.io/part-of': `shop-${i % 17}`, version: `v${1 + (i % 3)}` };
  switch (i % 10) {
    case 0:
    case 1:
      return annotate({ apiVersion: 'batch/v1', kind: 'Job', metadata: meta('Job', i, labels), spec: { backoffLimit: 2, completions: 1, parallelism: 1, template: { metadata: { labels }, spec: podSpec(i, true) } }, status: { succeeded: 1 } }, i);
    case 2:
      return annotate({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: meta('CronJob', i, labels), spec: { schedule: '*/15 * * * *', concurrencyPolicy: 'Forbid', jobTemplate: { spec: { template: { metadata: { labels }, spec: podSpec(i, true) } } } }, status: {} }, i);
    case 3:
      return annotate({ apiVersion: 'v1', kind: 'Pod', metadata: { ...meta('Pod', i, labels), annotations: {} }, spec: { ...podSpec(i, false), nodeName: `node-${i % 50}` }, status: { phase: 'Running', podIP: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` } }, i);
    default:
      return annotate(
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: meta('Deployment', i, labels),
          spec: {
            replicas: 1 + (i % 3),
            revisionHistoryLimit: 10,
            selector: { matchLabels: { app } },
            strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
            template: { metadata: { labels }, spec: podSpec(i, false) },
          },
          status: { replicas: 1 + (i % 3), readyReplicas: 1 + (i % 3), observedGeneration: 1 + (i % 4) },
        },
        i,
      );
  }
}

/** The items: generated workloads, with one of Istio's test workloads (renamed) every 25th. */
export function dumpItems(n, testdata) {
  const real = realWorkloads(testdata);
  const items = [];
  for (let i = 0; i < n; i++) {
    if (real.length && i % 25 === 24) {
      const w = structuredClone(real[(i / 25) % real.length | 0]);
      w.metadata = { ...(w.metadata ?? {}), name: `${w.metadata?.name ?? 'istio-test'}-${i}` };
      items.push(w);
    } else items.push(generated(i));
  }
  return items;
}

/** YAML text of the dump: one `kind: List` (list) or one document per object (multi). */
export function clusterDump(n, format = 'list', testdata = undefined) {
  const items = dumpItems(n, testdata);
  // item by item (the yaml package is slow on one huge value), no anchors for repeated objects, and the
  // List's items unindented, as kubectl prints them
  const opts = { lineWidth: 0, aliasDuplicateObjects: false, indentSeq: false };
  if (format === 'multi') return items.map((x) => stringify(x, opts)).join('---\n');
  return `apiVersion: v1\nitems:\n${items.map((x) => stringify([x], opts)).join('')}kind: List\nmetadata:\n  resourceVersion: ""\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [n = '23000', format = 'list', dir] = process.argv.slice(2);
  process.stdout.write(clusterDump(Number(n), format, dir ?? injectTestdata(join(fileURLToPath(import.meta.url), '..', '..', '..'))));
}
