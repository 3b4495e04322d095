// Files the commands write and read: --output-file writes through a FIFO, a device or a link to one
// instead of replacing it; golden update/check/--prune never read, write or remove anything outside
// goldenDir through a symbolic link; an interrupted run leaves no temporary file; file system failures
// are one line naming the file.

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ex = (f: string) => path.join(root, 'examples', f);
const CM = ex('istio-sidecar-injector.yaml');
const DEPLOY = ex('deployment.yaml');

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-files-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const temporaries = (d: string) => fs.readdirSync(d).filter((n) => n.endsWith('.tmp'));

/** Reads a FIFO to its end in another process (opening one blocks until both ends are open). */
function readFifo(fifo: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn('cat', [fifo]);
    let out = '';
    // a writer that replaced the FIFO instead never comes: give up rather than wait forever
    const timer = setTimeout(() => p.kill(), 10_000);
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.on('error', reject);
    p.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

describe('--output-file on files that are not regular', () => {
  it('writes through a FIFO and a link to it, leaving both in place', async () => {
    const expected = (await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY)).stdout;
    expect(expected).toContain('istio-proxy');
    const fifo = path.join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const link = path.join(dir, 'pipe-link');
    fs.symlinkSync(fifo, link);
    for (const target of [fifo, link]) {
      const read = readFifo(fifo);
      // the reader must have the FIFO open before the synchronous write opens it
      await new Promise((r) => setTimeout(r, 100));
      const r = await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', target);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(await read).toBe(expected);
    }
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(temporaries(dir)).toEqual([]);
  });

  // Only through a link of its own: a run that replaced the target must never be able to replace the
  // system's /dev/null.
  it('writes through a link to a character device without replacing the link', async () => {
    const link = path.join(dir, 'null-link');
    fs.symlinkSync('/dev/null', link);
    const r = await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', link);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.statSync(link).isCharacterDevice()).toBe(true);
    expect(temporaries(dir)).toEqual([]);
  });

  it('writes a link to a regular file into that file, keeping the link', async () => {
    const real = path.join(dir, 'real.yaml');
    fs.writeFileSync(real, 'old\n');
    const link = path.join(dir, 'real-link.yaml');
    fs.symlinkSync(real, link);
    const r = await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', link);
    expect(r.code).toBe(0);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toContain('istio-proxy');
  });

  it('creates the file a dangling link names, and keeps the permissions of a file it replaces', async () => {
    const link = path.join(dir, 'later-link.yaml');
    const later = path.join(dir, 'later.yaml');
    fs.symlinkSync('later.yaml', link);
    expect((await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', link)).code).toBe(0);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(later, 'utf8')).toContain('istio-proxy');
    fs.chmodSync(later, 0o600);
    expect((await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', later)).code).toBe(0);
    expect(fs.statSync(later).mode & 0o777).toBe(0o600);
  });

  it('refuses a directory in one line before rendering anything', async () => {
    const d = path.join(dir, 'a-dir');
    fs.mkdirSync(d);
    const r = await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', d);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `sidecar-render: ${d}: cannot write: is a directory\n` });
    expect(fs.readdirSync(d)).toEqual([]);
    expect(temporaries(dir)).toEqual([]);
  });

  it('reports a rename that fails (EBUSY: a mount point) as one line naming the file, leaving no temporary', async () => {
    const out = path.join(dir, 'busy.yaml');
    const require = (await import('node:module')).createRequire(import.meta.url);
    const cjs = require('node:fs') as typeof fs;
    const rename = cjs.renameSync;
    cjs.renameSync = () => {
      throw Object.assign(new Error("EBUSY: resource busy or locked, rename 'x.tmp' -> 'busy.yaml'"), { code: 'EBUSY', syscall: 'rename' });
    };
    syncBuiltinESMExports();
    try {
      const r = await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', out);
      expect(r).toEqual({ code: 2, stdout: '', stderr: `sidecar-render: ${out}: cannot write: is busy (a mount point, or in use)\n` });
    } finally {
      cjs.renameSync = rename;
      syncBuiltinESMExports();
    }
    expect(fs.existsSync(out)).toBe(false);
    expect(temporaries(dir)).toEqual([]);
  });
});

describe('--output-file in a folder that is not there', () => {
  it('is refused in one line naming the folder, before rendering anything; no folder is made', async () => {
    const missing = path.join(dir, 'no-such-folder');
    const out = path.join(missing, 'deeper', 'out.yaml');
    const r = await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', out);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `sidecar-render: ${out}: cannot write: the folder ${path.dirname(out)} does not exist\n` });
    expect(fs.existsSync(missing)).toBe(false);
    // relative, as typed
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const rel = await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', 'outt/x.yaml');
      expect(rel).toEqual({ code: 2, stdout: '', stderr: 'sidecar-render: outt/x.yaml: cannot write: the folder outt does not exist\n' });
    } finally {
      process.chdir(cwd);
    }
    expect(fs.existsSync(path.join(dir, 'outt'))).toBe(false);
  });

  it('a file where the folder should be is refused the same way', async () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, 'x');
    const r = await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', path.join(file, 'out.yaml'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sidecar-render: ${path.join(file, 'out.yaml')}: cannot write: a parent of it is not a directory\n`);
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
  });

  it('the folder there, the file is written', async () => {
    const out = path.join(dir, 'made', 'out.yaml');
    fs.mkdirSync(path.dirname(out));
    const r = await cli('render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', out);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toContain('istio-proxy');
  });
});

describe('an interrupted --output-file', () => {
  // A real process: the signal must reach the command's own handlers. It runs the compiled CLI.
  beforeAll(() => {
    const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', root], { encoding: 'utf8' });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
  }, 120_000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} removes the temporary file and leaves the old output`, async () => {
      const d = fs.mkdtempSync(path.join(dir, 'sig-'));
      const many = path.join(d, 'many.yaml');
      const one = fs.readFileSync(DEPLOY, 'utf8');
      fs.writeFileSync(many, Array.from({ length: 4000 }, (_, i) => one.replace(/name: [\w-]+/, `name: w${i}`)).join('\n---\n'));
      const out = path.join(d, 'out.yaml');
      fs.writeFileSync(out, 'old\n');
      const p = spawn(process.execPath, [path.join(root, 'bin', 'sidecar-render.cjs'), 'render', '--injector-configmap', CM, '-f', many, '--output-file', out], { stdio: 'ignore' });
      const exited = new Promise<NodeJS.Signals | null>((r) => p.on('exit', (_code, sig) => r(sig)));
      const deadline = Date.now() + 20_000;
      while (temporaries(d).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(temporaries(d)).toHaveLength(1);
      p.kill(signal);
      expect(await exited).toBe(signal);
      expect(temporaries(d)).toEqual([]);
      expect(fs.readFileSync(out, 'utf8')).toBe('old\n');
    }, 60_000);
  }

  // /dev/stdout, /dev/fd/1 and /proc/self/fd/1 name the process's own standard output: written where a
  // shell's `>>` put it, never opened again with truncation nor replaced by a renamed temporary
  for (const name of ['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']) {
    it(`--output-file ${name} appends where the shell's >> appends`, () => {
      const log = path.join(dir, `log-${path.basename(name)}.txt`);
      fs.writeFileSync(log, 'earlier line\n');
      const fd = fs.openSync(log, 'a');
      try {
        const r = spawnSync(process.execPath, [path.join(root, 'bin', 'sidecar-render.cjs'), 'render', '-q', '--injector-configmap', CM, '-f', DEPLOY, '--output-file', name], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
      } finally {
        fs.closeSync(fd);
      }
      const plain = spawnSync(process.execPath, [path.join(root, 'bin', 'sidecar-render.cjs'), 'render', '-q', '--injector-configmap', CM, '-f', DEPLOY], { encoding: 'utf8' }).stdout;
      expect(plain).toContain('istio-proxy');
      expect(fs.readFileSync(log, 'utf8')).toBe('earlier line\n' + plain);
      expect(temporaries(dir)).toEqual([]);
    }, 60_000);
  }
});

