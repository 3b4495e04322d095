// Property: a parsed tree printed back as template source (node String(), as Go prints it) parses
// to a tree that prints identically. Templates are generated from the action grammar.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError, Template } from '../../src/go/text/template/template.js';

const field = fc.constantFrom('.', '.a', '.a.b', '$', '$.x', '$v', '$i', '.Values.global.hub');
const literal = fc.constantFrom('1', '-2', '0x1F', '1e3', '1.5', "'c'", '"s\\n"', '`raw`', 'true', 'nil', '1i', '0o17', '1_000');
const func = fc.constantFrom('print', 'printf "%v"', 'len', 'index', 'eq', 'and', 'or', 'not', 'html', 'slice');

const operand: fc.Arbitrary<string> = fc.letrec((tie) => ({
  op: fc.oneof({ depthSize: 'small', withCrossShrink: true }, field, literal, tie('paren')),
  paren: tie('pipe').map((p) => `(${p})`),
  cmd: fc.oneof(
    tie('op'),
    fc.tuple(func, fc.array(tie('op'), { maxLength: 3 })).map(([f, as]) => [f, ...as].join(' ')),
  ),
  pipe: fc.tuple(tie('cmd'), fc.array(func, { maxLength: 2 })).map(([c, fs]) => [c, ...fs].join(' | ')),
})).op as fc.Arbitrary<string>;

const pipeline = fc.tuple(operand, fc.array(func, { maxLength: 2 })).map(([c, fs]) => [c, ...fs].join(' | '));

const node: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('x', ' ', '\n', 'text '),
    pipeline.map((p) => `{{${p}}}`),
    pipeline.map((p) => `{{- $v := ${p} -}}`),
    fc.tuple(pipeline, tie('list'), fc.option(tie('list'))).map(([p, l, e]) => `{{if ${p}}}${l}${e === null ? '' : `{{else}}${e}`}{{end}}`),
    fc.tuple(pipeline, tie('list'), pipeline, tie('list')).map(([p, l, q, m]) => `{{if ${p}}}${l}{{else if ${q}}}${m}{{end}}`),
    fc.tuple(pipeline, tie('list')).map(([p, l]) => `{{with ${p}}}${l}{{end}}`),
    fc.tuple(pipeline, tie('list')).map(([p, l]) => `{{with ${p}}}${l}{{else with .b}}${l}{{end}}`),
    fc.tuple(pipeline, tie('list')).map(([p, l]) => `{{range $i, $v := ${p}}}${l}{{break}}{{else}}${l}{{end}}`),
    pipeline.map((p) => `{{template "x" ${p}}}`),
    fc.constant('{{/* comment */}}'),
  ),
  list: fc.array(tie('node'), { maxLength: 3 }).map((ns) => ns.join('')),
})).list as fc.Arbitrary<string>;

function printed(src: string): string | null {
  try {
    return new Template('t').parse(src).tree!.root!.toString();
  } catch (e) {
    if (e instanceof ParseError) return null;
    throw e;
  }
}

describe('parse → print → parse', () => {
  it('printing is a fixed point', () => {
    const runs = Number(process.env.FUZZ_RUNS ?? 1000);
    let parsed = 0;
    fc.assert(
      fc.property(node, (src) => {
        const once = printed(src);
        if (once === null) return;
        parsed++;
        expect(printed(once)).toBe(once);
      }),
      { numRuns: runs, seed: 42 },
    );
    // most generated templates must be valid, or the property says nothing
    expect(parsed).toBeGreaterThan(runs / 4);
  });
});
