// Timelines: the order the kubelet starts and stops things, and whether the proxy is ready in time.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditDetailed, renderTimelineSvg, renderTimelineText, timeline, type AuditOptions } from '../../src/audit/index.js';
import type { Timeline } from '../../src/audit/timeline.js';

function tl(yaml: string, kubeVersion?: string) {
  const r = auditDetailed([{ name: 'w.yaml', text: yaml }], { inject: null, kubeVersion });
  return timeline(r.subjects[0]!);
}

const deployment = (annotations: string, spec = '') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  template:
    metadata:
      annotations:
${annotations}
    spec:
${spec}      containers:
      - name: web
        image: shop/web:1
        lifecycle:
          preStop:
            exec: {command: [sleep, "20"]}
`;

/** Steps unwrapped, so that patterns see whole sentences. */
const ONE_LINE = { width: 10_000 };
const lane = (t: Timeline, name: string) => t.lanes.find((l) => l.name === name)!;
const hazards = (text: string) => text.split('\n').filter((l) => /^\s+\S+\s+!! |^\s+!! /.test(l) || / !! /.test(l));

/** Enough of XML 1.0 well-formedness for generated markup: one root, balanced tags, quoted attributes, escaped text. */
function wellFormed(xml: string): string | undefined {
  const stack: string[] = [];
  let roots = 0;
  const re = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(xml))) {
    if (m[6]) return `stray < at ${m.index}`;
    if (m[5] !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(m[5])) return `bare & at ${m.index}`;
      if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(m[5])) return `control character at ${m.index}`;
      if (stack.length === 0 && m[5].trim()) return `text outside the root at ${m.index}`;
      continue;
    }
    const [, close, name, , selfClose] = m;
    if (close) {
      if (stack.pop() !== name) return `unbalanced </${name}> at ${m.index}`;
    } else {
      if (stack.length === 0) roots++;
      if (!selfClose) stack.push(name!);
    }
  }
  if (stack.length) return `unclosed <${stack[stack.length - 1]}>`;
  return roots === 1 ? undefined : `${roots} root elements`;
}

describe('timeline: start-up', () => {
  it('classic sidecar without hold: the app may start before the proxy is ready (Istio default: a caution)', () => {
    const t = tl(deployment('        x: y'));
    expect(t.proxyReadyAtAppStart).toBe(false);
    expect(t.lanes.map((l) => l.name)).toEqual(['istio-init', 'web', 'istio-proxy']);
    const st = t.steps.find((s) => s.actor === 'web' && s.phase === 'startup')!;
    expect(st.level).toBe('caution');
    expect(st.text).toMatch(/istio-proxy has not even started/);
    expect(t.summary[0]!.text).toMatch(/before the proxy is ready/);
  });

  it('hold: proxy first, postStart gates the app; the wait has a timeout', () => {
    const t = tl(deployment('        proxy.istio.io/config: "holdApplicationUntilProxyStarts: true"'));
    expect(t.proxyReadyAtAppStart).toBe(true);
    expect(t.lanes.map((l) => l.name)).toEqual(['istio-init', 'istio-proxy', 'web']);
    expect(lane(t, 'istio-proxy').gate).toBe('postStart');
    expect(t.proxyReady).toBe(lane(t, 'web').start);
    const text = renderTimelineText(t, ONE_LINE);
    expect(text).toMatch(/postStart `pilot-agent wait` returns once Envoy is ready \(it gives up after 60s/);
    expect(text).toMatch(/ok First traffic: web starts after the proxy is ready/);
    expect(hazards(text)).toEqual([]);
  });

  it('a postStart that never returns holds every later container for good', () => {
    const t = tl(`apiVersion: v1
kind: Pod
metadata: {name: p, annotations: {sidecar.istio.io/inject: "false"}}
spec:
  containers:
  - name: first
    image: a
    lifecycle: {postStart: {exec: {command: [sh, -c, "while true; do sleep 1; done"]}}}
  - name: second
    image: b
`);
    expect(t.stuckAt).toBe('first');
    expect(lane(t, 'second').neverStarts).toBe(true);
    expect(renderTimelineText(t, ONE_LINE)).toMatch(/second\s+never starts: first never lets the next container start/);
  });

  it('an init container waiting for a classic proxy deadlocks the pod', () => {
    const t = tl(`apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: n}
