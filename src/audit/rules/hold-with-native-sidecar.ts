import { kubeAtLeast } from '../types.js';
import { releaseAtLeast } from '../release.js';
import { fixFor } from '../remedies.js';
import type { Rule } from './rule.js';

export const holdWithNativeSidecar: Rule = {
  id: 'hold-with-native-sidecar',
  severity: 'info',
  summary: 'Hold requested together with native sidecars (ignored), or native sidecars on a cluster older than 1.29.',
  description:
    'With native sidecars the kubelet orders start-up itself and the template skips the pilot-agent wait, so holdApplicationUntilProxyStarts has no effect. Before Kubernetes 1.29, restartPolicy on init containers is not honoured by default and the proxy blocks initialisation forever.',
  check(s, report) {
    const natives = s.initContainers.filter((c) => c.native);
    const wantsNative = natives.length > 0 || (s.settings.native.requested && !!s.proxy);
    if (s.kubeVersion && wantsNative && !kubeAtLeast(s.kubeVersion, 1, 29)) {
      const c = natives[0];
      report({
        severity: 'error',
        container: c?.name ?? null,
        message: `Native sidecars need Kubernetes 1.29 or later; on ${s.kubeVersion.join('.')} restartPolicy: Always on an init container is not honoured by default, so ${c?.name ?? 'the proxy'} runs as a plain init container that never exits and the pod never starts.`,
        evidence: c ? s.at(c, ['restartPolicy']) : (s.settings.native.evidence ?? s.at(undefined, ['initContainers'])),
        fix: fixFor(s, `upgrade the cluster to Kubernetes 1.29+, or turn native sidecars off for it (values pilot.env.ENABLE_NATIVE_SIDECARS: "false"${releaseAtLeast(s.release, 1, 24) ? `, or per pod the annotation sidecar.istio.io/nativeSidecar: "false"${s.release ? '' : ' (Istio 1.24+)'}` : ''})`),
      });
    }
    const proxy = s.proxy;
    if (proxy?.native && s.settings.hold.requested) {
      const src = s.settings.hold.sources.find((x) => x.value);
      report({
        container: proxy.name,
        message: `holdApplicationUntilProxyStarts is requested${src ? ` (${src.what})` : ''}, but the proxy runs as a native sidecar: the kubelet's init ordering and the startupProbe hold the application, and the hold setting is ignored.`,
        evidence: s.settings.hold.evidence ?? s.at(proxy, []),
        fix: 'Nothing breaks; drop holdApplicationUntilProxyStarts for native-sidecar workloads to avoid confusion, and rely on the proxy startupProbe.',
      });
    }
  },
};
