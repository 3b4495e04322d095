// A small POSIX-shell reader for hook and entrypoint commands: enough grammar (lists, pipelines,
// and-or, while/until/for/if/case, groups, `sh -c`, command substitution) to tell whether a script
// waits for the proxy, runs in the background, loops forever, or sleeps for how long.
// It never throws: text it cannot read is taken as plain words.

import { re2 } from '../sprig/re2.js';

// ---------- lexer ----------

interface Word {
  kind: 'word';
  /** Source text, quotes included. */
  raw: string;
  /** With quotes removed (substitutions kept as written). */
  value: string;
  /** Bodies of `$(...)` and backquotes inside the word. */
  subs: string[];
  quoted: boolean;
}
interface Op {
  kind: 'op';
  op: string;
}
type Token = Word | Op;

const OPS = ['&&', '||', ';;', ';', '&', '|', '(', ')', '\n'];

function lex(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '#') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (op) {
      // `|&` pipes stderr too; `&>` is a redirection
      if (op === '&' && src[i + 1] === '>') {
        i = skipRedirect(src, i + 2);
        continue;
      }
      if (op === '|' && src[i + 1] === '&') i++;
      out.push({ kind: 'op', op });
      i += op.length;
      continue;
    }
    if (c === '<' || c === '>') {
      i = skipRedirect(src, i);
      continue;
    }
    // a word
    let raw = '';
    let value = '';
    const subs: string[] = [];
    let quoted = false;
    /** Take src[from, to) into the word as written; returns to. */
    const verbatim = (from: number, to: number): number => {
      raw += src.slice(from, to);
      value += src.slice(from, to);
      return to;
    };
    while (i < n) {
      const ch = src[i]!;
      if (' \t\r\n;&|()'.includes(ch)) break;
      if ((ch === '<' || ch === '>') && /^\d*$/.test(raw)) {
        // `2>&1`, `1>/dev/null`: a redirection, not part of the word
        raw = '';
        value = '';
        i = skipRedirect(src, i);
        continue;
      }
      if (ch === '<' || ch === '>') break;
      if (ch === '\\') {
        raw += src.slice(i, i + 2);
        value += src[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (ch === "'") {
        const j = src.indexOf("'", i + 1);
        const end = j < 0 ? n : j;
        raw += src.slice(i, end + 1);
        value += src.slice(i + 1, end);
        quoted = true;
        i = end + 1;
        continue;
      }
      if (ch === '"') {
        quoted = true;
        let j = i + 1;
        raw += '"';
        while (j < n && src[j] !== '"') {
          if (src[j] === '\\' && j + 1 < n) {
            raw += src.slice(j, j + 2);
            value += '"$`\\\n'.includes(src[j + 1]!) ? src[j + 1] : src.slice(j, j + 2);
            j += 2;
            continue;
          }
          const past = readSubstitution(src, j, subs);
          if (past !== undefined) {
            j = verbatim(j, past);
            continue;
          }
          j = verbatim(j, j + 1);
        }
        raw += '"';
        i = j + 1;
        continue;
      }
      const past = readSubstitution(src, i, subs);
      if (past !== undefined) {
        i = verbatim(i, past);
        continue;
      }
      if (ch === '$' && src[i + 1] === '{') {
        const end = src.indexOf('}', i);
        i = verbatim(i, (end < 0 ? n - 1 : end) + 1);
        continue;
      }
      i = verbatim(i, i + 1);
    }
    if (raw !== '') out.push({ kind: 'word', raw, value, subs, quoted });
  }
  return out;
}

/**
 * The index just past the `$(...)` or backquoted command substitution starting at i, if one does; its
 * command is added to subs (not for `$((...))`, which is arithmetic).
 */
function readSubstitution(src: string, i: number, subs: string[]): number | undefined {
  if (src[i] === '$' && src[i + 1] === '(') {
    const end = matchParen(src, i + 1);
    if (src[i + 2] !== '(') subs.push(src.slice(i + 2, end));
    return end + 1;
  }
  if (src[i] === '`') {
    const close = src.indexOf('`', i + 1);
    const end = close < 0 ? src.length : close;
    subs.push(src.slice(i + 1, end));
    return end + 1;
  }
  return undefined;
}

/** Index of the `)` closing the `(` at open, skipping quotes and nested parens. */
function matchParen(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1);
      if (j < 0) return src.length - 1;
      i = j;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== '"') {
        if (src[j] === '\\') j++;
        else if (src[j] === '$' && src[j + 1] === '(') j = matchParen(src, j + 1);
        j++;
      }
      i = j;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return src.length - 1;
}

function skipRedirect(src: string, i: number): number {
  while (i < src.length && '<>&-0123456789'.includes(src[i]!)) i++;
  while (i < src.length && (src[i] === ' ' || src[i] === '\t')) i++;
  // the target word (`2>&1` has none left)
  if (src[i - 1] === '&' || /\d/.test(src[i - 1] ?? '')) {
    // `>&2` consumed the fd already
    if (/[&]\d?$/.test(src.slice(Math.max(0, i - 2), i))) return i;
  }
  while (i < src.length && !' \t\r\n;&|()<>'.includes(src[i]!)) {
    if (src[i] === '"' || src[i] === "'") {
      const j = src.indexOf(src[i]!, i + 1);
      i = j < 0 ? src.length : j + 1;
    } else i++;
  }
  return i;
}

// ---------- parser ----------

export type Node =
  | { t: 'simple'; argv: Word[] }
  | { t: 'pipeline'; cmds: Node[]; negated: boolean }
  | { t: 'andor'; items: Node[]; ops: string[] }
  | { t: 'list'; items: { node: Node; background: boolean }[] }
  | { t: 'loop'; kind: 'while' | 'until'; cond: Node; body: Node; text: string }
  | { t: 'for'; words: Word[] | undefined; arith?: string; body: Node; text: string }
  | { t: 'if'; clauses: { cond: Node; body: Node }[]; otherwise?: Node }
  | { t: 'group'; body: Node }
  | { t: 'case'; arms: Node[] };

const RESERVED_END = new Set(['then', 'elif', 'else', 'fi', 'do', 'done', 'esac', '}', ';;']);

class Parser {
  private pos = 0;
  constructor(
    private readonly toks: Token[],
    private readonly src: string,
  ) {}

  private peek(): Token | undefined {
    return this.toks[this.pos];
  }
  private isWord(v: string): boolean {
    const t = this.peek();
    return t?.kind === 'word' && !t.quoted && t.value === v;
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t?.kind === 'op' && t.op === v;
  }
  private skipNewlines(): void {
    while (this.isOp('\n') || this.isOp(';')) this.pos++;
  }
  /** Compound commands the input ends inside of (`while ...` without `done`): a shell rejects them. */
  readonly unclosed: string[] = [];
  /** Operators where a command must be (`&&` opening a line, `|` with nothing after it): a shell rejects them. */
  readonly misplaced: string[] = [];

  /** The operator at pos has no command before it: what the shell says about it. */
  private noCommandBefore(op: string): void {
    const prev = this.toks[this.pos - 1];
    const lineStart = prev?.kind === 'op' && prev.op === '\n';
    this.misplaced.push(lineStart ? `a line that begins with \`${op}\` (it belongs at the end of the line before)` : `\`${op}\` with no command before it`);
  }

