// `diff`: two injector setups compared workload by workload: field changes, the lifecycle summary and
// the audit findings that appear or go; exit 1 when anything differs.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { diffInjection, failures, fieldChanges, showChange, type DiffReport } from '../../src/diff/diff.js';
import { cli } from '../helpers/cli.js';
import { outside } from '../helpers/outside.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const mini = join(root, 'test/helm/fixtures/mini-istiod');
const example = join(root, 'examples/istio-sidecar-injector.yaml');
const seeds = join(root, 'test/golden/seeds/workloads');
const job = join(seeds, 'job.yaml');
const deployment = join(seeds, 'deployment.yaml');
const charts = outside('charts', ...['1.20.0', '1.24.0', '1.28.0'].map((v) => `${v}/istio-discovery`)) ?? '';

describe('fieldChanges', () => {
  it('matches named list items by name and reports an order change once', () => {
    const a = { spec: { containers: [{ name: 'app', image: 'a:1' }, { name: 'istio-proxy', image: 'p:1' }] } };
    const b = { spec: { containers: [{ name: 'istio-proxy', image: 'p:2' }, { name: 'app', image: 'a:1' }], x: 1 } };
    expect(fieldChanges(a, b)).toEqual([
      { path: 'spec.containers[istio-proxy].image', op: 'changed', from: 'p:1', to: 'p:2' },
      { path: 'spec.containers (order)', op: 'changed', from: ['app', 'istio-proxy'], to: ['istio-proxy', 'app'] },
      { path: 'spec.x', op: 'added', to: 1 },
    ]);
    expect(fieldChanges(a, structuredClone(a))).toEqual([]);
  });

  it('leaves out a field that is null on one side and absent on the other (creationTimestamp: null)', () => {
    expect(fieldChanges({ metadata: { creationTimestamp: null, labels: { a: '1' } } }, { metadata: { labels: { a: '1' } } })).toEqual([]);
    expect(fieldChanges({ metadata: {} }, { metadata: { creationTimestamp: null } })).toEqual([]);
    expect(fieldChanges({ a: null }, { a: 'x' })).toEqual([{ path: 'a', op: 'changed', from: null, to: 'x' }]);
  });

  it('shows two long values around where they differ, so they never read the same once cut', () => {
    const status = (rev: string) => `{"initContainers":["istio-init"],"containers":["istio-proxy"],"volumes":["workload-socket","credential-socket","workload-certs","istio-envoy","istio-data","istio-podinfo","istio-token","istiod-ca-cert"],"imagePullSecrets":null,"revision":"${rev}"}`;
    const [a, b] = showChange(status('default'), status('canary'));
    expect(a).not.toBe(b);
    expect(a).toMatch(/^\.\.\..*"revision\\":\\"default\\"}"$/);
    expect(b).toMatch(/"revision\\":\\"canary\\"}"$/);
    expect(a.length).toBeLessThanOrEqual(126);
    expect(showChange('short', 'other')).toEqual(['"short"', '"other"']);
  });
});

describe('diffInjection', () => {
  it('the same setup on both sides: nothing changed', () => {
    const r = diffInjection({ chart: { chart: mini } }, { chart: { chart: mini } }, [deployment, job]);
    expect(r.changed).toBe(0);
    expect(r.workloads.map((w) => w.workload)).toEqual(['Deployment default/httpbin', 'Job default/native-sidecar-test']);
  });

  it('hold turned on in the chart values: proxy order, postStart and hold in the summary; the finding it causes appears', () => {
    const r = diffInjection({ chart: { chart: mini } }, { chart: { chart: mini, set: ['global.proxy.holdApplicationUntilProxyStarts=true'] } }, [job]);
    const w = r.workloads[0]!;
    expect(w.changed).toBe(true);
    expect(Object.fromEntries(w.lifecycle.map((l) => [l.aspect, [l.from, l.to]]))).toEqual({
      'proxy order': ['container 2 of 2', 'container 1 of 2'],
      postStart: ['none', 'exec: pilot-agent wait'],
      'hold application until proxy starts': ['no', 'yes'],
    });
    expect(w.findingsAppeared.map((f) => f.rule)).toContain('hold-with-restart-never');
    expect(w.findingsGone).toEqual([]);
    expect(w.changes.map((c) => c.path)).toContain('spec.template.spec.containers[istio-proxy].lifecycle');
  });

  it('a ConfigMap export against the same export with a values override', () => {
    const r = diffInjection({ injectorConfigMap: example }, { injectorConfigMap: example, set: ['global.proxy.holdApplicationUntilProxyStarts=true'] }, [deployment]);
    expect(r.changed).toBe(1);
    expect(r.workloads[0]!.lifecycle.find((l) => l.aspect === 'hold application until proxy starts')).toEqual({ aspect: 'hold application until proxy starts', from: 'no', to: 'yes' });
  });

  it("a ConfigMap side's values files and sets reach its audit as they reach its render", () => {
    const drain = join(root, 'values/lifecycle-drain.json');
    const r = diffInjection({ injectorConfigMap: example }, { injectorConfigMap: example, valuesFiles: [drain], set: ['global.proxy.holdApplicationUntilProxyStarts=true'] }, [deployment]);
    const w = r.workloads[0]!;
    expect(w.lifecycle.find((l) => l.aspect === 'postStart')).toBeUndefined();
    expect(w.findingsAppeared.map((f) => f.rule)).toEqual(['hold-dropped-by-lifecycle']);
    const back = diffInjection({ injectorConfigMap: example, valuesFiles: [drain], set: ['global.proxy.holdApplicationUntilProxyStarts=true'] }, { injectorConfigMap: example }, [deployment]);
    expect(back.workloads[0]!.findingsGone.map((f) => f.rule)).toEqual(['hold-dropped-by-lifecycle']);
  });
});

