// toYaml: the bytes of sigs.k8s.io/yaml.Marshal, which is json.Marshal, then gopkg.in/yaml.v2
// Unmarshal of that JSON into interface{}, then yaml.v2 Marshal. We follow the same three steps:
// goJsonMarshal, a JSON parse that keeps number literals, and an emitter that makes yaml.v2's
// choices (libyaml's emitter as yaml.v2 ports it): key order, scalar styles, indentation, folding
// at 80 columns, escapes.
//
// Mirrors: gopkg.in/yaml.v2 {encode,emitterc,sorter}.go; sigs.k8s.io/yaml yaml.go (Marshal, JSONToYAML)
// Proven by: test/vectors/yaml/toyaml.jsonl, test/vectors/yaml/roundtrip.jsonl

import { GO_TYPE, GoNum, isIntKind, isUintKind, sortKeys, type GoMap, type GoType, type GoValue } from '../go/reflect/value.js';
import { goJsonMarshal, jsonFloat, jsonQuote, parseJsonRaw, type JsonRawNode } from '../go/encoding/json/json.js';
import { isBase60Float, resolvePlain } from './resolve.js';
import { formatFloat } from '../go/strconv/ftoa.js';

/** A failure of yaml.Marshal; `message` is Go's text. Helm's toYaml turns it into "". */
export class GoYamlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoYamlError';
  }
}

type Style = 'plain' | 'single' | 'double' | 'literal';

type YNode =
  | { kind: 'scalar'; value: string; style: Style; info: ScalarInfo | undefined }
  | { kind: 'seq'; items: YNode[] }
  | { kind: 'map'; pairs: [YNode, YNode][] };

// ---------- yaml.v2's key order (sorter.go) ----------

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const isLetter = (r: number): boolean =>
  r < 0x80 ? (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a) : LETTER.test(String.fromCodePoint(r));
const isDigitRune = (r: number): boolean => (r >= 0x30 && r <= 0x39) || (r > 0x7f && DIGIT.test(String.fromCodePoint(r)));

/** A text's code points: a plain array for the short texts of keys and names, a typed array of
 *  exactly the text's size for a long one (a 60 MiB value as a growing array of numbers took ten
 *  times its size). */
type Runes = number[] | Uint32Array;

function runes(s: string): number[];
function runes(s: string, long: true): Runes;
function runes(s: string, long?: true): Runes {
  if (long && s.length > 4096) {
    const out = new Uint32Array(s.length);
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.codePointAt(i)!;
      out[n++] = c;
      if (c > 0xffff) i++;
    }
    return out.subarray(0, n);
  }
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i)!;
    out.push(c);
    if (c > 0xffff) i++;
  }
  return out;
}

/** keyList.Less for two string keys: runs of digits compare as numbers, a letter sorts after a
 *  non-letter, anything else by code point. */
export function yamlKeyLess(a: string, b: string): boolean {
  return runesLess(runes(a), runes(b));
}

