// `npm run playground:build`: the playground page as static files, in build/playground/ (or the folder
// given as the first argument): index.html, boot.js (starts the worker first), main.js (the page), worker.js (the library, run in a Web
// Worker), and size.json with each file's size and gzip size. Nothing is fetched at run time: the
// starting points (templates/, values/, examples/) are bundled, and Node's modules have browser stand-ins
// in shims/ for what the in-memory paths never call.

import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const out = process.argv[2] ?? join(root, 'build', 'playground');
/** Node's modules the library imports, and the file of shims/ that stands in for each. */
const SHIMS = { fs: 'fs.ts', path: 'path.ts', crypto: 'crypto.ts', net: 'net.ts', zlib: 'zlib.ts', worker_threads: 'worker_threads.ts', module: 'module.ts', buffer: 'node-buffer.ts' };

/** node:X imports go to shims/X.ts; one without a stand-in fails the build, naming it. */
const nodeShims = {
  name: 'node-shims',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (a) => {
      const name = a.path.slice('node:'.length);
      if (!Object.hasOwn(SHIMS, name)) return { errors: [{ text: `${a.path} (imported by ${relative(root, a.importer)}) has no browser stand-in in playground/shims/` }] };
      return { path: join(here, 'shims', SHIMS[name]) };
    });
  },
};

/** `playground:files`: the repository's own starting points, path to text. */
const files = {
  name: 'playground-files',
  setup(b) {
    b.onResolve({ filter: /^playground:files$/ }, () => ({ path: 'files', namespace: 'playground-files' }));
    b.onLoad({ filter: /.*/, namespace: 'playground-files' }, () => {
      const texts = {};
      for (const dir of ['templates', 'values', 'examples']) {
        for (const f of readdirSync(join(root, dir)).sort()) texts[`${dir}/${f}`] = readFileSync(join(root, dir, f), 'utf8');
      }
      return { contents: JSON.stringify(texts), loader: 'json', watchFiles: [] };
    });
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const t0 = performance.now();
const common = {
  outdir: out,
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2022',
  platform: 'browser',
  legalComments: 'none',
  // the library names its own files by import.meta.url for Node's worker threads, which the page has not
  define: { 'process.env.NODE_ENV': '"production"', 'import.meta.url': '"file:///playground/worker.js"' },
  plugins: [nodeShims, files],
  logLevel: 'warning',
};
// the page: boot.js starts the worker first, main.js is the editors and tabs
await build({ ...common, entryPoints: { boot: join(here, 'page', 'boot.ts'), main: join(here, 'page', 'main.ts') } });
// the worker: the library, with Node's Buffer and a SharedArrayBuffer where the page has none
await build({ ...common, entryPoints: { worker: join(here, 'page', 'worker.ts') }, inject: [join(here, 'shims', 'buffer.ts'), join(here, 'shims', 'shared-array-buffer.ts')] });
copyFileSync(join(here, 'page', 'index.html'), join(out, 'index.html'));
copyFileSync(join(here, 'page', 'style.css'), join(out, 'style.css'));

const sizes = {};
let total = 0;
let totalGzip = 0;
for (const f of readdirSync(out).sort()) {
  const bytes = readFileSync(join(out, f));
  const gz = gzipSync(bytes, { level: 9 }).length;
  sizes[f] = { bytes: bytes.length, gzip: gz };
  total += bytes.length;
  totalGzip += gz;
}
writeFileSync(join(out, 'size.json'), JSON.stringify({ files: sizes, total: { bytes: total, gzip: totalGzip } }, null, 2) + '\n');
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`playground built in ${(performance.now() - t0).toFixed(0)} ms: ${relative(process.cwd(), out) || '.'}/`);
for (const [f, s] of Object.entries(sizes)) console.log(`  ${f.padEnd(12)} ${kb(s.bytes).padStart(9)}  gzip ${kb(s.gzip).padStart(8)}`);
console.log(`  ${'total'.padEnd(12)} ${kb(total).padStart(9)}  gzip ${kb(totalGzip).padStart(8)}`);
