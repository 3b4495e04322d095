// Execution: each parsed tree is compiled once into JavaScript closures that follow Go's exec.go step
// for step (same evaluation order, same `s.at(node)` bookkeeping for error contexts, same checks), but
// walk no tree at run time. Variables are resolved to frame slots at compile time (Go's scoping is
// lexical, so its run-time variable stack always agrees with the slots).
//
// Mirrors: go1.19 src/text/template/exec.go
// Proven by: test/vectors/template/, test/vectors/helm-template/capabilities.yaml (addressable values)

import { ExecError } from './errors.js';
import { formatValue, isPrintable } from '../../fmt/print.js';
import { formatFloat } from '../../strconv/strconv.js';
import {
  ActionNode,
  BoolNode,
  BreakNode,
  ChainNode,
  CommandNode,
  CommentNode,
  ContinueNode,
  DotNode,
  FieldNode,
  IdentifierNode,
  IfNode,
  ListNode,
  NilNode,
  Node,
  NumberNode,
  PipeNode,
  RangeNode,
  StringNode,
  TemplateNode,
  TextNode,
  VariableNode,
  WithNode,
  errorContext,
} from './parse/node.js';
import type { Tree } from './parse/parse.js';
import { goQuote } from '../../strconv/quote.js';
import {
  AddressedStruct,
  GO_TYPE,
  GoError,
  GoFunc,
  GoNil,
  GoNum,
  GoStruct,
  T,
  asDeclared,
  declaredField,
  intern,
  isMap,
  bitsOf,
  isFloatKind,
  sortKeys,
  isIntKind,
  isTrue,
  isUintKind,
  typeOf,
  zeroValue,
  type FuncMap,
  type GoMap,
  type GoMethod,
  type StructField,
  type GoType,
  type GoValue,
  MAP_STRING_IFACE,
  SLICE_IFACE,
  addressed,
  unaddressed,
} from '../../reflect/value.js';
import { BUILTINS, SLICE_INDEX_IFACE, eq2, index1 } from './funcs.js';
import { copyData } from './copy.js';
import { isStackOverflow } from '../../../guard/stack.js';
import {
  DEFAULT_MAX_BUILT_BYTES,
  DEFAULT_MAX_LIST_LENGTH,
  DEFAULT_MAX_VALUE_BYTES,
  LimitExceeded,
  RESULT_CHECK_UNITS,
  checkResult,
  enterLimits,
  isLengthRangeError,
  leaveLimits,
  type SizeLimits,
} from '../../../guard/limits.js';

export const MAX_EXEC_DEPTH = 100000;

export const enum MissingKey {
  Invalid = 0,
  Zero = 1,
  Error = 2,
}

/** The template set as execution sees it. */
export interface ExecSet {
  lookupTree(name: string): { name: string; tree: Tree } | undefined;
  readonly funcs: FuncMap;
  readonly missingKey: MissingKey;
  /** Whether any template of the set can change maps in place (see MUTATORS); absent: assume it can. */
  mayMutate?(): boolean;
}

/**
 * Functions that change a map in place (Sprig's set, unset and merges) or run template text unknown
 * until execution (Helm's tpl). Only a set that calls one of them needs its data copied first.
 */
export const MUTATORS: ReadonlySet<string> = new Set(['set', 'unset', 'merge', 'mustMerge', 'mergeOverwrite', 'mustMergeOverwrite', 'tpl']);

/**
 * Functions that return a new map no data can reach (Sprig's dict). `set` and `unset` change only the
 * map they are given, so on a variable that only ever holds such results they change no data, and the
 * data need not be copied for them.
 */
export const FRESH_MAP_FUNCS = new WeakSet<GoFunc>();

/** Where only a new map can be: the name of the function every assignment of it calls. */
const FRESH_MAKER = 'dict';

/** Variables of a tree that every declaration and assignment sets to a call of FRESH_MAKER alone. */
function freshMapVariables(root: ListNode): Set<string> {
  const fresh = new Set<string>();
  const not = new Set<string>();
  const pipe = (p: PipeNode | null): void => {
    if (!p) return;
    if (p.decl.length > 0) {
      const c = p.cmds.length === 1 ? p.cmds[0]!.args[0] : undefined;
      const ok = p.decl.length === 1 && c instanceof IdentifierNode && c.ident === FRESH_MAKER;
      for (const v of p.decl) (ok ? fresh : not).add(v.ident[0]!);
    }
    for (const c of p.cmds) for (const a of c.args) arg(a);
  };
  const arg = (a: Node): void => {
    if (a instanceof PipeNode) pipe(a);
    else if (a instanceof ChainNode) arg(a.node);
  };
  const walk = (n: Node | null): void => {
    if (!n) return;
    if (n instanceof ListNode) for (const x of n.nodes) walk(x);
    else if (n instanceof ActionNode) pipe(n.pipe);
    else if (n instanceof IfNode || n instanceof WithNode || n instanceof RangeNode) {
      pipe(n.pipe);
      walk(n.list);
      walk(n.elseList);
    } else if (n instanceof TemplateNode) pipe(n.pipe);
  };
  walk(root);
  for (const v of not) fresh.delete(v);
  return fresh;
}

/** Resource limits; every breach is an ExecError naming the limit. */
export interface ExecLimits {
  /** Maximum bytes of output (default 256 MiB). */
  maxOutputBytes?: number;
  /** Maximum total range iterations in one execution (default 100,000,000). */
  maxRangeIterations?: number;
  /** Wall-clock budget in milliseconds (default: none). */
  timeoutMs?: number;
  /** Maximum nesting of {{template}} calls (default Go's 100000); Helm's include and tpl nest too. */
  maxTemplateDepth?: number;
  /** Largest string a function may build: repeat, indent, replace, join, ... (default 64 MiB). */
  maxValueBytes?: number;
  /** Longest list until, untilStep and seq may build (default 1,000,000). */
  maxListLength?: number;
  /** Total bytes functions may build in one execution, a list element counting 8 (default 1 GiB). */
  maxBuiltBytes?: number;
  /**
   * Copy the data's maps and slices before executing, so that functions changing maps in place never
   * change the caller's objects. Default: only when a template of the set calls one of MUTATORS.
   */
  copyData?: boolean;
}

/** A limit was exceeded: never wrapped as a function error. */
export class LimitError extends ExecError {}

const MISSING: unique symbol = Symbol('missingVal');
type Final = GoValue | typeof MISSING;

const enum Flow {
  Normal = 0,
  Break = 1,
  Continue = 2,
}

type Stmt = (s: State, dot: GoValue, di: boolean) => Flow;
type Expr = (s: State, dot: GoValue, di: boolean) => GoValue;
type Cmd = (s: State, dot: GoValue, di: boolean, final: Final) => GoValue;

/** How one argument node is evaluated; literals are converted by the parameter type at call time. */
const enum ArgKind {
  Dot,
  Nil,
  Expr,
  Literal,
}
interface ArgEval {
  kind: ArgKind;
  node: Node;
  expr: Expr | null;
  /** A literal converted for the parameter type it was last passed to. */
  litType?: GoType;
  litValue?: GoValue;
  /** A literal as a function received it (toJs) for the parameter type litJsType. */
  litJsType?: GoType;
  litJs?: GoValue;
}

const NO_ARGS: ArgEval[] = [];
const NO_RECV: unique symbol = Symbol('noReceiver');

export class State {
  out = '';
  vars: GoValue[] = [];
  node: Node | null = null;
  depth = 0;
  /** Set by a field lookup: the result came out of an interface-typed slot (Go reports its type as interface {}). */
  iface = false;
  iterations = 0;
  outCheckAt: number;
  readonly deadline: number;
  readonly maxOut: number;
  readonly maxIter: number;
  readonly maxDepth: number;
  readonly funcs: FuncMap;
  readonly missingKey: MissingKey;

