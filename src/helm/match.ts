// The two pattern languages a chart meets: Go's path/filepath.Match (.helmignore rules, `helm template
// --show-only`) and gobwas/glob with '/' as separator (.Files.Glob, where `**` crosses directories).
//
// Patterns come from charts and templates, so neither is a backtracking JavaScript RegExp: filepath
// patterns run Go's own algorithm (each star chunk is tried at the positions after the previous one,
// never undoing an earlier chunk: O(name × pattern)), and globs are translated to RE2 syntax and run by
// re2js (linear time).
//
// Mirrors: go1.19 src/path/filepath/match.go; github.com/gobwas/glob v0.2.3 {glob.go,syntax/lexer/lexer.go,syntax/ast/parser.go}
// Proven by: test/helm/chart.test.ts, test/helm/glob-hostile.test.ts

import { RE2JS } from 're2js';
import { decodeRune } from '../go/strconv/strconv.js';

// ---------- path/filepath.Match ----------

const STAR = 0x2a;
const QUESTION = 0x3f;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const BACKSLASH = 0x5c;
const CARET = 0x5e;
const DASH = 0x2d;
const SLASH = 0x2f;

/** One element of a chunk: a byte to equal, `?` (one rune, not '/'), or a class of rune ranges. */
type Token = number | typeof ANY_RUNE | RuneClass;
const ANY_RUNE = -1;
interface RuneClass {
  negated: boolean;
  /** lo, hi pairs */
  ranges: number[];
}

/** A run of the pattern between stars: `star` says it follows one or more '*'. */
interface Chunk {
  star: boolean;
  tokens: Token[];
}

/** Go's scanChunk: leading stars, then bytes up to the next '*' outside brackets. */
function scanChunks(p: Uint8Array): { star: boolean; start: number; end: number }[] {
  const out: { star: boolean; start: number; end: number }[] = [];
  let i = 0;
  while (i < p.length) {
    let star = false;
    while (i < p.length && p[i] === STAR) {
      star = true;
      i++;
    }
    const start = i;
    let inRange = false;
    for (; i < p.length; i++) {
      const c = p[i];
      if (c === BACKSLASH) {
        if (i + 1 < p.length) i++;
      } else if (c === OPEN) inRange = true;
      else if (c === CLOSE) inRange = false;
      else if (c === STAR && !inRange) break;
    }
    out.push({ star, start, end: i });
  }
  return out;
}

/** One chunk's tokens, or undefined where Go's matchChunk reports ErrBadPattern. */
function parseChunk(p: Uint8Array, start: number, end: number): Token[] | undefined {
  const tokens: Token[] = [];
  // Go's getEsc: one (possibly escaped) rune of a class, which must not end the chunk
  const esc = (i: number): [number, number] | undefined => {
    if (i >= end || p[i] === DASH || p[i] === CLOSE) return undefined;
    if (p[i] === BACKSLASH) {
      i++;
      if (i >= end) return undefined;
    }
    const [r, n] = decodeRune(p.subarray(0, end), i);
    if (r < 0) return undefined;
    if (i + n >= end) return undefined;
    return [r, i + n];
  };
  let i = start;
  while (i < end) {
    const c = p[i]!;
    if (c === OPEN) {
      i++;
      let negated = false;
      if (i < end && p[i] === CARET) {
        negated = true;
        i++;
      }
      const ranges: number[] = [];
      for (;;) {
        if (i < end && p[i] === CLOSE && ranges.length > 0) {
          i++;
          break;
        }
        const lo = esc(i);
        if (!lo) return undefined;
        i = lo[1];
        let hi = lo[0];
        if (p[i] === DASH) {
          const h = esc(i + 1);
          if (!h) return undefined;
          hi = h[0];
          i = h[1];
        }
        ranges.push(lo[0], hi);
      }
      tokens.push({ negated, ranges });
    } else if (c === QUESTION) {
      tokens.push(ANY_RUNE);
      i++;
    } else if (c === BACKSLASH) {
      if (i + 1 >= end) return undefined;
      tokens.push(p[i + 1]!);
      i += 2;
    } else {
      tokens.push(c);
      i++;
    }
  }
  return tokens;
}

/** Steps taken by filepath matching so far: callers that match many names bound their work with it. */
let steps = 0;

/** The steps taken since the last call (each a byte or rune compared). */
export function takeFilepathSteps(): number {
  const n = steps;
  steps = 0;
  return n;
}

