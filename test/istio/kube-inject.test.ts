// `render --mode kube-inject`: the pod as written, istioctl's own config, and with --merged the file as
// istioctl kube-inject prints it. Inputs here are the project's own small injector and workloads.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { type RenderRequest } from '../../src/inputs/resolve.js';
import { renderRequest } from '../../src/output/render.js';
import { splitYamlDocuments } from '../../src/istio/kubeinject.js';
import { podAnnotationError } from '../../src/istio/annotations.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'kube-inject-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const injector = file(
  'injector.yaml',
  `policy: enabled
neverInjectSelector:
  - matchLabels: {skip: "yes"}
injectedAnnotations:
  extra.example.com/injected: "yes"
templates:
  sidecar: |
    metadata:
      labels:
        example.com/owner: {{ .TypeMeta.Kind | quote }}
    spec:
      initContainers:
      - name: istio-init
        image: proxy
        args: ["-u", "{{ .ProxyUID }}"]
      containers:
      - name: istio-proxy
        image: proxy
        env:
        - name: PORTS
          value: '[{{ range .Spec.Containers }}{{ range .Ports }}{{ toJson . }}{{ end }}{{ end }}]'
        - name: OWNER
          value: "{{ .TypeMeta.APIVersion }}"
        securityContext:
          runAsUser: {{ .ProxyUID }}
  gateway: |
    spec:
      containers:
      - name: istio-proxy
        image: gateway
`,
);
const values = file('values.json', '{"global": {"network": ""}}');

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  paused: false
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: web
        ports:
        - {name: http, containerPort: 80}
`;

function render(workloads: string, extra: Partial<RenderRequest> = {}) {
  return renderRequest({ template: injector, values, workloads: file(`w${Math.random().toString(36).slice(2)}.yaml`, workloads), merged: true, ...extra });
}

const docs = (text: string) => parseAllDocuments(text).map((d) => d.toJS());
const proxyEnv = (pod: { spec: { containers: Array<{ name: string; env?: Array<{ name: string; value: string }> }> } }, name: string) =>
  pod.spec.containers.find((c) => c.name === 'istio-proxy')!.env!.find((e) => e.name === name)!.value;

describe('--mode kube-inject --merged', () => {
  it('prints each document as istioctl does: Go zero values, omitempty fields dropped, --- after each', () => {
    const out = render(deployment, { mode: 'kube-inject' });
    expect(out.failed).toBe(0);
    expect(out.text.endsWith('status: {}\n---\n')).toBe(true);
    expect(out.text).toMatch(/^metadata:\n {2}creationTimestamp: null\n {2}name: web\n/m);
    expect(out.text).toMatch(/^ {2}strategy: \{\}$/m);
    expect(out.text).not.toMatch(/paused/);
    const [d] = docs(out.text) as [Record<string, any>];
    expect(d.spec.template.metadata.creationTimestamp).toBeNull();
  });

  it('writes creationTimestamp: null as each release does: up to Kubernetes 1.33 APIs (Istio 1.27), not from 1.34 (1.28)', () => {
    const old = render(deployment, { mode: 'kube-inject', istioVersion: { major: 1, minor: 27 } }).text;
    const cur = render(deployment, { mode: 'kube-inject', istioVersion: { major: 1, minor: 28 } }).text;
    expect(old.match(/creationTimestamp: null/g)).toHaveLength(2);
    expect(cur).not.toContain('creationTimestamp');
    expect(cur).toMatch(/^status: \{\}$/m);
  });

  it('copies documents it has no type for byte for byte, and keeps a List a List', () => {
    const service = 'kind: Service\napiVersion: v1\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: 80   # as written\n';
    const list = `apiVersion: v1\nkind: List\nitems:\n- kind: ConfigMap\n  apiVersion: v1\n  metadata: {name: c}\n${deployment
      .split('\n')
      .map((l, i) => (l === '' ? l : (i === 0 ? '- ' : '  ') + l))
      .join('\n')}`;
    const out = render(`${service}---\n${list}`, { mode: 'kube-inject' });
    expect(out.failed).toBe(0);
    const parts = out.text.split(/^---\n/m);
    expect(parts[0]).toBe(service);
    expect(parts.length).toBe(3);
    const l = docs(parts[1]!)[0] as Record<string, any>;
    expect(l.kind).toBe('List');
    expect(l.metadata).toEqual({});
    expect(l.items.map((i: { kind: string }) => i.kind)).toEqual(['ConfigMap', 'Deployment']);
    expect(l.items[1].spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['web', 'istio-proxy']);
  });

  it('sees the pod as written, where the webhook sees it defaulted by the API server', () => {
    const kube = docs(render(deployment, { mode: 'kube-inject' }).text)[0] as any;
    const hook = docs(render(deployment).text)[0] as any;
    expect(proxyEnv(kube.spec.template, 'PORTS')).toBe('[{"name":"http","containerPort":80}]');
    expect(proxyEnv(hook.spec.template, 'PORTS')).toBe('[{"name":"http","containerPort":80,"protocol":"TCP"}]');
  });

  it("uses istioctl's own config: no selectors, no injectedAnnotations", () => {
    const skipped = deployment.replace('labels: {app: web}', 'labels: {app: web, skip: "yes"}');
    expect(render(skipped).messages.join('\n')).toMatch(/skipped: .*neverInjectSelector/);
    const kube = docs(render(skipped, { mode: 'kube-inject' }).text)[0] as any;
    expect(kube.spec.template.spec.containers.map((c: { name: string }) => c.name)).toContain('istio-proxy');
    expect(kube.spec.template.metadata.annotations['extra.example.com/injected']).toBeUndefined();
    const hook = docs(render(deployment).text)[0] as any;
    expect(hook.spec.template.metadata.annotations['extra.example.com/injected']).toBe('yes');
  });

  it("names the owner with the workload's own apiVersion", () => {
    const out = render(deployment.replace('apps/v1', 'extensions/v1beta1'), { mode: 'kube-inject' });
    expect(proxyEnv((docs(out.text)[0] as any).spec.template, 'OWNER')).toBe('extensions/v1beta1');
  });

  it("puts a CronJob's pod metadata on its jobTemplate", () => {
    const cron = `apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 0 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: job, image: job}]
