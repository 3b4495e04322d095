// A command whose input nests deeper than this thread's stack (guard/stack.ts) is run again on a worker
// thread with a stack of BIG_STACK_MB, where it gives Go's result. For that the first run's output is
// held back (HeldOutput) until it ends: when the stack ran out, the held text is dropped and the
// worker's output is written instead; otherwise it is written as it was. Output past HOLD_BYTES, or
// to a terminal after HOLD_MS (progress is for watching), is let through, and the run can then no
// longer be repeated (its small-stack error stands).
//
// The worker sends its stdout and stderr here to be written, and its temporary files to be removed on
// a signal: signals, a reader gone away (EPIPE) and the exit code stay with the main thread.

import type { Worker } from 'node:worker_threads';
import { nodeWorkerThreads } from '../guard/builtins.js';
import { BIG_STACK_MB } from '../guard/stack.js';
import { trackTemporary } from '../guard/fs.js';
import { builtModule } from '../guard/syncstack.js';

const HOLD_BYTES = 1 << 20;
const HOLD_MS = 1000;
export const MARK = 'sidecarRenderBigStack';

type Write = NodeJS.WriteStream['write'];
type Chunk = { stream: NodeJS.WriteStream; chunk: string | Uint8Array; encoding?: BufferEncoding };

/** Writes to stdout and stderr kept back while the run may still be repeated. */
export class HeldOutput {
  private held: Chunk[] = [];
  private size = 0;
  private through = false;
  private readonly started = Date.now();
  private readonly restore: Array<() => void> = [];

  constructor(
    private readonly maxBytes = HOLD_BYTES,
    private readonly maxMs = HOLD_MS,
  ) {
    for (const stream of [process.stdout, process.stderr]) {
      const own = Object.prototype.hasOwnProperty.call(stream, 'write');
      const write = stream.write;
      this.restore.push(() => {
        if (own) stream.write = write;
        else delete (stream as { write?: Write }).write;
      });
      stream.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((e?: Error | null) => void), cb?: (e?: Error | null) => void): boolean => {
        // a caller waiting for the write to happen cannot be held
        if (this.through || typeof encoding === 'function' || typeof cb === 'function') {
          this.release();
          return write.call(stream, chunk, encoding as BufferEncoding, cb);
        }
        this.held.push({ stream, chunk, encoding });
        this.size += chunk.length;
        if (this.size > this.maxBytes || (stream.isTTY === true && Date.now() - this.started > this.maxMs)) this.release();
        return true;
      }) as Write;
    }
  }

  /** True once anything was written: the run can no longer be repeated. */
  get released(): boolean {
    return this.through;
  }

  /** Write what is held and let everything after it through. */
  release(): void {
    if (this.through) return;
    this.through = true;
    const held = this.held;
    this.held = [];
    for (const h of held) h.stream.write(h.chunk, h.encoding);
  }

  /** Stop holding: the streams write for themselves again. Returns what was held, unwritten. */
  end(): Chunk[] {
    for (const r of this.restore) r();
    const held = this.held;
    this.held = [];
    return held;
  }
}

export function writeChunks(chunks: Chunk[]): void {
  for (const h of chunks) h.stream.write(h.chunk, h.encoding);
}

export interface WorkerInput {
  [MARK]: true;
  /** A whole command line, or (batch) template --batch case lines sent one by one. */
  mode: 'command' | 'batch';
  argv: string[];
  stdin?: string;
  tty: { stdin?: boolean; stdout?: boolean; stderr?: boolean };
}

type WorkerMessage = { fd: 1 | 2; data: string | Uint8Array } | { tmp: string; live: boolean } | { code: number } | { error: string };

/** The worker's entry (bigstack-worker.ts); under a TypeScript test runner, its built copy. */
function workerScript(): URL {
  return builtModule(import.meta.url, './bigstack-worker.js');
}

/**
 * Run the command line argv on a thread with a big stack; resolves to its exit code. stdin is what the
 * first run read from stdin, if anything. Rejects if the thread cannot be started.
 */
export function runOnBigStack(argv: string[], stdin: string | undefined): Promise<number> {
  const input: WorkerInput = {
    [MARK]: true,
    mode: 'command',
    argv,
    stdin,
    tty: { stdin: process.stdin.isTTY, stdout: process.stdout.isTTY, stderr: process.stderr.isTTY },
  };
  return new Promise<number>((resolve, reject) => {
    let w: Worker;
    try {
      w = new (nodeWorkerThreads().Worker)(workerScript(), { workerData: input, resourceLimits: { stackSizeMb: BIG_STACK_MB, maxYoungGenerationSizeMb: 64 }, stdin: false });
    } catch (e) {
      reject(e);
      return;
    }
    let code: number | undefined;
    w.on('message', (m: WorkerMessage) => {
      if ('fd' in m) (m.fd === 1 ? process.stdout : process.stderr).write(m.data);
      else if ('tmp' in m) trackTemporary(m.tmp, m.live);
      else if ('code' in m) code = m.code;
      else if ('error' in m) reject(new Error(m.error));
    });
    w.on('error', reject);
    w.on('exit', (status) => {
      if (code !== undefined) resolve(code);
      else reject(new Error(`the run on a big stack ended without a result (status ${status})`));
    });
  });
}

/**
 * template --batch cases run on one big-stack thread, started for the first case that needs it and
 * kept for the others; each answer comes back before the next case is read, as on the main thread.
 */
export class BigStackBatch {
  private worker?: Worker;
  private waiting?: { resolve: (line: string) => void; reject: (e: Error) => void };

  /** The result line of one case line. */
  run(line: string): Promise<string> {
    const w = (this.worker ??= this.start());
    return new Promise<string>((resolve, reject) => {
      this.waiting = { resolve, reject };
      w.postMessage(line);
    });
  }

  private start(): Worker {
    const input: WorkerInput = { [MARK]: true, mode: 'batch', argv: [], tty: {} };
    const w = new (nodeWorkerThreads().Worker)(workerScript(), { workerData: input, resourceLimits: { stackSizeMb: BIG_STACK_MB }, stdin: false });
    const fail = (e: Error) => {
      this.worker = undefined;
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(e);
    };
    w.on('message', (m: { result: string }) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.resolve(m.result);
    });
    w.on('error', fail);
    w.on('exit', (status) => fail(new Error(`the big-stack thread ended (status ${status})`)));
    return w;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }
}
