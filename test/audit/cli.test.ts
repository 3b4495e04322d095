// The audit command end to end: output formats, exit codes, bad input, timelines.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/audit/index.js';
import { cli } from '../helpers/cli.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const dir = mkdtempSync(join(tmpdir(), 'audit-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) => cli('audit', ...args);

describe('sidecar-render audit', () => {
  const hazard = join(fixtures, 'seeds', '001-prestop-loop-hazard.yaml');
  const fixed = join(fixtures, 'seeds', '001-prestop-loop-fixed.yaml');

  it('prints findings grouped by workload and exits 1 on errors', async () => {
    const r = await run('-f', hazard, '--no-color');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Deployment\/default\/httpbin-deployment-v2$/m);
    expect(r.stdout).toContain('prestop-never-exits');
    expect(r.stdout).not.toContain('\x1b[');
    expect(r.stdout).toMatch(/001-prestop-loop-hazard\.yaml:\d+:\d+/);
  });

  it('exits 0 on a clean input', async () => {
    const r = await run('-f', fixed);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No findings');
  });

  it('--fail-on warning fails on warnings; default error does not', async () => {
    const f = join(fixtures, 'native-sidecar-unordered', 'positive-cloudsql-proxy.yaml');
    expect((await run('-f', f)).code).toBe(0);
    expect((await run('-f', f, '--fail-on', 'warning')).code).toBe(1);
  });

  it('--output json lists one row per cause: {rule, severity, workload, container, message, location, fix} of its first finding, then affects and workloads; info with --info', async () => {
    const r = await run('-f', hazard, '-o', 'json');
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Object.keys(row)).toEqual(['rule', 'severity', 'workload', 'container', 'message', 'location', 'fix', 'affects', 'workloads']);
    expect(rows.map((x) => x.rule)).toContain('prestop-never-exits');
    expect(rows.find((x) => x.severity === 'info')).toBeUndefined();
    const withInfo = JSON.parse((await run('-f', hazard, '-o', 'json', '--info')).stdout) as Record<string, unknown>[];
    expect(String(withInfo.find((x) => x.severity === 'info')?.message)).toContain('netstat -u');
  });

  it('--per-workload: the rows as before grouping, {rule, severity, workload, container, message, location, fix}, info included', async () => {
    const rows = JSON.parse((await run('-f', hazard, '-o', 'json', '--per-workload')).stdout) as Record<string, unknown>[];
    for (const row of rows) expect(Object.keys(row)).toEqual(['rule', 'severity', 'workload', 'container', 'message', 'location', 'fix']);
    expect(String(rows.find((x) => x.severity === 'info')?.message)).toContain('netstat -u');
    const text = await run('-f', hazard, '--per-workload', '--no-color');
    expect(text.stdout).toMatch(/^\d+ findings in 1 workload: \d+ error, \d+ warning, 1 info\.$/m);
  });

  it('--output sarif is SARIF 2.1.0 with the rule table and physical locations', async () => {
    const r = await run('-f', hazard, '-o', 'sarif');
    const s = JSON.parse(r.stdout);
    expect(s.version).toBe('2.1.0');
    const run0 = s.runs[0];
    expect(run0.tool.driver.rules.map((x: { id: string }) => x.id)).toContain('hold-dropped-by-lifecycle');
    const res = run0.results[0];
    expect(['error', 'warning', 'note']).toContain(res.level);
    expect(run0.tool.driver.rules[res.ruleIndex].id).toBe(res.ruleId);
    expect(res.locations[0].physicalLocation.region.startLine).toBeGreaterThan(0);
  });

  it('malformed YAML: one line with file:line:col, exit 2', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: [unclosed\nspec: {}\n');
    const r = await run('-f', bad);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/bad\.yaml:\d+:\d+: /);
    expect(r.stdout).toBe('');
  });

  it('hostile input: a non-object document, a missing file, an unknown flag value', async () => {
    const scalar = join(dir, 'scalar.yaml');
    writeFileSync(scalar, 'just a string\n');
    const a = await run('-f', scalar);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/scalar\.yaml:1:1: expected a Kubernetes object/);
    const b = await run('-f', join(dir, 'missing.yaml'));
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('no such file');
    const c = await run('-f', hazard, '--kube-version', 'banana');
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('--kube-version');
  });

  it('empty input is bad input; files may also be given as arguments or with --filename', async () => {
    const empty = join(dir, 'empty.yaml');
    writeFileSync(empty, '\n  \n');
    const a = await run('-f', empty);
    expect(a.code).toBe(2);
    expect(a.stderr).toBe(`sidecar-render: ${empty}: empty input, nothing to audit\n`);
    const rulesOf = async (...args: string[]) => (JSON.parse((await run('--output', 'json', ...args)).stdout) as { rule: string }[]).map((f) => f.rule);
    const single = await rulesOf('-f', hazard);
    expect(single.length).toBeGreaterThan(0);
    expect(await rulesOf(hazard)).toEqual(single);
    expect(await rulesOf('--filename', hazard)).toEqual(single);
  });

  it('--native-sidecars takes true, false or auto, and the flag alone means true', async () => {
    const raw = join(dir, 'job.yaml');
    writeFileSync(raw, 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: n}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - {name: app, image: app}\n');
    const rulesOf = async (...args: string[]) => (JSON.parse((await run('--output', 'json', '--model', '-f', raw, ...args)).stdout) as { rule: string }[]).map((f) => f.rule);
    expect(await rulesOf('--native-sidecars', 'false')).toContain('job-never-completes');
    expect(await rulesOf('--native-sidecars')).not.toContain('job-never-completes');
    expect(await rulesOf('--native-sidecars', 'true')).not.toContain('job-never-completes');
    const bad = await run('-f', raw, '--native-sidecars', 'maybe');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('sidecar-render: --native-sidecars must be one of auto, true, false, not "maybe"\n');
  });

  it('malformed embedded values point into the ConfigMap', async () => {
    const bad = join(dir, 'badvalues.yaml');
    writeFileSync(bad, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: istio-sidecar-injector\ndata:\n  values: |\n    {"global": {"proxy": [}\n');
    const r = await run('-f', bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/badvalues\.yaml:7:\d+: /);
  });

  it('--timeline explains start-up and shutdown; svg is a standalone document', async () => {
    const t = await run('-f', hazard, '--timeline', '--no-color');
    expect(t.code).toBe(1);
    expect(t.stdout).toContain('Start-up:');
    expect(t.stdout).toContain('Shutdown (on deletion):');
    expect(t.stdout).toContain('SIGKILL');
    const svg = await run('-f', join(fixtures, 'seeds', '003-job-fixed.yaml'), '--timeline', '--timeline-format', 'svg');
    expect(svg.stdout.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.stdout.trim().endsWith('</svg>')).toBe(true);
    expect(svg.stdout).not.toMatch(/<script|href=/);
  });

  it('--timeline exits as the report does: the same hazard, the same exit code', async () => {
    const job = join(fixtures, 'seeds', '003-job-hazard.yaml');
    const report = await run('-q', '-f', job);
    const t = await run('-f', job, '--timeline', '--no-color');
    expect(t.stdout).toContain('!! Completion: never');
    expect(report.code).toBe(1);
    expect(t.code).toBe(report.code);
    expect(t.stderr).toMatch(/^audit: 1 finding at or above error \(the report without --timeline lists them\)$/m);
    for (const f of [join(fixtures, 'seeds', '003-job-fixed.yaml'), join(fixtures, 'native-sidecar-unordered', 'positive-cloudsql-proxy.yaml')]) {
      for (const failOn of ['error', 'warning']) {
        expect((await run('-q', '-f', f, '--timeline', '--fail-on', failOn)).code, `${f} ${failOn}`).toBe((await run('-q', '-f', f, '--fail-on', failOn)).code);
      }
    }
  });

  it('a template that does not parse is bad input (exit 2); one that fails on a pod is a finding on that pod, never a silent fall-back; --model asks for the model', async () => {
    const cm = (body: string) =>
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: istio-sidecar-injector, namespace: istio-system}\ndata:\n  config: |-\n    policy: enabled\n    template: |\n' +
      body.split('\n').map((l) => `      ${l}`).join('\n') +
      '\n  values: \'{"global": {"hub": "docker.io/istio", "tag": "1.20.3", "proxy": {}}}\'\n';
    const job = '---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: batch}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - {name: app, image: app}\n';
    const good = 'containers:\n- name: istio-proxy\n  image: "{{ .Values.global.hub }}/proxyv2:{{ .Values.global.tag }}"\n  args: [proxy, sidecar]';
    const missingFn = join(dir, 'missing-func.yaml');
    writeFileSync(missingFn, cm(good.replace('{{ .Values.global.tag }}', '{{ noSuchFunction .Values.global.tag }}')) + job);
    const failing = join(dir, 'failing-template.yaml');
    writeFileSync(failing, cm(good.replace('{{ .Values.global.tag }}', '{{ index .Values.global.proxy "a" "b" }}')) + job);
    // a function the release lacks: the template does not parse, for any pod (as render says)
    const r = await run('-f', missingFn, '-o', 'json');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('Job/batch/j');
    expect(r.stderr).toContain('--model');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // a template that fails as it runs on this pod: istiod rejects the pod, which is what the audit reports
    const f = await run('-q', '-f', failing, '-o', 'json');
    expect(f.code, f.stderr).toBe(1);
    const rows = JSON.parse(f.stdout) as { rule: string; message: string; location: string; workload: string }[];
    expect(rows.map((x) => x.rule)).toEqual(['injection-fails']);
    expect(rows[0]!.workload).toBe('Job/batch/j');
    expect(rows[0]!.message).toMatch(/^istiod's injector fails on this pod: .*failing-template\.yaml:\d+:\d+: template: .*error calling index/);
    expect(rows[0]!.location).toMatch(/failing-template\.yaml:\d+:\d+$/);
    for (const file of [missingFn, failing]) {
      const m = await run('-f', file, '--model', '-o', 'json');
      expect(m.code).toBe(1);
      expect((JSON.parse(m.stdout) as { rule: string }[]).map((x) => x.rule)).toContain('job-never-completes');
    }
    // the same ConfigMap with a template that works renders the Job with the release in its tag
    const ok = join(dir, 'working-template.yaml');
    writeFileSync(ok, cm(good) + job);
    const w = await run('-f', ok, '-o', 'json');
    expect(w.code, w.stderr).toBe(1);
    const found = JSON.parse(w.stdout) as { rule: string; fix: string }[];
    expect(found.find((x) => x.rule === 'job-never-completes')?.fix).toContain('Istio 1.20.3');
  });

  it('a workload the injector cannot render does not stop the audit of the others', async () => {
    const dump = join(fixtures, 'injection-fails', 'positive-template-not-found.yaml');
    const text = readFileSync(dump, 'utf8');
    const more = join(dir, 'dump-with-one-unrenderable.yaml');
    const job = (name: string) => `---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: ${name}, namespace: batch}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - {name: app, image: app}\n`;
    writeFileSync(more, job('before') + '---\n' + text + job('after'));
    const r = await run('-q', '-f', more, '-o', 'json');
    expect(r.code, r.stderr).toBe(1);
    const rows = JSON.parse(r.stdout) as { rule: string; workload: string }[];
    expect(rows.map((x) => `${x.workload} ${x.rule}`)).toEqual(['Job/batch/before job-never-completes', 'Deployment/shop/payments injection-fails', 'Job/batch/after job-never-completes']);
  });

  it('--list-rules lists every rule, and so does docs/commands.md', async () => {
    const r = await run('--list-rules');
    const listed = r.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 2).join(' '));
    expect(listed).toEqual(RULES.map((x) => `${x.id} ${x.severity}`));
    const readme = readFileSync(join(import.meta.dirname, '../../docs/commands.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `([a-z-]+)` \| ([a-z /]+) \|/gm)].map((m) => `${m[1]} ${m[2]!.split(' ')[0]}`);
    expect(rows).toEqual(listed);
  });
});
