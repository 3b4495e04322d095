// The `yaml` package, loaded on first use. Inputs that the fast loader (fastload.ts) reads, and
// template output, never need it; loading its CommonJS build costs the CLI about 17 ms at start-up.
//
// Upstream: none (loads the yaml package on first use)

import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { noteStackExhausted, onBigStack } from '../guard/stack.js';

type YamlModule = typeof Yaml;
let loaded: YamlModule | undefined;

/** The `yaml` module (its CommonJS build, required synchronously the first time). */
export function yamlLib(): YamlModule {
  loaded ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return loaded;
}

/** Whether yamlLib() has been called (a run the fast loader reads whole never does). */
export function yamlLibLoaded(): boolean {
  return loaded !== undefined;
}

export const isAlias = (n: unknown): n is Yaml.Alias => yamlLib().isAlias(n);
export const isYamlMap = (n: unknown): n is Yaml.YAMLMap => yamlLib().isMap(n);
export const isScalar = (n: unknown): n is Yaml.Scalar => yamlLib().isScalar(n);
export const isSeq = (n: unknown): n is Yaml.YAMLSeq => yamlLib().isSeq(n);

/**
 * Deepest nesting the `yaml` package is given. Its composer recurses once per level, and a regular
 * expression V8 first compiles with the stack nearly spent aborts the process ("RegExpCompiler
 * Allocation failed") instead of throwing; so depth is measured on the lexer's tokens, which it
 * makes without recursion, before anything recursive runs. On a default stack the limit leaves room
 * to spare (the composer exhausts it near 800 levels); deeper documents are read on the big-stack
 * thread (guard/stack.ts) up to yaml.v2's own limit. Real documents nest a few dozen levels.
 */
export function yamlMaxDepth(): number {
  return onBigStack() ? GO_YAML_MAX_DEPTH : SMALL_STACK_YAML_DEPTH;
}

/** yaml.v2's limit ("exceeded max depth of 10000"). */
export const GO_YAML_MAX_DEPTH = 10_000;
const SMALL_STACK_YAML_DEPTH = 500;

/** A document nested deeper than the limit; `offset` is where the first collection too deep starts. */
export class YamlTooDeep extends Error {
  constructor(
    readonly offset: number,
    readonly limit: number,
    /** The level too many is a flow collection (yaml.v2 names no line for those). */
    readonly flow = false,
  ) {
    super(`document nests deeper than ${limit} levels`);
    this.name = 'YamlTooDeep';
    // a limit below Go's is this thread's stack, not Go's rule: the command is worth a run on a big stack
    if (limit < GO_YAML_MAX_DEPTH) noteStackExhausted();
  }

  /** yaml.v2's error text for the same document (at its own limit). */
  goMessage(source: string): string {
    return this.flow ? `yaml: exceeded max depth of ${this.limit}` : `yaml: line ${this.position(source).line}: exceeded max depth of ${this.limit}`;
  }

  /** 1-based line and column (in UTF-16 units, as the yaml package counts) of the offset in source. */
  position(source: string): { line: number; col: number } {
    let line = 1;
    let start = 0;
    for (let i = source.indexOf('\n'); i >= 0 && i < this.offset; i = source.indexOf('\n', i + 1)) line++, (start = i + 1);
    return { line, col: this.offset - start + 1 };
  }
}

/**
 * Throws YamlTooDeep when source nests deeper than max. Read from the lexer's tokens, which it makes
 * without recursion (its parser recurses to close nested block collections, its composer to build
 * them): block collections by their indentation and `-`/`?` indicators, flow collections by brackets.
 * It may count a level more than the document has, never fewer. A text whose depthBound is within
 * max is not lexed.
 */
export function checkYamlDepth(source: string, max = yamlMaxDepth()): void {
  if (depthBound(source) <= max) return;
  checkYamlDepthLexed(source, max);
}