describe('golden files behind symbolic links', () => {
  const TEMPLATE = 'containers:\n- name: istio-proxy\n  image: proxy:{{ .Values.tag }}\n';

  /** A matrix in its own folder: one case "a" (golden/a.yaml), an outside folder beside it. */
  function setup(): { base: string; matrix: string; golden: string; outside: string } {
    const base = fs.mkdtempSync(path.join(dir, 'golden-'));
    fs.writeFileSync(path.join(base, 'inject.tmpl'), TEMPLATE);
    fs.writeFileSync(path.join(base, 'values.yaml'), 'tag: "1"\n');
    fs.copyFileSync(DEPLOY, path.join(base, 'deploy.yaml'));
    const matrix = path.join(base, 'golden.yaml');
    fs.writeFileSync(matrix, 'goldenDir: golden\ndefaults:\n  template: inject.tmpl\n  values: values.yaml\n  workloads: deploy.yaml\ncases:\n  - name: a\n  - name: b\n    golden: sub/b.yaml\n');
    const golden = path.join(base, 'golden');
    fs.mkdirSync(golden);
    const outside = path.join(base, 'outside');
    fs.mkdirSync(outside);
    return { base, matrix, golden, outside };
  }

  it('update does not write through a linked folder inside goldenDir', async () => {
    const { matrix, golden, outside } = setup();
    fs.symlinkSync(outside, path.join(golden, 'sub'));
    const r = await cli('golden', 'update', matrix);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAILED   b: golden file sub/b.yaml leads out of the golden directory through a symbolic link');
    expect(r.stdout).toContain('added    a.yaml');
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('update does not write through a linked golden file, check does not read it', async () => {
    const { matrix, golden, outside } = setup();
    const secret = path.join(outside, 'secret.txt');
    fs.writeFileSync(secret, 'TOP SECRET\n');
    fs.symlinkSync(secret, path.join(golden, 'a.yaml'));
    const check = await cli('golden', 'check', '--no-color', matrix);
    expect(check.code).toBe(1);
    expect(check.stdout).not.toContain('TOP SECRET');
    expect(check.stdout).toContain('FAILED  a: golden file a.yaml leads out of the golden directory through a symbolic link');
    const up = await cli('golden', 'update', matrix);
    expect(up.code).toBe(1);
    expect(fs.readFileSync(secret, 'utf8')).toBe('TOP SECRET\n');
  });

  it('check does not read a FIFO as a golden file (it would block)', async () => {
    const { matrix, golden } = setup();
    const fifo = path.join(golden, 'a.yaml');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // a writer, so that a reader that does open the FIFO gets an end instead of blocking the test
    const writer = spawn('sh', ['-c', `echo x > '${fifo}'`], { stdio: 'ignore' });
    try {
      const check = await cli('golden', 'check', matrix);
      expect(check.stdout).toContain('FAILED  a: golden file a.yaml is not a regular file');
    } finally {
      writer.kill();
    }
  });

  it('a golden path that is a directory fails its case in one line (no EISDIR from a rename)', async () => {
    const { matrix, golden } = setup();
    fs.mkdirSync(path.join(golden, 'a.yaml'));
    const up = await cli('golden', 'update', matrix);
    expect(up.code).toBe(1);
    expect(up.stdout).toContain('FAILED   a: golden file a.yaml is not a regular file');
    expect(up.stdout).not.toMatch(/EISDIR|rename/);
    expect(fs.statSync(path.join(golden, 'a.yaml')).isDirectory()).toBe(true);
  });

  it('a goldenDir that is a link to the matrix folder is refused, so --prune cannot remove the inputs', async () => {
    const { base, matrix } = setup();
    fs.rmSync(path.join(base, 'golden'), { recursive: true });
    fs.symlinkSync(base, path.join(base, 'golden'));
    const r = await cli('golden', 'update', '--prune', matrix);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/golden directory holds golden\.yaml, which golden update --prune would remove/);
    for (const f of ['golden.yaml', 'values.yaml', 'inject.tmpl', 'deploy.yaml']) expect(fs.existsSync(path.join(base, f))).toBe(true);
  });

  it('--prune removes stale goldens but nothing reached through a link', async () => {
    const { matrix, golden, outside } = setup();
    const kept = path.join(outside, 'kept.yaml');
    fs.writeFileSync(kept, 'x\n');
    // a golden this matrix wrote, whose case is then taken out
    const text = fs.readFileSync(matrix, 'utf8');
    fs.writeFileSync(matrix, `${text}  - name: old\n    golden: old/stale.yaml\n`);
    expect((await cli('golden', 'update', matrix)).code).toBe(0);
    fs.writeFileSync(matrix, text);
    fs.symlinkSync(outside, path.join(golden, 'linked'));
    fs.symlinkSync(kept, path.join(golden, 'kept-link.yaml'));
    const r = await cli('golden', 'update', '--prune', matrix);
    expect(r.stdout).toContain('removed  old/stale.yaml');
    expect(fs.existsSync(path.join(golden, 'old', 'stale.yaml'))).toBe(false);
    expect(fs.readFileSync(kept, 'utf8')).toBe('x\n');
  });
});
