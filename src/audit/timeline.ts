// What the kubelet does with a pod, step by step.
//
// Start-up: init containers one by one, each run to completion, except native sidecars
// (`restartPolicy: Always`), which only have to be started: their postStart returned and their
// startupProbe passed. Then the main containers in order, each postStart returning before the next
// container starts. Readiness probes gate Service traffic, never start order.
//
// Shutdown (kubelet killContainer): at deletion every container's preStop starts at once, native
// sidecars' included; a container gets SIGTERM when its own preStop returns, a native sidecar only
// once every main container and every later sidecar has exited. The grace period counts from
// deletion, preStop time included; whoever is still in a preStop or waiting for its turn when it
// ends gets SIGTERM then, and every SIGTERM comes with at least the kubelet's 2 s window before SIGKILL.

import { entrypointFacts, fmtSeconds, hook, isIstioInit, proxyDrain, waitTimeout, isIstioWait, type HandlerFacts } from './lifecycle.js';
import { proxyExit } from './rules/job-never-completes.js';
import { applies, RULES } from './rules/index.js';
import type { ContainerView, Subject } from './subject.js';
import { get, getIn, isObject, kubeAtLeast, type Severity } from './types.js';

/** The kubelet's minimum shutdown window after SIGTERM (minimumGracePeriodInSeconds). */
export const MIN_KILL_WINDOW = 2;

export type StepLevel = 'hazard' | 'caution' | 'note';

export interface TimelineStep {
  /** `completion`: what happens when the work of a Job (or a run-once pod) is done. */
  phase: 'startup' | 'completion' | 'shutdown';
  /** The container concerned, or `pod` / `kubelet`. */
  actor: string;
  text: string;
  /** Shutdown: seconds after deletion (a lower bound when `approx`). */
  at?: number;
  approx?: boolean;
  /**
   * `hazard`: an audit rule fired for it (see `rule`); `caution`: a risk the rules leave alone
   * (Istio's default start race, say); `note`: an info finding.
   */
  level?: StepLevel;
  rule?: string;
  /** A hazard or caution at this step. */
  warn?: boolean;
}

export type LaneRole = 'init' | 'native' | 'proxy' | 'app';

export interface Lane {
  name: string;
  role: LaneRole;
  /** The proxy as a native sidecar (role `proxy`). */
  native?: boolean;
  /** Start-up, in ordinal slots (not to scale): the container starts at `start`. */
  start: number;
  /** The next container may start here (end of the gate). */
  ready?: number;
  /** Init containers that run to completion end at `end`. */
  end?: number;
  /** What gates the next container: `postStart`, `startupProbe`, `completion`, or nothing. */
  gate?: string;
  /** Short text of the gate, for the figure. */
  gateText?: string;
  /** The gate never ends: nothing after this lane starts. */
  blocks?: boolean;
  /** Never started: something before it never finished. */
  neverStarts?: boolean;
  /** Shutdown, in seconds after deletion. preStop runs from 0 to `preStopEnd`. */
  preStop?: string;
  preStopEnd?: number;
  preStopNever?: boolean;
  /** A native sidecar waits for the main containers (and later sidecars) from `waitFrom` to SIGTERM. */
  waitFrom?: number;
  sigterm?: number;
  /** The proxy drains from SIGTERM until `exit`. */
  drain?: number;
  /** Exit (earliest: an application is assumed to exit as soon as it gets SIGTERM). */
  exit?: number;
  /** Must be gone by then: SIGKILL. */
  deadline?: number;
  /** Killed at `deadline` instead of exiting. */
  killed?: boolean;
  /** Hazards at start-up concern this lane: rule ids. */
  rules?: string[];
  /** Hazards at shutdown concern this lane: rule ids. */
  stopRules?: string[];
  /** How the kubelet really runs it, when that differs from what the spec asks for. */
  runsAs?: string;
}

export interface TimelineFinding {
  rule: string;
  severity: Severity;
  container: string | null;
  message: string;
  /** Shown at a step of the timeline (else listed on its own). */
  shown: boolean;
}