/** checkYamlDepth by the lexer alone, whatever the bound says. */
export function checkYamlDepthLexed(source: string, max = yamlMaxDepth()): void {
  const lib = yamlLib();
  const cols: number[] = []; // open block collections: column and kind (1 map, 2 sequence)
  const kinds: number[] = [];
  let flow = 0;
  let pos = 0; // offset in source of the token being read
  let lineStart = 0;
  let nodeCol = -1; // column where the current node (a map key, perhaps) began on this line
  const block = (col: number, kind: number) => {
    while (cols.length > 0 && cols[cols.length - 1]! > col) cols.pop(), kinds.pop();
    if (cols.length > 0 && cols[cols.length - 1] === col) {
      const top = kinds[kinds.length - 1];
      if (top === kind) return;
      if (top === 2 && kind === 1) {
        cols.pop(), kinds.pop();
        if (cols.length > 0 && cols[cols.length - 1] === col && kinds[kinds.length - 1] === 1) return;
      }
    }
    cols.push(col), kinds.push(kind);
    if (cols.length + flow > max) throw new YamlTooDeep(pos, max);
  };
  for (const lexeme of new lib.Lexer().lex(source)) {
    const type = lib.CST.tokenType(lexeme);
    switch (type) {
      case 'doc-mode':
      case 'scalar':
      case 'flow-error-end':
        continue; // markers, not source text
      case 'doc-start':
      case 'doc-end':
        cols.length = kinds.length = flow = 0;
        break;
      case 'flow-map-start':
      case 'flow-seq-start':
        if (flow === 0 && nodeCol < 0) nodeCol = pos - lineStart;
        if (cols.length + ++flow > max) throw new YamlTooDeep(pos, max, true);
        break;
      case 'flow-map-end':
      case 'flow-seq-end':
        if (flow > 0) flow--;
        break;
      case 'seq-item-ind':
        if (flow === 0) block(pos - lineStart, 2), (nodeCol = -1);
        break;
      case 'explicit-key-ind':
        if (flow === 0) block(pos - lineStart, 1), (nodeCol = -1);
        break;
      case 'map-value-ind':
        if (flow === 0) block(nodeCol >= 0 ? nodeCol : pos - lineStart, 1), (nodeCol = -1);
        break;
      case 'space':
      case 'newline':
      case 'comment':
      case 'byte-order-mark':
        break;
      default:
        if (flow === 0 && nodeCol < 0) nodeCol = pos - lineStart;
    }
    pos += lexeme.length;
    const nl = lexeme.lastIndexOf('\n');
    if (nl >= 0) {
      lineStart = pos - lexeme.length + nl + 1;
      if (type === 'newline') nodeCol = -1;
    }
  }
}

/**
 * A bound on the depth of what the fast reader (fastload.ts, without multiLineFlow) can read from s: it
 * takes flow collections on one line only, so brackets count per line, not over the whole text (a
 * dump with `{}` in every item).
 */
export function fastReaderDepthBound(s: string): number {
  return depthBound(s, true);
}

/**
 * A bound on the nesting depth read in one pass over the characters (the lexer costs as much as a
 * quarter of the parse): a level needs an opening bracket, or more indentation than its parent (a
 * list in a map may share its indentation, hence twice), or an indicator on the same line. The lines
 * of a block scalar are text, not structure, and are stepped over: a ConfigMap's templates are full
 * of `{{`, and counting those sent every real ConfigMap through the lexer (and loaded the `yaml`
 * package for it) to find a depth of six.
 */
export function depthBound(s: string, bracketsPerLine = false): number {
  let brackets = 0;
  let lineBrackets = 0; // the most opened on one line
  let maxIndent = 0;
  let maxMarks = 0;
  let open = 0; // brackets not closed yet: a `|` inside a flow collection starts no block scalar
  for (let i = 0; i < s.length; ) {
    let end = s.indexOf('\n', i);
    if (end < 0) end = s.length;
    let j = i;
    while (j < end && (s.charCodeAt(j) === 32 || s.charCodeAt(j) === 9)) j++;
    if (j - i > maxIndent) maxIndent = j - i;
    let marks = 0;
    let opened = 0;
    let plain = true; // no quote, bracket or `#` on the line that could hide a `|` from the reader
    for (let k = j; k < end; k++) {
      const c = s.charCodeAt(k);
      if (c === 91 || c === 123) brackets++, opened++, open++, (plain = false);
      else if (c === 93 || c === 125) (open = open > 0 ? open - 1 : 0), (plain = false);
      else if (c === 45 || c === 63 || c === 58) {
        if (++marks > maxMarks) maxMarks = marks;
      } else if (c === 34 || c === 39 || c === 35) plain = false;
    }
    if (opened > lineBrackets) lineBrackets = opened;
    const parent = plain && open === 0 ? blockScalarParent(s, i, end) : -1;
    i = end + 1;
    if (parent < 0 || i >= s.length) continue;
    // The content is indented past the parent, by as much as its first line is: step over the lines
    // indented at least that much (in spaces; a tab ends the count) and blank ones. A regular
    // expression does the stepping: a loop over a template's thousand lines would have V8 compile
    // this function optimised, which costs more than the loop.
    const after = wholeLines(BLANK_LINES, s, i);
    let content = after;
    while (s.charCodeAt(content) === 32) content++;
    content -= after;
    if (content <= parent) continue;
    i = wholeLines(contentLines(content), s, i);
  }
  return (bracketsPerLine ? lineBrackets : brackets) + 2 * (maxIndent + 1) + maxMarks;
}