function runesLess(ar: number[], br: number[]): boolean {
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return bl;
    let ai = i;
    let bi = i;
    while (ai < ar.length && isDigitRune(ar[ai]!)) ai++;
    while (bi < br.length && isDigitRune(br[bi]!)) bi++;
    // Go adds into an int64 (wrapping); plain numbers are exact for short runs.
    let big = ai - i > 14 || bi - i > 14;
    for (let x = i; !big && x < ai; x++) big = ar[x]! > 0x39;
    for (let x = i; !big && x < bi; x++) big = br[x]! > 0x39;
    let an: number | bigint = big ? 0n : 0;
    let bn: number | bigint = big ? 0n : 0;
    if (ar[i] === 0x30 || br[i] === 0x30) {
      for (let j = i - 1; j >= 0 && isDigitRune(ar[j]!); j--) {
        if (ar[j] !== 0x30) {
          an = big ? 1n : 1;
          bn = big ? 1n : 1;
          break;
        }
      }
    }
    for (let x = i; x < ai; x++) an = big ? BigInt.asIntN(64, (an as bigint) * 10n + BigInt(ar[x]! - 0x30)) : (an as number) * 10 + (ar[x]! - 0x30);
    for (let x = i; x < bi; x++) bn = big ? BigInt.asIntN(64, (bn as bigint) * 10n + BigInt(br[x]! - 0x30)) : (bn as number) * 10 + (br[x]! - 0x30);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

const ORDERED_AS_UNITS = /^[\x20-\x2f\x3a-\x5a\x61-\x7a]*$/;

/** Sort keys as yaml.v2 does (for key sets whose order is consistent; see sorter.go). */
function sortYamlKeys(keys: string[]): string[] {
  // Keys of ASCII letters and of characters below 'A' but digits: letters sort after the others and
  // the rest by code point, which is plain code unit order (digit runs would compare as numbers).
  let simple = true;
  for (let i = 0; i < keys.length && simple; i++) simple = ORDERED_AS_UNITS.test(keys[i]!);
  if (simple) return keys.sort();
  const rs = keys.map((k) => ({ k, r: runes(k) }));
  rs.sort((x, y) => (runesLess(x.r, y.r) ? -1 : runesLess(y.r, x.r) ? 1 : 0));
  return rs.map((x) => x.k);
}


// ---------- JSON → yaml.v2 values → scalar events ----------

/** Characters yaml.v2's reader refuses ("control characters are not allowed"). JSON escapes C0
 *  controls, but passes DEL, C1 controls and U+FFFE/U+FFFF through raw. */
function checkReadable(s: string): void {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x7f || (c >= 0x80 && c <= 0x9f && c !== 0x85) || c === 0xfffe || c === 0xffff) {
      throw new GoYamlError('error converting JSON to YAML: yaml: control characters are not allowed');
    }
  }
}

/** encoder.stringv: plain when the text would read back as the same string, double-quoted when it
 *  would resolve to another type, literal when it holds a newline. */
function stringNode(s: string, info: ScalarInfo | undefined = s.length <= CACHED_LENGTH ? scalarInfo(s) : undefined): YNode {
  // (the node keeps the cached facts of its text, so writing it looks nothing up again)
  return { kind: 'scalar', value: s, style: stringStyle(s, info), info };
}

/** AS_IS.test(s), kept with the text's facts when it is short. */
function asIs(s: string, info: ScalarInfo | undefined): boolean {
  if (info === undefined) return AS_IS.test(s);
  return (info.asIs ??= AS_IS.test(s));
}

function stringStyle(s: string, info: ScalarInfo | undefined): Style {
  if (info?.style !== undefined) return info.style;
  let style: Style;
  if (s.includes('\n')) style = 'literal';
  else {
    const r = resolvePlain(s);
    style = r.tag === 'str' && !isBase60Float(s) ? 'plain' : 'double';
  }
  if (info) info.style = style;
  return style;
}

/** What the emitter works out about a scalar's text, kept for the short texts that recur in every
 *  render (keys, names, images, ports): its code points, libyaml's analysis, the style of a string. */
interface ScalarInfo {
  cps?: Runes;
  analysis?: Analysis;
  style?: Style;
  /** AS_IS: json.Marshal and yaml.v2 keep the text as it is. */
  asIs?: boolean;
  /** ORDERED_AS_UNITS: yaml.v2's key order for it is UTF-16 order. */
  units?: boolean;
}

const CACHED_LENGTH = 128;
const MAX_CACHED = 8192;
const scalarInfos = new Map<string, ScalarInfo>();

function scalarInfo(s: string): ScalarInfo {
  let info = scalarInfos.get(s);
  if (info === undefined) {
    if (scalarInfos.size >= MAX_CACHED) scalarInfos.clear();
    info = {};
    scalarInfos.set(s, info);
  }
  return info;
}

/** analyzed() of a scalar node's text, through the facts the node carries when it has them. */
function analyzedNode(n: { value: string; info: ScalarInfo | undefined }): { cps: Runes; analysis: Analysis } {
  const info = n.info;
  if (info === undefined) return analyzed(n.value);
  if (info.cps === undefined) {
    info.cps = runes(n.value, true);
    info.analysis = analyze(info.cps);
  }
  return info as { cps: Runes; analysis: Analysis };
}

