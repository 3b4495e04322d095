// What the playground page holds, and its link: every input, option and the open tab, compressed into the
// URL's fragment, which a browser never sends to a server. A fragment is untrusted text: it is read back
// field by field, each checked for its type and kind, and what is not understood is left at its default.
// The page's own bundle imports this file and presets.ts alone: the library is in the worker's.

import { KNOWN_RELEASES } from '../istio/version.js';

/** The releases the page offers (--istio-version), newest first. */
export const RELEASES: readonly string[] = [...KNOWN_RELEASES].reverse();

/** One injector setup: the ConfigMap (or a bare template), values, --set lines, mesh config, release. */
export interface Setup {
  /** An istio-sidecar-injector ConfigMap export, its data.config alone, or a bare injection template. */
  injector: string;
  /** Values: merged over the ConfigMap's data.values as --values-file does, or replacing them as --values does. */
  values: string;
  valuesMode: 'merge' | 'replace';
  /** One `--set key=value` a line; a line `string: key=value` is a --set-string. */
  set: string;
  /** The mesh config: the istio ConfigMap, MeshConfig YAML or an IstioOperator (empty: none given). */
  mesh: string;
  /** --istio-version: '' detects it from the templates. */
  istioVersion: string;
}

export type PageMode = 'inject' | 'template';

export interface GoTemplateState {
  text: string;
  /** YAML or JSON data, read as Helm reads values. */
  data: string;
  funcs: 'builtin' | 'sprig' | 'helm' | 'istio';
  /** missingkey=default|zero|error */
  missingkey: 'default' | 'zero' | 'error';
}

export interface PlaygroundState {
  mode: PageMode;
  /** Setup A, and B for the A/B diff (absent: no diff). */
  a: Setup;
  b?: Setup;
  /** One or more workloads, as one file (documents, a List). */
  workloads: string;
  kubeVersion: string;
  nativeSidecars: 'auto' | 'true' | 'false';
  renderMode: 'webhook' | 'kube-inject';
  template: GoTemplateState;
  /** Wall time allowed for one render, in seconds. */
  timeLimit: number;
  /** The output tab open. */
  tab: string;
}

/** The state's version in a link; a link of another version opens with the defaults and says why. */
export const STATE_VERSION = 1;
/** A link's state, decompressed, is at most this big (a link is a few kilobytes; this stops a bomb). */
export const MAX_STATE_BYTES = 4 * 1024 * 1024;
export const DEFAULT_TIME_LIMIT_S = 10;
export const MAX_TIME_LIMIT_S = 60;

export const OUTPUT_TABS = ['template', 'merged', 'findings', 'timeline', 'diff', 'output'] as const;

export function emptySetup(): Setup {
  return { injector: '', values: '', valuesMode: 'merge', set: '', mesh: '', istioVersion: '' };
}

export function defaultState(): PlaygroundState {
  return {
    mode: 'inject',
    a: emptySetup(),
    workloads: '',
    kubeVersion: '',
    nativeSidecars: 'auto',
    renderMode: 'webhook',
    template: { text: '', data: '', funcs: 'sprig', missingkey: 'default' },
    timeLimit: DEFAULT_TIME_LIMIT_S,
    tab: 'merged',
  };
}

// ---------- reading untrusted state ----------

type Loose = Record<string, unknown>;

const isLoose = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, d: string): string => (typeof v === 'string' ? v : d);
function oneOf<T extends string>(v: unknown, choices: readonly T[], d: T): T {
  return typeof v === 'string' && (choices as readonly string[]).includes(v) ? (v as T) : d;
}

function setupOf(v: unknown): Setup {
  const s = isLoose(v) ? v : {};
  const d = emptySetup();
  return {
    injector: str(s['injector'], d.injector),
    values: str(s['values'], d.values),
    valuesMode: oneOf(s['valuesMode'], ['merge', 'replace'] as const, d.valuesMode),
    set: str(s['set'], d.set),
    mesh: str(s['mesh'], d.mesh),
    istioVersion: str(s['istioVersion'], d.istioVersion).slice(0, 40),
  };
}

