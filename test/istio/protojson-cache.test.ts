import { describe, expect, it } from 'vitest';
import { applyProxyConfig, defaultProxyConfig, protoToJSONForTemplate } from '../../src/istio/proxyconfig.js';
import { parseIstioVersion } from '../../src/istio/version.js';

describe('protoToJSON for templates, kept per message', () => {
  const v = parseIstioVersion('1.24');

  it('gives the same text again, and each release its own', () => {
    const pc = applyProxyConfig(v, defaultProxyConfig(v), { discoveryAddress: 'istiod.example:15012', proxyMetadata: { A: 'b' } });
    const first = protoToJSONForTemplate(v, pc);
    expect(first).toContain('istiod.example:15012');
    expect(protoToJSONForTemplate(v, pc)).toBe(first);
    const old = parseIstioVersion('1.5');
    expect(protoToJSONForTemplate(old, pc)).not.toBe(first);
    expect(protoToJSONForTemplate(v, pc)).toBe(first);
  });

  it('is written again for a message holding a map a template can change', () => {
    const pc = applyProxyConfig(v, defaultProxyConfig(v), { readinessProbe: { httpGet: { path: '/a' } } });
    expect(protoToJSONForTemplate(v, pc)).toContain('"/a"');
    const probe = pc.values.get('ReadinessProbe') as Record<string, Record<string, unknown>>;
    probe.httpGet!.path = '/b'; // what Sprig's set on that map does
    expect(protoToJSONForTemplate(v, pc)).toContain('"/b"');
  });
});
