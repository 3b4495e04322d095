#!/usr/bin/env node
'use strict';
// The command line. When `npm run build` has bundled it (tools/bundle-cli.mjs) and the bundle is no older
// than any module of dist/, it runs the bundle through V8's code cache; --help and version print
// without loading the commands. Otherwise it imports dist/cli/index.js.
// A CommonJS script: Node starts one without its ES module loader, a cold start 15 ms of CPU less.

const { readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

// V8 optimises a function after four times the usual work in it: a run of the command line is short,
// and optimising code it leaves soon cost more than it saved (a chart of bitnami's redis: 13% fewer
// instructions; a render of 2,000 workloads no slower). tools/bundle-cli.mjs makes the code cache under
// the same flags (it reads them from this line), or V8 would refuse the cache.
const V8_FLAGS = '--interrupt-budget=270336';

const dist = join(__dirname, '..', 'dist');

function mtime(name) {
  try {
    return statSync(join(dist, name)).mtimeMs;
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
    const text = JSON.parse(readFileSync(join(dist, 'cli-help.json'), 'utf8'))[args.join(' ')];
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

async function loadMain() {
  require('node:v8').setFlagsFromString(V8_FLAGS);
  if (!bundled) return (await import('../dist/cli/index.js')).main;
  const { createRequire } = require('node:module');
  const vm = require('node:vm');
  const file = join(dist, 'cli.cjs');
  let cachedData;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    cachedData = undefined;
  }
  // the bundle is ASCII (tools/bundle-cli.mjs checks): read as latin1, it skips UTF-8 decoding
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'latin1')}\n})`;
  const script = new vm.Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(file), mod, file, dist);
  return mod.exports.main;
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
