// The public API: Go's text/template.Template, executing into a string.
//
//   const t = new Template('t').funcs(myFuncs).parse('Hello {{ .name }}');
//   t.execute({ name: 'world' });            // "Hello world"
//
// Mirrors: go1.19 src/text/template/{template,option}.go
// Proven by: test/template/api.test.ts, test/vectors/template/missingkey.jsonl

import { ExecError, GoPanic, ParseError, TemplateError } from './errors.js';
import { ExecLimits, FRESH_MAP_FUNCS, LimitError, MissingKey, compileTree, execute as run, type ExecSet } from './exec.js';
import { BUILTINS } from './funcs.js';
import { Tree } from './parse/parse.js';
import { isEmptyTree } from './parse/node.js';
import { goQuote } from '../../strconv/quote.js';
import { GoFunc, T, type FuncMap, type GoValue } from '../../reflect/value.js';
import { clearStackExhausted, isStackOverflow, libraryBigStack, noteStackExhausted, onBigStack, stackExhausted } from '../../../guard/stack.js';
import { SyncStackError, builtModule, callOnBigStack, syncStackStats } from '../../../guard/syncstack.js';
import { NotSendable, receiveError, receiveValue, sendError, sendValue, type SentError, type SentValue } from './remote.js';

export { ExecError, GoPanic, ParseError, TemplateError, LimitError };
export type { ExecLimits };
export type ExecOptions = ExecLimits;
export { syncStackStats as bigStackStats };
export { formatValue, sprint, sprintf, sprintln, goTypeName } from '../../fmt/print.js';
export { BUILTINS, htmlEscapeString, jsEscapeString, urlQueryEscape } from './funcs.js';
export { typeName } from './exec.js';
export { Tree } from './parse/parse.js';

const NAME_RE = /^[\p{L}_][\p{L}\p{Nd}_]*$/u;

/** The state shared by a template and its associated templates (Go's `common`). */
class Common implements ExecSet {
  tmpl = new Map<string, Template>();
  /** Every template made in this set, by id (creation order): what the recorded steps refer to. */
  byId: Template[] = [];
  /** What built the set, in order, so that it can be built again on a big stack (see BigStack below). */
  ops: Op[] = [];
  /** A clone: the set it was cloned from, how many of that set's steps had been taken, and the template cloned. */
  base?: { common: Common; upTo: number; from: number };
  /** A text of the set was parsed on a big stack: its trees here are placeholders, and it executes there. */
  deep = false;
  funcs: FuncMap = Object.create(null) as FuncMap;
  missingKey: MissingKey = MissingKey.Invalid;
  /** Cached answer of mayMutate; reset whenever a tree is added. */
  mutates: boolean | null = null;
  lookupTree(name: string): { name: string; tree: Tree } | undefined {
    const t = this.tmpl.get(name);
    return t && t.tree ? { name: t.name(), tree: t.tree } : undefined;
  }
  mayMutate(): boolean {
    if (this.mutates === null) {
      this.mutates = false;
      for (const t of this.tmpl.values()) {
        if (!t.tree?.root) continue;
        const c = compileTree(t.tree);
        if (c.mutates) this.mutates = true;
        for (const f of c.freshFuncs) {
          const fn = Object.prototype.hasOwnProperty.call(this.funcs, f) ? this.funcs[f] : undefined;
          if (!fn || !FRESH_MAP_FUNCS.has(fn)) this.mutates = true;
        }
      }
    }
    return this.mutates;
  }
}

/** Templates being executed, innermost last: what Helm's include and tpl run against when no set was bound. */
const executing: Template[] = [];

/** The template whose execution is in progress (the innermost, during include or tpl), if any. */
export function executingTemplate(): Template | undefined {
  return executing[executing.length - 1];
}

export class Template {
  /** The parsed tree (Go's embedded *parse.Tree); null until parsed. */
  tree: Tree | null = null;
  /** @internal */
  readonly common: Common;
  /** @internal Index in the set's byId. */
  readonly id: number;
  private leftDelim = '';
  private rightDelim = '';

