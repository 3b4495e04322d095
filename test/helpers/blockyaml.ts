// Random block YAML as kubectl and Helm write it, for comparing readers on generated texts.

import fc from 'fast-check';

export type Tree = string | Tree[] | { [k: string]: Tree };

/** Block YAML of a tree, as lines; lists in maps at the key's indentation or deeper, as kubectl and Helm write them. */
export function emit(t: Tree, indent: number, out: string[], seqIndent: number): void {
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

export const scalar = fc.constantFrom('1', 'x', 'yes', '~', '"q: r"', "'it''s'", 'a-b.c/d', '1.5', '|\ntext', '[a, 1]', '{k: v}', '>-\nfolded\ntext', 'long plain\nfolded');
export const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree; map: Tree; list: Tree }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('map'), tie('list')),
  map: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'name', 'port', 'svc-1', 'k.io/x', '"q"'), tie('node'), { minKeys: 1, maxKeys: 4 }),
  list: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
})).map;

