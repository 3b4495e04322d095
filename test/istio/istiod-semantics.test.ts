// Template data that istiod computes before the template runs, checked on our own inputs. Each case
// here was found by comparing renders with istiod's own injection results (its kube-inject golden
// files), where the two disagreed.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderRequest } from '../../src/output/render.js';
import { parseIstioVersion } from '../../src/istio/version.js';

const dir = mkdtempSync(join(tmpdir(), 'istiod-semantics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(text: string): string {
  const f = join(dir, `f${n++}.yaml`);
  writeFileSync(f, text);
  return f;
}

function pod(annotations: Record<string, string>): string {
  const ann = Object.entries(annotations)
    .map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  return `apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: ns
${ann ? `  annotations:\n${ann}\n` : ''}spec:
  containers:
  - name: app
    image: app
`;
}

/** The template stage's output for one pod. */
function render(version: string, template: string, opts: { annotations?: Record<string, string>; mesh?: string; values?: string } = {}): string {
  const out = renderRequest({
    istioVersion: parseIstioVersion(version),
    template: file(template),
    values: file(opts.values ?? '{}'),
    mesh: file(opts.mesh ?? '{}'),
    workloads: file(pod(opts.annotations ?? {})),
  });
  expect(out.failed, out.messages.join('\n')).toBe(0);
  return out.text;
}

describe('EstimatedConcurrency (1.12-1.19)', () => {
  const t = 'c: "{{ .EstimatedConcurrency }}"\n';
  const zero = { 'proxy.istio.io/config': 'concurrency: 0' };
  const cpuValues = '{"global": {"proxy": {"resources": {"limits": {"cpu": "3500m"}, "requests": {"cpu": "100m"}}}}}';

  it('is the default ProxyConfig concurrency, 2, whatever the CPU', () => {
    expect(render('1.12', t, { annotations: { 'sidecar.istio.io/proxyCPU': '4' }, values: cpuValues })).toBe('c: "2"\n');
  });
  it('is a positive concurrency from the mesh or the pod as it is', () => {
    expect(render('1.14', t, { mesh: 'defaultConfig:\n  concurrency: 6\n' })).toBe('c: "6"\n');
    expect(render('1.14', t, { annotations: { 'proxy.istio.io/config': 'concurrency: 3' } })).toBe('c: "3"\n');
  });
  it('follows the CPU only when concurrency is set to 0: limit annotation, request annotation, values', () => {
    expect(render('1.12', t, { annotations: { ...zero, 'sidecar.istio.io/proxyCPU': '4000m' } })).toBe('c: "4"\n');
    expect(render('1.12', t, { annotations: { ...zero, 'sidecar.istio.io/proxyCPU': '4', 'sidecar.istio.io/proxyCPULimit': '1500m' } })).toBe('c: "2"\n');
    expect(render('1.16', t, { annotations: zero, values: cpuValues })).toBe('c: "4"\n');
  });
  it('does not fall back to the request when the limit annotation is there but unreadable', () => {
    expect(render('1.12', t, { annotations: { ...zero, 'sidecar.istio.io/proxyCPULimit': 'lots', 'sidecar.istio.io/proxyCPU': '8' } })).toBe('c: "2"\n');
  });
  it('is 2 when concurrency is 0 and nothing gives a CPU', () => {
    expect(render('1.12', t, { annotations: zero })).toBe('c: "2"\n');
  });
});

describe('DefaultProxyConfig per release, as PROXY_CONFIG (protoToJSON) shows it', () => {
  const t = 'pc: {{ protoToJSON .ProxyConfig }}\n';
  const mesh = 'defaultConfig:\n  concurrency: 2\n  parentShutdownDuration: 60s\n';
  // mesh.go's DefaultProxyConfig: parentShutdownDuration through 1.16.0, concurrency 2 through 1.17.0
  it('concurrency 2 and parentShutdownDuration 60s are defaults through 1.16, so they are left out', () => {
    expect(render('1.12', t, { mesh })).toBe('pc: {}\n');
    expect(render('1.16', t, { mesh })).toBe('pc: {}\n');
  });
  it('1.17 has concurrency 2 but no parentShutdownDuration among the defaults', () => {
    expect(render('1.17', t, { mesh })).toBe('pc: {"parentShutdownDuration":"60s"}\n');
  });
  it('from 1.18 neither is a default any more', () => {
    expect(render('1.20', t, { mesh })).toBe('pc: {"parentShutdownDuration":"60s","concurrency":2}\n');
  });
  it('from 1.8 a template reading .ProxyConfig.Concurrency sees 2 by default up to 1.17', () => {
    expect(render('1.16', 'c: "{{ .ProxyConfig.Concurrency.GetValue }}"\n')).toBe('c: "2"\n');
    expect(render('1.20', 'c: "{{ .ProxyConfig.Concurrency.GetValue }}"\n')).toBe('c: "0"\n');
  });
});
