// What the kubelet does with a pod, step by step: init containers in order (native sidecars gated by
// their postStart and startupProbe), main containers one by one (each postStart holding the next),
// when the application can first send traffic, and the shutdown: preStop hooks in parallel, SIGTERM
// after each hook, native sidecars stopped after the main containers, SIGKILL at the grace period.

import { fmtSeconds, hook, isIstioInit, proxyDrain, type HandlerFacts } from './lifecycle.js';
import { proxyReadyFirst } from './rules/app-waits-for-proxy.js';
import { proxyExit } from './rules/job-never-completes.js';
import type { ContainerView, Subject } from './subject.js';
import { get, getIn, isObject } from './types.js';

export interface TimelineStep {
  /** `completion`: what happens when the work of a Job (or a run-once pod) is done. */
  phase: 'startup' | 'completion' | 'shutdown';
  /** The container concerned, or `pod` / `kubelet`. */
  actor: string;
  text: string;
  /** A hazard at this step. */
  warn?: boolean;
}

export type LaneRole = 'init' | 'native' | 'proxy' | 'app';

export interface Lane {
  name: string;
  role: LaneRole;
  /** Start-up, in ordinal slots: the container starts at `start` and is known ready at `ready`. */
  start: number;
  ready?: number;
  /** Init containers that run to completion end at `end`. */
  end?: number;
  /** What gates the next container: `postStart`, `startupProbe`, `completion`, or nothing. */
  gate?: string;
  /** Shutdown, in seconds after deletion. */
  preStopEnd?: number;
  sigterm?: number;
  exit?: number;
  /** Killed at the grace period instead of exiting. */
  killed?: boolean;
}

export interface Timeline {
  workload: string;
  injection: Subject['injection'];
  steps: TimelineStep[];
  lanes: Lane[];
  /** Slot in which the first application container starts. */
  appStart?: number;
  /** Is the proxy ready before the application starts? undefined without a proxy. */
  proxyReadyAtAppStart?: boolean;
  grace: number;
}

function role(c: ContainerView): LaneRole {
  if (c.isProxy) return 'proxy';
  if (c.native) return 'native';
  return c.field === 'initContainers' ? 'init' : 'app';
}

function probeText(p: unknown): string {
  if (!isObject(p)) return '';
  const http = get(p, 'httpGet');
  const what = isObject(http) ? `GET :${String(get(http, 'port') ?? '')}${String(get(http, 'path') ?? '/')}` : isObject(get(p, 'tcpSocket')) ? `tcp :${String(getIn(p, ['tcpSocket', 'port']) ?? '')}` : isObject(get(p, 'exec')) ? 'exec' : 'probe';
  const period = Number(get(p, 'periodSeconds') ?? 10);
  const failures = Number(get(p, 'failureThreshold') ?? 3);
  const delay = Number(get(p, 'initialDelaySeconds') ?? 0);
  return `${what}, up to ${fmtSeconds(delay + period * failures)}`;
}

function hookText(h: HandlerFacts): string {
  return h.kind === 'exec' ? `\`${h.text}\`` : h.text;
}

