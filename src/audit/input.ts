// Reading what users feed the audit: files or stdin, multi-document YAML, `kind: List` dumps, and
// YAML/JSON embedded in ConfigMap strings, keeping enough to point at file:line:col later.
//
// Positions are resolved lazily: a 10,000-object dump only pays for the few nodes that a finding cites.

import { LineCounter, parseAllDocuments, parseDocument, isMap, isSeq, isPair, isScalar, Scalar } from 'yaml';
import type { Document } from 'yaml';
import { isObject, get, asArray, type JsonObject, type Locator, type PathSeg } from './types.js';
import { fastParse, jsonItemRanges, Unsupported, type FastDoc, type Positions } from './fastyaml.js';

/** Bad input: the message is one line, prefixed with file:line:col where known. */
export class InputError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
    readonly col?: number,
  ) {
    super(file ? `${file}${line ? `:${line}:${col ?? 1}` : ''}: ${message}` : message);
    this.name = 'InputError';
  }
}

export interface InputText {
  /** Shown in locations; stdin is `<stdin>`. */
  name: string;
  text: string;
}

/** One top-level Kubernetes object of the input (List items are unwrapped), with a way back to its text. */
export interface InputObject {
  value: JsonObject;
  locator: Locator;
  /** Path of this object inside its YAML document (`['items', 3]` for a List item). */
  path: PathSeg[];
}

class DocLocator implements Locator {
  constructor(
    readonly file: string,
    private readonly text: string,
    private readonly doc: Document.Parsed,
    private readonly lc: LineCounter,
    /** For an embedded document: the outer line before its first line, and its indentation. */
    private readonly origin?: { line: number; col: number },
  ) {}

  pos(path: readonly PathSeg[]): { line: number; col: number } | undefined {
    const off = nodeOffset(this.doc.contents, path);
    if (off === undefined) return undefined;
    const p = this.lc.linePos(off);
    if (!this.origin) return p;
    return { line: this.origin.line + p.line, col: this.origin.col + p.col };
  }

  /** A block scalar at path: its header line, and the indentation of its content. */
  blockScalarAt(path: readonly PathSeg[]): { line: number; col: number } | undefined {
    const node = nodeAt(this.doc.contents, path);
    if (!isScalar(node) || (node.type !== Scalar.BLOCK_LITERAL && node.type !== Scalar.BLOCK_FOLDED) || !node.range) {
      return undefined;
    }
    const header = this.lc.linePos(node.range[0]);
    let i = this.text.indexOf('\n', node.range[0]);
    let indent = 0;
    while (i >= 0 && i + 1 < this.text.length) {
      let j = i + 1;
      while (this.text[j] === ' ') j++;
      if (this.text[j] !== '\n') {
        indent = j - (i + 1);
        break;
      }
      i = j;
    }
    const base = this.origin ? { line: this.origin.line + header.line, col: this.origin.col } : { line: header.line, col: 0 };
    return { line: base.line, col: base.col + indent };
  }
}

function nodeAt(root: unknown, path: readonly PathSeg[]): unknown {
  let node: unknown = root;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) return undefined;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') node = node.items[seg];
    else return undefined;
  }
  return node;
}

/** Offset of the deepest node along path: a map entry's key, a sequence item, or the nearest ancestor. */
function nodeOffset(root: unknown, path: readonly PathSeg[]): number | undefined {
  let node: unknown = root;
  let best: number | undefined = rangeStart(node);
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      best = rangeStart(pair.key) ?? best;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (item === undefined) break;
      best = rangeStart(item) ?? best;
      node = item;
    } else break;
  }
  return best;
}

function rangeStart(n: unknown): number | undefined {
  const r = (n as { range?: [number, number, number] } | null)?.range;
  return r ? r[0] : undefined;
}

/**
 * A document read by the fast reader: positions come from parsing just the cited document, or the
 * cited List item, with the full parser when a finding asks for one.
 */
class SliceLocator implements Locator {
  private lineStarts?: number[];
  private readonly slices = new Map<number, SliceView | undefined>();
  constructor(
    readonly file: string,
    private readonly text: string,
    private readonly doc: { start: number; end: number },
    /** List items: offsets, and the path of the item inside its slice ([0] for a YAML `- ` entry). */
    private readonly items: { start: number; end: number }[] | undefined,
    private readonly itemPrefix: PathSeg[],
  ) {}

