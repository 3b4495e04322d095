// Entrypoint wrappers that end a Job's proxy when the application exits, told where by the container's
// environment: envoy-preflight (monzo/envoy-preflight) and scuttle (redboxllc/scuttle) run the
// application as their child and, once it has exited, POST the proxy's /quitquitquit (or stop
// pilot-agent by name). What each reads, and when it does nothing, is written down here once.

import { entrypointFacts } from './lifecycle.js';
import { releaseBefore } from './release.js';
import type { ContainerView, Subject } from './subject.js';
import { asArray, asString, get, isObject } from './types.js';

/** What a wrapper in a container does about the proxy once the application has exited. */
export interface WrapperFinding {
  /** The wrapper and what configures it, as a message says it: `envoy-preflight (ENVOY_KILL_API=...)`. */
  recognised: string;
  /** It ends the proxy: on every exit of the application, or only when it exits 0. */
  ends?: 'always' | 'on-success';
  /** Why it does not end the proxy (or, with on-success, what skips it). */
  why?: string;
  /** How to make it end the proxy on every exit. */
  fix?: string;
  /** The wrapper is not in the manifest: the image's entrypoint is taken to be it. */
  assumed?: string;
}

/** The variables only these wrappers read: their presence names the wrapper even when its binary is the image's entrypoint. */
const KILL_VARIABLES: Record<string, 'envoy-preflight' | 'scuttle'> = { ENVOY_KILL_API: 'envoy-preflight', ISTIO_QUIT_API: 'scuttle' };

function env(c: ContainerView): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const e of asArray(get(c.spec, 'env'))) {
    const name = asString(get(e, 'name'));
    if (name) out.set(name, asString(get(e, 'value')) ?? (isObject(get(e, 'valueFrom')) ? undefined : ''));
  }
  return out;
}

const base = (s: string): string => s.split('/').pop() ?? s;

