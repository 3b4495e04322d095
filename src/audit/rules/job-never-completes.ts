import { entrypointFacts, envIndex, envValue, exitOnZeroActive, hook, proxyEnv } from '../lifecycle.js';
import type { Subject } from '../subject.js';
import type { Rule } from './rule.js';

/** How a classic proxy learns that the work is done: the app's /quitquitquit call, or exit-on-zero. */
export function proxyExit(s: Subject): string | undefined {
  if (exitOnZeroActive(proxyEnv(s, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS'))) return 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS makes the proxy exit once its connections are gone';
  for (const c of [...s.initContainers, ...s.containers]) {
    if (c.isProxy) continue;
    if (entrypointFacts(c).quitsProxy) return `${c.name} calls the proxy's /quitquitquit when it is done`;
    const pre = hook(c, 'preStop');
    if (pre && /quitquitquit/.test(pre.text)) return `${c.name}'s preStop calls the proxy's /quitquitquit`;
  }
  return undefined;
}

export const jobNeverCompletes: Rule = {
  id: 'job-never-completes',
  severity: 'error',
  summary: 'A Job or CronJob with a classic proxy sidecar and no way for the proxy to exit.',
  description:
    'A pod completes only when all its containers have exited. A classic istio-proxy keeps running after the job\'s work is done unless the app calls /quitquitquit, EXIT_ON_ZERO_ACTIVE_CONNECTIONS is "true", or the proxy runs as a native sidecar.',
  check(s, report) {
    const proxy = s.proxy;
    if (!s.workload.runsToCompletion || !proxy || proxy.native || s.gateway) return;
    if (proxyExit(s)) return;
    const exitOnZero = proxyEnv(s, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS');
    const kind = s.workload.kind === 'Job' || s.workload.kind === 'CronJob' ? s.workload.kind : `${s.workload.kind} with restartPolicy ${String(s.spec['restartPolicy'] ?? '')}`;
    const note = exitOnZero !== undefined ? ` (EXIT_ON_ZERO_ACTIVE_CONNECTIONS is "${exitOnZero}", not "true")` : '';
    const envAt = exitOnZero !== undefined && envValue(proxy, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS') !== undefined ? s.at(proxy, ['env', envIndex(proxy, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]) : undefined;
    report({
      container: proxy.name,
      message: `This ${kind} runs a classic istio-proxy sidecar with no exit mechanism${note}: when the application finishes, the proxy keeps running and the pod never completes.`,
      evidence: envAt ?? s.at(proxy, []),
      fix: 'Run the proxy as a native sidecar (annotation sidecar.istio.io/nativeSidecar: "true", Kubernetes 1.29+), or have the app call `curl -fsS -X POST localhost:15020/quitquitquit` when it is done, or set proxyMetadata EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "true" in proxy.istio.io/config.',
    });
  },
};
