#!/usr/bin/env node
// The command line. When `npm run build` has bundled it (tools/bundle-cli.mjs) and the bundle is no older
// than any module of dist/, it runs the bundle through V8's code cache; --help and version print
// without loading the commands. Otherwise it imports dist/cli/index.js.

import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';

const dist = new URL('../dist/', import.meta.url);
const path = (name) => decodeURIComponent(new URL(name, dist).pathname);

function mtime(name) {
  try {
    return statSync(path(name)).mtimeMs;
  } catch {
    return -1;
  }
}

// `tsc -p .` writes every module, dist/cli/index.js among them: a bundle older than it is stale (a
// partial build, tsc --watch, needs `npm run build` before the bundle is used again)
const bundled = mtime('cli.cjs') >= mtime('cli/index.js') && mtime('cli/index.js') > 0;

/** What the CLI prints for exactly these arguments when they ask for help or the version (made at build time). */
function builtText(args) {
  const last = args[args.length - 1];
  if (!(last === '--help' || last === '-h' || (args.length === 1 && (last === 'version' || last === '--version' || last === '-V')))) return undefined;
  try {
    const text = JSON.parse(readFileSync(path('cli-help.json'), 'utf8'))[args.join(' ')];
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

async function loadMain() {
  if (!bundled) return (await import('../dist/cli/index.js')).main;
  const file = path('cli.cjs');
  let cachedData;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    cachedData = undefined;
  }
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`;
  const script = new vm.Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path('.'));
  return module.exports.main;
}

async function run() {
  const text = bundled ? builtText(process.argv.slice(2)) : undefined;
  if (text !== undefined) {
    process.stdout.write(text);
    return 0;
  }
  return (await loadMain())(process.argv);
}

run().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`sidecar-render: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
