// Resource limits that functions enforce themselves: a function that builds a value out of
// proportion to its arguments (repeat, indent, until, seq, replace, join, ...) asks here before it
// builds. Execution is synchronous, so "the execution in progress" is a stack of one entry per nested
// execute (Helm's include and tpl execute inside a function call).
//
// Go has none of these limits: `until 10000000000` or `repeat 1000000000 "x"` runs a Go process out
// of memory. We stop with an error naming the limit instead.

/** Thrown by a function whose result would break a limit; the engine reports it at the call as a LimitError. */
export class LimitExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LimitExceeded';
  }
}

/** Nesting below which recursive walks do not track their path: almost every value is shallower. */
const UNTRACKED_DEPTH = 64;

/**
 * The maps and slices on a recursive walk's path, past UNTRACKED_DEPTH. A value met again on its own
 * path contains itself: Go's walk (fmt's printing, copystructure's copy) follows it until its stack
 * overflows, a fatal error. Here it is a clean error at once, where the JavaScript stack would end
 * only after a long run on the big stack (guard/stack.ts).
 */
export class PathTracker {
  private on: Map<object, Set<object | undefined>> | undefined;
  constructor(private readonly what: string) {}
  /** v (with `with`, for a walk of two values at once) is entered at depth. */
  enter(v: object, depth: number, with_?: object): void {
    if (depth < UNTRACKED_DEPTH) return;
    this.on ??= new Map();
    let s = this.on.get(v);
    if (!s) this.on.set(v, (s = new Set()));
    if (s.has(with_)) throw new LimitExceeded(`value contains itself: Go's ${this.what} never ends`);
    s.add(with_);
  }
  leave(v: object, depth: number, with_?: object): void {
    if (depth >= UNTRACKED_DEPTH) this.on!.get(v)!.delete(with_);
  }
}

/** The size limits of the execution in progress (see ExecLimits in exec.ts for their meaning). */
export interface SizeLimits {
  maxValueBytes: number;
  maxListLength: number;
  maxBuiltBytes: number;
  /** Bytes built so far by functions in this execution (nested executions share it). */
  built: number;
  /** Bytes a function has already counted (checkStringSize) for the result checkResult will see next. */
  prepaid?: number;
  deadline: number;
}

export const DEFAULT_MAX_VALUE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_LIST_LENGTH = 1_000_000;
export const DEFAULT_MAX_BUILT_BYTES = 1024 * 1024 * 1024;

/** Used when a function runs outside any execution (called directly by a library user). */
const outside: SizeLimits = {
  maxValueBytes: DEFAULT_MAX_VALUE_BYTES,
  maxListLength: DEFAULT_MAX_LIST_LENGTH,
  maxBuiltBytes: Infinity,
  built: 0,
  deadline: Infinity,
};

let current: SizeLimits = outside;

/** Make limits the current ones; returns what to pass to leaveLimits. */
export function enterLimits(limits: SizeLimits): SizeLimits {
  const prev = current;
  current = limits;
  return prev;
}

export function leaveLimits(prev: SizeLimits): void {
  current = prev;
}

/** The limits of the execution in progress (defaults outside one). */
export function currentLimits(): SizeLimits {
  return current;
}

/** A function is about to build a string of `bytes` bytes (an estimate from above is fine). */
export function checkStringSize(bytes: number): void {
  const l = current;
  if (bytes > l.maxValueBytes) throw new LimitExceeded(`result of ${fmtSize(bytes)} bytes exceeds the limit of ${l.maxValueBytes} bytes per value`);
  charge(bytes);
  l.prepaid = (l.prepaid ?? 0) + bytes;
}

/** Strings shorter than this (in UTF-16 units) pass checkResult unseen: they cannot matter. */
export const RESULT_CHECK_UNITS = 4096;

/**
 * Every string a function returns, checked by the engine at the call (the one count for all functions,
 * include and tpl too): its UTF-8 size against maxValueBytes, and its bytes toward maxBuiltBytes (less
 * what the function counted itself before building). A value that doubles per step stops at the first
 * step past the limit, long before memory or V8's string length runs out.
 */
