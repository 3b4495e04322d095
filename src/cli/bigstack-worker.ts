// The big-stack thread of the command line (bigstack.ts): the same command, or template --batch cases,
// run again with output, temporary files and the exit code sent back to the main thread.

import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { setBigStack } from '../guard/stack.js';
import { observeTemporaries } from '../guard/fs.js';
import { MARK, type WorkerInput } from './bigstack.js';

type Write = NodeJS.WriteStream['write'];

/** The worker's side: the same command, with output, temporary files and the exit code sent back. */
async function serve(input: WorkerInput): Promise<void> {
  const port = parentPort!;
  setBigStack();
  if (input.mode === 'batch') {
    const { runLine } = await import('../batch.js');
    port.on('message', (line: string) => port.postMessage({ result: runLine(line) }));
    return;
  }
  const tty = input.tty;
  for (const [stream, isTTY] of [
    [process.stdin, tty.stdin],
    [process.stdout, tty.stdout],
    [process.stderr, tty.stderr],
  ] as const) {
    Object.defineProperty(stream, 'isTTY', { value: isTTY, configurable: true });
  }
  for (const [stream, fd] of [
    [process.stdout, 1],
    [process.stderr, 2],
  ] as const) {
    stream.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((e?: Error | null) => void), cb?: (e?: Error | null) => void): boolean => {
      const data = typeof chunk === 'string' && typeof encoding === 'string' && encoding !== 'utf8' ? Buffer.from(chunk, encoding) : chunk;
      port.postMessage({ fd, data });
      const done = typeof encoding === 'function' ? encoding : cb;
      if (done) queueMicrotask(() => done(null));
      return true;
    }) as Write;
  }
  observeTemporaries((tmp, live) => port.postMessage({ tmp, live }));
  try {
    const { main } = await import('./index.js');
    const code = await main(input.argv, input.stdin);
    port.postMessage({ code });
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.[MARK] === true) void serve(workerData as WorkerInput);
