// In webhook mode istiod reads the pod the API server has already defaulted, so a pod's own istio-proxy
// (or istio-init) container is laid over the injected one, and recorded in proxy.istio.io/overrides,
// with the defaulted fields; istioctl kube-inject reads the pod as written. The defaults are those the
// template data is built from (kube/defaults.ts), so both agree.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type RenderMode } from '../../src/istio/inject.js';
import { renderRequest } from '../../src/output/render.js';
import { applyKubeDefaults, defaultImagePullPolicy } from '../../src/k8s/defaults.js';
import { outside } from '../helpers/outside.js';

const configmaps = outside('configmaps', '1.24.0/istio-sidecar-injector.yaml', '1.24.0/istio-mesh.yaml');
const suites = outside('injectTests', '1.24.0/testdata/inject/proxy-override.yaml');
const cm = configmaps ? join(configmaps, '1.24.0') : '';
const inputs = suites ? join(suites, '1.24.0', 'testdata', 'inject') : '';

type Obj = Record<string, any>;

function render(workloads: string, mode: RenderMode): Obj {
  const out = renderRequest({
    injectorConfigMap: join(cm, 'istio-sidecar-injector.yaml'),
    mesh: join(cm, 'istio-mesh.yaml'),
    workloads,
    merged: true,
    mode,
    ...(mode === 'webhook' ? { output: 'json' as const } : {}),
  });
  expect(out.failed).toBe(0);
  return mode === 'webhook' ? (JSON.parse(out.text) as Obj) : (parse(out.text.replace(/---\n$/, '')) as Obj);
}

const podOf = (o: Obj): Obj => (o.kind === 'Pod' ? o : o.spec.template);
const overridesOf = (o: Obj): Obj => JSON.parse(podOf(o).metadata.annotations['proxy.istio.io/overrides'] as string) as Obj;
const named = (l: Obj[] | undefined, name: string): Obj => (l ?? []).find((c) => c.name === name)!;

describe.skipIf(!configmaps)('proxy.istio.io/overrides in webhook mode', () => {
  it.skipIf(!suites)("Istio's proxy-override input: the containers as the API server defaulted them", () => {
    const file = join(inputs, 'proxy-override.yaml');
    const webhook = render(file, 'webhook');
    const kubeInject = render(file, 'kube-inject');
    const w = overridesOf(webhook);
    const k = overridesOf(kubeInject);
    const wp = named(w.containers, 'istio-proxy');
    const kp = named(k.containers, 'istio-proxy');
    // what the pod wrote is kept...
    expect(wp.terminationMessagePath).toBe('/foo/bar');
    expect(wp.livenessProbe.failureThreshold).toBe(30);
    expect(wp.resources).toEqual(kp.resources);
    // ...and what it left out is what the API server fills in (`image: auto` has the tag latest)
    expect(wp.terminationMessagePolicy).toBe('File');
    expect(wp.imagePullPolicy).toBe('Always');
    expect(wp.livenessProbe.httpGet.scheme).toBe('HTTP');
    expect(wp.livenessProbe.successThreshold).toBe(1);
    for (const f of ['terminationMessagePolicy', 'imagePullPolicy', 'successThreshold']) expect(JSON.stringify(kp)).not.toContain(`"${f}"`);
    const wi = named(w.initContainers, 'istio-init');
    expect(wi.terminationMessagePath).toBe('/dev/termination-log');
    expect(wi.imagePullPolicy).toBe('Always');
    expect(named(k.initContainers, 'istio-init').terminationMessagePath).toBeUndefined();
    // the defaulted container is what istiod laid over the injected one
    const proxy = named(podOf(webhook).spec.containers, 'istio-proxy');
    expect(proxy.imagePullPolicy).toBe('Always');
    expect(proxy.terminationMessagePolicy).toBe('File');
    expect(proxy.livenessProbe.successThreshold).toBe(1);
  });

  const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-overrides-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ports, limits without requests, field references and a registry with a port', () => {
    const file = join(dir, 'pod.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata: {name: p, namespace: team}',
        'spec:',
        '  containers:',
        '  - name: app',
        '    image: app:1.0',
        '  - name: istio-proxy',
        '    image: registry.local:5000/proxyv2',
        '    ports: [{containerPort: 15090, name: http-envoy-prom}]',
        '    resources: {limits: {cpu: "2", memory: 1Gi}}',
        '    env: [{name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}]',
        '    readinessProbe: {grpc: {port: 15021}, timeoutSeconds: 0}',
        '',
      ].join('\n'),
    );
    const webhook = render(file, 'webhook');
    const p = named(overridesOf(webhook).containers, 'istio-proxy');
    expect(p.imagePullPolicy).toBe('Always');
    expect(p.ports).toEqual([{ name: 'http-envoy-prom', containerPort: 15090, protocol: 'TCP' }]);
    expect(p.resources).toEqual({ limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '2', memory: '1Gi' } });
    expect(p.env[0].valueFrom.fieldRef).toEqual({ apiVersion: 'v1', fieldPath: 'spec.nodeName' });
    expect(p.readinessProbe).toMatchObject({ grpc: { port: 15021, service: '' }, timeoutSeconds: 1, periodSeconds: 10 });
    // the requests the limits became replace the template's, as in the cluster
    expect(named(podOf(webhook).spec.containers, 'istio-proxy').resources.requests).toEqual({ cpu: '2', memory: '1Gi' });
    const k = named(overridesOf(render(file, 'kube-inject')).containers, 'istio-proxy');
    expect(k.resources).toEqual({ limits: { cpu: '2', memory: '1Gi' } });
    expect(k.ports).toEqual([{ name: 'http-envoy-prom', containerPort: 15090 }]);
    expect(k.imagePullPolicy).toBeUndefined();
  });
});

