// Istio release numbers: parsing what --istio-version and a golden matrix take, formatting, comparing, and
// the releases the model knows. The table of what differs between them is releases.ts; detection of the
// release a template was written for is version.ts.
//
// Public API
//   IstioVersion {major, minor, patch?, master?}   parseIstioVersion('1.20' | '1.20.3' | 'master' | 'latest')
//   atLeast(v, major, minor)               version comparison
//   formatIstioVersion(v)
//   LATEST                                 the newest release modelled ('master')
//   KNOWN_RELEASES, Release                the releases modelled, oldest first; a release's name as a type
//   ISTIO_VERSION_PATTERN
//
// Upstream: none (Istio release numbers)

export interface IstioVersion {
  major: number;
  minor: number;
  /** The patch release (1.26.4 → 4) when one was named; a minor release alone stands for its .0. */
  patch?: number;
  /** Development head: newer than any numbered release. */
  master?: boolean;
}

export const LATEST: IstioVersion = { major: 1, minor: 99, master: true };

const RELEASES = ['1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '1.11', '1.12', '1.13', '1.14', '1.15', '1.16', '1.17', '1.18', '1.19', '1.20', '1.21', '1.22', '1.23', '1.24', '1.25', '1.26', '1.27', '1.28', '1.29', '1.30', 'master'] as const;

/** A release the model knows, by name: what releases.ts's table is written in. */
export type Release = (typeof RELEASES)[number];

export const KNOWN_RELEASES: string[] = [...RELEASES];

/** The syntax every place that takes a release accepts (--istio-version, a golden matrix's istioVersion). */
export const ISTIO_VERSION_PATTERN = '^v?(\\d+\\.\\d+(\\.\\d+)?([-+].*)?|master|latest|head)$';

export function parseIstioVersion(s: string): IstioVersion {
  const t = s.trim();
  if (!new RegExp(ISTIO_VERSION_PATTERN).test(t)) throw new Error(`invalid Istio version "${s}": want MAJOR.MINOR (e.g. 1.20) or master`);
  const u = t.replace(/^v/, '');
  if (u === 'master' || u === 'latest' || u === 'head') return LATEST;
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(u);
  if (!m) throw new Error(`invalid Istio version "${s}": want MAJOR.MINOR (e.g. 1.20) or master`);
  const v: IstioVersion = { major: Number(m[1]), minor: Number(m[2]) };
  if (m[3] !== undefined) v.patch = Number(m[3]);
  // a release the model does not know would silently get master's data (1.99 is master's own number)
  if (!KNOWN_RELEASES.includes(`${v.major}.${v.minor}`)) {
    throw new Error(`unsupported Istio version "${s}": the releases modelled are 1.5 or later: ${KNOWN_RELEASES.join(', ')}`);
  }
  return v;
}

export function formatIstioVersion(v: IstioVersion): string {
  return v.master ? 'master' : v.patch !== undefined ? `${v.major}.${v.minor}.${v.patch}` : `${v.major}.${v.minor}`;
}

export function atLeast(v: IstioVersion, major: number, minor: number): boolean {
  if (v.major !== major) return v.major > major;
  return v.minor >= minor;
}

