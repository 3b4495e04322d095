// The command line: a thin shell over the library. Every command lives in its own file.
// Exit codes: 0 success; 1 a check found something (golden differences, audit findings at --fail-on);
// 2 bad input or usage (one line on stderr, never a stack trace).

import { Command, CommanderError } from 'commander';
import { goldenCommand } from './golden.js';
import { istioCaseRenderer } from '../golden/istio.js';
import { templateCommand } from './template.js';
import { renderCommand } from './render.js';
import { auditCommand } from './audit.js';
import { VERSION } from '../version.js';

export function buildProgram(): Command {
  const program = new Command('sidecar-render')
    .description('Render Istio sidecar-injector templates as istiod would; audit and golden-test the result.')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  templateCommand(program);
  renderCommand(program);
  auditCommand(program);
  goldenCommand(program, { renderer: istioCaseRenderer });
  for (const c of program.commands) c.exitOverride();
  for (const c of program.commands.flatMap((x) => x.commands)) c.exitOverride();
  return program;
}

/** Run the CLI; resolves to the exit code. Errors become one line on stderr. */
export async function main(argv: string[]): Promise<number> {
  process.exitCode = undefined;
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander has already printed its message (help, version, usage errors)
      return e.exitCode === 0 ? 0 : 2;
    }
    process.stderr.write(`sidecar-render: ${oneLine(e)}\n`);
    return 2;
  }
  return Number(process.exitCode ?? 0);
}

export function oneLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split('\n')[0]!;
}
