// The release an injector template was written for, read from what it uses: each mark (a field of
// SidecarTemplateData, a template function, an annotation, an istiod setting) holds for the releases the
// per-release table (releases.ts) gives it, so a template is of the releases every mark it uses holds for,
// a range. The release detection builds the data for is the oldest of them; a release given explicitly wins,
// and where it is outside the range the assumptions line says so (describeRange).
//
// Public API
//   detectIstioVersion(text, values?)   { version, reason, range } — or undefined when the text names
//                              nothing; values (the injector's) may narrow it by the keys of a later chart
//   DETECTION_MARKS            what detection looks for: [pattern, table entry, reason]
//   describeRange(range)       '1.24 to 1.29', '1.22 or later'
//   inRange(version, range)
//   releaseWhy(given, detection)  the assumptions line's reason for its release
//   and, from numbering.ts: IstioVersion, parseIstioVersion, formatIstioVersion, atLeast, LATEST,
//   KNOWN_RELEASES, Release, ISTIO_VERSION_PATTERN
//
// Upstream: none (the release an injector template was written for)

import { KNOWN_RELEASES, parseIstioVersion, type IstioVersion } from './numbering.js';
import { has, type Behaviour } from './releases.js';
import { STOCK_TEMPLATE_MARKS, STOCK_VALUES_MARKS } from './stock-marks.js';

export { atLeast, formatIstioVersion, ISTIO_VERSION_PATTERN, KNOWN_RELEASES, LATEST, parseIstioVersion, type IstioVersion, type Release } from './numbering.js';

/** The releases a template can be of, by minor release: from `first` to `last` (undefined: to master). */
export interface ReleaseRange {
  first: string;
  last?: string;
}

export interface Detection {
  /** The release the template data is built for: the oldest the range holds. */
  version: IstioVersion;
  /** What the template uses that says so. */
  reason: string;
  /** Every release whose istiod has all the template uses. */
  range: ReleaseRange;
}

/**
 * What detection looks for: a pattern of the template text, the table entry that says which releases have
 * it, and the reason a detection gives. docs/commands.md's render section lists them for users.
 */