/** Blank lines (spaces, tabs, carriage returns), at most 4,096 a match (wholeLines). */
const BLANK_LINES = /(?:[ \t\r]*\n){0,4096}/y;

/**
 * The offset after the lines a sticky expression of whole lines, each matched once, matches from
 * `from` on. It matches a bounded number at a time: V8 keeps a backtracking entry per repetition, and
 * a million-line block scalar (a 50 MB data.values) overflowed its stack.
 */
export function wholeLines(re: RegExp, s: string, from: number): number {
  let at = from;
  for (;;) {
    re.lastIndex = at;
    re.exec(s);
    if (re.lastIndex <= at) return at;
    at = re.lastIndex;
  }
}

const contentCache = new Map<number, RegExp>();

/** Whole lines indented by n spaces or more, or blank (spaces, tabs, carriage returns). */
function contentLines(n: number): RegExp {
  let r = contentCache.get(n);
  if (!r) {
    if (contentCache.size >= 64) contentCache.clear();
    r = new RegExp(`(?: {${n}}[^\\n]*\\n|[ \\t\\r]*\\n){0,4096}`, 'y');
    contentCache.set(n, r);
  }
  return r;
}

/**
 * For a line [start, end) that ends in a block scalar header (`key: |`, `key: >-`, `- |+`), the column
 * its content must be indented past: the key's, or the last `-`'s. -1 for any other line, and for
 * headers with an explicit indentation digit or a comment (the bound then counts their lines).
 */
function blockScalarParent(s: string, start: number, end: number): number {
  let e = end;
  while (e > start && (s.charCodeAt(e - 1) === 32 || s.charCodeAt(e - 1) === 13)) e--;
  if (e > start && (s.charCodeAt(e - 1) === 45 || s.charCodeAt(e - 1) === 43)) e--; // chomping
  const ind = e - 1;
  if (ind <= start || (s.charCodeAt(ind) !== 124 && s.charCodeAt(ind) !== 62) || s.charCodeAt(ind - 1) !== 32) return -1;
  let p = start;
  while (s.charCodeAt(p) === 32) p++;
  let dash = -1;
  while (s.charCodeAt(p) === 45 && s.charCodeAt(p + 1) === 32) {
    dash = p;
    p++;
    while (s.charCodeAt(p) === 32) p++;
  }
  if (p === ind) return dash < 0 ? -1 : dash - start;
  let k = ind;
  while (s.charCodeAt(k - 1) === 32) k--;
  // `key:` then the spaces: the key is [p, k - 1), and must start the node (no tab before it)
  if (s.charCodeAt(k - 1) !== 58 || k - 1 <= p || s.charCodeAt(p) === 9) return -1;
  return p - start;
}

/** yaml's parseAllDocuments (without pretty errors), refusing nesting deeper than maxDepth with YamlTooDeep. */
export function parseAllDocumentsBounded(source: string, options: Yaml.ParseOptions & Yaml.DocumentOptions & Yaml.SchemaOptions, maxDepth = yamlMaxDepth()): Yaml.Document.Parsed[] {
  checkYamlDepth(source, maxDepth);
  const all = yamlLib().parseAllDocuments(source, options);
  return (Array.isArray(all) ? all : []) as Yaml.Document.Parsed[];
}
