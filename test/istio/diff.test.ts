// `diff`: two injector setups compared workload by workload: field changes, the lifecycle summary and
// the audit findings that appear or go; exit 1 when anything differs.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffInjection, fieldChanges, type DiffReport } from '../../src/diff/diff.js';
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
    expect(same.stdout).toBe('Job default/native-sidecar-test: unchanged\n1 workload, 0 changed\n');
    const both = await cli('diff', '--from', mini, '--to', mini, '-f', job, deployment);
    expect(both.stdout).toMatch(/\n2 workloads, 0 changed\n$/);
    const changed = await cli('diff', '--from', mini, '--to', mini, '--to-set', 'global.proxy.holdApplicationUntilProxyStarts=true', '-f', job);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('  lifecycle:\n    proxy order: container 2 of 2 -> container 1 of 2\n');
    expect(changed.stdout).toMatch(/\n {2}\+ finding warning hold-with-restart-never \[istio-proxy\]: /);
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
});
