// `sidecar-render template`: a function of another set is named with the set that has it; --env is
// what env and expandenv read, never the process environment.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-template-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('a function the chosen set does not have', () => {
  const cases: [template: string, funcs: string[], hint: string][] = [
    ['{{ upper "a" }}', [], ' (it is in the sprig set: --funcs sprig)'],
    ['{{ "a" | upper }}', ['--funcs', 'builtin'], ' (it is in the sprig set: --funcs sprig)'],
    ['{{ include "x" . }}', ['--funcs', 'sprig'], ' (it is in the helm set: --funcs helm)'],
    ['{{ toYaml . }}', ['--funcs', 'sprig'], ' (it is in the helm set: --funcs helm)'],
    // Helm's set has no env: Sprig's has
    ['{{ env "X" }}', ['--funcs', 'helm'], ' (it is in the sprig set: --funcs sprig)'],
    ['{{ annotation . "a" "b" }}', ['--funcs', 'helm'], ' (it is in the istio set: --funcs istio)'],
    // in no set: Go's text alone
    ['{{ nowhere 1 }}', ['--funcs', 'istio'], ''],
  ];
  cases.forEach(([text, funcs, hint], i) => {
    it(`${text} ${funcs.join(' ')}`, async () => {
      const f = file(`f${i}.tmpl`, `line one\n${text}\n`);
      const name = /\{\{ (?:"a" \| )?(\w+)/.exec(text)![1];
      const r = await cli('template', f, ...funcs);
      // Go's own error first, as Go words it, then the set to choose
      expect(r).toEqual({ code: 2, stdout: '', stderr: `sidecar-render: template: f${i}.tmpl:2: function "${name}" not defined${hint}\n` });
    });
  });

  it('the set named renders it', async () => {
    const r = await cli('template', file('ok.tmpl', '{{ upper "a" }}'), '--funcs', 'sprig');
    expect(r).toEqual({ code: 0, stdout: 'A', stderr: '' });
  });
});

describe('--env', () => {
  const tmpl = file('env.tmpl', '[{{ env "SIDECAR_RENDER_TEST_HOME" }}] [{{ expandenv "a=$A b=${B}" }}]');

  it('is what Sprig env and expandenv read (repeatable)', async () => {
    const r = await cli('template', tmpl, '--funcs', 'sprig', '--env', 'SIDECAR_RENDER_TEST_HOME=/h', '--env', 'A=1', '--env', 'B=x=y');
    expect(r).toEqual({ code: 0, stdout: '[/h] [a=1 b=x=y]', stderr: '' });
  });

  it('never reads the process environment', async () => {
    process.env['SIDECAR_RENDER_TEST_HOME'] = '/from-the-process';
    try {
      const r = await cli('template', tmpl, '--funcs', 'sprig', '--env', 'A=1');
      expect(r).toEqual({ code: 0, stdout: '[] [a=1 b=]', stderr: '' });
    } finally {
      delete process.env['SIDECAR_RENDER_TEST_HOME'];
    }
  });

  it("is what Istio's env reads, with its default", async () => {
    const t = file('istio-env.tmpl', '{{ env "ENABLE_NATIVE_SIDECARS" "false" }} {{ env "OTHER" "dflt" }}');
    const r = await cli('template', t, '--funcs', 'istio', '--env', 'ENABLE_NATIVE_SIDECARS=true');
    expect(r).toEqual({ code: 0, stdout: 'true dflt', stderr: '' });
  });

  it('KEY=VALUE or a one-line error', async () => {
    const r = await cli('template', tmpl, '--funcs', 'sprig', '--env', 'A');
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'sidecar-render: --env wants KEY=VALUE, not "A"\n' });
  });
});
