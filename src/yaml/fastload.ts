// The fast path of input loading (load.ts) for the YAML that `kubectl get -o yaml` and hand-written
// manifests use: block mappings and sequences, plain and quoted scalars, literal/folded block scalars,
// one-line flow collections (and, when asked, flow collections over lines). Anything else (anchors,
// tags, merge keys, multi-line quoted scalars, complex or non-string keys) throws Unsupported and load.ts uses the full parser. Scalars
// resolve as yaml.v2 resolves them (YAML 1.1) and come out as sigs.k8s.io/yaml gives them (float64
// numbers, null-prototype maps), so both paths yield the same values.
//
// It also remembers where each document (and each `items` entry of a List) starts and ends, so
// that positions can be found later by reading just that slice again.
//
// Upstream: none (the fast block-YAML reader of the input layer, with lazy positions)

import { SLICE_IFACE, newMap, withType } from '../go/reflect/value.js';
import { resolvePlain as resolveV2 } from './resolve.js';
import { wholeLines } from './yamllib.js';

export class Unsupported extends Error {
  /** The lines (1-based) of the block entries and list items open when reading stopped, outermost
   *  first: the last is the entry being read, the others its ancestors. Empty at the document level. */
  open: number[] = [];
  /** The line of the entry read before the last of `open`, at its level (0 when it is the first). */
  previous = 0;
  constructor(
    readonly line: number,
    why: string,
  ) {
    super(`line ${line}: ${why}`);
  }
}

export interface FastDoc {
  value: unknown;
  /** 1-based line range [startLine, endLine) of the document's content. */
  startLine: number;
  /** The line of the `---` that opened the document, else startLine. */
  markerLine: number;
  endLine: number;
  /** For a List: line ranges of the top-level `items` entries. */
  items?: { startLine: number; endLine: number }[];
}

/** Where keys (or items) and their values start (1-based line, col: [keyLine, keyCol, valueLine,
 *  valueCol]), and block scalars' header line and content indentation (0-based). */
export interface Positions {
  keys: WeakMap<object, Map<string | number, number[]>>;
  blocks: WeakMap<object, Map<string | number, number[]>>;
}

function note(m: WeakMap<object, Map<string | number, number[]>>, o: object, k: string | number, v: number[]): void {
  let x = m.get(o);
  if (!x) {
    x = new Map();
    m.set(o, x);
  }
  x.set(k, v);
}

interface Line {
  no: number; // 1-based
  indent: number;
  text: string; // content after the indentation (trailing spaces kept)
}

/** A plain scalar as yaml.v2 resolves it, then through encoding/json (numbers are float64). */
export function resolvePlain(s: string, line = 0): unknown {
  const r = resolveV2(s);
  switch (r.tag) {
    case 'null':
    case 'bool':
      return r.value;
    case 'int':
      return Number(r.value);
    case 'float':
      // .inf/.nan cannot go through JSON: the full parser reports that with its position
      if (!Number.isFinite(r.value as number)) throw new Unsupported(line, 'non-finite float');
      return r.value;
    case 'merge':
      throw new Unsupported(line, 'merge key');
    default:
      return s;
  }
}

/** A plain mapping key: sigs.k8s.io/yaml turns bool/number keys into text; only string keys are read here. */
function plainKey(s: string, line: number): string {
  if (s === '<<') throw new Unsupported(line, 'merge key');
  const r = resolveV2(s);
  if (r.tag !== 'str' && r.tag !== 'timestamp') throw new Unsupported(line, 'non-string key');
  return s;
}

function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  // a key written twice is an error the full reader reports with both lines
  if (Object.hasOwn(o, k)) throw new Unsupported(0, 'duplicate key');
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

const ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b',
  ' ': ' ', '"': '"', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};

/** A double-quoted scalar starting at s[i] === '"'; returns value and the index after the closing quote. */
function doubleQuoted(s: string, i: number, line: number): [string, number] {
  let out = '';
  let j = i + 1;
  for (;;) {
    const k = s.indexOf('"', j);
    const b = s.indexOf('\\', j);
    if (k < 0) throw new Unsupported(line, 'multi-line double-quoted scalar');
    if (b >= 0 && b < k) {
      out += s.slice(j, b);
      const e = s[b + 1];
      if (e === undefined) throw new Unsupported(line, 'escaped line break');
      if (e === 'x' || e === 'u' || e === 'U') {
        const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = s.slice(b + 2, b + 2 + n);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) throw new Unsupported(line, 'bad escape');
        const code = parseInt(hex, 16);
        // surrogates and code points beyond Unicode are yaml.v2 errors, reported by the full reader
        if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) throw new Unsupported(line, 'bad escape');
        out += String.fromCodePoint(code);
        j = b + 2 + n;
        continue;
      }
      const r = ESCAPES[e];
      if (r === undefined) throw new Unsupported(line, 'bad escape');
      out += r;
      j = b + 2;
      continue;
    }
    out += s.slice(j, k);
    return [out, k + 1];
  }
}