  constructor(
    private readonly _name: string,
    common?: Common,
  ) {
    this.common = common ?? new Common();
    this.id = this.common.byId.length;
    this.common.byId.push(this);
  }

  name(): string {
    return this._name;
  }

  /** Add functions (before parse). Later calls override earlier ones, as in Go. */
  funcs(m: FuncMap): this {
    const keys = Object.keys(m);
    this.common.ops.push({ op: 'funcs', names: keys, fns: keys.map((k) => m[k]!) });
    for (const k of keys) {
      if (!NAME_RE.test(k)) throw new Error(`function name ${goQuote(k)} is not a valid identifier`);
      this.common.funcs[k] = m[k]!;
    }
    // Whether the data must be copied can depend on which function a name calls (FRESH_MAP_FUNCS).
    this.common.mutates = null;
    return this;
  }

  /** 'missingkey=default|invalid|zero|error' */
  option(...opts: string[]): this {
    this.common.ops.push({ op: 'option', opts: [...opts] });
    for (const opt of opts) {
      if (opt === '') throw new Error('empty option string');
      const eq = opt.indexOf('=');
      if (eq >= 0 && opt.slice(0, eq) === 'missingkey') {
        const v = opt.slice(eq + 1);
        if (v === 'invalid' || v === 'default') {
          this.common.missingKey = MissingKey.Invalid;
          continue;
        }
        if (v === 'zero') {
          this.common.missingKey = MissingKey.Zero;
          continue;
        }
        if (v === 'error') {
          this.common.missingKey = MissingKey.Error;
          continue;
        }
      }
      throw new Error(`unrecognized option: ${opt}`);
    }
    return this;
  }

  delims(left: string, right: string): this {
    this.common.ops.push({ op: 'delims', t: this.id, l: left, r: right });
    this.leftDelim = left;
    this.rightDelim = right;
    return this;
  }

  /** Parse text as this template's body; {{define}}/{{block}} add associated templates. Throws ParseError. */
  parse(text: string): this {
    let treeSet: Map<string, Tree>;
    try {
      treeSet = this.parseTrees(text);
    } catch (e) {
      // Go's parser nests as deep as the text does; ours stops at the JavaScript stack, with a ParseError
      // (and a note that the command is worth a run on a big stack, guard/stack.ts).
      if (!(e instanceof RangeError && isStackOverflow(e))) throw e;
      const small = new ParseError(`template: ${this._name}: nesting exceeds the JavaScript call stack`, this._name, 0, 0);
      // inside an execution (tpl) the whole execution is repeated instead
      if (!libraryBigStack() || executing.length > 0) throw small;
      return this.parseOnBigStack(text, small);
    }
    this.common.ops.push({ op: 'parse', t: this.id, text });
    for (const [name, tree] of treeSet) this.addTree(name, tree);
    return this;
  }

  /** @internal The trees of text, not yet added to the set. */
  parseTrees(text: string): Map<string, Tree> {
    const treeSet = new Map<string, Tree>();
    const funcs = this.common.funcs;
    const has = (name: string): boolean => Object.prototype.hasOwnProperty.call(funcs, name) || Object.prototype.hasOwnProperty.call(BUILTINS, name);
    new Tree(this._name).parse(text, this.leftDelim, this.rightDelim, treeSet, has);
    return treeSet;
  }

  /**
   * The text is parsed on a big stack, for Go's error or the names of the templates it defines; here
   * they get placeholder trees, and the set executes on the big stack from now on.
   */
  private parseOnBigStack(text: string, small: ParseError): this {
    let answer: BigStackAnswer;
    try {
      const sets = new SetSender(true);
      const target = sets.template(this);
      answer = callOnBigStack(BIG_STACK_SCRIPT, { kind: 'parse', sets: sets.sent(), target, text } satisfies BigStackRequest, BIG_STACK_WAIT_MS) as BigStackAnswer;
    } catch (e) {
      throw withReason(small, e);
    }
    if ('error' in answer) throw receiveError(answer.error, LimitError);
    if (!('trees' in answer)) throw withReason(small, new Error('no trees in the answer'));
    this.common.ops.push({ op: 'parse', t: this.id, text });
    this.common.deep = true;
    for (const [name, empty] of answer.trees) this.addTree(name, placeholderTree(name, empty));
    return this;
  }

