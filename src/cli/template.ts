// `sidecar-render template FILE --data data.yaml [--funcs SET] [--env K=V] [--option missingkey=error]`:
// render one Go template, as text/template would. A function the chosen set lacks fails as in Go, with
// the set that has it named after Go's text. `--batch` speaks the JSON Lines protocol of tools/gorender.

import { basename } from 'node:path';
import type { Command } from 'commander';
import { runLine } from '../batch.js';
import { loadYamlDocuments } from '../yaml/load.js';
import { ExecError, LimitError, Template } from '../go/text/template/template.js';
import type { GoValue } from '../go/reflect/value.js';
import { FUNC_SET_NAMES, funcSet, type FuncSetName } from '../funcs/index.js';
import { limitHint } from '../istio/inject.js';
import { readInputText } from '../inputs/files.js';
import { addLimitOptions, limitsFromFlags, type LimitFlags } from './limits.js';
import { collect, oneOf } from './options.js';
import { readStdin } from './inputs.js';
import { parseEnv } from '../inputs/options.js';
import { InputTooLarge, linesLimited } from '../guard/fs.js';
import { stdinSource } from './stdin.js';
import { BigStackBatch } from './bigstack.js';
import { clearStackExhausted, forecastDeep, onBigStack, stackExhausted } from '../guard/stack.js';
import { jsonNesting, nestingEstimate } from '../guard/nesting.js';

interface TemplateFlags extends LimitFlags {
  data?: string;
  funcs: FuncSetName;
  env: string[];
  option: string[];
  batch?: boolean;
}

/**
 * Go's `function "upper" not defined`, with the set that has the function named after it (the first of
 * FUNC_SET_NAMES that does): the error a template written for Sprig or Helm gets under the default set.
 */
export function withFuncSetHint(message: string, chosen: FuncSetName): string {
  const m = /function ("(?:[^"\\]|\\.)*") not defined$/.exec(message);
  if (!m) return message;
  let name: string;
  try {
    name = JSON.parse(m[1]!) as string;
  } catch {
    return message;
  }
  const set = FUNC_SET_NAMES.find((s) => s !== chosen && Object.hasOwn(funcSet(s), name));
  return set ? `${message} (it is in the ${set} set: --funcs ${set})` : message;
}

/**
 * --option is checked as the command line is read, as Go's Template.Option panics before anything is
 * parsed: an unknown option fails before any file is read, with --batch too.
 */
function templateOption(v: string, prev: string[]): string[] {
  new Template('option').option(v);
  return collect(v, prev);
}

export function templateCommand(program: Command): void {
  const cmd = program
    .command('template')
    .description('render a Go text/template with Go, Sprig, Helm or Istio functions')
    .argument('[file]', 'template file (its base name is the template name in error messages); - for stdin')
    .option('-d, --data <file>', 'YAML or JSON data (- for stdin); numbers are float64, as Helm and encoding/json read them')
    .option('--funcs <set>', `function set: ${FUNC_SET_NAMES.join('|')}`, oneOf('--funcs', FUNC_SET_NAMES), 'builtin')
    .option('--env <KEY=VALUE>', 'the environment env and expandenv read (sprig and istio sets; repeatable); the process environment is never read', collect, [] as string[])
    .option('--option <opt>', 'template option, e.g. missingkey=error (repeatable)', templateOption, [] as string[])
    .option('--batch', 'read JSON Lines cases on stdin, write one result line per case');
  addLimitOptions(cmd).addHelpText('after', '\nExit codes: 0 rendered; 2 a parse or execution error, a limit reached (the message names the flag raising it), or bad input.\n');
  cmd.action(async (file: string | undefined, flags: TemplateFlags) => {
    if (flags.batch) {
      await batch();
      return;
    }
    if (!file) throw new Error('template: a template FILE is needed (- for stdin), or --batch');
    if (file === '-' && flags.data === '-') throw new Error('template: stdin can be either the template or --data, not both');
    const limits = limitsFromFlags(flags);
    const env = parseEnv(flags.env);
    const stdin = file === '-' || flags.data === '-' ? await readStdin() : '';
    const text = file === '-' ? stdin : readInputText(file);
    // nesting past the default stack: straight to the big one (guard/stack.ts), before anything is parsed
    if (forecastDeep(nestingEstimate(text))) throw new Error(`${file}: nesting deeper than the default stack`);
    const data = flags.data ? readData(flags.data, stdin) : null;
    const t = new Template(file === '-' ? 'stdin' : basename(file));
    if (flags.option.length > 0) t.option(...flags.option);
    t.funcs(funcSet(flags.funcs, { template: t, strict: flags.option.includes('missingkey=error'), env }));
    try {
      t.parse(text);
    } catch (e) {
      // Go's text first, as Go prints it; the hint after it
      if (e instanceof Error) e.message = withFuncSetHint(e.message, flags.funcs);
      throw e;
    }
    let out: string;
    try {
      out = t.execute(data, limits);
    } catch (e) {
      // As Go's Execute into stdout: what was written before an error stays written.
      if (e instanceof ExecError) process.stdout.write(e.output);
      if (e instanceof LimitError) throw new Error(limitHint(e.message));
      throw e;
    }
    process.stdout.write(out);
  });
}

/** Data as Helm reads values: sigs.k8s.io/yaml (YAML 1.1, through JSON, so numbers are float64). */
function readData(file: string, stdin: string): GoValue {
  const opts = { duplicateKeys: 'last' } as const;
  return file === '-' ? (loadYamlDocuments(stdin, '<stdin>', opts)[0]?.value ?? null) : (loadYamlDocuments(readInputText(file), file, opts)[0]?.value ?? null);
}

async function batch(): Promise<void> {
  const lines = linesLimited(stdinSource());
  // a case nested deeper than this thread's stack is run again on a big one, as Go would run it
  const big = onBigStack() ? undefined : new BigStackBatch();
  try {
    for await (const line of withStdinName(lines)) {
      if (line.trim() === '') continue;
      clearStackExhausted();
      // a case guessed deeper than the default stack is not tried on it first
      const deep = big !== undefined && forecastDeep(Math.max(nestingEstimate(line), jsonNesting(line)));
      let result = deep ? undefined : runLine(line);
      if (big && stackExhausted()) result = await big.run(line).catch(() => result ?? runLine(line));
      result ??= runLine(line);
      process.stdout.write(result + '\n');
    }
  } finally {
    clearStackExhausted();
    await big?.close();
  }
}

async function* withStdinName(lines: AsyncGenerator<string>): AsyncGenerator<string> {
  try {
    yield* lines;
  } catch (e) {
    if (e instanceof InputTooLarge) throw new Error(`<stdin>: a line ${e.message.replace(/^input /, '')}`);
    throw e;
  }
}