function singleQuoted(s: string, i: number, line: number): [string, number] {
  let out = '';
  let j = i + 1;
  for (;;) {
    const k = s.indexOf("'", j);
    if (k < 0) throw new Unsupported(line, 'multi-line single-quoted scalar');
    out += s.slice(j, k);
    if (s[k + 1] === "'") {
      out += "'";
      j = k + 2;
      continue;
    }
    return [out, k + 1];
  }
}

/** The rest of a line after a value must be blank or a comment. */
function restIsEmpty(s: string, i: number): boolean {
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (c === '#') return j > i || j === 0 || s[j - 1] === ' ' || s[j - 1] === '\t';
    if (c !== ' ' && c !== '\t') return false;
  }
  return true;
}

/** A plain scalar's text: up to ` #`, trimmed. */
function plainText(s: string, line: number, continuation = false): string {
  let end = s.length;
  const h = s.indexOf(' #');
  if (h >= 0) end = h;
  const t = s.slice(0, end).trim();
  if (t.includes(': ') || t.endsWith(':')) throw new Unsupported(line, 'colon in plain scalar');
  const c = t[0];
  if (!continuation && c !== undefined && '&*!|>%@`{}[],'.includes(c)) throw new Unsupported(line, `plain scalar starting with ${c}`);
  if (t.includes('\t#')) throw new Unsupported(line, 'tab before comment');
  return t;
}

// ---------- flow collections on one line ----------

function flow(s: string, i: number, line: number): [unknown, number] {
  // a collection spread over lines arrives joined by '\n' (multiLineFlow), which only separates tokens
  const skip = (j: number): number => {
    while (s[j] === ' ' || s[j] === '\n') j++;
    return j;
  };
  const scalar = (j: number, inMap: boolean): [unknown, number, boolean] => {
    j = skip(j);
    const c = s[j];
    if (c === '"' || c === "'") {
      const [v, k] = c === '"' ? doubleQuoted(s, j, line) : singleQuoted(s, j, line);
      // a quoted scalar folded over lines is left to the full parser
      const nl = s.indexOf('\n', j);
      if (nl >= 0 && nl < k) throw new Unsupported(line, 'multi-line quoted scalar in flow');
      return [v, k, true];
    }
    if (c === '[' || c === '{') {
      const [v, k] = node(j);
      return [v, k, true];
    }
    let k = j;
    while (k < s.length) {
      const d = s[k]!;
      if (d === ',' || d === ']' || d === '}') break;
      if (d === ':' && (s[k + 1] === ' ' || s[k + 1] === '\n' || s[k + 1] === ',' || s[k + 1] === '}' || s[k + 1] === ']' || s[k + 1] === undefined) && inMap) break;
      if (d === '#' && s[k - 1] === ' ') throw new Unsupported(line, 'comment in flow');
      k++;
    }
    const t = s.slice(j, k).trim();
    if (t.includes('\n')) throw new Unsupported(line, 'multi-line plain scalar in flow');
    if (t !== '' && '&*!|>%@`'.includes(t[0]!)) throw new Unsupported(line, 'flow indicator');
    // '-' then a blank is a block entry, which a flow collection cannot hold
    if (t[0] === '-' && (t.length === 1 || ' \t\n'.includes(t[1]!))) throw new Unsupported(line, 'block entry in flow');
    if (t.includes(': ')) throw new Unsupported(line, 'colon in flow scalar');
    return [resolvePlain(t, line), k, false];
  };
  const node = (j: number): [unknown, number] => {
    if (s[j] === '[') {
      const arr: unknown[] = withType([], SLICE_IFACE);
      j = skip(j + 1);
      if (s[j] === ']') return [arr, j + 1];
      for (;;) {
        const [v, k, quoted] = scalar(j, false);
        // `[1,,2]`: an entry with no node, which yaml.v2 refuses
        if (!quoted && v === null && s.slice(j, k).trim() === '') throw new Unsupported(line, 'empty flow sequence entry');
        j = skip(k);
        if (s[j] === ':') throw new Unsupported(line, 'pair in flow sequence');
        arr.push(v);
        if (s[j] === ',') {
          j = skip(j + 1);
          if (s[j] === ']') return [arr, j + 1];
          continue;
        }
        if (s[j] === ']') return [arr, j + 1];
        throw new Unsupported(line, 'flow sequence not closed on its line');
      }
    }
    const obj = newMap() as Record<string, unknown>;
    j = skip(j + 1);
    if (s[j] === '}') return [obj, j + 1];
    for (;;) {
      const [k0, k1] = scalar(j, true);
      if (typeof k0 !== 'string') throw new Unsupported(line, 'non-string flow key');
      j = skip(k1);
      let v: unknown = null;
      if (s[j] === ':') {
        const [vv, k2] = scalar(j + 1, true);
        v = vv;
        j = skip(k2);
      }
      setKey(obj, String(k0), v);
      if (s[j] === ',') {
        j = skip(j + 1);
        if (s[j] === '}') return [obj, j + 1];
        continue;
      }
      if (s[j] === '}') return [obj, j + 1];
      throw new Unsupported(line, 'flow mapping not closed on its line');
    }
  };
  return node(i);
}

