// `golden check` and `golden update`: render every case of a matrix and compare with, or write, its golden file.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareRendering } from './compare.js';
import type { GoldenCase, GoldenMatrix } from './matrix.js';
import { FileError, listFiles, readTextLimited, realPathLoose, writeError, writeFileAtomic } from '../guard/fs.js';
import { isInside } from './matrix.js';

/** Renders one case to the text its golden file holds. */
export type CaseRenderer = (c: GoldenCase) => Promise<string> | string;

export type CaseStatus = 'passed' | 'changed' | 'missing' | 'failed';

export interface CaseResult {
  name: string;
  golden: string;
  status: CaseStatus;
  /** Unified diff golden → rendered, for changed cases. (A missing golden has none: its whole
   *  rendering as added lines told nothing the golden's name does not, thousands of lines a matrix.) */
  diff?: string;
  /** The render error, for failed cases. */
  error?: string;
}

export interface CheckReport {
  results: CaseResult[];
  passed: number;
  changed: number;
  missing: number;
  failed: number;
  /** Golden files under the golden directory that no case produces. */
  stale: string[];
  /** Those of them that no `golden update` of this matrix wrote (its record does not name them):
   *  `--prune` leaves them in place. */
  unrecorded: string[];
}

export interface RunOptions {
  /** Called after each case; used for progress on stderr. */
  onProgress?: (done: number, total: number) => void;
  /** Only cases whose name matches. */
  filter?: (name: string) => boolean;
}

function rel(m: GoldenMatrix, file: string): string {
  return path.relative(m.goldenDir, file).split(path.sep).join('/');
}

/**
 * The golden files `golden update` wrote into the golden directory, one relative path a line, in a
 * dotfile there: `--prune` removes a stale file only when the record names it, so a file the matrix did
 * not write is never removed, whatever folder goldenDir names.
 */
const RECORD = '.sidecar-render-golden';

function readRecord(m: GoldenMatrix): Set<string> {
  try {
    const text = readTextLimited(goldenTarget(m, path.join(m.goldenDir, RECORD)));
    return new Set(text.split('\n').filter((l) => l !== '' && !l.startsWith('#')));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw e instanceof GoldenFileError ? new FileError(path.join(m.goldenDir, RECORD), e.message) : writeError(e, path.join(m.goldenDir, RECORD), 'cannot read');
  }
}

function writeRecord(m: GoldenMatrix, files: Set<string>): void {
  const text = `# golden files written by sidecar-render golden update for ${path.basename(m.file)}; --prune removes only these\n${[...files].sort().join('\n')}\n`;
  writeFileAtomic(path.join(m.goldenDir, RECORD), text, { followLinks: false, createFolders: true });
}

/** A golden file that cannot be used: the text is the case's error. */
class GoldenFileError extends Error {}

/**
 * Where a golden file really is, refused when a symbolic link (of the file or of a folder on its way)
 * leads out of the golden directory: nothing outside it is read as a golden, written or removed.
 */
function goldenTarget(m: GoldenMatrix, file: string): string {
  const real = realPathLoose(file);
  if (!isInside(realPathLoose(m.goldenDir), real)) {
    throw new GoldenFileError(`golden file ${rel(m, file)} leads out of the golden directory through a symbolic link`);
  }
  return real;
}

function readIfExists(m: GoldenMatrix, file: string): string | undefined {
  const real = goldenTarget(m, file);
  try {
    // a FIFO or device would block or never end: goldens are regular files
    if (!fs.statSync(real).isFile()) throw new GoldenFileError(`golden file ${rel(m, file)} is not a regular file`);
    return readTextLimited(real);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (e instanceof GoldenFileError) throw e;
    throw new GoldenFileError(writeError(e, `golden file ${rel(m, file)}`, 'cannot read').message);
  }
}

/** A case's result from its golden file, or the case failed when the file cannot be used. */
function withGolden(c: GoldenCase, golden: string, f: () => CaseResult): CaseResult {
  try {
    return f();
  } catch (e) {
    if (e instanceof GoldenFileError || e instanceof FileError) return { name: c.name, golden, status: 'failed', error: e.message };
    throw e;
  }
}

