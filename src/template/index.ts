// The public API: Go's text/template.Template, executing into a string.
//
//   const t = new Template('t').funcs(myFuncs).parse('Hello {{ .name }}');
//   t.execute({ name: 'world' });            // "Hello world"

import { ExecError, GoPanic, ParseError, TemplateError } from './errors.js';
import { ExecLimits, FRESH_MAP_FUNCS, LimitError, MissingKey, compileTree, execute as run, type ExecSet } from './exec.js';
import { BUILTINS } from './builtins.js';
import { Tree } from './parse.js';
import { isEmptyTree } from './nodes.js';
import { goQuote } from './quote.js';
import type { FuncMap, GoValue } from './value.js';
import { isStackOverflow } from '../util/stack.js';

export { ExecError, GoPanic, ParseError, TemplateError, LimitError };
export type { ExecLimits };
export type ExecOptions = ExecLimits;
export { formatValue, sprint, sprintf, sprintln, goTypeName } from './fmt.js';
export { BUILTINS, htmlEscapeString, jsEscapeString, urlQueryEscape } from './builtins.js';
export { typeName } from './exec.js';
export { Tree } from './parse.js';

const NAME_RE = /^[\p{L}_][\p{L}\p{Nd}_]*$/u;

/** The state shared by a template and its associated templates (Go's `common`). */
class Common implements ExecSet {
  tmpl = new Map<string, Template>();
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
  private common: Common;
  private leftDelim = '';
  private rightDelim = '';

  constructor(
    private readonly _name: string,
    common?: Common,
  ) {
    this.common = common ?? new Common();
  }

  name(): string {
    return this._name;
  }

  /** Add functions (before parse). Later calls override earlier ones, as in Go. */
  funcs(m: FuncMap): this {
    for (const k of Object.keys(m)) {
      if (!NAME_RE.test(k)) throw new Error(`function name ${goQuote(k)} is not a valid identifier`);
      this.common.funcs[k] = m[k]!;
    }
    // Whether the data must be copied can depend on which function a name calls (FRESH_MAP_FUNCS).
    this.common.mutates = null;
    return this;
  }

  /** 'missingkey=default|invalid|zero|error' */
  option(...opts: string[]): this {
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
    this.leftDelim = left;
    this.rightDelim = right;
    return this;
  }

  /** Parse text as this template's body; {{define}}/{{block}} add associated templates. Throws ParseError. */
  parse(text: string): this {
    const treeSet = new Map<string, Tree>();
    const funcs = this.common.funcs;
    const has = (name: string): boolean => Object.prototype.hasOwnProperty.call(funcs, name) || Object.prototype.hasOwnProperty.call(BUILTINS, name);
    try {
      new Tree(this._name).parse(text, this.leftDelim, this.rightDelim, treeSet, has);
    } catch (e) {
      // Go's parser nests as deep as the text does; ours stops at the JavaScript stack, with a ParseError
      // (and a note that the command is worth a run on a big stack, util/stack.ts).
      if (e instanceof RangeError && isStackOverflow(e)) throw new ParseError(`template: ${this._name}: nesting exceeds the JavaScript call stack`, this._name, 0, 0);
      throw e;
    }
    for (const [name, tree] of treeSet) this.addParseTree(name, tree);
    return this;
  }

  /** Go's AddParseTree: associate tree with name in this set (an empty tree never replaces a real one). */
  addParseTree(name: string, tree: Tree): Template {
    this.common.mutates = null;
    const nt = name === this._name ? this : this.new(name);
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
    executing.push(this);
    try {
      return run(this.common, this._name, this.tree, data, opts);
    } finally {
      executing.pop();
    }
  }

  executeTemplate(name: string, data: GoValue, opts?: ExecOptions): string {
    const t = this.lookup(name);
    if (!t) {
      throw new ExecError(`template: no template ${goQuote(name)} associated with template ${goQuote(this._name)}`, this._name, 0, 0);
    }
    return t.execute(data, opts);
  }
}

/** Parse and execute in one step (template name "t" unless given). */
export function render(text: string, data: GoValue, opts: { name?: string; funcs?: FuncMap; options?: string[] } = {}): string {
  const t = new Template(opts.name ?? 't');
  if (opts.funcs) t.funcs(opts.funcs);
  if (opts.options) t.option(...opts.options);
  return t.parse(text).execute(data);
}

// The Go value model, for building data and defining functions.
export * from './value.js';
