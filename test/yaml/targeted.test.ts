// A document read by the fast reader finds its first few cited paths by reading only the nodes on
// their way: each position (key or value), and each block scalar's, must be what reading the whole
// document again gives.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadYamlDocuments, type LoadedDocument, type PathSegment } from '../../src/yaml/load.js';
import { emit, tree } from '../helpers/blockyaml.js';
import { depthBound } from '../../src/yaml/yamllib.js';

/** Every path of a value, and a path that is not there below each map and list. */
function pathsOf(v: unknown, at: PathSegment[] = [], out: PathSegment[][] = []): PathSegment[][] {
  out.push(at);
  if (Array.isArray(v)) {
    v.forEach((x, i) => pathsOf(x, [...at, i], out));
    out.push([...at, v.length]);
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
    out.push([...at, 'nope']);
  }
  return out;
}

const seen = (d: LoadedDocument, p: PathSegment[]) => [d.positionOf(p), d.positionOf(p, { key: true }), d.blockScalarAt(p)];

describe('positions of a path read on its own', () => {
  it('are those of the document read whole', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.array(tree, { minLength: 1, maxLength: 6 }), fc.constantFrom(0, 2), fc.boolean(), (trees, seqIndent, list) => {
        const lines: string[] = list ? ['apiVersion: v1', 'kind: List', 'items:'] : ['global:', '  hub: x'];
        trees.forEach((t, i) => {
          if (list) {
            const inner: string[] = [];
            emit({ kind: 'ConfigMap', data: t }, 2, inner, seqIndent);
            lines.push(`- ${inner[0]!.slice(2)}`, ...inner.slice(1));
          } else {
            lines.push(`top${i}:`);
            emit(t, 2, lines, seqIndent);
          }
        });
        const text = lines.join('\n') + '\n';
        let docs: LoadedDocument[];
        try {
          docs = loadYamlDocuments(text, 'p.yaml', { duplicateKeys: 'last' });
        } catch {
          return;
        }
        const paths = pathsOf(docs[0]!.value);
        // read whole: past the first few lookups
        const whole = loadYamlDocuments(text, 'p.yaml', { duplicateKeys: 'last' })[0]!;
        for (let i = 0; i < 5; i++) whole.positionOf(['no', i]);
        for (const p of paths) {
          // each on a document of its own, so that it is the first lookup
          const one = loadYamlDocuments(text, 'p.yaml', { duplicateKeys: 'last' })[0]!;
          expect(seen(one, p), `${JSON.stringify(p)}\n${text}`).toEqual(seen(whole, p));
          compared++;
        }
      }),
      { numRuns: 120, seed: 5 },
    );
    expect(compared).toBeGreaterThan(1000);
  }, 120_000);
});

describe('block scalars longer than one match of the line expressions', () => {
  it('are read whole, and the depth bound steps over them whole', () => {
    // lines past 4,096 a match, blank ones among them: what one match of each expression takes
    const body = Array.from({ length: 10_000 }, (_, i) => (i % 7 === 3 ? '' : i % 11 === 5 ? '   ' : `    line ${i} {[`)).join('\n');
    const text = `data:\n  values: |\n${body}\n  after: 1\n`;
    const fast = loadYamlDocuments(text, 'c.yaml')[0]!;
    const full = loadYamlDocuments(text, 'c.yaml', { noFastPath: true })[0]!;
    expect(fast.value).toEqual(full.value);
    expect(((fast.value as Record<string, Record<string, string>>).data!.values ?? '').split('\n').length).toBe(10_000);
    // the brackets of the block's lines are text, not nesting
    expect(depthBound(text)).toBeLessThan(20);
  });
});