  private expectWord(v: string): void {
    this.skipNewlines();
    if (this.isWord(v)) this.pos++;
    else if (this.pos >= this.toks.length) this.unclosed.push(v);
  }

  parseAll(): Node {
    const list = this.list();
    // anything left (stray `)` or keyword) is read as more commands
    while (this.pos < this.toks.length) {
      this.pos++;
      const more = this.list();
      if (more.t === 'list') (list as Extract<Node, { t: 'list' }>).items.push(...more.items);
    }
    return list;
  }

  list(): Node {
    const items: { node: Node; background: boolean }[] = [];
    for (;;) {
      while (this.isOp('\n') || this.isOp(';')) this.pos++;
      const t = this.peek();
      if (!t) break;
      if (t.kind === 'op' && (t.op === ')' || t.op === ';;')) break;
      if (t.kind === 'word' && !t.quoted && RESERVED_END.has(t.value)) break;
      const start = this.pos;
      const node = this.andOr();
      let background = false;
      if (this.isOp('&')) {
        if (this.pos === start) this.noCommandBefore('&');
        background = true;
        this.pos++;
      }
      items.push({ node, background });
      if (this.pos === start) this.pos++; // never stall on unexpected input
    }
    return { t: 'list', items };
  }

  private andOr(): Node {
    const start = this.pos;
    const items = [this.pipeline()];
    const ops: string[] = [];
    while (this.isOp('&&') || this.isOp('||')) {
      const op = (this.peek() as Op).op;
      if (this.pos === start) this.noCommandBefore(op);
      ops.push(op);
      this.pos++;
      while (this.isOp('\n')) this.pos++;
      const at = this.pos;
      items.push(this.pipeline());
      if (this.pos === at) this.misplaced.push(`\`${op}\` with no command after it`);
    }
    return items.length === 1 ? items[0]! : { t: 'andor', items, ops };
  }

  private pipeline(): Node {
    let negated = false;
    if (this.isWord('!')) {
      negated = true;
      this.pos++;
    }
    const start = this.pos;
    const cmds = [this.command()];
    while (this.isOp('|')) {
      if (this.pos === start) this.noCommandBefore('|');
      this.pos++;
      while (this.isOp('\n')) this.pos++;
      const at = this.pos;
      cmds.push(this.command());
      if (this.pos === at) this.misplaced.push('`|` with no command after it');
    }
    return cmds.length === 1 && !negated ? cmds[0]! : { t: 'pipeline', cmds, negated };
  }

  private command(): Node {
    const t = this.peek();
    const startTok = this.pos;
    if (t?.kind === 'op' && t.op === '(') {
      this.pos++;
      const body = this.list();
      if (this.isOp(')')) this.pos++;
      this.trailingWords();
      return { t: 'group', body };
    }
    if (t?.kind === 'word' && !t.quoted) {
      switch (t.value) {
        case 'while':
        case 'until': {
          this.pos++;
          const cond = this.list();
          this.expectWord('do');
          const body = this.list();
          this.expectWord('done');
          this.trailingWords();
          return { t: 'loop', kind: t.value, cond, body, text: this.textOf(startTok) };
        }
        case 'for': {
          this.pos++;
          let words: Word[] | undefined;
          let arith: string | undefined;
          const v = this.peek();
          if (v?.kind === 'op' && v.op === '(') {
            // for ((i=0; i<N; i++))
            const from = this.pos;
            let depth = 0;
            while (this.pos < this.toks.length) {
              const x = this.toks[this.pos]!;
              if (x.kind === 'op' && x.op === '(') depth++;
              if (x.kind === 'op' && x.op === ')') {
                depth--;
                if (depth === 0) {
                  this.pos++;
                  break;
                }
              }
              this.pos++;
            }
            arith = this.textOf(from);
          } else {
            this.pos++; // the variable
            if (this.isWord('in')) {
              this.pos++;
              words = [];
              while (this.peek()?.kind === 'word' && !this.isWord('do')) words.push(this.toks[this.pos++] as Word);
            }
          }
          this.expectWord('do');
          const body = this.list();
          this.expectWord('done');
          this.trailingWords();
          return { t: 'for', words, arith, body, text: this.textOf(startTok) };
        }
        case 'if': {
          this.pos++;
          const clauses: { cond: Node; body: Node }[] = [];
          let otherwise: Node | undefined;
          for (;;) {
            const cond = this.list();
            this.expectWord('then');
            const body = this.list();
            clauses.push({ cond, body });
            if (this.isWord('elif')) {
              this.pos++;
              continue;
            }
            if (this.isWord('else')) {
              this.pos++;
              otherwise = this.list();
            }
            break;
          }
          this.expectWord('fi');
          this.trailingWords();
          return { t: 'if', clauses, otherwise };
        }
        case '{': {
          this.pos++;
          const body = this.list();
          this.expectWord('}');
          this.trailingWords();
          return { t: 'group', body };
        }
        case 'case': {
          this.pos++;
          const arms: Node[] = [];
          while (this.pos < this.toks.length && !this.isWord('in')) this.pos++;
          this.pos++;
          for (;;) {
            this.skipNewlines();
            if (this.pos >= this.toks.length || this.isWord('esac')) break;
            // pattern words up to `)`
            while (this.pos < this.toks.length && !this.isOp(')')) this.pos++;
            this.pos++;
            arms.push(this.list());
            if (this.isOp(';;')) this.pos++;
          }
          if (this.isWord('esac')) this.pos++;
          return { t: 'case', arms };
        }
        case 'function': {
          // function bodies do not run where they are defined
          this.pos++;
          this.pos++;
          if (this.isOp('(')) this.pos += 2;
          this.skipNewlines();
          this.command();
          return { t: 'simple', argv: [] };
        }
      }
    }
    const argv: Word[] = [];
    while (this.peek()?.kind === 'word') {
      argv.push(this.toks[this.pos++] as Word);
      // name() { ...; } defines a function
      if (argv.length === 1 && this.isOp('(') && this.toks[this.pos + 1]?.kind === 'op' && (this.toks[this.pos + 1] as Op).op === ')') {
        this.pos += 2;
        this.skipNewlines();
        this.command();
        return { t: 'simple', argv: [] };
      }
    }
    return { t: 'simple', argv };
  }

  /** Words after a compound command (redirect targets already dropped by the lexer). */
  private trailingWords(): void {
    while (this.peek()?.kind === 'word' && !RESERVED_END.has((this.peek() as Word).value)) this.pos++;
  }

  private textOf(fromTok: number): string {
    return this.toks
      .slice(fromTok, this.pos)
      .map((t) => (t.kind === 'word' ? t.raw : t.op === '\n' ? ';' : t.op))
      .join(' ')
      .replace(/ ; /g, '; ');
  }
}

export function parseShell(src: string): Node {
  return new Parser(lex(src), src).parseAll();
}

/**
 * Why a POSIX shell would reject the script before running it to the end: a quote, a substitution
 * or a compound command left open when the text ends, or an operator where a command must be (a line
 * that begins with `&&`). Only what every shell rejects is reported.
 */
