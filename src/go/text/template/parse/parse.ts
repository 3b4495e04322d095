// Recursive-descent parser mirroring Go's text/template/parse/parse.go: one method per production,
// a three-token lookahead, the same checks and the same error texts.
//
// Mirrors: go1.19 src/text/template/parse/parse.go
// Proven by: test/vectors/template/parse-errors.jsonl, test/vectors/template/

import { parseGoInt, parseGoUint, underscoreOK } from '../../../strconv/strconv.js';
import { ParseError } from '../errors.js';
import { Item, ItemType, Lexer, itemString, lexer } from './lex.js';
import {
  ActionNode,
  BoolNode,
  BreakNode,
  ChainNode,
  CommandNode,
  CommentNode,
  ContinueNode,
  DotNode,
  ElseNode,
  EndNode,
  FieldNode,
  IdentifierNode,
  IfNode,
  ListNode,
  NilNode,
  Node,
  NodeType,
  NumberNode,
  PipeNode,
  RangeNode,
  StringNode,
  TemplateNode,
  TextNode,
  TreeInfo,
  VariableNode,
  WithNode,
  isEmptyTree,
} from './node.js';
import { goQuote, goUnquote, unquoteChar } from '../../../strconv/quote.js';

export const enum Mode {
  ParseComments = 1,
  SkipFuncCheck = 2,
}

/** Parser-internal panic; turned into a ParseError at the top. */
class ParseAbort {
  constructor(
    readonly message: string,
    readonly name: string,
    readonly line: number,
    /** 0-based offset of the failing token in its line, as Go's ErrorContext counts an ExecError's. */
    readonly col: number,
  ) {}
}

const ZERO_ITEM: Item = { typ: ItemType.Error, pos: 0, val: '', line: 0 };

class ItemStream {
  constructor(readonly lexer: Lexer) {}
  nextItem(): Item {
    return this.lexer.nextItem() ?? ZERO_ITEM;
  }
}

export type HasFunction = (name: string) => boolean;

export class Tree implements TreeInfo {
  parseName: string;
  root: ListNode | null = null;
  text = '';
  mode = 0;

  private funcs: HasFunction = () => false;
  private lex: ItemStream | null = null;
  private token: Item[] = [ZERO_ITEM, ZERO_ITEM, ZERO_ITEM];
  private peekCount = 0;
  private vars: string[] = [];
  private treeSet: Map<string, Tree> = new Map();
  private actionLine = 0;
  private rangeDepth = 0;

  constructor(public name: string) {
    this.parseName = name;
  }

  // ---------- token stream ----------

  private next(): Item {
    if (this.peekCount > 0) this.peekCount--;
    else this.token[0] = this.lex!.nextItem();
    return this.token[this.peekCount]!;
  }

  private backup(): void {
    this.peekCount++;
  }

  private backup2(t1: Item): void {
    this.token[1] = t1;
    this.peekCount = 2;
  }

  private backup3(t2: Item, t1: Item): void {
    this.token[1] = t1;
    this.token[2] = t2;
    this.peekCount = 3;
  }

  private peek(): Item {
    if (this.peekCount > 0) return this.token[this.peekCount - 1]!;
    this.peekCount = 1;
    this.token[0] = this.lex!.nextItem();
    return this.token[0];
  }

  private nextNonSpace(): Item {
    let token: Item;
    do token = this.next();
    while (token.typ === ItemType.Space);
    return token;
  }

  private peekNonSpace(): Item {
    const token = this.nextNonSpace();
    this.backup();
    return token;
  }

  // ---------- errors ----------

  private errorf(msg: string): never {
    this.root = null;
    const line = this.token[0]!.line;
    const pos = this.token[0]!.pos;
    const text = this.text ?? '';
    const col = pos <= text.length ? pos - (text.lastIndexOf('\n', pos - 1) + 1) : 0;
    throw new ParseAbort(`template: ${this.parseName}:${line}: ${msg}`, this.parseName, line, col);
  }

