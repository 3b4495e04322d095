// The injector inputs render, audit and golden share (src/cli/inputs.ts): each friction a new user met,
// through the command line.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { KNOWN_RELEASES } from '../../src/istio/version.js';
import { auditDetailed } from '../../src/audit/index.js';
import { cli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ex = (f: string) => join(root, 'examples', f);
const tpl = (f: string) => join(root, 'templates', f);
const vals = (f: string) => join(root, 'values', f);
const CM = ex('istio-sidecar-injector.yaml');

const made: string[] = [];
function tmp(files: Record<string, string> = {}): { dir: string; p: (f: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-inputs-'));
  made.push(dir);
  const p = (f: string) => join(dir, f);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(p(f), '..'), { recursive: true });
    writeFileSync(p(f), text);
  }
  return { dir, p };
}
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const deployment = (name: string) => readFileSync(ex('deployment.yaml'), 'utf8').replace(/name: reviews\b/, `name: ${name}`);
const sources = (stdout: string) => [...stdout.matchAll(/^# Source: (.*)$/gm)].map((m) => m[1]);

describe('workloads: -f repeats, directories, -R', () => {
  it('renders every file given with -f, in order', async () => {
    const { p } = tmp({ 'hello.yaml': deployment('hello'), 'job.yaml': deployment('job') });
    const r = await cli('render', '-q', '--injector-configmap', CM, '-f', p('hello.yaml'), '-f', p('job.yaml'));
    expect(r.code).toBe(0);
    expect(sources(r.stdout)).toEqual(['Deployment bookinfo/hello', 'Deployment bookinfo/job']);
  });

  it('reads a directory as kubectl does, its subdirectories only with -R', async () => {
    const { p } = tmp({ 'd/b.yaml': deployment('b'), 'd/a.yml': deployment('a'), 'd/notes.txt': 'not yaml', 'd/sub/c.json': JSON.stringify(parse(deployment('c'))) });
    const flat = await cli('render', '-q', '--injector-configmap', CM, '-f', p('d'));
    expect(flat.code).toBe(0);
    expect(sources(flat.stdout)).toEqual(['Deployment bookinfo/a', 'Deployment bookinfo/b']);
    const deep = await cli('render', '-q', '--injector-configmap', CM, '-f', p('d'), '-R');
    expect(sources(deep.stdout)).toEqual(['Deployment bookinfo/a', 'Deployment bookinfo/b', 'Deployment bookinfo/c']);
    const empty = tmp({ 'e/x.txt': '' });
    const none = await cli('render', '-q', '--injector-configmap', CM, '-f', join(empty.dir, 'e'));
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/e: no \.yaml, \.yml or \.json files in the directory/);
    expect(none.stdout).toBe('');
  });

  it('a missing second file fails the run before anything is printed', async () => {
    const { p } = tmp({ 'a.yaml': deployment('a') });
    const r = await cli('render', '-q', '--injector-configmap', CM, '-f', p('a.yaml'), '-f', p('gone.yaml'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`sidecar-render: ${p('gone.yaml')}: no such file\n`);
  });

  it('audit takes the same -f list and directories', async () => {
    const { p } = tmp({ 'd/a.yaml': deployment('a'), 'd/b.yaml': deployment('b') });
    const r = await cli('audit', '-q', '--injector-configmap', CM, '-f', p('d'), '-o', 'json', '--fail-on', 'info');
    expect(r.stderr).toBe('');
    const lib = auditDetailed([p('d/a.yaml'), p('d/b.yaml')], { injectorConfigMap: CM });
    expect(JSON.parse(r.stdout)).toEqual(lib.findings);
    expect(lib.subjects.map((s) => s.workload.id)).toEqual(['Deployment/bookinfo/a', 'Deployment/bookinfo/b']);
  });
});

describe('values: --values replaces, --values-file and --set merge', () => {
  it('--values replaces data.values and warns about what the templates then miss; --values-file merges', async () => {
    const { p } = tmp({ 'partial.yaml': 'global:\n  proxy:\n    holdApplicationUntilProxyStarts: true\n' });
    const replaced = await cli('render', '-q', '--injector-configmap', CM, '--values', p('partial.yaml'), '-f', ex('deployment.yaml'));
    expect(replaced.stdout).toContain('image: "<no value>/<no value>:<no value>"');
    expect(replaced.stderr).toMatch(new RegExp(`^${p('partial.yaml')}: warning: --values replaces the ConfigMap's data.values, and \\d+ values the templates read are now missing \\(.*global\\.hub.*\\); use --values-file to merge instead\\n`));
    const merged = await cli('render', '-q', '--injector-configmap', CM, '--values-file', p('partial.yaml'), '-f', ex('deployment.yaml'));
    expect(merged.stderr).toBe('');
    expect(merged.stdout).toContain('image: "docker.io/istio/proxyv2:1.7.0"');
    const set = await cli('render', '-q', '--injector-configmap', CM, '--set', 'global.tag=9.9', '-f', ex('deployment.yaml'));
    expect(set.stdout).toContain('image: "docker.io/istio/proxyv2:9.9"');
  });

  it('audit: --values replaces and --values-file merges, as for render', async () => {
    const { p } = tmp({ 'partial.yaml': 'global:\n  tag: "2.0"\n' });
    const hub = (o: Parameters<typeof auditDetailed>[1]) => (auditDetailed([ex('deployment.yaml')], { injectorConfigMap: CM, ...o }).subjects[0]!.settings.values as { global?: { hub?: string; tag?: string } }).global;
    expect(hub({ values: p('partial.yaml') })).toEqual({ tag: '2.0' });
    expect(hub({ valuesFiles: [p('partial.yaml')] })).toMatchObject({ hub: 'docker.io/istio', tag: '2.0' });
    expect(hub({ set: ['global.tag=3'] })).toMatchObject({ hub: 'docker.io/istio', tag: 3 });
    expect(hub({ setString: ['global.tag=3.0'] })).toMatchObject({ hub: 'docker.io/istio', tag: '3.0' });
    const warned = await cli('audit', '-q', '--injector-configmap', CM, '--values', p('partial.yaml'), '-f', ex('deployment.yaml'));
    expect(warned.stderr).toMatch(new RegExp(`^${p('partial.yaml')}: warning: --values replaces the ConfigMap's data.values, and \\d+ values the templates read are now missing \\(global\\.hub, `));
    expect((await cli('audit', '-q', '--injector-configmap', CM, '--values-file', p('partial.yaml'), '-f', ex('deployment.yaml'))).stderr).toBe('');
    // the CLI passes its flags through to the same options
    const a = await cli('audit', '-q', '--injector-configmap', CM, '--values-file', p('partial.yaml'), '--set', 'global.proxy.holdApplicationUntilProxyStarts=true', '-f', ex('deployment.yaml'), '--timeline', '--no-color');
    const b = await cli('audit', '-q', '--injector-configmap', CM, '--values-file', p('partial.yaml'), '-f', ex('deployment.yaml'), '--timeline', '--no-color');
    expect(a.code).toBe(0);
    expect(a.stdout).not.toBe(b.stdout);
  });

  it('IstioOperator files: --iop merges spec.values and spec.meshConfig; one is also a values file', async () => {
    const { p } = tmp({
      'iop.yaml': 'apiVersion: install.istio.io/v1alpha1\nkind: IstioOperator\nspec:\n  meshConfig:\n    defaultConfig:\n      holdApplicationUntilProxyStarts: false\n  values:\n    global:\n      tag: 1.24.1\n',
    });
    const r = await cli('render', '-q', '--injector-configmap', CM, '--iop', p('iop.yaml'), '-f', ex('deployment.yaml'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('image: "docker.io/istio/proxyv2:1.24.1"');
    const asValues = await cli('render', '-q', '--injector-configmap', CM, '--values-file', p('iop.yaml'), '-f', ex('deployment.yaml'));
    expect(asValues.stdout).toBe(r.stdout);
    const order = async (...args: string[]) =>
      (parse((await cli('render', '-q', '--injector-configmap', CM, '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'), '--merged', ...args)).stdout).spec.template.spec.containers as { name: string }[]).map((c) => c.name);
    expect(await order()).toEqual(['istio-proxy', 'reviews']);
    expect(await order('--iop', p('iop.yaml'))).toEqual(['reviews', 'istio-proxy']);
    // audit reads the same file the same way: values and mesh config
    const judged = auditDetailed([ex('deployment.yaml')], { injectorConfigMap: CM, mesh: ex('istio-mesh.yaml'), iop: [p('iop.yaml')] }).subjects[0]!;
    expect((judged.settings.values as { global: { tag: string } }).global.tag).toBe('1.24.1');
    expect(judged.settings.proxyConfig.holdApplicationUntilProxyStarts).toBe(false);
    const withoutIop = auditDetailed([ex('deployment.yaml')], { injectorConfigMap: CM, mesh: ex('istio-mesh.yaml') }).subjects[0]!;
    expect(withoutIop.settings.proxyConfig.holdApplicationUntilProxyStarts).toBe(true);
    const notIop = await cli('render', '-q', '--injector-configmap', CM, '--iop', ex('deployment.yaml'), '-f', ex('deployment.yaml'));
    expect(notIop.code).toBe(2);
    expect(notIop.stderr).toMatch(/deployment\.yaml:1:1: a Deployment, not an IstioOperator \(--iop\)\n$/);
  });
});

describe("istioctl's documented inputs", () => {
  it('--injectConfigFile takes data.config and --valuesFile data.values, as exported with jsonpath', async () => {
    const cm = parse(readFileSync(CM, 'utf8')) as { data: { config: string; values: string } };
    const { p } = tmp({ 'inject-config.yaml': cm.data.config, 'inject-values.json': cm.data.values });
    const want = await cli('render', '-q', '--injector-configmap', CM, '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'));
    const got = await cli('render', '-q', '--injectConfigFile', p('inject-config.yaml'), '--valuesFile', p('inject-values.json'), '--meshConfigFile', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'));
    expect(got.stderr).toBe('');
    expect(got.code).toBe(0);
    expect(got.stdout).toBe(want.stdout);
    const audited = await cli('audit', '-q', '--injectConfigFile', p('inject-config.yaml'), '--valuesFile', p('inject-values.json'), '-f', ex('deployment.yaml'), '-o', 'json', '--fail-on', 'info');
    const direct = await cli('audit', '-q', '--injector-configmap', CM, '-f', ex('deployment.yaml'), '-o', 'json', '--fail-on', 'info');
    expect(audited.stdout).toBe(direct.stdout);
  });
});

describe('stated assumptions', () => {
  it('render prints the release, the Kubernetes version and the native-sidecar mode once; --quiet silences it', async () => {
    const r = await cli('render', '--injector-configmap', CM, '-f', ex('deployment.yaml'), '-f', ex('deployment.yaml'));
    const lines = r.stderr.split('\n').filter((l) => l.includes('assuming'));
    expect(lines).toEqual([
      `sidecar-render: assuming Istio 1.9 (detected: has templates/defaultTemplates; templates of 1.9 or later), Kubernetes version not given (--kube-version), native sidecars off (auto: on for Istio 1.27+ on Kubernetes 1.33+; the pod's sidecar.istio.io/nativeSidecar annotation wins), webhook mode (the pod as the API server defaulted it); injector config: ConfigMap istio-system/istio-sidecar-injector in ${CM}; values: data.values of ConfigMap istio-system/istio-sidecar-injector in ${CM}; mesh config: none (Istio's defaults)`,
    ]);
    const ki = await cli('render', '--mode', 'kube-inject', '--injector-configmap', CM, '-f', ex('deployment.yaml'));
    expect(ki.stderr).toMatch(/, kube-inject mode \(the pod as written\); injector config: /);
    const told = await cli('render', '--template', tpl('native-sidecar.tmpl'), '--values', vals('defaults.json'), '--istio-version', '1.28', '--kube-version', '1.33', '-f', ex('deployment.yaml'));
    expect(told.stderr).toContain('assuming Istio 1.28 (--istio-version), Kubernetes 1.33, native sidecars on (auto:');
    const q = await cli('render', '--quiet', '--injector-configmap', CM, '-f', ex('deployment.yaml'));
    expect(q.stderr).toBe('');
  });

  it('audit states its assumptions too', async () => {
    const r = await cli('audit', '--injector-configmap', CM, '-f', ex('deployment.yaml'), '--kube-version', '1.30', '--native-sidecars', 'false');
    expect(r.stderr).toBe(`sidecar-render: assuming Istio 1.9 (detected: has templates/defaultTemplates; templates of 1.9 or later), Kubernetes 1.30, native sidecars off (--native-sidecars); the pod's sidecar.istio.io/nativeSidecar annotation wins; injector config: ConfigMap istio-system/istio-sidecar-injector in ${CM}; values: data.values of ConfigMap istio-system/istio-sidecar-injector in ${CM}; mesh config: none (Istio's defaults)\n`);
  });

  it('audit: a finding that stands on the native-sidecar assumption says so, and not once the input decides it', async () => {
    const { p } = tmp({ 'job.yaml': 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: n}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - {name: app, image: app}\n' });
    const message = async (...args: string[]) => {
      const r = await cli('audit', '-q', '--model', '-f', p('job.yaml'), '-o', 'json', ...args);
      return (JSON.parse(r.stdout) as { rule: string; message: string }[]).find((f) => f.rule === 'job-never-completes')?.message;
    };
    expect(await message()).toMatch(/\(Assumed: native sidecars off, as nothing turns them on: no --native-sidecars, no --kube-version 1\.33 or later, no ENABLE_NATIVE_SIDECARS in the values\.\)$/);
    expect(await message('--native-sidecars', 'false')).not.toContain('Assumed');
    expect(await message('--kube-version', '1.33')).toBeUndefined();
  });

  it('audit takes --istio-version and --template (a bare template renders the raw workload)', async () => {
    const r = await cli('audit', '--template', tpl('hold-1.8.tmpl'), '--values', vals('defaults.json'), '--istio-version', '1.20', '--revision', 'canary', '-f', ex('deployment.yaml'));
    expect(r.stderr).toMatch(/^sidecar-render: assuming Istio 1\.20 \(--istio-version\), /);
    const res = auditDetailed([ex('deployment.yaml')], { template: tpl('hold-1.8.tmpl'), values: vals('defaults.json'), istioVersion: '1.20', revision: 'canary' });
    expect(res.subjects[0]!.injection).toBe('rendered');
    const proxy = (res.subjects[0]!.spec.containers as { name: string; env?: { name: string; value?: string }[] }[]).find((c) => c.name === 'istio-proxy');
    expect(proxy).toBeDefined();
  });

  it('--istio-version outside the modelled releases is an error listing them, for every command', async () => {
    for (const cmd of [['render', '-f', ex('deployment.yaml')], ['audit', '-f', ex('deployment.yaml')], ['golden', 'check', 'golden.yaml']]) {
      const r = await cli(...cmd, '--injector-configmap', CM, '--istio-version', '1.99');
      expect(r.code, cmd[0]).toBe(2);
      expect(r.stderr, cmd[0]).toMatch(/unsupported Istio version "1\.99": the releases modelled are 1\.5 or later: 1\.5, 1\.6, .*1\.28, .*master\n$/);
      expect(r.stderr.split('\n')).toHaveLength(2);
    }
    expect(KNOWN_RELEASES.at(-1)).toBe('master');
  });
});

describe('progress on a terminal', () => {
  it('render --merged over many workloads redraws a progress line on stderr when it is a terminal', async () => {
    const items = Array.from({ length: 250 }, (_, i) => parse(deployment(`w${i}`)));
    const { p } = tmp({ 'list.yaml': JSON.stringify({ apiVersion: 'v1', kind: 'List', items }) });
    const args = ['render', '--injector-configmap', CM, '-f', p('list.yaml'), '--merged', '--output-file', p('out.yaml')];
    const was = process.stderr.isTTY;
    process.stderr.isTTY = true;
    let shown: Awaited<ReturnType<typeof cli>>;
    let quiet: Awaited<ReturnType<typeof cli>>;
    try {
      shown = await cli(...args);
      quiet = await cli(...args, '--quiet');
    } finally {
      process.stderr.isTTY = was;
    }
    expect(shown.stderr).toContain('\rrender: 100 workloads rendered\rrender: 200 workloads rendered\rrender: 250 workloads rendered\n');
    expect(quiet.stderr).toBe('');
    const plain = await cli(...args);
    expect(plain.stderr).not.toContain('workloads rendered');
    // the List comes back as a List, its items injected in place
    const out = parse(readFileSync(p('out.yaml'), 'utf8'));
    expect(out.kind).toBe('List');
    expect(out.items.map((d: { metadata: { name: string } }) => d.metadata.name)).toEqual(items.map((d) => d.metadata.name));
  });
});

describe('golden takes the shared inputs over every case', () => {
  it('--set applies after the case values', async () => {
    const { p } = tmp({
      'm/golden.yaml': `goldenDir: g\ncases:\n  - name: one\n    injectorConfigMap: ${JSON.stringify(CM)}\n    workloads: ${JSON.stringify(ex('deployment.yaml'))}\n`,
    });
    expect((await cli('golden', 'update', p('m/golden.yaml'))).code).toBe(0);
    expect((await cli('golden', 'check', p('m/golden.yaml'))).code).toBe(0);
    const changed = await cli('golden', 'check', '--no-color', p('m/golden.yaml'), '--set', 'global.tag=9.9');
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/\n\+ +image: "docker\.io\/istio\/proxyv2:9\.9"\n/);
  });
});

describe('template reads stdin', () => {
  it('the template or --data may be -', async () => {
    const { p } = tmp({ 't.tmpl': '{{ .a | upper }}', 'd.yaml': 'a: hi\n' });
    const fromStdin = async (text: string, ...args: string[]) => {
      const { Readable } = await import('node:stream');
      const orig = Object.getOwnPropertyDescriptor(process, 'stdin')!;
      Object.defineProperty(process, 'stdin', { value: Readable.from([Buffer.from(text)]), configurable: true });
      try {
        return await cli('template', ...args);
      } finally {
        Object.defineProperty(process, 'stdin', orig);
      }
    };
    expect((await fromStdin('{{ .a | upper }}', '-', '--data', p('d.yaml'), '--funcs', 'sprig')).stdout).toBe('HI');
    expect((await fromStdin('a: yo\n', p('t.tmpl'), '--data', '-', '--funcs', 'sprig')).stdout).toBe('YO');
    const both = await fromStdin('', '-', '--data', '-');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('stdin can be either the template or --data');
  });
});

describe('YAML as yaml.v2 reads it, on every input path', () => {
  // a quoted string continued at column 0: YAML 1.2 refuses it, yaml.v2 (kubectl, Helm, istiod) folds it
  it('a quoted string continued at column 0 is folded, in workloads, values files, the ConfigMap and its data.values, and --data', async () => {
    const cm = readFileSync(CM, 'utf8');
    const { p } = tmp({
      'deploy.yaml': deployment('reviews').replace('        version: v1\n', '        version: "v1\nsecond"\n'),
      'values.yaml': "global:\n  tag: '1.2\n3'\n",
      'cm.yaml': cm.replace('  namespace: istio-system\n', '  namespace: istio-system\n  annotations:\n    note: "a\nb"\n').replace('"hub": "docker.io/istio"', '"hub": "docker.io/\n    istio"'),
      'data.yaml': 'name: "Hello\n  World"\n',
      'greet.tpl': '{{ .name }}',
    });
    const r = await cli('render', '-q', '--injector-configmap', p('cm.yaml'), '--values-file', p('values.yaml'), '-f', p('deploy.yaml'), '--merged');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const pod = parse(r.stdout).spec.template;
    expect(pod.metadata.labels.version).toBe('v1 second');
    expect(pod.spec.containers.map((c: { image: string }) => c.image)).toContain('docker.io/ istio/proxyv2:1.2 3');
    const t = await cli('template', p('greet.tpl'), '--data', p('data.yaml'));
    expect(t.stdout).toBe('Hello World');
    // a document marker inside the string stops yaml.v2: the line is named
    const bad = tmp({ 'v.yaml': 'global:\n  tag: "1\n---\n2"\n' });
    const stopped = await cli('render', '-q', '--injector-configmap', CM, '--values-file', bad.p('v.yaml'), '-f', p('deploy.yaml'));
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toBe(`sidecar-render: ${bad.p('v.yaml')}:3:1: found unexpected document indicator\n`);
  });
});

describe('a key written twice: as the program that reads each input does', () => {
  it('kubectl refuses it in manifests, YAML or JSON; istiod and Helm keep the last in values, data.* and annotations', async () => {
    const cm = readFileSync(CM, 'utf8');
    const dep = parse(deployment('reviews'));
    const depJson = JSON.stringify(dep, null, 2).replace('"replicas": 2,', '"replicas": 2,\n    "replicas": 3,');
    const { p } = tmp({
      'deploy.json': depJson,
      'annotated.yaml': deployment('reviews').replace('          proxyMetadata:\n', '          proxyMetadata:\n            FIRST: "1"\n          proxyMetadata:\n'),
      'values.yaml': 'global:\n  tag: "1.0"\n  tag: "2.0"\n',
      'values.json': '{"global": {"tag": "1.0", "tag": "3.0"}}',
      'cm.yaml': cm.replace('"hub": "docker.io/istio",', '"hub": "docker.io/istio",\n      "hub": "last.io/istio",'),
      'cm-dup.yaml': cm.replace('  namespace: istio-system\n', '  namespace: istio-system\n  name: again\n'),
      'mesh.yaml': 'defaultConfig:\n  proxyMetadata:\n    FIRST: "1"\ndefaultConfig:\n  proxyMetadata:\n    LAST: "1"\n',
      'mesh-cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: istio\nkind: ConfigMap\ndata:\n  mesh: "{}"\n',
      'iop.yaml': 'apiVersion: install.istio.io/v1alpha1\nkind: IstioOperator\nspec:\n  values:\n    global:\n      tag: "1.0"\n      tag: "2.0"\n',
    });
    // istioctl reads an IstioOperator strictly, given as --iop or as a values file
    for (const flag of ['--iop', '--values-file']) {
      const iop = await cli('render', '-q', '--injector-configmap', CM, flag, p('iop.yaml'), '-f', ex('deployment.yaml'));
      expect(iop.code).toBe(2);
      expect(iop.stderr).toMatch(/iop\.yaml:7:7: key "tag" already set in map \(first set at line 6\)\n$/);
    }
    const json = await cli('render', '-q', '--injector-configmap', CM, '-f', p('deploy.json'));
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    expect(json.stderr).toBe(`sidecar-render: ${p('deploy.json')}:13:5: key "replicas" already set in map (first set at line 12)\n`);
    const cmDup = await cli('render', '-q', '--injector-configmap', p('cm-dup.yaml'), '-f', ex('deployment.yaml'));
    expect(cmDup.code).toBe(2);
    expect(cmDup.stderr).toMatch(/cm-dup\.yaml:9:3: key "name" already set in map \(first set at line 7\)\n$/);
    const meshCm = await cli('render', '-q', '--injector-configmap', CM, '--mesh', p('mesh-cm.yaml'), '-f', ex('deployment.yaml'));
    expect(meshCm.code).toBe(2);
    expect(meshCm.stderr).toMatch(/mesh-cm\.yaml:5:1: key "kind" already set in map \(first set at line 2\)\n$/);

    const images = async (...args: string[]) => {
      const r = await cli('render', '-q', '--merged', ...args);
      expect(r.stderr).toBe('');
      return parse(r.stdout).spec.template.spec.containers.map((c: { image: string }) => c.image) as string[];
    };
    expect(await images('--injector-configmap', CM, '--values-file', p('values.yaml'), '-f', ex('deployment.yaml'))).toContain('docker.io/istio/proxyv2:2.0');
    expect(await images('--injector-configmap', CM, '--values-file', p('values.json'), '-f', ex('deployment.yaml'))).toContain('docker.io/istio/proxyv2:3.0');
    expect(await images('--injector-configmap', p('cm.yaml'), '-f', ex('deployment.yaml'))).toContain('last.io/istio/proxyv2:1.7.0');
    const proxyEnv = async (...args: string[]) => {
      // a release that merges proxy.istio.io/config's proxyMetadata over the mesh's (1.11+)
      const r = await cli('render', '-q', '--merged', '--injector-configmap', CM, '--istio-version', '1.24', ...args);
      expect(r.stderr).toBe('');
      return (parse(r.stdout).spec.template.spec.containers as { name: string; env?: { name: string }[] }[]).find((c) => c.name === 'istio-proxy')!.env!.map((e) => e.name);
    };
    const annotated = await proxyEnv('-f', p('annotated.yaml'));
    expect(annotated).toContain('ISTIO_META_DNS_CAPTURE');
    expect(annotated).not.toContain('FIRST');
    const mesh = await proxyEnv('--mesh', p('mesh.yaml'), '-f', ex('deployment.yaml'));
    expect(mesh).toContain('LAST');
    expect(mesh).not.toContain('FIRST');
    // template --data reads data as Helm reads values
    const data = tmp({ 'd.yaml': 'name: first\nname: last\n', 'd.json': '{"name": "first", "name": "last"}', 't.tpl': '{{ .name }}' });
    expect((await cli('template', data.p('t.tpl'), '--data', data.p('d.yaml'))).stdout).toBe('last');
    expect((await cli('template', data.p('t.tpl'), '--data', data.p('d.json'))).stdout).toBe('last');
  });
});