export function syntaxError(src: string): string | undefined {
  // a here-document's body is text, quotes and all: not read here
  if (src.includes('<<')) return undefined;
  let i = 0;
  const n = src.length;
  const stack: string[] = [];
  let atWordStart = true;
  while (i < n) {
    const c = src[i]!;
    const top = stack[stack.length - 1];
    if (top === "'") {
      if (c === "'") stack.pop();
      i++;
      continue;
    }
    if (c === '\\') {
      i += 2;
      atWordStart = false;
      continue;
    }
    if (top === '"') {
      if (c === '"') stack.pop();
      else if (c === '`') stack.push('`');
      else if (c === '$' && src[i + 1] === '(') {
        stack.push(')');
        i++;
      }
      i++;
      continue;
    }
    if (top === '`' && c === '`') {
      stack.pop();
      i++;
      continue;
    }
    if (c === '#' && atWordStart && top !== '"') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') stack.push(c);
    else if (c === '$' && src[i + 1] === '(') {
      stack.push(')');
      i++;
    } else if (c === '(') stack.push(')');
    else if (c === ')' && top === ')') stack.pop();
    atWordStart = ' \t\n;&|()'.includes(c);
    i++;
  }
  const open = stack[stack.length - 1];
  if (open === "'") return "an unclosed ' quote";
  if (open === '"') return 'an unclosed " quote';
  if (open === '`') return 'an unclosed ` command substitution';
  if (open === ')') return 'an unclosed ( or $(';
  const p = new Parser(lex(src), src);
  p.parseAll();
  if (p.unclosed.length) return `a compound command without its \`${p.unclosed[0]}\``;
  return p.misplaced[0];
}

// ---------- facts ----------

export type ReadinessWait = 'blocking' | 'background' | 'single' | 'none';

export interface LoopFact {
  text: string;
  unbounded: boolean;
  /** Why it can never end. */
  reason?: string;
  /** Seconds it runs when bounded by a counter, if that can be told. */
  seconds?: number;
  background: boolean;
}

export interface ShellFacts {
  /** What the postStart (or entrypoint) does about proxy readiness. */
  readinessWait: ReadinessWait;
  /** The command text that waits (or fails to). */
  readinessText?: string;
  /** Loops that can never end, outside the background. */
  unboundedLoops: LoopFact[];
  /** Something that never returns on its own: `sleep infinity`, `tail -f`, an unbounded loop. */
  neverEnds?: string;
  /** Lower bound of the time the script takes, in seconds (Infinity when it never ends). */
  seconds: number;
  /** Fixed sleeps the script is known to make (each `sleep N`, seconds). */
  sleeps: number[];
  /** `netstat -u...` whose output is then filtered with `grep tcp`: the -u does nothing. */
  netstatUdpGrepTcp: boolean;
  /** The script asks the proxy to exit (`/quitquitquit`). */
  quitsProxy: boolean;
  /** The script signals pilot-agent or envoy by name (`pkill pilot-agent`): works only in a shared process namespace. */
  killsProxy?: boolean;
  /** The script polls the proxy's readiness endpoint from localhost. */
  pollsProxy?: { text: string; port: number };
  /** The script begins with a fixed `sleep N` and then runs something else. */
  leadingSleep?: number;
  /** Every simple command (argv values), recursively. */
  commands: string[][];
  /** The shell rejects the script (`an unclosed ' quote`): it exits with an error. */
  syntaxError?: string;
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh', 'ksh', 'busybox']);

/** Readiness endpoints of the proxy: 15021 since 1.6, 15020 before; Envoy's admin `/ready` too. */
const READY_RE = /(?:https?:\/\/)?(localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0|\$\{?[A-Z_]+\}?)?:(15021|15020)\/healthz\/ready|(localhost|127\.0\.0\.1):(15000)\/ready\b/;
const LOCAL_READY_RE = /(?:https?:\/\/)?(?:localhost|127\.0\.0\.1):(15021|15020)\/healthz\/ready|(?:localhost|127\.0\.0\.1):(15000)\/ready\b/;

function base(cmd: string): string {
  const s = cmd.split('/').pop() ?? cmd;
  return s;
}

/** A shell invocation's script: `sh -c SCRIPT`, `bash -ec SCRIPT`, `busybox sh -c SCRIPT`. */
export function shellScript(argv: string[]): string | undefined {
  if (argv.length === 0) return undefined;
  let i = 0;
  if (base(argv[0]!) === 'busybox' || base(argv[0]!) === 'env' || base(argv[0]!) === 'exec') i++;
  if (i >= argv.length || !SHELLS.has(base(argv[i]!))) return undefined;
  for (let j = i + 1; j < argv.length; j++) {
    const a = argv[j]!;
    if (/^-[a-z]*c[a-z]*$/.test(a)) return argv.slice(j + 1).join(' ') || undefined;
    if (!a.startsWith('-')) return undefined;
  }
  return undefined;
}

/** Duration of `sleep ARGS` in seconds (Infinity for `infinity`, undefined when not literal). */
export function sleepSeconds(args: string[]): number | undefined {
  if (args.length === 0) return undefined;
  let total = 0;
  for (const a of args) {
    if (a === 'infinity' || a === 'inf') return Infinity;
    const m = /^(\d+(?:\.\d+)?|\.\d+)([smhd]?)$/.exec(a);
    if (!m) return undefined;
    const k = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
    total += Number(m[1]) * k;
  }
  return total;
}

interface Ctx {
  background: boolean;
  /** Under `timeout N`: nothing inside can run forever. */
  limited?: boolean;
  inLoop: boolean;
  depth: number;
}

class Analyzer {
  constructor(readonly listeners: Listeners = CURRENT_LISTENERS) {}
  readonly facts: ShellFacts = {
    readinessWait: 'none',
    unboundedLoops: [],
    seconds: 0,
    sleeps: [],
    netstatUdpGrepTcp: false,
    quitsProxy: false,
    commands: [],
  };
  private waitRank = 0;

  noteWait(kind: ReadinessWait, text: string): void {
    const rank = { none: 0, single: 1, background: 2, blocking: 3 }[kind];
    if (rank > this.waitRank) {
      this.waitRank = rank;
      this.facts.readinessWait = kind;
      this.facts.readinessText = text;
    }
  }

  /** Walk a node; returns the lower bound of its run time in seconds. */
  walk(node: Node, ctx: Ctx): number {
    if (ctx.depth > 20) return 0;
    switch (node.t) {
      case 'list': {
        let total = 0;
        for (const it of node.items) {
          const s = this.walk(it.node, { ...ctx, background: ctx.background || it.background });
          if (!it.background) total += s;
          // `exec CMD` replaces the shell: nothing after it runs
          if (!it.background && replacesShell(it.node)) break;
        }
        return total;
      }
      case 'andor': {
        let total = 0;
        for (let i = 0; i < node.items.length; i++) {
          const it = node.items[i]!;
          const s = this.walk(it, ctx);
          // after `||` the right side runs only on failure: do not count it
          if (i === 0 || node.ops[i - 1] === '&&') total += s;
          if (replacesShell(it)) break;
          // `true || X`, `false && X`: X never runs
          const fixed = constantStatus(it);
          if (fixed !== undefined && (node.ops[i] === '||') === fixed) {
            i++;
            while (i < node.items.length - 1 && node.ops[i] === node.ops[i - 1]) i++;
          }
        }
        return total;
      }
      case 'pipeline': {
        this.pipelineFacts(node.cmds);
        return Math.max(0, ...node.cmds.map((c) => this.walk(c, ctx)));
      }
      case 'group':
        return this.walk(node.body, ctx);
      case 'if': {
        let max = 0;
        for (const c of node.clauses) {
          this.walk(c.cond, ctx);
          // `if false; then ...`: a branch that never runs
          if (constantStatus(lastCommand(c.cond)) === false) continue;
          max = Math.max(max, this.walk(c.body, ctx));
        }
        if (node.otherwise) max = Math.max(max, this.walk(node.otherwise, ctx));
        return max;
      }
      case 'case': {
        let max = 0;
        for (const a of node.arms) max = Math.max(max, this.walk(a, ctx));
        return max;
      }
      case 'for': {
        const inner = { ...ctx, inLoop: true };
        const body = this.walk(node.body, inner);
        const n = forCount(node);
        if (this.mentionsReady(node.text)) this.noteWait(ctx.background ? 'background' : 'blocking', node.text);
        return n !== undefined ? n * body : 0;
      }
      case 'loop':
        return this.loop(node, ctx);
      case 'simple':
        return this.simple(node.argv, ctx);
    }
  }