// ---------- block structure ----------

/** A whitespace-only line with whitespace other than spaces on it (the line reader keeps only its spaces). */
const ODD_BLANK = /(?:^|\n) *[^\S \n][^\S\n]*(?=\n|$)/;

const literalCache = new Map<number, [RegExp, RegExp]>();

/** For a literal block indented by n: its extent (whole lines: n spaces and anything, or only spaces),
 *  and what takes the indentation off each line (all of it on a blank line of fewer spaces). */
function literalRegExps(n: number): [RegExp, RegExp] {
  let r = literalCache.get(n);
  if (!r) {
    if (literalCache.size >= 64) literalCache.clear();
    r = [new RegExp(`(?: {${n}}[^\\n]*\\n| *\\n){0,4096}`, 'y'), new RegExp(`(^|\\n) {1,${n}}`, 'g')];
    literalCache.set(n, r);
  }
  return r;
}

/** The index of the line starting at offset (a line start) in starts. */
function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The lines of a text, each made into a Line when the reader first looks at it. A block scalar's
 * lines are read from the text itself (blockScalar), so a ConfigMap's templates cost no object per line.
 */
class LineTable {
  /** Offset of each line, then text.length + 1. */
  readonly starts: number[] = [0];
  readonly length: number;
  /** Lines made so far (and lines the reader replaced: `- key: v` read as `key: v`). */
  readonly made: (Line | undefined)[];
  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
    this.length = this.starts.length;
    this.starts.push(text.length + 1);
    this.made = new Array(this.length);
  }
  /** Where line i's text ends: before its line break, and before a carriage return ending it. */
  end(i: number): number {
    const e = this.starts[i + 1]! - 1;
    return e > this.starts[i]! && this.text.charCodeAt(e - 1) === 13 ? e - 1 : e;
  }
  get(i: number): Line {
    let l = this.made[i];
    if (!l) {
      const s = this.text.slice(this.starts[i], this.end(i));
      let k = 0;
      while (s.charCodeAt(k) === 32) k++;
      const body = s.slice(k);
      l = this.made[i] = { no: i + 1, indent: k, text: body.trimEnd() === '' ? '' : body };
    }
    return l;
  }
}

class Reader {
  private pos = 0;
  constructor(
    private readonly lines: LineTable,
    private readonly end: number,
    /** The text's last line has no line break: a block scalar ending there has no final newline. */
    private readonly unterminated = false,
  ) {}

  /** The next line with content (skipping blank and comment-only lines), without consuming it. */
  peek(): Line | undefined {
    while (this.pos < this.end) {
      const l = this.lines.get(this.pos);
      if (l.text === '' || l.text[0] === '#') {
        this.pos++;
        continue;
      }
      return l;
    }
    return undefined;
  }
  next(): void {
    this.pos++;
  }
  index(): number {
    return this.pos;
  }
  raw(i: number): Line | undefined {
    return i < this.end ? this.lines.get(i) : undefined;
  }
  seek(i: number): void {
    this.pos = i;
  }

  /** The node whose first line is the next line, at exactly `indent`. */
  block(indent: number, record?: { startLine: number; endLine: number }[]): unknown {
    const l = this.peek();
    if (!l || l.indent !== indent) return null;
    if (isSeqItem(l.text)) return this.sequence(indent, record);
    return this.mapping(indent);
  }

  private sequence(indent: number, record?: { startLine: number; endLine: number }[]): unknown[] {
    const out: unknown[] = withType([], SLICE_IFACE);
    let previous = 0;
    for (;;) {
      const l = this.peek();
      if (!l || l.indent !== indent || !isSeqItem(l.text)) break;
      const start = l.no;
      const t = this.target;
      if (t && (this.depth >= t.length || Number(t[this.depth]) !== out.length)) {
        // not on the way to the target: the item's lines are stepped over
        this.next();
        this.skipNode(indent, false);
        out.push(null);
        continue;
      }
      this.open.push(start);
      this.previous.push(previous);
      // the rest of the line is a node indented past the dash
      let k = 1;
      while (l.text[k] === ' ') k++;
      const rest = l.text.slice(k);
      if (this.positions) {
        const n = rest === '' || rest[0] === '#' ? this.nextContent(l.no) : undefined;
        note(this.positions.keys, out, out.length, n ? [l.no, indent + 1, n.no, n.indent + 1] : [l.no, indent + 1, l.no, indent + k + 1]);
      }
      this.depth++;
      if (rest === '' || rest[0] === '#') {
        this.next();
        const n = this.peek();
        out.push(n && n.indent > indent ? this.block(n.indent) : null);
      } else {
        const inner: Line = { no: l.no, indent: indent + k, text: rest };
        out.push(this.inline(inner, indent));
      }
      this.depth--;
      this.open.pop();
      this.previous.pop();
      previous = start;
      if (record) {
        const n = this.peek();
        record.push({ startLine: start, endLine: n ? n.no : this.raw(this.index())?.no ?? Number.MAX_SAFE_INTEGER });
      }
    }
    return out;
  }

