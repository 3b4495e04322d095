import { entrypointFacts, envIndex, envValue, proxyEnv } from '../lifecycle.js';
import { nativePossible, nativeRemedy, quitRemedy, fixFor } from '../remedies.js';
import type { Subject } from '../subject.js';
import { assumptions } from '../assumptions.js';
import { wrapperOf, type WrapperFinding } from '../wrappers.js';
import type { Rule } from './rule.js';

/**
 * How a classic proxy learns that the work is done: the application calling the proxy's
 * /quitquitquit when it finishes, a wrapper that does it for the application (envoy-preflight,
 * scuttle: told where by the container's environment), or stopping it by name in a shared process
 * namespace. EXIT_ON_ZERO_ACTIVE_CONNECTIONS is no such way: pilot-agent reads it only while
 * terminating, after a SIGTERM that nothing sends when the application exits.
 */
export function proxyExit(s: Subject): string | undefined {
  for (const c of [...s.initContainers, ...s.containers]) {
    if (c.isProxy || c.field === 'initContainers') continue;
    const f = entrypointFacts(c);
    if (f.quitsProxy) return `${c.name} calls the proxy's /quitquitquit when it is done`;
    // signalling the proxy by name reaches it only when the pod shares one process namespace
    if (f.killsProxy && s.spec['shareProcessNamespace'] === true) return `${c.name} stops the proxy's processes when it is done (shared process namespace)`;
    const w = wrapperOf(s, c);
    if (w?.ends) {
      const when = w.ends === 'always' ? 'when the application exits' : 'when the application exits 0';
      return `${c.name} runs under ${w.recognised}, which stops the proxy ${when}${w.assumed ? ` (assumed: ${w.assumed})` : ''}`;
    }
  }
  return undefined;
}

/** The wrappers recognised in the application containers, whatever they do. */
function wrappers(s: Subject): Array<WrapperFinding & { container: string }> {
  const out: Array<WrapperFinding & { container: string }> = [];
  for (const c of s.containers) {
    if (c.isProxy) continue;
    const w = wrapperOf(s, c);
    if (w) out.push({ ...w, container: c.name });
  }
  return out;
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
    'A pod completes only when all its containers have exited. A classic istio-proxy keeps running after the job\'s work is done unless the app calls /quitquitquit (Istio 1.3+), a wrapper does it for the app (envoy-preflight with ENVOY_KILL_API, scuttle with ISTIO_QUIT_API) or stops the proxy in a shared process namespace, or the proxy runs as a native sidecar. EXIT_ON_ZERO_ACTIVE_CONNECTIONS does not help: pilot-agent reads it only after SIGTERM, which nothing sends when the application exits.',
  check(s, report) {
    const proxy = s.proxy;
    if (!s.workload.runsToCompletion || !proxy || proxy.native || s.gateway) return;
    if (neverMeantToEnd(s)) return;
    const found = wrappers(s);
    if (proxyExit(s)) {
      // a wrapper that stops the proxy only after a clean exit: with restartPolicy Never a failed run
      // leaves the pod running, so the Job neither retries nor fails
      const partial = found.find((w) => w.ends === 'on-success');
      if (partial && s.spec['restartPolicy'] === 'Never' && !found.some((w) => w.ends === 'always')) {
        const at = s.containers.find((c) => c.name === partial.container)!;
        report({
          severity: 'warning',
          container: partial.container,
          message: `${partial.container} runs under ${partial.recognised}, but ${partial.why}: when the application fails, the proxy keeps running, the pod never completes and the ${s.workload.kind} neither retries nor fails (restartPolicy Never).${partial.assumed ? ` Assumed: ${partial.assumed}.` : ''}`,
          evidence: s.at(at, ['env']),
          fix: `${partial.fix!.charAt(0).toUpperCase()}${partial.fix!.slice(1)}.`,
        });
      }
      return;
    }
    const exitOnZero = proxyEnv(s, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS');
    const kind = s.workload.kind === 'Job' || s.workload.kind === 'CronJob' ? s.workload.kind : `${s.workload.kind} with restartPolicy ${String(s.spec['restartPolicy'] ?? '')}`;
    const note =
      exitOnZero !== undefined
        ? ` EXIT_ON_ZERO_ACTIVE_CONNECTIONS ("${exitOnZero}") does not end it: pilot-agent reads it only after SIGTERM, and nothing sends a classic sidecar SIGTERM when the application exits.`
        : '';
    const envAt = exitOnZero !== undefined && envValue(proxy, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS') !== undefined ? s.at(proxy, ['env', envIndex(proxy, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]) : undefined;
    const ways = [quitRemedy(s)];
    if (nativePossible(s)) ways.push(nativeRemedy(s));
    // what was recognised and why it does not end the proxy
    const wrapperNote = found.map((w) => ` ${w.container} runs under ${w.recognised}${w.assumed ? ` (assumed: ${w.assumed})` : ''}, but ${w.why}.`).join('');
    for (const w of [...found].reverse()) if (w.fix) ways.unshift(w.fix);
    report({
      container: proxy.name,
      message: `This ${kind} runs a classic istio-proxy sidecar with no exit mechanism: when the application finishes, the proxy keeps running and the pod never completes.${wrapperNote}${note}${assumptions(s)}`,
      evidence: envAt ?? s.at(proxy, []),
      fix: fixFor(s, ways.join('; or ')),
    });
  },
};