  readonly sizes: SizeLimits;

  /** `outer`: the execution this one runs inside (Helm's include/tpl); its budgets carry over. */
  constructor(
    readonly set: ExecSet,
    public name: string,
    limits: ExecLimits,
    readonly outer: State | null = null,
  ) {
    this.funcs = set.funcs;
    this.missingKey = set.missingKey;
    this.maxOut = limits.maxOutputBytes ?? outer?.maxOut ?? 256 * 1024 * 1024;
    this.maxIter = limits.maxRangeIterations ?? outer?.maxIter ?? 100_000_000;
    this.maxDepth = limits.maxTemplateDepth ?? outer?.maxDepth ?? MAX_EXEC_DEPTH;
    const deadline = limits.timeoutMs !== undefined ? Date.now() + limits.timeoutMs : Infinity;
    this.deadline = outer ? Math.min(outer.deadline, deadline) : deadline;
    this.outCheckAt = Math.floor(this.maxOut / 3);
    if (outer) {
      this.iterations = outer.iterations;
      this.depth = outer.depth + 1;
      this.sizes = outer.sizes;
    } else {
      this.sizes = {
        maxValueBytes: limits.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES,
        maxListLength: limits.maxListLength ?? DEFAULT_MAX_LIST_LENGTH,
        maxBuiltBytes: limits.maxBuiltBytes ?? DEFAULT_MAX_BUILT_BYTES,
        built: 0,
        deadline: this.deadline,
      };
    }
  }
}

// ---------- errors ----------

function errorf(s: State, msg: string): never {
  if (s.node === null) throw new ExecError(`template: ${s.name}: ${msg}`, s.name, 0, 0);
  const c = errorContext(s.node);
  throw new ExecError(`template: ${c.location}: executing ${goQuote(s.name)} at <${c.context}>: ${msg}`, s.name, c.line, c.col);
}

function limitError(s: State, msg: string): never {
  try {
    errorf(s, msg);
  } catch (e) {
    const x = e as ExecError;
    throw new LimitError(x.message, x.templateName, x.line, x.col);
  }
}

function checkOutput(s: State): void {
  const bytes = Buffer.byteLength(s.out, 'utf8');
  if (bytes > s.maxOut) limitError(s, `output exceeds the limit of ${s.maxOut} bytes`);
  s.outCheckAt = s.out.length + Math.max(1, Math.floor((s.maxOut - bytes) / 3));
}

function checkTime(s: State): void {
  if (Date.now() > s.deadline) limitError(s, `execution exceeded the time limit`);
}

// ---------- values ----------

/** The Go type name of a value as reflect reports it (nil interface: "interface {}"). */
export function typeName(v: GoValue): string {
  if (v === null) return 'interface {}';
  const t = typeOf(v);
  return t ? t.name : '<invalid>';
}

const hasOwn = Object.prototype.hasOwnProperty;

function methodsOf(v: GoValue): Record<string, GoMethod> | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  if (v instanceof GoStruct || v instanceof GoNum) return v.type.methods;
  if (v instanceof GoNil) return v.type.methods;
  if (v instanceof GoFunc) return undefined;
  return (v as { [GO_TYPE]?: GoType })[GO_TYPE]?.methods;
}

function findMethod(v: GoValue, name: string): GoMethod | undefined {
  const ms = methodsOf(v);
  if (ms && Object.prototype.hasOwnProperty.call(ms, name)) return ms[name];
  if (v instanceof GoNil && v.type.kind === 'ptr' && v.type.elem?.methods && Object.prototype.hasOwnProperty.call(v.type.elem.methods, name)) {
    return nilValueMethod(v.type.elem, v.type.elem.methods[name]!);
  }
  return undefined;
}

/** A value method reached through a nil pointer: Go panics when it is called. */
function nilValueMethod(elem: GoType, m: GoMethod): GoMethod {
  const short = elem.name.slice(elem.name.lastIndexOf('.') + 1);
  return {
    ...m,
    fn: () => {
      throw new GoError(`value method ${elem.name}.${m.name} called using nil *${short} pointer`);
    },
  };
}

/** Field of a struct type, including fields promoted from embedded structs. */
function findField(t: GoType, name: string): { type: GoType } | undefined {
  const fs = t.fields;
  if (!fs) return undefined;
  for (const f of fs) if (f.name === name) return f;
  for (const f of fs) {
    if (f.embedded) {
      const et = f.type.kind === 'ptr' && f.type.elem ? f.type.elem : f.type;
      const r = findField(et, name);
      if (r) return r;
    }
  }
  return undefined;
}

/** What `.Name` selects on a struct type: a method first, else a field (promoted ones included). */
interface StructSelector {
  methods: Record<string, GoMethod> | undefined;
  fields: GoType['fields'];
  nfields: number;
  method: GoMethod | undefined;
  field: { type: GoType } | undefined;
  exported: boolean;
  iface: boolean;
  /** declaredField(t, name), for GoStruct.fieldDeclared. */
  declared: StructField | undefined;
}

const selectors = new WeakMap<GoType, Map<string, StructSelector>>();

/** Cached per struct type and name (checked against the type's current method and field lists). */
function structSelector(t: GoType, name: string): StructSelector {
  let byName = selectors.get(t);
  if (byName === undefined) {
    byName = new Map();
    selectors.set(t, byName);
  }
  let sel = byName.get(name);
  const fs = t.fields;
  if (sel === undefined || sel.methods !== t.methods || sel.fields !== fs || sel.nfields !== (fs ? fs.length : 0)) {
    const ms = t.methods;
    const method = ms && hasOwn.call(ms, name) ? ms[name] : undefined;
    const field = findField(t, name);
    sel = {
      methods: ms,
      fields: fs,
      nfields: fs ? fs.length : 0,
      method,
      field,
      exported: isExported(name),
      iface: field !== undefined && field.type.kind === 'interface',
      declared: declaredField(t, name),
    };
    byName.set(name, sel);
  }
  return sel;
}

const UPPER_RE = /^\p{Lu}$/u;
function isExported(name: string): boolean {
  return UPPER_RE.test(String.fromCodePoint(name.codePointAt(0)!));
}

function canBeNil(t: GoType): boolean {
  switch (t.kind) {
    case 'chan':
    case 'func':
    case 'interface':
    case 'map':
    case 'ptr':
    case 'slice':
      return true;
    case 'struct':
      return t === T.reflectValue;
  }
  return false;
}

function assignable(v: GoValue, t: GoType): boolean {
  if (t.kind === 'interface') {
    if (t.name === 'interface {}') return true;
    if (v === null) return false;
    if (t.name === 'error') return findMethod(v, 'Error') !== undefined;
    return true;
  }
  if (v === null) return false;
  const vt = typeOf(v);
  if (!vt) return false;
  if (vt === t) return true;
  return vt.name === t.name;
}

/** Go's validateType: check (and, for pointers, adjust) a value passed where type t is declared. */
function validateType(s: State, v: GoValue, t: GoType | null): GoValue {
  if (t === null) return v;
  if (v === undefined) {
    if (t === T.reflectValue) return undefined;
    if (canBeNil(t)) return zeroValue(t);
    errorf(s, `invalid value; expected ${t.name}`);
  }
  if (t === T.reflectValue) return v;
  if (assignable(v, t)) return v;
  if (v instanceof GoStruct && v.ptr && v.type.name === t.name) return v;
  if (v instanceof GoNil && v.type.kind === 'ptr' && v.type.elem && v.type.elem.name === t.name) {
    errorf(s, `dereference of nil pointer of type ${t.name}`);
  }
  if (v instanceof GoStruct && !v.ptr && t.kind === 'ptr' && t.elem && t.elem.name === v.type.name) return v;
  errorf(s, `wrong type for value; expected ${t.name}; got ${typeName(v)}`);
}

