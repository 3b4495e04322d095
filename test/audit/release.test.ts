// The Istio release behind a pod, and what an injector template can do about start order.

import { describe, expect, it } from 'vitest';
import { podRelease, proxyListeners, releaseAtLeast, releaseBefore, releaseFromImage, templateFeatures } from '../../src/audit/release.js';
import { CURRENT_LISTENERS } from '../../src/audit/shell.js';

describe('releaseFromImage', () => {
  const rows: [string, string | undefined][] = [
    ['docker.io/istio/proxyv2:1.9.0', '1.9.0'],
    ['gcr.io/istio-release/proxyv2:1.20.3-distroless', '1.20.3'],
    ['proxyv2:1.22', '1.22'],
    ['registry.local:5000/istio/proxyv2:1.7.8@sha256:0123abcd', '1.7.8'],
    ['docker.io/istio/proxyv2:latest', undefined],
    ['registry.local:5000/istio/proxyv2', undefined],
    ['example/proxy:2.1.0', undefined],
  ];
  for (const [image, want] of rows) {
    it(image, () => {
      const v = releaseFromImage(image);
      expect(v ? [v.major, v.minor, v.patch].filter((x) => x !== undefined).join('.') : undefined).toBe(want);
    });
  }
});

describe('podRelease', () => {
  const proxy = (image: string) => ({ containers: [{ name: 'app' }, { name: 'istio-proxy', image }] });
  it('reads the proxy image first, then values global.tag, then the template', () => {
    const tpl = 'containers: {{ .ProxyConfig.HoldApplicationUntilProxyStarts.GetValue }}';
    expect(podRelease(proxy('istio/proxyv2:1.9.0'), { global: { tag: '1.12.1' } }, tpl)?.text).toBe('1.9.0');
    expect(podRelease(proxy('istio/proxyv2:latest'), { global: { tag: '1.12.1' } }, tpl)?.text).toBe('1.12.1');
    const fromTemplate = podRelease(proxy('istio/proxyv2:latest'), { global: { tag: 'latest' } }, tpl);
    expect(fromTemplate?.text).toBe('1.8');
    expect(fromTemplate?.lowerBound).toBe(true);
    expect(podRelease({ containers: [] }, {}, undefined)).toBeUndefined();
  });
  it('a lower bound never rules a remedy out', () => {
    const exact = podRelease(proxy('istio/proxyv2:1.6.2'), {}, undefined);
    const bound = podRelease({ containers: [] }, {}, '{{ .Values.global.proxy.holdApplicationUntilProxyStarts }}');
    expect(releaseBefore(exact, 1, 7)).toBe(true);
    expect(releaseBefore(bound, 1, 8)).toBe(false);
    expect(releaseAtLeast(undefined, 1, 24)).toBe(true);
  });
});

describe('templateFeatures', () => {
  it('tells where the hold is read and whether native sidecars can be rendered', () => {
    expect(templateFeatures('{{ if .Values.global.proxy.holdApplicationUntilProxyStarts }}')).toEqual({ hold: 'values', native: false, nativeAnnotation: false });
    expect(templateFeatures('{{ $h := .ProxyConfig.HoldApplicationUntilProxyStarts.GetValue }}{{ env "ENABLE_NATIVE_SIDECARS" "false" }}')).toEqual({
      hold: 'proxyConfig',
      native: true,
      nativeAnnotation: false,
    });
    expect(templateFeatures('{{ index .ObjectMeta.Annotations `sidecar.istio.io/nativeSidecar` }}').nativeAnnotation).toBe(true);
    expect(templateFeatures('containers: []').hold).toBe('none');
  });
});

describe('proxyListeners', () => {
  const pod = (image: string, args: string[], ports: number[] = []) => ({
    initContainers: [{ name: 'istio-init', args: ['-p', '15001', '-u', '1337'] }],
    containers: [{ name: 'app' }, { name: 'istio-proxy', image, args, ports: ports.map((containerPort) => ({ containerPort })) }],
  });
  const at = (spec: ReturnType<typeof pod>) => proxyListeners(spec, podRelease(spec, {}, undefined), {});
  it('an Istio 1.0 proxy without --statusPort: envoy alone listens, on its admin and outbound ports', () => {
    expect(at(pod('istio/proxyv2:1.0.2', ['proxy', 'sidecar']))).toEqual({ sockets: [['envoy', 15000], ['envoy', 15001]] });
  });
  it('--statusPort names the port pilot-agent listens on; 0 turns it off', () => {
    const m = at(pod('istio/proxyv2:1.1.7', ['proxy', '--statusPort', '15020'], [15090]));
    expect(m.sockets).toEqual([['envoy', 15000], ['envoy', 15001], ['pilot-agent', 15020], ['envoy', 15090]]);
    expect(m.agentWhy).toBe('--statusPort 15020');
    expect(at(pod('istio/proxyv2:1.0.6', ['proxy', '--statusPort=0'])).sockets.some(([p]) => p === 'pilot-agent')).toBe(false);
  });
  it('a current or unknown release: the current sockets', () => {
    expect(at(pod('istio/proxyv2:1.24.1', ['proxy', 'sidecar']))).toBe(CURRENT_LISTENERS);
    expect(at(pod('istio/proxyv2:latest', ['proxy', 'sidecar']))).toBe(CURRENT_LISTENERS);
  });
});
