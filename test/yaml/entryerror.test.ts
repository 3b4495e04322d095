// A syntax error where the fast reader stops is looked for by the full parser in the entry it was
// reading (with its ancestors' lines), not in the whole text: the error, its line and its column must
// be those of the full parser reading the whole text.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastParse, Unsupported } from '../../src/yaml/fastload.js';
import { loadYamlDocuments } from '../../src/yaml/load.js';

type Tree = string | Tree[] | { [k: string]: Tree };

/** Block YAML of a tree, as lines; lists in maps at the key's indentation or deeper, as kubectl and Helm write them. */
function emit(t: Tree, indent: number, out: string[], seqIndent: number): void {
  const pad = ' '.repeat(indent);
  // a scalar's further lines, indented past its key or dash
  const more = (x: string): string => x.replaceAll('\n', `\n${pad}  `);
  if (Array.isArray(t)) {
    for (const x of t) {
      if (typeof x === 'string') out.push(`${pad}- ${more(x)}`);
      else if (Array.isArray(x) ? x.length === 0 : Object.keys(x).length === 0) out.push(`${pad}- ${Array.isArray(x) ? '[]' : '{}'}`);
      else {
        const inner: string[] = [];
        emit(x, indent + 2, inner, seqIndent);
        out.push(`${pad}- ${inner[0]!.slice(indent + 2)}`, ...inner.slice(1));
      }
    }
    return;
  }
  if (typeof t === 'string') throw new Error('a scalar at the top');
  for (const [k, v] of Object.entries(t)) {
    if (typeof v === 'string') out.push(`${pad}${k}: ${more(v)}`);
    else if (Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0) out.push(`${pad}${k}: ${Array.isArray(v) ? '[]' : '{}'}`);
    else {
      out.push(`${pad}${k}:`);
      emit(v, Array.isArray(v) ? indent + seqIndent : indent + 2, out, seqIndent);
    }
  }
}

const scalar = fc.constantFrom('1', 'x', 'yes', '~', '"q: r"', "'it''s'", 'a-b.c/d', '1.5', '|\ntext', '[a, 1]', '{k: v}', '>-\nfolded\ntext', 'long plain\nfolded');
const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree; map: Tree; list: Tree }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('map'), tie('list')),
  map: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'name', 'port', 'svc-1', 'k.io/x', '"q"'), tie('node'), { minKeys: 1, maxKeys: 4 }),
  list: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
})).map;

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
