// Our own templates rendered for the parity workloads, compared byte for byte with the Go emulation of
// istiod's template stage (expected outputs from tools/parity-own.mjs; regenerate them there).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderRequest } from '../../src/output/render.js';
import { parseIstioVersion } from '../../src/istio/version.js';

interface Spec {
  templates: { template: string; version: string; native?: boolean }[];
  inputs: { values: string; mesh: string }[];
}
interface Expected {
  name: string;
  output: string;
  error: string | null;
}

const spec = JSON.parse(readFileSync('test/parity/own-cases.json', 'utf8')) as Spec;
const workloads = readdirSync('test/parity/workloads').filter((f) => f.endsWith('.yaml')).sort();
const expected = new Map(
  readFileSync('test/parity/own.expected.jsonl', 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Expected)
    .map((e) => [e.name, e]),
);
const base = (p: string): string => p.split('/').pop()!.replace(/\.(tmpl|json|yaml)$/, '');

describe('own templates match the istiod emulation', () => {
  it('has an expectation for every case', () => {
    expect(expected.size).toBe(spec.templates.length * spec.inputs.length * workloads.length);
  });
  for (const t of spec.templates) {
    for (const inp of spec.inputs) {
      for (const w of workloads) {
        const name = `${base(t.template)}@${t.version}__${base(inp.values)}__${base(inp.mesh)}__${base(w)}`;
        it(name, () => {
          const want = expected.get(name);
          expect(want, `no expectation for ${name}`).toBeDefined();
          const r = renderRequest({
            template: t.template,
            values: inp.values,
            mesh: inp.mesh,
            workloads: `test/parity/workloads/${w}`,
            istioVersion: parseIstioVersion(t.version),
            nativeSidecars: t.native ? 'true' : 'false',
          });
          if (want!.error !== null) {
            expect(r.failed).toBe(1);
            return;
          }
          expect(r.messages).toEqual([]);
          expect(r.text).toBe(want!.output);
        });
      }
    }
  }
});
