import { isIstioInit } from '../lifecycle.js';
import type { Rule } from './rule.js';

// Injection templates written before native sidecars put `restartPolicy: Always` on istio-init (and
// istio-validation). Old API servers dropped the unknown field; from Kubernetes 1.29 it is honoured,
// so the one-shot iptables container becomes a sidecar: restarted every time it exits, and the next
// containers start as soon as it has started, before its redirection rules are in place.
export const istioInitRestartAlways: Rule = {
  id: 'istio-init-restart-always',
  severity: 'error',
  summary: "Istio's own init container carries restartPolicy: Always, which Kubernetes 1.29+ turns into a sidecar.",
  description:
    'Old injection templates wrote restartPolicy: Always on istio-init, a field the API server dropped at the time. On Kubernetes 1.29+ it makes istio-init a native sidecar: the kubelet restarts it whenever it exits, and the application can start before the traffic redirection is set up.',
  check(s, report) {
    for (const c of s.initContainers) {
      // native is set for Istio's init containers only where the cluster honours the field
      if (!c.native || !isIstioInit(c)) continue;
      report({
        container: c.name,
        message: `${c.name} has restartPolicy: Always (from an injection template older than native sidecars); on Kubernetes ${s.kubeVersion?.join('.') ?? '1.29+'} that makes it a native sidecar: the kubelet restarts it every time it exits, and starts the application as soon as it has started, possibly before its iptables rules are in place.`,
        evidence: s.at(c, ['restartPolicy']),
        fix: `Upgrade the injector to a release whose template no longer sets restartPolicy on ${c.name}, or remove that line from the template before the cluster moves to Kubernetes 1.29.`,
      });
    }
  },
};