spec:
  template:
    spec:
      initContainers:
      - name: wait-mesh
        image: curl
        command: [sh, -c, "until curl -fsS localhost:15021/healthz/ready; do sleep 1; done"]
      containers:
      - name: app
        image: app
`);
    expect(t.stuckAt).toBe('wait-mesh');
    const text = renderTimelineText(t, ONE_LINE);
    expect(text).toMatch(/Start-up never finishes: wait-mesh blocks everything after it\.\s+\[app-waits-for-proxy\]/);
    expect(lane(t, 'app').neverStarts).toBe(true);
    expect(lane(t, 'istio-proxy').neverStarts).toBe(true);
  });

  it('a user init container after istio-init runs before the proxy exists: a caution', () => {
    const t = tl(`apiVersion: v1
kind: Pod
metadata: {name: p, namespace: n}
spec:
  initContainers:
  - {name: migrate, image: m}
  containers:
  - {name: app, image: app}
`);
    const names = t.lanes.map((l) => l.name);
    const st = t.steps.find((s) => s.actor === 'migrate')!;
    if (names.indexOf('istio-init') < names.indexOf('migrate')) expect(st.level).toBe('caution');
    else expect(st.level).toBeUndefined();
  });
});

describe('timeline: shutdown, as the kubelet does it', () => {
  it('native sidecar: startupProbe gates start; its preStop starts at deletion, its SIGTERM waits for the main containers', () => {
    const t = tl(deployment('        sidecar.istio.io/nativeSidecar: "true"'), '1.30');
    expect(t.proxyReadyAtAppStart).toBe(true);
    const proxy = lane(t, 'istio-proxy');
    expect(proxy.role).toBe('proxy');
    expect(proxy.gate).toBe('startupProbe');
    expect(proxy.preStopEnd).toBe(0);
    expect(proxy.waitFrom).toBe(0);
    expect(proxy.sigterm).toBe(20);
    expect(proxy.exit).toBe(25);
    const text = renderTimelineText(t, ONE_LINE);
    expect(text).toMatch(/0s\s+istio-proxy\s+preStop `pilot-agent request[^`]*drain` starts \(native sidecar: its SIGTERM still waits/);
    expect(text).toMatch(/the native sidecars get SIGTERM in reverse order: istio-proxy/);
    expect(text).toMatch(/~20s\s+istio-proxy\s+SIGTERM \(its turn\)/);
  });

  it('a never-ending preStop: SIGTERM when the grace period ends, SIGKILL after the 2 s window', () => {
    const t = tl(`apiVersion: v1
kind: Pod
metadata: {name: p, annotations: {sidecar.istio.io/inject: "false"}}
spec:
  terminationGracePeriodSeconds: 15
  containers:
  - name: c
    image: c
    lifecycle:
      preStop:
        exec: {command: [/bin/sh, -c, "while true; do sleep 1; done"]}
`);
    expect(t.grace).toBe(15);
    expect(lane(t, 'c').preStopNever).toBe(true);
    expect(lane(t, 'c').sigterm).toBe(15);
    expect(lane(t, 'c').deadline).toBe(17);
    const text = renderTimelineText(t, ONE_LINE);
    expect(text).toMatch(/0s\s+c\s+!! preStop `\/bin\/sh -c while true; do sleep 1; done` starts\. It never returns\. \[prestop-never-exits\]/);
    expect(text).toMatch(/15s\s+c\s+SIGTERM \(grace period over, preStop abandoned\); only the kubelet's 2s minimum window is left/);
  });

  it('a drain longer than the grace period is cut short: killed, with the rule id', () => {
    const t = tl(`apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: n
  annotations:
    proxy.istio.io/config: "terminationDrainDuration: 45s"
spec:
  containers:
  - {name: app, image: app}
`);
    const proxy = lane(t, 'istio-proxy');
    expect(proxy.drain).toBe(45);
    expect(proxy.killed).toBe(true);
    expect(proxy.deadline).toBe(30);
    const text = renderTimelineText(t, ONE_LINE);
    expect(text).toMatch(/SIGKILL: istio-proxy\.\s+\[drain-exceeds-grace\]/);
    expect(t.summary.at(-1)).toMatchObject({ level: 'hazard', rule: 'drain-exceeds-grace' });
  });

  it('a long-running workload has no completion step; SIGTERMs are told in time order', () => {
    const t = tl(deployment('        x: y'));
    expect(t.steps.filter((s) => s.phase === 'completion')).toEqual([]);
    const text = renderTimelineText(t, ONE_LINE);
    expect(text).not.toContain('When the work is done');
    expect(text.indexOf('istio-proxy     SIGTERM (no preStop)')).toBeGreaterThan(0);
    expect(text.indexOf('istio-proxy     SIGTERM (no preStop)')).toBeLessThan(text.indexOf('web             SIGTERM (preStop returned)'));
    // the proxy is gone (5 s drain) while web's 20 s preStop still runs
    expect(text).toMatch(/~5s\s+istio-proxy\s+!\s+exits: from now on no container of the pod can use the mesh, yet web is still shutting down/);
    const at = t.steps.filter((s) => s.phase === 'shutdown').map((s) => s.at!);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it('a preStop that never returns on the proxy: SIGTERM at the grace period, drain cut, SIGKILL 2 s later', () => {
    const t = tl(`apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: x
  annotations: {sidecar.istio.io/status: '{}'}
spec:
  containers:
  - name: app
    image: app
  - name: istio-proxy
    image: docker.io/istio/proxyv2:1.20.3
    args: [proxy, sidecar]
    lifecycle:
      preStop:
        exec: {command: [sh, -c, "while true; do sleep 1; done"]}
`);
    const text = renderTimelineText(t, ONE_LINE);
    expect(text).toMatch(/30s\s+istio-proxy\s+!! SIGTERM \(grace period over, preStop abandoned\): Envoy drains for 5s/);
    expect(text).toMatch(/32s\s+kubelet\s+!! SIGKILL: istio-proxy \(the grace period plus the 2s window\)\.\s+\[prestop-never-exits\]/);
  });
});

describe('timeline: EXIT_ON_ZERO_ACTIVE_CONNECTIONS', () => {
  it('only the minimum drain is timed; the wait for connections after it lasts until SIGKILL at worst', () => {
    const t = tl(deployment('        proxy.istio.io/config: |\n          terminationDrainDuration: 60s\n          proxyMetadata: {EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "true"}'));
    const text = renderTimelineText(t, ONE_LINE);
    expect(text).toMatch(/SIGTERM \(no preStop\): Envoy drains for at least 5s \(MINIMUM_DRAIN_DURATION, with EXIT_ON_ZERO_ACTIVE_CONNECTIONS\), then pilot-agent waits until no connection is active: a long-lived one keeps it until SIGKILL at 30s\./);
    expect(text).toMatch(/istio-proxy\s+(!\s+)?exits, at the earliest \(once no connection is active\)/);
    expect(text).not.toMatch(/60s/);
  });
});

describe('timeline: when a Job is done', () => {
  const job = (extra: string, cmd = '["./run"]') => `apiVersion: batch/v1
kind: Job
metadata: {name: once, namespace: batch}
spec:
  template:
    metadata:
      annotations: {${extra}}
    spec:
      restartPolicy: Never
      containers:
      - name: run
        image: batch/run:1
        command: ${cmd}
`;
  const completion = (t: Timeline) => t.steps.filter((s) => s.phase === 'completion');

  it('a classic proxy with no exit keeps the pod from completing', () => {
    const t = tl(job(''));
    const c = completion(t);
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({ level: 'hazard', rule: 'job-never-completes', warn: true });
    expect(c[0]!.text).toMatch(/never completes/);
    expect(t.neverCompletes).toBe(true);
  });

  it('/quitquitquit, or a native sidecar, lets it complete', () => {
    const quit = completion(tl(job('', '["sh", "-c", "./run; curl -fsS -X POST localhost:15020/quitquitquit"]')));
    expect(quit[0]!.warn).toBeUndefined();
    expect(quit[0]!.text).toMatch(/quitquitquit.*completes/);
    const native = completion(tl(job('sidecar.istio.io/nativeSidecar: "true"'), '1.30'));
    expect(native[0]!.text).toMatch(/stops the native sidecar istio-proxy and the pod completes/);
  });
});

// ---------------------------------------------------------------- the seed scenarios and their fixes

const seeds = join(import.meta.dirname, 'fixtures', 'seeds');

function seedTimeline(file: string): { t: Timeline; text: string; expect: string } {
  const src = readFileSync(join(seeds, file), 'utf8');
  const o: AuditOptions = {};
  const flags = (/^# flags: (.*)$/m.exec(src)?.[1] ?? '').split(/\s+/).filter(Boolean);
  for (let i = 0; i < flags.length; i++) {
    if (flags[i] === '--kube-version') o.kubeVersion = flags[++i];
    else if (flags[i] === '--native-sidecars') o.nativeSidecars = true;
    else if (flags[i] === '--model') o.inject = null;
  }
  const r = auditDetailed([{ name: file, text: src }], o);
  expect(r.subjects).toHaveLength(1);
  const t = timeline(r.subjects[0]!);
  return { t, text: renderTimelineText(t, ONE_LINE), expect: /^# expect: (.*)$/m.exec(src)![1]!.trim() };
}

describe('timeline: seed scenarios', () => {
  const files = readdirSync(seeds).sort();

  for (const file of files) {
    it(`${file}: hazards cite their rules; fixes show none`, () => {
      const { t, text, expect: want } = seedTimeline(file);
      if (want === 'none') {
        expect(hazards(text), text).toEqual([]);
        expect(t.findings).toEqual([]);
      } else {
        for (const rule of want.split(/,\s*/)) expect(text, text).toContain(`[${rule}]`);
      }
      const svg = renderTimelineSvg(t);
      expect(wellFormed(svg)).toBeUndefined();
      for (const l of t.lanes) expect(svg).toContain(`>${l.name}</text>`);
      if (want !== 'none') for (const rule of want.split(/,\s*/)) expect(svg).toContain(rule);
    });
  }

  it('000 (Istio 1.7: hold with a custom lifecycle): the app sends traffic before the proxy is ready', () => {
    const bad = seedTimeline('000-hold-lifecycle-hazard.yaml');
    expect(bad.text).toMatch(/!! First traffic: httpbin can send traffic before the proxy is ready\.\s+\[hold-dropped-by-lifecycle\]/);
    expect(bad.text).toMatch(/istio-proxy\s+!! no postStart: nothing holds the containers after it until Envoy is ready/);
    const good = seedTimeline('000-hold-lifecycle-fixed.yaml');
    expect(good.text).toMatch(/ok First traffic: httpbin starts after the proxy is ready/);
    expect(good.t.lanes.map((l) => l.name).slice(-2)).toEqual(['istio-proxy', 'httpbin']);
  });

  it('001 (the #7136 preStop loop): never returns, the proxy is killed at 32 s', () => {
    const bad = seedTimeline('001-prestop-loop-hazard.yaml');
    expect(bad.text).toMatch(/!! Shutdown: istio-proxy killed at 32s \(grace period 30s\)\.\s+\[prestop-never-exits\]/);
    expect(bad.text).toMatch(/netstat -plunt \| grep tcp \| grep -v envoy/);
    const good = seedTimeline('001-prestop-loop-fixed.yaml');
    expect(good.text).toMatch(/ok Shutdown: everything has exited by ~5s, within the grace period of 30s/);
    expect(good.t.lanes.find((l) => l.name === 'istio-proxy')!.preStopEnd).toBe(0);
  });

  it('002 (wait loop in the app, mesh-wide hold on an old pod): the app waits itself, or nothing waits', () => {
    expect(seedTimeline('002-app-wait-hazard.yaml').text).toMatch(/its own command polls localhost:15020 and runs the application only once the proxy answers\. \[app-waits-for-proxy\]/);
    expect(seedTimeline('002-app-wait-fixed.yaml').t.proxyReadyAtAppStart).toBe(true);
    expect(seedTimeline('002-mesh-hold-hazard.yaml').text).toMatch(/\[hold-not-enforced\]/);
    expect(seedTimeline('002-mesh-hold-fixed.yaml').t.proxyReadyAtAppStart).toBe(true);
  });

  it('003 (Job; native sidecar on an old cluster): never completes, or never starts', () => {
    const job = seedTimeline('003-job-hazard.yaml');
    expect(job.text).toMatch(/!! Completion: never; istio-proxy keeps running after the work is done\.\s+\[job-never-completes\]/);
    const fixed = seedTimeline('003-job-fixed.yaml');
    expect(fixed.text).toMatch(/ok Completion: the pod completes when the work is done/);
    expect(fixed.text).toMatch(/native sidecar starts and keeps running; the next container waits for its startupProbe \(GET :15021\/healthz\/ready/);
    const old = seedTimeline('003-native-old-cluster-hazard.yaml');
    expect(old.t.stuckAt).toBe('istio-proxy');
    expect(old.text).toMatch(/restartPolicy: Always is dropped on Kubernetes 1\.28/);
    expect(old.text).toMatch(/busybox\s+never starts/);
    expect(seedTimeline('003-native-old-cluster-fixed.yaml').t.stuckAt).toBeUndefined();
  });

  it('004 (lifecycle.type: Sidecar; WaitSidecar() in the app): the unknown field is listed, the wait shown', () => {
    const type = seedTimeline('004-lifecycle-type-hazard.yaml');
    expect(type.text).toMatch(/Also found:\n\s+!! \[unknown-field\] istio-proxy: `lifecycle\.type: Sidecar`/);
    expect(seedTimeline('004-lifecycle-type-fixed.yaml').t.proxyReadyAtAppStart).toBe(true);
    expect(seedTimeline('004-wait-sidecar-hazard.yaml').t.appWaitsItself).toBe(true);
  });
});

describe('timeline: rendering', () => {
  const hostile = `apiVersion: v1
kind: Pod
metadata: {name: "p<&>\\"", namespace: n, annotations: {sidecar.istio.io/inject: "false"}}
spec:
  containers:
  - name: "a<b>&\\"c\\u0007\\u001b[31m"
    image: x
    lifecycle: {preStop: {exec: {command: [sh, -c, "echo '<x>' && sleep 3"]}}}
`;

  it('SVG: user data is escaped and stripped of characters XML forbids', () => {
    const svg = renderTimelineSvg(tl(hostile));
    expect(wellFormed(svg)).toBeUndefined();
    expect(svg).toContain('a&lt;b&gt;&amp;&quot;c');
    expect(svg).not.toMatch(/[\u0007\u001b]/);
    expect(svg).not.toMatch(/<script|href=|<image|<foreignObject/);
  });

  it('SVG: one root with integer size, legend, grace line, markers and hazards with rule ids', () => {
    const t = tl(deployment('        x: y', '      terminationGracePeriodSeconds: 10\n'));
    const svg = renderTimelineSvg(t);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+" viewBox="0 0 \d+ \d+"/);
    expect(svg.match(/<svg/g)).toHaveLength(1);
    for (const label of ['Start-up', 'Shutdown', 'grace period 10s', 'web can send traffic, proxy NOT ready', 'preStop', 'SIGTERM', 'SIGKILL', 'native sidecar', 'Hazards and notes', 'drain-exceeds-grace (warning)']) {
      expect(svg).toContain(label);
    }
    // ids are per workload, so stacked figures do not share them
    const other = renderTimelineSvg(tl(deployment('        x: y').replace('name: web, namespace: shop', 'name: api, namespace: shop')));
    const ids = (s: string) => [...s.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids(svg).filter((i) => ids(other).includes(i))).toEqual([]);
  });

  it('text: colour only when asked, control characters from user data neutralised, lines wrapped', () => {
    const t = tl(hostile);
    const plain = renderTimelineText(t);
    expect(plain).not.toMatch(/\u001b|\u0007/);
    expect(plain).toContain('a<b>&"c??[31m');
    for (const line of plain.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    const coloured = renderTimelineText(tl(deployment('        x: y', '      terminationGracePeriodSeconds: 10\n')), { color: true });
    expect(coloured).toContain('\u001b[31m');
    expect(coloured).toContain('\u001b[33m');
  });
});
