import { envValue, hook, proxyLifecycleIsCustom } from '../lifecycle.js';
import { holdAvailable, holdDoesNotFit, holdRemedy, fixFor, insteadOfHold, waitRemedy } from '../remedies.js';
import { releaseBefore } from '../release.js';
import type { Subject } from '../subject.js';
import { get, isObject, isTrue } from '../types.js';
import { assumptions } from '../assumptions.js';
import type { Rule } from './rule.js';

/** Did the injector see the hold? An injected proxy's PROXY_CONFIG carries the ProxyConfig it was given. */
function injectedWithHold(s: Subject): boolean {
  const v = envValue(s.proxy, 'PROXY_CONFIG');
  if (v === undefined) return false;
  try {
    const pc: unknown = JSON.parse(v);
    return isObject(pc) && isTrue(get(pc, 'holdApplicationUntilProxyStarts'));
  } catch {
    return /holdApplicationUntilProxyStarts"?\s*:\s*"?true/.test(v);
  }
}

/** The containers the input itself lists ahead of istio-proxy (a raw pod with its own istio-proxy entry). */
function orderedByInput(s: Subject): string[] {
  const names = Array.isArray(s.workload.spec['containers']) ? (s.workload.spec['containers'] as unknown[]).map((c) => String(get(c, 'name'))) : [];
  const at = names.indexOf('istio-proxy');
  return at > 0 ? names.slice(0, at) : [];
}

// The hold works only because the kubelet starts containers in order and waits for each postStart:
// the proxy must come first and its postStart must block until Envoy is ready.
export const holdNotEnforced: Rule = {
  id: 'hold-not-enforced',
  severity: 'error',
  summary: 'Hold is requested, but the proxy is not the first container or its postStart does not block until ready.',
  description:
    'The kubelet starts containers one by one and waits for each postStart hook; holdApplicationUntilProxyStarts relies on the proxy being first with a postStart that blocks (pilot-agent wait). Otherwise the application starts before the proxy is ready.',
  check(s, report) {
    const proxy = s.proxy;
    if (!proxy || s.gateway || proxy.native || !s.settings.hold.requested) return;
    const src = s.settings.hold.sources.find((x) => x.value);
    const requested = `holdApplicationUntilProxyStarts is requested${src ? ` (${src.what})` : ''}`;
    const r = s.release;
    const first = s.containers[0];
    const notFirst = !!first && first !== proxy;
    const post = hook(proxy, 'postStart');
    const evidence = s.settings.hold.evidence ?? s.at(proxy, []);

    // the release cannot hold at all, or not from where it was asked
    if (!holdAvailable(s)) {
      const who = releaseBefore(r, 1, 7) ? `this pod runs Istio ${r!.text}, which` : 'the injector template in the input';
      report({
        container: proxy.name,
        message: `${requested}, but ${who} has no hold (it came in Istio 1.7): the setting does nothing.`,
        evidence,
        fix: holdDoesNotFit(s) ? insteadOfHold(s, 'upgrading for the hold') : fixFor(s, holdRemedy(s)),
      });
      return;
    }
    const valuesOnly = s.template?.hold === 'values' || (r && r.major === 1 && r.minor === 7);
    if (valuesOnly && src && !src.what.startsWith('values')) {
      report({
        container: proxy.name,
        message: `${requested}, but ${s.template?.hold === 'values' ? 'the injector template in the input' : 'Istio 1.7'} reads the hold only from values global.proxy.holdApplicationUntilProxyStarts, so the injector left it out${notFirst ? ` (istio-proxy comes after ${first!.name})` : ''}${post ? '' : ' and the proxy has no `pilot-agent wait` postStart'}.`,
        evidence,
        fix: holdDoesNotFit(s) ? insteadOfHold(s, 'enabling the hold in values') : fixFor(s, `${holdRemedy(s)}, then re-inject the pod (kubectl rollout restart)`),
      });
      return;
    }
    // an injected pod whose injector did not see the hold: it was turned on later
    if (s.injection === 'injected' && !post && !injectedWithHold(s)) {
      report({
        container: proxy.name,
        message: `${requested}, but this pod was injected without it (its PROXY_CONFIG has no holdApplicationUntilProxyStarts: true${notFirst ? `, istio-proxy comes after ${first!.name}` : ''}, and no postStart waits for the proxy): the hold applies only to pods injected after it was turned on.`,
        evidence: s.at(proxy, []),
        fix: holdDoesNotFit(s) ? insteadOfHold(s, 're-injecting it with the hold') : 'Re-inject the pod so the injector applies the hold (kubectl rollout restart of its workload).',
      });
      return;
    }

    if (notFirst) {
      const listed = orderedByInput(s);
      let cause: string;
      let fix: string;
      if (r && !r.lowerBound && r.major === 1 && r.minor === 9 && r.patch === 0) {
        cause = `the Istio 1.9.0 injector placed istio-proxy after the application containers even with the hold on (a 1.9.0 regression, fixed in 1.9.1)`;
        fix = 'Upgrade istiod to 1.9.1 or later and re-inject the pod (kubectl rollout restart).';
      } else if (s.injection !== 'injected' && listed.length) {
        cause = `the pod spec lists ${listed.join(', ')} ahead of its istio-proxy entry, and the injector keeps that order`;
        fix = `Move the istio-proxy entry to the top of containers (or drop it and let the injector place the proxy).`;
      } else {
        cause = s.injection === 'injected' ? 'the input does not show what put it there (another mutating webhook, or a later edit)' : 'the injector put it there';
        fix = 'Make istio-proxy the first entry of containers: re-inject with the hold on (kubectl rollout restart), and if another mutating webhook adds containers ahead of it, have that webhook append instead.';
      }
      report({
        container: proxy.name,
        message: `${requested}, but istio-proxy is container ${proxy.index + 1} of ${s.containers.length}: the kubelet starts ${first!.name} before the proxy can hold it; ${cause}.${assumptions(s)}`,
        evidence: s.at(proxy, []),
        fix,
      });
    }
    // A custom lifecycle from the injector values is hold-dropped-by-lifecycle's story; on an injected
    // pod nothing tells where a non-blocking postStart came from, so both rules speak.
    if (proxyLifecycleIsCustom(s) && (s.injection !== 'injected' || !post)) return;
    if (!post) {
      report({
        container: proxy.name,
        message: `${requested}, but the proxy has no postStart hook, so nothing holds the application until the proxy is ready.${assumptions(s)}`,
        evidence: s.at(proxy, ['lifecycle']),
        fix: holdDoesNotFit(s) ? insteadOfHold(s, 'giving the proxy a blocking postStart') : fixFor(s, `give the proxy a blocking postStart, ${waitRemedy(s)}`),
      });
    } else if (post.readinessWait !== 'blocking') {
      const how =
        post.readinessWait === 'background'
          ? 'runs the wait in the background'
          : post.readinessWait === 'single'
            ? 'makes a single request instead of waiting'
            : 'does not wait for readiness';
      report({
        container: proxy.name,
        message: `${requested}, but the proxy's postStart (\`${post.text}\`) ${how}, so it returns before the proxy is ready.`,
        evidence: s.at(proxy, ['lifecycle', 'postStart']),
        fix: fixFor(s, `run the wait in the foreground: ${waitRemedy(s)}, or poll the readiness endpoint in a loop until it answers`),
      });
    }
  },
};