/** The code points of a scalar and their analysis (shared, never changed). */
function analyzed(s: string): { cps: Runes; analysis: Analysis } {
  if (s.length > CACHED_LENGTH) {
    const cps = runes(s, true);
    return { cps, analysis: analyze(cps) };
  }
  const info = scalarInfo(s);
  if (info.cps === undefined) {
    info.cps = runes(s);
    info.analysis = analyze(info.cps);
  }
  return info as { cps: Runes; analysis: Analysis };
}

/** A JSON number literal as yaml.v2 resolves it (int, uint64 or float64) and formats it again. */
function numberNode(text: string): YNode {
  const r = resolvePlain(text);
  let out: string;
  if (r.tag === 'int') out = String(r.value);
  else if (r.tag === 'float') {
    const f = r.value as number;
    out = Number.isNaN(f) ? '.nan' : f === Infinity ? '.inf' : f === -Infinity ? '-.inf' : formatFloat(f, 'g', 64);
  } else return stringNode(text);
  return { kind: 'scalar', value: out, style: 'plain', info: undefined };
}

/**
 * yaml.v2 reads the JSON strings as double-quoted scalars, which fold raw line breaks. Go's JSON
 * escapes every break but NEL (U+0085), so a NEL and the spaces around it fold like a line break:
 * one break becomes a space, each further break a newline. A document marker right after the break
 * is an error.
 */
function foldRawBreaks(s: string): string {
  if (!s.includes('\u0085')) return s;
  let out = '';
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c !== ' ' && c !== '\u0085') {
      out += c;
      i++;
      continue;
    }
    let j = i;
    let breaks = 0;
    while (j < s.length && (s[j] === ' ' || s[j] === '\u0085')) {
      if (s[j] === '\u0085') {
        breaks++;
        const next = s.slice(j + 1, j + 4);
        const after = s[j + 4];
        if ((next === '---' || next === '...') && (after === ' ' || after === '\t' || after === '\u0085')) {
          throw new GoYamlError('error converting JSON to YAML: yaml: while scanning a quoted scalar found unexpected document indicator');
        }
      }
      j++;
    }
    if (breaks === 0) out += s.slice(i, j);
    else out += breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
    i = j;
  }
  return out;
}

/**
 * yaml.v2 reads each JSON key as a simple key, which must stay on one line and within 1024
 * characters of its ':' (its scanner forgets the key otherwise, and the mapping fails to parse).
 */
function checkSimpleKey(k: string): void {
  let n = 0;
  // JSON escapes make a character at most 6 long: short keys cannot reach the limit.
  if (k.length * 6 + 2 > 1024) for (const _ of jsonQuote(k)) n++;
  if (k.includes('\u0085') || n > 1024) {
    throw new GoYamlError("error converting JSON to YAML: yaml: line 1: did not find expected ',' or '}'");
  }
}

function toNode(j: JsonRawNode): YNode {
  if (j === null) return { kind: 'scalar', value: 'null', style: 'plain', info: undefined };
  if (j === true || j === false) return { kind: 'scalar', value: String(j), style: 'plain', info: undefined };
  if (typeof j === 'string') {
    checkReadable(j);
    return stringNode(foldRawBreaks(j));
  }
  if (Array.isArray(j)) return { kind: 'seq', items: j.map(toNode) };
  if ('numberText' in j) return numberNode(j.numberText);
  // A Go map: later duplicates replace earlier ones, then yaml.v2 sorts the keys.
  const m = new Map<string, JsonRawNode>();
  for (const [k, v] of j.entries) {
    checkReadable(k);
    checkSimpleKey(k);
    m.set(k, v);
  }
  const keys = sortYamlKeys([...m.keys()]);
  return { kind: 'map', pairs: keys.map((k) => [stringNode(k), toNode(m.get(k)!)] as [YNode, YNode]) };
}

// ---------- the emitter ----------

const ASCII = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));

