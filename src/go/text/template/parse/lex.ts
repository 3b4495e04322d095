// The lexer, shaped like Go's text/template/parse/lex.go: state functions that each return the next
// state and emit typed items. Positions are UTF-16 indexes into the source (converted to Go's byte
// columns only when an error is reported).
//
// Mirrors: go1.19 src/text/template/parse/lex.go
// Proven by: test/vectors/template/lex-literals.jsonl, test/vectors/template/parse-errors.jsonl

import { formatU, quotePrefix, goQuote } from '../../../strconv/quote.js';

export const enum ItemType {
  Error,
  Bool,
  Char,
  CharConstant,
  Comment,
  Complex,
  Assign,
  Declare,
  EOF,
  Field,
  Identifier,
  LeftDelim,
  LeftParen,
  Number,
  Pipe,
  RawString,
  RightDelim,
  RightParen,
  Space,
  String,
  Text,
  Variable,
  Keyword, // items after this one are keywords
  Block,
  Break,
  Continue,
  Dot,
  Define,
  Else,
  End,
  If,
  Nil,
  Range,
  Template,
  With,
}

export interface Item {
  typ: ItemType;
  pos: number;
  val: string;
  line: number;
}

const KEY: Record<string, ItemType> = Object.assign(Object.create(null) as Record<string, ItemType>, {
  '.': ItemType.Dot,
  block: ItemType.Block,
  break: ItemType.Break,
  continue: ItemType.Continue,
  define: ItemType.Define,
  else: ItemType.Else,
  end: ItemType.End,
  if: ItemType.If,
  range: ItemType.Range,
  nil: ItemType.Nil,
  template: ItemType.Template,
  with: ItemType.With,
});

/** item.String() as Go prints tokens in parse errors. */
export function itemString(i: Item): string {
  if (i.typ === ItemType.EOF) return 'EOF';
  if (i.typ === ItemType.Error) return i.val;
  if (i.typ > ItemType.Keyword) return `<${i.val}>`;
  if (Buffer.byteLength(i.val, 'utf8') > 10) return quotePrefix(i.val, 10) + '...';
  return goQuote(i.val);
}

const EOF = -1;
const SPACE_CHARS = ' \t\r\n';
const LEFT_COMMENT = '/*';
const RIGHT_COMMENT = '*/';

const LETTER_RE = /^\p{L}$/u;
const DIGIT_RE = /^\p{Nd}$/u;
// The lexer's loops, rune by rune, are Go's; these skip the common runs (ASCII letters, digits and
// underscores of a word, the body of a quoted string) in one native match first, which is most of what a
// cold start spends lexing. The rune loop then goes on from where the match stopped, with the same state.
const ASCII_WORD = /[A-Za-z0-9_]*/y;
const QUOTED_RUN = /[^"\\\n]*/y;

function isSpace(r: number): boolean {
  return r === 0x20 || r === 0x09 || r === 0x0d || r === 0x0a;
}

function isAlphaNumeric(r: number): boolean {
  if (r < 0x80) {
    return r === 0x5f || (r >= 0x30 && r <= 0x39) || (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a);
  }
  if (r === EOF) return false;
  const c = String.fromCodePoint(r);
  return LETTER_RE.test(c) || DIGIT_RE.test(c);
}

function hasLeftTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && s[at] === '-' && isSpace(s.charCodeAt(at + 1));
}

function hasRightTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && isSpace(s.charCodeAt(at)) && s[at + 1] === '-';
}

type StateFn = ((l: Lexer) => StateFn) | null;

export class Lexer {
  /** Items emitted and not yet taken (nextItem), from head on. */
  items: Item[] = [];
  private head = 0;
  private state: StateFn = lexText;
  pos = 0;
  start = 0;
  atEOF = false;
  parenDepth = 0;
  line = 1;
  startLine = 1;

  constructor(
    readonly name: string,
    readonly input: string,
    readonly leftDelim: string,
    readonly rightDelim: string,
    readonly emitComment: boolean,
    readonly breakOK: boolean,
    readonly continueOK: boolean,
  ) {}

  /**
   * The next item, lexed when asked for, as Go's lexer does: an item lives only until the parser has
   * read it, instead of all of them for the whole parse (a garbage collection copies every item still
   * alive, and under deep nesting it also walks the whole stack). undefined past the end or an error.
   */
  nextItem(): Item | undefined {
    while (this.head === this.items.length) {
      if (!this.state) return undefined;
      if (this.head > 0) {
        this.items = [];
        this.head = 0;
      }
      this.state = this.state(this);
    }
    return this.items[this.head++];
  }