export interface Timeline {
  workload: string;
  injection: Subject['injection'];
  steps: TimelineStep[];
  lanes: Lane[];
  /** Slot in which the first application container starts. */
  appStart?: number;
  /** The first application container. */
  app?: string;
  /** Slot from which the proxy is known to be ready (a gate waited for it). */
  proxyReady?: number;
  /** Is the proxy ready before the application can send traffic? undefined without a proxy. */
  proxyReadyAtAppStart?: boolean;
  /** The application's own command waits for the proxy before it runs. */
  appWaitsItself?: boolean;
  /** The pod never gets all its containers started: the container that blocks. */
  stuckAt?: string;
  /** A run-to-completion pod that can never complete. */
  neverCompletes?: boolean;
  grace: number;
  graceDefault: boolean;
  /** Seconds after deletion when the last container is gone. */
  end: number;
  /** The rules that fired for this workload, with whether a step shows them. */
  findings: TimelineFinding[];
  /** One-line answers: first traffic, shutdown, completion. */
  summary: { text: string; level?: StepLevel; rule?: string }[];
}

function role(c: ContainerView): LaneRole {
  if (c.isProxy) return 'proxy';
  if (c.native) return 'native';
  return c.field === 'initContainers' ? 'init' : 'app';
}

function probeText(p: unknown): string {
  if (!isObject(p)) return '';
  const http = get(p, 'httpGet');
  const what = isObject(http)
    ? `GET :${String(get(http, 'port') ?? '')}${String(get(http, 'path') ?? '/')}`
    : isObject(get(p, 'tcpSocket'))
      ? `tcp :${String(getIn(p, ['tcpSocket', 'port']) ?? '')}`
      : isObject(get(p, 'exec'))
        ? 'exec'
        : 'probe';
  const period = Number(get(p, 'periodSeconds') ?? 10);
  const failures = Number(get(p, 'failureThreshold') ?? 3);
  const delay = Number(get(p, 'initialDelaySeconds') ?? 0);
  return `${what}, gives up after ${fmtSeconds(delay + period * failures)}`;
}

/** Handler text for one line: commands in backquotes, long scripts shortened. */
export function hookText(h: HandlerFacts, max = 140): string {
  const flat = h.text.replace(/\s+/g, ' ').trim();
  const t = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return h.kind === 'exec' ? `\`${t}\`` : t;
}

/** The audit's rules for one workload, as the timeline cites them. */
function findingsOf(s: Subject): TimelineFinding[] {
  const out: TimelineFinding[] = [];
  const seen = new Set<string>();
  for (const rule of RULES) {
    if (!applies(rule, s)) continue;
    rule.check(s, (f) => {
      const container = f.container ?? null;
      const key = `${rule.id}\0${container}\0${f.message}`;
      if (seen.has(key)) return;
      seen.add(key);
      out.push({ rule: rule.id, severity: f.severity ?? rule.severity, container, message: f.message, shown: false });
    });
  }
  return out;
}

