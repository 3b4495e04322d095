// `golden check` and `golden update`: render every case of a matrix and compare with, or write, its golden file.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareRendering } from './compare.js';
import type { GoldenCase, GoldenMatrix } from './matrix.js';
import { listFiles, writeFileAtomic } from '../util/fs.js';

/** Renders one case to the text its golden file holds. */
export type CaseRenderer = (c: GoldenCase) => Promise<string> | string;

export type CaseStatus = 'passed' | 'changed' | 'missing' | 'failed';

export interface CaseResult {
  name: string;
  golden: string;
  status: CaseStatus;
  /** Unified diff golden → rendered, for changed cases (and missing ones: all lines added). */
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

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
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
  const count = (s: CaseStatus) => results.filter((r) => r.status === s).length;
  return { results, passed: count('passed'), changed: count('changed'), missing: count('missing'), failed: count('failed'), stale };
}

/** Render every case and compare with its golden file; writes nothing. */
export function checkMatrix(m: GoldenMatrix, render: CaseRenderer, opts: RunOptions = {}): Promise<CheckReport> {
  return renderAll(m, render, opts, (c, out) => {
    const golden = rel(m, c.goldenPath);
    if (out.error !== undefined) return { name: c.name, golden, status: 'failed', error: out.error };
    const want = readIfExists(c.goldenPath);
    if (want === undefined) {
      return { name: c.name, golden, status: 'missing', diff: compareRendering('', out.text!, 'exact', golden).diff };
    }
    const cmp = compareRendering(want, out.text!, c.compare, golden);
    return cmp.equal ? { name: c.name, golden, status: 'passed' } : { name: c.name, golden, status: 'changed', diff: cmp.diff };
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
    const want = readIfExists(c.goldenPath);
    if (want !== undefined && compareRendering(want, out.text!, c.compare, golden).equal) return { name: c.name, golden, status: 'passed' };
    writeFileAtomic(c.goldenPath, out.text!);
    (want === undefined ? added : updated).push(golden);
    return { name: c.name, golden, status: want === undefined ? 'missing' : 'changed' };
  });
  const removed: string[] = [];
  if (opts.prune) {
    for (const s of report.stale) {
      fs.rmSync(path.join(m.goldenDir, s));
      removed.push(s);
    }
  }
  return { ...report, added, updated, removed, stale: opts.prune ? [] : report.stale };
}