  private expect(expected: ItemType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.typ !== expected) this.unexpected(token, context);
    return token;
  }

  private expectOneOf(e1: ItemType, e2: ItemType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.typ !== e1 && token.typ !== e2) this.unexpected(token, context);
    return token;
  }

  private unexpected(token: Item, context: string): never {
    if (token.typ === ItemType.Error) {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== token.line) {
        extra = ` in action started at ${this.parseName}:${this.actionLine}`;
        if (token.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(`${itemString(token)}${extra}`);
    }
    this.errorf(`unexpected ${itemString(token)} in ${context}`);
  }

  // ---------- entry ----------

  private startParse(funcs: HasFunction, lexer: ItemStream, treeSet: Map<string, Tree>): void {
    this.root = null;
    this.lex = lexer;
    this.vars = ['$'];
    this.funcs = funcs;
    this.treeSet = treeSet;
  }

  private stopParse(): void {
    this.lex = null;
    this.vars = [];
    this.funcs = () => false;
  }

  /** Parse text into this tree, adding it and every {{define}}d tree to treeSet. Throws ParseError. */
  parse(text: string, leftDelim: string, rightDelim: string, treeSet: Map<string, Tree>, funcs: HasFunction): this {
    try {
      this.parseName = this.name;
      const items = lexer(
        this.name,
        text,
        leftDelim,
        rightDelim,
        (this.mode & Mode.ParseComments) !== 0,
        !funcs('break'),
        !funcs('continue'),
      );
      this.startParse(funcs, new ItemStream(items), treeSet);
      this.text = text;
      this.parseTop();
      this.add();
      this.stopParse();
      return this;
    } catch (e) {
      if (e instanceof ParseAbort) throw new ParseError(e.message, e.name, e.line, e.col);
      throw e;
    }
  }

  private add(): void {
    const tree = this.treeSet.get(this.name);
    if (!tree || isEmptyTree(tree.root)) {
      this.treeSet.set(this.name, this);
      return;
    }
    if (!isEmptyTree(this.root)) this.errorf(`template: multiple definition of template ${goQuote(this.name)}`);
  }

  private newList(pos: number): ListNode {
    return new ListNode(this, pos);
  }

  private parseTop(): void {
    this.root = this.newList(this.peek().pos);
    while (this.peek().typ !== ItemType.EOF) {
      if (this.peek().typ === ItemType.LeftDelim) {
        const delim = this.next();
        if (this.nextNonSpace().typ === ItemType.Define) {
          const newT = new Tree('definition');
          newT.text = this.text;
          newT.mode = this.mode;
          newT.parseName = this.parseName;
          newT.startParse(this.funcs, this.lex!, this.treeSet);
          newT.parseDefinition();
          continue;
        }
        this.backup2(delim);
      }
      const n = this.textOrAction();
      if (n.type === NodeType.End || n.type === NodeType.Else) this.errorf(`unexpected ${n.toString()}`);
      this.root.append(n);
    }
  }

  private parseDefinition(): void {
    const context = 'define clause';
    const name = this.expectOneOf(ItemType.String, ItemType.RawString, context);
    this.name = this.unquote(name.val);
    this.expect(ItemType.RightDelim, context);
    const [list, end] = this.itemList();
    this.root = list;
    if (end.type !== NodeType.End) this.errorf(`unexpected ${end.toString()} in ${context}`);
    this.add();
    this.stopParse();
  }

  private unquote(s: string): string {
    try {
      return goUnquote(s);
    } catch {
      this.errorf('invalid syntax');
    }
  }

  private itemList(): [ListNode, Node] {
    const list = this.newList(this.peekNonSpace().pos);
    while (this.peekNonSpace().typ !== ItemType.EOF) {
      const n = this.textOrAction();
      if (n.type === NodeType.End || n.type === NodeType.Else) return [list, n];
      list.append(n);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case ItemType.Text:
        return new TextNode(this, token.pos, token.val);
      case ItemType.LeftDelim:
        this.actionLine = token.line;
        try {
          return this.action();
        } finally {
          this.actionLine = 0;
        }
      case ItemType.Comment:
        return new CommentNode(this, token.pos, token.val);
      default:
        this.unexpected(token, 'input');
    }
  }

  private action(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case ItemType.Block:
        return this.blockControl();
      case ItemType.Break:
        return this.breakControl(token.pos, token.line);
      case ItemType.Continue:
        return this.continueControl(token.pos, token.line);
      case ItemType.Else:
        return this.elseControl();
      case ItemType.End:
        return this.endControl();
      case ItemType.If:
        return this.ifControl();
      case ItemType.Range:
        return this.rangeControl();
      case ItemType.Template:
        return this.templateControl();
      case ItemType.With:
        return this.withControl();
    }
    this.backup();
    const t = this.peek();
    return new ActionNode(this, t.pos, t.line, this.pipeline('command', ItemType.RightDelim));
  }

  private breakControl(pos: number, line: number): Node {
    const token = this.nextNonSpace();
    if (token.typ !== ItemType.RightDelim) this.unexpected(token, '{{break}}');
    if (this.rangeDepth === 0) this.errorf('{{break}} outside {{range}}');
    return new BreakNode(this, pos, line);
  }

  private continueControl(pos: number, line: number): Node {
    const token = this.nextNonSpace();
    if (token.typ !== ItemType.RightDelim) this.unexpected(token, '{{continue}}');
    if (this.rangeDepth === 0) this.errorf('{{continue}} outside {{range}}');
    return new ContinueNode(this, pos, line);
  }

  private pipeline(context: string, end: ItemType): PipeNode {
    const token = this.peekNonSpace();
    const pipe = new PipeNode(this, token.pos, token.line);
    decls: for (;;) {
      const v = this.peekNonSpace();
      if (v.typ === ItemType.Variable) {
        this.next();
        // The space after a variable matters: "$x := " vs "$x" as an argument.
        const tokenAfterVariable = this.peek();
        const next = this.peekNonSpace();
        if (next.typ === ItemType.Assign || next.typ === ItemType.Declare) {
          pipe.isAssign = next.typ === ItemType.Assign;
          this.nextNonSpace();
          pipe.decl.push(new VariableNode(this, v.pos, v.val));
          this.vars.push(v.val);
        } else if (next.typ === ItemType.Char && next.val === ',') {
          this.nextNonSpace();
          pipe.decl.push(new VariableNode(this, v.pos, v.val));
          this.vars.push(v.val);
          if (context === 'range' && pipe.decl.length < 2) {
            switch (this.peekNonSpace().typ) {
              case ItemType.Variable:
              case ItemType.RightDelim:
              case ItemType.RightParen:
                continue decls;
              default:
                this.errorf('range can only initialize variables');
            }
          }
          this.errorf(`too many declarations in ${context}`);
        } else if (tokenAfterVariable.typ === ItemType.Space) {
          this.backup3(v, tokenAfterVariable);
        } else {
          this.backup2(v);
        }
      }
      break;
    }
    for (;;) {
      const token = this.nextNonSpace();
      switch (token.typ) {
        case end:
          this.checkPipeline(pipe, context);
          return pipe;
        case ItemType.Bool:
        case ItemType.CharConstant:
        case ItemType.Complex:
        case ItemType.Dot:
        case ItemType.Field:
        case ItemType.Identifier:
        case ItemType.Number:
        case ItemType.Nil:
        case ItemType.RawString:
        case ItemType.String:
        case ItemType.Variable:
        case ItemType.LeftParen:
          this.backup();
          pipe.cmds.push(this.command());
          break;
        default:
          this.unexpected(token, context);
      }
    }
  }

  private checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    for (let i = 1; i < pipe.cmds.length; i++) {
      switch (pipe.cmds[i]!.args[0]!.type) {
        case NodeType.Bool:
        case NodeType.Dot:
        case NodeType.Nil:
        case NodeType.Number:
        case NodeType.String:
          this.errorf(`non executable command in pipeline stage ${i + 1}`);
      }
    }
  }

  private parseControl(
    context: 'if' | 'range' | 'with',
  ): [number, number, PipeNode, ListNode, ListNode | null] {
    const mark = this.vars.length;
    try {
      const pipe = this.pipeline(context, ItemType.RightDelim);
      if (context === 'range') this.rangeDepth++;
      let [list, next] = this.itemList();
      if (context === 'range') this.rangeDepth--;
      let elseList: ListNode | null = null;
      if (next.type === NodeType.Else) {
        // "{{else if}}" and (Go 1.23) "{{else with}}" nest a new branch as the whole else list.
        if (context === 'if' && this.peek().typ === ItemType.If) {
          this.next();
          elseList = this.newList(next.pos);
          elseList.append(this.ifControl());
        } else if (context === 'with' && this.peek().typ === ItemType.With) {
          this.next();
          elseList = this.newList(next.pos);
          elseList.append(this.withControl());
        } else {
          [elseList, next] = this.itemList();
          if (next.type !== NodeType.End) this.errorf(`expected end; found ${next.toString()}`);
        }
      }
      return [pipe.pos, pipe.line, pipe, list, elseList];
    } finally {
      this.vars.length = mark;
    }
  }

  private ifControl(): Node {
    return new IfNode(this, ...this.parseControl('if'));
  }

  private rangeControl(): Node {
    return new RangeNode(this, ...this.parseControl('range'));
  }

  private withControl(): Node {
    return new WithNode(this, ...this.parseControl('with'));
  }

  private endControl(): Node {
    return new EndNode(this, this.expect(ItemType.RightDelim, 'end').pos);
  }

  private elseControl(): Node {
    const peek = this.peekNonSpace();
    if (peek.typ === ItemType.If || peek.typ === ItemType.With) return new ElseNode(this, peek.pos, peek.line);
    const token = this.expect(ItemType.RightDelim, 'else');
    return new ElseNode(this, token.pos, token.line);
  }

  private blockControl(): Node {
    const context = 'block clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    const pipe = this.pipeline(context, ItemType.RightDelim);

    const block = new Tree(name);
    block.text = this.text;
    block.mode = this.mode;
    block.parseName = this.parseName;
    block.startParse(this.funcs, this.lex!, this.treeSet);
    const [list, end] = block.itemList();
    block.root = list;
    if (end.type !== NodeType.End) this.errorf(`unexpected ${end.toString()} in ${context}`);
    block.add();
    block.stopParse();
    return new TemplateNode(this, token.pos, token.line, name, pipe);
  }

  private templateControl(): Node {
    const context = 'template clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    let pipe: PipeNode | null = null;
    if (this.nextNonSpace().typ !== ItemType.RightDelim) {
      this.backup();
      pipe = this.pipeline(context, ItemType.RightDelim);
    }
    return new TemplateNode(this, token.pos, token.line, name, pipe);
  }

  private parseTemplateName(token: Item, context: string): string {
    if (token.typ === ItemType.String || token.typ === ItemType.RawString) return this.unquote(token.val);
    this.unexpected(token, context);
  }

  private command(): CommandNode {
    const cmd = new CommandNode(this, this.peekNonSpace().pos);
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) cmd.args.push(operand);
      const token = this.next();
      if (token.typ === ItemType.Space) continue;
      if (token.typ === ItemType.RightDelim || token.typ === ItemType.RightParen) this.backup();
      else if (token.typ !== ItemType.Pipe) this.unexpected(token, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  private operand(): Node | null {
    let node = this.term();
    if (!node) return null;
    if (this.peek().typ === ItemType.Field) {
      const chain = new ChainNode(this, this.peek().pos, node);
      while (this.peek().typ === ItemType.Field) chain.add(this.next().val);
      // Obvious parsing errors caught here; the rest are caught at execution.
      switch (node.type) {
        case NodeType.Field:
          node = new FieldNode(this, chain.pos, chain.toString());
          break;
        case NodeType.Variable:
          node = new VariableNode(this, chain.pos, chain.toString());
          break;
        case NodeType.Bool:
        case NodeType.String:
        case NodeType.Number:
        case NodeType.Nil:
        case NodeType.Dot:
          this.errorf(`unexpected . after term ${goQuote(node.toString())}`);
        default:
          node = chain;
      }
    }
    return node;
  }

  private term(): Node | null {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case ItemType.Identifier:
        if ((this.mode & Mode.SkipFuncCheck) === 0 && !this.funcs(token.val)) {
          this.errorf(`function ${goQuote(token.val)} not defined`);
        }
        return new IdentifierNode(this, token.pos, token.val);
      case ItemType.Dot:
        return new DotNode(this, token.pos);
      case ItemType.Nil:
        return new NilNode(this, token.pos);
      case ItemType.Variable:
        return this.useVar(token.pos, token.val);
      case ItemType.Field:
        return new FieldNode(this, token.pos, token.val);
      case ItemType.Bool:
        return new BoolNode(this, token.pos, token.val === 'true');
      case ItemType.CharConstant:
      case ItemType.Complex:
      case ItemType.Number:
        return this.newNumber(token.pos, token.val, token.typ);
      case ItemType.LeftParen:
        return this.pipeline('parenthesized pipeline', ItemType.RightParen);
      case ItemType.String:
      case ItemType.RawString:
        return new StringNode(this, token.pos, token.val, this.unquote(token.val));
    }
    this.backup();
    return null;
  }

  private useVar(pos: number, name: string): Node {
    const v = new VariableNode(this, pos, name);
    if (this.vars.includes(v.ident[0]!)) return v;
    this.errorf(`undefined variable ${goQuote(v.ident[0]!)}`);
  }

  private newNumber(pos: number, text: string, typ: ItemType): NumberNode {
    const n = new NumberNode(this, pos, text);
    if (typ === ItemType.CharConstant) {
      let r: number;
      let next: number;
      try {
        ({ r, next } = unquoteChar(text, 1, "'"));
      } catch {
        this.errorf('invalid syntax');
      }
      if (text.slice(next) !== "'") this.errorf(`malformed character constant: ${text}`);
      n.int64 = BigInt(r);
      n.isInt = true;
      n.uint64 = BigInt(r);
      n.isUint = true;
      n.float64 = r;
      n.isFloat = true;
      return n;
    }
    if (typ === ItemType.Complex) {
      const c = parseComplex(text);
      if (typeof c === 'string') this.errorf(c);
      n.isComplex = true;
      n.complex = c;
      simplifyComplex(n);
      return n;
    }
    if (text.endsWith('i')) {
      const f = parseGoFloat(text.slice(0, -1));
      if (f !== undefined) {
        n.isComplex = true;
        n.complex = [0, f];
        simplifyComplex(n);
        return n;
      }
    }
    const u = parseGoUint(text);
    if (u !== undefined) {
      n.isUint = true;
      n.uint64 = u;
    }
    const i = parseGoInt(text);
    if (i !== undefined) {
      n.isInt = true;
      n.int64 = i;
      if (i === 0n) {
        n.isUint = true;
        n.uint64 = u ?? 0n;
      }
    }
    if (n.isInt) {
      n.isFloat = true;
      n.float64 = Number(n.int64);
    } else if (n.isUint) {
      n.isFloat = true;
      n.float64 = Number(n.uint64);
    } else {
      const f = parseGoFloat(text);
      if (f !== undefined) {
        if (!/[.eEpP]/.test(text)) this.errorf(`integer overflow: ${goQuote(text)}`);
        n.isFloat = true;
        n.float64 = f;
        if (!n.isInt && Number.isFinite(f) && Number.isInteger(f) && f >= -(2 ** 63) && f < 2 ** 63) {
          n.isInt = true;
          n.int64 = BigInt(f);
        }
        if (!n.isUint && Number.isFinite(f) && Number.isInteger(f) && f >= 0 && f < 2 ** 64) {
          n.isUint = true;
          n.uint64 = BigInt(f);
        }
      }
    }
    if (!n.isInt && !n.isUint && !n.isFloat) this.errorf(`illegal number syntax: ${goQuote(text)}`);
    return n;
  }
}

