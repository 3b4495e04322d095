// The parse tree, one class per construct as in Go's text/template/parse/node.go. Every node prints
// itself back as template source exactly like Go's String() (error contexts `at <...>` rely on it).
//
// Mirrors: go1.19 src/text/template/parse/node.go
// Proven by: test/template/api.test.ts, test/template/roundtrip.test.ts, test/vectors/template/exec-errors.jsonl

import { goQuote } from '../../../strconv/quote.js';

/** What a node needs from its tree for error locations. */
export interface TreeInfo {
  name: string;
  parseName: string;
  text: string;
}

export const enum NodeType {
  Text,
  Action,
  Bool,
  Chain,
  Command,
  Dot,
  Else,
  End,
  Field,
  Identifier,
  If,
  List,
  Nil,
  Number,
  Pipe,
  Range,
  String,
  Template,
  Variable,
  With,
  Comment,
  Break,
  Continue,
}

export abstract class Node {
  abstract readonly type: NodeType;
  constructor(
    readonly tree: TreeInfo,
    /** UTF-16 index of the node in tree.text. */
    readonly pos: number,
  ) {}
  abstract writeTo(sb: string[]): void;
  toString(): string {
    const sb: string[] = [];
    this.writeTo(sb);
    return sb.join('');
  }
  String(): string {
    return this.toString();
  }
}

export class ListNode extends Node {
  readonly type = NodeType.List;
  readonly nodes: Node[] = [];
  append(n: Node): void {
    this.nodes.push(n);
  }
  writeTo(sb: string[]): void {
    for (const n of this.nodes) n.writeTo(sb);
  }
}

export class TextNode extends Node {
  readonly type = NodeType.Text;
  constructor(tree: TreeInfo, pos: number, readonly text: string) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push(this.text);
  }
}

export class CommentNode extends Node {
  readonly type = NodeType.Comment;
  constructor(tree: TreeInfo, pos: number, readonly text: string) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push('{{', this.text, '}}');
  }
}

export class PipeNode extends Node {
  readonly type = NodeType.Pipe;
  isAssign = false;
  readonly decl: VariableNode[] = [];
  readonly cmds: CommandNode[] = [];
  constructor(tree: TreeInfo, pos: number, readonly line: number) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    if (this.decl.length > 0) {
      this.decl.forEach((v, i) => {
        if (i > 0) sb.push(', ');
        v.writeTo(sb);
      });
      sb.push(' := ');
    }
    this.cmds.forEach((c, i) => {
      if (i > 0) sb.push(' | ');
      c.writeTo(sb);
    });
  }
}

export class ActionNode extends Node {
  readonly type = NodeType.Action;
  constructor(tree: TreeInfo, pos: number, readonly line: number, readonly pipe: PipeNode) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push('{{');
    this.pipe.writeTo(sb);
    sb.push('}}');
  }
}

export class CommandNode extends Node {
  readonly type = NodeType.Command;
  readonly args: Node[] = [];
  writeTo(sb: string[]): void {
    this.args.forEach((a, i) => {
      if (i > 0) sb.push(' ');
      if (a instanceof PipeNode) {
        sb.push('(');
        a.writeTo(sb);
        sb.push(')');
      } else a.writeTo(sb);
    });
  }
}

export class IdentifierNode extends Node {
  readonly type = NodeType.Identifier;
  constructor(tree: TreeInfo, pos: number, readonly ident: string) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push(this.ident);
  }
}

/** $x or $x.a.b: ident[0] is the variable name (with its $), the rest are fields. */
export class VariableNode extends Node {
  readonly type = NodeType.Variable;
  readonly ident: string[];
  constructor(tree: TreeInfo, pos: number, ident: string) {
    super(tree, pos);
    this.ident = ident.split('.');
  }
  writeTo(sb: string[]): void {
    sb.push(this.ident.join('.'));
  }
}

export class DotNode extends Node {
  readonly type = NodeType.Dot;
  writeTo(sb: string[]): void {
    sb.push('.');
  }
}

export class NilNode extends Node {
  readonly type = NodeType.Nil;
  writeTo(sb: string[]): void {
    sb.push('nil');
  }
}

/** .a.b.c: ident holds the names without their dots. */
export class FieldNode extends Node {
  readonly type = NodeType.Field;
  readonly ident: string[];
  constructor(tree: TreeInfo, pos: number, ident: string) {
    super(tree, pos);
    this.ident = ident.slice(1).split('.');
  }
  writeTo(sb: string[]): void {
    for (const id of this.ident) sb.push('.', id);
  }
}

