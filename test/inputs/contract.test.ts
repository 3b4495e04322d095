// One input contract for every command and the library: the same files mean the same things to render,
// audit, diff and the library; Istio's ConfigMaps are found in whatever file holds them; a file that is
// not what its flag asks for is an error naming what it is; conflicting sources are an error naming both;
// the assumptions line says where the injector config, the values and the mesh config came from.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { renderRequest } from '../../src/output/render.js';
import { auditDetailed } from '../../src/audit/index.js';
import { diffInjection } from '../../src/diff/diff.js';
import { INPUT_OPTIONS } from '../../src/inputs/options.js';

const root = join(import.meta.dirname, '..', '..');
const ex = (f: string) => join(root, 'examples', f);
const CM = ex('istio-sidecar-injector.yaml');
const MESH = ex('istio-mesh.yaml');
const DEPLOY = ex('deployment.yaml');
const cmText = readFileSync(CM, 'utf8');
const meshText = readFileSync(MESH, 'utf8');

const dir = mkdtempSync(join(tmpdir(), 'inputs-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const indent = (t: string, by: string) =>
  t
    .trimEnd()
    .split('\n')
    .map((l, i) => (i === 0 ? `- ${l}` : `${by}${l}`))
    .join('\n');
/** What `helm template -s templates/configmap.yaml -s templates/istiod-injector-configmap.yaml` prints. */
const HELM = file('helm-output.yaml', `---\n# Source: istiod/templates/configmap.yaml\n${meshText}---\n# Source: istiod/templates/istiod-injector-configmap.yaml\n${cmText}`);
/** What `kubectl get cm istio istio-sidecar-injector -o yaml` prints. */
const LIST = file('kubectl-list.yaml', `apiVersion: v1\nkind: List\nitems:\n${indent(meshText, '  ')}\n${indent(cmText, '  ')}\n`);
const withName = (text: string, from: string, to: string) => text.replace(`name: ${from}\n`, `name: ${to}\n`);

/** The containers of the one merged workload render prints as JSON. */
const containers = (stdout: string) => (JSON.parse(stdout) as { spec: { template: { spec: { containers: { name: string }[] } } } }).spec.template.spec.containers.map((c) => c.name);
const assumptionsOf = (stderr: string) => stderr.split('\n').find((l) => l.startsWith('sidecar-render: assuming')) ?? '';

describe('a file holding both ConfigMaps means the same to every command', () => {
  for (const [what, both] of [
    ['helm template output', HELM],
    ['a kubectl List', LIST],
  ] as const) {
    it(`${what}: render --injector-configmap takes the mesh ConfigMap beside the injector's (hold: the proxy first)`, async () => {
      const r = await cli('render', '--injector-configmap', both, '-f', DEPLOY, '--merged', '-o', 'json');
      expect(r.code).toBe(0);
      expect(containers(r.stdout)).toEqual(['istio-proxy', 'reviews']);
      expect(assumptionsOf(r.stderr)).toContain(`mesh config: ConfigMap istio-system/istio in ${both}`);
      const lib = renderRequest({ injectorConfigmap: both, filename: DEPLOY, merged: true, output: 'json' });
      expect(lib.text).toBe(r.stdout);
      // without the mesh ConfigMap there is no hold: the proxy goes last
      const alone = await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--merged', '-o', 'json');
      expect(containers(alone.stdout)).toEqual(['reviews', 'istio-proxy']);
    });

    it(`${what}: --mesh takes the mesh ConfigMap from it, with no warning`, async () => {
      const r = await cli('render', '--injector-configmap', CM, '--mesh', both, '-f', DEPLOY, '--merged', '-o', 'json');
      expect(r.code).toBe(0);
      expect(containers(r.stdout)).toEqual(['istio-proxy', 'reviews']);
      expect(r.stderr).not.toMatch(/warning/);
      expect(assumptionsOf(r.stderr)).toContain(`mesh config: ConfigMap istio-system/istio in ${both}`);
    });

    it(`${what}: audit --mesh sees the mesh-wide hold that a custom lifecycle drops`, async () => {
      const args = ['--injector-configmap', CM, '--mesh', both, '-f', DEPLOY, '--set-string', 'global.proxy.lifecycle.preStop.exec.command={sleep,5}', '-o', 'json'];
      const r = await cli('audit', ...args);
      expect(r.code).toBe(1);
      expect((JSON.parse(r.stdout) as { rule: string }[]).map((f) => f.rule)).toContain('hold-dropped-by-lifecycle');
      const lib = auditDetailed([DEPLOY], { injectorConfigmap: CM, mesh: both, setString: ['global.proxy.lifecycle.preStop.exec.command={sleep,5}'] });
      expect(lib.findings.map((f) => f.rule)).toContain('hold-dropped-by-lifecycle');
      // and the same with the file as the injector ConfigMap alone
      const beside = auditDetailed([DEPLOY], { injectorConfigmap: both, setString: ['global.proxy.lifecycle.preStop.exec.command={sleep,5}'] });
      expect(beside.findings.map((f) => f.rule)).toContain('hold-dropped-by-lifecycle');
    });
  }

  it('diff reads each side as render does, and says where each side came from', async () => {
    const r = await cli('diff', '--from', CM, '--to', HELM, '-f', DEPLOY);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('hold application until proxy starts: no -> yes');
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^sidecar-render: --from: assuming .*; mesh config: none \(Istio's defaults\)$/);
    expect(lines[1]).toMatch(new RegExp(`^sidecar-render: --to: assuming .*; mesh config: ConfigMap istio-system/istio in ${HELM.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    expect((await cli('diff', '-q', '--from', CM, '--to', HELM, '-f', DEPLOY)).stderr).toBe('');
    const lib = diffInjection({ injectorConfigmap: CM }, { injectorConfigmap: HELM }, [DEPLOY]);
    expect(lib.workloads[0]!.lifecycle.map((l) => l.aspect)).toContain('hold application until proxy starts');
    expect(lib.assumptions.to).toContain(`mesh config: ConfigMap istio-system/istio in ${HELM}`);
  });
});

describe('golden says what a changed case assumed', () => {
  it('one assumptions line per different input set of the cases that changed; none for a clean run', async () => {
    const matrix = file('golden.yaml', `goldenDir: out\ncases:\n  - name: both\n    injectorConfigmap: ${HELM}\n    filename: ${DEPLOY}\n    merged: true\n  - name: alone\n    injectorConfigmap: ${CM}\n    filename: ${DEPLOY}\n    merged: true\n`);
    expect((await cli('golden', 'update', matrix)).code).toBe(0);
    const clean = await cli('golden', 'check', matrix);
    expect([clean.code, clean.stderr]).toEqual([0, '']);
    // the mesh's hold changes under the case that reads it, and only that case says where its mesh came from
    const over = await cli('golden', 'check', '--mesh', file('no-hold.yaml', meshText.replace('holdApplicationUntilProxyStarts: true', 'holdApplicationUntilProxyStarts: false')), matrix);
    expect(over.code).toBe(1);
    const lines = over.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^sidecar-render: case both: assuming Istio .*; injector config: ConfigMap istio-system\/istio-sidecar-injector in .*helm-output\.yaml; values: data\.values of .*; mesh config: ConfigMap istio-system\/istio in .*no-hold\.yaml$/);
    expect((await cli('golden', 'check', '-q', '--mesh', join(dir, 'no-hold.yaml'), matrix)).stderr).toBe('');
  });
});

describe('a file that is not what its flag asks for is an error naming what it is', () => {
  for (const [flag, want] of [
    ['--injector-configmap', 'a Deployment, not the istio-sidecar-injector ConfigMap (--injector-configmap)'],
    ['--mesh', 'a Deployment, not the istio mesh ConfigMap (--mesh)'],
    ['--values', 'a Deployment, not injector values (--values)'],
    ['--iop', 'a Deployment, not an IstioOperator (--iop)'],
  ] as const) {
    it(`${flag} deployment.yaml`, async () => {
      const args = flag === '--injector-configmap' ? [flag, DEPLOY] : ['--injector-configmap', CM, flag, DEPLOY];
      for (const cmd of ['render', 'audit']) {
        const r = await cli(cmd, ...args, '-f', DEPLOY);
        expect(r.code, cmd).toBe(2);
        expect(r.stderr, cmd).toBe(`sidecar-render: ${DEPLOY}:1:1: ${want}\n`);
      }
      const key = { '--injector-configmap': 'injectorConfigmap', '--mesh': 'mesh', '--values': 'values', '--iop': 'iop' }[flag];
      const opts = { injectorConfigmap: CM, [key]: key === 'iop' ? [DEPLOY] : DEPLOY };
      expect(() => renderRequest({ ...opts, filename: DEPLOY })).toThrow(`${DEPLOY}:1:1: ${want}`);
      expect(() => auditDetailed([DEPLOY], opts)).toThrow(`${DEPLOY}:1:1: ${want}`);
    });
  }
});

describe('ConfigMaps are known by kind, name and revision', () => {
  it('a ConfigMap of another name is taken with a warning naming it; its namespace is in the assumptions line', async () => {
    const other = file('other-name.yaml', withName(cmText, 'istio-sidecar-injector', 'my-injector').replace('namespace: istio-system', 'namespace: mesh-control'));
    const r = await cli('render', '--injector-configmap', other, '-f', DEPLOY);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${other}:1:1: warning: ConfigMap mesh-control/my-injector is not named istio-sidecar-injector; taken as the injector config`);
    expect(assumptionsOf(r.stderr)).toContain(`injector config: ConfigMap mesh-control/my-injector in ${other}`);
  });

  it("a revision's -REV ConfigMaps are picked by --revision, and a lone one gives its revision", async () => {
    const canary = withName(cmText, 'istio-sidecar-injector', 'istio-sidecar-injector-canary').replace('policy: enabled', 'policy: disabled');
    const two = file('two-revisions.yaml', `${cmText}---\n${canary}`);
    const status = (stdout: string) => JSON.parse((JSON.parse(stdout) as { spec: { template: { metadata: { annotations: Record<string, string> } } } }).spec.template.metadata.annotations['sidecar.istio.io/status']!) as { revision: string };
    const def = await cli('render', '--injector-configmap', two, '-f', DEPLOY, '--merged', '-o', 'json');
    expect(status(def.stdout).revision).toBe('default');
    expect(assumptionsOf(def.stderr)).toContain('injector config: ConfigMap istio-system/istio-sidecar-injector in');
    const told = await cli('render', '--injector-configmap', two, '--revision', 'canary', '-f', DEPLOY, '--merged', '-o', 'json');
    // the canary's policy is disabled: the workload comes back as it was
    expect(told.stdout).not.toContain('istio-proxy');
    expect(assumptionsOf(told.stderr)).toContain('injector config: ConfigMap istio-system/istio-sidecar-injector-canary in');
    const lone = file('canary-only.yaml', withName(cmText, 'istio-sidecar-injector', 'istio-sidecar-injector-canary'));
    const r = await cli('render', '-q', '--injector-configmap', lone, '-f', DEPLOY, '--merged', '-o', 'json');
    expect(status(r.stdout).revision).toBe('canary');
  });

  it('two ConfigMaps of one kind and revision that differ are an error naming both', async () => {
    const changed = cmText.replace('policy: enabled', 'policy: disabled');
    const twice = file('twice.yaml', `${cmText}---\n${changed}`);
    const r = await cli('render', '--injector-configmap', twice, '-f', DEPLOY);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `sidecar-render: --injector-configmap ${twice}: ConfigMap istio-system/istio-sidecar-injector (${twice}:1:1) and ConfigMap istio-system/istio-sidecar-injector (${twice}:${cmText.split('\n').length + 1}:1) differ; give the one to use with its own flag\n`,
    );
    // a mesh ConfigMap in the workloads that differs from the one beside the injector's
    const otherMesh = file('dump.yaml', `${meshText.replace('holdApplicationUntilProxyStarts: true', 'holdApplicationUntilProxyStarts: false')}---\n${readFileSync(DEPLOY, 'utf8')}`);
    const both = await cli('render', '--injector-configmap', HELM, '-f', otherMesh);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^sidecar-render: the inputs: ConfigMap istio-system\/istio \(.*helm-output\.yaml:\d+:1\) and ConfigMap istio-system\/istio \(.*dump\.yaml:1:1\) differ; give the one to use with its own flag\n$/);
    // the flag of its kind decides, whatever the files hold
    const flagged = await cli('render', '-q', '--injector-configmap', HELM, '--mesh', MESH, '-f', otherMesh, '--merged', '-o', 'json');
    expect(flagged.code).toBe(0);
  });

  it('a dump given with -f carries the ConfigMaps its workloads are injected with', async () => {
    const dump = file('cluster.yaml', `${meshText}---\n${cmText}---\n${readFileSync(DEPLOY, 'utf8')}`);
    const r = await cli('render', '-f', dump, '--merged', '-o', 'json');
    expect(r.code).toBe(0);
    const docs = JSON.parse(r.stdout) as { kind: string }[];
    expect(docs.map((d) => d.kind)).toEqual(['ConfigMap', 'ConfigMap', 'Deployment']);
    expect(containers(JSON.stringify(docs[2]))).toEqual(['istio-proxy', 'reviews']);
    expect(assumptionsOf(r.stderr)).toContain(`injector config: ConfigMap istio-system/istio-sidecar-injector in ${dump}; values: data.values of ConfigMap istio-system/istio-sidecar-injector in ${dump}; mesh config: ConfigMap istio-system/istio in ${dump}`);
    const lib = renderRequest({ filename: dump, merged: true });
    expect(lib.results.map((x) => x.hold)).toEqual([true]);
  });
});

describe('the library takes the flags, in camelCase', () => {
  const camel = (flag: string) => flag.replace(/^-\w, /, '').split(' ')[0]!.replace(/^--/, '').replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());

  it('every input option is its flag in camelCase', () => {
    for (const o of INPUT_OPTIONS) expect(o.key, o.flag).toBe(camel(o.flag));
  });

  it('docs/options.md lists every flag and option', () => {
    const doc = readFileSync(join(root, 'docs', 'options.md'), 'utf8');
    for (const o of INPUT_OPTIONS) expect(doc, o.key).toMatch(new RegExp(`\\| \`${o.flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\` \\| \`${o.key}\` \\|`));
  });

  it('a chart is an input of audit and render alike, in the library as on the command line', async () => {
    const mini = join(root, 'test/helm/fixtures/mini-istiod');
    const set = ['global.proxy.holdApplicationUntilProxyStarts=true'];
    const rendered = renderRequest({ chart: mini, chartSet: set, filename: DEPLOY, merged: true });
    expect(rendered.results.map((x) => x.hold)).toEqual([true]);
    expect(rendered.assumptions).toContain(`injector config: chart ${mini}`);
    const job = join(root, 'test/golden/seeds/workloads/job.yaml');
    const lib = auditDetailed([job], { chart: mini, chartSet: set });
    expect(lib.findings.map((f) => f.rule)).toContain('hold-with-restart-never');
    expect(lib.assumptions).toContain(`injector config: chart ${mini}`);
    const flags = await cli('audit', '-q', '--chart', mini, '--chart-set', set[0]!, '-f', job, '-o', 'json', '--per-workload');
    expect(JSON.parse(flags.stdout)).toEqual(JSON.parse(JSON.stringify(lib.findings)));
    // without the chart's hold, no finding of it
    expect(auditDetailed([job], { chart: mini }).findings.map((f) => f.rule)).not.toContain('hold-with-restart-never');
  });

  it('render, audit and diff take the same options as the command line', async () => {
    const flags = await cli('render', '-q', '--injector-configmap', CM, '--mesh', MESH, '-f', DEPLOY, '--set', 'global.tag=1.24.1', '--merged');
    expect(renderRequest({ injectorConfigmap: CM, mesh: MESH, filename: [DEPLOY], set: ['global.tag=1.24.1'], merged: true }).text).toBe(flags.stdout);
    const audited = await cli('audit', '-q', '--injector-configmap', CM, '--mesh', MESH, '-f', DEPLOY, '-o', 'json', '--per-workload');
    expect(JSON.parse(audited.stdout)).toEqual(JSON.parse(JSON.stringify(auditDetailed([], { injectorConfigmap: CM, mesh: MESH, filename: DEPLOY }).findings)));
  });
});