  /** A node that starts mid-line (after `- `): a compact mapping, a nested sequence or a scalar. */
  private inline(l: Line, parentIndent: number): unknown {
    if (isSeqItem(l.text)) {
      this.lines.made[this.index()] = l;
      return this.sequence(l.indent);
    }
    if (l.text[0] === '"' || l.text[0] === "'") {
      const [, j] = l.text[0] === '"' ? doubleQuoted(l.text, 0, l.no) : singleQuoted(l.text, 0, l.no);
      let m = j;
      while (l.text[m] === ' ') m++;
      if (l.text[m] === ':') {
        this.lines.made[this.index()] = l;
        return this.mapping(l.indent);
      }
    } else if (findColon(l.text, l.no) >= 0) {
      this.lines.made[this.index()] = l;
      return this.mapping(l.indent);
    }
    this.next();
    return this.scalarValue(l.text, l.no, parentIndent);
  }

  private mapping(indent: number): Record<string, unknown> {
    const out = newMap() as Record<string, unknown>;
    let previous = 0;
    for (;;) {
      const l = this.peek();
      if (!l || l.indent !== indent || isSeqItem(l.text)) break;
      this.open.push(l.no);
      this.previous.push(previous);
      previous = l.no;
      const t = l.text;
      let key: string;
      let after: number;
      if (t[0] === '"' || t[0] === "'") {
        const [k, j] = t[0] === '"' ? doubleQuoted(t, 0, l.no) : singleQuoted(t, 0, l.no);
        let m = j;
        while (t[m] === ' ') m++;
        if (t[m] !== ':' || (t[m + 1] !== undefined && t[m + 1] !== ' ')) throw new Unsupported(l.no, 'quoted key without colon');
        key = k;
        after = m + 1;
      } else {
        const c = findColon(t, l.no);
        if (c < 0) throw new Unsupported(l.no, 'expected a mapping key');
        const k = t.slice(0, c).trimEnd();
        if (k === '' || '?&*!|>%@`{}[]#,'.includes(k[0]!) || k.includes(' #')) throw new Unsupported(l.no, 'complex key');
        key = plainKey(k, l.no);
        after = c + 1;
      }
      this.next();
      const rest = t.slice(after).trimStart();
      const target = this.target;
      if (target && (this.depth >= target.length || String(target[this.depth]) !== key)) {
        // not on the way to the target: the value's lines are stepped over
        this.skipNode(indent, rest === '' || rest[0] === '#');
        this.open.pop();
        this.previous.pop();
        continue;
      }
      this.depth++;
      if (this.positions) {
        const n = rest === '' || rest[0] === '#' ? this.peek() : undefined;
        const value = n && (n.indent > indent || (n.indent === indent && isSeqItem(n.text))) ? [n.no, n.indent + 1] : rest === '' || rest[0] === '#' ? [l.no, indent + 1] : [l.no, indent + 1 + t.length - rest.length];
        note(this.positions.keys, out, key, [l.no, indent + 1, ...value]);
      }
      if (rest === '' || rest[0] === '#') {
        const n = this.peek();
        if (n && n.indent > indent && (n.text[0] === '[' || n.text[0] === '{')) setKey(out, key, this.flowLine(n, indent));
        else if (n && n.indent > indent) setKey(out, key, this.block(n.indent, indent === 0 && key === 'items' ? this.itemRecord : undefined));
        else if (n && n.indent === indent && isSeqItem(n.text)) setKey(out, key, this.block(indent, indent === 0 && key === 'items' ? this.itemRecord : undefined));
        else setKey(out, key, null);
      } else {
        this.lastBlock = undefined;
        setKey(out, key, this.scalarValue(rest, l.no, indent));
        if (this.positions && this.lastBlock) note(this.positions.blocks, out, key, this.lastBlock);
      }
      this.depth--;
      this.open.pop();
      this.previous.pop();
    }
    return out;
  }

