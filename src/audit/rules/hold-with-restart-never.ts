import { hook, waitTimeout } from '../lifecycle.js';
import type { Rule } from './rule.js';

export const holdWithRestartNever: Rule = {
  id: 'hold-with-restart-never',
  severity: 'warning',
  summary: 'Hold on a pod whose restartPolicy is Never or OnFailure.',
  description:
    'When pilot-agent wait times out (60 s by default) the postStart hook fails and the kubelet kills the proxy; with restartPolicy Never or OnFailure the pod fails for good instead of retrying until the proxy is ready.',
  check(s, report) {
    const proxy = s.proxy;
    if (!proxy || proxy.native || s.gateway) return;
    if (!s.settings.hold.requested) return;
    const rp = s.spec['restartPolicy'];
    if (rp !== 'Never' && rp !== 'OnFailure') return;
    const post = hook(proxy, 'postStart');
    const wait = post?.readinessWait === 'blocking' ? `\`${post.text}\` times out (${waitTimeout(post)}s)` : `the hold's \`pilot-agent wait\` times out (60s)`;
    report({
      container: proxy.name,
      message: `holdApplicationUntilProxyStarts is on for a pod with restartPolicy ${rp}: if ${wait} the hook fails, the proxy is killed and the pod fails for good instead of retrying.`,
      evidence: s.at(undefined, ['restartPolicy']),
      fix: 'Run the proxy as a native sidecar for this workload (sidecar.istio.io/nativeSidecar: "true", Kubernetes 1.29+), or turn the hold off for it (proxy.istio.io/config: {holdApplicationUntilProxyStarts: false}) and make the job retry its first connection.',
    });
  },
};
