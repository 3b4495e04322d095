// Entrypoint wrappers that end a Job's proxy (envoy-preflight, scuttle): what each reads from the
// container's environment, and the finding when what it reads cannot end the proxy. One row a case.

import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit/index.js';

const job = (command: string, env: Record<string, string>, pod = '') => `apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: n}
spec:
  template:
    spec:
      restartPolicy: Never
${pod}      containers:
      - name: app
        image: app:1
${command}        env:
${Object.entries(env).map(([name, value]) => `        - {name: ${name}, value: ${JSON.stringify(value)}}`).join('\n')}
`;
const preflight = '        command: [envoy-preflight, ./run]\n';
const scuttle = '        command: [/scuttle, ./run]\n';
const admin = { ENVOY_ADMIN_API: 'http://localhost:15000' };

type Row = [what: string, yaml: string, want: { severity?: 'error' | 'warning'; says?: string } | 'none'];
const rows: Row[] = [
  ['envoy-preflight, kill API on pilot-agent, always', job(preflight, { ...admin, ENVOY_KILL_API: 'http://localhost:15020/quitquitquit', ALWAYS_KILL_ENVOY: 'true' }), 'none'],
  ["envoy-preflight's default kill API is Envoy's admin /quitquitquit", job(preflight, { ...admin, ALWAYS_KILL_ENVOY: 'true' }), 'none'],
  ['envoy-preflight without ENVOY_ADMIN_API does nothing', job(preflight, { ENVOY_KILL_API: 'http://localhost:15020/quitquitquit' }), { severity: 'error', says: 'which is not set' }],
  ['envoy-preflight with a remote admin API does nothing', job(preflight, { ENVOY_ADMIN_API: 'http://envoy.mesh:15000', ALWAYS_KILL_ENVOY: 'true' }), { severity: 'error', says: 'and it is http://envoy.mesh:15000' }],
  ['NEVER_KILL_ENVOY', job(preflight, { ...admin, NEVER_KILL_ENVOY: 'true' }), { severity: 'error', says: 'NEVER_KILL_ENVOY=true' }],
  ['a kill API nothing of the proxy listens on', job(preflight, { ...admin, ENVOY_KILL_API: 'http://localhost:9901/quitquitquit', ALWAYS_KILL_ENVOY: 'true' }), { severity: 'error', says: 'nothing of the proxy listens on port 9901' }],
  ['only after a clean exit, restartPolicy Never', job(preflight, { ...admin, ENVOY_KILL_API: 'http://localhost:15020/quitquitquit' }), { severity: 'warning', says: 'only when the application exits 0' }],
  ['scuttle with ISTIO_QUIT_API', job(scuttle, { ...admin, ISTIO_QUIT_API: 'http://127.0.0.1:15020' }), 'none'],
  ['scuttle without ISTIO_QUIT_API: pkill, which sees no pilot-agent', job(scuttle, admin), { severity: 'error', says: 'pkill -SIGINT pilot-agent' }],
  ['scuttle without ISTIO_QUIT_API in a shared process namespace', job(scuttle, admin, '      shareProcessNamespace: true\n'), 'none'],
  ['scuttle, NEVER_KILL_ISTIO_ON_FAILURE', job(scuttle, { ...admin, ISTIO_QUIT_API: 'http://127.0.0.1:15020', NEVER_KILL_ISTIO_ON_FAILURE: 'true' }), { severity: 'warning', says: 'leave the proxy running when the application fails' }],
  ['ISTIO_QUIT_API with no command: the image runs scuttle', job('        args: [./run]\n', { ...admin, ISTIO_QUIT_API: 'http://127.0.0.1:15020' }), 'none'],
  ['ENVOY_KILL_API beside a command that is not the wrapper', job('        command: [./run]\n', { ...admin, ENVOY_KILL_API: 'http://127.0.0.1:15020/quitquitquit' }), { severity: 'error', says: 'does not run envoy-preflight, so nothing reads ENVOY_KILL_API' }],
  ['a wrapper named in the script the command runs', job("        command: [sh, -c, 'exec scuttle ./run']\n", { ...admin, ISTIO_QUIT_API: 'http://127.0.0.1:15020' }), 'none'],
];

describe('job-never-completes and the wrappers that end a proxy', () => {
  for (const [what, yaml, want] of rows) {
    it(what, () => {
      const found = audit([{ name: 'job.yaml', text: yaml }], { inject: null }).filter((f) => f.rule === 'job-never-completes');
      if (want === 'none') return expect(found, JSON.stringify(found, null, 1)).toEqual([]);
      expect(found).toHaveLength(1);
      expect(found[0]!.severity).toBe(want.severity);
      expect(found[0]!.message).toContain(want.says);
    });
  }
  it('a pilot-agent too old for /quitquitquit', () => {
    const pod = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: n, annotations: {sidecar.istio.io/status: '{}'}}
spec:
  restartPolicy: Never
  containers:
  - name: app
    image: app:1
    command: [envoy-preflight, ./run]
    env:
    - {name: ENVOY_ADMIN_API, value: "http://localhost:15000"}
    - {name: ENVOY_KILL_API, value: "http://localhost:15020/quitquitquit"}
    - {name: ALWAYS_KILL_ENVOY, value: "true"}
  - name: istio-proxy
    image: docker.io/istio/proxyv2:1.2.5
    args: [proxy, sidecar]
`;
    const found = audit([{ name: 'pod.yaml', text: pod }]).filter((f) => f.rule === 'job-never-completes');
    expect(found.map((f) => f.message).join('')).toContain('pilot-agent 1.2.5 has no /quitquitquit (it came in 1.3)');
  });
});