/** A validated Go value as the JavaScript function receives it (see value.ts `def`). */
function toJs(t: GoType, v: GoValue): GoValue {
  if (v instanceof GoNum && t.kind !== 'interface' && t !== T.reflectValue) return v.v;
  if (v === undefined && t.kind === 'interface') return null;
  // a function gets a copy of an addressable struct (a reflect.Value parameter keeps it as it is)
  if (v instanceof AddressedStruct && t !== T.reflectValue) return v.plain;
  return v;
}

// ---------- constants ----------

function isHexInt(s: string): boolean {
  return s.length > 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X') && !/[pP]/.test(s);
}

const COMPLEX128: GoType = { kind: 'complex128', name: 'complex128' };

/** A complex constant: a GoNum of kind complex128 holding the real part, with the imaginary part beside it. */
export interface GoComplex extends GoNum {
  readonly im: number;
}

export function complexValue(t: GoType, re: number, im: number): GoComplex {
  return Object.assign(new GoNum(t, re), { im }) as GoComplex;
}

/** %v of a complex: (re+imi), each part as %v prints a float. */
export function formatComplex(c: GoComplex): string {
  const im = formatFloat(c.im, 'g', -1, 64);
  return `(${formatFloat(c.v as number, 'g', -1, 64)}${im[0] === '-' || im[0] === '+' ? im : '+' + im}i)`;
}

/** Go's idealConstant, decided at compile time; errors are raised only when executed. */
function idealConstant(n: NumberNode): Expr {
  let v: GoValue;
  if (n.isComplex) {
    v = complexValue(COMPLEX128, n.complex[0], n.complex[1]);
  } else if (n.isFloat && !isHexInt(n.text) && n.text[0] !== "'" && /[.eEpP]/.test(n.text)) {
    v = n.float64;
  } else if (n.isInt) {
    v = n.int64;
  } else if (n.isUint) {
    return (s) => {
      s.node = n;
      errorf(s, `${n.text} overflows int`);
    };
  } else v = undefined;
  return (s) => {
    s.node = n;
    return v;
  };
}

function literalArg(s: State, t: GoType, n: Node, dot: GoValue): GoValue {
  const k = t.kind;
  if (k === 'bool') {
    if (n instanceof BoolNode) return n.value;
    errorf(s, `expected bool; found ${n.toString()}`);
  }
  if (k === 'string') {
    if (n instanceof StringNode) return n.text;
    errorf(s, `expected string; found ${n.toString()}`);
  }
  if (isIntKind(k)) {
    if (n instanceof NumberNode && n.isInt) {
      const x = BigInt.asIntN(bitsOf(k), n.int64);
      return t === T.int ? x : new GoNum(t, x);
    }
    errorf(s, `expected integer; found ${n.toString()}`);
  }
  if (isUintKind(k)) {
    if (n instanceof NumberNode && n.isUint) return new GoNum(t, BigInt.asUintN(bitsOf(k), n.uint64));
    errorf(s, `expected unsigned integer; found ${n.toString()}`);
  }
  if (isFloatKind(k)) {
    if (n instanceof NumberNode && n.isFloat) return t === T.float64 ? n.float64 : new GoNum(t, k === 'float32' ? Math.fround(n.float64) : n.float64);
    errorf(s, `expected float; found ${n.toString()}`);
  }
  if (k === 'complex64' || k === 'complex128') {
    if (n instanceof NumberNode && n.isComplex) return complexValue(t, n.complex[0], n.complex[1]);
    errorf(s, `expected complex; found ${n.toString()}`);
  }
  if ((k === 'interface' && t.name === 'interface {}') || t === T.reflectValue) {
    if (n instanceof BoolNode) return n.value;
    if (n instanceof StringNode) return n.text;
    if (n instanceof NumberNode) return idealConstant(n)(s, dot, false);
  }
  errorf(s, `can't handle ${n.toString()} for arg of type ${t.name}`);
}

function evalArg(s: State, dot: GoValue, di: boolean, t: GoType, a: ArgEval): GoValue {
  s.node = a.node;
  s.iface = false;
  switch (a.kind) {
    case ArgKind.Dot:
      s.iface = di;
      return validateType(s, dot, t);
    case ArgKind.Nil:
      if (canBeNil(t)) return t === T.reflectValue ? undefined : zeroValue(t);
      errorf(s, `cannot assign nil to ${t.name}`);
    case ArgKind.Expr:
      return validateType(s, a.expr!(s, dot, di), t);
    default: {
      if (a.litType === t) return a.litValue;
      let v = literalArg(s, t, a.node, dot);
      if (typeof v === 'string' && v.length <= 256) v = intern(v);
      a.litType = t;
      a.litValue = v;
      return v;
    }
  }
}

// ---------- calls ----------

interface Callable {
  params: GoType[];
  variadic?: boolean;
  results: 1 | 2;
  resultType: GoType;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  fn: (...args: any[]) => GoValue;
}

function errorText(e: unknown): string {
  if (e instanceof Error) {
    if (e instanceof RangeError && e.message.includes('call stack')) throw e;
    return e.message;
  }
  return String(e);
}

function evalCall(
  s: State,
  dot: GoValue,
  di: boolean,
  fn: Callable,
  recv: GoValue | typeof NO_RECV,
  special: string | undefined,
  node: Node,
  name: string,
  args: ArgEval[],
  final: Final,
): GoValue {
  const params = fn.params;
  const nargs = args.length;
  const numIn = final !== MISSING ? nargs + 1 : nargs;
  let numFixed = nargs;
  const variadic = fn.variadic === true;
  if (variadic) {
    numFixed = params.length - 1;
    if (numIn < numFixed) errorf(s, `wrong number of args for ${name}: want at least ${params.length - 1} got ${nargs}`);
  } else if (numIn !== params.length) {
    errorf(s, `wrong number of args for ${name}: want ${params.length} got ${numIn}`);
  }

  if (special === 'and' || special === 'or') {
    const wantTrue = special === 'or';
    let v: GoValue = undefined;
    for (let i = 0; i < nargs; i++) {
      v = evalArg(s, dot, di, T.reflectValue, args[i]!);
      if (isTrue(v) === wantTrue) return v;
    }
    if (final !== MISSING) v = final;
    return v;
  }

  const argv: GoValue[] = new Array(numIn);
  let i = 0;
  for (; i < numFixed && i < nargs; i++) {
    const t = params[i]!;
    argv[i] = toJs(t, evalArg(s, dot, di, t, args[i]!));
  }
  if (variadic) {
    const et = params[params.length - 1]!.elem ?? T.iface;
    if (special === 'slice') SLICE_INDEX_IFACE.length = 0;
    for (; i < nargs; i++) {
      argv[i] = toJs(et, evalArg(s, dot, di, et, args[i]!));
      // slice (unlike index) does not look inside interface values of its indexes
      if (special === 'slice') SLICE_INDEX_IFACE.push(s.iface && argv[i] !== undefined);
    }
  }
  if (final !== MISSING) {
    let t = params[params.length - 1]!;
    if (variadic) t = numIn - 1 < numFixed ? params[numIn - 1]! : (t.elem ?? T.iface);
    argv[i] = toJs(t, validateType(s, final, t));
  }
  let v: GoValue;
  try {
    if (recv !== NO_RECV) v = fn.fn(recv, ...argv);
    else if (numIn === 1) v = fn.fn(argv[0]);
    else if (numIn === 2) v = fn.fn(argv[0], argv[1]);
    else v = fn.fn(...argv);
  } catch (e) {
    callFailed(s, e, node, name);
  }
  if (typeof v === 'string' && v.length > RESULT_CHECK_UNITS) resultChecked(s, v, node, name);
  return asDeclared(fn.resultType, v);
}

function resultChecked(s: State, v: string, node: Node, name: string): void {
  try {
    checkResult(v);
  } catch (e) {
    callFailed(s, e, node, name);
  }
}

