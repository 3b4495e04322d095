import { describe, expect, it } from 'vitest';
import { strategicMergePod, reorderPod, applyInjectionSpec, moveProxyToInit, isInjectionSpec } from '../../src/istio/merge.js';
import { type JsonObject } from '../../src/go/encoding/json/value.js';

const plain = (v: unknown) => JSON.parse(JSON.stringify(v));
const names = (l: unknown) => (l as { name: string }[]).map((c) => c.name);

describe('strategic merge of the template output into the pod', () => {
  const pod: JsonObject = {
    metadata: { labels: { app: 'web' }, annotations: { a: '1' } },
    spec: {
      initContainers: [{ name: 'migrate', image: 'm' }],
      containers: [{ name: 'web', image: 'w', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80 }] }],
      volumes: [{ name: 'data', emptyDir: {} }],
      tolerations: [{ key: 'x' }],
    },
  };

  it('merges containers, volumes and env by key, appends new ones, replaces other lists', () => {
    const patch: JsonObject = {
      metadata: { labels: { 'security.istio.io/tlsMode': 'istio' } },
      spec: {
        initContainers: [{ name: 'istio-init', image: 'i' }],
        containers: [
          { name: 'istio-proxy', image: 'p' },
          { name: 'web', env: [{ name: 'B', value: '2' }, { name: 'A', value: 'x' }] },
        ],
        volumes: [{ name: 'istio-envoy', emptyDir: { medium: 'Memory' } }],
        tolerations: [{ key: 'y' }],
      },
    };
    const out = plain(strategicMergePod(pod, patch));
    expect(out.metadata.labels).toEqual({ app: 'web', 'security.istio.io/tlsMode': 'istio' });
    // patch items first in patch order; server-only items keep their place relative to them
    expect(names(out.spec.containers)).toEqual(['istio-proxy', 'web']);
    expect(out.spec.containers[1].env).toEqual([
      { name: 'B', value: '2' },
      { name: 'A', value: 'x' },
    ]);
    expect(out.spec.containers[1].image).toBe('w');
    expect(out.spec.containers[1].ports).toEqual([{ containerPort: 80 }]);
    expect(names(out.spec.initContainers)).toEqual(['istio-init', 'migrate']);
    expect(names(out.spec.volumes)).toEqual(['istio-envoy', 'data']);
    expect(out.spec.tolerations).toEqual([{ key: 'y' }]);
    // the input is not modified
    expect(names((pod.spec as JsonObject).containers)).toEqual(['web']);
  });

  it('keeps a user customization of the proxy in its place and merges into it', () => {
    const custom: JsonObject = {
      spec: { containers: [{ name: 'web' }, { name: 'istio-proxy', resources: { limits: { cpu: '1' } } }] },
    };
    const out = plain(strategicMergePod(custom, { spec: { containers: [{ name: 'istio-proxy', image: 'p' }] } }));
    expect(out.spec.containers).toEqual([{ name: 'web' }, { name: 'istio-proxy', resources: { limits: { cpu: '1' } }, image: 'p' }]);
  });

  it('deletes a field the patch sets to null', () => {
    const out = plain(strategicMergePod({ spec: { dnsPolicy: 'None', hostname: 'h' } }, { spec: { dnsPolicy: null } }));
    expect(out.spec).toEqual({ hostname: 'h' });
  });
});

