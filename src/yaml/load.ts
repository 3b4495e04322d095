// The one input layer: YAML (multi-document) or JSON files, and YAML embedded in string fields
// (a ConfigMap's data.config), become the values Go programs would see after sigs.k8s.io/yaml.Unmarshal
// (numbers float64, YAML 1.1 scalars as yaml.v2 resolves them, merge keys, null-prototype maps), each
// document able to say where a path came from. Every failure is an InputError: one line,
// `FILE:LINE:COL: message`.
//
// Block YAML as kubectl writes it goes through a fast reader (fastload.ts), whose positions are found
// lazily by reading only the cited document or List item again; everything else through the `yaml`
// package. Hostile input is bounded: the byte size, the values an alias-heavy document expands to
// (plus yaml.v2's own alias-ratio check), and the nesting depth.
//
// Public API
//   InputError(reason, file?, line?, col?)      message `FILE:LINE:COL: reason`
//   loadYamlDocuments(input, file, opts?)        every non-empty document → LoadedDocument[]
//   loadYamlDocument(input, file, opts?)         exactly one
//   unpositioned(value, file)                    a LoadedDocument for data that has no text
//   LoadedDocument { value, file, positionOf, where, errorAt, blockScalarAt, embedded, sub }
//
// Upstream: none (the input layer: YAML and JSON files to Go values, with positions and one-line errors)

import type { LineCounter, Scalar, Document, Node as YamlNode } from 'yaml';
import { GO_YAML_MAX_DEPTH, yamlMaxDepth, YamlTooDeep, checkYamlDepth, fastReaderDepthBound, isAlias, isScalar, isSeq, isYamlMap, parseAllDocumentsBounded, yamlLib } from './yamllib.js';
import type { GoValue } from '../go/reflect/value.js';
import { GoJsonError, goJsonUnmarshal, jsonQuote, jsonTooDeep } from '../go/encoding/json/json.js';
import { Fail, decodeYamlNode, lsAsBreaks, toJsonable, v2Text, yamlV2SyntaxError, type BreakMarks } from './decode.js';
import { resolvePlain } from './resolve.js';
import { isStackOverflow, noteStackExhausted, onBigStack } from '../guard/stack.js';
import { formatFloat } from '../go/strconv/ftoa.js';
import { indentFlowContinuations } from './flowindent.js';
import { fastParse, firstDuplicateJsonKey, jsonItemRanges, jsonKeyBound, keyCount, Unsupported, type FastDoc, type Positions } from './fastload.js';

/** A problem with an input. `message` is the whole one-line text `FILE:LINE:COL: reason` (or less, when
 *  the position or the file is unknown). */
export class InputError extends Error {
  constructor(
    readonly reason: string,
    readonly file?: string,
    readonly line?: number,
    readonly col?: number,
  ) {
    super(file ? `${file}${line ? `:${line}:${col ?? 1}` : ''}: ${reason}` : reason);
    this.name = 'InputError';
  }
}

/** A key written twice in one mapping, where the reader refuses that. */
export class DuplicateKeyError extends InputError {}

export interface Position {
  /** 1-based */
  line: number;
  /** 1-based, in characters */
  col: number;
}

export type PathSegment = string | number;

export interface PositionOptions {
  /** For a map entry, the key's position rather than the value's. */
  key?: boolean;
}

export interface LoadOptions {
  /** 'auto' (default): JSON when the file name ends in .json, else YAML (JSON is YAML too). */
  format?: 'auto' | 'yaml' | 'json';
  /** Largest input accepted, in bytes (default 64 MiB). */
  maxBytes?: number;
  /** Values one document may expand to through aliases (default 1,000,000). */
  maxNodes?: number;
  /** Deepest nesting accepted (default 500 for YAML, 1,000 for JSON; 10,000 for both on the big-stack thread, as yaml.v2). */
  maxDepth?: number;
  /** Skip the fast reader (tests compare both paths). */
  noFastPath?: boolean;
  /** A key written twice in one mapping, YAML or JSON: 'error' (default) at the second, naming the
   *  first, as kubectl reads manifests (sigs.k8s.io/yaml.UnmarshalStrict); 'last' keeps the last
   *  written, as sigs.k8s.io/yaml.Unmarshal and encoding/json do (istiod reading its ConfigMap's data
   *  and annotations, Helm reading values). */
  duplicateKeys?: 'error' | 'last';
}

