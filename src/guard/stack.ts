// Go's stacks grow to 1 GB, so text/template parses and runs any nesting its own limits allow (tens of
// thousands of nested parentheses or ifs, 100,000 nested template calls, yaml.v2's 10,000 levels). A JavaScript thread's
// stack is about 1 MB: the parser, the executor, the printers and the YAML reader recurse, and run out
// far sooner. Where they run out they throw a clean error and note it here; the command line then runs
// the whole command again on a worker thread with a stack of BIG_STACK_MB, and the library repeats the
// Template call (go/text/template/template.ts, guard/syncstack.ts) on one of LIBRARY_STACK_MB: there the same code
// reaches Go's limits and gives Go's result. Normal inputs never pay for the second thread.

/** The stack of the thread a command is re-run on (reserved address space; only what is used is memory). */
export const BIG_STACK_MB = 2048;

/**
 * The stack of the thread a library call is re-run on (guard/syncstack.ts). Go's deep cases
 * (test/hardening/deep-go.json: 100,000 template calls, 20,000 nested ifs, data 10,000 deep) all pass
 * with 32 MB; a run that recurses without end (a tpl that evaluates itself) goes on until the stack
 * ends, longer the bigger it is, while the caller waits.
 */
export const LIBRARY_STACK_MB = 128;

/**
 * Input guessed to nest deeper than this (guard/nesting.ts) goes to the big stack at once: a default
 * stack runs out near 1,500 levels of the parser, the printers or the data readers, and a first run
 * that lexes, parses and converts everything before it runs out costs about as much as the second.
 */
export const FORECAST_DEPTH = 2000;

let big = false;
let libraryRetry = true;

/** Whether a library call that ran out of stack is run again on a big stack (the command line does that itself, whole). */
export function libraryBigStack(): boolean {
  return libraryRetry && !big;
}

export function setLibraryBigStack(on: boolean): void {
  libraryRetry = on;
}
let exhausted = false;
let forecasts = true;
let forecast = false;

/** True on the big-stack thread: deep nesting there is Go's business, not a reason to retry. */
export function onBigStack(): boolean {
  return big;
}

export function setBigStack(): void {
  big = true;
}

/** The JavaScript stack ran out (or would have) where Go's would not; the error thrown is the small-stack one. */
export function noteStackExhausted(): void {
  if (!big) exhausted = true;
}

export function stackExhausted(): boolean {
  return exhausted;
}

export function clearStackExhausted(): void {
  exhausted = false;
  forecast = false;
}

/**
 * On the default stack, true (and the stack noted as exhausted, though it was not) when depth is past
 * FORECAST_DEPTH: the caller then stops, and the command runs on the big stack from the start.
 */
export function forecastDeep(depth: number): boolean {
  if (big || !forecasts || depth <= FORECAST_DEPTH) return false;
  exhausted = true;
  forecast = true;
  return true;
}

/** The stack was noted as exhausted by a forecast only: a run without forecasts gives the real result. */
export function stackForecast(): boolean {
  return forecast;
}

/** Where no big stack can be had, forecasts are turned off and the command run as it is. */
export function setForecasts(on: boolean): void {
  forecasts = on;
}

/**
 * A RangeError from the stack running out (noted as such), as opposed to one about a string or array
 * length. Tests the message without a regular expression: compiling one needs stack, which is just
 * what ran out.
 */
export function isStackOverflow(e: unknown): boolean {
  if (!(e instanceof RangeError)) return false;
  const m = e.message;
  if (m.includes('call stack') || m.includes('Stack overflow') || m.includes('stack size')) {
    noteStackExhausted();
    return true;
  }
  return false;
}
