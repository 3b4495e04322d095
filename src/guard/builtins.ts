// Node's built-in modules that cost a cold start several milliseconds each to load (crypto, zlib, net,
// worker_threads, child_process), loaded on first use: a `render` of one pod never hashes a
// certificate, inflates an archive or starts a thread, and loading them all at start-up was a tenth of
// its cold CPU time. Each getter loads its module once.

import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');
type Zlib = typeof import('node:zlib');
type Net = typeof import('node:net');
type WorkerThreads = typeof import('node:worker_threads');
type ChildProcess = typeof import('node:child_process');

const load = createRequire(import.meta.url);
let crypto: Crypto | undefined;
let zlib: Zlib | undefined;
let net: Net | undefined;
let workerThreads: WorkerThreads | undefined;
let childProcess: ChildProcess | undefined;

export const nodeCrypto = (): Crypto => (crypto ??= load('node:crypto') as Crypto);
export const nodeZlib = (): Zlib => (zlib ??= load('node:zlib') as Zlib);
export const nodeNet = (): Net => (net ??= load('node:net') as Net);
export const nodeWorkerThreads = (): WorkerThreads => (workerThreads ??= load('node:worker_threads') as WorkerThreads);
export const nodeChildProcess = (): ChildProcess => (childProcess ??= load('node:child_process') as ChildProcess);
