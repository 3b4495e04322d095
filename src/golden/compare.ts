// Comparing a rendering with its golden file: byte-exact, or semantic YAML (key order and formatting ignored).

import { createTwoFilesPatch } from 'diff';
import { parseAllDocuments, stringify } from 'yaml';
import { YamlTooDeep, checkYamlDepth } from '../yaml/yamllib.js';
import type { CompareMode } from './matrix.js';

export interface Comparison {
  equal: boolean;
  /** Unified diff from golden (---) to actual (+++), empty when equal. */
  diff: string;
}

export function compareRendering(golden: string, actual: string, mode: CompareMode, label: string): Comparison {
  if (mode === 'exact') {
    if (golden === actual) return { equal: true, diff: '' };
    return { equal: false, diff: unifiedDiff(golden, actual, label) };
  }
  const g = canonicalYaml(golden);
  const a = canonicalYaml(actual);
  if (g === a) return { equal: true, diff: '' };
  return { equal: false, diff: unifiedDiff(g, a, label) };
}

export function unifiedDiff(golden: string, actual: string, label: string): string {
  return createTwoFilesPatch(`golden/${label}`, `rendered/${label}`, golden, actual, '', '', { context: 3 })
    .split('\n')
    .slice(1) // the "===" banner line
    .join('\n');
}

/** Documents with sorted keys and one formatting, so that only content differences remain. */
export function canonicalYaml(text: string): string {
  try {
    checkYamlDepth(text);
  } catch (e) {
    if (e instanceof YamlTooDeep) return text;
    throw e;
  }
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return text;
  return docs
    .map((d) => {
      if (d.errors.length > 0) return d.toString();
      try {
        return stringify(sortDeep(d.toJS({ maxAliasCount: 100 })), { sortMapEntries: true, lineWidth: 0 });
      } catch {
        // aliases that expand without bound: compared as written
        return d.toString();
      }
    })
    .join('---\n');
}

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v instanceof Map) return sortDeep(Object.fromEntries(v));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortDeep((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** Colour a unified diff for a terminal. */
export function colorDiff(diff: string): string {
  return diff
    .split('\n')
    .map((l) => {
      if (l.startsWith('+++') || l.startsWith('---')) return `\x1b[1m${l}\x1b[0m`;
      if (l.startsWith('+')) return `\x1b[32m${l}\x1b[0m`;
      if (l.startsWith('-')) return `\x1b[31m${l}\x1b[0m`;
      if (l.startsWith('@@')) return `\x1b[36m${l}\x1b[0m`;
      return l;
    })
    .join('\n');
}