export interface LoadedDocument {
  /** The document's value as Go sees it (numbers float64, maps with no prototype). */
  value: GoValue;
  /** Position of this document among all documents of the file, empty ones included (0-based). */
  index: number;
  file: string;
  /** Where the document starts. */
  start: Position;
  /** Where the value (or, with `key`, the map key) at a path of keys and list indexes is written
   *  (through aliases and merge keys); for a path that does not exist, the nearest existing ancestor. */
  positionOf(path: readonly PathSegment[], opts?: PositionOptions): Position;
  /** `FILE:LINE:COL` of positionOf(path). */
  where(path: readonly PathSegment[], opts?: PositionOptions): string;
  /** An InputError at positionOf(path). */
  errorAt(path: readonly PathSegment[], reason: string, opts?: PositionOptions): InputError;
  /** A literal or folded block scalar at path: its header's line, and the content's indentation as a
   *  0-based column. Content line k (1-based) is file line `line + k`, its column c is `col + c`. */
  blockScalarAt(path: readonly PathSegment[]): Position | undefined;
  /** The YAML (or JSON) document in the string at path, positioned inside this file: line for line
   *  when the string is a block scalar, else at the string. Undefined when there is no string there
   *  or it holds no document. Errors name `label`. */
  embedded(path: readonly PathSegment[], label: string, opts?: LoadOptions): LoadedDocument | undefined;
  /** The sub-object at path as a document of its own (positions stay those of the file). */
  sub(path: readonly PathSegment[]): LoadedDocument;
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

function positionAt(lc: LineCounter, offset: number): Position {
  const p = lc.linePos(offset);
  return { line: p.line, col: p.col };
}

/**
 * The text of an input's bytes as yaml.v2's reader decodes them: UTF-16 after its byte order mark,
 * else UTF-8, refused where it is not (in yaml.v2's words, at the line and column of the bad byte).
 */
export function decodeInput(input: Uint8Array, file: string): string {
  if ((input[0] === 0xff && input[1] === 0xfe) || (input[0] === 0xfe && input[1] === 0xff)) {
    // UTF-16 with a byte order mark, which yaml.v2's reader decodes
    try {
      return new TextDecoder(input[0] === 0xff ? 'utf-16le' : 'utf-16be', { fatal: true }).decode(input);
    } catch {
      throw new InputError('invalid UTF-16 after its byte order mark', file, 1, 1);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input);
  } catch {
    const bad = utf8Problem(input);
    const pos = lineColOfBytes(input, bad.offset);
    throw new InputError(`${bad.words} (is this a binary file?)`, file, pos.line, pos.col);
  }
}

/** Text of the input, refusing what yaml.v2's reader refuses: invalid UTF-8 and control characters. */
function inputText(input: string | Uint8Array, file: string, maxBytes: number): string {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (size > maxBytes) throw new InputError(`input is ${size} bytes, more than the limit of ${maxBytes}`, file, 1, 1);
  let text = typeof input === 'string' ? input : decodeInput(input, file);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // eslint-disable-next-line no-control-regex
  const ctl = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f\ufffe\uffff]/.exec(text);
  if (ctl) {
    let line = 1;
    let col = 1;
    for (let i = 0; i < ctl.index; i++) {
      if (text[i] === '\n') {
        line++;
        col = 1;
      } else col++;
    }
    const code = ctl[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    throw new InputError(`control characters are not allowed (U+${code}; is this a binary file?)`, file, line, col);
  }
  const v2 = v2Text(text);
  if ('error' in v2) {
    const before = text.slice(0, v2.offset);
    throw new InputError(v2.error, file, before.split('\n').length, v2.offset - before.lastIndexOf('\n'));
  }
  return v2.text;
}

/** The first byte yaml.v2's reader stops at as not UTF-8, and its words for why. */
function utf8Problem(b: Uint8Array): { offset: number; words: string } {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const n = c < 0x80 ? 1 : (c & 0xe0) === 0xc0 ? 2 : (c & 0xf0) === 0xe0 ? 3 : (c & 0xf8) === 0xf0 ? 4 : 0;
    if (n === 0) return { offset: i, words: 'invalid leading UTF-8 octet' };
    if (i + n > b.length) return { offset: i, words: 'incomplete UTF-8 octet sequence' };
    let v = n === 1 ? c : n === 2 ? c & 0x1f : n === 3 ? c & 0x0f : c & 0x07;
    for (let k = 1; k < n; k++) {
      const t = b[i + k]!;
      if ((t & 0xc0) !== 0x80) return { offset: i + k, words: 'invalid trailing UTF-8 octet' };
      v = (v << 6) | (t & 0x3f);
    }
    if ((n === 2 && v < 0x80) || (n === 3 && v < 0x800) || (n === 4 && v < 0x10000)) return { offset: i, words: 'invalid length of a UTF-8 sequence' };
    if ((v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff) return { offset: i, words: 'invalid Unicode character' };
    i += n;
  }
  return { offset: b.length, words: 'invalid UTF-8' };
}

function lineColOfBytes(b: Uint8Array, offset: number): Position {
  let line = 1;
  let col = 1;
  for (let i = 0; i < offset; i++) {
    if (b[i] === 0x0a) {
      line++;
      col = 1;
    } else if ((b[i]! & 0xc0) !== 0x80) col++;
  }
  return { line, col };
}

/** Positions in a text whose lines got `added` spaces in front, as columns of the original text. */
function unshifted(lc: LineCounter, added: Map<number, number>): LineCounter {
  return {
    lineStarts: lc.lineStarts,
    addNewLine: (offset: number) => lc.addNewLine(offset),
    linePos(offset: number) {
      const p = lc.linePos(offset);
      return { line: p.line, col: Math.max(1, p.col - (added.get(p.line) ?? 0)) };
    },
  };
}

function firstLine(msg: string): string {
  return msg.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '').trim();
}

/** The key text sigs.k8s.io/yaml gives a scalar map key. */
function keyText(k: YamlNode | null): string | undefined {
  if (!k || !isScalar(k)) return undefined;
  const s = k as YamlNode & { value: unknown; type?: string; source?: string };
  const text = typeof s.value === 'string' ? s.value : String(s.source ?? s.value ?? '');
  if (s.type !== 'PLAIN' && s.type !== undefined) return text;
  const r = resolvePlain(text);
  if (r.tag === 'str' || r.tag === 'timestamp') return text;
  if (r.tag === 'bool') return String(r.value);
  if (r.tag === 'int') return String(r.value);
  if (r.tag === 'float') {
    const f = formatFloat(Math.fround(r.value as number), 'g', 32);
    return f === '+Inf' ? '.inf' : f === '-Inf' ? '-.inf' : f === 'NaN' ? '.nan' : f;
  }
  return undefined;
}

function valueAt(root: GoValue, path: readonly PathSegment[]): unknown {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) cur = typeof seg === 'number' ? cur[seg] : undefined;
    else cur = Object.prototype.hasOwnProperty.call(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
  }
  return cur;
}

/** What every document shares; subclasses know how to find positions. */
abstract class DocumentBase implements LoadedDocument {
  constructor(
    readonly value: GoValue,
    readonly index: number,
    readonly file: string,
    /** A function when finding it means reading the file again: called on first use. */
    private startAt: Position | (() => Position),
  ) {}

  get start(): Position {
    if (typeof this.startAt === 'function') this.startAt = this.startAt();
    return this.startAt;
  }

