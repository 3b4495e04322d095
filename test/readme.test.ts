// The runnable examples of the README and docs/, run: fenced blocks whose info string is `sh runnable` or `ts runnable`
// (with `exit=N` when the command is meant to fail), each compared with the `text output` block right
// after it. Shell blocks run from the repository root with `sidecar-render` on the PATH (this checkout's
// bin, over dist/, which `npm test` builds first); TypeScript blocks import the package by its name,
// here resolved to src/.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

interface Example {
  /** README.md, docs/commands.md, ... */
  file: string;
  lang: 'sh' | 'ts';
  code: string;
  exit: number;
  output?: string;
  /** The README section (## heading) it is in. */
  section: string;
  line: number;
}

/** Every runnable block, with the output block that follows it (only blank lines between). */
function runnableExamples(text: string, file: string): Example[] {
  const out: Example[] = [];
  const fence = /^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;
  const blocks: { info: string; body: string; start: number; end: number }[] = [];
  for (let m = fence.exec(text); m; m = fence.exec(text)) blocks.push({ info: m[1]!.trim(), body: m[2]!, start: m.index, end: m.index + m[0].length });
  blocks.forEach((b, i) => {
    const words = b.info.split(/\s+/);
    if (!words.includes('runnable')) return;
    const lang = words[0];
    if (lang !== 'sh' && lang !== 'ts') throw new Error(`${file}: a runnable block must be sh or ts, not "${lang}"`);
    const exit = Number(/^exit=(\d+)$/.exec(words.find((w) => w.startsWith('exit=')) ?? '')?.[1] ?? 0);
    const next = blocks[i + 1];
    const between = next ? text.slice(b.end, next.start) : 'x';
    const output = next && next.info === 'text output' && between.trim() === '' ? next.body : undefined;
    const before = text.slice(0, b.start);
    const section = [...before.matchAll(/^## (.*)$/gm)].pop()?.[1] ?? '';
    out.push({ file, lang, code: b.body, exit, ...(output !== undefined ? { output } : {}), section, line: before.split('\n').length });
  });
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const shim = join(dir, 'bin');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const examples = pages.flatMap((page) => runnableExamples(readFileSync(join(root, page), 'utf8'), page));

function runShell(code: string): { code: number | null; stdout: string; stderr: string } {
  mkdirSync(shim, { recursive: true });
  const exe = join(shim, 'sidecar-render');
  writeFileSync(exe, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'bin', 'sidecar-render.cjs'))} "$@"\n`);
  chmodSync(exe, 0o755);
  const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', code], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${shim}:${process.env.PATH ?? ''}`, NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The package's entry points as package.json exports them, each mapped from dist/ to its source file. */
const entries = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports as Record<string, { default: string }>;

/** Run a TypeScript example with the package's imports pointed at src/, printing into a buffer. */
async function runTs(code: string, name: string): Promise<string> {
  const rewritten = code.replace(/from '(sidecar-render(?:\/[a-z]+)?)'/g, (_m, spec: string) => {
    const entry = entries[`.${spec.slice('sidecar-render'.length)}`];
    if (!entry) throw new Error(`${spec} is not an entry point of package.json`);
    const source = entry.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
    return `from '${pathToFileURL(join(root, source)).href}'`;
  });
  // the examples read files relative to the repository root, as the shell ones do
  const file = join(root, 'test', `.readme-${name.replace(/[^\w.-]/g, '_')}.ts`);
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

describe('README and docs/ examples', () => {
  it('each command and the library have a runnable example, and every example has its output', () => {
    const sections = new Set(examples.filter((e) => e.file === 'docs/commands.md').map((e) => e.section));
    for (const s of ['render', 'audit', 'golden', 'template', 'diff']) expect(sections.has(s), s).toBe(true);
    expect(examples.some((e) => e.file === 'README.md' && e.lang === 'sh')).toBe(true);
    const lib = examples.filter((e) => e.lang === 'ts' && e.file === 'docs/library.md').map((e) => e.code);
    for (const api of ['new Template(', 'renderRequest(', 'audit.audit(', 'golden.checkMatrix(', 'diffInjection(']) expect(lib.some((c) => c.includes(api)), api).toBe(true);
    for (const e of examples) expect(e.output, `${e.file}:${e.line}`).toBeDefined();
  });

  it('the README keeps its first two commands', () => {
    const first = /^```sh\n([\s\S]*?)^```/m.exec(readme)![1]!;
    expect(first).toMatch(/^npm ci && npm run example\s/m);
    expect(first).toMatch(/^npm test\s/m);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.example).toContain('render --injector-configmap examples/istio-sidecar-injector.yaml');
  });

  for (const e of examples) {
    it(`${e.file}:${e.line} (${e.section || 'top'}, ${e.lang})`, async () => {
      if (e.lang === 'sh') {
        const r = runShell(e.code);
        expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+\)?\n/);
        expect(r.code, r.stderr).toBe(e.exit);
        expect(r.stdout).toBe(e.output);
      } else {
        expect(await runTs(e.code, `${e.file}-${e.line}`)).toBe(e.output);
      }
    });
  }
});