export function timeline(s: Subject): Timeline {
  const findings = findingsOf(s);
  if (s.injectionError !== undefined) return rejected(s, findings);
  let phaseNow: TimelineStep['phase'] = 'startup';
  const steps: TimelineStep[] = [];
  const lanes: Lane[] = [];
  const laneOf = new Map<ContainerView, Lane>();

  /** The first fired rule among `rules` (about `container` when given): a hazard, else a caution. */
  const cite = (rules: string[], container?: string): Pick<TimelineStep, 'level' | 'rule' | 'warn'> => {
    for (const id of rules) {
      const f = findings.find((x) => x.rule === id && (container === undefined || x.container === null || x.container === container));
      if (f) {
        f.shown = true;
        const lane = lanes.find((l) => l.name === (f.container ?? container));
        if (lane && f.severity !== 'info') {
          const list = phaseNow === 'shutdown' ? (lane.stopRules ??= []) : (lane.rules ??= []);
          if (!list.includes(id)) list.push(id);
        }
        return f.severity === 'info' ? { level: 'note', rule: id } : { level: 'hazard', rule: id, warn: true };
      }
    }
    return { level: 'caution', warn: true };
  };
  const add = (phase: TimelineStep['phase'], actor: string, text: string, extra: Partial<TimelineStep> = {}): TimelineStep => {
    const st: TimelineStep = { phase, actor, text };
    for (const [k, v] of Object.entries(extra)) if (v !== undefined) (st as unknown as Record<string, unknown>)[k] = v;
    steps.push(st);
    return st;
  };

  const oldCluster = !!s.kubeVersion && !kubeAtLeast(s.kubeVersion, 1, 29);
  const proxy = s.proxy;
  const classicProxy = proxy && !proxy.native ? proxy : undefined;

  // ---------------- start-up
  let slot = 0;
  let stuck: ContainerView | undefined;
  let proxyStarted = false;
  // with the CNI plugin the redirection is in place before any init container runs
  let redirected = s.initContainers.some((c) => c.name === 'istio-validation');
  let proxyReady: number | undefined;
  const neverStarts = (c: ContainerView, lane: Lane): void => {
    lane.neverStarts = true;
    add('startup', c.name, `never starts: ${stuck!.name} never lets the next container start.`);
  };

  for (const c of s.initContainers) {
    const lane: Lane = { name: c.name, role: role(c), start: slot, ...(c.isProxy && c.native ? { native: true } : {}) };
    lanes.push(lane);
    laneOf.set(c, lane);
    if (stuck) {
      neverStarts(c, lane);
      continue;
    }
    if (c.native && oldCluster) {
      // the API server drops restartPolicy from init containers while SidecarContainers is off
      lane.gate = 'completion';
      lane.gateText = 'runs as a plain init container, never exits';
      lane.runsAs = 'plain init container';
      lane.blocks = true;
      stuck = c;
      add('startup', c.name, `init container (restartPolicy: Always is dropped on Kubernetes ${s.kubeVersion!.join('.')}): it must exit before anything else starts, and ${c.isProxy ? 'Envoy' : 'a sidecar'} never exits. The pod is stuck in Init.`, cite(['hold-with-native-sidecar'], c.name));
      slot += 1;
      continue;
    }
    if (!c.native) {
      const f = entrypointFacts(c);
      lane.gate = 'completion';
      lane.end = slot + 1;
      if (f.pollsProxy && classicProxy) {
        lane.gateText = `waits for the proxy on :${f.pollsProxy.port}, never exits`;
        lane.blocks = true;
        lane.end = undefined;
        stuck = c;
        add('startup', c.name, `init container: its command waits for the proxy on :${f.pollsProxy.port}, but the classic istio-proxy starts only after every init container has exited. The pod never starts.`, cite(['app-waits-for-proxy'], c.name));
        slot += 1;
        continue;
      }
      lane.gateText = 'runs to completion';
      if (isIstioInit(c)) {
        redirected ||= c.name === 'istio-init';
        add('startup', c.name, c.name === 'istio-init' ? `init container: sets up the redirection of the pod's traffic to the proxy; must exit 0 before anything else starts.` : `init container: must exit 0 before anything else starts.`);
      } else if (redirected && proxy && !proxyStarted) {
        add('startup', c.name, `init container: must exit 0 before anything else starts. Its traffic is already redirected to istio-proxy, which has not started, so its network calls fail (unless it runs as UID 1337 or its ports are excluded from the redirection).`, { level: 'caution', warn: true });
      } else add('startup', c.name, `init container: must exit 0 before anything else starts.`);
      slot += 1;
      continue;
    }
    // native sidecar
    if (c.isProxy) proxyStarted = true;
    const post = hook(c, 'postStart');
    const startup = get(c.spec, 'startupProbe');
    const blocksOnPost = !!post && post.readinessWait !== 'background';
    const gates: string[] = [];
    if (post) gates.push(`postStart ${hookText(post, 48)}${post.readinessWait === 'background' ? ' (backgrounded: returns at once)' : ''}`);
    if (isObject(startup)) gates.push(`startupProbe (${probeText(startup)})`);
    const gated = blocksOnPost || isObject(startup);
    if (gated) {
      lane.gate = isObject(startup) ? 'startupProbe' : 'postStart';
      lane.gateText = isObject(startup) ? `startupProbe ${probeText(startup).split(',')[0]}` : `postStart ${hookText(post!, 40)}`;
      lane.ready = slot + 1;
      add('startup', c.name, `native sidecar starts and keeps running; the next container waits for its ${gates.join(' and ')}.`);
      if (c.isProxy && (isObject(startup) || post?.readinessWait === 'blocking')) proxyReady = slot + 1;
      if (post && post.seconds === Infinity) {
        lane.blocks = true;
        stuck = c;
        add('startup', c.name, `its postStart never returns: the container never counts as started and nothing after it starts.`, { level: 'caution', warn: true });
      }
      slot += 1;
    } else {
      lane.gateText = 'nothing waits for it';
      add('startup', c.name, `native sidecar starts, but nothing makes the kubelet wait for it${post ? ` (postStart ${hookText(post, 48)} returns at once)` : ' (no startupProbe, no postStart)'}: the next container starts right away, ready or not.`, cite(['native-sidecar-unordered'], c.name));
      slot += 0.4;
    }
  }

  let appStart: number | undefined;
  let app: string | undefined;
  let proxyReadyAtAppStart: boolean | undefined;
  let appWaitsItself = false;
  for (const c of s.containers) {
    const lane: Lane = { name: c.name, role: role(c), start: slot };
    lanes.push(lane);
    laneOf.set(c, lane);
    if (stuck) {
      neverStarts(c, lane);
      continue;
    }
    const isApp = !c.isProxy && !isIstioInit(c);
    if (c.isProxy) proxyStarted = true;
    const next = s.containers[c.index + 1]?.name;
    if (isApp && appStart === undefined) {
      appStart = slot;
      app = c.name;
      const f = entrypointFacts(c);
      if (!proxy) add('startup', c.name, `starts and can send traffic (no proxy in this pod).`);
      else if (proxyReady !== undefined && proxyReady <= slot) {
        proxyReadyAtAppStart = true;
        add('startup', c.name, `starts and can send traffic: the proxy is already ready.`);
      } else if (f.pollsProxy) {
        proxyReadyAtAppStart = false;
        appWaitsItself = true;
        add('startup', c.name, `starts ${proxyStarted ? 'before the proxy is known to be ready' : 'before istio-proxy'}; its own command polls localhost:${f.pollsProxy.port} and runs the application only once the proxy answers.`, cite(['app-waits-for-proxy'], c.name));
      } else {
        proxyReadyAtAppStart = false;
        const why = proxyStarted ? 'istio-proxy has started, but nothing waited for Envoy to be ready' : 'istio-proxy has not even started';
        const sleep = f.leadingSleep !== undefined ? ` (it sleeps ${fmtSeconds(f.leadingSleep)} first, a guess)` : '';
        const st = add('startup', c.name, `starts and can send traffic before the proxy is ready: ${why}${sleep}. Calls through the mesh fail until Envoy has its configuration.`, cite(['hold-dropped-by-lifecycle', 'hold-not-enforced', 'native-sidecar-unordered', 'app-waits-for-proxy']));
        if (st.level === 'caution' && !s.settings.hold.requested && proxy && !proxy.native) st.text += ' (Istio default: holdApplicationUntilProxyStarts is off.)';
      }
    } else if (c.isProxy) {
      add('startup', c.name, `starts (classic sidecar); Envoy is ready once it has its configuration from istiod.`);
    } else add('startup', c.name, `starts.`);
    const post = hook(c, 'postStart');
    if (post) {
      const blocking = post.readinessWait !== 'background';
      let how = '';
      if (c.isProxy && post.readinessWait === 'blocking') {
        how = isIstioWait(post) ? ` returns once Envoy is ready (it gives up after ${fmtSeconds(waitTimeout(post))}; the kubelet then kills and restarts ${c.name})` : ' returns once Envoy is ready';
      } else if (post.readinessWait === 'background') how = ' backgrounds its wait, so it returns at once and holds nothing';
      else if (post.readinessWait === 'single') how = ' makes one request, not a wait: it returns whether Envoy is ready or not';
      const lvl = c.isProxy && post.readinessWait !== 'blocking' && s.settings.hold.requested ? cite(['hold-not-enforced', 'hold-dropped-by-lifecycle'], c.name) : {};
      add('startup', c.name, `postStart ${hookText(post)}${how}; ${next ? `${next} starts only after it returns` : 'the container counts as started only after it returns'}.`, lvl);
      if (blocking) {
        lane.gate = 'postStart';
        lane.gateText = `postStart ${hookText(post, 40)}`;
        lane.ready = slot + 1;
        if (c.isProxy && post.readinessWait === 'blocking') proxyReady = slot + 1;
        if (post.seconds === Infinity) {
          lane.blocks = true;
          stuck = c;
          add('startup', c.name, `its postStart never returns: ${c.name} never becomes Running and nothing after it starts.`, { level: 'caution', warn: true });
        }
      }
    } else if (c.isProxy && s.settings.hold.requested && !proxy?.native) {
      add('startup', c.name, `no postStart: nothing holds the containers after it until Envoy is ready, although holdApplicationUntilProxyStarts is requested.`, cite(['hold-dropped-by-lifecycle', 'hold-not-enforced'], c.name));
    }
    slot += lane.gate ? 1 : 0.4;
  }
  if (stuck) {
    add('startup', 'pod', `never becomes Ready: ${stuck.name} blocks start-up for good.`, { level: lanes.find((l) => l.name === stuck!.name)?.rules?.length ? 'hazard' : 'caution', warn: true, rule: lanes.find((l) => l.name === stuck!.name)?.rules?.[0] });
  } else {
    const readiness = [...s.initContainers.filter((c) => c.native), ...s.containers].filter((c) => isObject(get(c.spec, 'readinessProbe'))).map((c) => c.name);
    add('startup', 'pod', `Ready (receives Service traffic) once every container has started${readiness.length ? ` and the readinessProbe of ${readiness.join(', ')} passes` : ''}; readiness never holds start order.`);
  }

  // ---------------- completion of run-to-completion pods: every container must exit
  let neverCompletes = false;
  if (s.workload.runsToCompletion && proxy && !s.gateway && !stuck) {
    const apps = s.containers.filter((c) => !c.isProxy).map((c) => c.name);
    const who = apps.join(', ') || 'the application';
    if (proxy.native) {
      add('completion', 'kubelet', `when ${who} exit${apps.length > 1 ? '' : 's'}, the kubelet stops the native sidecar istio-proxy and the pod completes.`);
    } else {
      const how = proxyExit(s);
      if (how) add('completion', 'istio-proxy', `when ${who} finish${apps.length > 1 ? '' : 'es'}, ${how}: the proxy exits and the pod completes.`);
      else {
        neverCompletes = true;
        add('completion', 'istio-proxy', `when ${who} finish${apps.length > 1 ? '' : 'es'}, istio-proxy keeps running: nothing tells it to exit, so the pod never completes.`, cite(['job-never-completes'], proxy.name));
      }
    }
  }

  // ---------------- shutdown
  phaseNow = 'shutdown';
  const grace = s.grace.seconds;
  const sd = (at: number, actor: string, text: string, extra: Partial<TimelineStep> = {}): TimelineStep => add('shutdown', actor, text, { at, ...extra });
  sd(0, 'pod', `deleted: leaves the Service endpoints; the grace period of ${fmtSeconds(grace)} starts (terminationGracePeriodSeconds${s.grace.explicit ? '' : ', default'}).`);
  const drain = proxy ? proxyDrain(s) : undefined;
  // what runs at deletion: started and not run to completion (a stuck init container runs too)
  const running = [...s.initContainers, ...s.containers].filter((c) => {
    const l = laneOf.get(c)!;
    return !l.neverStarts && (c.field === 'containers' || c.native || !!l.blocks);
  });
  const asNative = (c: ContainerView): boolean => c.native && !oldCluster;
  const mains = running.filter((c) => !asNative(c));
  const natives = running.filter(asNative);
  const withPreStop = running.filter((c) => hook(c, 'preStop'));
  if (withPreStop.length > 1) sd(0, 'kubelet', `runs the preStop hooks of ${withPreStop.map((c) => c.name).join(', ')} at once, in parallel.`);

  /** Exit of a container that got SIGTERM at `t`: the proxy drains, an application is assumed prompt. */
  const stopAt = (c: ContainerView, lane: Lane, t: number, why: string, earliest = false): void => {
    lane.sigterm = t;
    lane.deadline = t + Math.max(grace - t, MIN_KILL_WINDOW);
    const late = t >= grace;
    const window = late ? `; only the kubelet's ${MIN_KILL_WINDOW}s minimum window is left` : '';
    if (c.isProxy && drain) {
      const want = t + drain.seconds;
      lane.drain = drain.seconds;
      lane.exit = Math.min(want, lane.deadline);
      lane.killed = want > lane.deadline;
      const rest = drain.exitOnZero ? `, then pilot-agent waits until no connection is active: a long-lived one keeps it until SIGKILL at ${fmtSeconds(lane.deadline)}` : '';
      const st = sd(t, c.name, `SIGTERM (${why}): Envoy drains for ${drain.exitOnZero ? 'at least ' : ''}${fmtSeconds(drain.seconds)} (${drain.what})${rest}${window}.`, { approx: earliest && !late });
      if (lane.killed) {
        Object.assign(st, cite(['drain-exceeds-grace', 'prestop-never-exits'], c.name));
        st.text += ` The drain is cut short.`;
      }
    } else {
      lane.exit = t;
      sd(t, c.name, `SIGTERM (${why})${window}.`, { approx: earliest && !late });
    }
  };

  for (const c of running) {
    const lane = laneOf.get(c)!;
    const pre = hook(c, 'preStop');
    if (!pre) continue;
    lane.preStop = hookText(pre, 40);
    lane.preStopEnd = Math.min(pre.seconds, grace);
    lane.preStopNever = pre.seconds === Infinity;
    const native = asNative(c) ? ' (native sidecar: its SIGTERM still waits for the main containers)' : '';
    const long = pre.seconds === Infinity ? ' It never returns.' : pre.seconds > grace ? ` It runs ${fmtSeconds(pre.seconds)}, longer than the grace period.` : pre.seconds > 0 ? ` It takes at least ${fmtSeconds(pre.seconds)}.` : '';
    const lvl = pre.seconds === Infinity ? cite(['prestop-never-exits'], c.name) : pre.seconds > grace ? cite(['drain-exceeds-grace'], c.name) : {};
    sd(0, c.name, `preStop ${hookText(pre)} starts${native}.${long}`, lvl);
  }
  let mainExit = 0;
  for (const c of [...mains].sort((a, b) => Math.min(hook(a, 'preStop')?.seconds ?? 0, grace) - Math.min(hook(b, 'preStop')?.seconds ?? 0, grace))) {
    const lane = laneOf.get(c)!;
    const pre = hook(c, 'preStop');
    const t = pre ? Math.min(pre.seconds, grace) : 0;
    stopAt(c, lane, t, !pre ? 'no preStop' : pre.seconds >= grace ? 'grace period over, preStop abandoned' : 'preStop returned');
    mainExit = Math.max(mainExit, lane.exit ?? 0);
  }
  if (classicProxy && laneOf.get(classicProxy)?.exit !== undefined) {
    const pl = laneOf.get(classicProxy)!;
    const late = mains.filter((c) => !c.isProxy && (laneOf.get(c)!.sigterm ?? 0) > pl.exit!).map((c) => c.name);
    sd(pl.exit!, classicProxy.name, `${pl.killed ? 'killed' : drain?.exitOnZero ? 'exits, at the earliest (once no connection is active)' : 'exits'}: from now on no container of the pod can use the mesh${late.length ? `, yet ${late.join(', ')} ${late.length > 1 ? 'are' : 'is'} still shutting down` : ''}.`, late.length ? { level: 'caution', warn: true, approx: true } : { approx: !pl.killed });
  }
  if (natives.length) {
    const order = [...natives].reverse();
    sd(mainExit, 'kubelet', `every main container has exited (at the earliest, if each exits at once on SIGTERM): the native sidecars get SIGTERM in reverse order: ${order.map((c) => c.name).join(', ')}.`, { approx: true });
    let t = mainExit;
    for (const c of order) {
      const lane = laneOf.get(c)!;
      const preEnd = lane.preStopEnd ?? 0;
      const turn = Math.min(Math.max(t, preEnd), grace);
      if (turn > preEnd) lane.waitFrom = preEnd;
      stopAt(c, lane, turn, turn >= grace ? 'grace period over' : 'its turn', true);
      if (c.isProxy && lane.exit !== undefined) sd(lane.exit, c.name, `${lane.killed ? 'killed' : drain?.exitOnZero ? 'exits, at the earliest (once no connection is active)' : 'exits'}; the pod is gone.`, { approx: !lane.killed });
      t = lane.exit ?? turn;
    }
  }
  const killed = lanes.filter((l) => l.killed);
  const end = Math.max(0, ...lanes.map((l) => l.exit ?? 0));
  if (killed.length) {
    const at = Math.max(...killed.map((l) => l.deadline!));
    sd(at, 'kubelet', `SIGKILL: ${killed.map((l) => l.name).join(', ')}${at > grace ? ` (the grace period plus the ${MIN_KILL_WINDOW}s window)` : ''}.`, { level: 'hazard', warn: true, rule: killed.flatMap((l) => l.stopRules ?? [])[0] });
    if (!steps[steps.length - 1]!.rule) Object.assign(steps[steps.length - 1]!, { level: 'caution' });
  } else sd(grace, 'kubelet', `would send SIGKILL to anything still running; everything has exited by ~${fmtSeconds(end)}.`, { approx: false });
  const shutdown = steps.filter((x) => x.phase === 'shutdown');
  const rest = steps.filter((x) => x.phase !== 'shutdown');
  // stable by time: what happens at the same moment keeps its causal order
  shutdown.sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
  steps.length = 0;
  steps.push(...rest, ...shutdown);

  // ---------------- summary
  const summary: Timeline['summary'] = [];
  const stuckLane = stuck ? laneOf.get(stuck) : undefined;
  if (stuck) summary.push({ text: `Start-up never finishes: ${stuck.name} blocks everything after it.`, level: stuckLane?.rules?.length ? 'hazard' : 'caution', rule: stuckLane?.rules?.[0] });
  else if (!proxy) summary.push({ text: `First traffic: ${app ?? 'the application'} starts; no proxy in this pod.` });
  else if (proxyReadyAtAppStart) summary.push({ text: `First traffic: ${app} starts after the proxy is ready.` });
  else {
    const st = steps.find((x) => x.phase === 'startup' && x.actor === app && x.warn);
    summary.push({
      text: appWaitsItself ? `First traffic: ${app} starts before the proxy is ready, and waits for it in its own command.` : `First traffic: ${app ?? 'the application'} can send traffic before the proxy is ready.`,
      level: st?.level ?? 'caution',
      rule: st?.rule,
    });
  }
  if (s.workload.runsToCompletion && proxy && !stuck) {
    const st = steps.find((x) => x.phase === 'completion' && x.warn);
    summary.push(neverCompletes ? { text: 'Completion: never; istio-proxy keeps running after the work is done.', level: st?.level ?? 'hazard', rule: st?.rule } : { text: 'Completion: the pod completes when the work is done.' });
  }
  if (killed.length) {
    const rule = killed.flatMap((l) => l.stopRules ?? [])[0];
    const at = Math.max(...killed.map((l) => l.deadline!));
    summary.push({ text: `Shutdown: ${killed.map((l) => l.name).join(', ')} killed at ${fmtSeconds(at)} (grace period ${fmtSeconds(grace)}).`, level: rule ? 'hazard' : 'caution', rule });
  } else summary.push({ text: `Shutdown: everything has exited by ~${fmtSeconds(end)}, within the grace period of ${fmtSeconds(grace)}.` });

  return {
    workload: s.workload.id,
    injection: s.injection,
    steps,
    lanes,
    appStart,
    app,
    proxyReady,
    proxyReadyAtAppStart,
    appWaitsItself,
    stuckAt: stuck?.name,
    neverCompletes,
    grace,
    graceDefault: !s.grace.explicit,
    end: Math.max(end, ...killed.map((l) => l.deadline!)),
    findings,
    summary,
  };
}

/** A pod the injector fails on: the API server never creates it, so nothing starts or stops. */
function rejected(s: Subject, findings: TimelineFinding[]): Timeline {
  for (const f of findings) if (f.rule === 'injection-fails') f.shown = true;
  const text = `never created: istiod's injector fails on it (${s.injectionError}), and the webhook, which fails closed, makes the API server reject it.`;
  return {
    workload: s.workload.id,
    injection: s.injection,
    steps: [{ phase: 'startup', actor: 'pod', text, level: 'hazard', rule: 'injection-fails', warn: true }],
    lanes: [],
    grace: s.grace.seconds,
    graceDefault: !s.grace.explicit,
    end: 0,
    findings,
    summary: [{ text: 'Start-up never happens: istiod rejects the pod.', level: 'hazard', rule: 'injection-fails' }],
  };
}