export function checkResult(v: string): void {
  const l = current;
  const units = v.length;
  // a UTF-16 unit is at most 3 UTF-8 bytes (a surrogate pair is 4 for 2 units)
  if (units * 3 > l.maxValueBytes) {
    const bytes = Buffer.byteLength(v, 'utf8');
    if (bytes > l.maxValueBytes) throw new LimitExceeded(`result of ${bytes} bytes exceeds the limit of ${l.maxValueBytes} bytes per value`);
  }
  const fresh = units - (l.prepaid ?? 0);
  l.prepaid = 0;
  if (fresh > 0) charge(fresh);
}

/**
 * For a function that turns any failure into Go's fallback value ("", "{}"): a limit reached, or the
 * stack or a length JavaScript cannot hold, is not a failure Go would have, so it is not hidden.
 */
export function rethrowLimit(e: unknown): void {
  if (e instanceof LimitExceeded || e instanceof RangeError) throw e;
}

/** JavaScript's own string or array length reached inside a function: the value limit, said plainly. */
export function isLengthRangeError(e: unknown): boolean {
  // No regular expression: this runs where the stack may be nearly spent, and V8 aborts the process
  // when it compiles one there.
  if (!(e instanceof RangeError)) return false;
  const m = e.message;
  return m.startsWith('Invalid ') ? m.endsWith(' length') : m.startsWith('Array buffer allocation failed') || m.startsWith('Cannot create a string longer');
}

/**
 * A function is about to build a list of n elements. `charge`: count it toward maxBuiltBytes (lists
 * made from nothing, like until's; a copy that grows a list by one, like append's, only checks the length).
 */
export function checkListLength(n: number | bigint, charge_ = true): void {
  const l = current;
  if (n > l.maxListLength) throw new LimitExceeded(`list of ${n} elements exceeds the limit of ${l.maxListLength} elements`);
  if (charge_) charge(Number(n) * 8);
}

/** The wall-time budget, for functions whose own work can be long (uniq is quadratic). */
export function checkDeadline(): void {
  if (current.deadline !== Infinity && Date.now() > current.deadline) throw new LimitExceeded('execution exceeded the time limit');
}

/**
 * A function is about to serialize or copy v in full. A value that shares its parts (list $x $x,
 * doubled) expands exponentially; count the expanded elements (each prints at least one byte),
 * once per distinct object, and refuse beyond maxValueBytes. Cycles are left to the caller.
 * `strings`: the value is about to be written out, so each string counts its length too.
 */
export function checkExpandedSize(v: unknown, strings = false): void {
  const limit = current.maxValueBytes;
  const memo = new Map<object, number>();
  const size = (x: unknown): number => {
    if (x === null || typeof x !== 'object') return strings && typeof x === 'string' ? x.length + 1 : 1;
    // a value that holds no others (a number object, a struct) prints at least one byte: not memoised,
    // so a long []byte of shared byte values is counted without a map entry per byte
    const p0 = Array.isArray(x) ? undefined : Object.getPrototypeOf(x);
    if (p0 !== undefined && p0 !== null && p0 !== Object.prototype) return 1;
    const m = memo.get(x);
    if (m !== undefined) return m;
    memo.set(x, 0); // a cycle counts nothing more
    let n = 1;
    if (Array.isArray(x)) for (const e of x) n += size(e);
    else for (const k of Object.keys(x)) n += k.length + size((x as Record<string, unknown>)[k]);
    if (n > limit) throw new LimitExceeded(`value of ${n} elements exceeds the limit of ${limit} bytes per value`);
    memo.set(x, n);
    return n;
  };
  size(v);
}

function charge(bytes: number): void {
  const l = current;
  l.built += bytes;
  if (l.built > l.maxBuiltBytes) throw new LimitExceeded(`values built by functions exceed the limit of ${l.maxBuiltBytes} bytes per execution`);
  if (l.deadline !== Infinity && Date.now() > l.deadline) throw new LimitExceeded('execution exceeded the time limit');
}

function fmtSize(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : n.toExponential(3);
}