  private mentionsReady(text: string): boolean {
    return READY_RE.test(text);
  }

  private loop(node: Extract<Node, { t: 'loop' }>, ctx: Ctx): number {
    const inner = { ...ctx, inLoop: true };
    this.walk(node.cond, inner);
    const body = this.walk(node.body, inner);
    if (this.mentionsReady(node.text)) this.noteWait(ctx.background ? 'background' : 'blocking', node.text);
    const canLeave = hasExit(node.body) || hasExit(node.cond);
    let reason: string | undefined;
    if (!canLeave) {
      if (constantCondition(node.cond, node.kind === 'while')) {
        reason = `\`${node.kind} ${condText(node.cond)}\` has no break or exit`;
      } else if (!boundedByCounter(node)) {
        reason = neverFalseListenerCount(node, this.listeners) ?? proxyListenerWait(node, this.listeners);
      }
    }
    const fact: LoopFact = { text: node.text, unbounded: !!reason, reason, background: ctx.background };
    if (reason) {
      if (!ctx.background && !ctx.limited) this.facts.unboundedLoops.push(fact);
      return Infinity;
    }
    const n = counterLimit(node);
    if (n !== undefined) {
      fact.seconds = n * body;
      return n * body;
    }
    return 0;
  }

  private simple(words: Word[], ctx: Ctx): number {
    const argv = words.map((w) => w.value);
    // command substitutions run too
    for (const w of words) for (const s of w.subs) this.walk(parseShell(s), { ...ctx, depth: ctx.depth + 1 });
    // leading assignments and wrappers
    let i = 0;
    while (i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i]!)) i++;
    const rest = argv.slice(i);
    if (rest.length === 0) return 0;
    this.facts.commands.push(rest);
    const text = words.slice(i).map((w) => w.raw).join(' ');
    if (callsQuit(rest)) this.facts.quitsProxy = true;
    if (killsProxy(rest)) this.facts.killsProxy = true;
    if (!this.facts.pollsProxy) {
      const m = LOCAL_READY_RE.exec(text);
      if (m) this.facts.pollsProxy = { text, port: Number(m[1] ?? m[2]) };
    }
    const cmd = base(rest[0]!);
    if (!this.facts.pollsProxy && (cmd === 'nc' || cmd === 'ncat' || cmd === 'netcat')) {
      // `nc -z localhost 15021`: waits for the proxy's port to open rather than for readiness
      const port = proxyPortProbe(rest.slice(1));
      if (port !== undefined) this.facts.pollsProxy = { text, port };
    }
    switch (cmd) {
      case 'sleep': {
        const s = sleepSeconds(rest.slice(1));
        if (s === undefined) return 0;
        if (!ctx.background && !ctx.inLoop) this.facts.sleeps.push(s);
        if (s === Infinity && !ctx.background && !ctx.limited && !this.facts.neverEnds) this.facts.neverEnds = text;
        return s;
      }
      case 'tail':
        if (rest.includes('-f') || rest.includes('-F') || rest.includes('--follow')) {
          if (!ctx.background && !ctx.limited && !this.facts.neverEnds) this.facts.neverEnds = text;
          return Infinity;
        }
        return 0;
      case 'timeout': {
        let j = 1;
        while (j < rest.length && rest[j]!.startsWith('-')) j += rest[j] === '-s' || rest[j] === '-k' ? 2 : 1;
        const limit = sleepSeconds([rest[j] ?? '']);
        const inner = this.nested(rest.slice(j + 1), words.slice(i + j + 1), limit === undefined ? ctx : { ...ctx, limited: true });
        return limit === undefined ? inner : Math.min(limit, inner);
      }
      case 'nohup':
      case 'exec':
      case 'env':
      case 'command':
      case 'time':
        return this.nested(rest.slice(1).filter((a, k) => !(cmd === 'env' && (a.startsWith('-') || (k === 0 && a.includes('='))))), words.slice(i + 1), ctx);
      case 'trap': {
        // `trap 'CMD' EXIT`: CMD runs when the shell exits
        const action = rest[1];
        if (action && rest.slice(2).some((x) => x === 'EXIT' || x === '0' || x === 'SIGEXIT')) {
          this.walk(parseShell(action), { ...ctx, depth: ctx.depth + 1 });
        }
        return 0;
      }
      case 'pilot-agent':
        if (rest[1] === 'wait') this.noteWait(ctx.background ? 'background' : 'blocking', text);
        return 0;
      case 'curl':
      case 'wget':
      case 'nc':
      case 'http':
        if (READY_RE.test(text)) {
          const retries = rest.some((a) => a === '--retry' || a.startsWith('--retry=') || a === '--tries' || a.startsWith('--tries=') || a.startsWith('-t'));
          if (ctx.background) this.noteWait('background', text);
          else if (ctx.inLoop || retries) this.noteWait('blocking', text);
          else this.noteWait('single', text);
        }
        return 0;
    }
    const script = shellScript(rest);
    if (script !== undefined) return this.walk(parseShell(script), { ...ctx, depth: ctx.depth + 1 });
    return 0;
  }

  private nested(argv: string[], words: Word[], ctx: Ctx): number {
    if (argv.length === 0) return 0;
    const ws = words.length === argv.length ? words : argv.map((a) => ({ kind: 'word' as const, raw: a, value: a, subs: [], quoted: false }));
    return this.simple(ws, ctx);
  }

  private pipelineFacts(cmds: Node[]): void {
    const argvs = pipelineArgv(cmds);
    const netstat = argvs.find((a) => base(a[0] ?? '') === 'netstat');
    if (!netstat) return;
    const udp = netstat.slice(1).some((a) => /^-[a-zA-Z]*u[a-zA-Z]*$/.test(a) || a === '--udp');
    const grepTcp = argvs.some((a) => isGrep(a) && !grepInverted(a) && grepPatterns(a).some((p) => /^tcp6?$/i.test(p)));
    if (udp && grepTcp) this.facts.netstatUdpGrepTcp = true;
  }
}

