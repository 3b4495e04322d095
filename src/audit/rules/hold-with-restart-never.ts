import { hook, waitTimeout } from '../lifecycle.js';
import { fixFor, holdOff, nativePossible, nativeRemedy } from '../remedies.js';
import { assumptions } from '../assumptions.js';
import type { Rule } from './rule.js';

// When the hold's postStart fails the kubelet kills the proxy and goes on starting the next
// containers: the application runs without a ready proxy. What follows depends on the policy.
export const holdWithRestartNever: Rule = {
  id: 'hold-with-restart-never',
  severity: 'warning',
  summary: 'Hold on a pod whose restartPolicy is Never or OnFailure.',
  description:
    'When pilot-agent wait times out (60 s by default) the postStart hook fails, the kubelet kills the proxy and starts the application anyway. With restartPolicy Never the proxy is not restarted and the pod fails; with OnFailure the proxy is restarted in place while the application already runs without it.',
  check(s, report) {
    const proxy = s.proxy;
    if (!proxy || proxy.native || s.gateway) return;
    if (!s.settings.hold.requested) return;
    const rp = s.spec['restartPolicy'];
    if (rp !== 'Never' && rp !== 'OnFailure') return;
    // only a wait that blocks can time out; a hold the template never rendered is hold-not-enforced's
    const post = hook(proxy, 'postStart');
    if (post?.readinessWait !== 'blocking') return;
    const wait = `\`${post.text}\` times out (${waitTimeout(post)}s)`;
    const after =
      rp === 'Never'
        ? 'with restartPolicy Never the proxy is not restarted, so the application runs without a proxy and the pod ends Failed (a Job then starts a new pod, up to its backoffLimit)'
        : 'with restartPolicy OnFailure the kubelet restarts the proxy in place (with back-off), but the application has already started without a ready proxy, and is itself restarted only if it exits with an error';
    const ways: string[] = [];
    if (nativePossible(s)) ways.push(nativeRemedy(s));
    ways.push(`${holdOff(s)} and make the application retry its first connections`);
    report({
      container: proxy.name,
      message: `holdApplicationUntilProxyStarts is on for a pod with restartPolicy ${rp}: if ${wait} the hook fails, the kubelet kills the proxy and starts the application anyway; ${after}.${assumptions(s)}`,
      evidence: s.at(undefined, ['restartPolicy']),
      fix: fixFor(s, ways.join('; or ')),
    });
  },
};
