// A syntax error where the fast reader stops is looked for by the full parser in the entry it was
// reading (with its ancestors' lines), not in the whole text: the error, its line and its column must
// be those of the full parser reading the whole text.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastParse, Unsupported } from '../../src/yaml/fastload.js';
import { loadYamlDocuments } from '../../src/yaml/load.js';
import { emit, tree } from '../helpers/blockyaml.js';

/** Lines yaml.v2 refuses, or that the fast reader leaves to the full parser. */
const broken = fc.constantFrom(
  'x: a: b',
  'bad',
  '- item',
  'key: "unterminated',
  'key: [1, 2',
  'key: {a: 1}}',
  '\tkey: v',
  'key: *nowhere',
  'key: &anchor v',
  'key: !!str x',
  '<<: {m: 1}',
  "key: 'x' y",
  '@x: 1',
  'key: |\n bad',
  '? complex',
  'a: b # c: d',
  'key: - x',
  'key: v\n      more: x',
  'key: "a\n  b"',
  '%YAML 1.1',
  '---',
  'key: 1\nkey: 2',
);

function loadError(text: string, noFastPath: boolean): string {
  try {
    return `ok ${JSON.stringify(loadYamlDocuments(text, 'v.yaml', { noFastPath, duplicateKeys: 'error' }).map((d) => d.value))}`;
  } catch (e) {
    return `error ${(e as Error).message}`;
  }
}

describe('a syntax error found in the entry the fast reader stopped in', () => {
  it('is the full parser reading the whole text: message, line and column', () => {
    let reduced = 0;
    fc.assert(
      fc.property(
        fc.array(tree, { minLength: 2, maxLength: 8 }),
        fc.constantFrom(0, 2),
        fc.double({ min: 0.5, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 8 }),
        broken,
        (trees, seqIndent, where, indent, bad) => {
          const lines: string[] = [];
          trees.forEach((t, i) => {
            lines.push(`top${i}:`);
            emit(t, 2, lines, seqIndent);
          });
          const at = Math.min(lines.length, Math.floor(lines.length * where));
          lines.splice(at, 0, ...bad.split('\n').map((l, k) => (k === 0 ? ' '.repeat(indent) + l : l)));
          const text = lines.join('\n') + '\n';
          const got = loadError(text, false);
          expect(got, text).toBe(loadError(text, true));
          // count the texts whose error the entry alone gave: most of the text left out
          try {
            fastParse(text);
          } catch (e) {
            if (!(e instanceof Unsupported) || e.open.length === 0 || !got.startsWith('error')) return;
            const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
            const last = e.previous || e.open[e.open.length - 1]!;
            const kept = e.open.slice(0, -1).reduce((n, l) => n + starts[l]! - starts[l - 1]!, 0);
            if (starts[last - 1]! - kept >= text.length / 2) reduced++;
          }
        },
      ),
      { numRuns: 1500, seed: 7 },
    );
    // else the comparison compared only texts read whole
    expect(reduced).toBeGreaterThan(200);
  }, 120_000);

  it('is found in a large file without reading the whole of it with the full parser', () => {
    const entries = Array.from({ length: 20_000 }, (_, i) => `  svc-${i}:\n    port: ${i}\n    tags:\n    - a\n    - b: c\n`).join('');
    const text = `global:\n  hub: x\nservices:\n${entries}  broken: a: b\n  after: 1\n`;
    const t0 = process.cpuUsage();
    const fast = loadError(text, false);
    const fastCpu = process.cpuUsage(t0).user;
    const t1 = process.cpuUsage();
    const full = loadError(text, true);
    const fullCpu = process.cpuUsage(t1).user;
    expect(fast).toBe(full);
    expect(fast).toMatch(/^error v\.yaml:100004:11: /);
    // the full parser over the whole text takes several times as long (about 10x here)
    expect(fastCpu).toBeLessThan(fullCpu / 2);
  });
});