  /** A one-line flow collection on the line after its key (`key:` then `  []`, as Helm charts write
   *  empty lists); the node must end there. */
  private flowLine(l: Line, parentIndent: number): unknown {
    const [f, j] = flow(l.text, 0, l.no);
    if (!restIsEmpty(l.text, j)) throw new Unsupported(l.no, 'text after flow collection');
    this.next();
    const n = this.peek();
    if (n && n.indent > parentIndent) throw new Unsupported(n.no, 'more of a node after its flow collection');
    return f;
  }

  itemRecord?: { startLine: number; endLine: number }[];
  positions?: Positions;
  /** Read only the nodes on the way to this path (for its positions): every other entry's value is
   *  stepped over unread, and left out of the result. */
  target?: readonly (string | number)[];
  /** How many levels of target the node being read is below the document. */
  private depth = 0;

  /**
   * Steps over the lines of a node that belongs to an entry at `indent`: blank and comment lines, and
   * lines indented deeper (or, for a key whose value starts on the next line, list items at its own
   * indentation), as reading it would.
   */
  private skipNode(indent: number, sameIndentList: boolean): void {
    const lines = this.lines;
    const text = lines.text;
    let i = this.pos;
    for (; i < this.end; i++) {
      const from = lines.starts[i]!;
      const to = lines.end(i);
      let k = from;
      while (text.charCodeAt(k) === 32) k++;
      if (k >= to) continue;
      const c = text.charCodeAt(k);
      if (c === 35) continue;
      if ((c <= 32 || c === 0xa0 || c >= 0x1680) && text.slice(k, to).trim() === '') continue;
      const n = k - from;
      if (n > indent) continue;
      if (sameIndentList && n === indent && c === 45 && (k + 1 === to || text.charCodeAt(k + 1) === 32)) continue;
      break;
    }
    this.pos = i;
  }
  /** Lines of the entries being read, outermost first (Unsupported.open), and of the entry read
   *  before each at its level (0 for none). */
  readonly open: number[] = [];
  readonly previous: number[] = [];
  /** Read flow collections spread over lines (see fastParse). */
  multiLineFlow = false;

  /**
   * A flow collection that starts on the current (consumed) line: that line alone when the collection
   * closes there, else its lines up to the one that closes it, joined by '\n' and consumed. Only the
   * plain case is taken: lines indented past the parent (the closing bracket may stand at the parent's
   * column, as Istio's templates write `annotations: {` ... `}`), no comments, no scalar over two
   * lines; the full parser reads everything else.
   */
  private flowText(first: string, no: number, indent: number): string {
    let depth = 0;
    let text = first;
    let s = first;
    let at = this.index();
    for (;;) {
      for (let i = 0; i < s.length; i++) {
        const c = s[i];
        if (c === '"' || c === "'") {
          // quotes close on their line (flow() checks the rest)
          let k = i + 1;
          while (k < s.length && s[k] !== c) k += c === '"' && s[k] === '\\' ? 2 : 1;
          if (k >= s.length) throw new Unsupported(no, 'multi-line quoted scalar in flow');
          i = k;
        } else if (c === '[' || c === '{') depth++;
        else if (c === ']' || c === '}') depth--;
        else if (c === '#') {
          if (at === this.index()) return first;
          throw new Unsupported(no, 'comment in multi-line flow');
        }
        if (depth === 0) {
          if (at !== this.index()) this.seek(at);
          return text;
        }
      }
      const l = this.raw(at);
      if (!l || l.text.includes('#')) throw new Unsupported(no, 'multi-line flow collection');
      at++;
      // a blank line between two tokens separates them like any other break (inside a scalar, which
      // flow() declines, it would be a line feed)
      if (l.text === '') {
        text += '\n';
        s = '';
        continue;
      }
      const closing = l.text[0] === ']' || l.text[0] === '}';
      if (!(l.indent > indent || (closing && l.indent >= indent && indent >= 0))) throw new Unsupported(l.no, 'flow collection not indented past its parent');
      s = l.text.trimEnd();
      text += '\n' + s;
    }
  }
  private lastBlock?: [number, number];

  /** The first line with content after line `no` (for positions only). */
  private nextContent(no: number): Line | undefined {
    const save = this.index();
    this.seek(no);
    const n = this.peek();
    this.seek(save);
    return n;
  }

