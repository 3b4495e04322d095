// Reading what users feed the audit: files or stdin, multi-document YAML, `kind: List` dumps, and
// YAML/JSON embedded in ConfigMap strings, keeping enough to point at file:line:col later.
//
// Positions are resolved lazily: a 10,000-object dump only pays for the few nodes that a finding cites.

import { LineCounter, parseAllDocuments, parseDocument, isMap, isSeq, isPair, isScalar, Scalar } from 'yaml';
import type { Document } from 'yaml';
import { isObject, get, asArray, type JsonObject, type Locator, type PathSeg } from './types.js';

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

/** Parse a whole input stream; every `kind: List` is unwrapped into its items. */
export function loadObjects(inputs: InputText[]): InputObject[] {
  const out: InputObject[] = [];
  for (const input of inputs) {
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
  const origin =
    obj.locator instanceof DocLocator ? obj.locator.blockScalarAt(outerPath) : undefined;
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
