// YAML input with positions for the Istio loaders: documents parsed as sigs.k8s.io/yaml would see them
// (YAML 1.1 scalars: yes/no/on/off booleans, 0777 octal), each able to say where a path came from.
// (A thin layer over the `yaml` package; kept here so the Istio model does not depend on the emitter.)
//
// Public API
//   InputError                                   one-line user error (file:line:col: message)
//   parseYamlText(text, file, base?)             a single document → YamlDoc (error if more than one)
//   parseYamlDocuments(text, file)               every non-empty document → YamlDoc[]
//   YamlDoc { value, file, positionOf(segs), where(path) }
//   splitPath('a.b[0].c') → ['a','b',0,'c']

import { LineCounter, isMap, isSeq, isScalar, parseAllDocuments, type Document, type Node } from 'yaml';

export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

export interface Position {
  line: number;
  col: number;
}

export interface YamlDoc {
  value: unknown;
  file: string;
  /** 1-based line/col of the node at a path of keys/indexes (of its key when `key`); the nearest
   *  existing ancestor otherwise. */
  positionOf(segs: (string | number)[], key?: boolean): Position | undefined;
  /** "file:line:col" for a dotted path ("a.b[0].c") — of the mapping key when `key` — or the file name. */
  where(path: string, key?: boolean): string;
}

export function splitPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path))) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

function makeDoc(doc: Document, lc: LineCounter, file: string, base?: Position): YamlDoc {
  const value = doc.toJS({ maxAliasCount: 1000 }) as unknown;
  const pos = (offset: number): Position => {
    const p = lc.linePos(offset);
    if (!base) return { line: p.line, col: p.col };
    // text embedded in a block scalar: lines are relative to the scalar's first line (approximate column)
    return { line: base.line + p.line, col: p.col };
  };
  const positionOf = (segs: (string | number)[], key = false): Position | undefined => {
    let node: unknown = doc.contents;
    let last: Node | undefined = (doc.contents as Node | null) ?? undefined;
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i]!;
      if (isMap(node)) {
        const pair = node.items.find((it) => (isScalar(it.key) ? String(it.key.value) : String(it.key)) === String(s));
        if (!pair) break;
        const k = pair.key as Node | undefined;
        node = pair.value;
        last = (pair.value as Node | null) ?? k ?? last;
        if (k && (node === null || node === undefined || (key && i === segs.length - 1))) last = k;
      } else if (isSeq(node) && typeof s === 'number') {
        const it = node.items[s] as Node | undefined;
        if (!it) break;
        node = it;
        last = it;
      } else break;
    }
    const range = last?.range;
    return range ? pos(range[0]) : undefined;
  };
  return {
    value,
    file,
    positionOf,
    where(path: string, key = false): string {
      const p = positionOf(splitPath(path), key);
      return p ? `${file}:${p.line}:${p.col}` : file;
    },
  };
}

function parseAll(text: string, file: string, base?: Position): YamlDoc[] {
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc, version: '1.1', uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const out: YamlDoc[] = [];
  for (const d of list) {
    const err = d.errors[0];
    if (err) {
      const p = lc.linePos(err.pos[0]);
      const line = base ? base.line + p.line : p.line;
      throw new InputError(`${file}:${line}:${p.col}: ${err.message.split('\n')[0]}`);
    }
    if (d.contents === null) continue;
    out.push(makeDoc(d as Document, lc, file, base));
  }
  return out;
}

export function parseYamlDocuments(text: string, file: string): YamlDoc[] {
  return parseAll(text, file);
}

export function parseYamlText(text: string, file: string, base?: Position): YamlDoc {
  const docs = parseAll(text, file, base);
  if (docs.length > 1) throw new InputError(`${file}: expected one YAML document, found ${docs.length}`);
  if (docs.length === 0) {
    return { value: null, file, positionOf: () => undefined, where: () => file };
  }
  return docs[0]!;
}