describe('sidecar-render diff', () => {
  it('exit 0 and "0 changed" when nothing differs; exit 1 and the summary when something does', async () => {
    const same = await cli('diff', '--from', mini, '--to', mini, '-f', job);
    expect(same.code).toBe(0);
    // unchanged is not healthy: the Job's finding, present on both sides, stays in view
    expect(same.stdout).toMatch(/^Job default\/native-sidecar-test: unchanged\n {2}= finding \(still present\) error job-never-completes \[istio-proxy\]: This Job runs a classic istio-proxy sidecar .*\n1 workload, 0 changed; 1 finding still present\n$/);
    const both = await cli('diff', '--from', mini, '--to', mini, '-f', job, deployment);
    expect(both.stdout).toMatch(/\n2 workloads, 0 changed; 1 finding still present\n$/);
    const changed = await cli('diff', '--from', mini, '--to', mini, '--to-set', 'global.proxy.holdApplicationUntilProxyStarts=true', '-f', job);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('  lifecycle:\n    proxy order: container 2 of 2 -> container 1 of 2\n');
    expect(changed.stdout).toMatch(/\n {2}\+ finding \(new\) warning hold-with-restart-never \[istio-proxy\]: /);
    expect(changed.stdout).toMatch(/\n {2}= finding \(still present\) error job-never-completes \[istio-proxy\]: /);
    const json = await cli('diff', '--from', mini, '--to', mini, '--to-set', 'global.proxy.image=other', '-f', job, '-o', 'json');
    const report = JSON.parse(json.stdout) as DiffReport;
    expect(report.changed).toBe(1);
    expect(report.workloads[0]!.changes).toContainEqual({ path: 'spec.template.spec.containers[istio-proxy].image', op: 'changed', from: 'proxyv2', to: 'other' });
  });

  it('takes the run options render takes: a directory of workloads, the release, the revision, the mode', async () => {
    const dir = await cli('diff', '--from', mini, '--to', mini, '-f', seeds, '-o', 'json');
    expect((JSON.parse(dir.stdout) as DiffReport).workloads.map((w) => w.workload)).toContain('Job default/native-sidecar-test');
    expect((JSON.parse(dir.stdout) as DiffReport).workloads).toHaveLength(3);
    const rev = await cli('diff', '--from', mini, '--to', mini, '--revision', 'canary', '-f', job, '-o', 'json');
    expect(rev.code).toBe(0);
    const plain = await cli('diff', '--from', mini, '--to', mini, '-f', job, '--mode', 'kube-inject', '--istio-version', '1.24', '-q');
    expect(plain.code).toBe(0);
    const bad = await cli('diff', '--from', mini, '--to', mini, '-f', job, '--istio-version', '1.99');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unsupported Istio version "1\.99"/);
  });

  it('bad input is one line and exit 2', async () => {
    const r = await cli('diff', '--from', mini, '--to', join(root, 'nope.yaml'), '-f', job);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/nope\.yaml: no such file/);
    const iop = await cli('diff', '--from', example, '--from-iop', example, '--to', mini, '-f', job);
    expect(iop.code).toBe(2);
    expect(iop.stderr).toMatch(/--from must name a chart/);
    const operator = join(root, 'test/helm/fixtures/operator.yaml');
    const alone = await cli('diff', '--from', operator, '--to', mini, '-f', job);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/operator\.yaml is an IstioOperator, which needs a chart to render: give --from CHART --from-iop /);
  });
});