interface Analysis {
  multiline: boolean;
  flowPlainAllowed: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

const isBreakCP = (c: number): boolean => c === 0x0d || c === 0x0a || c === 0x85 || c === 0x2028 || c === 0x2029;
const isBlankCP = (c: number): boolean => c === 0x20 || c === 0x09;
/** is_printable on the UTF-8 bytes, by code point: no C0/C1 controls (but LF), DEL, surrogates,
 *  BOM, U+FFFE/U+FFFF, nor anything outside the BMP. */
const isPrintableCP = (c: number): boolean =>
  c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);

/** yaml_emitter_analyze_scalar. */
function analyze(value: Runes): Analysis {
  if (value.length === 0) {
    return { multiline: false, flowPlainAllowed: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  }
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;

  if (
    value.length >= 3 &&
    ((value[0] === 0x2d && value[1] === 0x2d && value[2] === 0x2d) || (value[0] === 0x2e && value[1] === 0x2e && value[2] === 0x2e))
  ) {
    blockIndicators = true;
    flowIndicators = true;
  }
  let precededByWhitespace = true;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    const followedByWhitespace = i + 1 >= value.length || isBlankCP(value[i + 1]!) || isBreakCP(value[i + 1]!);
    if (c >= 0x80) {
      // no indicator is outside ASCII
    } else if (i === 0) {
      switch (ASCII[c]) {
        case '#': case ',': case '[': case ']': case '{': case '}': case '&': case '*': case '!': case '|':
        case '>': case "'": case '"': case '%': case '@': case '`':
          flowIndicators = true;
          blockIndicators = true;
          break;
        case '?': case ':':
          flowIndicators = true;
          if (followedByWhitespace) blockIndicators = true;
          break;
        case '-':
          if (followedByWhitespace) {
            flowIndicators = true;
            blockIndicators = true;
          }
          break;
      }
    } else {
      switch (ASCII[c]) {
        case ',': case '?': case '[': case ']': case '{': case '}':
          flowIndicators = true;
          break;
        case ':':
          flowIndicators = true;
          if (followedByWhitespace) blockIndicators = true;
          break;
        case '#':
          if (precededByWhitespace) {
            flowIndicators = true;
            blockIndicators = true;
          }
          break;
      }
    }
    if (!isPrintableCP(c)) specialCharacters = true;
    if (c === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i === value.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreakCP(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === value.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankCP(c) || isBreakCP(c) || c === 0;
  }
  const a: Analysis = { multiline: lineBreaks, flowPlainAllowed: true, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
  }
  if (trailingSpace) a.blockAllowed = false;
  if (breakSpace) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
    a.blockAllowed = false;
  }
  if (lineBreaks) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
  }
  if (flowIndicators) a.flowPlainAllowed = false;
  if (blockIndicators) a.blockPlainAllowed = false;
  return a;
}

const HEXU = '0123456789ABCDEF';

class Emitter {
  // Finished lines, and the line being written. The first lines go into one string (most documents
  // are a few lines: joining an array cost more than writing them); one growing string for a large
  // document would keep millions of rope pieces alive, so later lines go into an array.
  private head = '';
  private headLines = 0;
  private readonly lines: string[] = [];
  private out = '';
  private column = 0;
  private whitespace = true;
  private indention = true;
  private indent = -1;
  private readonly indents: number[] = [];
  private flowLevel = 0;
  private mappingContext = false;
  private simpleKeyContext = false;
  private readonly bestIndent = 2;

  /** bestWidth: where long scalars fold (yaml.v2's 80; Infinity for v2.3.0, which never folds). */
  constructor(private readonly bestWidth = 80) {}

  result(): string {
    return this.lines.length === 0 ? this.head + this.out : this.head + this.lines.join('') + this.out;
  }

  document(root: YNode): void {
    this.node(root, false, false);
    this.writeIndent();
  }

  // --- low-level writers (put/write/put_break) ---

  private put(s: string): void {
    this.out += s;
    this.column += s.length;
  }

  private writeCP(c: number): void {
    this.out += c < 0x80 ? ASCII[c]! : String.fromCodePoint(c);
    this.column++;
  }

