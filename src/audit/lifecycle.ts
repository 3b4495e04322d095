// Reading container hooks and commands: what a postStart or preStop handler does, and for how long.

import { analyzeArgv, CURRENT_LISTENERS, type Listeners, type ShellFacts } from './shell.js';
import type { ContainerView, Subject } from './subject.js';
import { asArray, asString, get, getIn, isObject, type JsonObject } from './types.js';
import { durationSeconds } from './settings.js';
import { releaseAtLeast } from './release.js';

export type HookName = 'postStart' | 'preStop';

export interface HandlerFacts {
  kind: 'exec' | 'httpGet' | 'tcpSocket' | 'sleep' | 'unknown';
  /** Shown in messages. */
  text: string;
  argv?: string[];
  shell?: ShellFacts;
  /** Lower bound of how long the handler runs (Infinity when it never returns). */
  seconds: number;
  /** For postStart: does it hold the container until the proxy is ready? */
  readinessWait: ShellFacts['readinessWait'];
}

const cache = new WeakMap<object, Map<Listeners, HandlerFacts | null>>();

/** A container's hook, read against the sockets its pod's proxy listens on (the pod shares one network). */
export function hook(c: ContainerView, name: HookName): HandlerFacts | undefined {
  const h = getIn(c.spec, ['lifecycle', name]);
  if (!isObject(h)) return undefined;
  const listeners = c.listeners ?? CURRENT_LISTENERS;
  let byModel = cache.get(h);
  if (!byModel) cache.set(h, (byModel = new Map()));
  const hit = byModel.get(listeners);
  if (hit !== undefined) return hit ?? undefined;
  const facts = handlerFacts(h, listeners);
  byModel.set(listeners, facts ?? null);
  return facts;
}

export function handlerFacts(h: JsonObject, listeners: Listeners = CURRENT_LISTENERS): HandlerFacts | undefined {
  const exec = get(h, 'exec');
  if (isObject(exec)) {
    const argv = asArray(get(exec, 'command')).map(String);
    const shell = analyzeArgv(argv, listeners);
    return { kind: 'exec', text: argv.join(' '), argv, shell, seconds: shell.seconds, readinessWait: shell.readinessWait };
  }
  const sleep = get(h, 'sleep');
  if (isObject(sleep)) {
    const s = Number(get(sleep, 'seconds') ?? 0);
    return { kind: 'sleep', text: `sleep ${s}s`, seconds: Number.isFinite(s) ? s : 0, readinessWait: 'none' };
  }
  const http = get(h, 'httpGet');
  if (isObject(http)) {
    const path = asString(get(http, 'path')) ?? '/';
    const port = String(get(http, 'port') ?? '');
    const host = asString(get(http, 'host')) ?? '';
    const text = `GET ${host}:${port}${path}`;
    // one request is all the kubelet makes: it never waits for readiness
    const ready = /healthz\/ready|^\/ready$/.test(path) && /^(15021|15020|15000)$/.test(port);
    return { kind: 'httpGet', text, seconds: 0, readinessWait: ready ? 'single' : 'none' };
  }
  const tcp = get(h, 'tcpSocket');
  if (isObject(tcp)) return { kind: 'tcpSocket', text: `tcp ${String(get(tcp, 'port') ?? '')}`, seconds: 0, readinessWait: 'none' };
  return { kind: 'unknown', text: JSON.stringify(h), seconds: 0, readinessWait: 'none' };
}

/** `pilot-agent wait [flags]`: the template's hold. */
export function isIstioWait(h: HandlerFacts | undefined): boolean {
  return !!h && h.kind === 'exec' && !!h.argv && /(^|\/)pilot-agent$/.test(h.argv[0] ?? '') && h.argv[1] === 'wait';
}

/** `pilot-agent request ... POST drain`: the native sidecar's drain. */
export function isIstioDrain(h: HandlerFacts | undefined): boolean {
  return !!h && h.kind === 'exec' && !!h.argv && /(^|\/)pilot-agent$/.test(h.argv[0] ?? '') && h.argv[1] === 'request' && h.argv.includes('drain');
}

/** The timeout of `pilot-agent wait` (60 s unless --timeoutSeconds says otherwise). */
export function waitTimeout(h: HandlerFacts | undefined): number {
  const argv = h?.argv ?? [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--timeoutSeconds(?:=(\d+))?$/.exec(argv[i]!);
    if (m) return Number(m[1] ?? argv[i + 1] ?? 60);
  }
  return 60;
}

/**
 * Does the proxy carry a lifecycle that someone wrote instead of the template's? For a proxy the
 * audit rendered, the settings know; an injected proxy shows it by handlers Istio never writes
 * (a postStart that is only a non-blocking attempt at waiting is a hold not enforced instead).
 */
export function proxyLifecycleIsCustom(s: Subject): boolean {
  if (!s.proxy) return false;
  if (s.injection !== 'injected') return !!s.settings.customLifecycle;
  const pre = hook(s.proxy, 'preStop');
  const post = hook(s.proxy, 'postStart');
  if (pre && !isIstioDrain(pre)) return true;
  // a postStart the template never writes (no wait, or one that does not block) was put there by hand
  if (post && post.readinessWait !== 'blocking') return true;
  return false;
}

