// Input loading for the CLI and library users: YAML (multi-document) or JSON files become the values
// Go programs would see after sigs.k8s.io/yaml.Unmarshal (numbers float64, YAML 1.1 scalars as
// yaml.v2 resolves them, merge keys, null-prototype maps), each document able to say where a path
// came from. Every failure is an InputError: one line, `FILE:LINE:COL: message`.
//
// Hostile input is bounded: the byte size, the values an alias-heavy document expands to (plus
// yaml.v2's own alias-ratio check), and the nesting depth.

import { LineCounter, parseAllDocuments, isAlias, isMap as isYamlMap, isScalar, isSeq, type Document, type Node as YamlNode } from 'yaml';
import type { GoValue } from '../template/value.js';
import { GoJsonError, goJsonUnmarshal } from './json.js';
import { Fail, decodeYamlNode, toJsonable } from './decode.js';
import { resolvePlain } from './resolve.js';
import { formatFloat } from './strconv.js';

/** A problem with an input file. `message` is the whole one-line text `FILE:LINE:COL: reason`. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly col: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}:${col}: ${reason}`);
    this.name = 'InputError';
  }
}

export interface Position {
  /** 1-based */
  line: number;
  /** 1-based, in characters */
  col: number;
}

export type PathSegment = string | number;

export interface LoadOptions {
  /** 'auto' (default): JSON when the file name ends in .json, else YAML (JSON is YAML too). */
  format?: 'auto' | 'yaml' | 'json';
  /** Largest input accepted, in bytes (default 64 MiB). */
  maxBytes?: number;
  /** Values one document may expand to through aliases (default 1,000,000). */
  maxNodes?: number;
  /** Deepest nesting accepted (default 1,000). */
  maxDepth?: number;
}

export interface LoadedDocument {
  /** The document's value as Go sees it (numbers float64, maps with no prototype). Never null. */
  value: GoValue;
  /** Position of this document among all documents of the file, empty ones included (0-based). */
  index: number;
  file: string;
  /** Where the document starts. */
  start: Position;
  /** Where the value at a path of keys and list indexes is written (through aliases and merge keys);
   *  for a path that does not exist, the nearest existing ancestor. */
  positionOf(path: readonly PathSegment[]): Position;
  /** `FILE:LINE:COL` of positionOf(path). */
  where(path: readonly PathSegment[]): string;
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

function positionAt(lc: LineCounter, offset: number): Position {
  const p = lc.linePos(offset);
  return { line: p.line, col: p.col };
}

/** Text of the input, refusing what yaml.v2's reader refuses: invalid UTF-8 and control characters. */
function inputText(input: string | Uint8Array, file: string, maxBytes: number): string {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (size > maxBytes) throw new InputError(file, 1, 1, `input is ${size} bytes, more than the limit of ${maxBytes}`);
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      const bad = firstInvalidUtf8(input);
      const pos = lineColOfBytes(input, bad);
      throw new InputError(file, pos.line, pos.col, 'invalid UTF-8 (is this a binary file?)');
    }
  }
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
    throw new InputError(file, line, col, `control character U+${code} is not allowed (is this a binary file?)`);
  }
  return text;
}

