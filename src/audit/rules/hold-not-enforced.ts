import { hook, proxyLifecycleIsCustom } from '../lifecycle.js';
import type { Rule } from './rule.js';

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
    const first = s.containers[0];
    if (first && first !== proxy) {
      report({
        container: proxy.name,
        message: `${requested}, but istio-proxy is container ${proxy.index + 1} of ${s.containers.length} after merging: the kubelet starts ${first.name} before the proxy can hold it.`,
        evidence: s.at(proxy, []),
        fix: `Make istio-proxy the first entry of containers (remove the explicit ordering that puts ${first.name} ahead of it, or let the injector place it).`,
      });
    }
    const post = hook(proxy, 'postStart');
    // A custom lifecycle from the injector values is hold-dropped-by-lifecycle's story; on an injected
    // pod nothing tells where a non-blocking postStart came from, so both rules speak.
    if (proxyLifecycleIsCustom(s) && (s.injection !== 'injected' || !post)) return;
    if (!post) {
      report({
        container: proxy.name,
        message: `${requested}, but the proxy has no postStart hook, so nothing holds the application until the proxy is ready.`,
        evidence: s.at(proxy, ['lifecycle']),
        fix: 'Re-inject the pod (kubectl rollout restart) with a template that supports the hold (Istio 1.7+), so the proxy gets `postStart: pilot-agent wait`.',
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
        fix: 'Run `pilot-agent wait` in the foreground (exec: [pilot-agent, wait]), or poll :15021/healthz/ready in a loop until it answers.',
      });
    }
  },
};