  abstract positionOf(path: readonly PathSegment[], opts?: PositionOptions): Position;
  abstract blockScalarAt(path: readonly PathSegment[]): Position | undefined;

  where(path: readonly PathSegment[], opts?: PositionOptions): string {
    const p = this.positionOf(path, opts);
    return `${this.file}:${p.line}:${p.col}`;
  }

  errorAt(path: readonly PathSegment[], reason: string, opts?: PositionOptions): InputError {
    const p = this.positionOf(path, opts);
    return new InputError(reason, this.file, p.line, p.col);
  }

  embedded(path: readonly PathSegment[], label: string, opts: LoadOptions = {}): LoadedDocument | undefined {
    const text = valueAt(this.value, path);
    if (typeof text !== 'string') return undefined;
    // where the string sits is looked up on first use: finding it reads the file again with positions
    let found: { block: Position | undefined; at: Position } | undefined;
    const where = (): { block: Position | undefined; at: Position } => (found ??= { block: this.blockScalarAt(path), at: this.positionOf(path) });
    const map = (p: Position): Position => {
      const { block, at } = where();
      return block ? { line: block.line + p.line, col: block.col + p.col } : at;
    };
    let docs: LoadedDocument[];
    try {
      docs = loadYamlDocuments(text, this.file, { ...opts, format: opts.format ?? 'yaml' });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      const p = map({ line: e.line ?? 1, col: e.col ?? 1 });
      throw new InputError(`${label}: ${e.reason}`, this.file, p.line, p.col);
    }
    if (docs.length === 0) return undefined;
    if (docs.length > 1) {
      const p = map(docs[1]!.start);
      throw new InputError(`${label}: expected one document, found ${docs.length}`, this.file, p.line, p.col);
    }
    return new Moved(docs[0]!, map, () => where().block !== undefined);
  }

  sub(path: readonly PathSegment[]): LoadedDocument {
    return path.length === 0 ? this : new SubDocument(this, path);
  }
}

/**
 * A document whose positions are another's moved by map: one inside a string of another document,
 * or one read from a slice of a larger file.
 */
class Moved extends DocumentBase {
  constructor(
    private readonly inner: LoadedDocument,
    private readonly map: (p: Position) => Position,
    private readonly lineForLine: boolean | (() => boolean),
  ) {
    super(inner.value, inner.index, inner.file, () => map(inner.start));
  }
  positionOf(path: readonly PathSegment[], opts?: PositionOptions): Position {
    return this.map(this.inner.positionOf(path, opts));
  }
  blockScalarAt(path: readonly PathSegment[]): Position | undefined {
    const b = (typeof this.lineForLine === 'function' ? this.lineForLine() : this.lineForLine) ? this.inner.blockScalarAt(path) : undefined;
    return b ? this.map(b) : undefined;
  }
}

/** doc with every position moved by map, block scalars included (content stays line for line). */
export function movedDocument(doc: LoadedDocument, map: (p: Position) => Position): LoadedDocument {
  return new Moved(doc, map, true);
}

class SubDocument extends DocumentBase {
  constructor(
    private readonly parent: LoadedDocument,
    private readonly at: readonly PathSegment[],
  ) {
    super(valueAt(parent.value, at) as GoValue, parent.index, parent.file, () => parent.positionOf(at));
  }
  positionOf(path: readonly PathSegment[], opts?: PositionOptions): Position {
    return this.parent.positionOf([...this.at, ...path], opts);
  }
  blockScalarAt(path: readonly PathSegment[]): Position | undefined {
    return this.parent.blockScalarAt([...this.at, ...path]);
  }
}

class Unpositioned extends DocumentBase {
  positionOf(): Position {
    return this.start;
  }
  blockScalarAt(): undefined {
    return undefined;
  }
  override where(): string {
    return this.file;
  }
  override errorAt(_path: readonly PathSegment[], reason: string): InputError {
    return new InputError(reason, this.file);
  }
}

/** A document for data that did not come from text (positions are the file name only). */
export function unpositioned(value: GoValue, file: string): LoadedDocument {
  return new Unpositioned(value, 0, file, { line: 1, col: 1 });
}

/** A document read by the full parser: positions from its nodes. */
class Located extends DocumentBase {
  constructor(
    value: GoValue,
    index: number,
    file: string,
    start: Position,
    private readonly root: YamlNode | null,
    private readonly lc: LineCounter,
    private readonly text: string,
    /** For a slice of a larger file: the file line before the slice's first line, and the column offset. */
    private readonly origin: Position = { line: 0, col: 0 },
  ) {
    super(value, index, file, start);
  }

  private anchorsMap?: Map<YamlNode, YamlNode>;
  private get anchors(): Map<YamlNode, YamlNode> {
    return (this.anchorsMap ??= anchorMap(this.root));
  }

  private at(offset: number): Position {
    const p = this.lc.linePos(offset);
    return { line: this.origin.line + p.line, col: (p.line === 1 ? this.origin.col : 0) + p.col };
  }

  private deref(n: YamlNode | null): YamlNode | null {
    let cur = n;
    for (let i = 0; cur && isAlias(cur) && i < 100; i++) cur = this.anchors.get(cur) ?? null;
    return cur;
  }

  /** The map entry (key and value nodes) or list item for seg. */
  private child(n: YamlNode, seg: PathSegment, seen = 0): { key?: YamlNode; value: YamlNode | null } | undefined {
    if (typeof seg === 'number') {
      if (!isSeq(n)) return undefined;
      const it = n.items[seg] as YamlNode | undefined;
      return it === undefined ? undefined : { value: it };
    }
    if (!isYamlMap(n)) return undefined;
    let found: { key?: YamlNode; value: YamlNode | null } | undefined;
    for (const p of n.items) {
      if (keyText(p.key as YamlNode | null) === seg) found = { key: p.key as YamlNode, value: (p.value as YamlNode | null) ?? null };
    }
    if (found !== undefined || seen > 20) return found;
    for (const p of n.items) {
      const k = p.key as YamlNode | null;
      if (k && isScalar(k) && String((k as { value: unknown }).value) === '<<') {
        const v = this.deref(p.value as YamlNode | null);
        const sources = v && isSeq(v) ? (v.items as YamlNode[]).map((x) => this.deref(x)) : [v];
        for (const src of sources) {
          if (!src) continue;
          const hit = this.child(src, seg, seen + 1);
          if (hit !== undefined) return hit;
        }
      }
    }
    return undefined;
  }

