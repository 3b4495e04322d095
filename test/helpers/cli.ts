// The command line run in-process, as a user would run it: main() with stdout and stderr captured.

import { main } from '../../src/cli/index.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function text(chunk: string | Uint8Array): string {
  return typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
}

/** `sidecar-render ARGS...`: its exit code and all it wrote; process.exitCode is left unset. */
export async function cli(...args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const ow = process.stdout.write;
  const ew = process.stderr.write;
  process.stdout.write = ((c: string | Uint8Array) => ((stdout += text(c)), true)) as typeof process.stdout.write;
  process.stderr.write = ((c: string | Uint8Array) => ((stderr += text(c)), true)) as typeof process.stderr.write;
  try {
    const code = await main(['node', 'sidecar-render', ...args]);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = ow;
    process.stderr.write = ew;
    process.exitCode = undefined;
  }
}
