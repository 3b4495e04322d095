import { hook, isIstioInit } from '../lifecycle.js';
import { fixFor, startupProbeRemedy } from '../remedies.js';
import { get, isObject } from '../types.js';
import { assumptions } from '../assumptions.js';
import type { Rule } from './rule.js';

// The kubelet starts the next init container once a native sidecar has started and, when it has
// them, its postStart has returned and its startupProbe has succeeded. Without either, nothing waits.
export const nativeSidecarUnordered: Rule = {
  id: 'native-sidecar-unordered',
  severity: 'warning',
  summary: 'A native sidecar without a startupProbe or blocking postStart, so the app may start before it is ready.',
  description:
    'For an init container with restartPolicy: Always the kubelet moves on as soon as the container has started, unless a startupProbe or a postStart hook makes it wait. Without them the application can start before the proxy is ready.',
  check(s, report) {
    for (const c of s.initContainers) {
      // Istio's own one-shot init containers: istio-init-restart-always tells that story
      if (!c.native || isIstioInit(c)) continue;
      if (isObject(get(c.spec, 'startupProbe'))) continue;
      const post = hook(c, 'postStart');
      if (c.isProxy ? post?.readinessWait === 'blocking' : post && post.readinessWait !== 'background') continue;
      const later = [...s.initContainers.slice(c.index + 1), ...s.containers].map((x) => x.name);
      report({
        container: c.name,
        message: `Native sidecar ${c.name} has no startupProbe${post ? ` and its postStart (\`${post.text}\`) does not block` : ' or blocking postStart'}: the kubelet starts ${later.slice(0, 3).join(', ') || 'the next containers'} as soon as it has started, before it is ready.${c.isProxy ? assumptions(s) : ''}`,
        evidence: s.at(c, []),
        fix: c.isProxy
          ? fixFor(s, startupProbeRemedy(s))
          : `Add a startupProbe to ${c.name} that succeeds once it is ready to serve.`,
      });
    }
  },
};
