// Golden-file assertions for a test suite (vitest, jest, node:test): compare a rendering with a file,
// or rewrite the file when asked (UPDATE_GOLDEN=1 or { update: true }).

import { compareRendering, type Comparison } from './compare.js';
import type { CompareMode } from './matrix.js';
import { readTextLimited, writeFileAtomic } from '../guard/fs.js';

export interface GoldenOptions {
  compare?: CompareMode;
  /** Rewrite the golden file instead of comparing; default: the UPDATE_GOLDEN environment variable is "1". */
  update?: boolean;
}

/** Compare without throwing; a missing golden file is a difference (or is written when updating). */
export function matchGolden(actual: string, goldenFile: string, opts: GoldenOptions = {}): Comparison {
  const update = opts.update ?? process.env.UPDATE_GOLDEN === '1';
  let want: string | undefined;
  try {
    want = readTextLimited(goldenFile);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const cmp = compareRendering(want ?? '', actual, opts.compare ?? 'exact', goldenFile);
  if (update && (want === undefined || !cmp.equal)) {
    writeFileAtomic(goldenFile, actual, { createFolders: true });
    return { equal: true, diff: '' };
  }
  if (want === undefined) return { equal: false, diff: `golden file ${goldenFile} does not exist (run with UPDATE_GOLDEN=1 to create it)\n${cmp.diff}` };
  return cmp;
}

export class GoldenMismatchError extends Error {
  constructor(readonly diff: string) {
    super(`rendering differs from golden file:\n${diff}`);
    this.name = 'GoldenMismatchError';
  }
}

/** Throw (failing the test) with a unified diff when the rendering differs from the golden file. */
export function expectGolden(actual: string, goldenFile: string, opts: GoldenOptions = {}): void {
  const cmp = matchGolden(actual, goldenFile, opts);
  if (!cmp.equal) throw new GoldenMismatchError(cmp.diff);
}
