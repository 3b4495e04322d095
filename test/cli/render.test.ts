import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderRequest } from '../../src/output/render.js';
import { cli, type CliRun } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ex = (f: string) => join(root, 'examples', f);
const tpl = (f: string) => join(root, 'templates', f);
const vals = (f: string) => join(root, 'values', f);

// --quiet: these tests read stderr line by line; the assumptions line has its own test
const render = (...args: string[]) => cli('render', '--quiet', ...args);

const made: string[] = [];
function tmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-'));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('render command', () => {
  it('prints the template stage output byte for byte for one workload', async () => {
    const r = await render('--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'));
    expect(r.code).toBe(0);
    const lib = renderRequest({ injectorConfigMap: ex('istio-sidecar-injector.yaml'), mesh: ex('istio-mesh.yaml'), workloads: ex('deployment.yaml') });
    expect(r.stdout).toBe(lib.results[0]!.outputs[0]);
    expect(r.stdout).toContain('- pilot-agent\n          - wait');
    expect(r.stderr).toBe('');
  });

  it("accepts istioctl kube-inject's flag names", async () => {
    const a = await render('--injectConfigFile', ex('istio-sidecar-injector.yaml'), '--meshConfigFile', ex('istio-mesh.yaml'), '--filename', ex('deployment.yaml'));
    const b = await render('--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'));
    expect(a.stdout).toBe(b.stdout);
    const c = await render('--template', tpl('hold-1.7.tmpl'), '--valuesFile', vals('defaults.json'), '--values-file', vals('hold-on.json'), '-f', ex('deployment.yaml'));
    expect(c.stdout).toContain('- pilot-agent\n        - wait');
  });

  it('applies --set, --set-string and values files in order', async () => {
    const set = await render('--template', tpl('hold-1.7.tmpl'), '--values', vals('defaults.json'), '--set', 'global.tag=9.9.9,global.proxy.holdApplicationUntilProxyStarts=true', '-f', ex('deployment.yaml'));
    expect(set.stdout).toContain('proxyv2:9.9.9');
    expect(set.stdout).toContain('- wait');
    const setString = await render('--template', tpl('hold-1.7.tmpl'), '--values', vals('defaults.json'), '--values-file', vals('hold-on.json'), '--set-string', 'global.proxy.holdApplicationUntilProxyStarts=', '-f', ex('deployment.yaml'));
    expect(setString.stdout).not.toContain('- wait');
  });

  it('prints the merged workload as YAML or JSON', async () => {
    const y = parse((await render('--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'), '--merged')).stdout);
    expect(y.kind).toBe('Deployment');
    expect(y.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['istio-proxy', 'reviews']);
    const json = await render('--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'), '--merged', '-o', 'json');
    expect(JSON.parse(json.stdout)).toEqual(y);
  });

  it('names the failing workload, renders the others, and exits 1', async () => {
    const dir = tmp();
    const docs = readFileSync(ex('deployment.yaml'), 'utf8');
    const bad = docs.replace('name: reviews\n  namespace', 'name: broken\n  namespace').replace('      annotations:\n', '      annotations:\n        inject.istio.io/templates: nosuch\n');
    writeFileSync(join(dir, 'w.yaml'), `${docs}---\n${bad}`);
    const r = await render('--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', join(dir, 'w.yaml'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: Deployment bookinfo/broken');
    expect(r.stderr).toContain('requested template "nosuch" not found; have sidecar');
    expect(r.stderr.split('\n').filter(Boolean).every((l) => !l.startsWith('    at '))).toBe(true);
    expect(r.stdout).toContain('# Source: Deployment bookinfo/reviews');
  });

  it('reports skipped workloads with the injection policy reason', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'p.yaml'),
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n    sidecar.istio.io/inject: "false"\nspec:\n  containers:\n  - name: c\n    image: x\n',
    );
    const r = await render('--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', join(dir, 'p.yaml'));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('skipped: Pod p: sidecar.istio.io/inject label is "false"');
    expect(r.stdout).toBe('');
  });

  it('points at file:line:col of a template error in the ConfigMap', async () => {
    const dir = tmp();
    const cm = readFileSync(ex('istio-sidecar-injector.yaml'), 'utf8').replace('{{ .DeploymentMeta.Name | quote }}', '{{ index .DeploymentMeta.Name 99 }}');
    writeFileSync(join(dir, 'cm.yaml'), cm);
    const line = cm.split('\n').findIndex((l) => l.includes('index .DeploymentMeta.Name 99')) + 1;
    const col = cm.split('\n')[line - 1]!.indexOf('index') + 1;
    const r = await render('--injector-configmap', join(dir, 'cm.yaml'), '-f', ex('deployment.yaml'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(dir, 'cm.yaml')}:${line}:${col}: template: inject:`);
  });

  it('rejects bad input with one line naming file:line:col', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'w.yaml'), 'kind: Deployment\nmetadata: {name: x\n');
    const badInput = (r: CliRun, want: RegExp) => {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(want);
    };
    badInput(await render('--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', join(dir, 'w.yaml')), /^sidecar-render: .*w\.yaml:\d+:\d+: .+\n$/);
    badInput(await render('--injector-configmap', join(dir, 'missing.yaml'), '-f', ex('deployment.yaml')), /^sidecar-render: .*missing\.yaml: no such file\n$/);
    badInput(await render('--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', ex('deployment.yaml'), '--native-sidecars', 'maybe'), /^sidecar-render: --native-sidecars .*maybe.*\n$/);
  });

  it('writes --output-file atomically', async () => {
    const dir = tmp();
    const out = join(dir, 'out.yaml');
    const r = await render('--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', ex('deployment.yaml'), '--output-file', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toContain('name: istio-proxy');
    expect(readdirSync(dir)).toEqual(['out.yaml']);
  });

  it('turns native sidecars on from Kubernetes 1.33 in auto mode, and per pod by annotation', async () => {
    const job = join(root, 'test/golden/seeds/workloads/job.yaml');
    const native = async (...args: string[]) => (await render('--template', tpl('native-sidecar.tmpl'), '--values', vals('defaults.json'), '-f', job, ...args)).stdout;
    expect(await native('--kube-version', '1.33')).toContain('restartPolicy: Always');
    expect(await native('--kube-version', '1.32')).not.toContain('restartPolicy: Always');
    expect(await native('--native-sidecars', 'true')).toContain('restartPolicy: Always');
  });
});

describe('render validates its inputs', () => {
  const deploy = (annotation?: string) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  template:\n    metadata:\n${
      annotation === undefined ? '      labels: {app: web}\n' : `      annotations:\n        proxy.istio.io/config: |\n${annotation.replace(/^/gm, '          ')}\n`
    }    spec:\n      containers:\n      - name: app\n        image: nginx\n`;
  function files(f: Record<string, string>): (name: string) => string {
    const dir = tmp();
    for (const [k, v] of Object.entries(f)) writeFileSync(join(dir, k), v);
    return (name) => join(dir, name);
  }

  it('warns about an unknown values field with file:line:col and a suggestion, and still renders', async () => {
    const p = files({ 'v.yaml': 'global:\n  proxy:\n    holdApplicationUntilProxyStart: true\n', 'd.yaml': deploy() });
    const r = await render('--template', tpl('hold-1.8.tmpl'), '--values', vals('defaults.json'), '--values-file', p('v.yaml'), '-f', p('d.yaml'));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`${p('v.yaml')}:3:5: warning: unknown values field global.proxy.holdApplicationUntilProxyStart (did you mean holdApplicationUntilProxyStarts?)\n`);
    expect(r.stdout).toContain('istio-proxy');
  });

  it('fails on a values field of the wrong type with exit code 2', async () => {
    const p = files({ 'v.yaml': 'global:\n  proxy:\n    privileged: "yes"\n', 'd.yaml': deploy() });
    const req = { template: tpl('hold-1.8.tmpl'), values: p('v.yaml'), workloads: p('d.yaml') };
    expect(() => renderRequest(req)).toThrow(`${p('v.yaml')}:3:17: values field global.proxy.privileged must be boolean`);
    const r = await render('--template', req.template, '--values', req.values, '-f', req.workloads);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sidecar-render: ${p('v.yaml')}:3:17: values field global.proxy.privileged must be boolean\n`);
  });

  it('checks data.values inside the injector ConfigMap at its line in the file', async () => {
    const cm = readFileSync(ex('istio-sidecar-injector.yaml'), 'utf8').replace('"proxy": {', '"proxy": {\n          "imagee": "x",');
    const p = files({ 'cm.yaml': cm, 'd.yaml': deploy() });
    const line = cm.split('\n').findIndex((l) => l.includes('"imagee"')) + 1;
    const r = await render('--injector-configmap', p('cm.yaml'), '-f', p('d.yaml'));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`${p('cm.yaml')}:${line}:11: warning: unknown values field global.proxy.imagee (did you mean image?)\n`);
  });

  it('warns about unknown mesh config fields; a bad value is an error', async () => {
    const p = files({
      'm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: istio}\ndata:\n  mesh: |-\n    defaultConfig:\n      drainDurationz: 5s\n      holdApplicationUntilProxyStarts: true\n',
      'bad.yaml': 'defaultConfig:\n  drainDuration: soon\n',
      'type.yaml': 'defaultConfig:\n  holdApplicationUntilProxyStarts: "true"\n',
      'd.yaml': deploy(),
    });
    const base = ['--template', tpl('hold-1.8.tmpl'), '--values', vals('defaults.json'), '-f', p('d.yaml')];
    const r = await render(...base, '--mesh', p('m.yaml'));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`${p('m.yaml')}:7:7: warning: unknown mesh config field defaultConfig.drainDurationz (did you mean drainDuration?)\n`);
    expect(() => renderRequest({ template: tpl('hold-1.8.tmpl'), workloads: p('d.yaml'), mesh: p('bad.yaml') })).toThrow(`${p('bad.yaml')}:2:18: mesh config field defaultConfig.drainDuration is not a duration like "5s"`);
    expect(() => renderRequest({ template: tpl('hold-1.8.tmpl'), workloads: p('d.yaml'), mesh: p('type.yaml') })).toThrow(`${p('type.yaml')}:2:36: mesh config field defaultConfig.holdApplicationUntilProxyStarts must be boolean`);
  });

  it("warns about the pod's proxy.istio.io/config naming the workload; a wrong type fails only that workload", async () => {
    const p = files({
      'd.yaml': deploy('holdApplicationUntilProxyStart: true') + '---\n' + deploy('concurrency: two').replace('name: web', 'name: api'),
    });
    const r = await render('--template', tpl('hold-1.8.tmpl'), '--values', vals('defaults.json'), '-f', p('d.yaml'));
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`${p('d.yaml')}:9:11: warning: Deployment shop/web: unknown proxy config field holdApplicationUntilProxyStart (did you mean holdApplicationUntilProxyStarts?)`);
    expect(lines[1]).toMatch(new RegExp(`^error: Deployment shop/api \\(.*\\): .*d\\.yaml:23:24: annotation proxy\\.istio\\.io/config: proxy config field concurrency must be integer$`));
    expect(r.stdout).toContain('istio-proxy');
  });
});