  private starts(): number[] {
    if (!this.lineStarts) {
      const ls = [0];
      for (let i = this.text.indexOf('\n'); i >= 0; i = this.text.indexOf('\n', i + 1)) ls.push(i + 1);
      this.lineStarts = ls;
    }
    return this.lineStarts;
  }

  private lineOf(offset: number): number {
    const ls = this.starts();
    let lo = 0;
    let hi = ls.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ls[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo; // 0-based
  }

  private slice(range: { start: number; end: number }, key: number): SliceView | undefined {
    if (this.slices.has(key)) return this.slices.get(key);
    let loc: SliceView | undefined;
    const line0 = this.lineOf(range.start);
    const lineStart = this.starts()[line0]!;
    const blank = /^\s*$/.test(this.text.slice(lineStart, range.start));
    const from = blank ? lineStart : range.start;
    const sub = this.text.slice(from, range.end);
    const colOffset = blank ? 0 : range.start - lineStart;
    const fast = colOffset === 0 ? fastPositions(sub, line0) : undefined;
    if (fast) loc = fast;
    else {
      const lc = new LineCounter();
      const doc = parseDocument(sub, { lineCounter: lc, uniqueKeys: false, prettyErrors: false });
      loc = doc.errors.length ? undefined : new DocLocator(this.file, sub, doc, lc, { line: line0, col: colOffset });
    }
    this.slices.set(key, loc);
    return loc;
  }

  private route(path: readonly PathSeg[]): [SliceView | undefined, PathSeg[]] {
    if (this.items && path[0] === 'items' && typeof path[1] === 'number' && this.items[path[1]]) {
      return [this.slice(this.items[path[1]]!, path[1]), [...this.itemPrefix, ...path.slice(2)]];
    }
    return [this.slice(this.doc, -1), [...path]];
  }

  pos(path: readonly PathSeg[]): { line: number; col: number } | undefined {
    const [loc, p] = this.route(path);
    return loc?.pos(p);
  }

  blockScalarAt(path: readonly PathSeg[]): { line: number; col: number } | undefined {
    const [loc, p] = this.route(path);
    return loc?.blockScalarAt(p);
  }
}

interface SliceView {
  pos(path: readonly PathSeg[]): { line: number; col: number } | undefined;
  blockScalarAt(path: readonly PathSeg[]): { line: number; col: number } | undefined;
}

/** Positions from the fast reader, for a slice whose first line is file line `line0 + 1`. */
function fastPositions(sub: string, line0: number): SliceView | undefined {
  const positions: Positions = { keys: new WeakMap(), blocks: new WeakMap() };
  let docs: FastDoc[];
  try {
    docs = fastParse(sub, positions);
  } catch {
    return undefined;
  }
  const root = docs[0]?.value;
  const walk = (path: readonly PathSeg[]): { parent: unknown; at?: [number, number] } => {
    let cur: unknown = root;
    let parent: unknown = root;
    let at: [number, number] | undefined;
    for (const seg of path) {
      if (cur === null || typeof cur !== 'object') break;
      const m = positions.keys.get(cur);
      const p = m?.get(Array.isArray(cur) ? Number(seg) : String(seg));
      if (!p) break;
      at = p;
      parent = cur;
      cur = (cur as Record<string, unknown>)[String(seg)];
    }
    return { parent, at };
  };
  return {
    pos(path) {
      const { at } = walk(path);
      return at ? { line: line0 + at[0], col: at[1] } : { line: line0 + (docs[0]?.startLine ?? 1), col: 1 };
    },
    blockScalarAt(path) {
      if (path.length === 0) return undefined;
      const { parent, at } = walk(path);
      if (!at || parent === null || typeof parent !== 'object') return undefined;
      const b = positions.blocks.get(parent)?.get(String(path[path.length - 1]));
      return b ? { line: line0 + b[0], col: b[1] } : undefined;
    },
  };
}

function lineOffsets(text: string): number[] {
  const ls = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) ls.push(i + 1);
  return ls;
}

/** The fast path: JSON, or the block YAML kubectl writes. Undefined when the full parser is needed. */
function fastLoad(input: InputText): { value: unknown; locator: Locator }[] | undefined {
  const text = input.text;
  const first = text.trimStart()[0];
  if (first === '{' || first === '[') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined; // the full parser reports the error with its position
    }
    const items = isObject(value) ? jsonItemRanges(text) : undefined;
    return [{ value, locator: new SliceLocator(input.name, text, { start: 0, end: text.length }, items, []) }];
  }
  let docs: FastDoc[];
  try {
    docs = fastParse(text);
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
  const ls = lineOffsets(text);
  const off = (line: number): number => (line - 1 < ls.length ? ls[line - 1]! : text.length);
  return docs.map((d) => ({
    value: d.value,
    locator: new SliceLocator(
      input.name,
      text,
      { start: off(d.startLine), end: off(d.endLine) },
      d.items?.map((it) => ({ start: off(it.startLine), end: off(it.endLine) })),
      [0],
    ),
  }));
}