  /** Go's AddParseTree: associate tree with name in this set (an empty tree never replaces a real one). */
  addParseTree(name: string, tree: Tree): Template {
    // a tree from elsewhere cannot be built again from text on a big stack
    this.common.ops.push({ op: 'tree', name });
    return this.addTree(name, tree);
  }

  private addTree(name: string, tree: Tree): Template {
    this.common.mutates = null;
    const nt = name === this._name ? this : this.make(name);
    const old = this.common.tmpl.get(name);
    if (old && isEmptyTree(tree.root) && old.tree) {
      if (!nt.tree) nt.tree = tree;
      return nt;
    }
    this.common.tmpl.set(name, nt);
    nt.tree = tree;
    return nt;
  }

  /** An associated template: same functions, options and delimiters. */
  new(name: string): Template {
    this.common.ops.push({ op: 'new', t: this.id, name });
    return this.make(name);
  }

  private make(name: string): Template {
    const t = new Template(name, this.common);
    t.leftDelim = this.leftDelim;
    t.rightDelim = this.rightDelim;
    return t;
  }

  lookup(name: string): Template | undefined {
    return this.common.tmpl.get(name);
  }

  templates(): Template[] {
    return [...this.common.tmpl.values()];
  }

  /** Go's DefinedTemplates(): "; defined templates are: ..." or "". */
  definedTemplates(): string {
    const names = [...this.common.tmpl.entries()].filter(([, t]) => t.tree && t.tree.root).map(([n]) => goQuote(n));
    return names.length ? '; defined templates are: ' + names.join(', ') : '';
  }

  /** A copy of the whole set; parsing into the copy does not affect this one. Trees are shared (and so is their compiled code). */
  clone(): Template {
    const c = new Common();
    c.base = { common: this.common, upTo: this.common.ops.length, from: this.id };
    c.deep = this.common.deep;
    c.missingKey = this.common.missingKey;
    for (const k of Object.keys(this.common.funcs)) c.funcs[k] = this.common.funcs[k]!;
    const nt = new Template(this._name, c);
    nt.leftDelim = this.leftDelim;
    nt.rightDelim = this.rightDelim;
    nt.tree = this.tree;
    for (const [k, v] of this.common.tmpl) {
      if (k === this._name) {
        c.tmpl.set(k, nt);
        continue;
      }
      const t = new Template(k, c);
      t.leftDelim = v.leftDelim;
      t.rightDelim = v.rightDelim;
      t.tree = v.tree;
      c.tmpl.set(k, t);
    }
    return nt;
  }

  /** Execute with data as dot. Throws ExecError (err.output holds what was written before the error). */
  execute(data: GoValue, opts?: ExecOptions): string {
    // Only a whole execution is repeated on a big stack: include and tpl inside one are part of it.
    const retry = executing.length === 0 && libraryBigStack();
    if (this.common.deep && !onBigStack()) {
      if (retry) return this.executeOnBigStack(data, opts, undefined);
      noteStackExhausted();
      throw new ExecError(`template: ${this._name}: nesting exceeds the JavaScript call stack`, this._name, 0, 0);
    }
    if (!retry) {
      executing.push(this);
      try {
        return run(this.common, this._name, this.tree, data, opts);
      } finally {
        executing.pop();
      }
    }
    clearStackExhausted();
    executing.push(this);
    let out: string;
    try {
      out = run(this.common, this._name, this.tree, data, opts);
    } catch (e) {
      executing.pop();
      if (!stackExhausted()) throw e;
      return this.executeOnBigStack(data, opts, { error: e });
    }
    executing.pop();
    // a function may have answered for the small stack (a YAML reader's depth) without failing the execution
    return stackExhausted() ? this.executeOnBigStack(data, opts, { output: out }) : out;
  }

