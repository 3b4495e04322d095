import { entrypointFacts, fmtSeconds, hook, isIstioInit } from '../lifecycle.js';
import type { Subject } from '../subject.js';
import { fixFor, holdAvailable, holdDoesNotFit, holdRemedy, nativePossible, nativeRemedy } from '../remedies.js';
import { assumptions } from '../assumptions.js';
import type { Rule } from './rule.js';

/** Is the proxy ready before the application starts (native ordering or an enforced hold)? */
export function proxyReadyFirst(s: Subject): boolean {
  const p = s.proxy;
  if (!p) return false;
  if (p.native) return !!p.spec['startupProbe'] || hook(p, 'postStart')?.readinessWait === 'blocking';
  return s.containers[0] === p && hook(p, 'postStart')?.readinessWait === 'blocking';
}

/**
 * Let the platform order start-up instead, with what this pod's release and restart policy allow:
 * not the hold for a pod that must not restart (hold-with-restart-never would flag it).
 */
function platformOrder(s: Subject, what: string): string {
  const ways: string[] = [];
  if (!holdDoesNotFit(s) && holdAvailable(s)) ways.push(holdRemedy(s));
  if (nativePossible(s)) ways.push(nativeRemedy(s));
  if (ways.length === 0) {
    const why = holdDoesNotFit(s)
      ? 'for a pod that runs to completion the hold does not fit (a timed-out hold fails the pod), and native sidecars need Istio 1.19+ on Kubernetes 1.29+'
      : `${s.template ? 'the injector template in the input' : `Istio ${s.release?.text ?? ''}`} has neither the hold (Istio 1.7+) nor native sidecars (Istio 1.19+ on Kubernetes 1.29+)`;
    return fixFor(s, `keep ${what} but bound it (a counter or \`timeout\`) until an upgrade: ${why}`);
  }
  return fixFor(s, `remove ${what} and let the platform order start-up: ${ways.join('; or ')}`);
}

export const appWaitsForProxy: Rule = {
  id: 'app-waits-for-proxy',
  severity: 'warning',
  summary: 'An application command that polls the proxy readiness endpoint or sleeps before starting.',
  description:
    'Wrapping the entrypoint in a loop on localhost:15021/healthz/ready (15020 before Istio 1.6) or a fixed sleep was the workaround before holdApplicationUntilProxyStarts and native sidecars: it is redundant when the proxy already starts first, and it hangs where no proxy can answer.',
  check(s, report) {
    const readyFirst = proxyReadyFirst(s);
    for (const c of [...s.initContainers, ...s.containers]) {
      if (c.isProxy || isIstioInit(c)) continue;
      const f = entrypointFacts(c);
      const at = s.at(c, c.spec['args'] !== undefined && !Array.isArray(c.spec['command']) ? ['args'] : ['command']);
      if (f.pollsProxy) {
        const url = `localhost:${f.pollsProxy.port}`;
        if (!s.proxy) {
          report({
            severity: 'error',
            container: c.name,
            message: `${c.name} waits for the proxy on ${url} before starting, but this pod gets no istio-proxy: the wait never ends.`,
            evidence: at,
            fix: 'Remove the wait from command/args, or enable injection for this workload.',
          });
        } else if (c.field === 'initContainers' && !c.native && !s.proxy.native) {
          report({
            severity: 'error',
            container: c.name,
            message: `Init container ${c.name} waits for the proxy on ${url}, but the classic proxy starts only after all init containers have finished: the pod never starts.`,
            evidence: at,
            fix: fixFor(s, `remove the wait from the init container${nativePossible(s) ? ` (or ${nativeRemedy(s)}: a native sidecar starts before later init containers)` : ''}`),
          });
        } else {
          report({
            container: c.name,
            message: readyFirst
              ? `${c.name} polls ${url} before starting, which is redundant: the proxy is already ready when ${c.name} starts.`
              : `${c.name} polls ${url} in its command to wait for the proxy: an application-level workaround for start order that each image must carry.${assumptions(s)}`,
            evidence: at,
            fix: readyFirst ? 'Remove the wait loop from command/args and start the application directly.' : platformOrder(s, 'the wait loop'),
          });
        }
        continue;
      }
      if (f.leadingSleep !== undefined && s.proxy && !c.native && c.field === 'containers') {
        report({
          container: c.name,
          message: `${c.name} sleeps ${fmtSeconds(f.leadingSleep)} before starting, guessing how long the proxy takes: ${readyFirst ? 'redundant, the proxy is already ready' : 'too short on a slow start, wasted time otherwise'}.${readyFirst ? '' : assumptions(s)}`,
          evidence: at,
          fix: readyFirst ? 'Remove the sleep from command/args.' : platformOrder(s, 'the sleep'),
        });
      }
    }
  },
};