/** Any value, as a state: every field checked, the rest defaults. */
export function stateOf(v: unknown): PlaygroundState {
  const d = defaultState();
  const s = isLoose(v) ? v : {};
  const t = isLoose(s['template']) ? s['template'] : {};
  const limit = typeof s['timeLimit'] === 'number' && Number.isFinite(s['timeLimit']) ? Math.min(MAX_TIME_LIMIT_S, Math.max(1, s['timeLimit'])) : d.timeLimit;
  return {
    mode: oneOf(s['mode'], ['inject', 'template'] as const, d.mode),
    a: setupOf(s['a']),
    ...(s['b'] !== undefined && s['b'] !== null ? { b: setupOf(s['b']) } : {}),
    workloads: str(s['workloads'], d.workloads),
    kubeVersion: str(s['kubeVersion'], d.kubeVersion).slice(0, 20),
    nativeSidecars: oneOf(s['nativeSidecars'], ['auto', 'true', 'false'] as const, d.nativeSidecars),
    renderMode: oneOf(s['renderMode'], ['webhook', 'kube-inject'] as const, d.renderMode),
    template: {
      text: str(t['text'], d.template.text),
      data: str(t['data'], d.template.data),
      funcs: oneOf(t['funcs'], ['builtin', 'sprig', 'helm', 'istio'] as const, d.template.funcs),
      missingkey: oneOf(t['missingkey'], ['default', 'zero', 'error'] as const, d.template.missingkey),
    },
    timeLimit: limit,
    tab: oneOf(s['tab'], OUTPUT_TABS, d.tab as (typeof OUTPUT_TABS)[number]),
  };
}

// ---------- the link ----------

/** The state without what equals the defaults, so that links stay short. */
function trimmed(s: PlaygroundState): Loose {
  const d = defaultState() as unknown as Loose;
  const out: Loose = { v: STATE_VERSION };
  for (const [k, v] of Object.entries(s)) {
    if (k === 'a' || k === 'b') {
      const e = emptySetup() as unknown as Loose;
      const side: Loose = {};
      for (const [sk, sv] of Object.entries(v as Setup)) if (sv !== e[sk]) side[sk] = sv;
      out[k] = side;
    } else if (k === 'template') {
      const e = d['template'] as Loose;
      const t: Loose = {};
      for (const [tk, tv] of Object.entries(v as GoTemplateState)) if (tv !== e[tk]) t[tk] = tv;
      if (Object.keys(t).length > 0) out[k] = t;
    } else if (v !== d[k]) out[k] = v;
  }
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error('the link holds characters that base64url does not have');
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function through(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, max = Infinity): Promise<Uint8Array> {
  const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream).getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > max) {
      await reader.cancel();
      throw new Error(`the link's state is larger than ${max / 1024 / 1024} MiB`);
    }
    parts.push(value);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The URL fragment (without '#') that holds a state: `s=` and the deflated JSON in base64url. */
export async function encodeState(s: PlaygroundState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(trimmed(s)));
  return `s=${toBase64Url(await through(json, new CompressionStream('deflate-raw')))}`;
}

/** A fragment's state; a fragment that is not one is an Error saying why (the page then opens empty). */
export async function decodeState(fragment: string): Promise<PlaygroundState> {
  const f = fragment.replace(/^#/, '');
  if (!f.startsWith('s=')) throw new Error('the link holds no playground state (#s=...)');
  let json: string;
  try {
    const bytes = await through(fromBase64Url(f.slice(2)), new DecompressionStream('deflate-raw'), MAX_STATE_BYTES);
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (e) {
    throw new Error(`the link's state cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    throw new Error("the link's state is not JSON");
  }
  if (!isLoose(v) || v['v'] !== STATE_VERSION) throw new Error(`the link's state is of another version (${isLoose(v) ? String(v['v']) : 'none'}), not ${STATE_VERSION}`);
  return stateOf(v);
}