  next(): number {
    if (this.pos >= this.input.length) {
      this.atEOF = true;
      return EOF;
    }
    const r = this.input.codePointAt(this.pos)!;
    this.pos += r > 0xffff ? 2 : 1;
    if (r === 10) this.line++;
    return r;
  }

  peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  backup(): void {
    if (!this.atEOF && this.pos > 0) {
      let w = 1;
      const c = this.input.charCodeAt(this.pos - 1);
      if (c >= 0xdc00 && c <= 0xdfff && this.pos >= 2) {
        const h = this.input.charCodeAt(this.pos - 2);
        if (h >= 0xd800 && h <= 0xdbff) w = 2;
      }
      this.pos -= w;
      if (c === 10) this.line--;
    }
  }

  emit(t: ItemType): void {
    this.items.push({ typ: t, pos: this.start, val: this.input.slice(this.start, this.pos), line: this.startLine });
    this.start = this.pos;
    this.startLine = this.line;
  }

  ignore(): void {
    this.line += countNewlines(this.input, this.start, this.pos);
    this.start = this.pos;
    this.startLine = this.line;
  }

  accept(valid: string): boolean {
    const r = this.next();
    if (r !== EOF && valid.includes(String.fromCodePoint(r))) return true;
    this.backup();
    return false;
  }