  /** A value that starts on the current (already consumed) line. */
  private scalarValue(s: string, no: number, indent: number): unknown {
    const c = s[0];
    let v: unknown;
    if (c === '|' || c === '>') return this.blockScalar(s, no, indent);
    if (c === '"' || c === "'") {
      const [q, j] = c === '"' ? doubleQuoted(s, 0, no) : singleQuoted(s, 0, no);
      if (!restIsEmpty(s, j)) throw new Unsupported(no, 'text after quoted scalar');
      v = q;
    } else if (c === '[' || c === '{') {
      const text = this.multiLineFlow ? this.flowText(s, no, indent) : s;
      const [f, j] = flow(text, 0, no);
      if (!restIsEmpty(text, j)) throw new Unsupported(no, 'text after flow collection');
      v = f;
    } else {
      if (c === '-' && (s[1] === ' ' || s.length === 1)) throw new Unsupported(no, 'sequence as a mapping value on one line');
      let text = plainText(s, no);
      // Go's emitter folds long plain scalars onto more-indented lines
      let j = this.index();
      let blanks = 0;
      let folded = false;
      if (!s.includes(' #')) {
        for (;;) {
          const l = this.raw(j);
          if (!l) break;
          if (l.text === '') {
            blanks++;
            j++;
            continue;
          }
          if (l.indent <= indent || l.text[0] === '#') break;
          text += blanks ? '\n'.repeat(blanks) : ' ';
          text += plainText(l.text, l.no, true);
          if (l.text.includes(' #')) throw new Unsupported(l.no, 'comment in folded scalar');
          blanks = 0;
          folded = true;
          j++;
        }
      }
      if (folded) {
        this.seek(j - blanks);
        return text;
      }
      v = resolvePlain(text, no);
    }
    // a continuation line would make this a multi-line scalar
    const n = this.peek();
    if (n && n.indent > indent && !(n.indent === indent + 0)) {
      throw new Unsupported(n.no, 'multi-line scalar');
    }
    return v;
  }

  /**
   * A literal block scalar read with two regular expressions instead of line by line: its extent (lines
   * indented at least as far as its first, and lines of spaces), then that indentation taken off. A
   * ConfigMap's data.config and its templates are such blocks, thousands of lines long; a loop over
   * their lines made V8 compile it optimised halfway through, which cost more than the loop. Exactly
   * what blockScalar's loop gives, or undefined for that loop to read the block: blank first lines,
   * carriage returns, whitespace other than spaces on a blank line, a block that ends the text
   * without a line break, or one stopped by a line the loop would read on.
   */
  private literalBlock(no: number, indent: number, chomp: string): string | undefined {
    const lines = this.lines;
    const text = lines.text;
    const first = this.index();
    if (first >= this.end) return undefined;
    const from = lines.starts[first]!;
    let m = 0;
    while (text.charCodeAt(from + m) === 32) m++;
    const c = text.charCodeAt(from + m);
    if (!(c > 32 && c < 127) || m <= indent || m === 0) return undefined;
    const [extent, dedent] = literalRegExps(m);
    const to = wholeLines(extent, text, from);
    if (to === from) return undefined;
    if (to < text.length) {
      // the line after must have text (not a blank line of tabs) and less indentation
      let k = 0;
      while (text.charCodeAt(to + k) === 32) k++;
      const d = text.charCodeAt(to + k);
      if (!(d > 32 && d < 127) || k >= m) return undefined;
    }
    const after = lineAt(lines.starts, to);
    if (after > this.end) return undefined;
    const slice = text.slice(from, to);
    if (slice.includes('\r') || ODD_BLANK.test(slice)) return undefined;
    const decoded = slice.replace(dedent, '$1');
    // the block's lines each end in a break; the last ones, when empty, are its trailing blank lines
    let breaks = 0;
    while (decoded.charCodeAt(decoded.length - 1 - breaks) === 10) breaks++;
    const trailing = breaks - 1;
    const body = decoded.slice(0, decoded.length - breaks);
    this.lastBlock = [no, m];
    this.seek(after - trailing > this.index() ? after - trailing : this.index());
    if (chomp === '-') return body;
    if (chomp === '+') return body + '\n' + '\n'.repeat(trailing);
    return body + '\n';
  }

