import type { Rule } from './rule.js';

export const restartPolicyOnContainer: Rule = {
  id: 'restart-policy-on-container',
  severity: 'error',
  summary: 'restartPolicy: Always on a regular container instead of an init container.',
  description:
    'A native sidecar is an entry of initContainers with restartPolicy: Always. The same field on an entry of containers does not make it a sidecar (the API server rejects it before Kubernetes 1.34), so nothing is ordered.',
  check(s, report) {
    for (const c of s.containers) {
      if (c.spec['restartPolicy'] !== 'Always') continue;
      report({
        container: c.name,
        message: `${c.name} sets restartPolicy: Always under containers; only init containers with it are native sidecars, so it is not started first or stopped last.`,
        evidence: s.at(c, ['restartPolicy']),
        fix: `Move ${c.name} to initContainers (keeping restartPolicy: Always) to make it a native sidecar, or remove the field.`,
      });
    }
  },
};