/** `nc [-z] [-w N] localhost 15021` (or `127.0.0.1:15021`): the port of the proxy it probes. */
function proxyPortProbe(args: string[]): number | undefined {
  const plain = args.filter((a) => !a.startsWith('-') && !/^\d{1,2}$/.test(a));
  for (let i = 0; i < plain.length; i++) {
    const joined = /^(?:localhost|127\.0\.0\.1|\[?::1\]?):(15021|15020)$/.exec(plain[i]!);
    if (joined) return Number(joined[1]);
    if (/^(?:localhost|127\.0\.0\.1|::1)$/.test(plain[i]!) && /^(15021|15020)$/.test(plain[i + 1] ?? '')) return Number(plain[i + 1]);
  }
  return undefined;
}

const HTTP_CLIENTS = new Set(['curl', 'wget', 'http', 'https', 'xh', 'pilot-agent']);
const INTERPRETERS = /^(python[\d.]*|node|perl|ruby|php)$/;

/**
 * Does this command itself ask the proxy to exit? An HTTP client (or `pilot-agent request`) whose
 * arguments name /quitquitquit, or an interpreter's inline code that does; the same text handed as
 * an argument to a script or a program proves nothing about what runs.
 */
function callsQuit(argv: string[]): boolean {
  const cmd = base(argv[0] ?? '');
  const args = argv.slice(1);
  if (!args.some((a) => /quitquitquit/.test(a))) return false;
  if (HTTP_CLIENTS.has(cmd)) return true;
  if (INTERPRETERS.test(cmd)) {
    const flag = args.findIndex((a) => a === '-c' || a === '-e' || a === '--eval' || a === '-r');
    return flag >= 0 && /quitquitquit/.test(args[flag + 1] ?? '');
  }
  return false;
}

/** `pkill [-SIG] [-f] pilot-agent`, `killall envoy`: the proxy's processes by name. */
function killsProxy(argv: string[]): boolean {
  const cmd = base(argv[0] ?? '');
  if (cmd !== 'pkill' && cmd !== 'killall') return false;
  return argv.slice(1).some((a) => !a.startsWith('-') && /pilot-agent|envoy/.test(a));
}

/** `exec CMD ...` (not a bare `exec` that only redirects): the shell is replaced. */
function replacesShell(node: Node): boolean {
  if (node.t !== 'simple') return false;
  const a = node.argv.map((w) => w.value).filter((v, i, all) => !all.slice(0, i + 1).every((x) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(x)));
  return a[0] === 'exec' && a.length > 1;
}

/** The exit status a command always has (`true`, `:`, `false`), if it has one. */
function constantStatus(node: Node | undefined): boolean | undefined {
  if (node?.t !== 'simple' || node.argv.length !== 1) return undefined;
  const c = node.argv[0]!.value;
  return c === 'true' || c === ':' ? true : c === 'false' ? false : undefined;
}

function lastCommand(node: Node): Node | undefined {
  if (node.t === 'list') return node.items.length ? lastCommand(node.items[node.items.length - 1]!.node) : undefined;
  return node;
}

function isGrep(a: string[]): boolean {
  return ['grep', 'egrep', 'fgrep'].includes(base(a[0] ?? ''));
}

function grepInverted(a: string[]): boolean {
  return a.slice(1).some((x) => /^-[a-zA-Z]*v[a-zA-Z]*$/.test(x) || x === '--invert-match');
}

function grepPatterns(a: string[]): string[] {
  const out: string[] = [];
  const args = a.slice(1);
  for (let i = 0; i < args.length; i++) {
    const x = args[i]!;
    if (x === '-e' || x === '--regexp') {
      out.push(args[++i] ?? '');
      continue;
    }
    if (x.startsWith('-')) continue;
    out.push(x);
    break; // the rest are files
  }
  return out;
}

/** Alternatives of a grep pattern (`a|b`, `a\|b`). */
function alternatives(p: string): string[] {
  return p.split(/\\?\|/).map((s) => s.trim()).filter(Boolean);
}

function hasExit(node: Node): boolean {
  switch (node.t) {
    case 'simple': {
      const a = node.argv.map((w) => w.value);
      const c = a[0] ? base(a[0]) : '';
      return c === 'break' || c === 'exit' || c === 'return' || (c === 'kill' && a.includes('$$'));
    }
    case 'list':
      return node.items.some((i) => hasExit(i.node));
    case 'andor':
    case 'pipeline':
      return (node.t === 'andor' ? node.items : node.cmds).some(hasExit);
    case 'group':
      return hasExit(node.body);
    case 'if':
      return node.clauses.some((c) => hasExit(c.body) || hasExit(c.cond)) || (!!node.otherwise && hasExit(node.otherwise));
    case 'case':
      return node.arms.some(hasExit);
    // `break` inside a nested loop leaves only that loop; `exit` still leaves the script
    case 'loop':
      return hasExitOnly(node.body) || hasExitOnly(node.cond);
    case 'for':
      return hasExitOnly(node.body);
  }
}

function hasExitOnly(node: Node): boolean {
  let found = false;
  const visit = (n: Node): void => {
    if (found) return;
    switch (n.t) {
      case 'simple': {
        const c = n.argv[0] ? base(n.argv[0].value) : '';
        if (c === 'exit' || c === 'return') found = true;
        return;
      }
      case 'list':
        return n.items.forEach((i) => visit(i.node));
      case 'andor':
        return n.items.forEach(visit);
      case 'pipeline':
        return n.cmds.forEach(visit);
      case 'group':
        return visit(n.body);
      case 'if':
        n.clauses.forEach((c) => (visit(c.cond), visit(c.body)));
        if (n.otherwise) visit(n.otherwise);
        return;
      case 'case':
        return n.arms.forEach(visit);
      case 'loop':
        visit(n.cond);
        return visit(n.body);
      case 'for':
        return visit(n.body);
    }
  };
  visit(node);
  return found;
}

function condText(cond: Node): string {
  if (cond.t === 'list' && cond.items.length === 1) return condText(cond.items[0]!.node);
  if (cond.t === 'simple') return cond.argv.map((w) => w.raw).join(' ');
  return '...';
}

/** `while true`, `while :`, `while [ 1 ]`, `while sleep 1`, `until false`: nothing in the condition can change. */
function constantCondition(cond: Node, isWhile: boolean): boolean {
  if (cond.t !== 'list' || cond.items.length === 0) return false;
  const last = cond.items[cond.items.length - 1]!.node;
  if (last.t !== 'simple') return false;
  const a = last.argv.map((w) => w.value);
  if (a.length === 0) return false;
  const c = base(a[0]!);
  if (isWhile) {
    if (c === 'true' || c === ':') return true;
    if (c === 'sleep' && sleepSeconds(a.slice(1)) !== undefined) return true;
    if ((c === '[' || c === 'test' || c === '[[') && a.some((x) => x.includes('$'))) return false;
    if (c === '[' || c === '[[') {
      const inner = a.slice(1, -1);
      if (inner.length === 1 && inner[0] !== '') return true;
      if (inner.length === 3 && inner[1] === '-eq' && inner[0] === inner[2]) return true;
      if (inner.length === 3 && (inner[1] === '=' || inner[1] === '==') && inner[0] === inner[2]) return true;
    }
    if (c === 'test' && a.length === 2 && a[1] !== '') return true;
    if (/^\(\(\s*1\s*\)\)$/.test(a.join(' '))) return true;
    return false;
  }
  return c === 'false';
}

