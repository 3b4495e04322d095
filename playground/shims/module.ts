// node:module in the playground's bundle. The library loads yaml, re2js and ajv, and Node's heavier
// built-in modules (src/guard/builtins.ts), with createRequire on first use, to keep them off the CLI's
// start-up; here yaml, re2js and the stand-ins of the built-ins are bundled and handed over as require
// would. ajv compiles schemas other than the bundled validators' (a chart's
// values.schema.json), which the page never gives it.

import * as yaml from 'yaml';
import { RE2JS } from 're2js';
import * as crypto from './crypto.js';
import * as net from './net.js';
import * as workerThreads from './worker_threads.js';
import * as zlib from './zlib.js';

const MODULES: Record<string, unknown> = { yaml, re2js: { RE2JS }, 'node:crypto': crypto, 'node:net': net, 'node:worker_threads': workerThreads, 'node:zlib': zlib };

export function createRequire(_url: string): (id: string) => unknown {
  return (id: string) => {
    const m = MODULES[id];
    if (m === undefined) throw new Error(`${id} is not part of the playground's bundle`);
    return m;
  };
}
