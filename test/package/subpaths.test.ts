// The package's subpath entries (sidecar-render/template, /funcs, /golden, /audit, /helm) resolve for a
// TypeScript consumer under every moduleResolution: node16 and bundler read `exports`; node10 ignores
// `exports` and finds a subpath's types only through `typesVersions`. A consumer project is made in a
// temporary folder, with node_modules/sidecar-render linked to this checkout, and type-checked with the
// repository's own tsc against the built dist/ (`npm test` builds it first).
//
// TypeScript 7 no longer accepts `moduleResolution: node10` (TS5108). Where the repository's tsc refuses
// it, node10's package lookup is checked as bundler resolution with `resolvePackageJsonExports: false`:
// the same lookup without `exports` (typesVersions, then the path inside the package), as TypeScript 5
// and 6 do for node10 consumers.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, { types: string; default: string }>;
  typesVersions?: Record<string, Record<string, string[]>>;
};
const subpaths = Object.keys(pkg.exports)
  .filter((k) => k !== '.')
  .map((k) => k.slice(2));

const work = mkdtempSync(join(tmpdir(), 'sidecar-render-consumer-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Mode = 'node16' | 'bundler' | 'node10';

const OPTIONS: Record<Mode, Record<string, unknown>> = {
  node16: { module: 'node16', moduleResolution: 'node16' },
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  node10: { module: 'commonjs', moduleResolution: 'node10' },
};
/** node10's lookup where the compiler no longer has node10: exports ignored, typesVersions and paths kept. */
const NODE10_LOOKUP = { module: 'esnext', moduleResolution: 'bundler', resolvePackageJsonExports: false };

const consumerSource = [
  "import { Template } from 'sidecar-render/template';",
  ...subpaths.map((s, i) => `import * as sub${i} from 'sidecar-render/${s}';`),
  "import * as main from 'sidecar-render';",
  '',
  "const t: Template = new Template('t').parse('{{ . }}');",
  "export const out: string = t.execute('x');",
  '// @ts-expect-error execute gives a string (fails if the types resolved to any)',
  "export const wrong: number = t.execute('x');",
  `export const all = [main, ${subpaths.map((_, i) => `sub${i}`).join(', ')}];`,
  '',
].join('\n');

/** A consumer folder whose node_modules/sidecar-render is `packageDir`; tsc's exit status and output. */
function typeCheck(name: string, packageDir: string, options: Record<string, unknown>): { status: number | null; output: string } {
  const dir = join(work, name);
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(packageDir, join(dir, 'node_modules', 'sidecar-render'), 'dir');
  // An ESM consumer under node16 (the package is ESM only); CommonJS for node10, as such projects are.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${name}`, private: true, ...(options.module === 'node16' ? { type: 'module' } : {}) }));
  writeFileSync(join(dir, 'index.ts'), consumerSource);
  const compilerOptions = { target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: [], ...options };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['index.ts'] }, null, 2));
  const r = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() };
}

/** Type-check under a mode; node10 falls back to its lookup when the compiler has removed the option. */
function checkMode(mode: Mode, packageDir: string, tag = ''): { status: number | null; output: string; as: string } {
  const r = typeCheck(`${mode}${tag}`, packageDir, OPTIONS[mode]);
  if (mode === 'node10' && /TS5108/.test(r.output)) {
    return { ...typeCheck(`${mode}${tag}-lookup`, packageDir, NODE10_LOOKUP), as: 'bundler without exports' };
  }
  return { ...r, as: mode };
}

describe('subpath entries resolve for TypeScript consumers', () => {
  it('dist/ is built (npm test runs tsc first; alone: npx tsc -p tsconfig.json)', () => {
    for (const s of Object.values(pkg.exports)) expect(existsSync(join(root, s.types)), s.types).toBe(true);
  });

  it('every subpath of exports has a typesVersions entry naming the same declarations', () => {
    expect(subpaths).toEqual(expect.arrayContaining(['template', 'funcs', 'golden', 'audit', 'helm']));
    const map = pkg.typesVersions?.['*'] ?? {};
    expect(Object.keys(map).sort()).toEqual([...subpaths].sort());
    for (const s of subpaths) expect(map[s], s).toEqual([pkg.exports[`./${s}`]!.types.replace(/^\.\//, '')]);
  });

  for (const mode of ['node16', 'bundler', 'node10'] as const) {
    it(`moduleResolution ${mode}: import { Template } from 'sidecar-render/template' (and every other subpath) type-checks`, { timeout: 60_000 }, () => {
      const r = checkMode(mode, root);
      expect(r.output, `tsc (${r.as})`).toBe('');
      expect(r.status).toBe(0);
    });
  }

  it('the node10 check fails without typesVersions (so it can fail)', { timeout: 60_000 }, () => {
    // The same package without typesVersions: its package.json, and dist/ linked in.
    const bare = join(work, 'bare-package');
    mkdirSync(bare);
    const { typesVersions: _dropped, ...rest } = pkg as Record<string, unknown>;
    writeFileSync(join(bare, 'package.json'), JSON.stringify(rest, null, 2));
    symlinkSync(join(root, 'dist'), join(bare, 'dist'), 'dir');
    const r = checkMode('node10', bare, '-bare');
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/TS2307: Cannot find module 'sidecar-render\/template'/);
  });
});
