// render --merged fails a workload where istiod fails it for a value of the wrong type in the template
// output: istiod reads the overlay into map[string]interface{} and decodes the merged pod into
// corev1.Pod with encoding/json. Go's words come from overlay-types/expected.jsonl (tools/yamlcheck
// -pod-overlay, through `npm run vectors`).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderRequest } from '../../src/output/render.js';
import { applySet } from '../../src/helm/strvals.js';
import { parseIstioVersion } from '../../src/istio/version.js';
import { cli } from '../helpers/cli.js';
import { outside } from '../helpers/outside.js';

const configmaps = outside('configmaps', '1.24.0/istio-sidecar-injector.yaml', '1.24.0/istio-mesh.yaml');
const example = fileURLToPath(new URL('../../examples/deployment.yaml', import.meta.url));

const dir = fileURLToPath(new URL('./overlay-types/', import.meta.url));
const answers = fs
  .readFileSync(dir + 'expected.jsonl', 'utf8')
  .trimEnd()
  .split('\n')
  .map((l) => JSON.parse(l) as { file: string; error: string | null });

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'overlay-types-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const pod = path.join(tmp, 'pod.yaml');
fs.writeFileSync(pod, 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: n}\nspec:\n  containers:\n  - name: app\n    image: app\n');

function merged(template: string, version = '1.24') {
  return renderRequest({ template, workloads: pod, merged: true, istioVersion: parseIstioVersion(version) });
}

describe('template output of the wrong type, as istiod decodes it', () => {
  it('every case has Go\'s answer', () => {
    expect(answers.map((a) => a.file).sort()).toEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort());
    expect(answers.filter((a) => a.error === null).length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.error !== null).length).toBeGreaterThan(5);
  });

  for (const a of answers) {
    it(a.file, () => {
      const r = merged(dir + a.file);
      if (a.error === null) {
        expect(r.failed).toBe(0);
        return;
      }
      expect(r.failed).toBe(1);
      expect(r.results[0]!.error).toBe(`failed applying injection overlay of template "sidecar": unmarshal patched pod: ${a.error}`);
      expect(r.messages.join('\n')).toContain(a.error);
    });
  }

  it('an output continued at column 0 is read as yaml.v2 reads it', () => {
    const r = merged(dir + 'continued-col0.yaml');
    expect(r.failed).toBe(0);
    const out = parse(r.text) as { metadata: { annotations: Record<string, string> }; spec: { containers: { name: string; args?: string[] }[] } };
    expect(out.metadata.annotations.note).toBe('a b');
    expect(out.spec.containers.find((c) => c.name === 'istio-proxy')!.args).toEqual(['x', 'z']);
  });

  it('the template stage alone still shows the output as written', () => {
    const r = renderRequest({ template: dir + 'args-number.yaml', workloads: pod, istioVersion: parseIstioVersion('1.24') });
    expect(r.failed).toBe(0);
    expect(r.text).toContain('args: [-p, 15001]');
  });

  it('a 1.5-1.9 SidecarInjectionSpec is decoded into its types, so its scalars become strings', () => {
    const spec = path.join(tmp, 'spec.tmpl');
    fs.writeFileSync(spec, 'initContainers:\n- name: istio-init\n  args: [-p, 15001, -u, 1337]\n  env:\n  - name: X\n    value: 2\n');
    const r = merged(spec, '1.8');
    expect(r.failed).toBe(0);
    const init = (parse(r.text) as { spec: { initContainers: Record<string, unknown>[] } }).spec.initContainers.find((c) => c.name === 'istio-init');
    expect(init).toMatchObject({ args: ['-p', '15001', '-u', '1337'], env: [{ name: 'X', value: '2' }] });
  });

  it('--set parses {sleep,5} as Helm does (a string and an integer); --set-string keeps strings', () => {
    expect(applySet({}, 'a.command={sleep,5}')).toEqual({ a: { command: ['sleep', 5] } });
    expect(applySet({}, 'a.command={sleep,5}', true)).toEqual({ a: { command: ['sleep', '5'] } });
    expect(applySet({}, 'a={true,null,05,+7,-3,0}')).toEqual({ a: [true, null, '05', 7, -3, 0] });
  });

  it.skipIf(!configmaps)('the real 1.24 sidecar template with a lifecycle command set to {sleep,5}: istiod\'s error, exit 1', async () => {
    const cm = path.join(configmaps!, '1.24.0');
    const args = ['render', '-q', '--merged', '--injector-configmap', path.join(cm, 'istio-sidecar-injector.yaml'), '--mesh', path.join(cm, 'istio-mesh.yaml'), '-f', example];
    const typed = await cli(...args, '--set', 'global.proxy.lifecycle.preStop.exec.command={sleep,5}');
    expect(typed.code).toBe(1);
    expect(typed.stdout).toBe('');
    const go = answers.find((a) => a.file === 'lifecycle-command-number.yaml')!.error!;
    expect(typed.stderr).toContain(`failed applying injection overlay of template "sidecar": unmarshal patched pod: ${go}`);
    const strings = await cli(...args, '--set-string', 'global.proxy.lifecycle.preStop.exec.command={sleep,5}');
    expect(strings.code).toBe(0);
    const proxy = (parse(strings.stdout).spec.template.spec.containers as { name: string; lifecycle?: unknown }[]).find((c) => c.name === 'istio-proxy');
    expect(proxy?.lifecycle).toEqual({ preStop: { exec: { command: ['sleep', '5'] } } });
  });
});
