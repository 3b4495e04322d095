// A Kubernetes version as users give it (`1.33`, `v1.29.3`, `v1.30.2-eks-1234`), compared by its
// major.minor release: what decides the kubelet's features (native sidecars from 1.29, the sleep
// handler, istiod's native-sidecar default from 1.33).
//
// Upstream: none (the major.minor of a cluster's version, as kubectl version prints it)

/** A (major, minor) Kubernetes version. */
export type KubeVersion = [number, number];

export function parseKubeVersion(s: string): KubeVersion | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+].*)?$/.exec(s.trim());
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2])];
}

/** Whether v (parsed, or as given) is major.minor or later; an unknown or unreadable version is not. */
export function kubeAtLeast(v: KubeVersion | string | undefined, major: number, minor: number): boolean {
  const p = typeof v === 'string' ? parseKubeVersion(v) : v;
  if (!p) return false;
  return p[0] > major || (p[0] === major && p[1] >= minor);
}