  /** The same execution on a big stack, for Go's result; first is this thread's result, which stands when that cannot be had. */
  private executeOnBigStack(data: GoValue, opts: ExecOptions | undefined, first: { output: string } | { error: unknown } | undefined): string {
    let answer: BigStackAnswer;
    try {
      const sets = new SetSender(false);
      const target = sets.template(this);
      const request: BigStackRequest = { kind: 'exec', sets: sets.sent(), target, data: sendValue(data), opts: { ...opts } };
      const wait = opts?.timeoutMs !== undefined && opts.timeoutMs > 0 ? opts.timeoutMs + BIG_STACK_START_MS : BIG_STACK_WAIT_MS;
      answer = callOnBigStack(BIG_STACK_SCRIPT, request, wait) as BigStackAnswer;
    } catch (e) {
      if (first && 'output' in first) return first.output;
      throw withReason(first ? first.error : new ExecError(`template: ${this._name}: nesting exceeds the JavaScript call stack`, this._name, 0, 0), e);
    }
    if ('error' in answer) throw receiveError(answer.error, LimitError);
    return 'output' in answer ? answer.output : '';
  }

  executeTemplate(name: string, data: GoValue, opts?: ExecOptions): string {
    const t = this.lookup(name);
    if (!t) {
      throw new ExecError(`template: no template ${goQuote(name)} associated with template ${goQuote(this._name)}`, this._name, 0, 0);
    }
    return t.execute(data, opts);
  }
}

// ---------- the big stack ----------
//
// A set is built again on the big-stack thread (worker.ts) from what built it: the steps
// recorded per set (functions added, options, delimiters, templates made, texts parsed, in order; a
// clone starts from the steps its source had taken). Function maps come from funcSet (funcs/index.ts
// marks them by set name and options) and are built there again; a caller's own function cannot be.

type Op =
  | { op: 'funcs'; names: string[]; fns: GoFunc[] }
  | { op: 'option'; opts: string[] }
  | { op: 'delims'; t: number; l: string; r: string }
  | { op: 'new'; t: number; name: string }
  | { op: 'parse'; t: number; text: string }
  | { op: 'tree'; name: string };

type SentOp = Exclude<Op, { op: 'funcs' } | { op: 'tree' }> | { op: 'funcs'; fns: Array<[string] | [string, number, string]> };

interface SentSet {
  /** The first template's name (a set that is not a clone). */
  name: string;
  base?: { set: number; upTo: number; from: number };
  ops: SentOp[];
}

/** Options of a funcSet call, as sent: the bound template by set and id. */
interface SentOrigin {
  name: string;
  strict?: boolean;
  env?: Record<string, string>;
  template?: [number, number];
}

interface FuncOrigin {
  name: string;
  /** The map funcSet returned (a function's key in it is found when the set is sent). */
  map: FuncMap;
  opts: { template?: Template; strict?: boolean; env?: Record<string, string>; now?: unknown; random?: unknown };
}

interface SentSets {
  sets: SentSet[];
  origins: SentOrigin[];
}

type BigStackRequest =
  | { kind: 'parse'; sets: SentSets; target: [number, number]; text: string }
  | { kind: 'exec'; sets: SentSets; target: [number, number]; data: SentValue; opts: ExecOptions };

type BigStackAnswer = { output: string } | { trees: Array<[string, boolean]> } | { error: SentError };

const BIG_STACK_SCRIPT = builtModule(import.meta.url, '../../../worker.js');
/**
 * How long a big-stack call may take. Go's deep cases take a second or two there; what runs far longer
 * is endless recursion (a tpl evaluating itself: 36 s and 2 GB before the depth limit), whose
 * small-stack error stands. A caller's timeoutMs, when given, bounds the run instead (plus startup).
 */
