// A synchronous call on a thread with a big stack, for library calls that ran out of the JavaScript
// stack (guard/stack.ts) and must still return their answer synchronously. The caller posts its
// request on a MessageChannel and blocks in Atomics.wait on a shared word until the worker has posted
// its answer and flipped the word; the answer is then taken off the port with receiveMessageOnPort.
// Neither side needs the caller's event loop. One worker per script is kept for later calls, unref'd
// so that it never keeps the process alive; a worker that fails or does not answer in time is ended,
// and the next call starts a fresh one.

import type { MessagePort, Worker } from 'node:worker_threads';
import { nodeWorkerThreads } from './builtins.js';
import { LIBRARY_STACK_MB, setBigStack } from './stack.js';

const MARK = 'sidecarRenderSyncStack';

interface Live {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
}

type Reply = { ok: unknown } | { fault: string };

const live = new Map<string, Live>();
let workersStarted = 0;
let calls = 0;

/** How many big-stack workers were started, and how many calls were made on them (for tests and diagnostics). */
export function syncStackStats(): { workersStarted: number; calls: number } {
  return { workersStarted, calls };
}

/** A big-stack run that could not give an answer: the worker did not start, failed, or took too long. */
export class SyncStackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyncStackError';
  }
}

function start(script: URL): Live {
  const { MessageChannel, Worker } = nodeWorkerThreads();
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(script, {
    workerData: { [MARK]: true, port: port2, signal },
    transferList: [port2],
    resourceLimits: { stackSizeMb: LIBRARY_STACK_MB },
    stdin: false,
    stdout: false,
    stderr: false,
  });
  worker.unref();
  // an error event no one listens to would be thrown on the event loop
  worker.on('error', () => {});
  worker.on('exit', () => {
    if (live.get(script.href)?.worker === worker) live.delete(script.href);
  });
  workersStarted++;
  return { worker, port: port1, signal };
}

function stop(script: URL, l: Live): void {
  if (live.get(script.href) === l) live.delete(script.href);
  l.port.close();
  void l.worker.terminate();
}

/**
 * Send request to the worker running script (which calls serveSyncStack) and wait for its answer, at
 * most timeoutMs. Throws SyncStackError when there is no answer; the handler's own errors come back as
 * its answer (the handler encodes them).
 */
export function callOnBigStack(script: URL, request: unknown, timeoutMs: number): unknown {
  let l = live.get(script.href);
  if (!l) {
    try {
      l = start(script);
    } catch (e) {
      throw new SyncStackError(`the big-stack thread did not start: ${e instanceof Error ? e.message : String(e)}`);
    }
    live.set(script.href, l);
  }
  calls++;
  Atomics.store(l.signal, 0, 0);
  l.port.postMessage(request);
  const waited = Atomics.wait(l.signal, 0, 0, timeoutMs);
  const got = nodeWorkerThreads().receiveMessageOnPort(l.port);
  if (got === undefined) {
    stop(script, l);
    throw new SyncStackError(waited === 'timed-out' ? `the big-stack thread gave no answer within ${timeoutMs} ms` : 'the big-stack thread ended without an answer');
  }
  const reply = got.message as Reply;
  if ('fault' in reply) {
    stop(script, l);
    throw new SyncStackError(`the big-stack thread failed: ${reply.fault}`);
  }
  return reply.ok;
}

/**
 * The worker's side: answer each request with handler's result. A handler that throws ends this
 * worker's usefulness (its state is unknown): the caller is told and stops it.
 */
export function serveSyncStack(handler: (request: unknown) => unknown): void {
  const { isMainThread, workerData } = nodeWorkerThreads();
  if (isMainThread || (workerData as Record<string, unknown> | null)?.[MARK] !== true) return;
  setBigStack();
  const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };
  const answer = (reply: Reply) => {
    try {
      port.postMessage(reply);
    } catch (e) {
      port.postMessage({ fault: `the answer could not be sent: ${e instanceof Error ? e.message : String(e)}` });
    }
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  };
  port.on('message', (request: unknown) => {
    let reply: Reply;
    try {
      reply = { ok: handler(request) };
    } catch (e) {
      reply = { fault: e instanceof Error ? e.message : String(e) };
    }
    answer(reply);
  });
  // a worker that is ending (process.exit in a handler, an uncaught error) wakes the caller up
  process.on('exit', () => {
    Atomics.store(signal, 0, 2);
    Atomics.notify(signal, 0);
  });
}

/** Whether this thread is a sync big-stack worker (so its handler module should serve). */
export function isSyncStackWorker(): boolean {
  const { isMainThread, workerData } = nodeWorkerThreads();
  return !isMainThread && (workerData as Record<string, unknown> | null)?.[MARK] === true;
}

/** The built copy of a module next to this one: under a TypeScript test runner a worker cannot run the source. */
export function builtModule(url: string, file: string): URL {
  const here = new URL(url);
  const rel = new URL(file, here);
  if (!here.pathname.endsWith('.ts')) return rel;
  // .../src/x/y.ts -> .../dist/x/y.js
  const p = rel.pathname;
  const i = p.lastIndexOf('/src/');
  return new URL('file://' + p.slice(0, i) + '/dist/' + p.slice(i + 5).replace(/\.ts$/, '.js'));
}
