import { mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { parse } from 'yaml';
import { renderCommand } from '../../src/cli/render.js';
import { renderRequest } from '../../src/istio/render.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ex = (f: string) => join(root, 'examples', f);
const tpl = (f: string) => join(root, 'templates', f);
const vals = (f: string) => join(root, 'values', f);

let stdout = '';
let stderr = '';
const realOut = process.stdout.write.bind(process.stdout);
const realErr = process.stderr.write.bind(process.stderr);

beforeEach(() => {
  stdout = '';
  stderr = '';
  process.exitCode = undefined;
  process.stdout.write = ((s: string) => ((stdout += s), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((stderr += s), true)) as typeof process.stderr.write;
});
afterEach(() => {
  process.stdout.write = realOut;
  process.stderr.write = realErr;
  process.exitCode = undefined;
});

async function run(...args: string[]): Promise<number> {
  const program = new Command('sidecar-render').exitOverride();
  renderCommand(program);
  for (const c of program.commands) c.exitOverride();
  await program.parseAsync(['node', 'sidecar-render', 'render', ...args]);
  return Number(process.exitCode ?? 0);
}

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'sidecar-render-'));
}

describe('render command', () => {
  it('prints the template stage output byte for byte for one workload', async () => {
    expect(await run('--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'))).toBe(0);
    const lib = renderRequest({ injectorConfigMap: ex('istio-sidecar-injector.yaml'), mesh: ex('istio-mesh.yaml'), workloads: ex('deployment.yaml') });
    expect(stdout).toBe(lib.results[0]!.outputs[0]);
    expect(stdout).toContain('- pilot-agent\n          - wait');
    expect(stderr).toBe('');
  });

  it("accepts istioctl kube-inject's flag names", async () => {
    await run('--injectConfigFile', ex('istio-sidecar-injector.yaml'), '--meshConfigFile', ex('istio-mesh.yaml'), '--filename', ex('deployment.yaml'));
    const a = stdout;
    stdout = '';
    await run('--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'));
    expect(a).toBe(stdout);
    stdout = '';
    await run('--template', tpl('hold-1.7.tmpl'), '--valuesFile', vals('defaults.json'), '--values-file', vals('hold-on.json'), '-f', ex('deployment.yaml'));
    expect(stdout).toContain('- pilot-agent\n        - wait');
  });

  it('applies --set, --set-string and values files in order', async () => {
    await run('--template', tpl('hold-1.7.tmpl'), '--values', vals('defaults.json'), '--set', 'global.tag=9.9.9,global.proxy.holdApplicationUntilProxyStarts=true', '-f', ex('deployment.yaml'));
    expect(stdout).toContain('proxyv2:9.9.9');
    expect(stdout).toContain('- wait');
    stdout = '';
    await run('--template', tpl('hold-1.7.tmpl'), '--values', vals('defaults.json'), '--values-file', vals('hold-on.json'), '--set-string', 'global.proxy.holdApplicationUntilProxyStarts=', '-f', ex('deployment.yaml'));
    expect(stdout).not.toContain('- wait');
  });

  it('prints the merged workload as YAML or JSON', async () => {
    await run('--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'), '--merged');
    const y = parse(stdout);
    expect(y.kind).toBe('Deployment');
    expect(y.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['istio-proxy', 'reviews']);
    stdout = '';
    await run('--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'), '--merged', '-o', 'json');
    expect(JSON.parse(stdout)).toEqual(y);
  });

  it('names the failing workload, renders the others, and exits 1', async () => {
    const dir = tmp();
    const docs = readFileSync(ex('deployment.yaml'), 'utf8');
    const bad = docs.replace('name: reviews\n  namespace', 'name: broken\n  namespace').replace('      annotations:\n', '      annotations:\n        inject.istio.io/templates: nosuch\n');
    writeFileSync(join(dir, 'w.yaml'), `${docs}---\n${bad}`);
    expect(await run('--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', join(dir, 'w.yaml'))).toBe(1);
    expect(stderr).toContain('error: Deployment bookinfo/broken');
    expect(stderr).toContain('requested template "nosuch" not found; have sidecar');
    expect(stderr.split('\n').filter(Boolean).every((l) => !l.startsWith('    at '))).toBe(true);
    expect(stdout).toContain('# Source: Deployment bookinfo/reviews');
  });

  it('reports skipped workloads with the injection policy reason', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'p.yaml'),
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n    sidecar.istio.io/inject: "false"\nspec:\n  containers:\n  - name: c\n    image: x\n',
    );
    expect(await run('--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', join(dir, 'p.yaml'))).toBe(0);
    expect(stderr).toContain('skipped: Pod p: sidecar.istio.io/inject label is "false"');
    expect(stdout).toBe('');
  });

  it('points at file:line:col of a template error in the ConfigMap', async () => {
    const dir = tmp();
    const cm = readFileSync(ex('istio-sidecar-injector.yaml'), 'utf8').replace('{{ .DeploymentMeta.Name | quote }}', '{{ index .DeploymentMeta.Name 99 }}');
    writeFileSync(join(dir, 'cm.yaml'), cm);
    const line = cm.split('\n').findIndex((l) => l.includes('index .DeploymentMeta.Name 99')) + 1;
    const col = cm.split('\n')[line - 1]!.indexOf('index') + 1;
    expect(await run('--injector-configmap', join(dir, 'cm.yaml'), '-f', ex('deployment.yaml'))).toBe(1);
    expect(stderr).toContain(`${join(dir, 'cm.yaml')}:${line}:${col}: template: inject:`);
  });

  it('rejects bad input with one line naming file:line:col', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'w.yaml'), 'kind: Deployment\nmetadata: {name: x\n');
    await expect(run('--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', join(dir, 'w.yaml'))).rejects.toThrow(/w\.yaml:\d+:\d+: /);
    await expect(run('--injector-configmap', join(dir, 'missing.yaml'), '-f', ex('deployment.yaml'))).rejects.toThrow(/cannot read .*missing\.yaml: ENOENT/);
    await expect(run('--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', ex('deployment.yaml'), '--native-sidecars', 'maybe')).rejects.toThrow();
  });

  it('writes --output-file atomically', async () => {
    const dir = tmp();
    const out = join(dir, 'out.yaml');
    await run('--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', ex('deployment.yaml'), '--output-file', out);
    expect(stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toContain('name: istio-proxy');
    expect(readdirSync(dir)).toEqual(['out.yaml']);
  });

  it('turns native sidecars on from Kubernetes 1.33 in auto mode, and per pod by annotation', async () => {
    const job = join(root, 'test/golden/seeds/workloads/job.yaml');
    await run('--template', tpl('native-sidecar.tmpl'), '--values', vals('defaults.json'), '-f', job, '--kube-version', '1.33');
    expect(stdout).toContain('restartPolicy: Always');
    stdout = '';
    await run('--template', tpl('native-sidecar.tmpl'), '--values', vals('defaults.json'), '-f', job, '--kube-version', '1.32');
    expect(stdout).not.toContain('restartPolicy: Always');
    stdout = '';
    await run('--template', tpl('native-sidecar.tmpl'), '--values', vals('defaults.json'), '-f', job, '--native-sidecars', 'true');
    expect(stdout).toContain('restartPolicy: Always');
  });
});
