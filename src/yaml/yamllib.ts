// The `yaml` package, loaded on first use. Inputs that the fast loader (fastload.ts) reads, and
// template output, never need it; loading its CommonJS build costs the CLI about 17 ms at start-up.

import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

type YamlModule = typeof Yaml;
let loaded: YamlModule | undefined;

/** The `yaml` module (its CommonJS build, required synchronously the first time). */
export function yamlLib(): YamlModule {
  loaded ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return loaded;
}

export const isAlias = (n: unknown): n is Yaml.Alias => yamlLib().isAlias(n);
export const isYamlMap = (n: unknown): n is Yaml.YAMLMap => yamlLib().isMap(n);
export const isScalar = (n: unknown): n is Yaml.Scalar => yamlLib().isScalar(n);
export const isSeq = (n: unknown): n is Yaml.YAMLSeq => yamlLib().isSeq(n);

/**
 * Deepest nesting the `yaml` package is given. Its composer recurses once per level, and a regular
 * expression V8 first compiles with the stack nearly spent aborts the process ("RegExpCompiler
 * Allocation failed") instead of throwing; so depth is measured on the lexer's tokens, which it
 * makes without recursion, before anything recursive runs, with room to spare on a default stack
 * (the composer exhausts it near 800 levels). yaml.v2 allows 10000; real documents nest a few dozen.
 */
export const YAML_MAX_DEPTH = 500;

/** A document nested deeper than the limit; `offset` is where the first collection too deep starts. */
export class YamlTooDeep extends Error {
  constructor(
    readonly offset: number,
    readonly limit: number,
  ) {
    super(`document nests deeper than ${limit} levels`);
    this.name = 'YamlTooDeep';
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
 * It may count a level more than the document has, never fewer.
 */
export function checkYamlDepth(source: string, max = YAML_MAX_DEPTH): void {
  if (depthBound(source) <= max) return;
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
        if (cols.length + ++flow > max) throw new YamlTooDeep(pos, max);
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
 * A bound on the nesting depth read in one pass over the characters (the lexer costs as much as a
 * quarter of the parse): a level needs an opening bracket, or more indentation than its parent (a
 * list in a map may share its indentation, hence twice), or an indicator on the same line.
 */
/**
 * A bound on the depth of what the fast reader (fastload.ts, without multiLineFlow) can read from s: it
 * takes flow collections on one line only, so brackets count per line, not over the whole text (a
 * dump with `{}` in every item). Its block recursion is bounded as in depthBound.
 */
export function fastReaderDepthBound(s: string): number {
  let maxBrackets = 0;
  let maxIndent = 0;
  let maxMarks = 0;
  let brackets = 0;
  let indent = 0;
  let marks = 0;
  let lineStart = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      indent = marks = brackets = 0;
      continue;
    }
    if (lineStart) {
      if (c === 32 || c === 9) {
        if (++indent > maxIndent) maxIndent = indent;
        continue;
      }
      lineStart = false;
    }
    if (c === 91 || c === 123) {
      if (++brackets > maxBrackets) maxBrackets = brackets;
    } else if ((c === 45 || c === 63 || c === 58) && ++marks > maxMarks) maxMarks = marks;
  }
  return maxBrackets + 2 * (maxIndent + 1) + maxMarks;
}

function depthBound(s: string): number {
  let brackets = 0;
  let maxIndent = 0;
  let maxMarks = 0;
  let indent = 0;
  let marks = 0;
  let lineStart = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      indent = marks = 0;
      continue;
    }
    if (lineStart) {
      if (c === 32 || c === 9) {
        if (++indent > maxIndent) maxIndent = indent;
        continue;
      }
      lineStart = false;
    }
    if (c === 91 || c === 123) brackets++;
    else if ((c === 45 || c === 63 || c === 58) && ++marks > maxMarks) maxMarks = marks;
  }
  return brackets + 2 * (maxIndent + 1) + maxMarks;
}

/** yaml's parseAllDocuments (without pretty errors), refusing nesting deeper than maxDepth with YamlTooDeep. */
export function parseAllDocumentsBounded(source: string, options: Yaml.ParseOptions & Yaml.DocumentOptions & Yaml.SchemaOptions, maxDepth = YAML_MAX_DEPTH): Yaml.Document.Parsed[] {
  checkYamlDepth(source, maxDepth);
  const all = yamlLib().parseAllDocuments(source, options);
  return (Array.isArray(all) ? all : []) as Yaml.Document.Parsed[];
}
