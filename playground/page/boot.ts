// Loaded in the page's <head>, before the page's own (larger) script: starts the worker and, when the
// link holds a state, asks it to render that state at once, so that the library loads and renders
// while the editors are being built. Answers that come before the page's script is ready are kept
// for it (window.playgroundBoot).

export interface Boot {
  worker: Worker;
  /** The fragment being rendered as request 0, if any. */
  fragment?: string;
  /** Messages the worker sent before the page listened. */
  early: MessageEvent[];
}

const worker = new Worker('worker.js');
const boot: Boot = { worker, early: [] };
worker.onmessage = (e) => boot.early.push(e);
if (location.hash.startsWith('#s=')) {
  boot.fragment = location.hash;
  worker.postMessage({ id: 0, fragment: location.hash });
}
(window as unknown as { playgroundBoot?: Boot }).playgroundBoot = boot;
