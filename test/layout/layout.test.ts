// The layout of src/ as docs/architecture.md states it (the layer table is read from there, so the page
// and this check cannot part): no import cycles, no import of a higher layer or of a sibling folder of the
// same layer, and in the twin folders a header naming the upstream file mirrored and the tests that prove
// it. The checker (check.ts) is first run on small planted trees, to show that each rule can fail.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkCycles, checkHeaders, checkLayers, checkTree, importGraph, parseLayerTable, readHeader, scanImports, type LayerEntry } from './check.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const src = join(root, 'src');

/** Files of the twin folders excused from rule c, each with why: none. */
const HEADER_EXCEPTIONS = new Map<string, string>();

function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.[mc]?ts$/.test(e.name)) out.set(relative(dir, p).split(sep).join('/'), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

const exists = (p: string) => existsSync(join(root, p));
const tree = readTree(src);
const table = parseLayerTable(readFileSync(join(root, 'docs', 'architecture.md'), 'utf8'));

describe('the checker finds what it is meant to find', () => {
  const planted: LayerEntry[] = [
    { entry: 'guard/', layer: 0, what: '' },
    { entry: 'go/', layer: 1, what: '' },
    { entry: 'yaml/', layer: 2, what: '' },
    { entry: 'k8s/', layer: 2, what: '' },
    { entry: 'helm/', layer: 4, what: '' },
    { entry: 'index.ts', layer: 10, what: '' },
  ];
  const twin = '// A twin.\n//\n// Mirrors: go1.19 src/fmt/print.go\n// Proven by: test/vectors/fmt/\n';
  const none = '// Product.\n//\n// Upstream: none (a reader)\n';

  it('reads imports, exports, dynamic imports and type-only forms, and nothing in comments, strings or regexes', () => {
    const text = [
      "// import { a } from './comment.js';",
      "/* export * from './block.js'; */",
      "import { b,",
      "  c } from './multi.js';",
      "import type { T } from './type.js';",
      "import { type U, type V as W } from './inline-type.js';",
      "import D, { type X } from './default.js';",
      "import './side-effect.js';",
      "export { e } from './reexport.js';",
      "export type { F } from './retype.js';",
      "export * as ns from './star.js';",
      "const s = \"import { z } from './in-string.js'\";",
      "const t = `${'x'} import('./in-template.js') ${await import('./in-template-code.js')}`;",
      "const r = /from '.\\/in-regex.js'/g;",
      "const lazy = () => import('./lazy.js');",
      "type M = typeof import('./typeof.js');",
      "const half = 1 / 2; const q = 'a' / 3; import.meta.url;",
      "export const y = 1;",
    ].join('\n');
    expect(scanImports(text).map((r) => [r.spec, r.typeOnly, r.dynamic, r.line])).toEqual([
      ['./multi.js', false, false, 3],
      ['./type.js', true, false, 5],
      ['./inline-type.js', true, false, 6],
      ['./default.js', false, false, 7],
      ['./side-effect.js', false, false, 8],
      ['./reexport.js', false, false, 9],
      ['./retype.js', true, false, 10],
      ['./star.js', false, false, 11],
      ['./in-template-code.js', false, true, 13],
      ['./lazy.js', false, true, 15],
      ['./typeof.js', true, true, 16],
    ]);
  });

  it('a planted cycle among files fails (rule a); the same cycle through a type-only import does not', () => {
    const cyc = new Map([
      ['go/a.ts', `${twin}import { b } from './b.js';`],
      ['go/b.ts', `${twin}import { c } from './c.js';`],
      ['go/c.ts', `${twin}export { a } from './a.js';`],
    ]);
    const failures = checkCycles(importGraph(cyc).edges);
    expect(failures).toEqual(['import cycle among files (rule a): src/go/a.ts → src/go/b.ts → src/go/c.ts → src/go/a.ts']);
    cyc.set('go/c.ts', `${twin}import type { a } from './a.js';`);
    expect(checkCycles(importGraph(cyc).edges)).toEqual([]);
  });

  it('a planted cycle between top-level folders fails (rule a), naming an import on each side', () => {
    const cyc = new Map([
      ['yaml/a.ts', `${none}import { b } from '../k8s/b.js';`],
      ['k8s/b.ts', `${none}import { c } from '../yaml/c.js';`],
      ['yaml/c.ts', none],
    ]);
    expect(checkCycles(importGraph(cyc).edges)).toEqual([
      'import cycle among top-level folders (rule a): src/k8s/ → src/yaml/ → src/k8s/ (src/k8s/b.ts:4 → src/yaml/c.ts; src/yaml/a.ts:4 → src/k8s/b.ts)',
    ]);
  });

  it('an upward import fails (rule b), a type-only one too; so does a same-layer sibling and a folder missing from the table', () => {
    const t = new Map([
      ['go/low.ts', `${twin}import { h } from '../helm/high.js';\nimport type { H } from '../helm/high.js';`],
      ['helm/high.ts', `${none}import { l } from '../go/low.js';\nimport { g } from '../guard/g.js';`],
      ['guard/g.ts', ''],
      ['yaml/y.ts', `${none}import { k } from '../k8s/k.js';`],
      ['k8s/k.ts', none],
      ['extra/x.ts', "import { l } from '../go/low.js';"],
      ['index.ts', "export * from './helm/high.js';"],
    ]);
    const { edges } = importGraph(t);
    expect(checkLayers(t, edges, planted)).toEqual([
      'src/extra/ is not in the layer table of docs/architecture.md (rule b: every top-level folder and file has a layer)',
      'upward import (rule b: a file imports only its own folder or lower layers): src/go/low.ts:5 (src/go/, layer 1) imports src/helm/high.ts (src/helm/, layer 4)',
      'upward import (rule b: a file imports only its own folder or lower layers): src/go/low.ts:6 (src/go/, layer 1) imports (type only) src/helm/high.ts (src/helm/, layer 4)',
      'same-layer import (rule b: sibling folders of one layer do not import each other): src/yaml/y.ts:4 (src/yaml/, layer 2) imports src/k8s/k.ts (src/k8s/, layer 2)',
    ]);
  });

  it('an import that names no file, or leaves src/, fails', () => {
    const t = new Map([['go/a.ts', `${twin}import { x } from './missing.js';\nimport p from '../../package.json';`]]);
    expect(importGraph(t).failures).toEqual([
      "src/go/a.ts:5 imports './missing.js', which names no file under src/",
      "src/go/a.ts:6 imports '../../package.json', outside src/ (a source file imports source files only)",
    ]);
  });

  it('a twin folder file without a well-formed header fails (rule c); other folders need none', () => {
    const t = new Map([
      ['go/good.ts', twin],
      ['go/none.ts', none],
      ['go/continued.ts', '// Two upstreams.\n//\n// Mirrors: go1.19 src/fmt/print.go (Sprintf; Sprint);\n//          gopkg.in/yaml.v2 encode.go\n// Proven by: test/vectors/fmt/,\n//            test/vectors/yaml/ (toYaml, fromYaml)\n'],
      ['go/bare.ts', '// Says what it is, but not what it mirrors.\n\nexport const x = 1;\n'],
      ['go/unproven.ts', '// Mirrors: go1.19 src/fmt/print.go\n'],
      ['go/badpath.ts', '// Mirrors: go1.19 src/fmt/print.go\n// Proven by: test/vectors/nowhere/\n'],
      ['go/vague.ts', '// Mirrors: Go\n// Proven by: test/vectors/fmt/\n'],
      ['go/emptynone.ts', '// Upstream: none\n'],
      ['go/late.ts', "// Opening.\n\n// Mirrors: go1.19 src/fmt/print.go\n// Proven by: test/vectors/fmt/\n"],
      ['cli/free.ts', 'export const x = 1;\n'],
    ]);
    const fakeExists = (p: string) => p === 'test/vectors/fmt/' || p === 'test/vectors/yaml/';
    expect(readHeader(t.get('go/continued.ts')!)).toEqual({ mirrors: 'go1.19 src/fmt/print.go (Sprintf; Sprint); gopkg.in/yaml.v2 encode.go', provenBy: 'test/vectors/fmt/, test/vectors/yaml/ (toYaml, fromYaml)' });
    const rule = '(rule c: a twin opens with Mirrors: + Proven by:, anything else with Upstream: none (...))';
    expect(checkHeaders(t, fakeExists)).toEqual([
      `src/go/badpath.ts: Proven by: test/vectors/nowhere/ does not exist ${rule}`,
      `src/go/bare.ts opens with neither Mirrors: + Proven by: nor Upstream: none (...) ${rule}`,
      `src/go/emptynone.ts: "Upstream: none" is not "Upstream: none (what it is for)" ${rule}`,
      `src/go/late.ts opens with neither Mirrors: + Proven by: nor Upstream: none (...) ${rule}`,
      `src/go/unproven.ts has Mirrors: but no Proven by: ${rule}`,
      `src/go/vague.ts: Mirrors: "Go" does not name an upstream and a Go file of it ('go1.19 src/text/template/exec.go', 'gopkg.in/yaml.v2 encode.go') ${rule}`,
    ]);
  });

  it('a known exception is skipped while it has no header, and reported once it has one or is gone', () => {
    const t = new Map([
      ['istio/wip.ts', '// Being rewritten.\n'],
      ['istio/done.ts', none],
    ]);
    const exceptions = new Map([
      ['istio/wip.ts', 'being rewritten'],
      ['istio/done.ts', 'being rewritten'],
      ['istio/gone.ts', 'being rewritten'],
    ]);
    expect(checkHeaders(t, () => true, exceptions)).toEqual([
      'src/istio/done.ts now has its header: take it off the known exceptions in test/layout/layout.test.ts (rule c)',
      'src/istio/gone.ts is a known exception of rule c but no such file exists',
    ]);
  });

  it('a tree that keeps every rule passes', () => {
    const t = new Map([
      ['guard/g.ts', ''],
      ['go/a.ts', `${twin}import { g } from '../guard/g.js';\nimport { b } from './sub/b.js';`],
      ['go/sub/b.ts', `${twin}import type { A } from '../a.js';`],
      ['helm/h.ts', `${none}import { a } from '../go/a.js';`],
      ['index.ts', "export * from './helm/h.js';"],
    ]);
    expect(checkTree(t, planted, () => true)).toEqual([]);
  });
});

describe('src/ keeps the layout of docs/architecture.md', () => {
  it('the layer table parses: one row per top-level entry, guard/ at the bottom, index.ts at the top', () => {
    expect(table.find((e) => e.entry === 'guard/')?.layer).toBe(0);
    expect(table.find((e) => e.entry === 'index.ts')?.layer).toBe(Math.max(...table.map((e) => e.layer)));
  });

  const { edges, failures } = importGraph(tree);

  it('every relative import names a file under src/', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });

  it('(a) no import cycle among files or top-level folders', () => {
    expect(checkCycles(edges)).toEqual([]);
  });

  it('(b) imports go to the own folder or a lower layer; every top-level entry is in the table', () => {
    expect(checkLayers(tree, edges, table)).toEqual([]);
  });

  it('(c) every file of go/, yaml/, k8s/, sprig/, helm/, istio/ names its upstream and proof, or says it has none', () => {
    expect(checkHeaders(tree, exists, HEADER_EXCEPTIONS)).toEqual([]);
  });
});
