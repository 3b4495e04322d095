// A big dump is judged piece by piece (block-style Lists read item by item, twice): what the audit
// reports must be what it reports when the same text is parsed whole.

import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { auditDetailed, formatJson, formatText, groupByCause, IGNORE_ANNOTATION, InputError, jsonReport, textReport, type Finding, type InputSource } from '../../src/audit/index.js';
import { loadObjects, streamObjects } from '../../src/audit/input.js';
import { detached } from '../../src/audit/types.js';

/** A List well past the size read piece by piece, with what the first pass must see before judging. */
function dump(n: number, padLines = 0): string {
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
  // bytes that are no workload, to pass a size cheaply
  if (padLines) items.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'padding', namespace: 'default' }, data: { blob: ('x'.repeat(72) + '\n').repeat(padLines) } });
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

describe('a big input file between the two passes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-stream-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // past the size whose text is kept between the passes
  const text = dump(60, 16000);

  it('is read once for each pass, not held', () => {
    expect(text.length).toBeGreaterThan(1 << 20);
    let reads = 0;
    const source: InputSource = {
      name: 'd.yaml',
      read: () => {
        reads++;
        return text;
      },
    };
    const byText = auditDetailed([{ name: 'd.yaml', text }], { inject: null, keepSubjects: false });
    const bySource = auditDetailed([source], { inject: null, keepSubjects: false });
    expect(reads).toBe(2);
    expect(formatJson(bySource.findings)).toBe(formatJson(byText.findings));
    expect(bySource.judged).toBe(byText.judged);
  });

  it('judges a file read again from disk as it judges its text', () => {
    const file = join(dir, 'same.yaml');
    writeFileSync(file, text);
    const fromDisk = auditDetailed([file], { inject: null, keepSubjects: false });
    const given = auditDetailed([{ name: file, text }], { inject: null, keepSubjects: false });
    expect(fromDisk.findings.length).toBeGreaterThan(20);
    expect(formatText(fromDisk.findings, { workloads: fromDisk.judged })).toBe(formatText(given.findings, { workloads: given.judged }));
    expect(fromDisk.notes).toEqual(given.notes);
  });

  it('is an error naming the file when it changed between them', () => {
    const file = join(dir, 'changing.yaml');
    writeFileSync(file, text);
    let error: unknown;
    try {
      auditDetailed([file], {
        inject: null,
        keepSubjects: false,
        // after the first pass, before the second: the cluster dump is written again meanwhile
        onProgress: (e) => e.phase === 'parsed' && appendFileSync(file, '# rewritten\n'),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`${file}: changed while it was audited (its text differs from the first read); audit it again`);
  });

  it('keeps the text of a small file, which a change then cannot reach', () => {
    const file = join(dir, 'small.yaml');
    const small = dump(20, 100);
    expect(small.length).toBeLessThan(1 << 20);
    writeFileSync(file, small);
    const r = auditDetailed([file], { inject: null, keepSubjects: false, onProgress: (e) => e.phase === 'parsed' && writeFileSync(file, 'kind: Nothing\n') });
    expect(r.judged).toBeGreaterThan(10);
  });
});

describe('reports written piece by piece', () => {
  const finding = (i: number, container: string | null, message: string): Finding => ({
    rule: 'job-never-completes',
    severity: i % 3 === 0 ? 'error' : i % 3 === 1 ? 'warning' : 'info',
    workload: `Job/ns/job-${i >> 1}`,
    container,
    message,
    location: `d.yaml:${i + 1}:3`,
    fix: 'Do "this"\tthen that.',
  });
  const sets: Finding[][] = [
    [],
    [finding(0, null, 'one')],
    [finding(0, 'app', 'a\nb'), finding(1, null, 'lone \ud800 surrogate, é, \u2028'), finding(2, 'x', ''), finding(3, 'app', '{"json": [1, 2]}')],
  ];

  it('JSON: what JSON.stringify of the rows gives', () => {
    for (const fs of sets) {
      const rows = fs.map((f) => ({ rule: f.rule, severity: f.severity, workload: f.workload, container: f.container, message: f.message, location: f.location, fix: f.fix }));
      expect([...jsonReport(fs)].join('')).toBe(JSON.stringify(rows, null, 2) + '\n');
      expect(formatJson(fs)).toBe(JSON.stringify(rows, null, 2) + '\n');
    }
  });

  it('text: one piece per workload, then the count', () => {
    const pieces = [...textReport(sets[2]!, { workloads: 2 })];
    expect(pieces.length).toBe(3);
    expect(pieces[0]!.startsWith('Job/ns/job-0\n  error   job-never-completes [app]\n          a\nb\n')).toBe(true);
    expect(pieces[2]).toBe('4 findings in 2 workloads: 2 error, 1 warning, 1 info.\n');
    expect([...textReport([], { workloads: 1 })]).toEqual(['No findings in 1 workload.\n']);
  });

  it('by cause: findings of one rule at one location are one, whatever workloads they are about', () => {
    const at = (workload: string, location: string, message = 'm'): Finding => ({ rule: 'prestop-never-exits', severity: 'error', workload, container: 'istio-proxy', message, location, fix: 'f' });
    const fs = [at('Pod/a/x', 'values.yaml:3:5'), at('Pod/a/y', 'dump.yaml:40:1'), at('Pod/a/z', 'values.yaml:3:5', 'other'), at('Pod/a/x', 'values.yaml:3:5')];
    const groups = groupByCause(fs);
    expect(groups.map((g) => [g.first.location, g.workloads, g.findings.length])).toEqual([
      ['values.yaml:3:5', ['Pod/a/x', 'Pod/a/z'], 3],
      ['dump.yaml:40:1', ['Pod/a/y'], 1],
    ]);
    const rows = JSON.parse(formatJson(fs, { byCause: true })) as { affects: number; workloads: { workload: string; message?: string }[] }[];
    expect(rows.map((r) => r.affects)).toEqual([2, 1]);
    expect(rows[0]!.workloads.map((w) => w.message)).toEqual([undefined, 'other', undefined]);
    expect([...jsonReport(fs, { byCause: true })].join('')).toBe(formatJson(fs, { byCause: true }));
    expect(formatText(fs, { byCause: true, workloads: 3 }).split('\n').pop() === '').toBe(true);
  });

  it('kept strings are copied exactly', () => {
    for (const s of ['', 'a', 'lone \ud800 and \udfff', 'é\u2028\u0000"\\', 'x'.repeat(5000)]) expect(detached(s)).toBe(s);
  });
});
