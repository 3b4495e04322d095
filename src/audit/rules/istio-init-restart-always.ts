import { isIstioInit } from '../lifecycle.js';
import type { Subject } from '../subject.js';
import { kubeAtLeast } from '../types.js';
import type { Rule } from './rule.js';

/** What put the field there, as far as the input shows it. */
function cause(s: Subject, name: string): string {
  if (s.injection === 'rendered' || s.injection === 'modelled') return `the injection template in the input writes it on ${name}`;
  // templates up to 1.12 wrote it, but the istiod of those releases decoded its output into
  // Kubernetes types without the field: Istio's own injection never delivered it to a pod
  return `Istio's own injection does not deliver it: another mutating webhook, an old template run by a newer istiod, or an edit of the pod put it there`;
}

// `restartPolicy: Always` on istio-init (or istio-validation) comes from a template written before
// native sidecars run by an istiod that keeps the field, or from another webhook or an edit. From
// Kubernetes 1.29 it is honoured, so the one-shot iptables container becomes a sidecar: restarted
// every time it exits, and the next containers start as soon as it has started, before its
// redirection rules are in place. Without --kube-version the finding says it assumes 1.29+.
export const istioInitRestartAlways: Rule = {
  id: 'istio-init-restart-always',
  severity: 'error',
  summary: "Istio's own init container carries restartPolicy: Always, which Kubernetes 1.29+ turns into a sidecar.",
  description:
    'An injection template older than native sidecars (run by an istiod that keeps the field) or another mutating webhook can put restartPolicy: Always on istio-init. On Kubernetes 1.29+ it makes istio-init a native sidecar: the kubelet restarts it whenever it exits, and the application can start before the traffic redirection is set up.',
  check(s, report) {
    if (s.kubeVersion && !kubeAtLeast(s.kubeVersion, 1, 29)) return;
    for (const c of s.initContainers) {
      if (!isIstioInit(c) || c.spec['restartPolicy'] !== 'Always') continue;
      // an injected native proxy shows the cluster honours the field; otherwise it is assumed
      const honoured = !!s.kubeVersion || (s.injection === 'injected' && s.initContainers.some((x) => x.isProxy && x.spec['restartPolicy'] === 'Always'));
      const on = s.kubeVersion ? `on Kubernetes ${s.kubeVersion.join('.')}` : honoured ? 'on this cluster, which runs the proxy as a native sidecar,' : 'on Kubernetes 1.29 or later';
      const assumed = honoured ? '' : ' Assumed: the cluster runs Kubernetes 1.29+ (no --kube-version given); before 1.29 the field is dropped and nothing happens.';
      report({
        container: c.name,
        message: `${c.name} has restartPolicy: Always (${cause(s, c.name)}); ${on} that makes it a native sidecar: the kubelet restarts it every time it exits, and starts the application as soon as it has started, possibly before its iptables rules are in place.${assumed}`,
        evidence: s.at(c, ['restartPolicy']),
        fix:
          s.injection === 'injected'
            ? `Find the webhook, template or edit that adds restartPolicy to ${c.name} and remove it; then re-create the pod.`
            : `Remove restartPolicy from ${c.name} in the injection template (current Istio templates do not write it); then re-inject.`,
      });
    }
  },
};
