// A cluster dump at scale: 5,000 workloads, two lines of injector values that cause the same hazards in
// every one of them, and one workload the injector cannot render. The audit judges them all, reports the
// one istiod would reject as a finding of its own, and the shared hazards as one finding per cause.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { auditDetailed, formatJson, formatSarif, groupByCause } from '../../src/audit/index.js';

const WORKLOADS = 5000;
const injector = parse(readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'istio-sidecar-injector.yaml'), 'utf8')) as { data: { values: string } };

/** The dump as `kubectl get cm,deploy,sts -A -o json` prints it, one List; the values ask for the hold and a custom lifecycle. */
function dump(): string {
  const values = JSON.parse(injector.data.values) as { global: { proxy: Record<string, unknown> } };
  values.global.proxy.holdApplicationUntilProxyStarts = true;
  values.global.proxy.lifecycle = { preStop: { exec: { command: ['/bin/sh', '-c', 'while [ $(netstat -plunt | grep tcp | grep -v envoy | wc -l | xargs) -ne 0 ]; do sleep 1; done'] } } };
  const items: unknown[] = [{ ...injector, data: { ...injector.data, values: JSON.stringify(values, null, 2) } }];
  for (let i = 0; i < WORKLOADS; i++) {
    const kind = i % 5 === 4 ? 'StatefulSet' : 'Deployment';
    const annotations: Record<string, string> = i === 2500 ? { 'inject.istio.io/templates': 'sidecar,custom' } : {};
    items.push({
      apiVersion: 'apps/v1',
      kind,
      metadata: { name: `svc-${i}`, namespace: `team-${i % 40}`, uid: `0000-${i}`, resourceVersion: String(100000 + i) },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: `svc-${i}` } },
        template: {
          metadata: { labels: { app: `svc-${i}` }, annotations },
          spec: { containers: [{ name: `app-${i % 7}`, image: `registry.example.com/svc-${i}:1.${i % 50}`, ports: [{ containerPort: 8080 }] }] },
        },
      },
    });
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 1);
}

describe(`a dump of ${WORKLOADS} workloads`, () => {
  const text = dump();
  const started = Date.now();
  const r = auditDetailed([{ name: 'dump.json', text }], { keepSubjects: false });
  const seconds = (Date.now() - started) / 1000;

  it('with one workload the injector cannot render: every workload judged, that one reported with istiod\'s error', () => {
    expect(r.judged).toBe(WORKLOADS);
    const failed = r.findings.filter((f) => f.rule === 'injection-fails');
    expect(failed.map((f) => f.workload)).toEqual(['Deployment/team-20/svc-2500']);
    expect(failed[0]!.message).toContain('requested template "custom" not found');
    // every other workload has its findings
    expect(new Set(r.findings.map((f) => f.workload)).size).toBe(WORKLOADS);
    console.log(`${WORKLOADS} workloads audited in ${seconds.toFixed(1)} s, ${r.findings.length} findings`);
  });

  it('groups to one finding per cause: each of the two values lines is one, affecting every renderable workload', () => {
    const causes = groupByCause(r.findings);
    const summary = causes.map((g) => `${g.first.severity} ${g.first.rule} ${g.first.location} ${g.workloads.length}`);
    expect(summary.length, summary.join('\n')).toBe(4);
    const count = (rule: string) => causes.filter((g) => g.first.rule === rule).map((g) => g.workloads.length);
    expect(count('hold-dropped-by-lifecycle')).toEqual([WORKLOADS - 1]);
    expect(count('prestop-never-exits')).toEqual([WORKLOADS - 1]);
    expect(count('hook-option-ignored')).toEqual([WORKLOADS - 1]);
    expect(count('injection-fails')).toEqual([1]);
    // the cause points at the values, in the dump's injector ConfigMap
    for (const g of causes.filter((x) => x.workloads.length > 1)) expect(g.first.location).toMatch(/^dump\.json:\d+:\d+$/);
    const rows = JSON.parse(formatJson(r.findings, { byCause: true })) as { affects: number }[];
    expect(rows.map((x) => x.affects).sort((a, b) => a - b)).toEqual([1, WORKLOADS - 1, WORKLOADS - 1, WORKLOADS - 1]);
    const sarif = JSON.parse(formatSarif(r.findings, { byCause: true })) as { runs: { results: { relatedLocations?: unknown[] }[] }[] };
    expect(sarif.runs[0]!.results).toHaveLength(4);
    expect(sarif.runs[0]!.results.map((x) => x.relatedLocations?.length ?? 1).sort((a, b) => a - b)).toEqual([1, WORKLOADS - 1, WORKLOADS - 1, WORKLOADS - 1]);
  });
});