/** Where the chunk ends when matched at s[at], or -1. */
function matchChunk(tokens: Token[], s: Uint8Array, at: number): number {
  let i = at;
  const len = s.length;
  for (let k = 0; k < tokens.length; k++) {
    steps++;
    if (i >= len) return -1;
    const t = tokens[k]!;
    if (typeof t === 'number') {
      if (t === ANY_RUNE) {
        const b = s[i]!;
        if (b === SLASH) return -1;
        i += b < 0x80 ? 1 : decodeRune(s, i)[1];
      } else {
        if (s[i] !== t) return -1;
        i++;
      }
    } else {
      let r = s[i]!;
      if (r < 0x80) i++;
      else {
        const [rr, n] = decodeRune(s, i);
        // a byte that is not UTF-8 is U+FFFD, as Go's utf8.DecodeRune gives it
        r = rr < 0 ? 0xfffd : rr;
        i += n;
      }
      let hit = false;
      const ranges = t.ranges;
      for (let q = 0; q < ranges.length && !hit; q += 2) hit = ranges[q]! <= r && r <= ranges[q + 1]!;
      steps += ranges.length >> 1;
      if (hit === t.negated) return -1;
    }
  }
  return i;
}

const utf8 = new TextEncoder();

/** The bytes as a string, where they are whole UTF-8 (a run of a pattern's literal bytes). */
function literalText(bytes: number[]): string | undefined {
  const text = Buffer.from(bytes).toString('utf8');
  return text.includes('\ufffd') ? undefined : text;
}

/** A filepath.Match pattern compiled once, to test many names with. */
export class FilepathPattern {
  /** False where Go's Match reports ErrBadPattern (for every name: the whole pattern is checked). */
  readonly valid: boolean;
  private readonly chunks: Chunk[] = [];
  /** The pattern is this literal name (no metacharacters). */
  private readonly literal: string | undefined;
  /** Every match starts with this (the first chunk's literal start, when no star leads). */
  private prefix = '';
  /** Every match ends with this (the last chunk, when it is all literal bytes). */
  private suffix = '';
  /** Every match contains these (the runs of literal bytes). */
  private readonly runs: string[] = [];