`;
    const d = docs(render(cron, { mode: 'kube-inject' }).text)[0] as any;
    expect(d.spec.jobTemplate.metadata.labels['example.com/owner']).toBe('CronJob');
    expect(d.spec.jobTemplate.spec.template.metadata).toEqual({ creationTimestamp: null });
  });
});

describe('what istiod adds to the merged pod', () => {
  const withProxy = deployment.replace(
    '        - {name: http, containerPort: 80}\n',
    '        - {name: http, containerPort: 80}\n      - name: istio-proxy\n        image: auto\n        securityContext: {runAsUser: 1234}\n',
  );

  it("records a pod's own istio-proxy in proxy.istio.io/overrides and carries its runAsUser to istio-init", () => {
    const d = docs(render(withProxy, { mode: 'kube-inject', istioVersion: { major: 1, minor: 24 } }).text)[0] as any;
    const pod = d.spec.template;
    expect(pod.metadata.annotations['proxy.istio.io/overrides']).toBe('{"containers":[{"name":"istio-proxy","resources":{},"securityContext":{"runAsUser":1234}}]}');
    const proxy = pod.spec.containers.find((c: { name: string }) => c.name === 'istio-proxy');
    expect(proxy.image).toBe('proxy');
    expect(proxy.securityContext.runAsUser).toBe(1234);
    expect(pod.spec.initContainers[0].args).toEqual(['-u', '1234']);
  });

  it('labels the network from values and sets ISTIO_META_NETWORK last', () => {
    const nv = file('values-network.json', '{"global": {"network": "net1"}}');
    const d = docs(renderRequest({ template: injector, values: nv, workloads: file('n.yaml', deployment), merged: true }).text)[0] as any;
    expect(d.spec.template.metadata.labels['topology.istio.io/network']).toBe('net1');
    const env = d.spec.template.spec.containers.find((c: { name: string }) => c.name === 'istio-proxy').env;
    expect(env[env.length - 1]).toEqual({ name: 'ISTIO_META_NETWORK', value: 'net1' });
  });

  it('fails a workload whose traffic annotations istiod refuses, naming the annotation', () => {
    const bad = deployment.replace('labels: {app: web}', 'labels: {app: web}\n      annotations: {traffic.sidecar.istio.io/excludeOutboundIPRanges: "*"}');
    const out = render(bad);
    expect(out.failed).toBe(1);
    expect(out.messages.join('\n')).toContain("invalid value '*' for annotation 'traffic.sidecar.istio.io/excludeOutboundIPRanges': excludeIPRanges invalid");
  });
});

describe('pod annotations istiod validates', () => {
  it.each([
    ['traffic.sidecar.istio.io/includeOutboundIPRanges', '*', undefined],
    ['traffic.sidecar.istio.io/includeOutboundIPRanges', '10.0.0.0/8,fd00::/8', undefined],
    ['traffic.sidecar.istio.io/includeOutboundIPRanges', '10.0.0.1', 'includeIPRanges invalid'],
    ['traffic.sidecar.istio.io/includeOutboundIPRanges', '10.0.0.0/33', 'includeIPRanges invalid'],
    ['traffic.sidecar.istio.io/excludeOutboundIPRanges', '010.0.0.0/8', 'excludeIPRanges invalid'],
    ['traffic.sidecar.istio.io/excludeOutboundIPRanges', '', undefined],
    ['traffic.sidecar.istio.io/includeInboundPorts', '*', undefined],
    ['traffic.sidecar.istio.io/includeInboundPorts', '80, 443', undefined],
    ['traffic.sidecar.istio.io/excludeInboundPorts', '70000', 'excludeInboundPorts invalid'],
    ['traffic.sidecar.istio.io/excludeOutboundPorts', 'bad', 'excludeOutboundPorts invalid'],
    ['sidecar.istio.io/interceptionMode', 'NONE', undefined],
    ['sidecar.istio.io/interceptionMode', 'redirect', 'interceptionMode invalid'],
    ['readiness.status.sidecar.istio.io/periodSeconds', '-1', 'invalid syntax'],
    ['example.com/other', '???', undefined],
  ])('%s: %j', (name, value, want) => {
    const e = podAnnotationError({ [name]: value });
    if (want === undefined) expect(e).toBeUndefined();
    else expect(e).toContain(want);
  });
});

describe('documents as istioctl reads them', () => {
  it('splits at --- lines (comments allowed after), drops empty documents, and refuses other separators', () => {
    expect(splitYamlDocuments('a: 1\n---\n---  # c\nb: 2\n', 'f').map((d) => [d.text, d.line0])).toEqual([
      ['a: 1\n', 0],
      ['b: 2\n', 3],
    ]);
    expect(() => splitYamlDocuments('a: 1\n--- b: 2\n', 'f.yaml')).toThrow(/f\.yaml:2:1: invalid Yaml document separator/);
  });
});

describe('the --mode flag', () => {
  it('is webhook or kube-inject, and kube-inject --merged prints YAML, or with -o json its object', async () => {
    const w = file('cli.yaml', deployment);
    const bad = await cli('render', '--template', injector, '--values', values, '-f', w, '--mode', 'istiod');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--mode must be one of webhook, kube-inject/);
    const json = await cli('render', '--template', injector, '--values', values, '-f', w, '--mode', 'kube-inject', '--merged', '-o', 'json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'Deployment', status: {} });
    const ok = await cli('render', '--template', injector, '--values', values, '-f', w, '--mode', 'kube-inject', '--merged');
    expect(ok.code).toBe(0);
    expect(ok.stdout.endsWith('status: {}\n---\n')).toBe(true);
    const help = await cli('render', '--help');
    expect(help.stdout).toMatch(/--mode <mode>[\s\S]*kube-inject/);
  });
});

describe('OTEL_RESOURCE_ATTRIBUTES (otelResourceAttributes, master)', () => {
  const tmpl = file(
    'otel.yaml',
    `templates:
  sidecar: |
    spec:
      containers:
      - name: istio-proxy
        image: p
        env:
        - name: OTEL_RESOURCE_ATTRIBUTES
          value: "{{ otelResourceAttributes .MeshConfig .ObjectMeta.Annotations .ObjectMeta.Labels .DeploymentMeta.Namespace .Spec.Containers }}"