  private putBreak(): void {
    if (this.headLines < 64) {
      this.head += this.out + '\n';
      this.headLines++;
    } else this.lines.push(this.out + '\n');
    this.out = '';
    this.column = 0;
  }

  private writeBreak(c: number): void {
    if (c === 0x0a) this.putBreak();
    else {
      this.writeCP(c);
      this.column = 0;
    }
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? this.bestIndent : 0;
    else if (!indentless) this.indent += this.bestIndent;
  }

  private popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  private writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    // at once: a space at a time made a rope of one node per space, quadratic in the depth of the value
    if (this.column < indent) this.put(' '.repeat(indent - this.column));
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(ind: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(ind);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  // --- nodes ---

  private node(n: YNode, mapping: boolean, simpleKey: boolean): void {
    this.mappingContext = mapping;
    this.simpleKeyContext = simpleKey;
    if (n.kind === 'scalar') this.scalar(n);
    else if (n.kind === 'seq') {
      if (this.flowLevel > 0 || n.items.length === 0) this.flowCollection('[', ']');
      else this.blockSequence(n.items);
    } else if (this.flowLevel > 0 || n.pairs.length === 0) this.flowCollection('{', '}');
    else this.blockMapping(n.pairs);
  }

  /** Only empty collections are ever written in flow style by yaml.v2's encoder. */
  private flowCollection(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.increaseIndent(true, false);
    this.flowLevel++;
    this.flowLevel--;
    this.popIndent();
    this.writeIndicator(close, false, false, false);
  }

  private blockSequence(items: YNode[]): void {
    // A sequence that is a mapping value starts at the key's column ("indentless").
    this.increaseIndent(false, this.mappingContext && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.writeIndicator('-', true, false, true);
      this.node(item, false, false);
    }
    this.popIndent();
  }

  private blockMapping(pairs: [YNode, YNode][]): void {
    this.increaseIndent(false, false);
    for (const [k, v] of pairs) {
      this.writeIndent();
      if (this.checkSimpleKey(k)) {
        this.node(k, true, true);
        this.writeIndicator(':', false, false, false);
        this.node(v, true, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.node(k, true, false);
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
        this.node(v, true, false);
      }
    }
    this.popIndent();
  }

  /** yaml_emitter_check_simple_key: single-line scalars of at most 128 bytes. */
  private checkSimpleKey(k: YNode): boolean {
    if (k.kind !== 'scalar') return k.kind === 'seq' ? k.items.length === 0 : k.pairs.length === 0;
    if (analyzedNode(k).analysis.multiline) return false;
    // (a UTF-16 unit is at most 3 bytes of UTF-8)
    return k.value.length * 3 <= 128 || Buffer.byteLength(k.value, 'utf8') <= 128;
  }

  private scalar(n: { value: string; style: Style; info: ScalarInfo | undefined }): void {
    const value = n.value;
    const { cps, analysis: a } = analyzedNode(n);
    let style = n.style;
    if (this.simpleKeyContext && a.multiline) style = 'double';
    if (style === 'plain') {
      if ((this.flowLevel > 0 && !a.flowPlainAllowed) || (this.flowLevel === 0 && !a.blockPlainAllowed)) style = 'single';
      if (cps.length === 0 && (this.flowLevel > 0 || this.simpleKeyContext)) style = 'single';
    }
    if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
    if (style === 'literal' && (!a.blockAllowed || this.flowLevel > 0 || this.simpleKeyContext)) style = 'double';

    this.increaseIndent(true, false);
    const allowBreaks = !this.simpleKeyContext;
    switch (style) {
      case 'plain':
        this.writePlain(cps, allowBreaks, value);
        break;
      case 'single':
        this.writeSingleQuoted(cps, allowBreaks);
        break;
      case 'double':
        this.writeDoubleQuoted(cps, allowBreaks);
        break;
      case 'literal':
        this.writeLiteral(cps);
        break;
    }
    this.popIndent();
  }

  private writePlain(v: Runes, allowBreaks: boolean, text: string): void {
    if (!this.whitespace) this.put(' ');
    // Plain scalars hold no line breaks; without a space past the width nothing folds either.
    const lastSpace = v.lastIndexOf(0x20);
    if (!allowBreaks || lastSpace < 0 || this.column + lastSpace <= this.bestWidth) {
      this.out += text;
      this.column += v.length;
      this.whitespace = false;
      this.indention = false;
      return;
    }
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > this.bestWidth && v[i + 1] !== 0x20) {
          this.writeIndent();
        } else this.writeCP(c);
        spaces = true;
      } else if (isBreakCP(c)) {
        if (!breaks && c === 0x0a) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.writeCP(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private writeSingleQuoted(v: Runes, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > this.bestWidth && i > 0 && i < v.length - 1 && v[i + 1] !== 0x20) {
          this.writeIndent();
        } else this.writeCP(c);
        spaces = true;
      } else if (isBreakCP(c)) {
        if (!breaks && c === 0x0a) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === 0x27) this.put("'");
        this.writeCP(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDoubleQuoted(v: Runes, allowBreaks: boolean): void {
    let spaces = false;
    this.writeIndicator('"', true, false, false);
    // libyaml's is_bom looks at the first bytes of the whole value, so a leading BOM escapes everything.
    const bom = v[0] === 0xfeff;
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      if (!isPrintableCP(c) || bom || isBreakCP(c) || c === 0x22 || c === 0x5c) {
        this.put('\\');
        switch (c) {
          case 0x00: this.put('0'); break;
          case 0x07: this.put('a'); break;
          case 0x08: this.put('b'); break;
          case 0x09: this.put('t'); break;
          case 0x0a: this.put('n'); break;
          case 0x0b: this.put('v'); break;
          case 0x0c: this.put('f'); break;
          case 0x0d: this.put('r'); break;
          case 0x1b: this.put('e'); break;
          case 0x22: this.put('"'); break;
          case 0x5c: this.put('\\'); break;
          case 0x85: this.put('N'); break;
          case 0xa0: this.put('_'); break;
          case 0x2028: this.put('L'); break;
          case 0x2029: this.put('P'); break;
          default: {
            let w: number;
            if (c <= 0xff) {
              this.put('x');
              w = 2;
            } else if (c <= 0xffff) {
              this.put('u');
              w = 4;
            } else {
              this.put('U');
              w = 8;
            }
            for (let k = (w - 1) * 4; k >= 0; k -= 4) this.put(HEXU[(c >> k) & 0xf]!);
          }
        }
        spaces = false;
      } else if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > this.bestWidth && i > 0 && i < v.length - 1) {
          this.writeIndent();
          if (v[i + 1] === 0x20) this.put('\\');
        } else this.writeCP(c);
        spaces = true;
      } else {
        this.writeCP(c);
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeBlockScalarHints(v: Runes): void {
    if (v.length > 0 && (v[0] === 0x20 || isBreakCP(v[0]!))) this.writeIndicator(String(this.bestIndent), false, false, false);
    let chomp = '';
    if (v.length === 0) chomp = '-';
    else {
      const last = v.length - 1;
      if (!isBreakCP(v[last]!)) chomp = '-';
      else if (last === 0) chomp = '+';
      else if (isBreakCP(v[last - 1]!)) chomp = '+';
    }
    if (chomp) this.writeIndicator(chomp, false, false, false);
  }

  private writeLiteral(v: Runes): void {
    this.writeIndicator('|', true, false, false);
    this.writeBlockScalarHints(v);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      if (isBreakCP(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.writeCP(c);
        this.indention = false;
        breaks = false;
      }
    }
  }
}

/** Emit yaml.v2 output for a tree already in yaml.v2's hands (exported for fromYaml round trips). */
function emitNode(root: YNode, opts: YamlOptions = {}): string {
  const e = new Emitter(opts.lineWrap === false ? Infinity : 80);
  e.document(root);
  return e.result();
}

const NOT_PLAIN: unique symbol = Symbol('notPlain');

/** Lone surrogates stand for invalid UTF-8, which JSON rewrites as U+FFFD. */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * What parsing json.Marshal's text of v would give, built without the text, for values made of
 * strings, float64s, ints, bools, nils, slices and string-keyed maps (decoded YAML and JSON, dicts and
 * lists); NOT_PLAIN for anything else (structs, other numeric kinds, MarshalJSON types, []byte, invalid
 * UTF-8, NaN and Inf, cycles), which takes the full path. Keys are in json.Marshal's order.
 */
function plainRaw(v: GoValue, depth: number): JsonRawNode | typeof NOT_PLAIN {
  switch (typeof v) {
    case 'undefined':
      return null;
    case 'boolean':
      return v;
    case 'string':
      return SURROGATE.test(v) ? NOT_PLAIN : v;
    case 'number':
      return Number.isFinite(v) ? { numberText: jsonFloat(v, 64) } : NOT_PLAIN;
    case 'bigint':
      return { numberText: v.toString() };
  }
  if (v === null) return null;
  if (depth > 100) return NOT_PLAIN;
  if (v instanceof GoNum) {
    const k = v.type.kind;
    return !v.type.marshalJSON && (isIntKind(k) || isUintKind(k)) ? { numberText: String(v.v) } : NOT_PLAIN;
  }
  if (Array.isArray(v)) {
    const t = (v as { [GO_TYPE]?: GoType })[GO_TYPE];
    if (t !== undefined && (t.marshalJSON || t.kind !== 'slice' || (t.elem !== undefined && t.elem.kind === 'uint8'))) return NOT_PLAIN;
    const items: JsonRawNode[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = plainRaw(v[i], depth + 1);
      if (x === NOT_PLAIN) return NOT_PLAIN;
      items[i] = x;
    }
    return items;
  }
  if (typeof v !== 'object') return NOT_PLAIN;
  if (v instanceof Object && Object.getPrototypeOf(v) !== Object.prototype) return NOT_PLAIN;
  const m = v as GoMap;
  const t = m[GO_TYPE];
  if (t !== undefined && (t.marshalJSON || t.kind !== 'map' || t.key === undefined || t.key.kind !== 'string')) return NOT_PLAIN;
  const keys = sortKeys(Object.keys(m));
  const entries: [string, JsonRawNode][] = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (SURROGATE.test(k)) return NOT_PLAIN;
    const x = plainRaw(m[k], depth + 1);
    if (x === NOT_PLAIN) return NOT_PLAIN;
    entries[i] = [k, x];
  }
  return { entries };
}

/** A string toNode takes as it is: readable to yaml.v2, no NEL to fold, valid UTF-16. */
const AS_IS = /^[^\x7f-\x9f\ufffe\uffff\ud800-\udfff]*$/;

/**
 * toNode(plainRaw(v)) in one walk, for the common case: NOT_PLAIN when plainRaw would say so, and
 * also when a check of toNode could fail (that value then takes the two-step path, which gives the
 * errors in Go's order).
 */
function plainNode(v: GoValue, depth: number): YNode | typeof NOT_PLAIN {
  switch (typeof v) {
    case 'undefined':
      return NULL_NODE;
    case 'boolean':
      return v ? TRUE_NODE : FALSE_NODE;
    case 'string': {
      const info = v.length <= CACHED_LENGTH ? scalarInfo(v) : undefined;
      return asIs(v, info) ? stringNode(v, info) : NOT_PLAIN;
    }
    case 'number':
      if (!Number.isFinite(v)) return NOT_PLAIN;
      // json.Marshal writes an integral float64 below 1e21 as its digits, which yaml.v2 reads as an int
      // and writes back the same ("-0" reads as 0, as String(-0) is).
      if (Number.isInteger(v) && v < 1e15 && v > -1e15) return { kind: 'scalar', value: String(v), style: 'plain', info: undefined };
      return numberNode(jsonFloat(v, 64));
    case 'bigint':
      return numberNode(v.toString());
  }
  if (v === null) return NULL_NODE;
  if (depth > 100) return NOT_PLAIN;
  if (v instanceof GoNum) {
    const k = v.type.kind;
    return !v.type.marshalJSON && (isIntKind(k) || isUintKind(k)) ? numberNode(String(v.v)) : NOT_PLAIN;
  }
  if (Array.isArray(v)) {
    const t = (v as { [GO_TYPE]?: GoType })[GO_TYPE];
    if (t !== undefined && (t.marshalJSON || t.kind !== 'slice' || (t.elem !== undefined && t.elem.kind === 'uint8'))) return NOT_PLAIN;
    const items: YNode[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = plainNode(v[i], depth + 1);
      if (x === NOT_PLAIN) return NOT_PLAIN;
      items[i] = x;
    }
    return { kind: 'seq', items };
  }
  if (typeof v !== 'object') return NOT_PLAIN;
  if (v instanceof Object && Object.getPrototypeOf(v) !== Object.prototype) return NOT_PLAIN;
  const m = v as GoMap;
  const t = m[GO_TYPE];
  if (t !== undefined && (t.marshalJSON || t.kind !== 'map' || t.key === undefined || t.key.kind !== 'string')) return NOT_PLAIN;
  let keys = Object.keys(m);
  let simple = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k.length * 6 + 2 > 1024) return NOT_PLAIN;
    const info = k.length <= CACHED_LENGTH ? scalarInfo(k) : undefined;
    if (!asIs(k, info)) return NOT_PLAIN;
    if (simple) simple = info === undefined ? ORDERED_AS_UNITS.test(k) : (info.units ??= ORDERED_AS_UNITS.test(k));
  }
  // Otherwise from json.Marshal's order, as toNode sorts them (yaml.v2's order may tie).
  keys = simple ? sortKeys(keys) : sortYamlKeys(sortKeys(keys));
  const pairs: [YNode, YNode][] = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = plainNode(m[k], depth + 1);
    if (x === NOT_PLAIN) return NOT_PLAIN;
    pairs[i] = [stringNode(k), x];
  }
  return { kind: 'map', pairs };
}

