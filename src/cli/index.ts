// The command line: a thin shell over the library. Every command lives in its own file.
// Exit codes: 0 success; 1 a check found something (golden differences, audit findings at --fail-on);
// 2 bad input or usage (one line on stderr, never a stack trace). commander's own usage errors (an
// unknown option, a missing argument, a missing subcommand) are that one line too, with the command's
// --help named; commander prints nothing of them itself.

import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.js';
import { clearStackExhausted, isStackOverflow, onBigStack, setForecasts, setLibraryBigStack, stackExhausted, stackForecast } from '../guard/stack.js';
import { HeldOutput, runOnBigStack, writeChunks } from './bigstack.js';
import { printable } from '../output/escape.js';
import { resetStdin, stdinRead, stdinStreamed } from './stdin.js';

type Register = (program: Command) => void;

// A command's module (and what it needs: ajv, the audit rules, golden) is loaded only when that command
// runs; module loading was most of a cold `render`. Help and unknown commands load them all.
const commands: Record<string, () => Promise<Register>> = {
  template: async () => (await import('./template.js')).templateCommand,
  render: async () => (await import('./render.js')).renderCommand,
  audit: async () => (await import('./audit.js')).auditCommand,
  chart: async () => (await import('./chart.js')).chartCommand,
  diff: async () => (await import('./diff.js')).diffCommand,
  golden: async () => {
    const [{ goldenCommand }, { istioCaseRenderer }] = await Promise.all([import('./golden.js'), import('../golden/istio.js')]);
    return (program) => goldenCommand(program, { renderer: istioCaseRenderer });
  },
  completion: async () => {
    const { completionCommand } = await import('./completion.js');
    return (program) => completionCommand(program, () => buildProgram());
  },
  version: async () => (await import('./completion.js')).versionCommand,
};

/** The program with every command, or with only the one `argv` (process.argv style) names. */
export async function buildProgram(argv?: string[]): Promise<Command> {
  const named = argv?.slice(2).find((a) => !a.startsWith('-'));
  const wanted = named !== undefined && Object.hasOwn(commands, named) ? [named] : Object.keys(commands);
  const registers = await Promise.all(wanted.map((name) => commands[name]!()));
  const program = new Command('sidecar-render')
    .description('Render Istio sidecar-injector templates as istiod would; audit and golden-test the result.')
    .version(VERSION);
  for (const register of registers) register(program);
  for (const c of [program, ...program.commands, ...program.commands.flatMap((x) => x.commands)]) {
    c.exitOverride();
    // the error and the help shown for a missing subcommand are left to run(), as one line; the command
    // they are about is kept for its --help hint (commander's error carries only the text)
    const about = () => void usageCommand.set(program, c);
    c.configureOutput({ outputError: about, writeErr: about });
  }
  return program;
}

/** The command a usage error of a program was about. */
const usageCommand = new WeakMap<Command, Command>();

/** `sidecar-render golden check`, as typed. */
function commandPath(c: Command): string {
  const names: string[] = [];
  for (let x: Command | null = c; x; x = x.parent) names.unshift(x.name());
  return names.join(' ');
}

/**
 * commander's usage error as one line: its text (a suggestion on the next line joined in brackets),
 * then the command's --help. A command with subcommands given none lists them.
 */
export function usageLine(e: CommanderError, c: Command | undefined): string {
  const path = c ? commandPath(c) : 'sidecar-render';
  const help = `see '${path} --help'`;
  if (e.code === 'commander.help' && c) {
    const subs = c.commands.map((x) => x.name()).join(', ');
    return c.parent ? `${c.name()} needs a subcommand: ${subs}; ${help}` : `give a command: ${subs}; ${help}`;
  }
  const [first, ...rest] = e.message.replace(/^error: /, '').split('\n');
  const more = rest
    .map((l) => l.trim().replace(/^\((.*)\)$/, '$1'))
    .filter(Boolean)
    .map((l) => l[0]!.toLowerCase() + l.slice(1));
  return `${first!.replace(/\.$/, '')}${more.length ? ` (${more.join(' ')})` : ''}; ${help}`;
}

let pipeGuarded = false;

/**
 * A reader that goes away (`sidecar-render render ... | head`) ends the run quietly: EPIPE on stdout
 * or stderr is not an error worth a stack trace, and there is nobody left to tell.
 */
function exitQuietlyOnBrokenPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(Number(process.exitCode ?? 0));
      throw e;
    });
  }
}

/**
 * Run the CLI; resolves to the exit code. Errors become one line on stderr. A run whose input nested
 * deeper than this thread's stack is repeated on a big stack (bigstack.ts); `stdin` is what such a
 * first run read from stdin.
 */
export async function main(argv: string[], stdin?: string): Promise<number> {
  exitQuietlyOnBrokenPipe();
  resetStdin(stdin);
  // the command is repeated whole on a big stack below; the library must not repeat its calls one by one
  setLibraryBigStack(false);
  if (onBigStack()) return run(argv);
  clearStackExhausted();
  const held = new HeldOutput();
  let code: number;
  try {
    code = await run(argv);
  } catch (e) {
    writeChunks(held.end());
    throw e;
  }
  const kept = held.end();
  if (!stackExhausted() || held.released || stdinStreamed()) {
    writeChunks(kept);
    return code;
  }
  const forecast = stackForecast();
  clearStackExhausted();
  process.exitCode = undefined;
  try {
    return await runOnBigStack(argv, stdinRead());
  } catch {
    // no thread to be had: the first run's result stands, or, when it stopped on a forecast alone, a
    // run without forecasts gives it
    if (!forecast) {
      writeChunks(kept);
      return code;
    }
    setForecasts(false);
    try {
      return await main(argv, stdinRead());
    } finally {
      setForecasts(true);
    }
  }
}

async function run(argv: string[]): Promise<number> {
  process.exitCode = undefined;
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // help and version are printed by commander; a usage error is one line here
      if (e.exitCode === 0) return 0;
      process.stderr.write(`sidecar-render: ${usageLine(e, usageCommand.get(program))}\n`);
      return 2;
    }
    isStackOverflow(e);
    process.stderr.write(`sidecar-render: ${oneLine(e)}\n`);
    return 2;
  }
  return Number(process.exitCode ?? 0);
}

/** An error as one line for stderr: its first line, with the input's control characters escaped. */
export function oneLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return printable(msg.split('\n')[0]!);
}