/** A function threw: Go's "error calling NAME: ..." (a limit stays a limit error). */
function callFailed(s: State, e: unknown, node: Node, name: string): never {
  if (e instanceof LimitError) throw e;
  if (e instanceof LimitExceeded) {
    s.node = node;
    limitError(s, `error calling ${name}: ${e.message}`);
  }
  if (isLengthRangeError(e)) {
    s.node = node;
    limitError(s, `error calling ${name}: result exceeds the limit of ${s.sizes.maxValueBytes} bytes per value`);
  }
  const msg = errorText(e);
  s.node = node;
  errorf(s, `error calling ${name}: ${msg}`);
}

// A call site is specialised for the function it last called: each argument's conversion is decided
// once (most parameters are interface {}, reflect.Value or string, which need no validation work), and
// up to four arguments are passed without building an argument array.

const enum Conv {
  /** reflect.Value: the value as it is. */
  Raw,
  /** interface {}: an invalid value becomes nil. */
  Iface,
  /** string: a JS string passes; anything else is checked the general way. */
  String,
  /** Go's validateType, then the JS form of the declared type. */
  Generic,
}

function convOf(t: GoType): Conv {
  if (t === T.reflectValue) return Conv.Raw;
  if (t === T.iface) return Conv.Iface;
  if (t === T.string) return Conv.String;
  return Conv.Generic;
}

/** evalArg then toJs, with the common parameter types inline. */
function argValue(s: State, dot: GoValue, di: boolean, a: ArgEval, t: GoType, c: Conv): GoValue {
  let v: GoValue;
  if (a.kind === ArgKind.Expr) {
    s.node = a.node;
    s.iface = false;
    v = a.expr!(s, dot, di);
  } else if (a.kind === ArgKind.Dot) {
    s.node = a.node;
    s.iface = di;
    v = dot;
  } else if (a.kind === ArgKind.Literal && a.litJsType === t) {
    // (converted when the site first ran: a literal's conversion cannot fail the second time)
    return a.litJs;
  } else {
    const x = toJs(t, evalArg(s, dot, di, t, a));
    if (a.kind === ArgKind.Literal) {
      a.litJsType = t;
      a.litJs = x;
    }
    return x;
  }
  return convert(s, v, t, c);
}

function convert(s: State, v: GoValue, t: GoType, c: Conv): GoValue {
  switch (c) {
    case Conv.Raw:
      return v;
    case Conv.Iface:
      return v === undefined ? null : unaddressed(v);
    case Conv.String:
      if (typeof v === 'string') return v;
  }
  return toJs(t, validateType(s, v, t));
}