/** Parse a whole input stream; every `kind: List` is unwrapped into its items. */
export function loadObjects(inputs: InputText[]): InputObject[] {
  const out: InputObject[] = [];
  for (const input of inputs) {
    const fast = fastLoad(input);
    if (fast) {
      for (const { value, locator } of fast) {
        if (value === null || value === undefined) continue;
        if (!isObject(value)) {
          if (Array.isArray(value)) {
            // a JSON array of objects
            value.forEach((v, i) => isObject(v) && pushObject(out, v, locator, [i]));
            continue;
          }
          const p = locator.pos([]);
          throw new InputError('expected a Kubernetes object (a mapping with kind), got ' + describe(value), input.name, p?.line ?? 1, p?.col ?? 1);
        }
        pushObject(out, value, locator, []);
      }
      continue;
    }
    const lc = new LineCounter();
    const docs = parseAllDocuments(input.text, { lineCounter: lc, uniqueKeys: false, prettyErrors: false });
    for (const doc of docs) {
      const err = doc.errors[0];
      if (err) {
        const p = lc.linePos(err.pos[0]);
        throw new InputError(firstLine(err.message), input.name, p.line, p.col);
      }
      let value: unknown;
      try {
        value = doc.toJS({ maxAliasCount: 100 });
      } catch (e) {
        throw new InputError(firstLine(e instanceof Error ? e.message : String(e)), input.name, 1, 1);
      }
      if (value === null || value === undefined) continue;
      const locator = new DocLocator(input.name, input.text, doc, lc);
      if (!isObject(value)) {
        const p = lc.linePos(rangeStart(doc.contents) ?? 0);
        throw new InputError('expected a Kubernetes object (a mapping with kind), got ' + describe(value), input.name, p.line, p.col);
      }
      pushObject(out, value, locator, []);
    }
  }
  return out;
}

function pushObject(out: InputObject[], value: JsonObject, locator: Locator, path: PathSeg[]): void {
  const kind = get(value, 'kind');
  if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(get(value, 'items'))) {
    asArray(get(value, 'items')).forEach((item, i) => {
      if (isObject(item)) pushObject(out, item, locator, [...path, 'items', i]);
    });
    return;
  }
  out.push({ value, locator, path });
}

/** A document embedded in a string field (ConfigMap `data.mesh`, `data.values`), positioned in the outer file. */
export interface EmbeddedDoc {
  value: unknown;
  locator: Locator;
}

export function parseEmbedded(obj: InputObject, field: PathSeg[], what: string): EmbeddedDoc | undefined {
  let cur: unknown = obj.value;
  for (const seg of field) cur = typeof seg === 'number' ? asArray(cur)[seg] : get(cur, seg);
  if (typeof cur !== 'string') return undefined;
  const text = cur;
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: false, prettyErrors: false });
  const outerPath = [...obj.path, ...field];
  // A block scalar maps line for line; a quoted string can only be pointed at as a whole.
  const withBlocks = obj.locator as Partial<Pick<DocLocator, 'blockScalarAt'>>;
  const origin = typeof withBlocks.blockScalarAt === 'function' ? withBlocks.blockScalarAt(outerPath) : undefined;
  const at = obj.locator.pos(outerPath);
  if (doc.errors[0]) {
    const ep = lc.linePos(doc.errors[0].pos[0]);
    const line = origin ? origin.line + ep.line : at?.line;
    const col = origin ? origin.col + ep.col : at?.col;
    throw new InputError(`${what}: ${firstLine(doc.errors[0].message)}`, obj.locator.file, line, col);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw new InputError(`${what}: ${firstLine(e instanceof Error ? e.message : String(e))}`, obj.locator.file, at?.line, at?.col);
  }
  const locator: Locator = origin
    ? new DocLocator(obj.locator.file, text, doc, lc, origin)
    : { file: obj.locator.file, pos: () => at };
  return { value, locator };
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'a sequence';
  return typeof v === 'string' ? 'a string' : String(typeof v);
}