function simplifyComplex(n: NumberNode): void {
  n.isFloat = n.complex[1] === 0;
  if (n.isFloat) {
    const f = n.complex[0];
    n.float64 = f;
    n.isInt = Number.isInteger(f) && f >= -(2 ** 63) && f < 2 ** 63;
    if (n.isInt) n.int64 = BigInt(f);
    n.isUint = Number.isInteger(f) && f >= 0 && f < 2 ** 64;
    if (n.isUint) n.uint64 = BigInt(f);
  }
}

/** strconv.ParseFloat(text, 64), including hex floats and underscores; undefined on syntax error. */
export function parseGoFloat(text: string): number | undefined {
  let s = text;
  let sign = 1;
  if (s[0] === '+' || s[0] === '-') {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  const lower = s.toLowerCase();
  if (lower === 'inf' || lower === 'infinity') return sign * Infinity;
  if (lower === 'nan') return NaN;
  if (s.includes('_')) {
    if (!underscoreOK(s)) return undefined;
    s = s.replace(/_/g, '');
  }
  if (/^0[xX]/.test(s)) {
    const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/.exec(s);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) return undefined;
    const mant = (m[1] ?? '') + (m[2] ?? '');
    let v = 0;
    for (const d of mant) v = v * 16 + parseInt(d, 16);
    const exp = parseInt(m[3]!, 10) - 4 * (m[2] ?? '').length;
    return sign * v * Math.pow(2, exp);
  }
  if (!/^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(s)) return undefined;
  const v = Number(s);
  if (!Number.isFinite(v)) return undefined; // Go reports ErrRange; the parser treats it as a syntax failure
  return sign * v;
}