/** Does a URL name a proxy endpoint that makes the proxy exit, as the pod's release has it? */
function quitEndpoint(s: Subject, url: string): string | undefined {
  const m = /^(?:https?:\/\/)?(localhost|127\.0\.0\.1|\[::1\]):(\d+)(\/[^?#]*)?/.exec(url.trim());
  if (!m) return `${url} is not the pod's own proxy (the wrapper reaches it only on localhost or 127.0.0.1)`;
  const port = Number(m[2]);
  const path = m[3] ?? '/';
  if (!/^\/quitquitquit\/?$/.test(path)) return `${url} is not a /quitquitquit endpoint`;
  if (port === 15000) return undefined; // Envoy's admin: Envoy exits, and pilot-agent with it
  if (port === 15020) return releaseBefore(s.release, 1, 3) ? `pilot-agent ${s.release!.text} has no /quitquitquit (it came in 1.3)` : undefined;
  return `nothing of the proxy listens on port ${port} (pilot-agent's /quitquitquit is on 15020, Envoy's admin on 15000)`;
}

/** ENVOY_ADMIN_API as both wrappers test it: set and local (a value from valueFrom cannot be read, and is trusted). */
function localAdmin(vars: Map<string, string | undefined>): boolean {
  if (!vars.has('ENVOY_ADMIN_API')) return false;
  const v = vars.get('ENVOY_ADMIN_API');
  return v === undefined || v.includes('127.0.0.1') || v.includes('localhost');
}

/**
 * The wrapper of a container of a run-to-completion pod, if one is recognised: its binary in the
 * command (or in the script the command runs), or, with no command in the manifest, one of the
 * variables only these wrappers read (the image's entrypoint is then taken to be the wrapper).
 */
export function wrapperOf(s: Subject, c: ContainerView): WrapperFinding | undefined {
  const vars = env(c);
  const named = entrypointFacts(c).commands.map((cmd) => base(cmd[0] ?? '')).find((b) => b === 'envoy-preflight' || b === 'scuttle');
  const byVariable = Object.keys(KILL_VARIABLES).find((k) => vars.has(k));
  const command = asArray(get(c.spec, 'command')).map(String);
  let wrapper: 'envoy-preflight' | 'scuttle';
  let assumed: string | undefined;
  if (named) wrapper = named as typeof wrapper;
  else if (byVariable) {
    wrapper = KILL_VARIABLES[byVariable]!;
    if (command.length) {
      return {
        recognised: `${byVariable} (read by ${wrapper})`,
        why: `${c.name}'s command \`${command.join(' ')}\` replaces the image's entrypoint and does not run ${wrapper}, so nothing reads ${byVariable}`,
        fix: `run the application under ${wrapper} (command: [${wrapper}, ...]) or call the proxy's /quitquitquit from the command itself`,
      };
    }
    assumed = `the manifest gives ${c.name} no command, so its image's entrypoint is taken to be ${wrapper}, the reader of ${byVariable}`;
  } else return undefined;

  const shown = (names: string[]): string => {
    const set = names.filter((n) => vars.has(n)).map((n) => `${n}=${vars.get(n) ?? '(from valueFrom)'}`);
    return `${wrapper}${set.length ? ` (${set.join(', ')})` : ''}`;
  };
  const admin = vars.get('ENVOY_ADMIN_API');
  if (wrapper === 'envoy-preflight') {
    const recognised = shown(['ENVOY_ADMIN_API', 'ENVOY_KILL_API', 'ALWAYS_KILL_ENVOY', 'NEVER_KILL_ENVOY']);
    const out = (f: Omit<WrapperFinding, 'recognised'>): WrapperFinding => ({ recognised, ...f, ...(assumed ? { assumed } : {}) });
    if (!localAdmin(vars)) return out({ why: `envoy-preflight tells the proxy nothing unless ENVOY_ADMIN_API names the local Envoy (http://127.0.0.1:15000)${admin ? `, and it is ${admin}` : ', which is not set'}`, fix: 'set ENVOY_ADMIN_API=http://127.0.0.1:15000 and ENVOY_KILL_API=http://127.0.0.1:15020/quitquitquit on the container' });
    if (vars.get('NEVER_KILL_ENVOY') === 'true') return out({ why: 'NEVER_KILL_ENVOY=true tells envoy-preflight never to stop the proxy', fix: 'remove NEVER_KILL_ENVOY' });
    const kill = vars.has('ENVOY_KILL_API') ? vars.get('ENVOY_KILL_API') : admin === undefined ? undefined : `${admin.replace(/\/+$/, '')}/quitquitquit`;
    const bad = kill === undefined ? undefined : quitEndpoint(s, kill);
    if (bad) return out({ why: `it POSTs ${kill}, but ${bad}`, fix: 'set ENVOY_KILL_API=http://127.0.0.1:15020/quitquitquit' });
    if (vars.get('ALWAYS_KILL_ENVOY') === 'true') return out({ ends: 'always' });
    return out({ ends: 'on-success', why: `envoy-preflight POSTs ${kill ?? 'ENVOY_KILL_API'} only when the application exits 0 (ALWAYS_KILL_ENVOY is not "true")`, fix: 'set ALWAYS_KILL_ENVOY=true on the container' });
  }
  const recognised = shown(['ENVOY_ADMIN_API', 'ISTIO_QUIT_API', 'NEVER_KILL_ISTIO', 'NEVER_KILL_ISTIO_ON_FAILURE']);
  const out = (f: Omit<WrapperFinding, 'recognised'>): WrapperFinding => ({ recognised, ...f, ...(assumed ? { assumed } : {}) });
  if (!localAdmin(vars)) return out({ why: `scuttle stops nothing unless ENVOY_ADMIN_API names the local Envoy (http://127.0.0.1:15000)${admin ? `, and it is ${admin}` : ', which is not set'}`, fix: 'set ENVOY_ADMIN_API=http://127.0.0.1:15000 and ISTIO_QUIT_API=http://127.0.0.1:15020 on the container' });
  if (vars.get('NEVER_KILL_ISTIO') === 'true') return out({ why: 'NEVER_KILL_ISTIO=true tells scuttle never to stop the proxy', fix: 'remove NEVER_KILL_ISTIO' });
  const quit = vars.get('ISTIO_QUIT_API');
  if (vars.has('ISTIO_QUIT_API') && quit === undefined) {
    // from valueFrom: cannot be read, and is trusted
  } else if (quit === undefined || quit === '') {
    // without ISTIO_QUIT_API scuttle runs `pkill -SIGINT pilot-agent`, which sees pilot-agent only in a shared process namespace
    if (s.spec['shareProcessNamespace'] !== true) return out({ why: 'without ISTIO_QUIT_API scuttle runs `pkill -SIGINT pilot-agent`, which cannot see pilot-agent: the pod does not share its process namespace', fix: 'set ISTIO_QUIT_API=http://127.0.0.1:15020 on the container' });
  } else {
    const bad = quitEndpoint(s, `${quit.replace(/\/+$/, '')}/quitquitquit`);
    if (bad) return out({ why: `it POSTs ${quit.replace(/\/+$/, '')}/quitquitquit, but ${bad}`, fix: 'set ISTIO_QUIT_API=http://127.0.0.1:15020' });
  }
  if (vars.get('NEVER_KILL_ISTIO_ON_FAILURE') === 'true') return out({ ends: 'on-success', why: 'NEVER_KILL_ISTIO_ON_FAILURE=true makes scuttle leave the proxy running when the application fails', fix: 'remove NEVER_KILL_ISTIO_ON_FAILURE' });
  return out({ ends: 'always' });
}