/** The container's entrypoint as the kubelet runs it: command then args. */
export function entrypoint(c: ContainerView): string[] {
  return [...asArray(get(c.spec, 'command')), ...asArray(get(c.spec, 'args'))].map(String);
}

const entryCache = new WeakMap<object, ShellFacts>();
export function entrypointFacts(c: ContainerView): ShellFacts {
  let f = entryCache.get(c.spec);
  if (!f) {
    f = analyzeArgv(entrypoint(c));
    entryCache.set(c.spec, f);
  }
  return f;
}

export function envValue(c: ContainerView | undefined, name: string): string | undefined {
  if (!c) return undefined;
  for (const e of asArray(get(c.spec, 'env'))) if (get(e, 'name') === name) return asString(get(e, 'value'));
  return undefined;
}

export function envIndex(c: ContainerView, name: string): number {
  return asArray(get(c.spec, 'env')).findIndex((e) => get(e, 'name') === name);
}

/** A proxy setting that ProxyConfig metadata turns into env (`EXIT_ON_ZERO_ACTIVE_CONNECTIONS`, ...). */
export function proxyEnv(s: Subject, name: string): string | undefined {
  const v = envValue(s.proxy, name);
  if (v !== undefined) return v;
  const meta = get(s.settings.proxyConfig, 'proxyMetadata');
  const m = get(meta, name);
  return m === undefined ? undefined : String(m);
}

/**
 * EXIT_ON_ZERO_ACTIVE_CONNECTIONS changes how the proxy drains once it is terminating (exactly
 * "true"; any other spelling is read as off). It never ends a proxy on its own.
 */
export function exitOnZeroActive(v: string | undefined): boolean {
  return v === 'true';
}

export interface Drain {
  /** The timed part of the drain (with exitOnZero, only its minimum: the wait for connections follows). */
  seconds: number;
  /** The setting that gives it, as users write it. */
  what: string;
  /**
   * EXIT_ON_ZERO_ACTIVE_CONNECTIONS=true: pilot-agent sleeps MINIMUM_DRAIN_DURATION, then waits for zero
   * active connections with no bound but SIGKILL (terminationDrainDuration is not used on that path).
   */
  exitOnZero: boolean;
  /** Where it is set: a ProxyConfig key, or the proxy container's env. */
  source: { proxyConfig: string } | { env: string };
}

/**
 * How long the proxy drains after SIGTERM. With EXIT_ON_ZERO_ACTIVE_CONNECTIONS=true the timed part is
 * MINIMUM_DRAIN_DURATION (5 s by default) and an unbounded wait for connections follows; otherwise the
 * longer of terminationDrainDuration (ProxyConfig: mesh defaultConfig, the pod's proxy.istio.io/config)
 * and, in 1.4 to 1.9, the proxy's env TERMINATION_DRAIN_DURATION_SECONDS. There is no per-pod
 * sidecar.istio.io/terminationDrainDuration annotation in any release: none is read.
 */
export function proxyDrain(s: Subject): Drain {
  const exitOnZero = exitOnZeroActive(proxyEnv(s, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS'));
  if (exitOnZero) {
    const min = durationSeconds(proxyEnv(s, 'MINIMUM_DRAIN_DURATION') ?? '5s') ?? 5;
    return { seconds: min, what: 'MINIMUM_DRAIN_DURATION, with EXIT_ON_ZERO_ACTIVE_CONNECTIONS', exitOnZero, source: { proxyConfig: 'proxyMetadata' } };
  }
  const d = durationSeconds(get(s.settings.proxyConfig, 'terminationDrainDuration') ?? '5s') ?? 5;
  const drain: Drain = { seconds: d, what: 'terminationDrainDuration', exitOnZero, source: { proxyConfig: 'terminationDrainDuration' } };
  // whole seconds, read by pilot-agent 1.4 to 1.9, before ProxyConfig had the field and until 1.10 dropped it
  const r = s.release;
  if (r && !r.lowerBound && (releaseAtLeast(r, 1, 10) || !releaseAtLeast(r, 1, 4))) return drain;
  const env = proxyEnv(s, 'TERMINATION_DRAIN_DURATION_SECONDS');
  const envSeconds = env !== undefined && /^\s*\d+\s*$/.test(env) ? Number(env) : undefined;
  if (envSeconds !== undefined && envSeconds > drain.seconds) {
    return { seconds: envSeconds, what: 'env TERMINATION_DRAIN_DURATION_SECONDS', exitOnZero, source: { env: 'TERMINATION_DRAIN_DURATION_SECONDS' } };
  }
  return drain;
}

export function fmtSeconds(s: number): string {
  if (s === Infinity) return 'forever';
  return Number.isInteger(s) ? `${s}s` : `${s.toFixed(1)}s`;
}

/** Istio's own init containers, which are not the application's. */
export function isIstioInit(c: ContainerView): boolean {
  return c.name === 'istio-init' || c.name === 'istio-validation' || c.name === 'enable-core-dump';
}
