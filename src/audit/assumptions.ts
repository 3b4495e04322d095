// What a finding takes for granted when the input does not say, stated in its message so that a
// reader with other facts (a cluster version, istiod's flags) can tell whether it applies.

import type { Subject } from './subject.js';

/**
 * ` Assumed: ...`: native sidecars off when the proxy is classic only because nothing turned them on
 * (a raw workload judged without --kube-version or --native-sidecars, values silent), and a release
 * known only as the oldest its injector template can be.
 */
export function assumptions(s: Subject): string {
  const said: string[] = [];
  if (s.proxy && !s.proxy.native && s.injection !== 'injected' && !s.settings.native.evidence && !s.kubeVersion) {
    said.push('native sidecars are off (no --kube-version or --native-sidecars given, and neither the values nor the pod turn them on)');
  }
  const r = s.release;
  if (r?.lowerBound) said.push(`Istio ${r.text} or later, as detected from ${r.from}`);
  return said.length ? ` Assumed: ${said.join('; ')}.` : '';
}
