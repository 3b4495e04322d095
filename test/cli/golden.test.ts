// The golden command end to end, on the seed matrix that ships with the repo and on a copy of it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const seeds = fileURLToPath(new URL('../golden/seeds/', import.meta.url));

let tmp: string | undefined;
afterEach(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
});

describe('sidecar-render golden', () => {
  it('checks the seed matrix clean', async () => {
    const r = await cli('golden', 'check', path.join(seeds, 'matrix.yaml'));
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^\d+ passed, 0 changed, 0 missing\n$/);
    expect(r.code).toBe(0);
  });

  it('reports a planted one-character change by case name, as text and json, and update repairs it', async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'golden-cli-'));
    // the matrix refers to ../../../templates etc.; keep that shape by copying into tmp/test/golden/seeds
    const base = path.join(tmp, 'test', 'golden', 'seeds');
    fs.cpSync(seeds, base, { recursive: true });
    const root = fileURLToPath(new URL('../../', import.meta.url));
    for (const d of ['templates', 'values']) fs.cpSync(path.join(root, d), path.join(tmp, d), { recursive: true });
    const victim = path.join(base, 'golden', 'hold-1.7-lifecycle-bug.yaml');
    const text = fs.readFileSync(victim, 'utf8');
    fs.writeFileSync(victim, text.replace('istio-proxy', 'istio-proxx'));

    const text1 = await cli('golden', 'check', '--no-color', path.join(base, 'matrix.yaml'));
    expect(text1.code).toBe(1);
    expect(text1.stdout).toContain('CHANGED hold-1.7-lifecycle-bug (hold-1.7-lifecycle-bug.yaml)');
    expect(text1.stdout).toContain('\n-- name: istio-proxx\n+- name: istio-proxy\n');
    expect(text1.stdout).toMatch(/\d+ passed, 1 changed, 0 missing\n$/);

    const json = await cli('golden', 'check', '-o', 'json', path.join(base, 'matrix.yaml'));
    const report = JSON.parse(json.stdout) as { changed: number; results: { name: string; status: string }[] };
    expect(report.changed).toBe(1);
    expect(report.results.filter((x) => x.status !== 'passed').map((x) => x.name)).toEqual(['hold-1.7-lifecycle-bug']);

    const up = await cli('golden', 'update', path.join(base, 'matrix.yaml'));
    expect(up.code).toBe(0);
    expect(up.stdout).toContain('updated  hold-1.7-lifecycle-bug.yaml');
    expect(fs.readFileSync(victim, 'utf8')).toBe(text);
  });

  it('gives a one-line error with a position for a bad matrix, exit 2', async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'golden-cli-'));
    const f = path.join(tmp, 'golden.yaml');
    fs.writeFileSync(f, 'cases:\n  - name: x\n    merged: maybe\n');
    const r = await cli('golden', 'check', f);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sidecar-render: ${f}:3:13: cases.0.merged must be boolean\n`);
  });

  it('names the file and the first alias when a matrix\'s aliases expand without bound', async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'golden-cli-'));
    const f = path.join(tmp, 'golden.yaml');
    let text = 'x0: &x0 [a, a, a, a, a, a, a, a, a, a]\n';
    for (let i = 1; i < 8; i++) text += `x${i}: &x${i} [${Array(10).fill(`*x${i - 1}`).join(', ')}]\n`;
    fs.writeFileSync(f, text + 'cases: []\n');
    const r = await cli('golden', 'check', f);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `sidecar-render: ${f}:2:10: Excessive alias count indicates a resource exhaustion attack\n` });
  });

  it('compares a golden file whose aliases expand without bound as written (compare: semantic)', async () => {
    const { compareRendering } = await import('../../src/golden/compare.js');
    let text = 'x0: &x0 [a, a, a, a, a, a, a, a, a, a]\n';
    for (let i = 1; i < 8; i++) text += `x${i}: &x${i} [${Array(10).fill(`*x${i - 1}`).join(', ')}]\n`;
    expect(compareRendering(text, text, 'semantic', 'g.yaml').equal).toBe(true);
    expect(compareRendering(text, text + 'y: 1\n', 'semantic', 'g.yaml').equal).toBe(false);
  });

  it('fails a case whose inputs are missing, naming the case', async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'golden-cli-'));
    const f = path.join(tmp, 'golden.yaml');
    fs.writeFileSync(f, 'cases:\n  - name: lost\n    template: nope.tmpl\n    workloads: nope.yaml\n');
    const r = await cli('golden', 'check', f);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAILED  lost: .*nope\.tmpl/m);
    expect(r.stdout).toMatch(/0 passed, 0 changed, 0 missing, 1 failed\n$/);
  });

  it('a goldenDir outside the matrix folder only from the command line; prune leaves what the matrix did not write', async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'golden-cli-'));
    const root = fileURLToPath(new URL('../../', import.meta.url));
    fs.mkdirSync(path.join(tmp, 'm'));
    fs.mkdirSync(path.join(tmp, 'common-out'));
    fs.writeFileSync(path.join(tmp, 'common-out', 'notes.txt'), 'someone else\n');
    const f = path.join(tmp, 'm', 'golden.yaml');
    fs.writeFileSync(f, `goldenDir: ../common-out\ncases:\n  - name: a\n    injectorConfigmap: ${root}examples/istio-sidecar-injector.yaml\n    filename: ${root}examples/deployment.yaml\n`);
    const refused = await cli('golden', 'update', '--prune', f);
    expect(refused).toEqual({ code: 2, stdout: '', stderr: `sidecar-render: ${f}:1:12: goldenDir ../common-out is outside the matrix's folder; give it on the command line (--golden-dir) to use it\n` });
    const r = await cli('golden', 'update', '--prune', '--golden-dir', path.join(tmp, 'common-out'), f);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('stale    notes.txt (no case produces it; not written by golden update of this matrix, so --prune leaves it)');
    expect(fs.readFileSync(path.join(tmp, 'common-out', 'notes.txt'), 'utf8')).toBe('someone else\n');
    expect(fs.existsSync(path.join(tmp, 'common-out', 'a.yaml'))).toBe(true);
  });

  describe('a new matrix, before any golden file is written', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    // 3 value sets x 4 workloads: 12 cases, no goldens yet
    const matrix = () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'golden-cli-'));
      const f = path.join(tmp, 'golden.yaml');
      const w = (p: string) => JSON.stringify(path.join(root, p));
      fs.writeFileSync(
        f,
        [
          'goldenDir: golden',
          'defaults:',
          `  injectorConfigMap: ${w('examples/istio-sidecar-injector.yaml')}`,
          `  mesh: ${w('examples/istio-mesh.yaml')}`,
          '  merged: true',
          'matrix:',
          '  - name: "{values}-{workload}"',
          '    axes:',
          '      values:',
          '        - name: default',
          '        - { name: hold, set: [global.proxy.holdApplicationUntilProxyStarts=true] }',
          '        - { name: nohold, set: [global.proxy.holdApplicationUntilProxyStarts=false] }',
          '      workload:',
          `        - { name: example, workloads: ${w('examples/deployment.yaml')} }`,
          ...['deployment', 'deployment-hold-annotation', 'job'].map((n) => `        - { name: ${n}, workloads: ${w(`test/golden/seeds/workloads/${n}.yaml`)} }`),
          '',
        ].join('\n'),
      );
      return f;
    };

    it('check prints one line per missing golden, naming it and golden update', async () => {
      const f = matrix();
      const r = await cli('golden', 'check', '--no-color', f);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('');
      const lines = r.stdout.split('\n').filter(Boolean);
      expect(lines).toHaveLength(13);
      expect(lines[0]).toBe(`MISSING default-example: no golden file default-example.yaml yet; 'sidecar-render golden update ${f}' writes it`);
      for (const l of lines.slice(0, 12)) expect(l).toMatch(/^MISSING (\S+): no golden file \1\.yaml yet; 'sidecar-render golden update .+golden\.yaml' writes it$/);
      expect(lines[12]).toBe('0 passed, 0 changed, 12 missing');
      // -o json: the same, without the renderings
      const json = JSON.parse((await cli('golden', 'check', '-o', 'json', f)).stdout) as { missing: number; results: Record<string, unknown>[] };
      expect(json.missing).toBe(12);
      expect(json.results[0]).toEqual({ name: 'default-example', golden: 'default-example.yaml', status: 'missing' });
      // once written, they pass
      expect((await cli('golden', 'update', f)).code).toBe(0);
      expect((await cli('golden', 'check', f)).stdout).toBe('12 passed, 0 changed, 0 missing\n');
    });

    it('--run that matches no case is an error, not 0 passed', async () => {
      const f = matrix();
      for (const sub of ['check', 'update']) {
        const r = await cli('golden', sub, f, '--run', 'hld');
        expect(r).toEqual({ code: 2, stdout: '', stderr: `sidecar-render: --run "hld" matches no case of ${f} (its cases: default-example, default-deployment, default-deployment-hold-annotation, default-job, hold-example and 7 more)\n` });
      }
      expect(fs.existsSync(path.join(tmp!, 'golden'))).toBe(false);
      const some = await cli('golden', 'check', f, '--run', 'default-job,nothing');
      expect(some.code).toBe(1);
      expect(some.stdout).toMatch(/^MISSING default-job: .*\n0 passed, 0 changed, 1 missing\n$/);
    });
  });
});