  private node(path: readonly PathSegment[]): { best: Position; node: YamlNode | null; complete: boolean } {
    let node = this.deref(this.root);
    const pos = (n: YamlNode | null | undefined): Position | undefined => (n?.range ? this.at(n.range[0]) : undefined);
    let best: Position = pos(node) ?? this.start;
    let i = 0;
    for (; i < path.length; i++) {
      if (!node) break;
      const next = this.child(node, path[i]!);
      if (next === undefined) break;
      best = pos(next.value) ?? pos(next.key) ?? best;
      node = this.deref(next.value);
    }
    return { best, node, complete: i === path.length };
  }

  positionOf(path: readonly PathSegment[], opts: PositionOptions = {}): Position {
    if (opts.key && path.length > 0) {
      const parent = this.node(path.slice(0, -1));
      if (parent.complete && parent.node) {
        const entry = this.child(parent.node, path[path.length - 1]!);
        const n = entry?.key ?? entry?.value;
        if (n?.range) return this.at(n.range[0]);
      }
      return parent.best;
    }
    return this.node(path).best;
  }

  blockScalarAt(path: readonly PathSegment[]): Position | undefined {
    const { node, complete } = this.node(path);
    if (!complete || !node || !isScalar(node)) return undefined;
    const s = node as Scalar;
    if ((s.type !== 'BLOCK_LITERAL' && s.type !== 'BLOCK_FOLDED') || !s.range) return undefined;
    const header = this.at(s.range[0]);
    // the content's indentation: that of its first non-blank line
    let i = this.text.indexOf('\n', s.range[0]);
    let indent = 0;
    while (i >= 0 && i + 1 < this.text.length) {
      let j = i + 1;
      while (this.text[j] === ' ') j++;
      if (this.text[j] !== '\n' && this.text[j] !== '\r') {
        indent = j - (i + 1);
        break;
      }
      i = this.text.indexOf('\n', j);
    }
    return { line: header.line, col: (header.line === this.origin.line + 1 ? this.origin.col : 0) + indent };
  }
}

/**
 * A document read by the fast reader. Positions come from reading just that document, or the cited
 * List item, again with positions on (the fast reader, else the full parser) — a 10,000-object dump
 * only pays for the few nodes that messages cite.
 */
class FastLocated extends DocumentBase {
  private readonly slices = new Map<number, SliceView | undefined>();
  /** Paths looked up so far: the first few are read on their own, the nodes on their way alone. */
  private lookups = 0;
  constructor(
    value: GoValue,
    index: number,
    file: string,
    start: Position,
    private readonly text: string,
    private readonly lineStarts: () => number[],
    private readonly range: { start: number; end: number },
    /** List items: offsets, and the path of the item inside its slice ([0] for a YAML `- ` entry, [] for JSON). */
    private readonly items: { start: number; end: number }[] | undefined,
    private readonly itemPrefix: PathSegment[],
  ) {
    super(value, index, file, start);
  }