async function renderAll(
  m: GoldenMatrix,
  render: CaseRenderer,
  opts: RunOptions,
  each: (c: GoldenCase, out: { text?: string; error?: string }) => CaseResult,
): Promise<CheckReport> {
  const cases = opts.filter ? m.cases.filter((c) => opts.filter!(c.name)) : m.cases;
  const results: CaseResult[] = [];
  let done = 0;
  for (const c of cases) {
    let out: { text?: string; error?: string };
    try {
      out = { text: await render(c) };
    } catch (e) {
      out = { error: e instanceof Error ? e.message : String(e) };
    }
    results.push(each(c, out));
    opts.onProgress?.(++done, cases.length);
  }
  const produced = new Set(m.cases.map((c) => c.goldenPath));
  const stale = listFiles(m.goldenDir).filter((f) => !produced.has(f)).map((f) => rel(m, f));
  const record = readRecord(m);
  const count = (s: CaseStatus) => results.filter((r) => r.status === s).length;
  return { results, passed: count('passed'), changed: count('changed'), missing: count('missing'), failed: count('failed'), stale, unrecorded: stale.filter((f) => !record.has(f)) };
}

/** Render every case and compare with its golden file; writes nothing. */
export function checkMatrix(m: GoldenMatrix, render: CaseRenderer, opts: RunOptions = {}): Promise<CheckReport> {
  return renderAll(m, render, opts, (c, out) => {
    const golden = rel(m, c.goldenPath);
    if (out.error !== undefined) return { name: c.name, golden, status: 'failed', error: out.error };
    return withGolden(c, golden, () => {
      const want = readIfExists(m, c.goldenPath);
      if (want === undefined) return { name: c.name, golden, status: 'missing' };
      const cmp = compareRendering(want, out.text!, c.compare, golden);
      return cmp.equal ? { name: c.name, golden, status: 'passed' } : { name: c.name, golden, status: 'changed', diff: cmp.diff };
    });
  });
}

export interface UpdateReport extends CheckReport {
  /** Golden files written because they did not exist. */
  added: string[];
  /** Golden files rewritten because the rendering changed. */
  updated: string[];
  /** Stale golden files removed (with prune). */
  removed: string[];
}

/**
 * Write new and changed golden files atomically; report (and with prune, remove) stale ones.
 * Files outside the golden directory are never touched; a case that fails to render keeps its old golden.
 */
export async function updateMatrix(m: GoldenMatrix, render: CaseRenderer, opts: RunOptions & { prune?: boolean } = {}): Promise<UpdateReport> {
  const added: string[] = [];
  const updated: string[] = [];
  const report = await renderAll(m, render, opts, (c, out) => {
    const golden = rel(m, c.goldenPath);
    if (out.error !== undefined) return { name: c.name, golden, status: 'failed', error: out.error };
    return withGolden(c, golden, () => {
      const want = readIfExists(m, c.goldenPath);
      if (want !== undefined && compareRendering(want, out.text!, c.compare, golden).equal) return { name: c.name, golden, status: 'passed' };
      // checked again just before the write: the real place, never through a link out of goldenDir
      writeFileAtomic(goldenTarget(m, c.goldenPath), out.text!, { followLinks: false, createFolders: true });
      (want === undefined ? added : updated).push(golden);
      return { name: c.name, golden, status: want === undefined ? 'missing' : 'changed' };
    });
  });
  const removed: string[] = [];
  const kept: string[] = [];
  // what the matrix wrote and still has: the record before, less what is gone, with every golden there now
  const record = readRecord(m);
  for (const f of [...record]) if (!fs.existsSync(path.join(m.goldenDir, f))) record.delete(f);
  for (const c of m.cases) if (fs.existsSync(c.goldenPath)) record.add(rel(m, c.goldenPath));
  if (opts.prune) {
    const realGolden = realPathLoose(m.goldenDir);
    for (const s of report.stale) {
      const file = path.join(m.goldenDir, s);
      // a stale file is removed only when this matrix wrote it, and where it really lies inside the golden directory
      if (!record.has(s) || !isInside(realGolden, realPathLoose(file))) {
        kept.push(s);
        continue;
      }
      try {
        fs.rmSync(file);
      } catch (e) {
        throw writeError(e, file, 'cannot remove');
      }
      record.delete(s);
      removed.push(s);
    }
  }
  if (record.size > 0 || fs.existsSync(path.join(m.goldenDir, RECORD))) writeRecord(m, record);
  const stale = opts.prune ? kept : report.stale;
  return { ...report, added, updated, removed, stale, unrecorded: stale.filter((f) => !record.has(f)) };
}