/** How one call site calls one function with a fixed number of arguments (the piped one included). */
interface CallPlan {
  fn: GoFunc;
  hasFinal: boolean;
  numIn: number;
  types: GoType[];
  convs: Conv[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  impl: (...args: any[]) => GoValue;
  /** asDeclared is the identity for the result type. */
  rawResult: boolean;
  ifaceResult: boolean;
}

/** A plan, or null when the general path must run (argument count errors, and, or, slice, many arguments). */
function planCall(fn: GoFunc, special: string | undefined, nargs: number, hasFinal: boolean): CallPlan | null {
  if (special !== undefined) return null;
  const numIn = hasFinal ? nargs + 1 : nargs;
  if (numIn > 4) return null;
  const params = fn.params;
  const types: GoType[] = [];
  if (fn.variadic) {
    const numFixed = params.length - 1;
    if (numIn < numFixed) return null;
    const et = params[numFixed]!.elem ?? T.iface;
    for (let i = 0; i < numIn; i++) types.push(i < numFixed ? params[i]! : et);
  } else {
    if (numIn !== params.length) return null;
    for (let i = 0; i < numIn; i++) types.push(params[i]!);
  }
  const rt = fn.resultType;
  let impl = fn.fn;
  if (numIn === 2 && fn === BUILTINS.eq) impl = eq2;
  else if (numIn === 2 && fn === BUILTINS.index) impl = index1;
  return {
    fn,
    hasFinal,
    numIn,
    types,
    convs: types.map(convOf),
    impl,
    rawResult: rt === T.string || rt === T.bool || rt.kind === 'interface' || rt === T.reflectValue,
    ifaceResult: rt.kind === 'interface',
  };
}

/** The call through a plan: same order of evaluation, same errors as evalCall. */
function planned(s: State, dot: GoValue, di: boolean, p: CallPlan, node: Node, name: string, args: ArgEval[], final: Final): GoValue {
  const n = p.numIn;
  const nargs = args.length;
  const ts = p.types;
  const cs = p.convs;
  let a0: GoValue, a1: GoValue, a2: GoValue, a3: GoValue;
  if (n > 0) a0 = nargs > 0 ? argValue(s, dot, di, args[0]!, ts[0]!, cs[0]!) : convert(s, final as GoValue, ts[0]!, cs[0]!);
  if (n > 1) a1 = nargs > 1 ? argValue(s, dot, di, args[1]!, ts[1]!, cs[1]!) : convert(s, final as GoValue, ts[1]!, cs[1]!);
  if (n > 2) a2 = nargs > 2 ? argValue(s, dot, di, args[2]!, ts[2]!, cs[2]!) : convert(s, final as GoValue, ts[2]!, cs[2]!);
  if (n > 3) a3 = nargs > 3 ? argValue(s, dot, di, args[3]!, ts[3]!, cs[3]!) : convert(s, final as GoValue, ts[3]!, cs[3]!);
  const f = p.impl;
  let v: GoValue;
  try {
    switch (n) {
      case 0:
        v = f();
        break;
      case 1:
        v = f(a0);
        break;
      case 2:
        v = f(a0, a1);
        break;
      case 3:
        v = f(a0, a1, a2);
        break;
      default:
        v = f(a0, a1, a2, a3);
    }
  } catch (e) {
    callFailed(s, e, node, name);
  }
  if (typeof v === 'string' && v.length > RESULT_CHECK_UNITS) resultChecked(s, v, node, name);
  s.iface = p.ifaceResult;
  return p.rawResult ? v : asDeclared(p.fn.resultType, v);
}

function notAFunction(s: State, args: Node[], final: Final): void {
  if (args.length > 1 || final !== MISSING) errorf(s, `can't give argument to non-function ${args[0]!.toString()}`);
}

// ---------- fields ----------

function elemIsIface(t: GoType | undefined): boolean {
  return t === undefined || t.elem === undefined || t.elem.kind === 'interface';
}

/** Go's evalField: a method, a struct field or a map key named fieldName on receiver. */
function evalField(
  s: State,
  dot: GoValue,
  di: boolean,
  fieldName: string,
  node: Node,
  args: ArgEval[],
  final: Final,
  recv: GoValue,
  recvIface: boolean,
): GoValue {
  if (recv === undefined) {
    if (s.missingKey === MissingKey.Error) errorf(s, `nil data; no entry for key ${goQuote(fieldName)}`);
    s.iface = false;
    return undefined;
  }
  if (recv === null) errorf(s, `nil pointer evaluating interface {}.${fieldName}`);
  const hasArgs = args.length > 0 || final !== MISSING;
  if (typeof recv === 'object') {
    if (isMap(recv)) {
      const mt = recv[GO_TYPE];
      if (mt !== undefined) {
        const m = mt.methods && Object.prototype.hasOwnProperty.call(mt.methods, fieldName) ? mt.methods[fieldName] : undefined;
        if (m) return callMethod(s, dot, di, m, recv, node, fieldName, args, final);
        if (mt.key && mt.key.name !== 'string' && mt.key.kind !== 'interface') cantEvaluate(s, fieldName, recv, recvIface);
      }
      if (hasArgs) errorf(s, `${fieldName} is not a method but has arguments`);
      if (Object.prototype.hasOwnProperty.call(recv, fieldName)) {
        s.iface = elemIsIface(mt);
        return recv[fieldName];
      }
      return missingKey(s, fieldName, mt ?? MAP_STRING_IFACE);
    }
    if (recv instanceof GoStruct) {
      const sel = structSelector(recv.type, fieldName);
      if (sel.method) return callMethod(s, dot, di, sel.method, recv, node, fieldName, args, final);
      if (sel.field) {
        if (!sel.exported) {
          errorf(s, `${fieldName} is an unexported field of struct type ${recvIface ? 'interface {}' : typeName(recv)}`);
        }
        if (hasArgs) errorf(s, `${fieldName} has arguments but cannot be invoked as function`);
        s.iface = sel.iface;
        const fv = recv.field(fieldName);
        return sel.field.type.ptrMethods === undefined ? fv : addressed(recv, fv);
      }
      cantEvaluate(s, fieldName, recv, recvIface);
    }
    const m = findMethod(recv, fieldName);
    if (m) return callMethod(s, dot, di, m, recv, node, fieldName, args, final);
    if (recv instanceof GoNil) {
      const t = recv.type;
      if (t.kind === 'map') {
        if (t.key && t.key.name === 'string') {
          if (hasArgs) errorf(s, `${fieldName} is not a method but has arguments`);
          return missingKey(s, fieldName, t);
        }
      } else if (t.kind === 'ptr') {
        const et = t.elem;
        if (!(et && et.kind === 'struct' && !findField(et, fieldName))) {
          errorf(s, `nil pointer evaluating ${recvIface ? 'interface {}' : t.name}.${fieldName}`);
        }
      }
    }
  }
  cantEvaluate(s, fieldName, recv, recvIface);
}

function cantEvaluate(s: State, fieldName: string, recv: GoValue, recvIface: boolean): never {
  errorf(s, `can't evaluate field ${fieldName} in type ${recvIface ? 'interface {}' : typeName(recv)}`);
}

function missingKey(s: State, fieldName: string, mt: GoType): GoValue {
  s.iface = false;
  switch (s.missingKey) {
    case MissingKey.Invalid:
      return undefined;
    case MissingKey.Zero:
      return zeroValue(mt.elem ?? T.iface);
    default:
      errorf(s, `map has no entry for key ${goQuote(fieldName)}`);
  }
}

function callMethod(s: State, dot: GoValue, di: boolean, m: GoMethod, recv: GoValue, node: Node, name: string, args: ArgEval[], final: Final): GoValue {
  const v = evalCall(s, dot, di, m, recv, undefined, node, name, args, final);
  s.iface = m.resultType.kind === 'interface';
  return v;
}

/**
 * What one `.a.b.c` site last met at each step: the struct type and what the name selects on it (an
 * inline cache, so a step on the same type skips structSelector's lookups).
 */
interface ChainCache {
  types: (GoType | undefined)[];
  sels: (StructSelector | undefined)[];
  /** The receiver last met at each step and what it is (Step): the same object needs no prototype test. */
  recvs: (object | undefined)[];
  steps: Step[];
  /** That receiver's Go map type (GO_TYPE, set when a map is made and never changed). */
  mts: (GoType | undefined)[];
  /** The chain's names were interned (see intern). */
  interned: boolean;
}

const enum Step {
  Other,
  NullProtoMap,
  ObjectMap,
  Struct,
}

function chainCache(n: number): ChainCache {
  return {
    types: new Array<GoType | undefined>(n).fill(undefined),
    sels: new Array<StructSelector | undefined>(n).fill(undefined),
    recvs: new Array<object | undefined>(n).fill(undefined),
    steps: new Array<Step>(n).fill(Step.Other),
    mts: new Array<GoType | undefined>(n).fill(undefined),
    interned: false,
  };
}

function stepOf(recv: object): Step {
  // A NullProtoMap is read without an own-property test, so its prototype must really be null (not
  // another realm's Object.prototype): a null-prototype map has no `constructor` unless it holds that
  // key (and then takes the general path). Object.getPrototypeOf of such a map runs in V8's runtime.
  if (!(recv instanceof Object)) return (recv as { constructor?: unknown }).constructor === undefined ? Step.NullProtoMap : Step.Other;
  if (recv instanceof GoStruct) return Step.Struct;
  return Object.getPrototypeOf(recv) === Object.prototype ? Step.ObjectMap : Step.Other;
}

function evalFieldChain(
  s: State,
  dot: GoValue,
  di: boolean,
  recv: GoValue,
  recvIface: boolean,
  node: Node,
  ident: string[],
  args: ArgEval[],
  final: Final,
  ic: ChainCache,
): GoValue {
  const n = ident.length;
  if (!ic.interned) {
    for (let j = 0; j < n; j++) ident[j] = intern(ident[j]!);
    ic.interned = true;
  }
  const last = args.length === 0 && final === MISSING ? n : n - 1;
  let i = 0;
  for (; i < n; i++) {
    if (i < last && typeof recv === 'object' && recv !== null) {
      let step: Step;
      let mt: GoType | undefined;
      if (recv === ic.recvs[i]) {
        step = ic.steps[i]!;
        mt = ic.mts[i];
      } else {
        step = stepOf(recv);
        mt = step === Step.NullProtoMap || step === Step.ObjectMap ? (recv as GoMap)[GO_TYPE] : undefined;
        ic.recvs[i] = recv;
        ic.steps[i] = step;
        ic.mts[i] = mt;
      }
      if (step === Step.NullProtoMap || step === Step.ObjectMap) {
        // A string-keyed map without methods (decoded YAML/JSON, map[string]string): what evalField does.
        if (mt === undefined || (mt.methods === undefined && mt.key !== undefined && mt.key.name === 'string')) {
          const key = ident[i]!;
          const np = step === Step.NullProtoMap;
          // (an own-property test before reading a map with Object.prototype: no getter of it may run)
          const x = np ? (recv as GoMap)[key] : hasOwn.call(recv, key) ? (recv as GoMap)[key] : undefined;
          if (x !== undefined || (np ? key in recv : hasOwn.call(recv, key))) {
            recv = x;
            recvIface = mt === undefined || elemIsIface(mt);
          } else {
            recv = missingKey(s, key, mt ?? MAP_STRING_IFACE);
            recvIface = false;
          }
          continue;
        }
      } else if (step === Step.Struct) {
        // An exported field (no method of that name): evalField's struct case, its selector cached here.
        const t = (recv as GoStruct).type;
        let sel = ic.sels[i];
        const fs = t.fields;
        if (ic.types[i] !== t || sel === undefined || sel.methods !== t.methods || sel.fields !== fs || sel.nfields !== (fs ? fs.length : 0)) {
          sel = structSelector(t, ident[i]!);
          ic.types[i] = t;
          ic.sels[i] = sel;
        }
        if (sel.method === undefined && sel.field !== undefined && sel.exported) {
          const owner = recv as GoStruct;
          recv = owner.fieldDeclared(ident[i]!, sel.declared);
          if (sel.field.type.ptrMethods !== undefined) recv = addressed(owner, recv);
          recvIface = sel.iface;
          continue;
        }
      }
    }
    if (i === n - 1) break;
    recv = evalField(s, dot, di, ident[i]!, node, NO_ARGS, MISSING, recv, recvIface);
    recvIface = s.iface;
  }
  if (i === n) {
    s.iface = recvIface;
    return recv;
  }
  return evalField(s, dot, di, ident[n - 1]!, node, args, final, recv, recvIface);
}

/** isTrue without allocating for maps. */
function truth(v: GoValue): boolean {
  if (isMap(v)) {
    for (const _ in v) return true;
    return false;
  }
  return isTrue(v);
}

// ---------- printing ----------

function printValue(s: State, node: Node, v: GoValue): void {
  if (typeof v === 'string') s.out += v;
  else if (typeof v === 'bigint') s.out += v.toString();
  else if (typeof v === 'number' && Number.isInteger(v) && v < 1e6 && v > -1e6 && !Object.is(v, -0)) {
    // %v of an integral float64 with fewer than 7 digits has no exponent: the JS decimal form is Go's.
    s.out += String(v);
  } else {
    if (v instanceof GoNum && (v.type.kind === 'complex128' || v.type.kind === 'complex64') && 'im' in v) {
      s.out += formatComplex(v as GoComplex);
      return;
    }
    if (!isPrintable(v)) {
      s.node = node;
      errorf(s, `can't print ${node.toString()} of type ${typeName(v)}`);
    }
    s.out += formatValue(v);
  }
  if (s.out.length > s.outCheckAt) {
    s.node = node;
    checkOutput(s);
  }
}

// ---------- compilation ----------

interface VarBinding {
  name: string;
  slot: number;
  /** Slot holding "the value came from an interface slot" for range element variables, else -1. */
  flag: number;
}

export interface Compiled {
  run: Stmt;
  nslots: number;
  /** The tree calls a function of MUTATORS (set and unset on FRESH_MAKER's maps aside). */
  mutates: boolean;
  /** Calls of set/unset were left out of `mutates` because these functions make new maps (FRESH_MAP_FUNCS). */
  freshFuncs: string[];
}

const cache = new WeakMap<Tree, Compiled>();

/** Compile a tree once; the result is cached on the tree (shared by clones of the set). */
export function compileTree(tree: Tree): Compiled {
  let c = cache.get(tree);
  if (!c) {
    const comp = new Compiler(freshMapVariables(tree.root!));
    const run = comp.list(tree.root!);
    c = { run, nslots: comp.nslots, mutates: comp.mutates, freshFuncs: comp.freshNeeded ? [FRESH_MAKER] : [] };
    cache.set(tree, c);
  }
  return c;
}

class Compiler {
  scope: VarBinding[] = [{ name: '$', slot: 0, flag: -1 }];
  nslots = 1;
  mutates = false;
  freshNeeded = false;

