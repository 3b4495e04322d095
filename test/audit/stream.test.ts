// A big dump is judged piece by piece (block-style Lists read item by item, twice): what the audit
// reports must be what it reports when the same text is parsed whole.

import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { auditDetailed, formatJson, formatText, IGNORE_ANNOTATION } from '../../src/audit/index.js';
import { loadObjects, streamObjects } from '../../src/audit/input.js';

/** A List well past the size read piece by piece, with what the first pass must see before judging. */
function dump(n: number): string {
  const items: unknown[] = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'off', labels: { 'istio-injection': 'disabled' } } },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'istio', namespace: 'istio-system' },
      data: { mesh: 'defaultConfig:\n  holdApplicationUntilProxyStarts: true\n' },
    },
  ];
  for (let i = 0; i < n; i++) {
    const ns = i % 7 === 0 ? 'off' : `team-${i % 5}`;
    const lifecycle = i % 3 === 0 ? { preStop: { exec: { command: ['sleep', '5'] } } } : undefined;
    const annotations = i % 11 === 0 ? { [IGNORE_ANNOTATION]: i % 22 === 0 ? 'job-never-completes: runs once' : 'job-never-completes' } : undefined;
    const containers = [{ name: 'app', image: `app:${i}`, lifecycle, ports: [{ containerPort: 8080 + (i % 4) }] }];
    if (i % 4 === 0) {
      items.push({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: `job-${i}`, namespace: ns }, spec: { template: { metadata: { annotations }, spec: { restartPolicy: 'Never', containers } } } });
    } else {
      items.push({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: `web-${i}`, namespace: ns }, spec: { template: { metadata: { annotations }, spec: { containers } } } });
      // the Deployment's pod, judged through its owner only when the owner is present
      items.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `web-${i}-abcde-fghij`, namespace: ns, ownerReferences: [{ kind: 'ReplicaSet', name: `web-${i % 9 === 0 ? 'gone' : i}-abcde`, controller: true }] },
        spec: { containers },
      });
    }
  }
  return stringify({ apiVersion: 'v1', kind: 'List', items });
}

describe('a dump read piece by piece', () => {
  const text = dump(700);
  // a tab in a trailing comment makes the reader parse the text whole; no line moves
  const whole = text + '#\t\n';

  it('is big enough to be read piece by piece, and reads the same objects', () => {
    expect(text.length).toBeGreaterThan(256 * 1024);
    const a = [...streamObjects([{ name: 'd.yaml', text }])];
    const b = loadObjects([{ name: 'd.yaml', text: whole }]);
    expect(a.length).toBe(b.length);
    for (const k of [0, 1, 2, 500, b.length - 1]) {
      expect(a[k]!.value).toEqual(b[k]!.value);
      expect(a[k]!.locator.pos([...a[k]!.path, 'metadata', 'name'])).toEqual(b[k]!.locator.pos([...b[k]!.path, 'metadata', 'name']));
    }
  });

  it('reports what the whole text reports', () => {
    const run = (t: string, keepSubjects?: boolean) => auditDetailed([{ name: 'd.yaml', text: t }], { inject: null, keepSubjects });
    const streamed = run(text, false);
    const parsed = run(whole);
    expect(parsed.findings.length).toBeGreaterThan(100);
    expect(parsed.ignored.length).toBeGreaterThan(0);
    expect(parsed.notes.length).toBeGreaterThan(0);
    expect(formatJson(streamed.findings)).toBe(formatJson(parsed.findings));
    expect(formatText(streamed.findings, { workloads: streamed.judged })).toBe(formatText(parsed.findings, { workloads: parsed.subjects.length }));
    expect(streamed.ignored).toEqual(parsed.ignored);
    expect(streamed.notes).toEqual(parsed.notes);
    expect(streamed.assumptions).toBe(parsed.assumptions);
    expect(streamed.objects).toBe(parsed.objects);
    // owned pods whose owner is present are judged through it: 700 workloads plus the orphans
    expect(streamed.judged).toBe(parsed.subjects.length);
    expect(streamed.judged).toBe(700 + parsed.subjects.filter((s) => s.workload.kind === 'Pod').length);
    expect(parsed.subjects.some((s) => s.workload.kind === 'Pod')).toBe(true);
    expect(streamed.subjects).toEqual([]);
    expect(parsed.judged).toBe(parsed.subjects.length);
  });
});
