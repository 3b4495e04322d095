// The limit flags of render, template and golden: each reaches the engine, and a breach names the
// limit and the flag that raises it.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { limitsFromFlags } from '../../src/cli/limits.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ex = (f: string) => join(root, 'examples', f);
const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('limit flags', () => {
  it('parse sizes, counts and durations; 60 s by default', () => {
    expect(limitsFromFlags({})).toEqual({ timeoutMs: 60_000 });
    expect(limitsFromFlags({ timeout: '0' })).toEqual({});
    expect(
      limitsFromFlags({ timeout: '1.5s', maxOutput: '64Ki', maxDepth: '10', maxIterations: '1000', maxValue: '2Mi', maxList: '50', maxBuilt: '1G' }),
    ).toEqual({ timeoutMs: 1500, maxOutputBytes: 65536, maxTemplateDepth: 10, maxRangeIterations: 1000, maxValueBytes: 2 * 1024 * 1024, maxListLength: 50, maxBuiltBytes: 1e9 });
    expect(() => limitsFromFlags({ maxDepth: '1.5' })).toThrow(/^--max-depth wants a positive whole number, not "1.5"$/);
    expect(() => limitsFromFlags({ maxOutput: 'lots' })).toThrow(/^--max-output wants a size/);
    expect(() => limitsFromFlags({ timeout: 'soon' })).toThrow(/^--timeout wants a duration/);
  });

  const cases: Array<[string, string, string[], RegExp]> = [
    ['--max-output', '{{ range until 1000 }}{{ . }}{{ end }}', ['--max-output', '100'], /output exceeds the limit of 100 bytes \(raise it with --max-output\)$/],
    ['--max-iterations', '{{ range until 1000 }}{{ end }}', ['--max-iterations', '10'], /range iterations exceed the limit of 10 \(raise it with --max-iterations\)$/],
    ['--max-list', '{{ until 1000 }}', ['--max-list', '10'], /list of 1000 elements exceeds the limit of 10 elements \(raise it with --max-list\)$/],
    ['--max-value', '{{ repeat 1000 "x" }}', ['--max-value', '100'], /exceeds the limit of 100 bytes per value \(raise it with --max-value\)$/],
    ['--max-depth', '{{ define "x" }}{{ template "x" . }}{{ end }}{{ template "x" . }}', ['--max-depth', '20'], /exceeded maximum template depth \(20\) \(raise it with --max-depth\)$/],
    ['--timeout', '{{ range until 100000 }}{{ range until 100000 }}{{ end }}{{ end }}', ['--timeout', '50ms'], /execution exceeded the time limit \(raise it with --timeout\)$/],
  ];
  for (const [flag, text, args, want] of cases) {
    it(`template ${flag}: exit 2, one line`, async () => {
      const r = await cli('template', file(`${flag.slice(2)}.tmpl`, text), '--funcs', 'sprig', ...args);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr.trimEnd()).toMatch(want);
    });
  }

  it('render: a breach fails the workload (exit 1) and names the flag', async () => {
    const r = await cli('render', '--quiet', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', ex('deployment.yaml'), '--max-output', '100');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: Deployment bookinfo\/reviews \(.*\): .*istio-sidecar-injector\.yaml:\d+:\d+: template: inject:.*output exceeds the limit of 100 bytes \(raise it with --max-output\)\n1 of 1 workloads failed\n$/);
    const ok = await cli('render', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', ex('deployment.yaml'), '--max-output', '1Mi', '--timeout', '10s');
    expect(ok.code).toBe(0);
  });

  it('golden: the limits apply to every case', async () => {
    const m = file(
      'golden.yaml',
      `goldenDir: g\ncases:\n  - name: one\n    injectorConfigMap: ${JSON.stringify(ex('istio-sidecar-injector.yaml'))}\n    workloads: ${JSON.stringify(ex('deployment.yaml'))}\n`,
    );
    expect((await cli('golden', 'update', m, '--no-progress')).code).toBe(0);
    const r = await cli('golden', 'check', m, '--no-progress', '--max-output', '100');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAILED {2}one: .*raise it with --max-output/);
    expect((await cli('golden', 'check', m, '--no-progress')).code).toBe(0);
  });
});
