// Istio release numbers, comparison, and detection of the release an injector template was written for.
//
// Public API
//   IstioVersion {major, minor, patch?, master?}   parseIstioVersion('1.20' | '1.20.3' | 'master' | 'latest')
//   atLeast(v, major, minor)               version comparison
//   formatIstioVersion(v)
//   LATEST                                 the newest release modelled ('master')
//   KNOWN_RELEASES, Release                the releases modelled, oldest first; a release's name as a type
//   detectIstioVersion(text)               best guess from what a template (or a ConfigMap's text) uses:
//                                          { version, reason } — the oldest release consistent with the fields read
//   DETECTION_MARKS                        what detection looks for, newest first
//
// Upstream: none (Istio release numbers, and the release an injector template was written for)

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

export interface Detection {
  version: IstioVersion;
  reason: string;
}

/** Marks (pattern, release, reason), newest first: a template that uses the field was written for
 *  that release or later. docs/commands.md's render section lists them for users. */
export const DETECTION_MARKS: readonly (readonly [RegExp, string, string])[] = [
  [/\.ProxyInitImage\b/, 'master', 'uses .ProxyInitImage'],
  [/\.NativeSidecars\b/, '1.28', 'uses .NativeSidecars'],
  [/sidecar\.istio\.io\/nativeSidecar\b/, '1.24', 'reads the sidecar.istio.io/nativeSidecar annotation'],
  [/\.CompliancePolicy\b/, '1.23', 'uses .CompliancePolicy'],
  [/\.InboundTrafficPolicyMode\b/, '1.23', 'uses .InboundTrafficPolicyMode'],
  [/\.ProxyUID\b|\.ProxyGID\b/, '1.20', 'uses .ProxyUID/.ProxyGID'],
  [/\bENABLE_NATIVE_SIDECARS\b/, '1.19', 'reads ENABLE_NATIVE_SIDECARS'],
  [/\.ProxyImage\b/, '1.16', 'uses .ProxyImage'],
  [/\.EstimatedConcurrency\b/, '1.12', 'uses .EstimatedConcurrency'],
  [/\.Revision\b/, '1.12', 'uses .Revision'],
  [/\bdefaultTemplates\s*:|^\s*templates\s*:/m, '1.10', 'has templates/defaultTemplates'],
  [/\.HoldApplicationUntilProxyStarts\b/, '1.8', 'reads .ProxyConfig.HoldApplicationUntilProxyStarts'],
  [/\.MeshConfig\b/, '1.8', 'uses .MeshConfig'],
  [/holdApplicationUntilProxyStarts/, '1.7', 'reads holdApplicationUntilProxyStarts from values'],
  [/\.Concurrency\.GetValue\b/, '1.6', 'reads .ProxyConfig.Concurrency.GetValue'],
];

/** Guess the release from the template text (or a whole ConfigMap). Templates using `.EstimatedConcurrency`
 *  without `.ProxyUID` are 1.12–1.19; `.ProxyUID` without `.InboundTrafficPolicyMode` 1.20–1.22, and so on.
 *  Nothing recognised: 1.5 when the template calls `.ProxyConfig.Concurrency` as a plain number, else LATEST. */
export function detectIstioVersion(text: string): Detection | undefined {
  // a render asks three times of the same config text (loading it, the renderer, the assumptions line)
  if (text === lastDetection[0]) return lastDetection[1];
  const d = detect(text);
  lastDetection = [text, d];
  return d;
}

let lastDetection: [string | undefined, Detection | undefined] = [undefined, undefined];

function detect(text: string): Detection | undefined {
  for (const [re, ver, reason] of DETECTION_MARKS) {
    if (re.test(text)) return { version: parseIstioVersion(ver), reason };
  }
  if (/\.ProxyConfig\.Concurrency\b/.test(text) || /\.ProxyConfig\.GetTracing\.GetLightstep\.GetSecure\b/.test(text)) {
    return { version: parseIstioVersion('1.5'), reason: 'reads .ProxyConfig.Concurrency as a number' };
  }
  if (/\.DeploymentMeta\b|\.ProxyConfig\b|\.ObjectMeta\b/.test(text)) {
    return { version: parseIstioVersion('1.5'), reason: 'an injection template with none of the newer fields' };
  }
  return undefined;
}
