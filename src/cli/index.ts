// The command line: a thin shell over the library. Every command lives in its own file.
// Exit codes: 0 success; 1 a check found something (golden differences, audit findings at --fail-on);
// 2 bad input or usage (one line on stderr, never a stack trace).

import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.js';
import { clearStackExhausted, isStackOverflow, onBigStack, setForecasts, setLibraryBigStack, stackExhausted, stackForecast } from '../guard/stack.js';
import { HeldOutput, runOnBigStack, writeChunks } from './bigstack.js';
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
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const register of registers) register(program);
  for (const c of program.commands) c.exitOverride();
  for (const c of program.commands.flatMap((x) => x.commands)) c.exitOverride();
  return program;
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
      // commander has already printed its message (help, version, usage errors)
      return e.exitCode === 0 ? 0 : 2;
    }
    isStackOverflow(e);
    process.stderr.write(`sidecar-render: ${oneLine(e)}\n`);
    return 2;
  }
  return Number(process.exitCode ?? 0);
}

export function oneLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split('\n')[0]!;
}
