// Timelines: the order the kubelet starts and stops things, and whether the proxy is ready in time.

import { describe, expect, it } from 'vitest';
import { auditDetailed, renderTimelineSvg, renderTimelineText, timeline } from '../../src/audit/index.js';

function tl(yaml: string, kubeVersion?: string) {
  const r = auditDetailed([{ name: 'w.yaml', text: yaml }], { inject: null, kubeVersion });
  return timeline(r.subjects[0]!);
}

const deployment = (annotations: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  template:
    metadata:
      annotations:
${annotations}
    spec:
      containers:
      - name: web
        image: shop/web:1
        lifecycle:
          preStop:
            exec: {command: [sleep, "20"]}
`;

describe('timeline', () => {
  it('classic sidecar without hold: the app may start before the proxy is ready', () => {
    const t = tl(deployment('        x: y'));
    expect(t.proxyReadyAtAppStart).toBe(false);
    expect(t.lanes.map((l) => l.name)).toEqual(['istio-init', 'web', 'istio-proxy']);
    // the proxy drains 5 s and is gone while web's 20 s preStop still runs
    expect(t.steps.some((s) => s.warn && s.text.includes('proxy is gone before web'))).toBe(true);
  });

  it('hold: proxy first, postStart gates the app', () => {
    const t = tl(deployment('        proxy.istio.io/config: "holdApplicationUntilProxyStarts: true"'));
    expect(t.proxyReadyAtAppStart).toBe(true);
    expect(t.lanes.map((l) => l.name)).toEqual(['istio-init', 'istio-proxy', 'web']);
    expect(t.lanes[1]!.gate).toBe('postStart');
  });

  it('native sidecar: startupProbe gates, stopped after the main containers', () => {
    const t = tl(deployment('        sidecar.istio.io/nativeSidecar: "true"'), '1.30');
    expect(t.proxyReadyAtAppStart).toBe(true);
    const proxy = t.lanes.find((l) => l.name === 'istio-proxy')!;
    expect(proxy.role).toBe('proxy');
    expect(proxy.gate).toBe('startupProbe');
    expect(proxy.sigterm).toBe(20);
    expect(proxy.exit).toBe(25);
    const text = renderTimelineText(t);
    expect(text).toMatch(/stops the native sidecars in reverse order/);
    const svg = renderTimelineSvg(t);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg.match(/<svg/g)).toHaveLength(1);
  });

  it('a never-ending preStop is killed at the grace period', () => {
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
    expect(t.lanes[0]!.killed).toBe(true);
    expect(t.steps[t.steps.length - 1]!.text).toContain('SIGKILL');
  });
});

describe('timeline: when a Job is done, and shutdown order', () => {
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
  const completion = (t: ReturnType<typeof tl>) => t.steps.filter((s) => s.phase === 'completion');

  it('a classic proxy with no exit keeps the pod from completing', () => {
    const c = completion(tl(job('')));
    expect(c).toHaveLength(1);
    expect(c[0]!.warn).toBe(true);
    expect(c[0]!.text).toMatch(/never completes/);
  });

  it('/quitquitquit, or a native sidecar, lets it complete', () => {
    const quit = completion(tl(job('', '["sh", "-c", "./run; curl -fsS -X POST localhost:15020/quitquitquit"]')));
    expect(quit[0]!.warn).toBeUndefined();
    expect(quit[0]!.text).toMatch(/quitquitquit.*completes/);
    const native = completion(tl(job('sidecar.istio.io/nativeSidecar: "true"'), '1.30'));
    expect(native[0]!.text).toMatch(/stops the native sidecar istio-proxy and the pod completes/);
  });

  it('a long-running workload has no completion step; SIGTERMs are told in time order', () => {
    const t = tl(deployment('        x: y'));
    expect(completion(t)).toEqual([]);
    const text = renderTimelineText(t);
    expect(text).not.toContain('When the work is done');
    // istio-proxy (no preStop, SIGTERM at 0s) comes before web (preStop sleep 20)
    expect(text.indexOf('istio-proxy gets SIGTERM at 0s')).toBeGreaterThan(0);
    expect(text.indexOf('istio-proxy gets SIGTERM at 0s')).toBeLessThan(text.indexOf('then web gets SIGTERM at ~20s'));
  });

  it('a preStop that never returns: the proxy never drains and is killed', () => {
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
    const text = renderTimelineText(t);
    expect(text).toMatch(/never gets to drain/);
    expect(text).toMatch(/SIGKILL to what still runs: istio-proxy/);
  });
});
