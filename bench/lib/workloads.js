// Workload files for the CLI cases: one Deployment, or a `kind: List` of n Deployments that differ in
// names, labels, containers and ports (so no two renders are the same text).
import { stringify } from 'yaml';

function deployment(i) {
  const name = `svc-${i}`;
  const ns = `team-${i % 17}`;
  const containers = [
    {
      name: 'app',
      image: `registry.example.com/${ns}/${name}:${1 + (i % 9)}.${i % 100}.0`,
      ports: [
        { containerPort: 8080, name: 'http' },
        ...(i % 3 === 0 ? [{ containerPort: 9090, name: 'grpc' }] : []),
      ],
      readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 5 },
      resources: { requests: { cpu: '100m', memory: '128Mi' } },
    },
  ];
  if (i % 4 === 0) containers.push({ name: 'worker', image: `registry.example.com/${ns}/${name}-worker:1.0`, args: ['--queue', name] });
  const annotations = {};
  if (i % 5 === 0) annotations['proxy.istio.io/config'] = 'holdApplicationUntilProxyStarts: true\n';
  if (i % 7 === 0) annotations['sidecar.istio.io/interceptionMode'] = 'TPROXY';
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: {
      replicas: 1 + (i % 3),
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name, version: `v${1 + (i % 3)}` }, ...(Object.keys(annotations).length ? { annotations } : {}) },
        spec: { serviceAccountName: name, containers },
      },
    },
  };
}

/** YAML text of a List of n Deployments. */
export function workloadList(n) {
  const items = [];
  for (let i = 0; i < n; i++) items.push(deployment(i));
  return stringify({ apiVersion: 'v1', kind: 'List', items }, { lineWidth: 0 });
}
