// The README's runnable examples, run: fenced blocks whose info string is `sh runnable` or `ts runnable`
// (with `exit=N` when the command is meant to fail), each compared with the `text output` block right
// after it. Shell blocks run from the repository root with `sidecar-render` on the PATH (this checkout's
// bin, over dist/, which `npm test` builds first); TypeScript blocks import the package by its name,
// here resolved to src/.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

interface Example {
  lang: 'sh' | 'ts';
  code: string;
  exit: number;
  output?: string;
  /** The README section (## heading) it is in. */
  section: string;
  line: number;
}

/** Every runnable block, with the output block that follows it (only blank lines between). */
function runnableExamples(text: string): Example[] {
  const out: Example[] = [];
  const fence = /^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;
  const blocks: { info: string; body: string; start: number; end: number }[] = [];
  for (let m = fence.exec(text); m; m = fence.exec(text)) blocks.push({ info: m[1]!.trim(), body: m[2]!, start: m.index, end: m.index + m[0].length });
  blocks.forEach((b, i) => {
    const words = b.info.split(/\s+/);
    if (!words.includes('runnable')) return;
    const lang = words[0];
    if (lang !== 'sh' && lang !== 'ts') throw new Error(`README: a runnable block must be sh or ts, not "${lang}"`);
    const exit = Number(/^exit=(\d+)$/.exec(words.find((w) => w.startsWith('exit=')) ?? '')?.[1] ?? 0);
    const next = blocks[i + 1];
    const between = next ? text.slice(b.end, next.start) : 'x';
    const output = next && next.info === 'text output' && between.trim() === '' ? next.body : undefined;
    const before = text.slice(0, b.start);
    const section = [...before.matchAll(/^## (.*)$/gm)].pop()?.[1] ?? '';
    out.push({ lang, code: b.body, exit, ...(output !== undefined ? { output } : {}), section, line: before.split('\n').length });
  });
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const shim = join(dir, 'bin');
const examples = runnableExamples(readme);

function runShell(code: string): { code: number | null; stdout: string; stderr: string } {
  mkdirSync(shim, { recursive: true });
  const exe = join(shim, 'sidecar-render');
  writeFileSync(exe, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'bin', 'sidecar-render.js'))} "$@"\n`);
  chmodSync(exe, 0o755);
  const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', code], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${shim}:${process.env.PATH ?? ''}`, NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// the package's entry points, as package.json exports them (dist/X.js), taken from src/X.ts
const exported = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> }).exports;

/** Run a TypeScript example with the package's imports pointed at src/, printing into a buffer. */
async function runTs(code: string, name: string): Promise<string> {
  const rewritten = code.replace(/from '(sidecar-render(?:\/[a-z]+)?)'/g, (_m, spec: string) => {
    const entry = exported[`.${spec.slice('sidecar-render'.length)}`];
    if (!entry) throw new Error(`README: ${spec} is not an entry point of package.json`);
    return `from '${pathToFileURL(join(root, entry.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))).href}'`;
  });
  // the examples read files relative to the repository root, as the shell ones do
  const file = join(root, 'test', `.readme-${name}.ts`);
  writeFileSync(file, rewritten);
  const lines: string[] = [];
  const log = console.log;
  const cwd = process.cwd();
  console.log = (...a: unknown[]) => void lines.push(a.map(String).join(' '));
  try {
    process.chdir(root);
    await import(pathToFileURL(file).href);
  } finally {
    console.log = log;
    process.chdir(cwd);
    rmSync(file, { force: true });
  }
  return lines.map((l) => l + '\n').join('');
}

describe('README examples', () => {
  it('each command and the library have a runnable example, and every example has its output', () => {
    const sections = new Set(examples.map((e) => e.section));
    for (const s of ['render', 'audit', 'golden', 'template', 'diff', 'The library']) expect(sections.has(s), s).toBe(true);
    const lib = examples.filter((e) => e.lang === 'ts').map((e) => e.code);
    for (const api of ['new Template(', 'renderRequest(', 'audit.audit(', 'golden.checkMatrix(', 'diffInjection(']) expect(lib.some((c) => c.includes(api)), api).toBe(true);
    for (const e of examples) expect(e.output, `README.md:${e.line}`).toBeDefined();
  });

  it('the README keeps its first two commands', () => {
    const first = /^```sh\n([\s\S]*?)^```/m.exec(readme)![1]!;
    expect(first).toMatch(/^npm ci && npm run example\s/m);
    expect(first).toMatch(/^npm test\s/m);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.example).toContain('render --injector-configmap examples/istio-sidecar-injector.yaml');
  });

  for (const e of examples) {
    it(`README.md:${e.line} (${e.section}, ${e.lang})`, async () => {
      if (e.lang === 'sh') {
        const r = runShell(e.code);
        expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+\)?\n/);
        expect(r.code, r.stderr).toBe(e.exit);
        expect(r.stdout).toBe(e.output);
      } else {
        expect(await runTs(e.code, String(e.line))).toBe(e.output);
      }
    });
  }
});