  constructor(private readonly freshVars: Set<string>) {}

  private lookupVar(name: string): VarBinding | undefined {
    for (let i = this.scope.length - 1; i >= 0; i--) if (this.scope[i]!.name === name) return this.scope[i];
    return undefined;
  }

  list(l: ListNode): Stmt {
    const fns = l.nodes.map((n) => this.node(n)).filter((f): f is Stmt => f !== null);
    switch (fns.length) {
      case 0:
        return () => Flow.Normal;
      case 1:
        return fns[0]!;
      case 2: {
        const [a, b] = fns as [Stmt, Stmt];
        return (s, dot, di) => a(s, dot, di) || b(s, dot, di);
      }
    }
    const n = fns.length;
    return (s, dot, di) => {
      for (let i = 0; i < n; i++) {
        const r = fns[i]!(s, dot, di);
        if (r !== Flow.Normal) return r;
      }
      return Flow.Normal;
    };
  }

  private node(n: Node): Stmt | null {
    if (n instanceof TextNode) return this.text(n);
    if (n instanceof ActionNode) return this.action(n);
    if (n instanceof IfNode) return this.ifOrWith(n, false);
    if (n instanceof WithNode) return this.ifOrWith(n, true);
    if (n instanceof RangeNode) return this.range(n);
    if (n instanceof TemplateNode) return this.template(n);
    if (n instanceof BreakNode) return () => Flow.Break;
    if (n instanceof ContinueNode) return () => Flow.Continue;
    if (n instanceof CommentNode) return null;
    if (n instanceof ListNode) return this.list(n);
    return (s) => {
      s.node = n;
      errorf(s, `unknown node: ${n.toString()}`);
    };
  }

  private text(n: TextNode): Stmt {
    const text = n.text;
    return (s) => {
      s.out += text;
      if (s.out.length > s.outCheckAt) {
        s.node = n;
        checkOutput(s);
      }
      return Flow.Normal;
    };
  }

  private action(n: ActionNode): Stmt {
    const pipe = this.pipeline(n.pipe);
    if (n.pipe.decl.length > 0) {
      return (s, dot, di) => {
        pipe(s, dot, di);
        return Flow.Normal;
      };
    }
    return (s, dot, di) => {
      printValue(s, n, pipe(s, dot, di));
      return Flow.Normal;
    };
  }

  private ifOrWith(n: IfNode | WithNode, isWith: boolean): Stmt {
    const mark = this.scope.length;
    const pipe = this.pipeline(n.pipe);
    const afterPipe = this.scope.length;
    const list = this.list(n.list);
    // Go's parser lets the else branch name variables declared in the taken branch; they never exist at run time.
    this.scope.length = afterPipe;
    const elseList = n.elseList ? this.list(n.elseList) : null;
    this.scope.length = mark;
    if (isWith) {
      return (s, dot, di) => {
        const v = pipe(s, dot, di);
        if (truth(v)) return list(s, v, false);
        return elseList ? elseList(s, dot, di) : Flow.Normal;
      };
    }
    return (s, dot, di) => {
      if (truth(pipe(s, dot, di))) return list(s, dot, di);
      return elseList ? elseList(s, dot, di) : Flow.Normal;
    };
  }

  private range(r: RangeNode): Stmt {
    const mark = this.scope.length;
    const pipe = this.pipeline(r.pipe);
    const decl = r.pipe.decl;
    let elemSlot = -1;
    let elemFlag = -1;
    let indexSlot = -1;
    // Go sets the topmost variables of its stack, also for `range $k, $v = x` whose variables are
    // assigned, not pushed; with too few variables the pipeline's assignment fails first at run time.
    const eb = decl.length > 0 ? this.scope[this.scope.length - 1] : undefined;
    if (eb) {
      elemSlot = eb.slot;
      eb.flag = elemFlag = this.nslots++;
      if (decl.length > 1) indexSlot = this.scope[this.scope.length - 2]?.slot ?? -1;
    }
    const nDecl = decl.length;
    const afterPipe = this.scope.length;
    const body = this.list(r.list);
    this.scope.length = afterPipe;
    const elseList = r.elseList ? this.list(r.elseList) : null;
    this.scope.length = mark;

    const iterate = (s: State, index: GoValue | number, elem: GoValue, eiface: boolean): Flow => {
      if (elemSlot >= 0) {
        s.vars[elemSlot] = elem;
        s.vars[elemFlag] = eiface;
        if (indexSlot >= 0) s.vars[indexSlot] = typeof index === 'number' ? BigInt(index) : index;
      }
      if (++s.iterations > s.maxIter) limitError(s, `range iterations exceed the limit of ${s.maxIter}`);
      if ((s.iterations & 1023) === 0) checkTime(s);
      return body(s, elem, eiface);
    };

    return (s, dot, di) => {
      s.node = r;
      let val = pipe(s, dot, di);
      if (val !== undefined && val !== null) {
        if (Array.isArray(val)) {
          const n = val.length;
          if (n > 0) {
            const t = (val as { [GO_TYPE]?: GoType })[GO_TYPE] ?? SLICE_IFACE;
            const eiface = t.elem === undefined || t.elem.kind === 'interface';
            for (let i = 0; i < n; i++) {
              if (iterate(s, i, val[i], eiface) === Flow.Break) break;
            }
            return Flow.Normal;
          }
        } else if (isMap(val)) {
          const m = val as GoMap;
          const t = m[GO_TYPE] ?? MAP_STRING_IFACE;
          const keys = Object.keys(m);
          if (keys.length > 0) {
            const eiface = t.elem === undefined || t.elem.kind === 'interface';
            const intKeys = t.key !== undefined && (isIntKind(t.key.kind) || isUintKind(t.key.kind));
            if (intKeys) {
              keys.sort((a, b) => {
                const x = BigInt(a);
                const y = BigInt(b);
                return x < y ? -1 : x > y ? 1 : 0;
              });
            } else sortKeys(keys);
            for (const k of keys) {
              const key: GoValue = intKeys ? (t.key === T.int ? BigInt(k) : new GoNum(t.key!, BigInt(k))) : k;
              if (iterate(s, key, m[k], eiface) === Flow.Break) break;
            }
            return Flow.Normal;
          }
        } else if (val instanceof GoNil && (val.type.kind === 'map' || val.type.kind === 'slice' || val.type.kind === 'chan')) {
          // a nil map or slice ranges like an empty one
        } else if (typeof val === 'bigint' || (val instanceof GoNum && typeof val.v === 'bigint')) {
          // Go 1.24: range over an integer n yields 0..n-1 of the same type.
          if (nDecl > 1) errorf(s, `can't use ${formatValue(val)} to iterate over more than one variable`);
          const n = typeof val === 'bigint' ? val : (val.v as bigint);
          const t = typeof val === 'bigint' ? null : val.type;
          if (n > 0n) {
            for (let i = 0n; i < n; i++) {
              const e: GoValue = t === null ? i : new GoNum(t, i);
              if (iterate(s, undefined, e, false) === Flow.Break) break;
            }
            return Flow.Normal;
          }
        } else {
          errorf(s, `range can't iterate over ${formatValue(val)}`);
        }
      }
      if (!elseList) return Flow.Normal;
      // Go's walkRange recovers a break wherever it comes from, its own else list too: a {{break}}
      // there ends this range only; a {{continue}} goes on to the enclosing one.
      const flow = elseList(s, dot, di);
      return flow === Flow.Break ? Flow.Normal : flow;
    };
  }

