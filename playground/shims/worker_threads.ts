// node:worker_threads in the playground's bundle. The library repeats a call that ran out of stack on a
// Node thread with a big stack (src/guard/syncstack.ts); a browser has no such thread, so the call keeps
// its small-stack error, which says why, as a caller's own function does in Node.

export const isMainThread = true;
export const workerData = null;
export const parentPort = null;

export class Worker {
  constructor() {
    throw new Error('no thread with a bigger stack in the browser');
  }
}

export function receiveMessageOnPort(): undefined {
  return undefined;
}

const Channel = globalThis.MessageChannel;
export { Channel as MessageChannel };
export type MessagePort = globalThis.MessagePort;
