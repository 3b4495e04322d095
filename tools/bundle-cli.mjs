#!/usr/bin/env node
// Bundle the command line into one script with a V8 code cache, so that a cold start neither resolves
// and reads a hundred modules nor compiles them: dist/cli.cjs (every module of dist/ the CLI imports,
// commander, yaml, ajv and re2js with them, the last three loaded on first use), dist/cli.cjs.cache (V8's
// code for it, made after running the example render and a chart, so the functions those use are
// compiled already) and dist/cli-help.json (what --help of every command and version print, printed
// without loading the commands). bin/sidecar-render.cjs uses them when they are newer than dist/cli/index.js, and the
// modules of dist/ otherwise. Run after `tsc -p .` (npm run build does both).
//
//   node tools/bundle-cli.mjs [--no-cache]

import { build } from 'esbuild';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(dist, 'cli.cjs');

// import.meta.url of a module becomes the URL its file has in dist/, so the paths it makes from it
// (workers, lazily required packages) are what they were
const metaUrl = {
  name: 'import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      // a package required lazily (yaml, ajv, re2js) is bundled too, still loaded on first use: its code
      // then has a place in the code cache
      text = text.replace(/createRequire\(import\.meta\.url\)\(('[^']+')\)/g, 'require($1)');
      const rel = relative(dist, args.path).split('\\').join('/');
      return { contents: text.split('import.meta.url').join(`__sidecarRenderUrl(${JSON.stringify(rel)})`), loader: 'js' };
    });
  },
};

// commander loads node:child_process at start-up for subcommands that are programs of their own, which
// this CLI has none of: in the bundle it is loaded on first use (a cold start several milliseconds less)
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!text.includes(eager)) throw new Error(`${args.path}: commander no longer requires node:child_process as bundle-cli expects`);
      return { contents: text.replace(eager, "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };"), loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: [join(dist, 'cli/index.js')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  write: false,
  logLevel: 'error',
  legalComments: 'none',
  banner: { js: "const __sidecarRenderUrl = (p) => require('node:url').pathToFileURL(require('node:path').join(__dirname, p)).href;" },
  plugins: [metaUrl, lazyChildProcess],
});
// bin/sidecar-render.cjs reads the bundle as latin1, which skips UTF-8 decoding: esbuild escapes the
// characters outside ASCII in strings but keeps them in comments and regular expression literals, where
// \uXXXX means the same (in identifiers too). A tagged template's raw text would change, so a line with
// such a character and a backquote stops the build instead.
const code = result.outputFiles[0].text.replace(/^.*[^\x00-\x7f].*$/gm, (line) => {
  if (line.includes('`')) throw new Error(`bundle-cli: a character outside ASCII on a line with a template literal: ${line.trim().slice(0, 120)}`);
  return line.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
});
const write = (file, data) => {
  writeFileSync(`${file}.tmp`, data);
  renameSync(`${file}.tmp`, file);
};

/** The bundle compiled as bin/sidecar-render.cjs compiles it: its exports. */
function load(script) {
  const fn = script.runInThisContext();
  const module = { exports: {} };
  fn(module.exports, createRequire(out), module, out, dist);
  return module.exports;
}
const wrap = (src) => `(function (exports, require, module, __filename, __dirname) {${src}\n})`;

/** Run the CLI with its output captured; resolves to what it printed on stdout. */
async function quietly(main, args) {
  const ow = process.stdout.write;
  const ew = process.stderr.write;
  let text = '';
  process.stdout.write = (c) => ((text += String(c)), true);
  process.stderr.write = () => true;
  try {
    await main(['node', 'sidecar-render', ...args]);
  } finally {
    process.stdout.write = ow;
    process.stderr.write = ew;
    process.exitCode = undefined;
  }
  return text;
}

write(out, code);
// the code cache is V8's under the flags bin/sidecar-render.cjs sets before it loads the bundle
const binText = readFileSync(join(root, 'bin', 'sidecar-render.cjs'), 'utf8');
const flags = /^const V8_FLAGS = '([^']*)';$/m.exec(binText);
if (!flags) throw new Error('bundle-cli: bin/sidecar-render.cjs no longer names its V8_FLAGS');
v8.setFlagsFromString(flags[1]);
const script = new vm.Script(wrap(code), { filename: out });
const cli = load(script);

// what the CLI prints for its help and version, keyed by the arguments joined with a space
const commands = ['', 'template', 'render', 'audit', 'chart', 'diff', 'golden', 'golden check', 'golden update', 'completion', 'version'];
const help = {};
for (const c of commands) {
  for (const flag of ['--help', '-h']) {
    const args = [...c.split(' ').filter(Boolean), flag];
    help[args.join(' ')] = await quietly(cli.main, args);
  }
}
for (const args of [['version'], ['--version'], ['-V']]) help[args.join(' ')] = await quietly(cli.main, args);
write(join(dist, 'cli-help.json'), JSON.stringify(help));

if (!process.argv.includes('--no-cache')) {
  // warm the functions a render and a chart use, then keep V8's code for them
  const ex = (f) => join(root, 'examples', f);
  await quietly(cli.main, ['render', '-q', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '--mesh', ex('istio-mesh.yaml'), '-f', ex('deployment.yaml'), '--merged']);
  await quietly(cli.main, ['audit', '-q', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', ex('deployment.yaml')]);
  const scratch = mkdtempSync(join(tmpdir(), 'sidecar-render-bundle-'));
  try {
    writeFileSync(join(scratch, 'Chart.yaml'), 'apiVersion: v2\nname: warm\nversion: 0.1.0\n');
    writeFileSync(join(scratch, 'values.yaml'), 'name: x\nlist: [a, b]\n');
    const t = join(scratch, 'templates');
    (await import('node:fs')).mkdirSync(t);
    writeFileSync(join(t, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name | quote }}\ndata:\n{{- range $i, $v := .Values.list }}\n  k{{ $i }}: {{ $v | upper | quote }}\n{{- end }}\n');
    await quietly(cli.main, ['chart', scratch]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  write(`${out}.cache`, script.createCachedData());
} else {
  rmSync(`${out}.cache`, { force: true });
}
process.stderr.write(`bundle-cli: dist/cli.cjs ${(code.length / 1024).toFixed(0)} KiB, ${Object.keys(help).length} help and version texts${process.argv.includes('--no-cache') ? '' : ', code cache'}\n`);
