// Where a finding caused by injector values points: at the file and line the user wrote the value in
// (a chart's values file, an IstioOperator, a ConfigMap export) or at the flag that set it, never into
// the ConfigMap a chart rendered from them.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditDetailed, type AuditOptions } from '../../src/audit/index.js';
import { cli } from '../helpers/cli.js';

const chart = join(import.meta.dirname, 'charts', 'hold-istiod');
const deployment = join(import.meta.dirname, '..', 'golden', 'seeds', 'workloads', 'deployment.yaml');
const example = join(import.meta.dirname, '..', '..', 'examples', 'istio-sidecar-injector.yaml');
const dir = mkdtempSync(join(tmpdir(), 'audit-evidence-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const values = file(
  'values.yaml',
  `# the team's overrides
global:
  proxy:
    holdApplicationUntilProxyStarts: true
    lifecycle:
      preStop:
        exec:
          command: [sleep, "5"]
`,
);
const iop = file(
  'operator.yaml',
  `apiVersion: install.istio.io/v1alpha1
kind: IstioOperator
spec:
  meshConfig:
    defaultConfig:
      holdApplicationUntilProxyStarts: true
  values:
    global:
      proxy:
        lifecycle:
          preStop:
            exec:
              command: [sleep, "5"]
`,
);

const held = (o: AuditOptions) => {
  const r = auditDetailed([deployment], o);
  const f = r.findings.find((x) => x.rule === 'hold-dropped-by-lifecycle');
  return { finding: f, hold: r.subjects[0]!.settings.hold };
};

describe('a finding caused by values points where they were written', () => {
  it("a chart's values file: its line, not the rendered ConfigMap's", () => {
    const { finding, hold } = held({ chart, chartValues: [values] });
    expect(finding?.location).toBe(`${values}:5:5`);
    expect(hold.evidence).toMatchObject({ file: values, line: 4, col: 5 });
  });

  it('a --chart-set or --chart-set-string: the flag', () => {
    const { finding, hold } = held({ chart, chartSet: ['global.proxy.holdApplicationUntilProxyStarts=true'], chartSetString: ['global.proxy.lifecycle.preStop.exec.command={sleep,5}'] });
    expect(finding?.location).toBe('--chart-set-string global.proxy.lifecycle.preStop.exec.command={sleep,5}');
    expect(hold.evidence?.flag).toBe('--chart-set global.proxy.holdApplicationUntilProxyStarts=true');
  });

  it('the last input that sets a value wins, as in Helm: a --chart-set over the values file', () => {
    const { hold } = held({ chart, chartValues: [values], chartSet: ['global.proxy.holdApplicationUntilProxyStarts=true'] });
    expect(hold.evidence?.flag).toBe('--chart-set global.proxy.holdApplicationUntilProxyStarts=true');
  });

  it("an IstioOperator mapped onto the chart: spec.values for the values, spec.meshConfig for the mesh config", () => {
    const { finding, hold } = held({ chart, iop: [iop] });
    expect(finding?.location).toBe(`${iop}:10:9`);
    const mesh = hold.sources.find((x) => x.what.startsWith('mesh'));
    expect(mesh?.evidence).toMatchObject({ file: iop, line: 6, col: 7 });
  });

  it('a value the user did not write stays cited in the rendered ConfigMap', () => {
    const r = auditDetailed([deployment], { chart, chartValues: [values] });
    const tag = r.subjects[0]!.settings.valueEvidence(['global', 'tag']);
    expect(tag?.file).toMatch(/injector\.yaml \(rendered from .*hold-istiod\)$/);
  });

  it('a --set over a ConfigMap export: the flag, in text and JSON', async () => {
    const args = ['audit', '-q', '--injector-configmap', example, '--set', 'global.proxy.holdApplicationUntilProxyStarts=true', '--set-string', 'global.proxy.lifecycle.preStop.exec.command={sleep,5}', '-f', deployment];
    const rows = JSON.parse((await cli(...args, '-o', 'json')).stdout) as { rule: string; location: string }[];
    expect(rows.find((x) => x.rule === 'hold-dropped-by-lifecycle')?.location).toBe('--set-string global.proxy.lifecycle.preStop.exec.command={sleep,5}');
    expect((await cli(...args, '--no-color')).stdout).toContain('at --set-string global.proxy.lifecycle.preStop.exec.command={sleep,5} (global.proxy.lifecycle)');
  });
});