  private blockScalar(header: string, no: number, indent: number): string {
    const m = /^([|>])([-+]?)(\s+#.*)?\s*$/.exec(header);
    if (!m) throw new Unsupported(no, 'block scalar header');
    const literal = m[1] === '|';
    const chomp = m[2]!;
    if (literal) {
      const fast = this.literalBlock(no, indent, chomp);
      if (fast !== undefined) return fast;
    }
    // content: following lines indented past the parent, and blank lines
    const content: string[] = [];
    let blockIndent = -1;
    let i = this.index();
    // each line as LineTable.get would make it (indentation in spaces, blank when only whitespace
    // follows, a final carriage return dropped), read from the text without making it
    const lines = this.lines;
    const text = lines.text;
    for (; i < this.end; i++) {
      const made = lines.made[i];
      const from = lines.starts[i]!;
      const to = made ? 0 : lines.end(i);
      let k = 0;
      let blank: boolean;
      if (made) {
        k = made.indent;
        blank = made.text === '';
      } else {
        while (from + k < to && text.charCodeAt(from + k) === 32) k++;
        const c = text.charCodeAt(from + k);
        blank = from + k >= to || (!(c > 32 && c < 127) && text.slice(from + k, to).trimEnd() === '');
      }
      if (blank) {
        // a blank line (its indentation is kept only when deeper than the block)
        content.push(blockIndent >= 0 && k > blockIndent ? ' '.repeat(k - blockIndent) : '');
        if (blockIndent < 0 && k > indent) {
          // leading blank lines with spaces: ambiguous indentation rules, leave to the full parser
          if (k > 0) throw new Unsupported(i + 1, 'indented blank line in block scalar');
        }
        continue;
      }
      if (blockIndent < 0) {
        if (k <= indent) break;
        blockIndent = k;
      }
      if (k < blockIndent) break;
      content.push(made ? ' '.repeat(k - blockIndent) + made.text : text.slice(from + blockIndent, to));
    }
    // blank lines at the end belong to the block only as trailing newlines
    let trailing = 0;
    while (content.length && content[content.length - 1] === '') {
      content.pop();
      trailing++;
    }
    this.lastBlock = [no, blockIndent < 0 ? indent + 1 : blockIndent];
    // trailing blank lines are left for the caller to skip
    this.seek(i - trailing > this.index() ? i - trailing : this.index());
    // the empty line after the text's final break is no line: `k: |+` then `  x` and a break is "x\n"
    if (trailing > 0 && i >= this.lines.length && !this.unterminated) trailing--;
    if (content.length === 0) {
      return chomp === '+' ? '\n'.repeat(trailing) : '';
    }
    let body: string;
    if (literal) body = content.join('\n');
    else {
      // folding: a break between two plain lines becomes a space, blank lines become breaks,
      // and lines with extra indentation keep their breaks
      body = content[0]!;
      let prev = content[0]!;
      let blanks = 0;
      for (let k = 1; k < content.length; k++) {
        const line = content[k]!;
        if (line === '') {
          blanks++;
          continue;
        }
        const plain = !prev.startsWith(' ') && !line.startsWith(' ') && !prev.startsWith('\t') && !line.startsWith('\t');
        body += plain ? (blanks ? '\n'.repeat(blanks) : ' ') : '\n'.repeat(blanks + 1);
        body += line;
        prev = line;
        blanks = 0;
      }
    }
    if (chomp === '-') return body;
    if (this.unterminated && i >= this.lines.length) {
      // yaml.v2 adds no break the text does not have: `a: |` then `  x` at the very end is "x"
      if (trailing === 0) return body;
      if (chomp === '+') throw new Unsupported(no, 'kept block scalar at the end of unterminated text');
    }
    if (chomp === '+') return body + '\n' + '\n'.repeat(trailing);
    return body + '\n';
  }
}

function isSeqItem(t: string): boolean {
  return t[0] === '-' && (t.length === 1 || t[1] === ' ');
}

/** Index of the `:` that ends a plain key (followed by space or end of line), or -1. */
function findColon(t: string, no: number): number {
  if (t[0] === '"' || t[0] === "'") return t.length; // handled by the caller
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === ':' && (i + 1 === t.length || t[i + 1] === ' ')) return i;
    if (c === '#' && i > 0 && t[i - 1] === ' ') return -1;
    if (c === '\t') throw new Unsupported(no, 'tab');
  }
  return -1;
}

/**
 * Split text into documents and read each; throws Unsupported for what it does not handle. With
 * multiLineFlow, flow collections spread over lines are read too (template output, and input files'
 * values); positions are read without it, so that those inside such a collection are the full
 * parser's.
 */
export function fastParse(text: string, positions?: Positions, opts: { multiLineFlow?: boolean; target?: readonly (string | number)[] } = {}): FastDoc[] {
  if (text.includes('\t') && /^\t|\n\t/.test(text)) throw new Unsupported(1, 'tab indentation');
  const lines = new LineTable(text);
  if (lines.get(0).text.charCodeAt(0) === 0xfeff) throw new Unsupported(1, 'byte order mark');
  const docs: FastDoc[] = [];
  let start = 0;
  let marker = 0;
  const flush = (endExclusive: number): void => {
    const r = new Reader(lines, endExclusive, !text.endsWith('\n'));
    r.seek(start);
    const first = r.peek();
    if (!first) {
      // an empty document still counts when a `---` opened it
      if (marker > 0) docs.push({ value: null, startLine: marker, markerLine: marker, endLine: endExclusive + 1 });
      return;
    }
    if (first.text.startsWith('%')) throw new Unsupported(first.no, 'directive');
    const items: { startLine: number; endLine: number }[] = [];
    r.itemRecord = items;
    r.positions = positions;
    r.multiLineFlow = opts.multiLineFlow === true;
    if (opts.target) r.target = opts.target;
    let value: unknown;
    if (first.indent !== 0 && !isSeqItem(first.text)) throw new Unsupported(first.no, 'indented document');
    const single = first.text[0] === '"' || first.text[0] === "'" || first.text[0] === '[' || first.text[0] === '{' || (!isSeqItem(first.text) && findColon(first.text, first.no) < 0);
    try {
      if (single) {
        r.next();
        value = (r as unknown as { scalarValue(s: string, no: number, indent: number): unknown }).scalarValue(first.text, first.no, -1);
      } else value = r.block(first.indent);
    } catch (e) {
      if (e instanceof Unsupported) {
        e.open = r.open.slice();
        e.previous = r.previous[r.previous.length - 1] ?? 0;
      }
      throw e;
    }
    const left = r.peek();
    if (left) throw new Unsupported(left.no, 'unexpected content');
    docs.push({ value, startLine: first.no, markerLine: marker || first.no, endLine: endExclusive + 1, items: items.length ? items.map((it) => ({ startLine: it.startLine, endLine: Math.min(it.endLine, endExclusive + 1) })) : undefined });
  };
  for (let i = 0; i < lines.length; i++) {
    // only a line starting `---` or `...` can be a marker
    const c = text.charCodeAt(lines.starts[i]!);
    if (c !== 45 && c !== 46) continue;
    const l = lines.get(i);
    if (l.indent === 0 && (l.text.startsWith('---') || l.text.startsWith('...')) && (l.text.length === 3 || l.text[3] === ' ')) {
      if (l.text.slice(3).trim() !== '' && !l.text.slice(3).trim().startsWith('#')) throw new Unsupported(l.no, 'content after document marker');
      flush(i);
      start = i + 1;
      marker = l.text.startsWith('---') ? l.no : 0;
    }
  }
  flush(lines.length);
  return docs;
}

