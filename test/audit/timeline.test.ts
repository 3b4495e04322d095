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
