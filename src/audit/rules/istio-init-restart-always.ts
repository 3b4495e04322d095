import { isIstioInit } from '../lifecycle.js';
import { releaseAtLeast } from '../release.js';
import type { Subject } from '../subject.js';
import { kubeAtLeast } from '../types.js';
import type { Rule } from './rule.js';

/** What put the field there, as far as the input shows it. */
function cause(s: Subject, name: string): string {
  const r = s.release;
  if (s.injection === 'rendered' || s.injection === 'modelled') return `the injection template in the input writes it on ${name}`;
  if (r && !r.lowerBound && !releaseAtLeast(r, 1, 13)) return `Istio ${r.text}'s injection template writes it (templates up to at least 1.12 did, when the API server dropped the field)`;
  if (r && releaseAtLeast(r, 1, 20)) return `Istio ${r.text}'s injection template does not write it, so another mutating webhook or an edit of the pod put it there`;
  return `the input does not show what put it there: injection templates up to at least Istio 1.12 wrote it, and so can another mutating webhook`;
}

// Injection templates written before native sidecars put `restartPolicy: Always` on istio-init (and
// istio-validation); other webhooks that copy or patch init containers can add it too. Old API
// servers dropped the field; from Kubernetes 1.29 it is honoured, so the one-shot iptables container
// becomes a sidecar: restarted every time it exits, and the next containers start as soon as it has
// started, before its redirection rules are in place.
export const istioInitRestartAlways: Rule = {
  id: 'istio-init-restart-always',
  severity: 'error',
  summary: "Istio's own init container carries restartPolicy: Always, which Kubernetes 1.29+ turns into a sidecar.",
  description:
    'Old injection templates wrote restartPolicy: Always on istio-init, a field the API server dropped at the time; a third-party webhook can add it as well. On Kubernetes 1.29+ it makes istio-init a native sidecar: the kubelet restarts it whenever it exits, and the application can start before the traffic redirection is set up.',
  check(s, report) {
    if (s.kubeVersion && !kubeAtLeast(s.kubeVersion, 1, 29)) return;
    for (const c of s.initContainers) {
      if (!isIstioInit(c) || c.spec['restartPolicy'] !== 'Always') continue;
      const on = s.kubeVersion ? `on Kubernetes ${s.kubeVersion.join('.')}` : 'on Kubernetes 1.29 or later';
      const assumed = s.kubeVersion ? '' : ' Assumed: the cluster runs Kubernetes 1.29+ (no --kube-version given); before 1.29 the field is dropped and nothing happens.';
      report({
        container: c.name,
        message: `${c.name} has restartPolicy: Always (${cause(s, c.name)}); ${on} that makes it a native sidecar: the kubelet restarts it every time it exits, and starts the application as soon as it has started, possibly before its iptables rules are in place.${assumed}`,
        evidence: s.at(c, ['restartPolicy']),
        fix:
          s.injection === 'injected' && s.release && releaseAtLeast(s.release, 1, 20)
            ? `Find the webhook or edit that adds restartPolicy to ${c.name} and stop it; then re-create the pod.`
            : `Upgrade the injector to a release whose template no longer sets restartPolicy on ${c.name} (1.20 does not), or remove that line from the template; then re-inject.`,
      });
    }
  },
};