const NULL_NODE: YNode = { kind: 'scalar', value: 'null', style: 'plain', info: undefined };
const TRUE_NODE: YNode = { kind: 'scalar', value: 'true', style: 'plain', info: undefined };
const FALSE_NODE: YNode = { kind: 'scalar', value: 'false', style: 'plain', info: undefined };

/**
 * How gopkg.in/yaml.v2 writes: long scalars fold at 80 columns (lineWrap, v2.2 and v2.4), or never (v2.3.0,
 * which dropped the wrapping that v2.4.0 brought back).
 */
export interface YamlOptions {
  lineWrap?: boolean;
}

/** sigs.k8s.io/yaml.Marshal(v): the YAML text, ending in a newline. Throws GoYamlError (Go's text). */
export function toYaml(v: GoValue, opts: YamlOptions = {}): string {
  const node = plainNode(v, 0);
  if (node !== NOT_PLAIN) return emitNode(node, opts);
  const raw = plainRaw(v, 0);
  if (raw !== NOT_PLAIN) return emitNode(toNode(raw), opts);
  let json: string;
  try {
    json = goJsonMarshal(v);
  } catch (e) {
    // the stack or a length JavaScript cannot hold is not Go's failure: Helm's toYaml would hide it as ""
    if (e instanceof RangeError) throw e;
    throw new GoYamlError('error marshaling into JSON: ' + (e as Error).message);
  }
  return jsonToYaml(json, opts);
}

/** sigs.k8s.io/yaml.JSONToYAML. */
export function jsonToYaml(json: string, opts: YamlOptions = {}): string {
  let raw: JsonRawNode;
  try {
    raw = parseJsonRaw(json);
  } catch (e) {
    if (e instanceof RangeError) throw e;
    throw new GoYamlError('error converting JSON to YAML: ' + (e as Error).message);
  }
  return emitNode(toNode(raw), opts);
}

/** Helm's toYaml: the same text without its final newline, and "" when marshalling fails. */
export function helmToYaml(v: GoValue): string {
  try {
    const s = toYaml(v);
    return s.endsWith('\n') ? s.slice(0, -1) : s;
  } catch (e) {
    if (e instanceof GoYamlError) return '';
    throw e;
  }
}
