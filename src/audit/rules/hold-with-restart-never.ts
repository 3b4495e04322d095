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
    const post = hook(proxy, 'postStart');
    if (post?.readinessWait !== 'blocking') return;
    const rp = s.spec['restartPolicy'];
    if (rp !== 'Never' && rp !== 'OnFailure') return;
    report({
      container: proxy.name,
      message: `The proxy holds the application with a postStart wait on a pod with restartPolicy ${rp}: if \`${post.text}\` times out (${waitTimeout(post)}s) the hook fails, the proxy is killed and the pod fails for good instead of retrying.`,
      evidence: s.at(undefined, ['restartPolicy']),
      fix: 'Run the proxy as a native sidecar for this workload (sidecar.istio.io/nativeSidecar: "true", Kubernetes 1.29+), or turn the hold off for it (proxy.istio.io/config: {holdApplicationUntilProxyStarts: false}) and make the job retry its first connection.',
    });
  },
};
