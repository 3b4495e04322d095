// The remedies findings offer, each as the pod's release can apply it: the current setting where the
// release has it (or the release is unknown, naming the release it needs), else the older form or
// the upgrade that is needed.

import { releaseAtLeast, releaseBefore, type Release } from './release.js';
import type { Subject } from './subject.js';
import { getIn, kubeAtLeast } from './types.js';

function on(r: Release | undefined): string {
  return r ? `Istio ${r.text}${r.lowerBound ? '+' : ''}` : 'this release';
}

/** Runs to completion under a restart policy that a failed hold turns into a failed pod. */
export function holdDoesNotFit(s: Subject): boolean {
  const rp = s.spec['restartPolicy'];
  return s.workload.runsToCompletion && (rp === 'Never' || rp === 'OnFailure' || rp === undefined);
}

/** The proxy's readiness endpoint: the port its readinessProbe uses, else the release's (15020 before 1.6). */
export function readinessUrl(s: Subject): string {
  const port = getIn(s.proxy?.spec, ['readinessProbe', 'httpGet', 'port']);
  if (port === 15020 || port === 15021) return `localhost:${port}/healthz/ready`;
  return releaseBefore(s.release, 1, 6) ? 'localhost:15020/healthz/ready' : 'localhost:15021/healthz/ready';
}

/** How to turn the hold on for this pod, or why the release cannot. */
export function holdRemedy(s: Subject): string {
  const r = s.release;
  if (releaseBefore(r, 1, 7) || s.template?.hold === 'none') {
    const who = s.template?.hold === 'none' && !releaseBefore(r, 1, 7) ? 'the injector template in the input' : on(r);
    return `${who} has no hold (holdApplicationUntilProxyStarts came in Istio 1.7): upgrade the injector, or keep a bounded wait on ${readinessUrl(s)} in the entrypoint`;
  }
  // a 1.7 template reads the hold from values only
  if (s.template?.hold === 'values' || (r && r.major === 1 && r.minor === 7)) {
    return `set values global.proxy.holdApplicationUntilProxyStarts: true (${s.template?.hold === 'values' ? 'the injector template in the input' : on(r)} reads the hold only from values, for the whole mesh; the per-pod proxy.istio.io/config hold needs 1.8)`;
  }
  return `set \`proxy.istio.io/config: {holdApplicationUntilProxyStarts: true}\` on the pod${r && !r.lowerBound ? '' : ' (Istio 1.8+; 1.7 only has values global.proxy.holdApplicationUntilProxyStarts)'}`;
}

/**
 * For a pod that runs to completion, what to do instead of (re)enabling the hold, which would fail
 * it when the wait times out (hold-with-restart-never).
 */
export function insteadOfHold(s: Subject, what: string): string {
  return fixFor(
    s,
    `this pod runs to completion, where a timed-out hold fails it: rather than ${what}, ${nativePossible(s) ? `${nativeRemedy(s)}, or ` : ''}${holdOff(s)} and make the application retry its first connections`,
  );
}

/** Turning the hold off for one pod, as the release allows. */
export function holdOff(s: Subject): string {
  const r = s.release;
  if (!holdAvailable(s)) return 'drop the hold request (this release has no hold)';
  if (s.template?.hold === 'values' || (r && r.major === 1 && r.minor === 7)) return 'drop any per-pod hold request (1.7 reads the hold only from values, for the whole mesh)';
  return 'turn the hold off for it (proxy.istio.io/config: {holdApplicationUntilProxyStarts: false})';
}

/** Can the hold be had at all with what the input shows? */
export function holdAvailable(s: Subject): boolean {
  return !releaseBefore(s.release, 1, 7) && s.template?.hold !== 'none';
}

