// Benchmark: audit a generated cluster dump (`kubectl get cm,deploy,job,cronjob -A -o yaml` shape,
// one `kind: List`) of N objects, with the project's example injector and mesh ConfigMaps in it.
// Usage: node bench/audit-bench.js [objects=10000] [--model] [--values-lifecycle] [--unrenderable]
//   --values-lifecycle  the injector values ask for the hold and a custom lifecycle with the #7136 preStop
//                       (three findings in every workload from two lines of values: one per cause)
//   --unrenderable      one Deployment asks for a template the injector lacks (istiod rejects it)
// (after `npm run build`). Exits 1 when the audit takes longer than the budget (10 s for 10,000 objects).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.SIDECAR_RENDER_DIST ?? join(here, '..', 'dist');
const { auditDetailed, groupByCause } = await import(join(dist, 'audit', 'index.js'));

const n = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 10000);
const model = process.argv.includes('--model');
const valuesLifecycle = process.argv.includes('--values-lifecycle');
const unrenderable = process.argv.includes('--unrenderable');
const examples = join(here, '..', 'examples');

function container(i) {
  return {
    name: `app-${i % 7}`,
    image: `registry.example.com/team-${i % 13}/svc:${i % 100}`,
    ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
    env: [{ name: 'LOG_LEVEL', value: 'info' }, { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
    readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 5 },
    livenessProbe: { httpGet: { path: '/live', port: 8080 }, periodSeconds: 10 },
    ...(i % 5 === 0 ? { lifecycle: { preStop: { exec: { command: ['/bin/sh', '-c', 'sleep 5'] } } } } : {}),
    ...(i % 11 === 0 ? { command: ['/bin/sh', '-c', 'until curl -fs localhost:15021/healthz/ready; do sleep 1; done; exec /app'] } : {}),
  };
}

function meta(kind, i) {
  return {
    name: `${kind.toLowerCase()}-${i}`,
    namespace: `team-${i % 40}`,
    uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
    resourceVersion: String(100000 + i),
    creationTimestamp: '2024-01-01T00:00:00Z',
    labels: { app: `svc-${i}`, team: `team-${i % 13}` },
    annotations: { 'deployment.kubernetes.io/revision': '3' },
  };
}

function podTemplate(i, job) {
  const annotations = {};
  if (i % 3 === 0) annotations['proxy.istio.io/config'] = 'holdApplicationUntilProxyStarts: true\n';
  if (job && i % 2 === 0) annotations['sidecar.istio.io/nativeSidecar'] = 'true';
  return {
    metadata: { labels: { app: `svc-${i}` }, annotations },
    spec: {
      ...(job ? { restartPolicy: 'Never' } : {}),
      terminationGracePeriodSeconds: 30,
      containers: [container(i), ...(i % 4 === 0 ? [container(i + 1)] : [])],
      volumes: [{ name: 'config', configMap: { name: `cm-${i}` } }],
    },
  };
}

const items = [];
const text = (f) => readFileSync(join(examples, f), 'utf8');
const { parse } = await import('yaml');
const injector = parse(text('istio-sidecar-injector.yaml'));
if (valuesLifecycle) {
  const values = JSON.parse(injector.data.values);
  values.global.proxy.holdApplicationUntilProxyStarts = true;
  values.global.proxy.lifecycle = { preStop: { exec: { command: ['/bin/sh', '-c', 'while [ $(netstat -plunt | grep tcp | grep -v envoy | wc -l | xargs) -ne 0 ]; do sleep 1; done'] } } };
  injector.data.values = JSON.stringify(values, null, 2);
}
items.push(injector);
items.push(parse(text('istio-mesh.yaml')));
for (let i = 0; items.length < n; i++) {
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
      items.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('ConfigMap', i), data: { 'app.properties': `key=${i}\nother=value\n` } });
      break;
    case 3:
    case 4:
      items.push({ apiVersion: 'batch/v1', kind: 'Job', metadata: meta('Job', i), spec: { backoffLimit: 2, template: podTemplate(i, true) } });
      break;
    case 5:
      items.push({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: meta('CronJob', i), spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate(i, true) } } } });
      break;
    default:
      items.push({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta('Deployment', i), spec: { replicas: 2, selector: { matchLabels: { app: `svc-${i}` } }, template: podTemplate(i, false) } });
  }
}
if (unrenderable) {
  const d = items.find((x, i) => i > items.length / 2 && x.kind === 'Deployment');
  d.spec.template.metadata.annotations['inject.istio.io/templates'] = 'sidecar,custom';
}
const dump = stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } });

if (process.env.DUMP_TO) (await import("node:fs")).writeFileSync(process.env.DUMP_TO, dump);
const t0 = performance.now();
const result = auditDetailed([{ name: 'dump.yaml', text: dump }], model ? { inject: null } : {});
const ms = performance.now() - t0;
const budget = (10000 * n) / 10000;
const rendered = result.subjects.filter((s) => s.injection === 'rendered').length;
const modelled = result.subjects.filter((s) => s.injection === 'modelled').length;
const causes = groupByCause ? groupByCause(result.findings).length : undefined;
const rejected = result.findings.filter((f) => f.rule === 'injection-fails').length;
console.log(
  `audit: ${n} objects (${(dump.length / 1e6).toFixed(1)} MB), ${result.subjects.length} workloads (${rendered} rendered, ${modelled} modelled${rejected ? `, ${rejected} rejected by the injector` : ''}), ${result.findings.length} findings${causes !== undefined ? ` (${causes} causes)` : ''} in ${(ms / 1000).toFixed(2)} s (budget ${(budget / 1000).toFixed(1)} s)`,
);
if (causes !== undefined && valuesLifecycle) {
  // the causes behind most findings: each one finding, however many workloads it affects
  const top = groupByCause(result.findings).sort((a, b) => b.workloads.length - a.workloads.length).slice(0, 4);
  for (const g of top) console.log(`  ${g.first.severity} ${g.first.rule} at ${g.first.location}: affects ${g.workloads.length} workload${g.workloads.length === 1 ? "" : "s"}`);
}
process.exitCode = ms > budget ? 1 : 0;