function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const n = c < 0x80 ? 1 : (c & 0xe0) === 0xc0 ? 2 : (c & 0xf0) === 0xe0 ? 3 : (c & 0xf8) === 0xf0 ? 4 : 0;
    if (n === 0) return i;
    for (let k = 1; k < n; k++) if (((b[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += n;
  }
  return b.length;
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

class Located implements LoadedDocument {
  constructor(
    readonly value: GoValue,
    readonly index: number,
    readonly file: string,
    readonly start: Position,
    private readonly root: YamlNode | null,
    private readonly lc: LineCounter,
    private readonly anchors: Map<YamlNode, YamlNode>,
  ) {}

  private deref(n: YamlNode | null): YamlNode | null {
    let cur = n;
    for (let i = 0; cur && isAlias(cur) && i < 100; i++) cur = this.anchors.get(cur) ?? null;
    return cur;
  }

  private child(n: YamlNode, seg: PathSegment, seen = 0): YamlNode | null | undefined {
    if (typeof seg === 'number') return isSeq(n) ? (n.items[seg] as YamlNode | undefined) : undefined;
    if (!isYamlMap(n)) return undefined;
    let found: YamlNode | null | undefined;
    for (const p of n.items) {
      if (keyText(p.key as YamlNode | null) === seg) found = (p.value as YamlNode | null) ?? (p.key as YamlNode);
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

  positionOf(path: readonly PathSegment[]): Position {
    let node = this.deref(this.root);
    let best: Position = this.start;
    const at = (n: YamlNode | null): Position | undefined => {
      const r = n?.range;
      return r ? positionAt(this.lc, r[0]) : undefined;
    };
    best = at(node) ?? best;
    for (const seg of path) {
      if (!node) break;
      const next = this.child(node, seg);
      if (next === undefined) break;
      best = at(next) ?? best;
      node = this.deref(next);
    }
    return best;
  }

  where(path: readonly PathSegment[]): string {
    const p = this.positionOf(path);
    return `${this.file}:${p.line}:${p.col}`;
  }
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

function loadJson(text: string, file: string, lc: LineCounter): LoadedDocument[] {
  let value: GoValue;
  try {
    value = goJsonUnmarshal(text);
  } catch (e) {
    if (e instanceof GoJsonError) {
      const bytes = Buffer.from(text, 'utf8');
      const p = lineColOfBytes(bytes, Math.min(e.offset ?? bytes.length, bytes.length));
      throw new InputError(file, p.line, p.col, e.message);
    }
    throw e;
  }
  // Positions come from the same text read as YAML (JSON is YAML's flow style).
  let root: YamlNode | null = null;
  try {
    const docs = parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, merge: false, lineCounter: lc });
    const d = (Array.isArray(docs) ? docs[0] : undefined) as Document.Parsed | undefined;
    if (d && d.errors.length === 0) root = d.contents as YamlNode | null;
  } catch {
    root = null;
  }
  if (value === null) return [];
  return [new Located(value, 0, file, { line: 1, col: 1 }, root, lc, anchorMap(root))];
}

/**
 * Every non-empty document of a YAML (or JSON) input, as sigs.k8s.io/yaml would decode it.
 * Throws InputError.
 */
export function loadYamlDocuments(input: string | Uint8Array, file: string, opts: LoadOptions = {}): LoadedDocument[] {
  const text = inputText(input, file, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  const lc = new LineCounter();
  const format = opts.format ?? 'auto';
  if (format === 'json' || (format === 'auto' && /\.json$/i.test(file))) return loadJson(text, file, lc);

  let docs: Document.Parsed[];
  try {
    const all = parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, merge: false, lineCounter: lc, prettyErrors: false });
    docs = (Array.isArray(all) ? all : []) as Document.Parsed[];
  } catch (e) {
    if (e instanceof RangeError) throw new InputError(file, 1, 1, 'document nests too deeply');
    throw new InputError(file, 1, 1, firstLine((e as Error).message));
  }
  const out: LoadedDocument[] = [];
  docs.forEach((doc, index) => {
    const err = doc.errors[0];
    if (err) {
      const p = positionAt(lc, err.pos[0]);
      const msg = /call stack/i.test(err.message) ? 'document nests too deeply' : firstLine(err.message);
      throw new InputError(file, p.line, p.col, msg);
    }
    const root = doc.contents as YamlNode | null;
    const start = positionAt(lc, doc.range?.[0] ?? 0);
    let v2;
    try {
      v2 = decodeYamlNode(root, text, { maxNodes: opts.maxNodes ?? 1_000_000, maxDepth: opts.maxDepth ?? 1_000 });
    } catch (e) {
      if (e instanceof Fail) {
        const p = e.node?.range ? positionAt(lc, e.node.range[0]) : start;
        throw new InputError(file, p.line, p.col, e.message.replace(/^yaml: /, ''));
      }
      if (e instanceof RangeError) throw new InputError(file, start.line, start.col, 'document nests too deeply');
      throw e;
    }
    let value: GoValue;
    try {
      value = toJsonable(v2);
    } catch (e) {
      if (e instanceof Fail) {
        const n = findNonFinite(root);
        const p = n?.range ? positionAt(lc, n.range[0]) : start;
        throw new InputError(file, p.line, p.col, e.message);
      }
      throw e;
    }
    if (value === null) return;
    out.push(new Located(value, index, file, start, root, lc, anchorMap(root)));
  });
  return out;
}

/** Exactly one document (an empty input is an error too). */
export function loadYamlDocument(input: string | Uint8Array, file: string, opts: LoadOptions = {}): LoadedDocument {
  const docs = loadYamlDocuments(input, file, opts);
  if (docs.length === 0) throw new InputError(file, 1, 1, 'no document found');
  if (docs.length > 1) {
    const p = docs[1]!.start;
    throw new InputError(file, p.line, p.col, `expected one document, found ${docs.length}`);
  }
  return docs[0]!;
}
