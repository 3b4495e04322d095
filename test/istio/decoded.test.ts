// --merged holds the template output as istiod's Kubernetes types hold it: scalars of a
// SidecarInjectionSpec's string fields are strings, and fields the release's Kubernetes API lacked are
// gone (a partial Pod of the wrong type fails: overlay-types.test.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { asDecodedByIstiod } from '../../src/istio/merge.js';
import { renderRequest } from '../../src/output/render.js';
import { parseIstioVersion } from '../../src/istio/version.js';

describe('asDecodedByIstiod', () => {
  it('turns numbers and bools of args, command and env values of a SidecarInjectionSpec into strings', () => {
    const out = asDecodedByIstiod({ initContainers: [{ name: 'istio-init', args: ['-p', 15001, '-m', 'REDIRECT'], command: [true] }], containers: [{ name: 'c', env: [{ name: 'N', value: 2 }] }] }, true);
    expect(out).toEqual({ initContainers: [{ name: 'istio-init', args: ['-p', '15001', '-m', 'REDIRECT'], command: ['true'] }], containers: [{ name: 'c', env: [{ name: 'N', value: '2' }] }] });
  });
  it('leaves the scalars of a partial Pod as written (encoding/json refuses them after the merge)', () => {
    const pod = () => ({ metadata: { annotations: { a: 1 } }, spec: { initContainers: [{ name: 'istio-init', args: ['-p', 15001] }] } });
    expect(asDecodedByIstiod(pod(), true)).toEqual(pod());
  });
  it('drops restartPolicy of containers only for releases without it, also in a SidecarInjectionSpec', () => {
    const spec = () => ({ initContainers: [{ name: 'istio-init', restartPolicy: 'Always' }] });
    expect(asDecodedByIstiod({ spec: spec() }, false)).toEqual({ spec: { initContainers: [{ name: 'istio-init' }] } });
    expect(asDecodedByIstiod({ spec: spec() }, true)).toEqual({ spec: spec() });
    expect(asDecodedByIstiod(spec(), false)).toEqual({ initContainers: [{ name: 'istio-init' }] });
  });
});

describe('render --merged', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decoded-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const tmpl = path.join(dir, 'sidecar.tmpl');
  fs.writeFileSync(tmpl, 'spec:\n  initContainers:\n  - name: istio-init\n    args: [-p, "15001"]\n    restartPolicy: Always\n  containers:\n  - name: istio-proxy\n');
  const pod = path.join(dir, 'pod.yaml');
  fs.writeFileSync(pod, 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: n}\nspec:\n  containers:\n  - name: app\n    image: app\n');
  const init = (version: string) => {
    const r = renderRequest({ template: tmpl, workloads: pod, merged: true, istioVersion: parseIstioVersion(version) });
    expect(r.failed).toBe(0);
    return (parse(r.text) as { spec: { initContainers: Record<string, unknown>[] } }).spec.initContainers.find((c) => c.name === 'istio-init');
  };
  it('keeps the template text as written but merges what the release\'s Kubernetes types hold', () => {
    expect(init('1.12')).toEqual({ name: 'istio-init', args: ['-p', '15001'] });
    expect(init('1.20')).toEqual({ name: 'istio-init', args: ['-p', '15001'], restartPolicy: 'Always' });
    const raw = renderRequest({ template: tmpl, workloads: pod, istioVersion: parseIstioVersion('1.12') });
    expect(raw.text).toContain('restartPolicy: Always');
  });
});

describe('render inputs', () => {
  it('warns when a template comes without any values, and not when values are given', () => {
    const root = path.join(import.meta.dirname, '..', '..');
    const req = { template: path.join(root, 'templates', 'hold-1.8.tmpl'), workloads: path.join(root, 'examples', 'deployment.yaml') };
    expect(renderRequest(req).messages.filter((m) => m.includes('no injector values given'))).toHaveLength(1);
    expect(renderRequest({ ...req, values: path.join(root, 'values', 'defaults.json') }).messages.filter((m) => m.includes('no injector values given'))).toEqual([]);
  });
});