  private lineOf(offset: number): number {
    const ls = this.lineStarts();
    let lo = 0;
    let hi = ls.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ls[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo; // 0-based
  }

  /**
   * Positions in a slice. A file with one value wrong is cited once or twice: each of the first few
   * paths is found by reading only the nodes on its way (a 50 MB values file: well under a second,
   * against several seconds and the whole tree again); past them the slice is read once, whole.
   */
  private slice(range: { start: number; end: number }, key: number, path: readonly PathSegment[]): SliceView | undefined {
    if (this.slices.has(key)) return this.slices.get(key);
    const targeted = this.lookups++ < TARGETED_LOOKUPS;
    const line0 = this.lineOf(range.start);
    const lineStart = this.lineStarts()[line0]!;
    const blank = /^\s*$/.test(this.text.slice(lineStart, range.start));
    const from = blank ? lineStart : range.start;
    const sub = this.text.slice(from, range.end);
    const colOffset = blank ? 0 : range.start - lineStart;
    let view: SliceView | undefined = colOffset === 0 && !/^\s*[[{]/.test(sub) ? fastPositions(sub, line0, targeted ? path : undefined) : undefined;
    // a view of one path serves that path only
    if (view && targeted) return view;
    if (!view) {
      const lc = new (yamlLib().LineCounter)();
      let d: Document.Parsed | undefined;
      try {
        d = parseAllDocumentsBounded(sub, { schema: 'failsafe', uniqueKeys: false, merge: false, lineCounter: lc, prettyErrors: false, resolveKnownTags: false })[0];
      } catch (e) {
        if (!(e instanceof YamlTooDeep)) throw e;
      }
      view = d && d.errors.length === 0 ? new Located(null, 0, this.file, this.start, d.contents as YamlNode | null, lc, sub, { line: line0, col: colOffset }) : undefined;
    }
    this.slices.set(key, view);
    return view;
  }

  private route(path: readonly PathSegment[]): [SliceView | undefined, PathSegment[]] {
    if (this.items && path[0] === 'items' && typeof path[1] === 'number' && this.items[path[1]]) {
      const p = [...this.itemPrefix, ...path.slice(2)];
      return [this.slice(this.items[path[1]]!, path[1], p), p];
    }
    return [this.slice(this.range, -1, path), [...path]];
  }

  positionOf(path: readonly PathSegment[], opts?: PositionOptions): Position {
    // a JSON List item itself (a sequence entry: no key): where its `{` is, without reading it (a report lists thousands)
    if (this.items && this.itemPrefix.length === 0 && path.length === 2 && path[0] === 'items' && typeof path[1] === 'number') {
      const item = this.items[path[1]];
      if (item && this.text.charCodeAt(item.start) === 123) {
        const line = this.lineOf(item.start);
        return { line: line + 1, col: item.start - this.lineStarts()[line]! + 1 };
      }
    }
    const [view, p] = this.route(path);
    return view?.positionOf(p, opts) ?? this.start;
  }

  blockScalarAt(path: readonly PathSegment[]): Position | undefined {
    const [view, p] = this.route(path);
    return view?.blockScalarAt(p);
  }
}

interface SliceView {
  positionOf(path: readonly PathSegment[], opts?: PositionOptions): Position;
  blockScalarAt(path: readonly PathSegment[]): Position | undefined;
}

/** Paths of a document found by reading only the nodes on their way, before it is read whole. */
const TARGETED_LOOKUPS = 4;

/** Positions from the fast reader, for a slice whose first line is file line `line0 + 1` (with a
 *  target, for that path and its ancestors only). */
function fastPositions(sub: string, line0: number, target?: readonly PathSegment[]): SliceView | undefined {
  const positions: Positions = { keys: new WeakMap(), blocks: new WeakMap() };
  let docs: FastDoc[];
  try {
    docs = fastParse(sub, positions, target ? { target } : {});
  } catch {
    return undefined;
  }
  const root = docs[0]?.value;
  const start: Position = { line: line0 + (docs[0]?.startLine ?? 1), col: 1 };
  const walk = (path: readonly PathSegment[]): { parent: unknown; at?: number[]; complete: boolean } => {
    let cur: unknown = root;
    let parent: unknown = root;
    let at: number[] | undefined;
    let i = 0;
    for (; i < path.length; i++) {
      const seg = path[i]!;
      if (cur === null || typeof cur !== 'object') break;
      const p = positions.keys.get(cur)?.get(Array.isArray(cur) ? Number(seg) : String(seg));
      if (!p) break;
      at = p;
      parent = cur;
      cur = (cur as Record<string, unknown>)[String(seg)];
    }
    return { parent, at, complete: i === path.length };
  };
  return {
    positionOf(path, opts = {}) {
      const { at, complete } = walk(path);
      if (!at) return start;
      return opts.key && complete ? { line: line0 + at[0]!, col: at[1]! } : { line: line0 + at[2]!, col: at[3]! };
    },
    blockScalarAt(path) {
      if (path.length === 0) return undefined;
      const { parent, complete } = walk(path);
      if (!complete || parent === null || typeof parent !== 'object') return undefined;
      const b = positions.blocks.get(parent)?.get(String(path[path.length - 1]));
      return b ? { line: line0 + b[0]!, col: b[1]! } : undefined;
    },
  };
}

/** Alias → anchored node, in document order as yaml.v2 resolves them. */
function anchorMap(root: YamlNode | null): Map<YamlNode, YamlNode> {
  const anchors = new Map<string, YamlNode>();
  const out = new Map<YamlNode, YamlNode>();
  const walk = (n: unknown, depth: number): void => {
    if (!n || typeof n !== 'object' || depth > 10_000) return;
    const node = n as YamlNode & { anchor?: string };
    if (isAlias(node)) {
      const t = anchors.get(node.source);
      if (t) out.set(node, t);
      return;
    }
    if (node.anchor) anchors.set(node.anchor, node);
    if (isYamlMap(node)) {
      for (const p of node.items) {
        walk(p.key, depth + 1);
        walk(p.value, depth + 1);
      }
    } else if (isSeq(node)) for (const it of node.items) walk(it, depth + 1);
  };
  walk(root, 0);
  return out;
}

/** The first node under root holding a value JSON cannot carry (.inf/.nan), for error positions. */
function findNonFinite(root: YamlNode | null): YamlNode | undefined {
  let hit: YamlNode | undefined;
  const walk = (n: unknown): void => {
    if (hit || !n || typeof n !== 'object') return;
    if (isScalar(n)) {
      const s = n as YamlNode & { value: unknown; type?: string };
      if ((s.type === 'PLAIN' || s.type === undefined) && typeof s.value === 'string') {
        const r = resolvePlain(s.value);
        if (r.tag === 'float' && !Number.isFinite(r.value as number)) hit = n as YamlNode;
      }
    } else if (isYamlMap(n)) {
      for (const p of n.items) {
        walk(p.key);
        walk(p.value);
      }
    } else if (isSeq(n)) for (const it of n.items) walk(it);
  };
  walk(root);
  return hit;
}

/** Deepest JSON input read: the same as YAML's on a big stack, where decoding it cannot run out. */
function jsonMaxDepth(): number {
  return onBigStack() ? GO_YAML_MAX_DEPTH : 1_000;
}

/** JSON text that may write a key twice: the YAML reader decides (and names both lines). */
const MAYBE_DUPLICATE_KEY = Symbol('maybeDuplicateKey');

/** 1-based line and column (in characters) of an offset. */
function charPosition(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const nl = before.lastIndexOf('\n');
  return { line: before.split('\n').length, col: offset - nl };
}

/** `(first set at line L)`, with the column when both keys share a line. */
function firstSet(first: Position, second: Position): string {
  return first.line === second.line ? ` (first set at line ${first.line}, column ${first.col})` : ` (first set at line ${first.line})`;
}

/**
 * JSON text as Go's encoding/json reads it. A key written twice: kept last ('last'), an error naming
 * both ('error'), or, for text that is only taken to be JSON, left to the YAML reader ('yaml').
 */
function loadJson(text: string, file: string, maxDepth: number, keys: 'last' | 'error' | 'yaml'): LoadedDocument[] {
  const deep = jsonTooDeep(text, maxDepth);
  if (deep >= 0) {
    // below Go's limit this is the stack's, and the command is worth a run on a big stack
    if (maxDepth < GO_YAML_MAX_DEPTH) noteStackExhausted();
    const p = lineColOfBytes(Buffer.from(text.slice(0, deep), 'utf8'), Buffer.byteLength(text.slice(0, deep)));
    throw new InputError(`document nests deeper than ${maxDepth} levels`, file, p.line, p.col);
  }
  let value: GoValue;
  try {
    value = goJsonUnmarshal(text);
  } catch (e) {
    if (e instanceof GoJsonError) {
      const bytes = Buffer.from(text, 'utf8');
      const p = lineColOfBytes(bytes, Math.min(e.offset ?? bytes.length, bytes.length));
      throw new InputError(e.message, file, p.line, p.col);
    }
    throw e;
  }
  if (keys !== 'last' && jsonKeyBound(text) > keyCount(value)) {
    if (keys === 'yaml') throw MAYBE_DUPLICATE_KEY;
    const dup = firstDuplicateJsonKey(text);
    if (dup) {
      const at = charPosition(text, dup.offset);
      throw new DuplicateKeyError(`key ${jsonQuote(dup.key, false)} already set in map${firstSet(charPosition(text, dup.firstOffset), at)}`, file, at.line, at.col);
    }
  }
  if (value === null) return [];
  // Positions come from the same text read again (JSON is YAML's flow style), per List item.
  const items = jsonItemRanges(text);
  return [new FastLocated(value, 0, file, { line: 1, col: 1 }, text, lazyLineStarts(text), { start: 0, end: text.length }, items, [])];
}

function lazyLineStarts(text: string): () => number[] {
  let ls: number[] | undefined;
  return () => {
    if (!ls) {
      ls = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) ls.push(i + 1);
    }
    return ls;
  };
}

/** The fast path: block YAML as kubectl writes it. Where the full parser is needed, what stopped the
 *  fast reader (undefined for a RangeError: nesting deeper than the stack, which the full parser
 *  reports cleanly). */
function loadFast(text: string, file: string): LoadedDocument[] | Unsupported | undefined {
  let docs: FastDoc[];
  try {
    // flow collections over lines too: a 50 MB one took the full parser past V8's heap limit
    docs = fastParse(text, undefined, { multiLineFlow: true });
  } catch (e) {
    if (e instanceof Unsupported) return e;
    if (e instanceof RangeError) return undefined;
    throw e;
  }
  const starts = lazyLineStarts(text);
  const off = (line: number): number => {
    const ls = starts();
    return line - 1 < ls.length ? ls[line - 1]! : text.length;
  };
  const out: LoadedDocument[] = [];
  docs.forEach((d, index) => {
    if (d.value === null) return;
    out.push(
      new FastLocated(
        d.value as GoValue,
        index,
        file,
        { line: d.markerLine, col: 1 },
        text,
        starts,
        { start: off(d.startLine), end: off(d.endLine) },
        d.items?.map((it) => ({ start: off(it.startLine), end: off(it.endLine) })),
        [0],
      ),
    );
  });
  return out;
}

/** Escapes JSON takes and yaml.v2 refuses (`\/`, surrogates): such text is read as YAML, as Go does. */
const V2_ONLY_ESCAPE = /\\(\/|u[dD][89a-fA-F])/;

/** A -0 number token in JSON text (a name like "web-0" inside a string is not one). */
const INTEGER_MINUS_ZERO = /[:[,\s]-0(?![.\deE])/;

/**
 * Every non-empty document of a YAML (or JSON) input, as sigs.k8s.io/yaml would decode it.
 * Throws InputError.
 */
export function loadYamlDocuments(input: string | Uint8Array, file: string, opts: LoadOptions = {}): LoadedDocument[] {
  const text = inputText(input, file, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  const json = opts.format === 'json' || ((opts.format ?? 'auto') === 'auto' && /\.json$/i.test(file));
  const breaks = json ? undefined : lsAsBreaks(text);
  // LS and PS break lines for yaml.v2: the full parser reads them as marks and breaks
  return breaks ? loadText(breaks.text, file, { ...opts, noFastPath: true }, breaks.marks) : loadText(text, file, opts);
}

function loadText(text: string, file: string, opts: LoadOptions, marks?: BreakMarks): LoadedDocument[] {
  const format = opts.format ?? 'auto';
  const first = text.trimStart()[0];
  const lastKey = opts.duplicateKeys === 'last';
  if (format === 'json' || (format === 'auto' && /\.json$/i.test(file))) return loadJson(text, file, opts.maxDepth ?? jsonMaxDepth(), lastKey ? 'last' : 'error');
  if (!opts.noFastPath) {
    // JSON (as kubectl -o json or a chart's values writes it) is read as JSON when it is exactly that;
    // an integer -0 is not (YAML reads it as the integer 0, Go's JSON as the float -0)
    if ((first === '{' || first === '[') && !INTEGER_MINUS_ZERO.test(text) && !V2_ONLY_ESCAPE.test(text)) {
      try {
        return loadJson(text, file, opts.maxDepth ?? jsonMaxDepth(), lastKey ? 'last' : 'yaml');
      } catch (e) {
        if (!(e instanceof InputError) && e !== MAYBE_DUPLICATE_KEY) throw e;
      }
    }
    // The fast reader recurses per level too. When its bound is below the limit (checkYamlDepth may
    // count one level more than there is) what it reads cannot be too deep, and what it declines the
    // full parser checks: the whole-text check is needed only above it.
    try {
      const max = opts.maxDepth ?? yamlMaxDepth();
      if (fastReaderDepthBound(text) >= max) checkYamlDepth(text, max);
    } catch (e) {
      if (e instanceof YamlTooDeep) {
        const p = e.position(text);
        throw new InputError(e.message, file, p.line, p.col);
      }
      throw e;
    }
    const fast = loadFast(text, file);
    if (Array.isArray(fast)) return fast;
    // A syntax error where the fast reader stopped is found by the full parser in that entry alone
    // (with its ancestors' lines): the whole text costs it about 70 bytes of heap a byte.
    if (fast) {
      const err = entryError(text, file, opts, fast.open, fast.previous);
      if (err) throw err;
    }
  }

  const parsed = parseFull(text, file, opts);
  text = parsed.text;
  const { docs, lc } = parsed;
  // Plain input cannot reach the node limit (a value takes at least a byte or two): it bounds aliases.
  const maxNodes = opts.maxNodes ?? Math.max(1_000_000, text.length);
  const out: LoadedDocument[] = [];
  docs.forEach((doc, index) => {
    const err = syntaxError(doc, lc, file, text);
    if (err) throw err;
    const root = doc.contents as YamlNode | null;
    const start = positionAt(lc, doc.range?.[0] ?? 0);
    let v2;
    try {
      v2 = decodeYamlNode(root, text, { maxNodes, maxDepth: (opts.maxDepth ?? yamlMaxDepth()) + 1, uniqueKeys: !lastKey, ...(marks ? { marks } : {}) }); // + the scalar at the bottom
    } catch (e) {
      if (e instanceof Fail) {
        const p = e.node?.range ? positionAt(lc, e.node.range[0]) : start;
        if (e.first?.range) throw new DuplicateKeyError(e.message.replace(/^yaml: /, '') + firstSet(positionAt(lc, e.first.range[0]), p), file, p.line, p.col);
        throw new InputError(e.message.replace(/^yaml: /, ''), file, p.line, p.col);
      }
      if (e instanceof RangeError) {
        isStackOverflow(e);
        throw new InputError('document nests too deeply', file, start.line, start.col);
      }
      throw e;
    }
    let value: GoValue;
    try {
      value = toJsonable(v2);
    } catch (e) {
      if (e instanceof Fail) {
        const n = findNonFinite(root);
        const p = n?.range ? positionAt(lc, n.range[0]) : start;
        throw new InputError(e.message, file, p.line, p.col);
      }
      throw e;
    }
    if (value === null) return;
    out.push(new Located(value, index, file, start, root, lc, text));
  });
  return out;
}

/**
 * The `yaml` package's reading of text: its documents, with line counter, and the text they were read
 * from (continuation lines re-indented where yaml.v2 takes what YAML 1.2 refuses). Throws InputError
 * for what stops it before documents are made.
 */
function parseFull(text: string, file: string, opts: LoadOptions): { docs: Document.Parsed[]; lc: LineCounter; text: string } {
  let lc = new (yamlLib().LineCounter)();
  let docs: Document.Parsed[];
  const parse = (source: string, counter: LineCounter) =>
    parseAllDocumentsBounded(source, { schema: 'failsafe', uniqueKeys: false, merge: false, lineCounter: counter, prettyErrors: false, resolveKnownTags: false }, opts.maxDepth ?? yamlMaxDepth());
  try {
    docs = parse(text, lc);
  } catch (e) {
    if (e instanceof YamlTooDeep) {
      const p = e.position(text);
      throw new InputError(e.message, file, p.line, p.col);
    }
    if (e instanceof RangeError) {
      isStackOverflow(e);
      throw new InputError('document nests too deeply', file, 1, 1);
    }
    throw new InputError(firstLine((e as Error).message), file, 1, 1);
  }
  // quoted scalars and flow collections continued at a column YAML 1.2 refuses and yaml.v2 takes
  const reindented = docs.some((d) => d.errors.length > 0) ? indentFlowContinuations(text) : undefined;
  if (reindented?.marker !== undefined) throw new InputError('found unexpected document indicator', file, reindented.marker, 1);
  if (reindented) {
    const lc2 = new (yamlLib().LineCounter)();
    let again: Document.Parsed[] | undefined;
    try {
      again = parse(reindented.text, lc2);
    } catch {
      again = undefined;
    }
    // what is left wrong once the indentation is not is what yaml.v2 stops at (lines are the same)
    if (again) {
      docs = again;
      text = reindented.text;
      lc = unshifted(lc2, reindented.added);
    }
  }
  return { docs, lc, text };
}

/** The first syntax error the `yaml` package found in a document, in yaml.v2's words where they differ. */
function syntaxError(doc: Document.Parsed, lc: LineCounter, file: string, text: string): InputError | undefined {
  const err = doc.errors[0];
  if (!err) return undefined;
  const p = positionAt(lc, err.pos[0]);
  const deep = err.message.includes('call stack');
  if (deep) noteStackExhausted();
  const msg = deep ? 'document nests too deeply' : (v2Words(err.message, text, lc, err.pos[0]) ?? v2SyntaxWords(text, doc) ?? firstLine(err.message));
  return new InputError(msg, file, p.line, p.col);
}

/** yaml.v2's words for the document's first syntax error (as fromYaml reports it), without its
 *  "yaml: line N:" (the error names our own line and column, at the token the `yaml` package stopped at). */
function v2SyntaxWords(text: string, doc: Document.Parsed): string | undefined {
  const words = yamlV2SyntaxError(text, doc);
  return words === undefined ? undefined : words.replace(/^yaml: (?:line \d+: )?/, '');
}

const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/**
 * yaml.v2's words for an error the `yaml` package words its own way (where yaml.v2 stops at the same
 * place): escapes, block scalar indentation indicators, tabs where indentation is.
 */
function v2Words(message: string, text: string, lc: LineCounter, offset: number): string | undefined {
  const esc = /^Invalid escape sequence \\(.)(\S*)/.exec(message);
  if (esc) {
    const digits = HEX_DIGITS[esc[1]!];
    if (digits === undefined) return 'found unknown escape character';
    return /^[0-9A-Fa-f]+$/.test(esc[2]!.slice(0, digits)) && esc[2]!.length >= digits ? 'found invalid Unicode character escape code' : 'did not find expected hexdecimal number';
  }
  const header = /^Block scalar header includes extra characters: [|>][-+]?(\d+)/.exec(message);
  if (header) return header[1] === '0' ? 'found an indentation indicator equal to 0' : 'did not find expected comment or line break';
  if (/^Tabs are not allowed as indentation/.test(message)) {
    // a tab that indents a line continuing a plain scalar breaks yaml.v2's scan of that scalar; a tab
    // before anything else is no token at all
    const line = lc.linePos(offset).line;
    const lines = text.split('\n', line);
    let prev = line - 2;
    while (prev >= 0 && /^\s*(#.*)?$/.test(lines[prev]!)) prev--;
    const before = prev >= 0 ? lines[prev]!.replace(/\s+#.*$/, '').trimEnd() : '';
    const plain = before !== '' && !/[:|>[{,]$/.test(before) && !/(^|\s)-$/.test(before) && !/[|>][-+0-9]*$/.test(before);
    return plain ? 'found a tab character that violates indentation' : 'found character that cannot start any token';
  }
  if (/^All mapping items must start at the same column/.test(message)) {
    // a key at the column of a block sequence's dashes, after its entries: yaml.v2 wanted another entry
    const line = lc.linePos(offset).line;
    const lines = text.split('\n', line);
    const indent = (l: string): number => l.length - l.trimStart().length;
    const at = indent(lines[line - 1] ?? '');
    for (let k = line - 2; k >= 0; k--) {
      const l = lines[k]!;
      if (/^\s*(#.*)?$/.test(l)) continue;
      if (indent(l) < at) break;
      if (indent(l) === at) return /^\s*-(\s|$)/.test(l) ? "did not find expected '-' indicator" : undefined;
    }
  }
  return undefined;
}

/**
 * The syntax error of the whole text, found by the full parser in less of it: the lines of the
 * entries the fast reader had open when it stopped (`open`, 1-based, outermost first; the last is
 * the entry it was reading), then the text from the entry before that one at its level (`previous`,
 * so that the entry follows what it follows in the file) on. What the fast reader read before is
 * complete block entries, siblings of the open ones, with no anchors, tags or multi-line flow that
 * could reach past them, so leaving them out changes nothing the parser says about the rest.
 * Undefined when there is little to leave out, when the rest holds no syntax error (the full text is
 * read then: the fast reader may have stopped at what it does not read, not at an error), or when
 * the error is not in the rest (messages at the start of the text, the open lines themselves).
 */
function entryError(text: string, file: string, opts: LoadOptions, open: number[], previous: number): InputError | undefined {
  if (open.length === 0) return undefined;
  const last = previous > 0 ? previous : open[open.length - 1]!;
  // offsets of lines 1..last+1
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0 && starts.length <= last; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  if (starts.length <= last - 1) return undefined;
  const from = starts[last - 1]!;
  // a `%` line would start the text as a directive, which in the middle of a document is no such
  // thing; and a tab after the indentation may make the line part of a block scalar before it
  let c = from;
  while (text.charCodeAt(c) === 32) c++;
  if (text.charCodeAt(from) === 37 || text.charCodeAt(c) <= 32) return undefined;
  const ancestors = open.slice(0, -1);
  let kept = 0;
  for (const n of ancestors) kept += (starts[n] ?? from) - starts[n - 1]!;
  // the entry's own text is most of the file: nothing to gain
  if (from - kept < text.length / 2) return undefined;
  const reduced = ancestors.map((n) => text.slice(starts[n - 1]!, starts[n])).join('') + text.slice(from);
  const line = (r: number): number => (r <= ancestors.length ? ancestors[r - 1]! : last + r - ancestors.length - 1);
  let err: InputError | undefined;
  try {
    const { docs, lc } = parseFull(reduced, file, opts);
    err = docs[0] ? syntaxError(docs[0], lc, file, reduced) : undefined;
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    err = e;
  }
  // an error at 1:1 may be one about the text as a whole (the full parser's own failure)
  if (!err || err.line === undefined || err.line <= ancestors.length || (err.line === 1 && err.col === 1)) return undefined;
  return new InputError(err.reason, file, line(err.line), err.col);
}

/**
 * Documents of a file whose reader depends on what it holds: a key written twice is kept last (as
 * sigs.k8s.io/yaml.Unmarshal has it), unless a document is of one of `strictKinds`, which kubectl or
 * istioctl read strictly: then it is an error.
 */
export function loadYamlDocumentsByKind(input: string | Uint8Array, file: string, strictKinds: readonly string[], opts: LoadOptions = {}): LoadedDocument[] {
  try {
    return loadYamlDocuments(input, file, { ...opts, duplicateKeys: 'error' });
  } catch (e) {
    if (!(e instanceof DuplicateKeyError)) throw e;
    const docs = loadYamlDocuments(input, file, { ...opts, duplicateKeys: 'last' });
    const kinds = docs.map((d) => (d.value !== null && typeof d.value === 'object' && !Array.isArray(d.value) ? (d.value as Record<string, unknown>).kind : undefined));
    if (kinds.some((k) => typeof k === 'string' && strictKinds.includes(k))) throw e;
    return docs;
  }
}

/** Exactly one document (an empty input is an error too). */
export function loadYamlDocument(input: string | Uint8Array, file: string, opts: LoadOptions = {}): LoadedDocument {
  const docs = loadYamlDocuments(input, file, opts);
  if (docs.length === 0) throw new InputError('no document found', file, 1, 1);
  if (docs.length > 1) {
    const p = docs[1]!.start;
    throw new InputError(`expected one document, found ${docs.length}`, file, p.line, p.col);
  }
  return docs[0]!;
}

/** The first line of an error's message (or of any thrown value): what a one-line report shows. */
export function firstLineOf(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split('\n')[0]!;
}