  private template(t: TemplateNode): Stmt {
    const pipe = t.pipe ? this.pipeline(t.pipe) : null;
    const name = t.name;
    return (s, dot, di) => {
      s.node = t;
      const tmpl = s.set.lookupTree(name);
      if (!tmpl) errorf(s, `template ${goQuote(name)} not defined`);
      if (s.depth >= s.maxDepth) {
        if (s.maxDepth === MAX_EXEC_DEPTH) errorf(s, `exceeded maximum template depth (${MAX_EXEC_DEPTH})`);
        limitError(s, `exceeded maximum template depth (${s.maxDepth})`);
      }
      const newDot = pipe ? pipe(s, dot, di) : undefined;
      const c = compileTree(tmpl.tree);
      const saveVars = s.vars;
      const saveName = s.name;
      const vars: GoValue[] = new Array(c.nslots);
      vars[0] = newDot;
      s.vars = vars;
      s.name = tmpl.name;
      s.depth++;
      if (s.deadline !== Infinity) checkTime(s);
      try {
        c.run(s, newDot, false);
      } catch (e) {
        if (isStackOverflow(e)) {
          // JavaScript's stack ends long before Go's depth limit; report what Go reports at its limit
          // (on a big stack, guard/stack.ts, the depth is counted to Go's limit).
          s.vars = saveVars;
          s.name = saveName;
          s.node = t;
          errorf(s, `exceeded maximum template depth (${MAX_EXEC_DEPTH})`);
        }
        throw e;
      }
      s.vars = saveVars;
      s.name = saveName;
      s.depth--;
      return Flow.Normal;
    };
  }

  /** Go's evalPipeline: commands in order, the previous result as the last argument, then declarations. */
  pipeline(p: PipeNode): Expr {
    const cmds = p.cmds.map((c) => this.command(c));
    const decls: { slot: number; flag: number; name: string }[] = [];
    for (const v of p.decl) {
      const name = v.ident[0]!;
      if (p.isAssign) {
        const b = this.lookupVar(name);
        decls.push(b ? { slot: b.slot, flag: b.flag, name } : { slot: -1, flag: -1, name });
      } else {
        const b: VarBinding = { name, slot: this.nslots++, flag: -1 };
        this.scope.push(b);
        decls.push({ slot: b.slot, flag: -1, name });
      }
    }
    if (cmds.length === 1 && decls.length === 0) {
      const first = p.cmds[0]!.args[0]!;
      if (p.cmds[0]!.args.length === 1 && first instanceof FieldNode) {
        // `.a.b` alone: the most common pipeline, evaluated without the command layer.
        const ident = first.ident;
        const ic = chainCache(ident.length);
        return (s, dot, di) => {
          s.node = first;
          const v = evalFieldChain(s, dot, di, dot, di, first, ident, NO_ARGS, MISSING, ic);
          s.iface = false;
          return v === null ? undefined : v;
        };
      }
      const c0 = cmds[0]!;
      return (s, dot, di) => {
        s.node = p;
        const v = c0(s, dot, di, MISSING);
        s.iface = false;
        return v === null ? undefined : v;
      };
    }
    const nd = decls.length;
    return (s, dot, di) => {
      s.node = p;
      let v: Final = MISSING;
      for (let i = 0; i < cmds.length; i++) {
        v = cmds[i]!(s, dot, di, v);
        if (v === null) v = undefined;
      }
      const val = v as GoValue;
      s.iface = false;
      for (let i = 0; i < nd; i++) {
        const d = decls[i]!;
        if (d.slot < 0) errorf(s, `undefined variable: ${d.name}`);
        s.vars[d.slot] = val;
        if (d.flag >= 0) s.vars[d.flag] = false;
      }
      return val;
    };
  }

  private arg(n: Node): ArgEval {
    if (n instanceof DotNode) return { kind: ArgKind.Dot, node: n, expr: null };
    if (n instanceof NilNode) return { kind: ArgKind.Nil, node: n, expr: null };
    if (n instanceof FieldNode) {
      if (n.ident.length > 0) {
        // The common `.a.b` argument, without the command wrapper.
        const ident = n.ident;
        const ic = chainCache(ident.length);
        return {
          kind: ArgKind.Expr,
          node: n,
          expr: (s, dot, di) => {
            s.node = n;
            return evalFieldChain(s, dot, di, dot, di, n, ident, NO_ARGS, MISSING, ic);
          },
        };
      }
      const c = this.field(n, [n]);
      return { kind: ArgKind.Expr, node: n, expr: (s, dot, di) => c(s, dot, di, MISSING) };
    }
    if (n instanceof VariableNode) {
      const c = this.variable(n, [n]);
      return { kind: ArgKind.Expr, node: n, expr: (s, dot, di) => c(s, dot, di, MISSING) };
    }
    if (n instanceof PipeNode) return { kind: ArgKind.Expr, node: n, expr: this.pipeline(n) };
    if (n instanceof IdentifierNode) {
      const c = this.func(n, n, []);
      return { kind: ArgKind.Expr, node: n, expr: (s, dot, di) => c(s, dot, di, MISSING) };
    }
    if (n instanceof ChainNode) {
      const c = this.chain(n, [n]);
      return { kind: ArgKind.Expr, node: n, expr: (s, dot, di) => c(s, dot, di, MISSING) };
    }
    return { kind: ArgKind.Literal, node: n, expr: null };
  }