/** The words of each simple command of a pipeline. */
function pipelineArgv(cmds: Node[]): string[][] {
  return cmds.filter((c): c is Extract<Node, { t: 'simple' }> => c.t === 'simple').map((c) => c.argv.map((w) => w.value));
}

/**
 * A listener pipeline whose greps drop envoy's lines but not pilot-agent's, and keep nothing narrower
 * than listening sockets: pilot-agent's line is always left.
 */
function dropsOnlyEnvoy(p: string[][]): boolean {
  const excluded: string[] = [];
  for (const a of p) {
    if (!isGrep(a)) continue;
    const pats = grepPatterns(a).flatMap(alternatives);
    if (grepInverted(a)) excluded.push(...pats);
    else if (!pats.every((x) => /^(tcp6?|udp6?|LISTEN|listen|:)$/i.test(x))) return false;
  }
  return excluded.some((x) => /envoy/.test(x)) && !excluded.some((x) => /pilot|agent/.test(x));
}

/**
 * A loop that waits until no listener but envoy is left: where pilot-agent also listens (its status
 * port, 15020), a count that does not exclude it can never reach zero.
 */
function neverFalseListenerCount(node: Extract<Node, { t: 'loop' }>, listeners: Listeners): string | undefined {
  const agent = listeners.sockets.find(([p]) => p === 'pilot-agent');
  const subs: string[] = [];
  const collect = (n: Node): void => {
    if (n.t === 'simple') for (const w of n.argv) subs.push(...w.subs);
    else if (n.t === 'list') n.items.forEach((i) => collect(i.node));
    else if (n.t === 'andor') n.items.forEach(collect);
    else if (n.t === 'pipeline') n.cmds.forEach(collect);
    else if (n.t === 'group') collect(n.body);
  };
  collect(node.cond);
  const condWords: string[] = [];
  const flat = (n: Node): void => {
    if (n.t === 'simple') condWords.push(...n.argv.map((w) => w.value));
    else if (n.t === 'list') n.items.forEach((i) => flat(i.node));
    else if (n.t === 'andor') n.items.forEach(flat);
    else if (n.t === 'pipeline') n.cmds.forEach(flat);
  };
  flat(node.cond);
  for (const sub of subs) {
    const tree = parseShell(sub);
    const pipes: string[][][] = [];
    const findPipes = (n: Node): void => {
      if (n.t === 'pipeline') pipes.push(pipelineArgv(n.cmds));
      else if (n.t === 'list') n.items.forEach((i) => findPipes(i.node));
      else if (n.t === 'andor') n.items.forEach(findPipes);
    };
    findPipes(tree);
    for (const p of pipes) {
      const lister = p.find((a) => ['netstat', 'ss', 'lsof'].includes(base(a[0] ?? '')));
      if (!lister) continue;
      const counts = p.some((a) => (base(a[0] ?? '') === 'wc' && a.includes('-l')) || (isGrep(a) && a.some((x) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(x))));
      if (!counts) continue;
      // the loop runs while the count is non-zero (or until it is zero)
      const cmp = condWords.join(' ');
      const whileNonZero = node.kind === 'while' && /(-ne|-gt|!=)\s*"?0"?(\s|$|\])|-ge\s*"?1"?/.test(cmp);
      const untilZero = node.kind === 'until' && /(-eq|==?|-lt\s*"?1"?)\s*"?0?"?(\s|$|\])/.test(cmp);
      if (agent && dropsOnlyEnvoy(p) && (whileNonZero || untilZero)) {
        return `it waits until only envoy listens (${p.map((a) => a.join(' ')).join(' | ')}), but pilot-agent also listens (${listeners.agentWhy ?? agent[1]}), so the count never reaches 0`;
      }
      const left = proxyLinesLeft(p, listeners);
      if (left && countNeverReaches(node.kind, cmp, left.count)) {
        return `it waits for a listener count (${p.map((a) => a.join(' ')).join(' | ')}) that the proxy's own listeners keep at ${left.count} or more (${left.kept}) until the proxy stops, which is after this hook`;
      }
    }
  }
  // the pipeline as the condition itself: `while netstat -plnt | grep -v envoy | grep -q LISTEN`
  for (const term of conditionTerms(node)) {
    if (term.t !== 'pipeline') continue;
    const p = pipelineArgv(term.cmds);
    if (!p.some((a) => ['netstat', 'ss', 'lsof'].includes(base(a[0] ?? '')))) continue;
    const last = p[p.length - 1] ?? [];
    if (!agent || !isGrep(last) || grepInverted(last) || !dropsOnlyEnvoy(p)) continue;
    // runs while a line is left: `while` on the pipeline, or `until !` on it
    if ((node.kind === 'while') !== term.negated) {
      return `it waits until only envoy listens (${p.map((a) => a.join(' ')).join(' | ')}), but pilot-agent also listens (${listeners.agentWhy ?? agent[1]}), so a line is always left`;
    }
  }
  return undefined;
}

/**
 * The sockets the proxy container listens on while it runs, which differ by release (pilot-agent's
 * status port came in 1.0.6, off by default until 1.1; Envoy's 15021 came in 1.6), and what a message
 * says of pilot-agent's (`15020`, `--statusPort 15020`).
 */
export interface Listeners {
  sockets: readonly (readonly [process: string, port: number])[];
  agentWhy?: string;
}

/** A current proxy: envoy's admin, outbound, inbound, readiness and stats ports and pilot-agent's status port. */
export const CURRENT_LISTENERS: Listeners = {
  sockets: [
    ['envoy', 15000],
    ['envoy', 15001],
    ['envoy', 15006],
    ['pilot-agent', 15020],
    ['envoy', 15021],
    ['envoy', 15090],
  ],
};

/** The lines a listener command prints for the proxy's own sockets (and its header lines), as the tool formats them. */
function listenerLines(argv: string[], listeners: Listeners): string[] {
  const PROXY_LISTENERS = listeners.sockets;
  const cmd = base(argv[0] ?? '');
  const shortFlags = argv.slice(1).filter((a) => /^-[a-zA-Z]+$/.test(a)).join('');
  const withProcess = cmd === 'lsof' || shortFlags.includes('p') || argv.includes('--program') || argv.includes('--processes');
  if (cmd === 'netstat') {
    return [
      'Active Internet connections (only servers)',
      'Proto Recv-Q Send-Q Local Address           Foreign Address         State       PID/Program name',
      ...PROXY_LISTENERS.map(([p, port]) => `tcp        0      0 0.0.0.0:${port}           0.0.0.0:*               LISTEN      ${withProcess ? `12/${p}` : '-'}`),
    ];
  }
  if (cmd === 'ss') {
    const header = shortFlags.includes('H') || argv.includes('--no-header') ? [] : ['State  Recv-Q Send-Q Local Address:Port  Peer Address:Port Process'];
    return [...header, ...PROXY_LISTENERS.map(([p, port]) => `LISTEN 0      4096   0.0.0.0:${port}      0.0.0.0:*    ${withProcess ? `users:(("${p}",pid=12,fd=3))` : ''}`)];
  }
  // lsof: with `-i :PORT` only that port is listed
  const only = argv.map((a) => /^(?:-i)?(?:tcp)?:(\d+)$/i.exec(a)?.[1]).find(Boolean);
  return [
    'COMMAND PID USER FD TYPE DEVICE SIZE/OFF NODE NAME',
    ...PROXY_LISTENERS.filter(([, port]) => !only || String(port) === only).map(([p, port]) => `${p} 12 istio-proxy 3u IPv4 1 0t0 TCP *:${port} (LISTEN)`),
  ];
}