describe('diff in CI: --fail-on, and what a side assumes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'diff-ci-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // the example injector with a label and an env value of its own: an upgrade that changes nothing else
  const release = (n: string): string => {
    const text = readFileSync(example, 'utf8')
      .replace('          labels:\n', `          labels:\n            sidecar.example.com/injector: "v${n}"\n`)
      .replace('            env:\n', `            env:\n            - name: SIDECAR_EXAMPLE_RELEASE\n              value: "${n}"\n`);
    expect(text).toContain(`SIDECAR_EXAMPLE_RELEASE`);
    const f = join(dir, `injector-${n}.yaml`);
    writeFileSync(f, text);
    return f;
  };
  const v1 = release('1');
  const v2 = release('2');
  const run = (...args: string[]) => cli('diff', '-q', '--from', v1, '--to', v2, '-f', deployment, ...args);

  it('an upgrade that only changes labels and env values: changed, but --fail-on lifecycle and findings pass', async () => {
    const r = await run('-o', 'json');
    const report = JSON.parse(r.stdout) as DiffReport;
    expect(report.workloads[0]!.changes.map((c) => c.path).sort()).toEqual(['spec.template.metadata.labels.sidecar.example.com/injector', 'spec.template.spec.containers[istio-proxy].env[SIDECAR_EXAMPLE_RELEASE].value']);
    expect(report.workloads[0]!.lifecycle).toEqual([]);
    expect(r.code).toBe(1);
    expect((await run('--fail-on', 'changes')).code).toBe(1);
    expect((await run('--fail-on', 'lifecycle')).code).toBe(0);
    expect((await run('--fail-on', 'findings')).code).toBe(0);
  });

  it('one that moves the proxy (the hold turned on) fails --fail-on lifecycle', async () => {
    const r = await run('--to-set', 'global.proxy.holdApplicationUntilProxyStarts=true', '--fail-on', 'lifecycle');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('proxy order: container 2 of 2 -> container 1 of 2');
    expect(r.stdout).toMatch(/\n1 workload, 1 changed; 1 with a lifecycle change\n$/);
  });

  it('--fail-on findings fails on a new finding at or above the severity, not on one still present', async () => {
    const hazard = ['--to-values', join(root, 'values/lifecycle-drain.json'), '--to-set', 'global.proxy.holdApplicationUntilProxyStarts=true'];
    expect((await run(...hazard, '--fail-on', 'findings')).code).toBe(1);
    expect((await run(...hazard, '--fail-on', 'findings:warning')).code).toBe(1);
    const report = diffInjection({ injectorConfigmap: v1 }, { injectorConfigmap: v2 }, [job]);
    expect(report.workloads[0]!.findingsStill.map((f) => f.rule)).toEqual(['job-never-completes']);
    expect(failures(report, 'findings:info')).toEqual([]);
    expect(failures(report, 'lifecycle')).toEqual([]);
    expect(failures(report, 'changes')).toHaveLength(1);
    const bad = await run('--fail-on', 'nothing');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('sidecar-render: --fail-on must be one of changes, lifecycle, findings, findings:error, findings:warning, findings:info, not "nothing"\n');
  });

  it('a workload the injector cannot render does not stop the diff: it is reported, the others compared', async () => {
    const custom = join(dir, 'with-custom-template.yaml');
    writeFileSync(custom, readFileSync(deployment, 'utf8').replace(/\n---\s*$/, '') + '\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: custom, namespace: default}\nspec:\n  template:\n    metadata:\n      annotations: {inject.istio.io/templates: "sidecar,custom"}\n    spec:\n      containers:\n      - {name: app, image: app}\n');
    const r = await cli('diff', '-q', '--from', v1, '--to', v1, '--to-set', 'global.proxy.holdApplicationUntilProxyStarts=true', '-f', custom, '-o', 'json', '--fail-on', 'lifecycle');
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as DiffReport;
    expect(report.workloads.map((w) => [w.workload, w.changed])).toEqual([['Deployment default/httpbin', true], ['Deployment default/custom', false]]);
    const failed = report.workloads[1]!;
    expect(failed.errors.to).toMatch(/requested template "custom" not found/);
    expect(failed.findingsStill.map((f) => f.rule)).toEqual(['injection-fails']);
  });

  it("warns when a side's behaviour hangs on the Kubernetes version and none was given", async () => {
    const r = await run('--istio-version', '1.28');
    expect(r.stderr.trim().split('\n')).toEqual([
      'sidecar-render: warning: --from: Istio 1.28 runs the proxy as a native sidecar on Kubernetes 1.33 or later (ENABLE_NATIVE_SIDECARS not set), and no --kube-version was given, so this report shows a cluster older than 1.33; give --kube-version to see what the upgrade does on yours',
      'sidecar-render: warning: --to: Istio 1.28 runs the proxy as a native sidecar on Kubernetes 1.33 or later (ENABLE_NATIVE_SIDECARS not set), and no --kube-version was given, so this report shows a cluster older than 1.33; give --kube-version to see what the upgrade does on yours',
    ]);
    expect((await run('--istio-version', '1.28', '--kube-version', '1.33')).stderr).toBe('');
    expect((await run('--istio-version', '1.28', '--native-sidecars', 'false')).stderr).toBe('');
    expect((await run('--istio-version', '1.24')).stderr).toBe('');
    expect(diffInjection({ injectorConfigmap: v1 }, { injectorConfigmap: v2 }, [deployment], { istioVersion: '1.28' }).warnings).toHaveLength(2);
  });
});

