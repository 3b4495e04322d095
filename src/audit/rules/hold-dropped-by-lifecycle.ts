import { hook, proxyLifecycleIsCustom } from '../lifecycle.js';
import { fixFor, holdAvailable, holdDoesNotFit, insteadOfHold, waitRemedy } from '../remedies.js';
import { assumptions } from '../assumptions.js';
import type { Rule } from './rule.js';

// Since 1.7 the template reads `if .Values.global.proxy.lifecycle` before `else if $holdProxy`:
// any custom lifecycle replaces the hold's postStart, and in 1.2x the native sidecar's drain preStop.
export const holdDroppedByLifecycle: Rule = {
  id: 'hold-dropped-by-lifecycle',
  severity: 'error',
  summary: 'A custom proxy lifecycle replaces the postStart that holdApplicationUntilProxyStarts needs.',
  description:
    'The injection template renders global.proxy.lifecycle instead of (not together with) the `pilot-agent wait` postStart, so a custom lifecycle without its own blocking wait silently loses the hold; with native sidecars it also loses the drain preStop.',
  check(s, report) {
    const proxy = s.proxy;
    if (!proxy || s.gateway || !proxyLifecycleIsCustom(s)) return;
    const lifecycleAt = s.at(proxy, ['lifecycle']);
    if (proxy.native) {
      const pre = hook(proxy, 'preStop');
      if (!pre) {
        report({
          severity: 'warning',
          container: proxy.name,
          message:
            'The custom proxy lifecycle replaces the native sidecar\'s drain preStop, so inbound connections are not drained when the pod starts shutting down.',
          evidence: lifecycleAt,
          fix: 'Add the drain to the custom lifecycle: `preStop: {exec: {command: [pilot-agent, request, --debug-port=15020, POST, drain]}}`.',
        });
      }
      return;
    }
    // a template without any hold has none to drop: hold-not-enforced says so
    if (!s.settings.hold.requested || !holdAvailable(s)) return;
    const post = hook(proxy, 'postStart');
    if (post?.readinessWait === 'blocking') return;
    const src = s.settings.hold.sources.find((x) => x.value);
    const why = post
      ? `its postStart (\`${post.text}\`) does not block until the proxy is ready`
      : 'it has no postStart, so the template\'s `pilot-agent wait` is gone';
    report({
      container: proxy.name,
      message: `holdApplicationUntilProxyStarts is requested${src ? ` (${src.what})` : ''}, but the custom proxy lifecycle replaces the template's hold and ${why}: the application starts without waiting for the proxy.${assumptions(s)}`,
      evidence: lifecycleAt,
      // restoring the wait would make hold-with-restart-never right: a pod that runs to completion needs another way
      fix: holdDoesNotFit(s)
        ? insteadOfHold(s, 'restoring the wait')
        : fixFor(s, `add ${waitRemedy(s)} next to the preStop in the custom lifecycle (global.proxy.lifecycle)`),
    });
  },
};