export const DETECTION_MARKS: readonly (readonly [RegExp, Behaviour | `!${Behaviour}`, string])[] = [
  [/\.ProxyInitImage\b/, 'data.ProxyInitImage', 'uses .ProxyInitImage'],
  [/\bomitNil\b/, 'func.omitNil', 'calls omitNil'],
  [/\botelResourceAttributes\b/, 'func.otelResourceAttributes', 'calls otelResourceAttributes'],
  [/\.NativeSidecars\b/, 'data.NativeSidecars', 'uses .NativeSidecars'],
  [/sidecar\.istio\.io\/nativeSidecar\b/, 'native.podAnnotation', 'reads the sidecar.istio.io/nativeSidecar annotation'],
  [/\.InboundTrafficPolicyMode\b/, 'data.InboundTrafficPolicyMode', 'uses .InboundTrafficPolicyMode'],
  [/\.CompliancePolicy\b/, 'data.CompliancePolicy', 'uses .CompliancePolicy'],
  [/\bmergeMaps\b/, 'func.mergeMaps', 'calls mergeMaps'],
  [/\.ProxyUID\b|\.ProxyGID\b/, 'data.ProxyUID', 'uses .ProxyUID/.ProxyGID'],
  [/\bENABLE_NATIVE_SIDECARS\b/, 'native.envFlag', 'reads ENABLE_NATIVE_SIDECARS'],
  [/\bstrdict\b|\btoJsonMap\b/, 'func.strdict', 'calls strdict or toJsonMap'],
  [/\bexcludeInterfaces\b/, 'func.excludeInterfaces', 'calls excludeInterfaces'],
  [/\.ProxyImage\b/, 'data.ProxyImage', 'uses .ProxyImage'],
  [/\.EstimatedConcurrency\b/, 'data.EstimatedConcurrency', 'uses .EstimatedConcurrency'],
  [/\.Revision\b/, 'data.Revision', 'uses .Revision'],
  [/\bdefaultTemplates\s*:|^\s*templates\s*:/m, 'config.templates', 'has templates/defaultTemplates'],
  [/\bappendMultusNetwork\b/, 'func.appendMultusNetwork', 'calls appendMultusNetwork'],
  [/\.HoldApplicationUntilProxyStarts\b/, 'inject.holdFromProxyConfig', 'reads .ProxyConfig.HoldApplicationUntilProxyStarts'],
  [/\.Concurrency\.GetValue\b/, 'proxyConfig.concurrencyWrapper', 'reads .ProxyConfig.Concurrency.GetValue'],
  [/holdApplicationUntilProxyStarts/, 'inject.holdFromValues', 'reads holdApplicationUntilProxyStarts from values'],
  [/\.ProxyConfig\.Concurrency\b(?!\.)/, '!proxyConfig.concurrencyWrapper', 'reads .ProxyConfig.Concurrency as a number'],
  [/\{\{-?\s*render\b|\(render\b/, 'func.render', 'calls render'],
];

/** Whether the release is one of the range's (by its minor release). */
export function inRange(v: IstioVersion, r: ReleaseRange): boolean {
  const i = KNOWN_RELEASES.indexOf(v.master ? 'master' : `${v.major}.${v.minor}`);
  return i >= KNOWN_RELEASES.indexOf(r.first) && (r.last === undefined || i <= KNOWN_RELEASES.indexOf(r.last));
}

/** '1.24 to 1.29', '1.22 or later', 'only 1.5', 'master'. */
export function describeRange(r: ReleaseRange): string {
  if (r.last === undefined) return r.first === 'master' ? 'master' : r.first === KNOWN_RELEASES[0] ? 'any release' : `${r.first} or later`;
  return r.first === r.last ? `only ${r.first}` : `${r.first} to ${r.last}`;
}

/** The release a template (or a whole ConfigMap's text) was written for; undefined when it names nothing. */
export function detectIstioVersion(text: string, values?: unknown): Detection | undefined {
  // a render asks three times of the same config text (loading it, the renderer, the assumptions line)
  if (text === lastDetection[0] && values === lastDetection[1]) return lastDetection[2];
  const d = detect(text, values);
  lastDetection = [text, values, d];
  return d;
}

let lastDetection: [string | undefined, unknown, Detection | undefined] = [undefined, undefined, undefined];

function detect(text: string, values: unknown): Detection | undefined {
  const found = DETECTION_MARKS.filter(([re]) => re.test(text));
  const stock = newest(stockMark(text), valuesMark(values));
  const releases = KNOWN_RELEASES.map((r) => parseIstioVersion(r));
  const name = (v: IstioVersion) => (v.master ? 'master' : `${v.major}.${v.minor}`);
  if (found.length === 0 && !stock) {
    if (/\.DeploymentMeta\b|\.ProxyConfig\b|\.ObjectMeta\b/.test(text)) {
      return { version: parseIstioVersion(KNOWN_RELEASES[0]!), reason: 'an injection template with none of the newer fields', range: { first: KNOWN_RELEASES[0]! } };
    }
    return undefined;
  }
  let fit = releases.filter((v) => found.every(([, b]) => holds(v, b)));
  let reasons = found.map(([, , reason]) => reason);
  if (fit.length === 0) {
    // no release has all of them: the newest mark's releases, and say which marks disagree
    const newest = found.reduce((x, y) => (oldestOf(y[1], releases) > oldestOf(x[1], releases) ? y : x));
    fit = releases.filter((v) => holds(v, newest[1]));
    reasons = [`${newest[2]} (no release has all of: ${reasons.join(', ')})`];
  } else {
    // the marks that set the range's ends speak for it: the one only the range's first release and later
    // have, and the one its last release and earlier have
    const lo = releases.indexOf(fit[0]!);
    const hi = releases.indexOf(fit[fit.length - 1]!);
    const lower = found.filter(([, b]) => lo > 0 && !holds(releases[lo - 1]!, b));
    const upper = found.filter(([, b]) => hi < releases.length - 1 && !holds(releases[hi + 1]!, b));
    // Istio's own template of a later release in the range: its words narrow the range from below
    const from = stock ? fit.findIndex((v) => name(v) === stock[1]) : -1;
    if (stock && from > 0) {
      fit = fit.slice(from);
      reasons = [stockReason(stock), ...upper.map(([, , r]) => r)];
    } else if (lower.length + upper.length > 0) {
      reasons = [...new Set([...lower, ...upper].map(([, , r]) => r))];
    }
  }
  const last = fit[fit.length - 1]!;
  const range: ReleaseRange = { first: name(fit[0]!), ...(last.master ? {} : { last: name(last) }) };
  return { version: fit[0]!, reason: reasons.join(', ') || 'an injection template with none of the newer fields', range };
}

/** The newest of STOCK_TEMPLATE_MARKS the text has: [word, release]. */
function stockMark(text: string): readonly [string, string, ...unknown[]] | undefined {
  let best: readonly [string, string, ...unknown[]] | undefined;
  for (const m of STOCK_TEMPLATE_MARKS) {
    let i = text.indexOf(m[0]);
    // a values path or name, not the start of a longer one
    while (i >= 0 && /[A-Za-z0-9_]/.test(text[i + m[0].length] ?? '')) i = text.indexOf(m[0], i + 1);
    if (i < 0) continue;
    if (!best || KNOWN_RELEASES.indexOf(m[1]) > KNOWN_RELEASES.indexOf(best[1])) best = m;
  }
  return best;
}

/** The newest of STOCK_VALUES_MARKS the values have (a values object as the injector reads it). */
function valuesMark(values: unknown): readonly [string, string, 'values'] | undefined {
  if (!values || typeof values !== 'object') return undefined;
  let best: readonly [string, string, 'values'] | undefined;
  for (const [path, release] of STOCK_VALUES_MARKS) {
    let o: unknown = values;
    for (const k of path.split('.')) o = o && typeof o === 'object' && !Array.isArray(o) && Object.hasOwn(o, k) ? (o as Record<string, unknown>)[k] : undefined;
    if (o === undefined) continue;
    if (!best || KNOWN_RELEASES.indexOf(release) > KNOWN_RELEASES.indexOf(best[1])) best = [path, release, 'values'];
  }
  return best;
}

function newest<T extends readonly [string, string, ...unknown[]]>(a: T | undefined, b: T | undefined): T | undefined {
  if (!a || !b) return a ?? b;
  return KNOWN_RELEASES.indexOf(b[1]) > KNOWN_RELEASES.indexOf(a[1]) ? b : a;
}

function stockReason([word, release, where]: readonly [string, string, ...unknown[]]): string {
  return where === 'values' ? `its values have ${word}, a key of Istio ${release}'s chart` : `has Istio ${release}'s own template text (${word.replace(/ :=$/, '')})`;
}

/** Whether the release has the mark's behaviour (or, for '!name', lacks it). */
function holds(v: IstioVersion, mark: Behaviour | `!${Behaviour}`): boolean {
  return mark.startsWith('!') ? !has(v, mark.slice(1) as Behaviour) : has(v, mark as Behaviour);
}

function oldestOf(b: Behaviour | `!${Behaviour}`, releases: IstioVersion[]): number {
  const i = releases.findIndex((v) => holds(v, b));
  return i < 0 ? -1 : i;
}

/**
 * Why the assumptions line names its release: the release given (--istio-version wins, and when the
 * templates cannot be of it, says what they read as), else what detection read and the range it allows.
 */
export function releaseWhy(given: IstioVersion | undefined, d: Detection | undefined): string {
  if (given) {
    if (!d || inRange(given, d.range)) return '--istio-version';
    return `--istio-version, though the templates read as ${describeRange(d.range)}: ${d.reason}`;
  }
  if (!d) return 'nothing in the templates names an older one';
  return `detected: ${d.reason}; templates of ${describeRange(d.range)}`;
}