/** How to run this pod's proxy as a native sidecar, or what is missing for it. */
export function nativeRemedy(s: Subject): string {
  const r = s.release;
  const kube = s.kubeVersion;
  if (kube && !kubeAtLeast(kube, 1, 29)) return `native sidecars need Kubernetes 1.29+ (the cluster runs ${kube.join('.')})`;
  const needKube = kube ? '' : ', Kubernetes 1.29+';
  if (releaseBefore(r, 1, 19) || s.template?.native === false) {
    return `native sidecars need Istio 1.19+ and Kubernetes 1.29+ (${s.template?.native === false ? 'the injector template in the input has no native-sidecar support' : `this pod runs ${on(r)}`}): upgrade`;
  }
  const annotation = s.template ? s.template.nativeAnnotation : releaseAtLeast(r, 1, 24) && !r?.lowerBound ? true : r ? undefined : true;
  if (annotation === false || (r && !r.lowerBound && !releaseAtLeast(r, 1, 24))) {
    return `run the proxy as a native sidecar: values pilot.env.ENABLE_NATIVE_SIDECARS: "true" (istiod-wide; ${s.template ? 'the injector template in the input' : on(r)} has no per-pod sidecar.istio.io/nativeSidecar annotation, which came in 1.24${needKube})`;
  }
  if (annotation === undefined) {
    return `run the proxy as a native sidecar (annotation sidecar.istio.io/nativeSidecar: "true" from Istio 1.24, or istiod-wide values pilot.env.ENABLE_NATIVE_SIDECARS: "true" from 1.19${needKube})`;
  }
  return `run the proxy as a native sidecar (annotation sidecar.istio.io/nativeSidecar: "true"${r && !r.lowerBound ? '' : ', Istio 1.24+'}${needKube})`;
}

/** Can this pod's proxy be a native sidecar at all, as far as the input tells? */
export function nativePossible(s: Subject): boolean {
  return !(s.kubeVersion && !kubeAtLeast(s.kubeVersion, 1, 29)) && !releaseBefore(s.release, 1, 19) && s.template?.native !== false;
}

/** How the application tells the proxy it is done. */
export function quitRemedy(s: Subject): string {
  const r = s.release;
  if (releaseBefore(r, 1, 3)) {
    return `${on(r)}'s pilot-agent has no /quitquitquit (it came in 1.3): upgrade, or share the process namespace (shareProcessNamespace: true) and have the application's wrapper stop pilot-agent when it is done`;
  }
  return `have the application call \`curl -fsS -X POST localhost:15020/quitquitquit\` when it is done${r && !r.lowerBound ? '' : ' (Istio 1.3+)'}`;
}

/** A postStart that blocks until the proxy is ready. */
export function waitRemedy(s: Subject): string {
  const r = s.release;
  if (releaseBefore(r, 1, 7)) return `poll ${readinessUrl(s)} in a loop until it answers (${on(r)} has no \`pilot-agent wait\`, which came in 1.7)`;
  return `\`postStart: {exec: {command: [pilot-agent, wait]}}\`${r && !r.lowerBound ? '' : ' (Istio 1.7+)'}`;
}

/** How to give the injected proxy a startupProbe. */
export function startupProbeRemedy(s: Subject): string {
  const r = s.release;
  if (releaseBefore(r, 1, 20) || (r?.lowerBound && !releaseAtLeast(r, 1, 20))) {
    return `add a startupProbe (httpGet /healthz/ready port 15021, periodSeconds 1, failureThreshold 600) to a pod-level istio-proxy entry (values global.proxy.startupProbe came in 1.20; this pod runs ${on(r)})`;
  }
  return `add a startupProbe (httpGet /healthz/ready port 15021, periodSeconds 1, failureThreshold 600), e.g. values global.proxy.startupProbe.enabled: true${r && !r.lowerBound ? '' : ' (Istio 1.20+)'}`;
}

/** ` (for Istio 1.9.0, from the proxy image ...)`: the release a fix was chosen for. */
export function releaseBasis(s: Subject): string {
  const r = s.release;
  if (!r) return '';
  return ` (for ${r.lowerBound ? `Istio ${r.text} or later, as detected from ${r.from}` : `Istio ${r.text}, from ${r.from}`})`;
}

/** A remedy as a fix sentence: capitalised, with the release it was chosen for. */
export function fixFor(s: Subject, remedy: string): string {
  const text = remedy.charAt(0).toUpperCase() + remedy.slice(1);
  return `${text.replace(/\.$/, '')}${releaseBasis(s)}.`;
}
