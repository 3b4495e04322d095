// The playground's Web Worker: the library, run off the page's thread. It takes {id, state} and answers
// {id, result}; the page ends it when an answer takes longer than the time limit allows.

import { runPlayground, type PlaygroundResult } from '../../src/playground/run.js';
import { stateOf } from '../../src/playground/state.js';

interface Request {
  id: number;
  state: unknown;
}

const scope = self as unknown as { onmessage: ((e: MessageEvent<Request>) => void) | null; postMessage(m: unknown): void };

scope.onmessage = (e) => {
  const { id, state } = e.data;
  let result: PlaygroundResult;
  try {
    result = runPlayground(stateOf(state));
  } catch (err) {
    // runPlayground answers problems as data; this is a fault of the page itself
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    result = { mode: 'inject', error: { message: `the playground failed: ${message}` }, templateOutput: '', merged: '', workloads: [], messages: [], findings: [], timelines: [], ms: 0 };
  }
  scope.postMessage({ id, result });
};
scope.postMessage({ ready: true });