const BIG_STACK_START_MS = 30_000;
const BIG_STACK_WAIT_MS = 15_000;


/** @internal Mark the functions of a funcSet(name, opts) map, so that a set using them can be built again elsewhere. */
export function markFuncSet(m: FuncMap, name: string, opts: FuncOrigin['opts']): FuncMap {
  // (a field of each function, shared: a WeakMap entry or an object per function made small renders a
  // fifth to a half slower)
  const origin: FuncOrigin = { name, opts, map: m };
  for (const k of Object.keys(m)) m[k]!.origin = origin;
  return m;
}

/** The sets a template's execution needs, as steps; throws NotSendable. */
class SetSender {
  private sets: SentSet[] = [];
  private origins: SentOrigin[] = [];
  private setIds = new Map<Common, number>();
  private originIds = new Map<FuncOrigin, number>();

  /** namesOnly: functions are sent by name only (enough to parse). */
  constructor(private readonly namesOnly: boolean) {}

  template(t: Template): [number, number] {
    return [this.set(t.common), t.id];
  }

  sent(): SentSets {
    return { sets: this.sets, origins: this.origins };
  }

  private set(c: Common): number {
    const known = this.setIds.get(c);
    if (known !== undefined) return known;
    const id = this.sets.length;
    const s: SentSet = { name: c.byId[0]!.name(), ops: [] };
    this.sets.push(s);
    this.setIds.set(c, id);
    if (c.base) s.base = { set: this.set(c.base.common), upTo: c.base.upTo, from: c.base.from };
    for (const op of c.ops) {
      if (op.op === 'tree') throw new NotSendable(`a tree was added to template set ${goQuote(s.name)} with addParseTree`);
      if (op.op !== 'funcs') {
        s.ops.push(op);
        continue;
      }
      s.ops.push({ op: 'funcs', fns: op.names.map((name, i) => this.func(c, name, op.fns[i]!)) });
    }
    return id;
  }

  private func(c: Common, name: string, fn: GoFunc): [string] | [string, number, string] {
    if (this.namesOnly) return [name];
    const o = fn.origin as FuncOrigin | undefined;
    if (o) {
      const key = o.map[fn.name] === fn ? fn.name : Object.keys(o.map).find((k) => o.map[k] === fn);
      if (key !== undefined) return [name, this.origin(o), key];
    }
    // replaced since: a stand-in of the same name parses the same
    if (c.funcs[name] !== fn) return [name];
    throw new NotSendable(`function ${goQuote(name)} does not come from funcSet (a caller's own JavaScript function cannot be sent)`);
  }

  private origin(o: FuncOrigin): number {
    const known = this.originIds.get(o);
    if (known !== undefined) return known;
    if (o.opts.now !== undefined || o.opts.random !== undefined) throw new NotSendable(`the ${o.name} functions were given their own clock or random source`);
    const s: SentOrigin = { name: o.name };
    if (o.opts.strict !== undefined) s.strict = o.opts.strict;
    if (o.opts.env !== undefined) s.env = { ...o.opts.env };
    const id = this.origins.length;
    this.origins.push(s);
    this.originIds.set(o, id);
    if (o.opts.template) s.template = this.template(o.opts.template);
    return id;
  }
}

/** A function set of the given name and options, include and tpl bound to the template bound() gives. */
export type FuncSetBuilder = (name: string, opts: { strict?: boolean; env?: Record<string, string> }, bound: () => Template | undefined) => FuncMap;