describe('the API server defaults', () => {
  it('pull policy by tag, as parsers.ParseImageName reads the image', () => {
    const cases: [string, string][] = [
      ['nginx', 'Always'],
      ['nginx:latest', 'Always'],
      ['nginx:1.25', 'IfNotPresent'],
      ['auto', 'Always'],
      ['localhost:5000/app', 'Always'],
      ['registry.example.com:443/team/app:v2', 'IfNotPresent'],
      [`app@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
      [`app:latest@sha256:${'a'.repeat(64)}`, 'Always'],
      // not a reference (upper case path, short digest, empty): no tag, so IfNotPresent
      ['Team/app', 'IfNotPresent'],
      ['app@sha256:abc', 'IfNotPresent'],
      ['', 'IfNotPresent'],
      ['MyRegistry.io/app', 'Always'],
    ];
    for (const [image, want] of cases) expect(defaultImagePullPolicy(image), image).toBe(want);
  });

  it('a long hostile image name is answered at once', () => {
    const start = Date.now();
    expect(defaultImagePullPolicy(`${'a'.repeat(40)}!`)).toBe('IfNotPresent');
    expect(defaultImagePullPolicy(`${'a-'.repeat(400)}!`)).toBe('IfNotPresent');
    expect(Date.now() - start).toBeLessThan(200);
  });

  it('zero values count as unset; host networking copies container ports to host ports', () => {
    const pod = applyKubeDefaults({
      spec: {
        hostNetwork: true,
        containers: [{ name: 'a', image: 'a:1', terminationMessagePath: '', ports: [{ containerPort: 80, protocol: '' }], livenessProbe: { httpGet: { port: 80, path: '' }, periodSeconds: 0 } }],
      },
    });
    const c = (pod.spec as Obj).containers[0] as Obj;
    expect(c.terminationMessagePath).toBe('/dev/termination-log');
    expect(c.ports).toEqual([{ containerPort: 80, protocol: 'TCP', hostPort: 80 }]);
    expect(c.livenessProbe.httpGet).toEqual({ port: 80, path: '/', scheme: 'HTTP' });
    expect(c.livenessProbe.periodSeconds).toBe(10);
  });
});