/** For a JSON List (`kubectl get -o json`): offsets [start, end) of each top-level `items` element. */
/**
 * At least as many as the keys JSON text writes (a key's closing quote, then a colon; a string value
 * that starts with a colon counts too): when this exceeds the keys the parsed value holds, a key may be
 * written twice, and the YAML reader decides, as yaml.v2's UnmarshalStrict does.
 */
export function jsonKeyBound(text: string): number {
  // a space before a colon (not what kubectl or JSON.stringify write): count every string instead
  if (/"[ \t\r\n]+:/.test(text)) return Infinity;
  let n = 0;
  for (let i = text.indexOf('":'); i >= 0; i = text.indexOf('":', i + 2)) {
    let b = i - 1;
    while (text.charCodeAt(b) === 92) b--;
    if ((i - 1 - b) % 2 === 0) n++;
  }
  return n;
}

/** The first key that well-formed JSON text writes twice in one object: the key, and the offsets of
 *  both string tokens. */
export function firstDuplicateJsonKey(text: string): { key: string; offset: number; firstOffset: number } | undefined {
  const objects: (Map<string, number> | null)[] = []; // null for an array
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 ? 2 : 1;
      const keys = objects[objects.length - 1];
      if (keys && keyNext) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        const first = keys.get(key);
        if (first !== undefined) return { key, offset: i, firstOffset: first };
        keys.set(key, i);
        keyNext = false;
      }
      i = j;
    } else if (c === 123) {
      objects.push(new Map());
      keyNext = true;
    } else if (c === 91) objects.push(null);
    else if (c === 125 || c === 93) objects.pop();
    else if (c === 44) keyNext = objects[objects.length - 1] != null;
  }
  return undefined;
}

/** The keys of every map in a decoded JSON value. */
export function keyCount(v: unknown): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object') continue;
    if (Array.isArray(x)) {
      for (const e of x) if (e !== null && typeof e === 'object') stack.push(e);
      continue;
    }
    for (const k in x) {
      n++;
      const e = (x as Record<string, unknown>)[k];
      if (e !== null && typeof e === 'object') stack.push(e);
    }
  }
  return n;
}

export function jsonItemRanges(text: string): { start: number; end: number }[] | undefined {
  let depth = 0;
  let key: string | undefined;
  let inItems = false;
  let itemStart = -1;
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // a string: remember it as the last key at depth 1
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 ? 2 : 1;
      if (depth === 1) key = text.slice(i + 1, j);
      if (inItems && depth === 2 && itemStart < 0) itemStart = i;
      i = j;
      continue;
    }
    if (c === 123 || c === 91) {
      if (depth === 1 && c === 91 && key === 'items') inItems = true;
      else if (inItems && depth === 2 && itemStart < 0) itemStart = i;
      depth++;
      continue;
    }
    if (c === 125 || c === 93) {
      depth--;
      if (inItems && depth === 2 && itemStart >= 0) {
        out.push({ start: itemStart, end: i + 1 });
        itemStart = -1;
      }
      if (inItems && depth === 1) inItems = false;
      continue;
    }
    if (inItems && depth === 2 && itemStart < 0 && c > 32 && c !== 44) itemStart = i;
    if (inItems && depth === 2 && itemStart >= 0 && c === 44) {
      out.push({ start: itemStart, end: i });
      itemStart = -1;
    }
  }
  return out.length ? out : undefined;
}