describe('reorderPod', () => {
  const merged = () =>
    strategicMergePod(
      { spec: { initContainers: [{ name: 'migrate' }], containers: [{ name: 'web' }, { name: 'worker' }] } },
      { spec: { initContainers: [{ name: 'istio-init' }], containers: [{ name: 'istio-proxy' }] } },
    );

  it('puts the proxy last and istio-init last without hold', () => {
    const out = plain(reorderPod(merged(), false));
    expect(names(out.spec.containers)).toEqual(['web', 'worker', 'istio-proxy']);
    expect(names(out.spec.initContainers)).toEqual(['migrate', 'istio-init']);
  });

  it('puts the proxy first with hold', () => {
    const out = plain(reorderPod(merged(), true));
    expect(names(out.spec.containers)).toEqual(['istio-proxy', 'web', 'worker']);
  });

  it('orders init containers around a native sidecar proxy', () => {
    const pod = strategicMergePod(
      { spec: { initContainers: [{ name: 'migrate' }], containers: [{ name: 'web' }] } },
      { spec: { initContainers: [{ name: 'istio-init' }, { name: 'istio-proxy', restartPolicy: 'Always' }] } },
    );
    const out = plain(reorderPod(pod, true));
    expect(names(out.spec.initContainers)).toEqual(['istio-init', 'istio-proxy', 'migrate']);
    expect(names(out.spec.containers)).toEqual(['web']);
  });

  it('moves a user-customized proxy to the init containers for native sidecars', () => {
    const out = plain(moveProxyToInit({ spec: { containers: [{ name: 'web' }, { name: 'istio-proxy' }] } }));
    expect(names(out.spec.containers)).toEqual(['web']);
    expect(names(out.spec.initContainers)).toEqual(['istio-proxy']);
  });
});

describe('the old SidecarInjectionSpec', () => {
  it('is told apart from a partial pod', () => {
    expect(isInjectionSpec({ containers: [] })).toBe(true);
    expect(isInjectionSpec({ spec: {} })).toBe(false);
  });

  it('appends containers, and puts the proxy first when holding', () => {
    const pod: JsonObject = { spec: { containers: [{ name: 'web' }], initContainers: [{ name: 'migrate' }] } };
    const spec: JsonObject = {
      initContainers: [{ name: 'istio-init' }],
      containers: [{ name: 'istio-proxy' }],
      volumes: [{ name: 'istio-envoy' }],
      podRedirectAnnot: { 'sidecar.istio.io/interceptionMode': 'REDIRECT' },
    };
    const held = plain(applyInjectionSpec(pod, spec, true));
    expect(names(held.spec.containers)).toEqual(['istio-proxy', 'web']);
    expect(names(held.spec.initContainers)).toEqual(['migrate', 'istio-init']);
    expect(names(held.spec.volumes)).toEqual(['istio-envoy']);
    expect(held.metadata.annotations).toEqual({ 'sidecar.istio.io/interceptionMode': 'REDIRECT' });
    expect(names(plain(applyInjectionSpec(pod, spec, false)).spec.containers)).toEqual(['web', 'istio-proxy']);
  });
});

import { reapplyOverwrittenContainers } from '../../src/istio/webhook.js';

describe('user customization of the injected proxy', () => {
  it('lays the user container over the injected one again, keeping the injected image for "auto"', () => {
    const original: JsonObject = {
      spec: { containers: [{ name: 'web' }, { name: 'istio-proxy', image: 'auto', resources: { limits: { memory: '1Gi' } } }] },
    };
    const template: JsonObject = { spec: { containers: [{ name: 'istio-proxy', image: 'proxyv2', resources: { limits: { memory: '256Mi', cpu: '2' } } }] } };
    const merged = strategicMergePod(original, template);
    const out = plain(reapplyOverwrittenContainers(merged, original, template));
    const proxy = out.spec.containers.find((c: { name: string }) => c.name === 'istio-proxy');
    expect(proxy.image).toBe('proxyv2');
    expect(proxy.resources.limits).toEqual({ memory: '1Gi', cpu: '2' });
  });

  it('does not treat a previously injected proxy as a customization', () => {
    const original: JsonObject = {
      metadata: { annotations: { 'sidecar.istio.io/status': '{"containers":["istio-proxy"]}' } },
      spec: { containers: [{ name: 'istio-proxy', image: 'old' }] },
    };
    const template: JsonObject = { spec: { containers: [{ name: 'istio-proxy', image: 'new' }] } };
    const out = plain(reapplyOverwrittenContainers(strategicMergePod(original, template), original, template));
    expect(out.spec.containers[0].image).toBe('new');
  });
});