export function timeline(s: Subject): Timeline {
  const steps: TimelineStep[] = [];
  const lanes: Lane[] = [];
  const add = (phase: TimelineStep['phase'], actor: string, text: string, warn = false): void => {
    steps.push(warn ? { phase, actor, text, warn } : { phase, actor, text });
  };
  let slot = 0;
  if (s.injectionNote) add('startup', 'pod', s.injectionNote, true);

  // ---- init containers, in order
  for (const c of s.initContainers) {
    const lane: Lane = { name: c.name, role: role(c), start: slot };
    lanes.push(lane);
    if (!c.native) {
      add('startup', c.name, `Init container ${c.name} runs to completion; nothing after it starts until it exits successfully.`);
      lane.end = slot + 1;
      lane.gate = 'completion';
      slot += 1;
      continue;
    }
    add('startup', c.name, `Native sidecar ${c.name} starts (init container with restartPolicy: Always) and keeps running.`);
    const post = hook(c, 'postStart');
    const startup = get(c.spec, 'startupProbe');
    let gated = false;
    if (post) {
      const blocks = post.readinessWait !== 'background';
      add('startup', c.name, `The kubelet runs its postStart ${hookText(post)} and waits for it${post.readinessWait === 'blocking' ? ' (it returns once the proxy is ready)' : post.readinessWait === 'background' ? ', but the wait runs in the background and returns at once' : ''}.`, !blocks);
      gated = gated || (c.isProxy ? post.readinessWait === 'blocking' : blocks);
    }
    if (isObject(startup)) {
      add('startup', c.name, `The kubelet waits for its startupProbe (${probeText(startup)}) to succeed before starting the next container.`);
      gated = true;
      lane.gate = 'startupProbe';
    } else if (post) lane.gate = 'postStart';
    if (!gated) {
      add('startup', c.name, `Nothing makes the kubelet wait for ${c.name}: the next container starts right away, ready or not.`, true);
      lane.gate = undefined;
      slot += 1;
    } else {
      lane.ready = slot + 1;
      slot += 1;
    }
  }

  // ---- main containers, one by one
  let appStart: number | undefined;
  let proxyReadyAtAppStart: boolean | undefined;
  const readyFirst = proxyReadyFirst(s);
  for (const c of s.containers) {
    const lane: Lane = { name: c.name, role: role(c), start: slot };
    lanes.push(lane);
    const isApp = !c.isProxy && !isIstioInit(c);
    if (isApp && appStart === undefined) {
      appStart = slot;
      if (s.proxy) {
        proxyReadyAtAppStart = readyFirst;
        add(
          'startup',
          c.name,
          readyFirst
            ? `${c.name} starts and can send traffic; the proxy is already ready.`
            : `${c.name} starts and can send traffic, but nothing has waited for the proxy: requests sent before Envoy is ready fail.`,
          !readyFirst,
        );
      } else add('startup', c.name, `${c.name} starts and can send traffic (no proxy in this pod).`);
    } else add('startup', c.name, `Container ${c.name} starts.`);
    const post = hook(c, 'postStart');
    if (post) {
      const blocking = post.readinessWait !== 'background';
      const next = s.containers[c.index + 1]?.name;
      add(
        'startup',
        c.name,
        `The kubelet runs its postStart ${hookText(post)} and starts ${next ?? 'nothing else'} only after it returns${post.readinessWait === 'blocking' ? ' (once the proxy is ready)' : post.readinessWait === 'background' ? '; the wait runs in the background, so it returns at once' : ''}.`,
        c.isProxy && post.readinessWait !== 'blocking' && s.settings.hold.requested,
      );
      if (blocking) {
        lane.gate = 'postStart';
        lane.ready = slot + 1;
      }
    }
    slot += lane.gate ? 1 : 0.35;
  }
  const readiness = [...s.initContainers.filter((c) => c.native), ...s.containers].filter((c) => isObject(get(c.spec, 'readinessProbe'))).map((c) => c.name);
  add('startup', 'pod', `The pod becomes Ready and receives Service traffic once every container has started${readiness.length ? ` and the readinessProbes of ${readiness.join(', ')} pass` : ''}.`);

  // ---- completion of run-to-completion pods: every container must exit
  if (s.workload.runsToCompletion && s.proxy && !s.gateway) {
    const apps = s.containers.filter((c) => !c.isProxy).map((c) => c.name).join(', ') || 'the application';
    if (s.proxy.native) {
      add('completion', 'kubelet', `When ${apps} exit${apps.includes(',') ? '' : 's'}, the kubelet stops the native sidecar istio-proxy and the pod completes.`);
    } else {
      const how = proxyExit(s);
      add(
        'completion',
        'istio-proxy',
        how
          ? `When ${apps} finish${apps.includes(',') ? '' : 'es'}, ${how}: the proxy exits and the pod completes.`
          : `When ${apps} finish${apps.includes(',') ? '' : 'es'}, istio-proxy keeps running: nothing tells it to exit, so the pod never completes.`,
        !how,
      );
    }
  }

  // ---- shutdown
  const grace = s.grace.seconds;
  add('shutdown', 'pod', `Deletion: the pod leaves the Service endpoints and the grace period of ${fmtSeconds(grace)} starts (terminationGracePeriodSeconds${s.grace.explicit ? '' : ', default'}).`);
  const drain = s.proxy ? proxyDrain(s) : undefined;
  const laneOf = (c: ContainerView): Lane => lanes.find((l) => l.name === c.name && l.role === role(c))!;
  const mains = s.containers;
  const natives = s.initContainers.filter((c) => c.native);
  // native sidecars run their preStop only when their own turn to stop comes, after the main containers
  const withPreStop = mains.filter((c) => hook(c, 'preStop'));
  if (withPreStop.length) {
    add('shutdown', 'kubelet', `preStop hooks start at once, in parallel: ${withPreStop.map((c) => c.name).join(', ')}.`);
  }
  let mainExit = 0;
  const sigtermAt = (c: ContainerView): number => Math.min(hook(c, 'preStop')?.seconds ?? 0, grace);
  for (const c of [...mains].sort((a, b) => sigtermAt(a) - sigtermAt(b))) {
    const lane = laneOf(c);
    const pre = hook(c, 'preStop');
    const preEnd = pre ? Math.min(pre.seconds, grace) : 0;
    if (pre) {
      const never = pre.seconds === Infinity;
      add(
        'shutdown',
        c.name,
        never
          ? `preStop ${hookText(pre)} never returns: ${c.name} is still in it when the grace period ends at ${fmtSeconds(grace)}.`
          : `preStop ${hookText(pre)} runs${pre.seconds > 0 ? ` for at least ${fmtSeconds(pre.seconds)}` : ''}; then ${c.name} gets SIGTERM${pre.seconds > 0 ? ` at ~${fmtSeconds(preEnd)}` : ''}.`,
        never || pre.seconds > grace,
      );
      lane.preStopEnd = preEnd;
    } else add('shutdown', c.name, `${c.name} gets SIGTERM at 0s (no preStop).`);
    lane.sigterm = preEnd;
    let exit = preEnd;
    if (c.isProxy && drain && pre?.seconds === Infinity) {
      exit = Infinity;
      add('shutdown', c.name, `The proxy never gets to drain (${fmtSeconds(drain.seconds)}, ${drain.what}): it is killed at ${fmtSeconds(grace)} with its connections open.`, true);
    } else if (c.isProxy && drain) {
      exit = preEnd + drain.seconds;
      add('shutdown', c.name, `The proxy drains for ${fmtSeconds(drain.seconds)} (${drain.what}) and exits at ~${fmtSeconds(Math.min(exit, grace))}${exit > grace ? ', cut short by the end of the grace period' : ''}; from then on the other containers have no mesh connectivity.`, exit > grace);
    }
    lane.exit = Math.min(exit, grace);
    lane.killed = exit >= grace && (pre?.seconds === Infinity || exit > grace);
    mainExit = Math.max(mainExit, lane.exit);
  }
  const classicProxy = s.proxy && !s.proxy.native ? laneOf(s.proxy) : undefined;
  if (classicProxy) {
    const late = mains.filter((c) => !c.isProxy && (laneOf(c).exit ?? 0) > (classicProxy.exit ?? 0)).map((c) => c.name);
    if (late.length) add('shutdown', 'istio-proxy', `The proxy is gone before ${late.join(', ')} finish${late.length === 1 ? 'es' : ''} shutting down: their outbound calls fail from then on.`, true);
  }
  if (natives.length) {
    add('shutdown', 'kubelet', `Once every main container has exited (~${fmtSeconds(mainExit)}), the kubelet stops the native sidecars in reverse order: ${[...natives].reverse().map((c) => c.name).join(', ')}.`);
    let t = mainExit;
    for (const c of [...natives].reverse()) {
      const lane = laneOf(c);
      const pre = hook(c, 'preStop');
      if (pre) lane.preStopEnd = Math.min(pre.seconds, grace);
      lane.sigterm = t;
      const d = c.isProxy && drain ? drain.seconds : 0;
      const exit = t + d;
      add('shutdown', c.name, `${pre ? `At ~${fmtSeconds(t)} the kubelet runs its preStop ${hookText(pre)}, then sends SIGTERM` : `${c.name} gets SIGTERM at ~${fmtSeconds(t)}`}${d ? `; it drains for ${fmtSeconds(d)}` : ''}${exit > grace ? ', but the grace period ends first' : ''}.`, exit > grace);
      lane.exit = Math.min(exit, grace);
      lane.killed = exit > grace;
      t = lane.exit;
    }
  }
  const killed = lanes.filter((l) => l.killed).map((l) => l.name);
  add(
    'shutdown',
    'kubelet',
    killed.length
      ? `At ${fmtSeconds(grace)} the kubelet sends SIGKILL to what still runs: ${killed.join(', ')}.`
      : `Everything has exited before ${fmtSeconds(grace)}; otherwise the kubelet would send SIGKILL then.`,
    killed.length > 0,
  );
  return { workload: s.workload.id, injection: s.injection, steps, lanes, appStart, proxyReadyAtAppStart, grace };
}