describe.skipIf(!charts)("Istio's istiod charts", () => {
  it('1.20 -> 1.24 on the seed workloads: no lifecycle change, hold requested in 1.24 values moves the proxy first', () => {
    const r = diffInjection({ chart: { chart: join(charts, '1.20.0/istio-discovery') } }, { chart: { chart: join(charts, '1.24.0/istio-discovery') } }, [deployment, job], { kubeVersion: '1.33' });
    for (const w of r.workloads) {
      expect(w.lifecycle).toEqual([]);
      expect(w.after['proxy order']).toMatch(/^container \d of 2$/);
      expect(w.after.startupProbe).toBe('httpGet /healthz/ready :15021 (periodSeconds=1, timeoutSeconds=3, failureThreshold=600)');
    }
    // 1.24 drops the JWT_POLICY variable 1.20 set: the only change
    expect(r.workloads[0]!.changes.map((c) => `${c.op} ${c.path}`)).toEqual(['removed spec.template.spec.containers[istio-proxy].env[JWT_POLICY]']);
    const hold = diffInjection(
      { chart: { chart: join(charts, '1.20.0/istio-discovery') } },
      { chart: { chart: join(charts, '1.24.0/istio-discovery'), set: ['global.proxy.holdApplicationUntilProxyStarts=true'] } },
      [deployment],
      { kubeVersion: '1.33' },
    );
    expect(hold.workloads[0]!.lifecycle.map((l) => l.aspect)).toEqual(['proxy order', 'postStart', 'hold application until proxy starts']);
  });

  it('1.24 -> 1.28 with Kubernetes 1.33: the Job gets a native sidecar, its job-never-completes finding goes', () => {
    const r = diffInjection({ chart: { chart: join(charts, '1.24.0/istio-discovery') } }, { chart: { chart: join(charts, '1.28.0/istio-discovery') } }, [job], { kubeVersion: '1.33' });
    const w = r.workloads[0]!;
    expect(w.lifecycle.find((l) => l.aspect === 'native sidecar')?.to).toMatch(/^yes/);
    expect(w.lifecycle.find((l) => l.aspect === 'preStop')).toEqual({ aspect: 'preStop', from: 'none', to: 'exec: pilot-agent request --debug-port=15020 POST drain' });
    expect(w.findingsGone.map((f) => f.rule)).toContain('job-never-completes');
  });

  it('1.24 -> 1.28 without --kube-version: a warning that the target turns native sidecars on by itself on 1.33+', () => {
    const r = diffInjection({ chart: { chart: join(charts, '1.24.0/istio-discovery') } }, { chart: { chart: join(charts, '1.28.0/istio-discovery') } }, [job]);
    expect(r.warnings).toEqual([expect.stringMatching(/^--to: Istio 1\.28 runs the proxy as a native sidecar on Kubernetes 1\.33 or later/)]);
    expect(r.workloads[0]!.findingsStill.map((f) => f.rule)).toContain('job-never-completes');
  });
});