/** A term followed by fields: (pipeline).a.b or fn.a. */
export class ChainNode extends Node {
  readonly type = NodeType.Chain;
  readonly field: string[] = [];
  constructor(tree: TreeInfo, pos: number, readonly node: Node) {
    super(tree, pos);
  }
  add(field: string): void {
    this.field.push(field.slice(1));
  }
  writeTo(sb: string[]): void {
    if (this.node instanceof PipeNode) {
      sb.push('(');
      this.node.writeTo(sb);
      sb.push(')');
    } else this.node.writeTo(sb);
    for (const f of this.field) sb.push('.', f);
  }
}

export class BoolNode extends Node {
  readonly type = NodeType.Bool;
  constructor(tree: TreeInfo, pos: number, readonly value: boolean) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push(this.value ? 'true' : 'false');
  }
}

/** A numeric constant held under every representation that fits, like Go's ideal constants. */
export class NumberNode extends Node {
  readonly type = NodeType.Number;
  isInt = false;
  isUint = false;
  isFloat = false;
  isComplex = false;
  int64 = 0n;
  uint64 = 0n;
  float64 = 0;
  complex: [number, number] = [0, 0];
  constructor(tree: TreeInfo, pos: number, readonly text: string) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push(this.text);
  }
}

export class StringNode extends Node {
  readonly type = NodeType.String;
  constructor(tree: TreeInfo, pos: number, readonly quoted: string, readonly text: string) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push(this.quoted);
  }
}

/** {{end}}: never in a finished tree. */
export class EndNode extends Node {
  readonly type = NodeType.End;
  writeTo(sb: string[]): void {
    sb.push('{{end}}');
  }
}

/** {{else}}: never in a finished tree. */
export class ElseNode extends Node {
  readonly type = NodeType.Else;
  constructor(tree: TreeInfo, pos: number, readonly line: number) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push('{{else}}');
  }
}

export abstract class BranchNode extends Node {
  abstract readonly keyword: string;
  constructor(
    tree: TreeInfo,
    pos: number,
    readonly line: number,
    readonly pipe: PipeNode,
    readonly list: ListNode,
    readonly elseList: ListNode | null,
  ) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push('{{', this.keyword, ' ');
    this.pipe.writeTo(sb);
    sb.push('}}');
    this.list.writeTo(sb);
    if (this.elseList) {
      sb.push('{{else}}');
      this.elseList.writeTo(sb);
    }
    sb.push('{{end}}');
  }
}

export class IfNode extends BranchNode {
  readonly type = NodeType.If;
  readonly keyword = 'if';
}

export class RangeNode extends BranchNode {
  readonly type = NodeType.Range;
  readonly keyword = 'range';
}

export class WithNode extends BranchNode {
  readonly type = NodeType.With;
  readonly keyword = 'with';
}

export class BreakNode extends Node {
  readonly type = NodeType.Break;
  constructor(tree: TreeInfo, pos: number, readonly line: number) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push('{{break}}');
  }
}

export class ContinueNode extends Node {
  readonly type = NodeType.Continue;
  constructor(tree: TreeInfo, pos: number, readonly line: number) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push('{{continue}}');
  }
}

export class TemplateNode extends Node {
  readonly type = NodeType.Template;
  constructor(
    tree: TreeInfo,
    pos: number,
    readonly line: number,
    readonly name: string,
    readonly pipe: PipeNode | null,
  ) {
    super(tree, pos);
  }
  writeTo(sb: string[]): void {
    sb.push('{{template ', goQuote(this.name));
    if (this.pipe) {
      sb.push(' ');
      this.pipe.writeTo(sb);
    }
    sb.push('}}');
  }
}

/** Go's ErrorContext: "parseName:line:col" (col in bytes, as Go counts) and the node's source text. */
export function errorContext(n: Node): { location: string; line: number; col: number; context: string } {
  const text = n.tree.text.slice(0, n.pos);
  const nl = text.lastIndexOf('\n');
  const col = nl === -1 ? Buffer.byteLength(text, 'utf8') : Buffer.byteLength(text.slice(nl + 1), 'utf8');
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) line++;
  return { location: `${n.tree.parseName}:${line}:${col}`, line, col, context: n.toString() };
}

/** Go's parse.IsEmptyTree. */
export function isEmptyTree(n: Node | null): boolean {
  if (n === null) return true;
  if (n instanceof ListNode) return n.nodes.every(isEmptyTree);
  if (n instanceof CommentNode) return true;
  if (n instanceof TextNode) return isGoSpaceOnly(n.text);
  return false;
}

/** bytes.TrimSpace uses unicode.IsSpace. */
function isGoSpaceOnly(s: string): boolean {
  return /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/.test(s);
}
