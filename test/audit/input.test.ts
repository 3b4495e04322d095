// Reading inputs: the fast block-YAML reader agrees with the `yaml` package, List dumps are
// unwrapped, and positions point at the right line in YAML, JSON and embedded documents.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fastParse, Unsupported } from '../../src/audit/fastyaml.js';
import { loadObjects, parseEmbedded } from '../../src/audit/input.js';
import { audit } from '../../src/audit/index.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const files = readdirSync(fixtures).flatMap((d) => readdirSync(join(fixtures, d)).map((f) => join(fixtures, d, f)));

function slow(text: string): unknown[] {
  return parseAllDocuments(text, { uniqueKeys: false })
    .map((d) => d.toJS())
    .filter((v) => v !== null && v !== undefined);
}

describe('fast YAML reader', () => {
  for (const file of files) {
    it(`reads ${file.slice(fixtures.length + 1)} as the yaml package does`, () => {
      const text = readFileSync(file, 'utf8');
      let fast: unknown[];
      try {
        fast = fastParse(text).map((d) => d.value).filter((v) => v !== null && v !== undefined);
      } catch (e) {
        expect(e).toBeInstanceOf(Unsupported);
        return;
      }
      expect(fast).toEqual(slow(text));
    });
  }
  const cases: [string, string][] = [
    ['folded', 'a: >\n  one\n  two\n\n  three\n    indented\n  four\n'],
    ['literal keep', 'a: |+\n  x\n\n\nb: 1\n'],
    ['literal strip', 'a: |-\n  x\n  y\n'],
    ['long plain folded by Go', 'command:\n- sh\n- -c\n- while [ $(netstat -plnt | grep tcp\n  | wc -l) -ne 0 ]; do sleep 1; done\n'],
    ['quotes', `a: "x\\ty\\u00e9"\nb: 'it''s'\nc: "#not comment" # comment\n`],
    ['scalars', 'a: 1\nb: 1.5\nc: true\nd: ~\ne: 0x1f\nf: "1"\ng: 012\nh: .inf\ni: 1e3\nj: 1.2.3\n'],
    ['flow', 'a: {b: 1, c: [x, "y z", {d: e}]}\nb: []\nc: {}\n'],
    ['nested sequences', 'a:\n- - 1\n  - 2\n- b: 1\n  c:\n  - 3\n'],
    ['seq at key indent', 'a:\n- 1\n- 2\nb: x\n'],
    ['documents', '---\na: 1\n---\n# only a comment\n---\nb: 2\n...\n'],
    ['proto key', '__proto__: {polluted: true}\nx: 1\n'],
  ];
  for (const [name, text] of cases) {
    it(name, () => {
      let fast: unknown[] | undefined;
      try {
        fast = fastParse(text).map((d) => d.value).filter((v) => v !== null && v !== undefined);
      } catch (e) {
        expect(e).toBeInstanceOf(Unsupported);
        return;
      }
      expect(JSON.stringify(fast)).toEqual(JSON.stringify(slow(text)));
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });
  }
});

describe('positions', () => {
  const list = {
    apiVersion: 'v1',
    kind: 'List',
    items: Array.from({ length: 50 }, (_, i) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `d${i}`, namespace: 'ns' },
      spec: { template: { spec: { containers: [{ name: 'app', image: 'x', lifecycle: i === 37 ? { type: 'Sidecar' } : undefined }] } } },
    })),
  };

  it('finds List items in a YAML dump', () => {
    const text = stringify(list);
    const line = text.split('\n').findIndex((l) => l.includes('type: Sidecar')) + 1;
    const f = audit([{ name: 'dump.yaml', text }], { inject: null }).find((x) => x.rule === 'unknown-field');
    expect(f?.workload).toBe('Deployment/ns/d37');
    expect(f?.location).toMatch(new RegExp(`^dump\\.yaml:${line}:\\d+$`));
  });

  it('finds List items in a JSON dump', () => {
    const text = JSON.stringify(list, null, 2);
    const line = text.split('\n').findIndex((l) => l.includes('"Sidecar"')) + 1;
    const f = audit([{ name: 'dump.json', text }], { inject: null }).find((x) => x.rule === 'unknown-field');
    expect(f?.location).toMatch(new RegExp(`^dump\\.json:${line}:\\d+$`));
  });

  it('maps embedded ConfigMap documents onto the file', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: istio\ndata:\n  mesh: |-\n    defaultConfig:\n      holdApplicationUntilProxyStarts: true\n';
    const [cm] = loadObjects([{ name: 'mesh.yaml', text }]);
    const doc = parseEmbedded(cm!, ['data', 'mesh'], 'mesh')!;
    expect(doc.locator.pos(['defaultConfig', 'holdApplicationUntilProxyStarts'])).toEqual({ line: 8, col: 7 });
  });

  it('unwraps Lists and keeps documents apart', () => {
    const text = `${stringify(list)}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n`;
    expect(loadObjects([{ name: 'x', text }])).toHaveLength(51);
  });
});
