// The seed stories as golden files: each case of test/golden/seeds/matrix.yaml is rendered with
// sidecar-render's own templates and compared with its golden file (UPDATE_GOLDEN=1 rewrites them).
// The story each case tells is also asserted directly, so a golden file cannot quietly absorb a bug.

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadMatrix, expectGolden, renderRequestOf } from '../../src/golden/index.js';
import { renderRequest } from '../../src/output/render.js';

const matrixFile = fileURLToPath(new URL('../golden/seeds/matrix.yaml', import.meta.url));
const matrix = loadMatrix(matrixFile);

const rendered = new Map<string, string>();
function render(name: string): string {
  let text = rendered.get(name);
  if (text === undefined) {
    const c = matrix.cases.find((x) => x.name === name)!;
    const out = renderRequest(renderRequestOf(c));
    expect(out.messages).toEqual([]);
    text = out.text;
    rendered.set(name, text);
  }
  return text;
}

type Container = { name: string; lifecycle?: { postStart?: unknown; preStop?: unknown }; restartPolicy?: string };
const proxyOf = (list: Container[] | undefined) => list?.find((c) => c.name === 'istio-proxy');
const names = (list: Container[] | undefined) => (list ?? []).map((c) => c.name);
const WAIT = { exec: { command: ['pilot-agent', 'wait'] } };

describe('seed golden files', () => {
  for (const c of matrix.cases) {
    it(c.name, () => {
      expectGolden(render(c.name), c.goldenPath);
    });
  }
});

describe('seed stories', () => {
  it('1.7: a custom lifecycle drops the pilot-agent wait even with hold on', () => {
    const spec = parse(render('hold-1.7-lifecycle-bug'));
    const proxy = proxyOf(spec.containers)!;
    expect(proxy.lifecycle?.preStop).toBeDefined();
    expect(proxy.lifecycle?.postStart).toBeUndefined();
    expect(render('hold-1.7-lifecycle-bug')).not.toMatch(/- pilot-agent\s*\n\s*- wait/);
    // ... while the proxy is still moved first
    const pod = parse(render('hold-1.7-lifecycle-bug-merged')).spec.template.spec;
    expect(names(pod.containers)).toEqual(['istio-proxy', 'httpbin']);
  });

  it('1.7: the fix keeps the drain and brings the wait back', () => {
    const proxy = proxyOf(parse(render('hold-1.7-lifecycle-fix')).containers)!;
    expect(proxy.lifecycle?.preStop).toBeDefined();
    expect(proxy.lifecycle?.postStart).toEqual(WAIT);
    const pod = parse(render('hold-1.7-lifecycle-fix-merged')).spec.template.spec;
    expect(names(pod.containers)).toEqual(['istio-proxy', 'httpbin']);
  });

  it('1.7: hold without a lifecycle waits', () => {
    expect(proxyOf(parse(render('hold-1.7-values')).containers)!.lifecycle).toEqual({ postStart: WAIT });
  });

  it('1.8: hold from the mesh config and from the pod annotation', () => {
    for (const name of ['hold-1.8-mesh', 'hold-1.8-annotation']) {
      expect(proxyOf(parse(render(name)).spec.containers)!.lifecycle).toEqual({ postStart: WAIT });
    }
    for (const name of ['hold-1.8-mesh-merged', 'hold-1.8-annotation-merged']) {
      const pod = parse(render(name)).spec.template.spec;
      expect(pod.containers[0].name).toBe('istio-proxy');
    }
    const off = parse(render('hold-1.8-off-merged')).spec.template.spec;
    expect(names(off.containers)).toEqual(['httpbin', 'istio-proxy']);
    expect(proxyOf(off.containers)!.lifecycle).toBeUndefined();
  });

  it('native sidecars: the proxy is an init container with restartPolicy Always', () => {
    const out = parse(render('native-sidecar-job'));
    expect(out.spec.containers).toBeUndefined();
    expect(proxyOf(out.spec.initContainers)!.restartPolicy).toBe('Always');
    const pod = parse(render('native-sidecar-job-merged')).spec.template.spec;
    expect(names(pod.initContainers)).toEqual(['istio-init', 'istio-proxy']);
    expect(names(pod.containers)).toEqual(['busybox']);
    expect(proxyOf(pod.initContainers)!.lifecycle?.preStop).toBeDefined();
    const off = parse(render('native-sidecar-off-merged')).spec.template.spec;
    expect(names(off.containers)).toEqual(['busybox', 'istio-proxy']);
    expect(proxyOf(off.containers)!.restartPolicy).toBeUndefined();
  });
});