/** @internal The big-stack thread's answer to a request (worker.ts). */
export function answerOnBigStack(request: unknown, build: FuncSetBuilder): BigStackAnswer {
  const req = request as BigStackRequest;
  try {
    const at = rebuild(req.sets, build);
    const t = at(req.target[0], req.target[1]);
    if (req.kind === 'parse') {
      let trees: Map<string, Tree>;
      try {
        trees = t.parseTrees(req.text);
      } catch (e) {
        // deeper than even this stack: the same clean error as on the small one
        if (e instanceof RangeError && isStackOverflow(e)) throw new ParseError(`template: ${t.name()}: nesting exceeds the JavaScript call stack`, t.name(), 0, 0);
        throw e;
      }
      return { trees: [...trees].map(([name, tree]) => [name, isEmptyTree(tree.root)]) };
    }
    return { output: t.execute(receiveValue(req.data), req.opts) };
  } catch (e) {
    return { error: sendError(e, LimitError) };
  }
}

/** The sets sent, built again step by step; returns the template of a set by id. */
function rebuild(sent: SentSets, build: FuncSetBuilder): (set: number, id: number) => Template {
  const full = new Map<number, Template[]>();
  const built = new Map<number, FuncMap>();
  const at = (set: number, id: number): Template => {
    let ts = full.get(set);
    if (!ts) {
      ts = replay(set, sent.sets[set]!.ops.length);
      full.set(set, ts);
    }
    return ts[id]!;
  };
  const origin = (i: number): FuncMap => {
    let m = built.get(i);
    if (!m) {
      const o = sent.origins[i]!;
      const ref = o.template;
      m = build(o.name, { ...(o.strict !== undefined ? { strict: o.strict } : {}), ...(o.env ? { env: o.env } : {}) }, () => (ref ? at(ref[0], ref[1]) : undefined));
      built.set(i, m);
    }
    return m;
  };
  const replay = (set: number, upTo: number): Template[] => {
    const s = sent.sets[set]!;
    const root = s.base ? replay(s.base.set, s.base.upTo)[s.base.from]!.clone() : new Template(s.name);
    const ts = root.common.byId;
    for (const op of s.ops.slice(0, upTo)) {
      // a step that failed the first time fails the same way again, having done the same part
      try {
        switch (op.op) {
          case 'funcs': {
            const m: FuncMap = Object.create(null) as FuncMap;
            for (const f of op.fns) m[f[0]] = f.length === 3 ? origin(f[1])[f[2]]! : standIn(f[0]);
            root.funcs(m);
            break;
          }
          case 'option':
            root.option(...op.opts);
            break;
          case 'delims':
            ts[op.t]!.delims(op.l, op.r);
            break;
          case 'new':
            ts[op.t]!.new(op.name);
            break;
          case 'parse':
            ts[op.t]!.parse(op.text);
            break;
        }
      } catch {
        // (as the first time)
      }
    }
    return ts;
  };
  return at;
}

function standIn(name: string): GoFunc {
  return new GoFunc(name, [], false, 1, T.string, () => '');
}

/** A tree standing for one parsed on a big stack: empty or not, as that one is. */
function placeholderTree(name: string, empty: boolean): Tree {
  const set = new Map<string, Tree>();
  new Tree(name).parse(empty ? '' : 'x', '', '', set, () => false);
  return set.get(name)!;
}

/** The small-stack error, saying why it was not repeated on a big stack. */
function withReason(small: unknown, why: unknown): unknown {
  if (!(small instanceof Error)) return small;
  const reason = why instanceof NotSendable || why instanceof SyncStackError ? why.message : `the big-stack run failed: ${why instanceof Error ? why.message : String(why)}`;
  const e = small;
  try {
    e.message = `${e.message} (not run again on a big stack: ${reason})`;
  } catch {
    // (a frozen error keeps its text)
  }
  return e;
}

/** Parse and execute in one step (template name "t" unless given). */
export function render(text: string, data: GoValue, opts: { name?: string; funcs?: FuncMap; options?: string[] } = {}): string {
  const t = new Template(opts.name ?? 't');
  if (opts.funcs) t.funcs(opts.funcs);
  if (opts.options) t.option(...opts.options);
  return t.parse(text).execute(data);
}

// The Go value model, for building data and defining functions.
export * from '../../reflect/value.js';