  acceptRun(valid: string): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || !valid.includes(String.fromCodePoint(r))) break;
    }
    this.backup();
  }

  errorf(msg: string): StateFn {
    this.items.push({ typ: ItemType.Error, pos: this.start, val: msg, line: this.startLine });
    return null;
  }

  atRightDelim(): { delim: boolean; trimSpaces: boolean } {
    if (hasRightTrimMarker(this.input, this.pos) && this.input.startsWith(this.rightDelim, this.pos + 2)) {
      return { delim: true, trimSpaces: true };
    }
    if (this.input.startsWith(this.rightDelim, this.pos)) return { delim: true, trimSpaces: false };
    return { delim: false, trimSpaces: false };
  }

  /** Whether a right delimiter, with or without its trim marker, starts here (atRightDelim's delim). */
  atAnyRightDelim(): boolean {
    return this.input.startsWith(this.rightDelim, this.pos) || (hasRightTrimMarker(this.input, this.pos) && this.input.startsWith(this.rightDelim, this.pos + 2));
  }

  /** Past the ASCII letters, digits and underscores from here (no newline among them). */
  skipAsciiWord(): void {
    ASCII_WORD.lastIndex = this.pos;
    ASCII_WORD.test(this.input);
    this.pos = ASCII_WORD.lastIndex;
  }

  atTerminator(): boolean {
    const r = this.peek();
    if (isSpace(r)) return true;
    switch (r) {
      case EOF:
      case 0x2e: // .
      case 0x2c: // ,
      case 0x7c: // |
      case 0x3a: // :
      case 0x29: // )
      case 0x28: // (
        return true;
    }
    return this.input.startsWith(this.rightDelim, this.pos);
  }

  scanNumber(): boolean {
    this.accept('+-');
    let digits = '0123456789_';
    if (this.accept('0')) {
      if (this.accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (this.accept('oO')) digits = '01234567_';
      else if (this.accept('bB')) digits = '01_';
    }
    this.acceptRun(digits);
    if (this.accept('.')) this.acceptRun(digits);
    if (digits.length === 11 && this.accept('eE')) {
      this.accept('+-');
      this.acceptRun('0123456789_');
    }
    if (digits.length === 23 && this.accept('pP')) {
      this.accept('+-');
      this.acceptRun('0123456789_');
    }
    this.accept('i');
    if (isAlphaNumeric(this.peek())) {
      this.next();
      return false;
    }
    return true;
  }
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  // Only [from, to): indexOf would scan to the end of the text when no newline is near (quadratic lexing).
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

function rightTrimLength(s: string, from: number, to: number): number {
  let i = to;
  while (i > from && SPACE_CHARS.includes(s[i - 1]!)) i--;
  return to - i;
}

function leftTrimLength(s: string, from: number): number {
  let i = from;
  while (i < s.length && SPACE_CHARS.includes(s[i]!)) i++;
  return i - from;
}

function lexText(l: Lexer): StateFn {
  const x = l.input.indexOf(l.leftDelim, l.pos);
  if (x >= 0) {
    const ldn = l.leftDelim.length;
    l.pos = x;
    let trimLength = 0;
    if (hasLeftTrimMarker(l.input, l.pos + ldn)) trimLength = rightTrimLength(l.input, l.start, l.pos);
    l.pos -= trimLength;
    if (l.pos > l.start) {
      l.line += countNewlines(l.input, l.start, l.pos);
      l.emit(ItemType.Text);
    }
    l.pos += trimLength;
    l.ignore();
    return lexLeftDelim;
  }
  l.pos = l.input.length;
  if (l.pos > l.start) {
    l.line += countNewlines(l.input, l.start, l.pos);
    l.emit(ItemType.Text);
  }
  l.emit(ItemType.EOF);
  return null;
}

function lexLeftDelim(l: Lexer): StateFn {
  l.pos += l.leftDelim.length;
  const trimSpace = hasLeftTrimMarker(l.input, l.pos);
  const afterMarker = trimSpace ? 2 : 0;
  if (l.input.startsWith(LEFT_COMMENT, l.pos + afterMarker)) {
    l.pos += afterMarker;
    l.ignore();
    return lexComment;
  }
  l.emit(ItemType.LeftDelim);
  l.pos += afterMarker;
  l.ignore();
  l.parenDepth = 0;
  return lexInsideAction;
}

function lexComment(l: Lexer): StateFn {
  l.pos += LEFT_COMMENT.length;
  const i = l.input.indexOf(RIGHT_COMMENT, l.pos);
  if (i < 0) return l.errorf('unclosed comment');
  l.pos = i + RIGHT_COMMENT.length;
  const { delim, trimSpaces } = l.atRightDelim();
  if (!delim) return l.errorf('comment ends before closing delimiter');
  if (l.emitComment) l.emit(ItemType.Comment);
  if (trimSpaces) l.pos += 2;
  l.pos += l.rightDelim.length;
  if (trimSpaces) l.pos += leftTrimLength(l.input, l.pos);
  l.ignore();
  return lexText;
}

function lexRightDelim(l: Lexer): StateFn {
  const trimSpace = hasRightTrimMarker(l.input, l.pos);
  if (trimSpace) {
    l.pos += 2;
    l.ignore();
  }
  l.pos += l.rightDelim.length;
  l.emit(ItemType.RightDelim);
  if (trimSpace) {
    l.pos += leftTrimLength(l.input, l.pos);
    l.ignore();
  }
  return lexText;
}

function lexInsideAction(l: Lexer): StateFn {
  if (l.atAnyRightDelim()) {
    if (l.parenDepth === 0) return lexRightDelim;
    return l.errorf('unclosed left paren');
  }
  const r = l.next();
  if (r === EOF) return l.errorf('unclosed action');
  if (isSpace(r)) {
    l.backup(); // the space may belong to " -}}"
    return lexSpace;
  }
  switch (r) {
    case 0x3d: // =
      l.emit(ItemType.Assign);
      return lexInsideAction;
    case 0x3a: // :
      if (l.next() !== 0x3d) return l.errorf('expected :=');
      l.emit(ItemType.Declare);
      return lexInsideAction;
    case 0x7c: // |
      l.emit(ItemType.Pipe);
      return lexInsideAction;
    case 0x22: // "
      return lexQuote;
    case 0x60: // `
      return lexRawQuote;
    case 0x24: // $
      return lexVariable;
    case 0x27: // '
      return lexChar;
    case 0x2e: // .
      if (l.pos < l.input.length) {
        const c = l.input.charCodeAt(l.pos);
        if (c < 0x30 || c > 0x39) return lexField;
      }
      l.backup();
      return lexNumber;
    case 0x28: // (
      l.emit(ItemType.LeftParen);
      l.parenDepth++;
      return lexInsideAction;
    case 0x29: // )
      l.emit(ItemType.RightParen);
      l.parenDepth--;
      if (l.parenDepth < 0) return l.errorf(`unexpected right paren ${formatU(r)}`);
      return lexInsideAction;
  }
  if (r === 0x2b || r === 0x2d || (r >= 0x30 && r <= 0x39)) {
    l.backup();
    return lexNumber;
  }
  if (isAlphaNumeric(r)) {
    l.backup();
    return lexIdentifier;
  }
  if (r < 0x80 && r >= 0x20 && r < 0x7f) {
    l.emit(ItemType.Char);
    return lexInsideAction;
  }
  return l.errorf(`unrecognized character in action: ${formatU(r)}`);
}

function lexSpace(l: Lexer): StateFn {
  // Go peeks and takes one space at a time; this counts the same run, its newlines, and the end of the
  // input as a peek there would have met it
  const s = l.input;
  let p = l.pos;
  for (;;) {
    const c = p < s.length ? s.charCodeAt(p) : EOF;
    if (c === 0x20 || c === 0x09 || c === 0x0d) p++;
    else if (c === 0x0a) {
      p++;
      l.line++;
    } else {
      if (c === EOF) l.atEOF = true;
      break;
    }
  }
  const numSpaces = p - l.pos;
  l.pos = p;
  // Be careful about a trim-marked closing delimiter, which has a minus after a space.
  if (hasRightTrimMarker(l.input, l.pos - 1) && l.input.startsWith(l.rightDelim, l.pos - 1 + 2)) {
    l.backup();
    if (numSpaces === 1) return lexRightDelim;
  }
  l.emit(ItemType.Space);
  return lexInsideAction;
}

function lexIdentifier(l: Lexer): StateFn {
  l.skipAsciiWord();
  for (;;) {
    const r = l.next();
    if (isAlphaNumeric(r)) continue;
    l.backup();
    const word = l.input.slice(l.start, l.pos);
    if (!l.atTerminator()) return l.errorf(`bad character ${formatU(r)}`);
    const k = KEY[word];
    if (k !== undefined && k > ItemType.Keyword) {
      if ((k === ItemType.Break && !l.breakOK) || (k === ItemType.Continue && !l.continueOK)) l.emit(ItemType.Identifier);
      else l.emit(k);
    } else if (word[0] === '.') l.emit(ItemType.Field);
    else if (word === 'true' || word === 'false') l.emit(ItemType.Bool);
    else l.emit(ItemType.Identifier);
    return lexInsideAction;
  }
}

function lexField(l: Lexer): StateFn {
  return lexFieldOrVariable(l, ItemType.Field);
}

function lexVariable(l: Lexer): StateFn {
  if (l.atTerminator()) {
    l.emit(ItemType.Variable);
    return lexInsideAction;
  }
  return lexFieldOrVariable(l, ItemType.Variable);
}

function lexFieldOrVariable(l: Lexer, typ: ItemType): StateFn {
  if (l.atTerminator()) {
    l.emit(typ === ItemType.Variable ? ItemType.Variable : ItemType.Dot);
    return lexInsideAction;
  }
  let r: number;
  l.skipAsciiWord();
  for (;;) {
    r = l.next();
    if (!isAlphaNumeric(r)) {
      l.backup();
      break;
    }
  }
  if (!l.atTerminator()) return l.errorf(`bad character ${formatU(r)}`);
  l.emit(typ);
  return lexInsideAction;
}

function lexChar(l: Lexer): StateFn {
  for (;;) {
    let r = l.next();
    if (r === 0x5c) {
      r = l.next();
      if (r !== EOF && r !== 10) continue;
      return l.errorf('unterminated character constant');
    }
    if (r === EOF || r === 10) return l.errorf('unterminated character constant');
    if (r === 0x27) break;
  }
  l.emit(ItemType.CharConstant);
  return lexInsideAction;
}

function lexNumber(l: Lexer): StateFn {
  if (!l.scanNumber()) return l.errorf(`bad number syntax: ${goQuote(l.input.slice(l.start, l.pos))}`);
  const sign = l.peek();
  if (sign === 0x2b || sign === 0x2d) {
    // Complex: 1+2i. No spaces, must end in 'i'.
    if (!l.scanNumber() || l.input[l.pos - 1] !== 'i') {
      return l.errorf(`bad number syntax: ${goQuote(l.input.slice(l.start, l.pos))}`);
    }
    l.emit(ItemType.Complex);
  } else {
    l.emit(ItemType.Number);
  }
  return lexInsideAction;
}

function lexQuote(l: Lexer): StateFn {
  for (;;) {
    QUOTED_RUN.lastIndex = l.pos;
    QUOTED_RUN.test(l.input);
    l.pos = QUOTED_RUN.lastIndex;
    let r = l.next();
    if (r === 0x5c) {
      r = l.next();
      if (r !== EOF && r !== 10) continue;
      return l.errorf('unterminated quoted string');
    }
    if (r === EOF || r === 10) return l.errorf('unterminated quoted string');
    if (r === 0x22) break;
  }
  l.emit(ItemType.String);
  return lexInsideAction;
}

function lexRawQuote(l: Lexer): StateFn {
  for (;;) {
    const r = l.next();
    if (r === EOF) return l.errorf('unterminated raw quoted string');
    if (r === 0x60) break;
  }
  l.emit(ItemType.RawString);
  return lexInsideAction;
}

/** A lexer over the input; lexing stops at the first error item, as Go's lexer does. */
export function lexer(
  name: string,
  input: string,
  left: string,
  right: string,
  emitComment: boolean,
  breakOK: boolean,
  continueOK: boolean,
): Lexer {
  return new Lexer(name, input, left || '{{', right || '}}', emitComment, breakOK, continueOK);
}