  private command(cmd: CommandNode): Cmd {
    const first = cmd.args[0]!;
    if (first instanceof FieldNode) return this.field(first, cmd.args);
    if (first instanceof ChainNode) return this.chain(first, cmd.args);
    if (first instanceof IdentifierNode) return this.func(first, cmd, cmd.args);
    if (first instanceof PipeNode) {
      const pipe = this.pipeline(first);
      const args = cmd.args;
      return (s, dot, di, final) => {
        notAFunction(s, args, final);
        return pipe(s, dot, di);
      };
    }
    if (first instanceof VariableNode) return this.variable(first, cmd.args);
    const args = cmd.args;
    if (first instanceof BoolNode) {
      const v = first.value;
      return (s, _dot, _di, final) => {
        s.node = first;
        notAFunction(s, args, final);
        return v;
      };
    }
    if (first instanceof DotNode) {
      return (s, dot, _di, final) => {
        s.node = first;
        notAFunction(s, args, final);
        return dot;
      };
    }
    if (first instanceof NilNode) {
      return (s, _dot, _di, final) => {
        s.node = first;
        notAFunction(s, args, final);
        errorf(s, 'nil is not a command');
      };
    }
    if (first instanceof NumberNode) {
      const c = idealConstant(first);
      return (s, dot, di, final) => {
        s.node = first;
        notAFunction(s, args, final);
        return c(s, dot, di);
      };
    }
    if (first instanceof StringNode) {
      const v = first.text;
      return (s, _dot, _di, final) => {
        s.node = first;
        notAFunction(s, args, final);
        return v;
      };
    }
    return (s) => {
      s.node = first;
      errorf(s, `can't evaluate command ${goQuote(first.toString())}`);
    };
  }

  /** `.a.b args...`: evalFieldNode. `all` is the command's argument list including the field itself. */
  private field(f: FieldNode, all: Node[]): Cmd {
    const ident = f.ident;
    const args = all.slice(1).map((a) => this.arg(a));
    const ic = chainCache(ident.length);
    return (s, dot, di, final) => {
      s.node = f;
      return evalFieldChain(s, dot, di, dot, di, f, ident, args, final, ic);
    };
  }

  private chain(c: ChainNode, all: Node[]): Cmd {
    const args = all.slice(1).map((a) => this.arg(a));
    const base = c.node;
    let eval_: Expr;
    let baseIface: (s: State) => boolean = () => false;
    if (base instanceof PipeNode) {
      const p = this.pipeline(base);
      eval_ = (s, dot, di) => {
        s.node = base;
        return p(s, dot, di);
      };
    } else if (base instanceof IdentifierNode) {
      const fc = this.func(base, base, []);
      eval_ = (s, dot, di) => {
        s.node = base;
        return fc(s, dot, di, MISSING);
      };
      baseIface = (s) => s.iface;
    } else {
      eval_ = (s) => {
        s.node = c;
        errorf(s, `indirection through explicit nil in ${c.toString()}`);
      };
    }
    const field = c.field;
    const ic = chainCache(field.length);
    return (s, dot, di, final) => {
      s.node = c;
      s.iface = false;
      const recv = eval_(s, dot, di);
      return evalFieldChain(s, dot, di, recv, baseIface(s), c, field, args, final, ic);
    };
  }

  private variable(v: VariableNode, all: Node[]): Cmd {
    const name = v.ident[0]!;
    const b = this.lookupVar(name);
    const args = all.slice(1).map((a) => this.arg(a));
    if (!b) {
      return (s) => {
        s.node = v;
        errorf(s, `undefined variable: ${name}`);
      };
    }
    const slot = b.slot;
    const flag = b.flag;
    if (v.ident.length === 1) {
      return (s, _dot, _di, final) => {
        s.node = v;
        notAFunction(s, all, final);
        s.iface = flag >= 0 && s.vars[flag] === true;
        return s.vars[slot];
      };
    }
    const ident = v.ident.slice(1);
    const ic = chainCache(ident.length);
    return (s, dot, di, final) => {
      s.node = v;
      const recv = s.vars[slot];
      return evalFieldChain(s, dot, di, recv, flag >= 0 && s.vars[flag] === true, v, ident, args, final, ic);
    };
  }

  /** A function call: `ident` names it; `node` is where "error calling" points (the command, or the identifier as an argument). */
  private func(ident: IdentifierNode, node: Node, all: Node[]): Cmd {
    const name = ident.ident;
    if (MUTATORS.has(name)) {
      const target = all[1];
      if ((name === 'set' || name === 'unset') && target instanceof VariableNode && target.ident.length === 1 && this.freshVars.has(target.ident[0]!)) {
        this.freshNeeded = true;
      } else this.mutates = true;
    }
    const args = all.slice(1).map((a) => this.arg(a));
    const builtin = Object.prototype.hasOwnProperty.call(BUILTINS, name) ? BUILTINS[name]! : undefined;
    let cachedFuncs: FuncMap | null = null;
    let cachedFn: GoFunc | undefined;
    let plan: CallPlan | null = null;
    let planFor: GoFunc | null = null;
    let planFinal = false;
    return (s, dot, di, final) => {
      s.node = ident;
      let fn: GoFunc | undefined;
      if (s.funcs === cachedFuncs) fn = cachedFn;
      else {
        fn = hasOwn.call(s.funcs, name) ? s.funcs[name] : undefined;
        cachedFuncs = s.funcs;
        cachedFn = fn;
      }
      let special: string | undefined;
      if (fn === undefined) {
        if (builtin === undefined) errorf(s, `${goQuote(name)} is not a defined function`);
        fn = builtin;
        special = fn.special;
      }
      const hasFinal = final !== MISSING;
      if (planFor !== fn || planFinal !== hasFinal) {
        plan = planCall(fn, special, args.length, hasFinal);
        planFor = fn;
        planFinal = hasFinal;
      }
      if (plan !== null) return planned(s, dot, di, plan, node, name, args, final);
      const v = evalCall(s, dot, di, fn, NO_RECV, special, node, name, args, final);
      s.iface = fn.resultType.kind === 'interface';
      return v;
    };
  }
}

// ---------- entry ----------

/** Execute a compiled tree with data as dot and $. Throws ExecError (with .output set). */
export function execute(set: ExecSet, name: string, tree: Tree | null, data: GoValue, limits: ExecLimits = {}): string {
  // Go's reflect.ValueOf(nil) is an invalid value, not a nil interface.
  if (data === null) data = undefined;
  const outer = active;
  const s = new State(set, name, limits, outer);
  active = s;
  const prevLimits = enterLimits(s.sizes);
  try {
    // The caller's data never changes: the outermost execution works on a copy (see copy.ts). Deciding
    // compiles the trees, which may exhaust the stack: inside the try, it is a clean error.
    if (!outer && (limits.copyData ?? set.mayMutate?.() ?? true)) data = copyData(data);
    if (!tree || !tree.root) errorf(s, `${goQuote(name)} is an incomplete or empty template`);
    // Helm's include and tpl nest executions; they count toward the template depth like {{template}}.
    if (outer && s.depth > s.maxDepth) limitError(s, `exceeded maximum template depth (${s.maxDepth})`);
    const c = compileTree(tree);
    const vars: GoValue[] = new Array(c.nslots);
    vars[0] = data;
    s.vars = vars;
    c.run(s, data, false);
  } catch (e) {
    if (e instanceof ExecError) {
      e.output = s.out;
      throw e;
    }
    // A size limit reached outside any function call (printing a huge value).
    if (e instanceof LimitExceeded) {
      try {
        limitError(s, e.message);
      } catch (x) {
        (x as ExecError).output = s.out;
        throw x;
      }
    }
    // Nested executions leave a stack overflow to the function that started them (Helm reports its own error).
    if (e instanceof RangeError && !outer) {
      const err = rangeErrorAsLimit(s, e);
      err.output = s.out;
      throw err;
    }
    throw e;
  } finally {
    active = outer;
    leaveLimits(prevLimits);
    if (outer) outer.iterations = s.iterations;
  }
  return s.out;
}

/** The execution in progress: a function that executes templates (include, tpl) nests inside it. */
let active: State | null = null;

/** JavaScript's own limits (stack depth, string and array length) reached: a clean error, never a crash. */
function rangeErrorAsLimit(s: State, e: RangeError): LimitError {
  const msg = isStackOverflow(e)
    ? 'nesting exceeds the JavaScript call stack (a cyclic or too deeply nested value, or too deep recursion)'
    : `value exceeds what JavaScript can hold (${e.message})`;
  try {
    limitError(s, msg);
  } catch (x) {
    return x as LimitError;
  }
}

export { GoError };