/** A grep's test of one line, for the pattern syntaxes grep takes; undefined when it cannot be read. */
function grepTest(a: string[]): ((line: string) => boolean) | undefined {
  const flags = a.slice(1).filter((x) => /^-[a-zA-Z]+$/.test(x)).join('');
  const cmd = base(a[0] ?? '');
  const ere = cmd === 'egrep' || flags.includes('E');
  const fixed = cmd === 'fgrep' || flags.includes('F');
  const pats = grepPatterns(a);
  if (pats.length === 0) return undefined;
  // patterns come from the input: RE2 matching, linear in the line whatever the pattern
  const res: { test(line: string): boolean }[] = [];
  for (const p of pats) {
    let src: string;
    if (fixed) src = p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (ere) src = p;
    else src = p.replace(/\\([|(){}+?])|([|(){}+?])/g, (_m, esc: string | undefined, bare: string | undefined) => (esc ? esc : `\\${bare}`));
    if (flags.includes('w')) src = `\\b(?:${src})\\b`;
    if (flags.includes('x')) src = `^(?:${src})$`;
    try {
      const RE2 = re2();
      res.push(RE2.compile(src, flags.includes('i') ? RE2.CASE_INSENSITIVE : 0));
    } catch {
      return undefined;
    }
  }
  return (line) => res.some((r) => r.test(line));
}

/**
 * How many lines of the proxy's own (and header lines) a listener pipeline that excludes something
 * still counts while the proxy runs. Undefined when the pipeline holds a stage this cannot follow.
 */
function proxyLinesLeft(p: string[][], listeners: Listeners): { count: number; kept: string } | undefined {
  if (!p.some((a) => isGrep(a) && grepInverted(a))) return undefined;
  const lister = p.findIndex((a) => ['netstat', 'ss', 'lsof'].includes(base(a[0] ?? '')));
  let lines = listenerLines(p[lister]!, listeners);
  for (const a of p.slice(lister + 1)) {
    const cmd = base(a[0] ?? '');
    if (isGrep(a)) {
      if (a.some((x) => /^-[a-zA-Z]*[qlLo][a-zA-Z]*$/.test(x))) return undefined;
      const test = grepTest(a);
      if (!test) return undefined;
      const inverted = grepInverted(a);
      lines = lines.filter((l) => test(l) !== inverted);
      if (a.some((x) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(x))) break;
    } else if (cmd === 'wc' || cmd === 'xargs' || cmd === 'tr') break;
    else return undefined;
  }
  if (lines.length === 0) return undefined;
  const ports = [...new Set(lines.map((l) => /:(\d{5})\b/.exec(l)?.[1]).filter(Boolean))];
  const headers = lines.filter((l) => !/:\d{5}\b/.test(l)).length;
  const kept = [ports.length ? `port${ports.length > 1 ? 's' : ''} ${ports.join(', ')}` : '', headers ? `${headers} header line${headers > 1 ? 's' : ''}` : ''].filter(Boolean).join(' and ');
  return { count: lines.length, kept };
}

/** Does a loop on `[ COUNT OP K ]` run for ever when COUNT never drops below min? */
function countNeverReaches(kind: 'while' | 'until', cond: string, min: number): boolean {
  const m = /(-ne|-gt|-ge|-eq|-lt|-le|!=|==?)\s*"?(\d+)"?(\s|$|\])/.exec(cond);
  if (!m) return false;
  const k = Number(m[2]);
  const op = m[1]!;
  if (kind === 'while') return op === '-gt' ? min > k : op === '-ge' ? min >= k : op === '-ne' || op === '!=' ? min > k : false;
  return op === '-eq' || op === '=' || op === '==' ? min > k : op === '-lt' ? min >= k : op === '-le' ? min > k : false;
}

/** Every word of a node, substitutions included, as written. */
function wordsOf(node: Node, out: string[] = []): string[] {
  switch (node.t) {
    case 'simple':
      for (const w of node.argv) out.push(w.raw);
      break;
    case 'pipeline':
      node.cmds.forEach((c) => wordsOf(c, out));
      break;
    case 'andor':
      node.items.forEach((c) => wordsOf(c, out));
      break;
    case 'list':
      node.items.forEach((i) => wordsOf(i.node, out));
      break;
    case 'loop':
      wordsOf(node.cond, out);
      wordsOf(node.body, out);
      break;
    case 'for':
    case 'group':
      wordsOf(node.body, out);
      break;
    case 'if':
      node.clauses.forEach((c) => (wordsOf(c.cond, out), wordsOf(c.body, out)));
      if (node.otherwise) wordsOf(node.otherwise, out);
      break;
    case 'case':
      node.arms.forEach((a) => wordsOf(a, out));
      break;
  }
  return out;
}

/** The commands of a loop condition that each can end the loop on their own. */
function conditionTerms(node: Extract<Node, { t: 'loop' }>): Node[] {
  let n = node.cond;
  if (n.t === 'list' && n.items.length > 0) n = n.items[n.items.length - 1]!.node;
  // `while A && B` ends when either fails; `until A || B` when either succeeds
  const joiner = node.kind === 'while' ? '&&' : '||';
  if (n.t === 'andor') return n.ops.every((o) => o === joiner) ? n.items : [];
  return [n];
}

/**
 * `while [ $i -lt 25 ] && ...; do i=$((i+1)); ...`: a counter that the body moves towards its limit
 * ends the loop whatever the rest of the condition does.
 */
function boundedByCounter(node: Extract<Node, { t: 'loop' }>): boolean {
  const body = wordsOf(node.body).join(' ');
  for (const term of conditionTerms(node)) {
    if (term.t !== 'simple') continue;
    const a = term.argv.map((w) => w.value);
    const c = base(a[0] ?? '');
    if (c !== '[' && c !== '[[' && c !== 'test') continue;
    const inner = c === 'test' ? a.slice(1) : a.slice(1, -1);
    if (inner.length !== 3) continue;
    const v = /^\$\{?(\w+)\}?$/.exec(inner[0]!)?.[1];
    if (!v || !/^\d+$/.test(inner[2]!)) continue;
    const op = inner[1]!;
    const up = node.kind === 'while' ? ['-lt', '-le', '-ne'] : ['-ge', '-gt', '-eq'];
    const down = node.kind === 'while' ? ['-gt', '-ge', '-ne'] : ['-le', '-lt', '-eq'];
    const sign = up.includes(op) && moves(body, v, '+') ? '+' : down.includes(op) && moves(body, v, '-') ? '-' : undefined;
    if (sign) return true;
  }
  return false;
}

