// The playground's Web Worker: the library, run off the page's thread. It takes {id, state} and answers
// {id, result} (first with the pods alone, partial, then everything); the page ends it when an answer takes longer than the time limit allows.

import { runPlayground, type PlaygroundResult } from '../../src/playground/run.js';
import { decodeState, stateOf } from '../../src/playground/state.js';

/** A state to render, or (from boot.ts, as the page loads) the link's fragment that holds one. */
interface Request {
  id: number;
  state?: unknown;
  fragment?: string;
}

const scope = self as unknown as { onmessage: ((e: MessageEvent<Request>) => Promise<void>) | null; postMessage(m: unknown): void };

scope.onmessage = async (e) => {
  const { id, state, fragment } = e.data;
  let result: PlaygroundResult;
  try {
    const s = fragment !== undefined ? await decodeState(fragment) : stateOf(state);
    result = runPlayground(s, (r) => scope.postMessage({ id, result: r }));
  } catch (err) {
    // runPlayground answers problems as data; this is a fault of the page itself
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    result = { mode: 'inject', error: { message: `the playground failed: ${message}` }, templateOutput: '', merged: '', workloads: [], messages: [], findings: [], timelines: [], ms: 0 };
  }
  scope.postMessage({ id, result });
};