`,
  );
  const mesh = file('otel-mesh.yaml', 'extensionProviders:\n- name: otel\n  opentelemetry:\n    service: otel.example\n    port: 4317\n    serviceAttributeEnrichment: OTEL_SEMANTIC_CONVENTIONS\n');
  const attrs = (annotations: string) => {
    const pod = file(`otel-pod-${Math.random().toString(36).slice(2)}.yaml`, `apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop${annotations}}\nspec:\n  containers: [{name: cart, image: "reg:5000/cart:1.2"}]\n`);
    return /value: "([^"]*)"/.exec(renderRequest({ template: tmpl, values, mesh, workloads: pod, istioVersion: { major: 1, minor: 99, master: true } }).text)![1];
  };

  it('names the instance namespace.$(POD_NAME).first-container, values as written', () => {
    expect(attrs('')).toBe('service.namespace=shop,service.version=1.2,service.instance.id=shop.$(POD_NAME).cart');
    expect(attrs(', annotations: {resource.opentelemetry.io/service.instance.id: "a b/c"}')).toBe('service.namespace=shop,service.version=1.2,service.instance.id=a b/c');
  });
});

describe('golden cases in kube-inject mode', () => {
  it('take mode: kube-inject like render --mode, and reject other modes', async () => {
    const gdir = mkdtempSync(join(tmpdir(), 'kube-inject-golden-'));
    writeFileSync(join(gdir, 'w.yaml'), deployment);
    writeFileSync(join(gdir, 'm.yaml'), `goldenDir: golden\ncases:\n  - name: web\n    template: ${injector}\n    values: ${values}\n    workloads: w.yaml\n    merged: true\n    mode: kube-inject\n`);
    const up = await cli('golden', 'update', join(gdir, 'm.yaml'));
    expect(up.code, up.stderr).toBe(0);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(gdir, 'golden', 'web.yaml'), 'utf8').endsWith('status: {}\n---\n')).toBe(true);
    writeFileSync(join(gdir, 'bad.yaml'), `goldenDir: golden\ncases:\n  - name: web\n    template: ${injector}\n    workloads: w.yaml\n    mode: istiod\n`);
    const bad = await cli('golden', 'check', join(gdir, 'bad.yaml'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.yaml:6:\d+/);
  });
});