/** Does the script step variable v by a constant (`i=$((i+1))`, `((i++))`, `let i+=1`, `i=$(expr $i + 1)`)? */
function moves(text: string, v: string, sign: '+' | '-'): boolean {
  const s = sign === '+' ? '\\+' : '-';
  const res = [
    `(^|[\\s;])${v}=\\$\\(\\(\\s*\\$?${v}\\s*${s}\\s*\\d+\\s*\\)\\)`,
    `\\(\\(\\s*(${v}\\s*(${s}${s}|${s}=)|${s}${s}${v})`,
    `\\blet\\s+["']?(${v}(${s}${s}|${s}=)|${v}=\\$?${v}\\s*${s})`,
    `(^|[\\s;])${v}=\\$\\(expr\\s+\\$${v}\\s+${s}`,
    `(^|[\\s;])${v}=\\\`expr\\s+\\$${v}\\s+${s}`,
  ];
  return res.some((r) => new RegExp(r).test(text));
}

const PROXY_OWN_PORTS = /(^|[^\d])(15000|15020|15021|15090)([^\d]|$)/;

/**
 * A loop that waits for one of the proxy's own ports (admin 15000, pilot-agent 15020, readiness
 * 15021, stats 15090) to stop listening: they close only when the proxy stops, after the hook.
 */
function proxyListenerWait(node: Extract<Node, { t: 'loop' }>, listeners: Listeners): string | undefined {
  const pipes: { cmds: string[][]; negated: boolean; inSub: boolean }[] = [];
  const fromNode = (n: Node, inSub: boolean): void => {
    if (n.t === 'pipeline') pipes.push({ cmds: pipelineArgv(n.cmds), negated: n.negated, inSub });
    else if (n.t === 'simple') {
      pipes.push({ cmds: [n.argv.map((w) => w.value)], negated: false, inSub });
      for (const w of n.argv) for (const sub of w.subs) fromNode(parseShell(sub), true);
    } else if (n.t === 'list') n.items.forEach((i) => fromNode(i.node, inSub));
    else if (n.t === 'andor') n.items.forEach((i) => fromNode(i, inSub));
  };
  fromNode(node.cond, false);
  const cond = wordsOf(node.cond).join(' ');
  for (const p of pipes) {
    const lister = p.cmds.find((a) => ['netstat', 'ss', 'lsof'].includes(base(a[0] ?? '')));
    if (!lister) continue;
    let port: string | undefined;
    if (base(lister[0]!) === 'lsof') port = lister.slice(1).map((x) => PROXY_OWN_PORTS.exec(x)?.[2]).find(Boolean);
    for (const a of p.cmds) {
      if (!isGrep(a) || grepInverted(a)) continue;
      port ??= grepPatterns(a).map((x) => PROXY_OWN_PORTS.exec(x)?.[2]).find(Boolean);
    }
    // a port this release's proxy never listens on is gone from the start
    if (!port || !listeners.sockets.some(([, x]) => String(x) === port)) continue;
    // runs while the port is found: `while [ -n "$(...)" ]`, `while ... | grep -q`, a count above 0
    let whilePresent: boolean;
    if (p.inSub) {
      const present = /(^|\s)-n\s|(-ne|-gt|!=)\s*"?0"?(\s|$|\])|-ge\s*"?1"?/.test(cond);
      const absent = /(^|\s)-z\s|(-eq|==?)\s*"?0"?(\s|$|\])|-lt\s*"?1"?/.test(cond);
      if (present === absent) continue;
      whilePresent = present;
    } else whilePresent = !p.negated;
    if (whilePresent === (node.kind === 'while')) {
      return `it waits until the proxy's own port ${port} stops listening, which happens only when the proxy stops, after this hook has returned`;
    }
  }
  return undefined;
}

/** Iterations of a counter loop: `while [ $i -lt 30 ]`, `until [ $n -ge 10 ]`. */
function counterLimit(node: Extract<Node, { t: 'loop' }>): number | undefined {
  const m = /\$\{?(\w+)\}?"?\s+-(lt|le|gt|ge)\s+"?(\d+)/.exec(node.text) ?? /\(\(\s*(\w+)\s*(<|<=)\s*(\d+)\s*\)\)/.exec(node.text);
  if (!m) return undefined;
  const n = Number(m[3]);
  return m[2] === 'le' || m[2] === '<=' ? n + 1 : n;
}

function forCount(node: Extract<Node, { t: 'for' }>): number | undefined {
  if (node.arith) {
    const m = /(\w+)\s*=\s*(\d+)\s*;\s*\1\s*(<=|<)\s*(\d+)/.exec(node.arith);
    if (m) return Number(m[4]) - Number(m[2]) + (m[3] === '<=' ? 1 : 0);
    return undefined;
  }
  if (!node.words) return undefined;
  let count = 0;
  for (const w of node.words) {
    const seq = /^\$\(seq\s+(?:(\d+)\s+)?(\d+)\)$/.exec(w.value);
    const brace = /^\{(\d+)\.\.(\d+)\}$/.exec(w.value);
    if (seq) count += Number(seq[2]) - Number(seq[1] ?? 1) + 1;
    else if (brace) count += Number(brace[2]) - Number(brace[1]) + 1;
    else if (w.value.includes('$')) return undefined;
    else count++;
  }
  return count;
}

/** Analyse a script (the body of `sh -c`); listener counts are judged against the proxy's sockets. */
export function analyzeScript(script: string, listeners: Listeners = CURRENT_LISTENERS): ShellFacts {
  const a = new Analyzer(listeners);
  const bad = syntaxError(script);
  if (bad) {
    // the shell stops at the error: nothing past it runs, so only the failure is a fact
    a.facts.syntaxError = bad;
    return a.facts;
  }
  const tree = parseShell(script);
  a.facts.seconds = a.walk(tree, { background: false, inLoop: false, depth: 0 });
  a.facts.leadingSleep = leadingSleep(tree);
  finish(a.facts);
  return a.facts;
}

/** Analyse an exec handler or an entrypoint: argv as Kubernetes runs it (no shell unless it is one). */
export function analyzeArgv(argv: string[], listeners: Listeners = CURRENT_LISTENERS): ShellFacts {
  const script = shellScript(argv);
  if (script !== undefined) return analyzeScript(script, listeners);
  const a = new Analyzer(listeners);
  const words = argv.map((v) => ({ kind: 'word' as const, raw: /[\s'"]/.test(v) ? JSON.stringify(v) : v, value: v, subs: [], quoted: false }));
  a.facts.seconds = a.walk({ t: 'simple', argv: words }, { background: false, inLoop: false, depth: 0 });
  finish(a.facts);
  return a.facts;
}

function finish(f: ShellFacts): void {
  if (!f.neverEnds && f.unboundedLoops.length) f.neverEnds = f.unboundedLoops[0]!.text;
  if (f.neverEnds) f.seconds = Infinity;
}

function leadingSleep(tree: Node): number | undefined {
  const flat: Node[] = [];
  const add = (n: Node): void => {
    if (n.t === 'list') n.items.forEach((i) => (i.background ? flat.push({ t: 'group', body: i.node }) : add(i.node)));
    else if (n.t === 'andor' && n.ops.every((o) => o === '&&')) n.items.forEach(add);
    else flat.push(n);
  };
  add(tree);
  if (flat.length < 2) return undefined;
  const first = flat[0]!;
  if (first.t !== 'simple' || first.argv.length === 0 || base(first.argv[0]!.value) !== 'sleep') return undefined;
  const s = sleepSeconds(first.argv.slice(1).map((w) => w.value));
  return s !== undefined && s > 0 && s !== Infinity ? s : undefined;
}
