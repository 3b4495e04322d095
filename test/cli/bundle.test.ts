// The command line as users run it: bin/sidecar-render.cjs runs the bundle `npm run build` makes
// (tools/bundle-cli.mjs: one script, V8's code cache, help and version texts made at build time). It must
// print, write and exit exactly as the modules of dist/ do.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/sidecar-render.cjs');
const ex = (f: string): string => join(root, 'examples', f);
const tmp = mkdtempSync(join(tmpdir(), 'sidecar-render-bundle-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const mtime = (f: string): number => statSync(join(root, 'dist', f)).mtimeMs;

beforeAll(() => {
  // npm test bundles after type-checking; a run of this file alone may find the bundle older than dist/
  if (mtime('cli.cjs') < mtime('cli/index.js')) {
    const r = spawnSync(process.execPath, [join(root, 'tools/bundle-cli.mjs')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  }
}, 120_000);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
const viaBin = (args: string[], input?: string): Run => {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input, cwd: root });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const viaModules = (args: string[], input?: string): Run => {
  const script = `import(${JSON.stringify(join(root, 'dist/cli/index.js'))}).then((m) => m.main(['node', 'sidecar-render', ...process.argv.slice(1)])).then((c) => { process.exitCode = c; }, (e) => { process.stderr.write('sidecar-render: ' + e.message + '\\n'); process.exitCode = 2; });`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, '--', ...args], { encoding: 'utf8', input, cwd: root });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('the bundled command line', () => {
  it('is newer than the modules it was made from, with its code cache and texts beside it', () => {
    expect(mtime('cli.cjs')).toBeGreaterThanOrEqual(mtime('cli/index.js'));
    expect(statSync(join(root, 'dist/cli.cjs.cache')).size).toBeGreaterThan(100_000);
    expect(statSync(join(root, 'dist/cli-help.json')).size).toBeGreaterThan(1000);
  });

  it("has a code cache V8 accepts under the flags bin/sidecar-render.cjs sets", () => {
    const flags = /^const V8_FLAGS = '([^']*)';$/m.exec(readFileSync(bin, 'utf8'));
    expect(flags).not.toBeNull();
    const file = join(root, 'dist/cli.cjs');
    const script = `require('node:v8').setFlagsFromString(${JSON.stringify(flags![1])});
const { readFileSync } = require('node:fs');
const s = new (require('node:vm').Script)('(function (exports, require, module, __filename, __dirname) {' + readFileSync(${JSON.stringify(file)}, 'latin1') + '\\n})', { filename: ${JSON.stringify(file)}, cachedData: readFileSync(${JSON.stringify(file + '.cache')}) });
process.stdout.write(String(s.cachedDataRejected));`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('false');
  });

  it('is ASCII, as bin/sidecar-render.cjs reads it (latin1)', () => {
    const bytes = readFileSync(join(root, 'dist/cli.cjs'));
    expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
  });

  it("loads none of Node's heavier built-in modules for a render (they load when a command uses them)", () => {
    // stdout and stderr are files, so that Node's own streams for pipes (net) stay out of the count
    const record = join(tmp, 'record.cjs');
    const loaded = join(tmp, 'loaded.txt');
    writeFileSync(record, `const before = new Set(process.moduleLoadList);\nprocess.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, process.moduleLoadList.filter((m) => !before.has(m)).join('\\n')));\n`);
    const out = openSync(join(tmp, 'out.txt'), 'w');
    const r = spawnSync(process.execPath, ['-r', record, bin, 'render', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml')], { stdio: ['ignore', out, out] });
    closeSync(out);
    expect(r.status).toBe(0);
    expect(readFileSync(join(tmp, 'out.txt'), 'utf8')).toContain('istio-proxy');
    const modules = readFileSync(loaded, 'utf8').split('\n');
    for (const heavy of ['crypto', 'zlib', 'net', 'worker_threads', 'child_process', 'internal/modules/esm/module_job']) expect(modules).not.toContain(`NativeModule ${heavy}`);
    expect(modules).toContain('NativeModule vm');
  });

  const chart = join(tmp, 'chart');
  mkdirSync(join(chart, 'templates'), { recursive: true });
  writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: c\nversion: 1.0.0\n');
  writeFileSync(join(chart, 'values.yaml'), 'n: 2\n');
  writeFileSync(join(chart, 'templates/cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  n: {{ .Values.n | quote }}\n  re: {{ regexReplaceAll "a+" "baaad" "x" | quote }}\n');
  const bad = join(tmp, 'bad.yaml');
  writeFileSync(bad, 'kind: Deployment\nmetadata: [\n');
  const cases: [string, string[], string?][] = [
    ['render', ['render', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'), '--merged']],
    ['render from stdin, kube-inject', ['render', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', '-', '--mode', 'kube-inject', '--merged'], 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: a\n'],
    ['audit', ['audit', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '--set', 'global.proxy.holdApplicationUntilProxyStarts=true', '-f', ex('deployment.yaml')]],
    ['chart, Sprig regex', ['chart', chart, '--set', 'n=3']],
    ['template', ['template', '-e', '{{ printf "%05.1f|%v" 3.14159 (list 1 "a") }}']],
    ['a bad input file', ['render', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', bad]],
    ['an unknown option', ['render', '--no-such-flag']],
    ['--help', ['--help']],
    ['render --help', ['render', '--help']],
    ['golden check -h', ['golden', 'check', '-h']],
    ['version', ['version']],
    ['--version', ['--version']],
  ];
  for (const [name, args, input] of cases) {
    it(`${name}: as the modules`, () => {
      const want = viaModules(args, input);
      expect(want.stdout + want.stderr).not.toBe('');
      expect(viaBin(args, input)).toEqual(want);
    }, 60_000);
  }
});
