import { describe, expect, it } from 'vitest';
import {
  holdRequested,
  injectionDecision,
  nativeSidecarsOn,
  selectTemplates,
  detectIstioVersion,
  type InjectorConfig,
} from '../../src/istio/inject.js';
import { formatIstioVersion, parseIstioVersion } from '../../src/istio/version.js';
import { parseInjectorConfig } from '../../src/istio/configmap.js';

const cfg = (text: string): InjectorConfig => parseInjectorConfig(text, 'config');
const pod = (labels: Record<string, string> = {}, annotations: Record<string, string> = {}, spec: Record<string, unknown> = {}, namespace = 'default') => ({
  metadata: { labels, annotations },
  spec,
  namespace,
});

describe('injector config', () => {
  it('reads templates, defaults and aliases; the old single template becomes "sidecar"', () => {
    const c = cfg('policy: disabled\ndefaultTemplates: [sidecar, extra]\naliases:\n  both: [sidecar, extra]\ntemplates:\n  sidecar: a\n  extra: b\n');
    expect(c.policy).toBe('disabled');
    expect(c.defaultTemplates).toEqual(['sidecar', 'extra']);
    expect(c.templates.extra).toBe('b');
    const old = cfg('policy: enabled\ntemplate: |\n  containers: []\n');
    expect(old.templates.sidecar).toBe('containers: []\n');
    expect(old.defaultTemplates).toEqual(['sidecar']);
  });

  it('guesses the release from the fields the templates use', () => {
    expect(formatIstioVersion(detectIstioVersion(cfg('templates:\n  sidecar: "{{ .NativeSidecars }}"\n')))).toBe('1.27');
    expect(formatIstioVersion(detectIstioVersion(cfg('template: "{{ .ProxyConfig.HoldApplicationUntilProxyStarts.GetValue }}"\n')))).toBe('1.8');
  });
});

describe('injection policy', () => {
  const enabled = cfg('policy: enabled\nneverInjectSelector:\n- matchLabels: {batch: "true"}\nalwaysInjectSelector:\n- matchExpressions:\n  - {key: mesh, operator: Exists}\n');
  const disabled = cfg('policy: disabled\nalwaysInjectSelector:\n- matchExpressions:\n  - {key: mesh, operator: In, values: [enabled]}\n');

  it('follows the policy by default', () => {
    expect(injectionDecision(enabled, pod()).inject).toBe(true);
    expect(injectionDecision(disabled, pod())).toEqual({ inject: false, reason: 'policy is disabled' });
  });

  it('lets the annotation and the label decide, the label winning', () => {
    expect(injectionDecision(enabled, pod({}, { 'sidecar.istio.io/inject': 'false' })).inject).toBe(false);
    expect(injectionDecision(disabled, pod({}, { 'sidecar.istio.io/inject': 'Yes' })).inject).toBe(true);
    expect(injectionDecision(disabled, pod({ 'sidecar.istio.io/inject': 'true' }, { 'sidecar.istio.io/inject': 'false' })).inject).toBe(true);
  });

  it('applies neverInject before alwaysInject selectors', () => {
    expect(injectionDecision(enabled, pod({ batch: 'true', mesh: 'x' }))).toEqual({ inject: false, reason: 'pod labels match neverInjectSelector' });
    expect(injectionDecision(disabled, pod({ mesh: 'enabled' }))).toEqual({ inject: true, reason: 'pod labels match alwaysInjectSelector' });
    expect(injectionDecision(disabled, pod({ mesh: 'no' })).inject).toBe(false);
  });

  it('never injects host-network pods or system namespaces', () => {
    expect(injectionDecision(enabled, pod({}, { 'sidecar.istio.io/inject': 'true' }, { hostNetwork: true })).inject).toBe(false);
    expect(injectionDecision(enabled, pod({}, {}, {}, 'kube-system')).inject).toBe(false);
  });
});

describe('template selection', () => {
  const c = cfg('defaultTemplates: [sidecar]\naliases:\n  grpc: [grpc-simple, grpc-agent]\ntemplates: {sidecar: a}\n');
  it('uses the annotation, trimmed, with aliases expanded', () => {
    expect(selectTemplates(c, {})).toEqual(['sidecar']);
    expect(selectTemplates(c, { 'inject.istio.io/templates': 'sidecar, grpc' })).toEqual(['sidecar', 'grpc-simple', 'grpc-agent']);
  });
});

describe('hold and native sidecars', () => {
  it('reads hold from values, the mesh defaultConfig, and the pod annotation over the mesh', () => {
    expect(holdRequested({ global: { proxy: { holdApplicationUntilProxyStarts: true } } }, {}, {})).toBe(true);
    expect(holdRequested({}, { defaultConfig: { holdApplicationUntilProxyStarts: true } }, {})).toBe(true);
    expect(holdRequested({}, { defaultConfig: { holdApplicationUntilProxyStarts: true } }, { 'proxy.istio.io/config': 'holdApplicationUntilProxyStarts: false' })).toBe(false);
    expect(holdRequested({}, {}, { 'proxy.istio.io/config': 'holdApplicationUntilProxyStarts: true\n' })).toBe(true);
    expect(holdRequested({}, {}, {})).toBe(false);
    // JSON (read by the JSON reader), YAML 1.1's `yes`, and an unreadable annotation (the mesh decides)
    expect(holdRequested({}, {}, { 'proxy.istio.io/config': '{"holdApplicationUntilProxyStarts": true}' })).toBe(true);
    expect(holdRequested({}, {}, { 'proxy.istio.io/config': 'holdApplicationUntilProxyStarts: yes' })).toBe(true);
    expect(holdRequested({}, { defaultConfig: { holdApplicationUntilProxyStarts: true } }, { 'proxy.istio.io/config': '{holdApplicationUntilProxyStarts: [' })).toBe(true);
  });

  it('turns native sidecars on in auto mode from Kubernetes 1.33', () => {
    expect(nativeSidecarsOn({ kubeVersion: '1.33' })).toBe(true);
    expect(nativeSidecarsOn({ kubeVersion: 'v1.34.1' })).toBe(true);
    expect(nativeSidecarsOn({ kubeVersion: '1.32' })).toBe(false);
    expect(nativeSidecarsOn({})).toBe(false);
    expect(nativeSidecarsOn({ nativeSidecars: 'true', kubeVersion: '1.20' })).toBe(true);
    expect(nativeSidecarsOn({ nativeSidecars: 'false', kubeVersion: '1.34' })).toBe(false);
  });
});

describe('native sidecars by release', () => {
  it('has no auto mode before 1.28', () => {
    expect(nativeSidecarsOn({ kubeVersion: '1.33' }, parseIstioVersion('1.24'))).toBe(false);
    expect(nativeSidecarsOn({ kubeVersion: '1.33' }, parseIstioVersion('1.28'))).toBe(true);
    expect(nativeSidecarsOn({ nativeSidecars: 'true' }, parseIstioVersion('1.20'))).toBe(true);
  });
});