/** The error strconv.ParseFloat reports for text: a syntax error, or a well-formed number out of range. */
function parseFloatError(text: string): string {
  const syntax = parseGoFloat(text.replace(/[eE]([+-]?)[0-9_]+$/, 'e$10'));
  return syntax === undefined ? 'invalid syntax' : 'value out of range';
}

/** fmt.Sscan of a complex128 ("1+2i"): the real token, a signed imaginary token, then i. Errors as Sscan reports them. */
function parseComplex(text: string): [number, number] | string {
  let k = -1;
  for (let i = 1; i < text.length; i++) {
    if ((text[i] === '+' || text[i] === '-') && !/[eEpP]/.test(text[i - 1]!)) {
      k = i;
      break;
    }
  }
  if (k < 0 || !text.endsWith('i')) return 'expected integer';
  const reTok = text.slice(0, k);
  const imTok = text.slice(k, -1);
  const re = parseGoFloat(reTok);
  if (re === undefined) return `strconv.ParseFloat: parsing ${goQuote(reTok)}: ${parseFloatError(reTok)}`;
  const im = parseGoFloat(imTok);
  if (im === undefined) return `strconv.ParseFloat: parsing ${goQuote(imTok)}: ${parseFloatError(imTok)}`;
  return [re, im];
}