  constructor(readonly pattern: string) {
    if (!/[*?[\\]/.test(pattern)) {
      this.valid = true;
      this.literal = pattern;
      return;
    }
    const p = utf8.encode(pattern);
    let valid = true;
    for (const c of scanChunks(p)) {
      const tokens = parseChunk(p, c.start, c.end);
      if (!tokens) {
        valid = false;
        break;
      }
      this.chunks.push({ star: c.star, tokens });
    }
    this.valid = valid;
    if (!valid) return;
    const isByte = (t: Token): t is number => typeof t === 'number' && t !== ANY_RUNE;
    for (const [ci, c] of this.chunks.entries()) {
      let run: number[] = [];
      const flush = (atStart: boolean, atEnd: boolean): void => {
        const text = run.length > 0 ? literalText(run) : undefined;
        run = [];
        if (text === undefined) return;
        if (atStart && ci === 0 && !c.star) this.prefix = text;
        else if (atEnd && ci === this.chunks.length - 1) this.suffix = text;
        else this.runs.push(text);
      };
      let start = true;
      for (const t of c.tokens) {
        if (isByte(t)) run.push(t);
        else {
          flush(start, false);
          start = false;
        }
      }
      flush(start, start);
    }
  }

  /**
   * filepath.Match(pattern, name) with '/' as separator; a malformed pattern matches nothing. `bytes`,
   * if given, gives the name in UTF-8 (a caller testing one name against many patterns encodes it once).
   */
  test(name: string, bytes?: () => Uint8Array): boolean {
    if (!this.valid) return false;
    if (this.literal !== undefined) return name === this.literal;
    steps += 1 + this.runs.length;
    if (!name.startsWith(this.prefix) || !name.endsWith(this.suffix)) return false;
    for (const r of this.runs) if (!name.includes(r)) return false;
    const s = bytes ? bytes() : utf8.encode(name);
    const chunks = this.chunks;
    let at = 0;
    for (let c = 0; c < chunks.length; c++) {
      const { star, tokens } = chunks[c]!;
      const last = c === chunks.length - 1;
      // a trailing star takes the rest of the name, if it has no '/'
      if (star && tokens.length === 0) return s.indexOf(SLASH, at) === -1;
      const t = matchChunk(tokens, s, at);
      if (t >= 0 && (t === s.length || !last)) {
        at = t;
        continue;
      }
      if (!star) return false;
      let next = -1;
      for (let i = at; i < s.length && s[i] !== SLASH; i++) {
        const u = matchChunk(tokens, s, i + 1);
        if (u < 0 || (last && u < s.length)) continue;
        next = u;
        break;
      }
      if (next < 0) return false;
      at = next;
    }
    return at === s.length;
  }
}

/** Go's filepath.Match on '/'-separated names: `*` and `?` never match '/'; `[...]` classes, `\` escapes.
 *  A malformed pattern matches nothing (Go returns ErrBadPattern, which callers treat as no match). */
export function filepathMatch(pattern: string, name: string): boolean {
  return new FilepathPattern(pattern).test(name);
}

// ---------- gobwas/glob ----------

/** A pattern (a sequence) or an anyOf (alternatives, each a pattern). */
interface Branch {
  kind: 'pattern' | 'anyOf';
  children: GlobNode[];
  parent?: Branch;
}
type GlobNode =
  | Branch
  | { kind: 'text'; text: number[] }
  | { kind: 'any' | 'super' | 'single' }
  | { kind: 'list'; chars: number[]; not: boolean }
  | { kind: 'range'; lo: number; hi: number; not: boolean };

type GlobToken =
  | { t: 'eof' | 'any' | 'super' | 'single' | 'not' | 'sep' | 'rangeOpen' | 'rangeClose' | 'between' | 'termsOpen' | 'termsClose' }
  | { t: 'text'; runes: number[] }
  | { t: 'lo' | 'hi'; rune: number };

const EOF_RUNE = 0;

/**
 * gobwas/glob's lexer, read for read: the same runes end a text in the same places, a NUL rune is its
 * end of input, a rune that is not UTF-8 (here U+FFFD or a lone surrogate) is an error. Undefined
 * where it reports an error.
 */
function lexGlob(pattern: string): GlobToken[] | undefined {
  const runes: number[] = [];
  for (const ch of pattern) runes.push(ch.codePointAt(0)!);
  const out: GlobToken[] = [];
  let pos = 0;
  let err = false;
  let last = EOF_RUNE;
  let lastSize = 0;
  let pushedBack = false;
  let termsLevel = 0;
  const peek = (): [number, number] => {
    if (pos >= runes.length) return [EOF_RUNE, 0];
    const r = runes[pos]!;
    if (r === 0xfffd || (r >= 0xd800 && r <= 0xdfff)) {
      err = true;
      return [EOF_RUNE, 0];
    }
    return [r, 1];
  };
  const read = (): number => {
    if (pushedBack) {
      pushedBack = false;
      pos += lastSize;
      return last;
    }
    const [r, w] = peek();
    pos += w;
    last = r;
    lastSize = w;
    return r;
  };
  const unread = (): void => {
    if (pushedBack) {
      err = true;
      return;
    }
    pos -= lastSize;
    pushedBack = true;
  };
  const text = (breakers: readonly number[]): void => {
    const data: number[] = [];
    let escaped = false;
    for (;;) {
      const r = read();
      if (r === EOF_RUNE) break;
      if (!escaped) {
        if (r === BACKSLASH) {
          escaped = true;
          continue;
        }
        if (breakers.includes(r)) {
          unread();
          break;
        }
      }
      escaped = false;
      data.push(r);
    }
    if (data.length > 0) out.push({ t: 'text', runes: data });
  };
  const range = (): void => {
    let wantHi = false;
    let wantClose = false;
    let seenNot = false;
    for (;;) {
      const r = read();
      if (r === EOF_RUNE) {
        err = true;
        return;
      }
      if (wantClose) {
        if (r !== CLOSE) err = true;
        else out.push({ t: 'rangeClose' });
        return;
      }
      if (wantHi) {
        out.push({ t: 'hi', rune: r });
        wantClose = true;
        continue;
      }
      if (!seenNot && r === 0x21 /* ! */) {
        out.push({ t: 'not' });
        seenNot = true;
        continue;
      }
      const [n, w] = peek();
      if (n === DASH) {
        pos += w;
        out.push({ t: 'lo', rune: r }, { t: 'between' });
        wantHi = true;
        continue;
      }
      unread();
      text([CLOSE]);
      wantClose = true;
    }
  };
  const TEXT_BREAKERS = [QUESTION, STAR, OPEN, 0x7b];
  const TERMS_BREAKERS = [...TEXT_BREAKERS, 0x7d, 0x2c];
  // every step reads at least one rune or ends: bounded by the pattern's length
  for (let guard = 0; guard <= runes.length + 1; guard++) {
    if (err) return undefined;
    const r = read();
    if (err) return undefined;
    if (r === EOF_RUNE) {
      out.push({ t: 'eof' });
      return out;
    }
    if (r === 0x7b /* { */) {
      termsLevel++;
      out.push({ t: 'termsOpen' });
    } else if (r === 0x2c /* , */ && termsLevel > 0) out.push({ t: 'sep' });
    else if (r === 0x7d /* } */ && termsLevel > 0) {
      out.push({ t: 'termsClose' });
      termsLevel--;
    } else if (r === OPEN) {
      out.push({ t: 'rangeOpen' });
      range();
    } else if (r === QUESTION) out.push({ t: 'single' });
    else if (r === STAR) {
      if (read() === STAR) out.push({ t: 'super' });
      else {
        unread();
        out.push({ t: 'any' });
      }
    } else {
      unread();
      text(termsLevel > 0 ? TERMS_BREAKERS : TEXT_BREAKERS);
    }
  }
  return err ? undefined : out;
}

/** gobwas/glob's parser: the tree of a pattern, or undefined where it reports an error. */
function parseGlob(tokens: GlobToken[]): GlobNode | undefined {
  const root: Branch = { kind: 'pattern', children: [] };
  let tree = root;
  const insert = (parent: Branch, child: GlobNode): void => {
    if ('children' in child) child.parent = parent;
    parent.children.push(child);
  };
  let i = 0;
  while (i < tokens.length) {
    const tok = tokens[i++]!;
    switch (tok.t) {
      case 'eof':
        return root;
      case 'text':
        insert(tree, { kind: 'text', text: tok.runes });
        break;
      case 'any':
      case 'super':
      case 'single':
        insert(tree, { kind: tok.t });
        break;
      case 'termsOpen': {
        const a: Branch = { kind: 'anyOf', children: [] };
        insert(tree, a);
        const p: Branch = { kind: 'pattern', children: [] };
        insert(a, p);
        tree = p;
        break;
      }
      case 'sep': {
        const p: Branch = { kind: 'pattern', children: [] };
        insert(tree.parent!, p);
        tree = p;
        break;
      }
      case 'termsClose':
        tree = tree.parent!.parent!;
        break;
      case 'rangeOpen': {
        let not = false;
        let lo = 0;
        let hi = 0;
        let chars: number[] = [];
        for (;;) {
          const r = tokens[i++];
          if (!r || r.t === 'eof') return undefined;
          if (r.t === 'not') not = true;
          else if (r.t === 'lo') lo = r.rune;
          else if (r.t === 'hi') {
            hi = r.rune;
            if (hi < lo) return undefined;
          } else if (r.t === 'text') chars = r.runes;
          else if (r.t === 'rangeClose') {
            const isRange = lo !== 0 && hi !== 0;
            if ((chars.length > 0) === isRange) return undefined;
            insert(tree, isRange ? { kind: 'range', lo, hi, not } : { kind: 'list', chars, not });
            break;
          }
        }
        break;
      }
      default:
        return undefined;
    }
  }
  return root;
}

const re2Rune = (r: number): string => `\\x{${r.toString(16)}}`;

/** The tree as an RE2 expression over code points, '/' the separator. */
function globToRe2(root: GlobNode): string {
  // an explicit stack: a pattern nests braces as deep as it likes
  let out = '';
  const work: (GlobNode | string)[] = [root];
  while (work.length > 0) {
    const n = work.pop()!;
    if (typeof n === 'string') {
      out += n;
      continue;
    }
    switch (n.kind) {
      case 'pattern':
        for (let k = n.children.length - 1; k >= 0; k--) work.push(n.children[k]!);
        break;
      case 'anyOf':
        work.push(')');
        for (let k = n.children.length - 1; k >= 0; k--) {
          work.push(n.children[k]!);
          if (k > 0) work.push('|');
        }
        work.push('(?:');
        break;
      case 'text':
        out += n.text.map(re2Rune).join('');
        break;
      case 'any':
        out += '[^/]*';
        break;
      case 'super':
        out += '(?s:.)*';
        break;
      case 'single':
        out += '[^/]';
        break;
      case 'list':
        out += `[${n.not ? '^' : ''}${n.chars.map(re2Rune).join('')}]`;
        break;
      case 'range':
        out += `[${n.not ? '^' : ''}${re2Rune(n.lo)}-${re2Rune(n.hi)}]`;
        break;
    }
  }
  return out;
}

export interface GlobMatcher {
  test(name: string): boolean;
}

/** gobwas/glob.Compile(pattern, '/'): `*` within a path segment, `**` across them, `?`, `[...]`,
 *  `[!...]`, `{a,b}` alternatives, `\` escapes. Undefined for a pattern that does not compile. */
export function compileGlob(pattern: string): GlobMatcher | undefined {
  const tokens = lexGlob(pattern);
  const tree = tokens && parseGlob(tokens);
  if (!tree) return undefined;
  const re = RE2JS.compile(globToRe2(tree));
  return { test: (name) => re.matches(name) };
}
