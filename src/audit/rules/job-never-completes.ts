import { entrypointFacts, envIndex, envValue, proxyEnv } from '../lifecycle.js';
import { nativePossible, nativeRemedy, quitRemedy, fixFor } from '../remedies.js';
import type { Subject } from '../subject.js';
import { assumptions } from '../assumptions.js';
import type { Rule } from './rule.js';

/**
 * How a classic proxy learns that the work is done: the application (or its wrapper) calling the
 * proxy's /quitquitquit when it finishes, or stopping it by name in a shared process namespace.
 * EXIT_ON_ZERO_ACTIVE_CONNECTIONS is no such way: pilot-agent reads it only while terminating, after
 * a SIGTERM that nothing sends when the application exits.
 */
export function proxyExit(s: Subject): string | undefined {
  for (const c of [...s.initContainers, ...s.containers]) {
    if (c.isProxy || c.field === 'initContainers') continue;
    const f = entrypointFacts(c);
    if (f.quitsProxy) return `${c.name} calls the proxy's /quitquitquit when it is done`;
    // signalling the proxy by name reaches it only when the pod shares one process namespace
    if (f.killsProxy && s.spec['shareProcessNamespace'] === true) return `${c.name} stops the proxy's processes when it is done (shared process namespace)`;
  }
  return undefined;
}

/** Every application container runs forever on purpose (`sleep infinity`): there is no completion to block. */
function neverMeantToEnd(s: Subject): boolean {
  const apps = s.containers.filter((c) => !c.isProxy);
  return apps.length > 0 && apps.every((c) => entrypointFacts(c).neverEnds !== undefined);
}

export const jobNeverCompletes: Rule = {
  id: 'job-never-completes',
  severity: 'error',
  summary: 'A Job or CronJob with a classic proxy sidecar and no way for the proxy to exit.',
  description:
    'A pod completes only when all its containers have exited. A classic istio-proxy keeps running after the job\'s work is done unless the app calls /quitquitquit (Istio 1.3+), a wrapper stops the proxy in a shared process namespace, or the proxy runs as a native sidecar. EXIT_ON_ZERO_ACTIVE_CONNECTIONS does not help: pilot-agent reads it only after SIGTERM, which nothing sends when the application exits.',
  check(s, report) {
    const proxy = s.proxy;
    if (!s.workload.runsToCompletion || !proxy || proxy.native || s.gateway) return;
    if (proxyExit(s) || neverMeantToEnd(s)) return;
    const exitOnZero = proxyEnv(s, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS');
    const kind = s.workload.kind === 'Job' || s.workload.kind === 'CronJob' ? s.workload.kind : `${s.workload.kind} with restartPolicy ${String(s.spec['restartPolicy'] ?? '')}`;
    const note =
      exitOnZero !== undefined
        ? ` EXIT_ON_ZERO_ACTIVE_CONNECTIONS ("${exitOnZero}") does not end it: pilot-agent reads it only after SIGTERM, and nothing sends a classic sidecar SIGTERM when the application exits.`
        : '';
    const envAt = exitOnZero !== undefined && envValue(proxy, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS') !== undefined ? s.at(proxy, ['env', envIndex(proxy, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]) : undefined;
    const ways = [quitRemedy(s)];
    if (nativePossible(s)) ways.push(nativeRemedy(s));
    report({
      container: proxy.name,
      message: `This ${kind} runs a classic istio-proxy sidecar with no exit mechanism: when the application finishes, the proxy keeps running and the pod never completes.${note}${assumptions(s)}`,
      evidence: envAt ?? s.at(proxy, []),
      fix: fixFor(s, ways.join('; or ')),
    });
  },
};
