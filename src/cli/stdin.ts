// Stdin is read once per command, and what was read is kept: a command re-run on the big-stack thread
// (bigstack.ts) is given the same text, since the stream itself cannot be read twice.

import { streamTextLimited, readTextLimited } from '../guard/fs.js';

let given: string | undefined;
let read: string | undefined;
let streamed = false;

/** At the start of a command: nothing read yet (or, on the big-stack thread, what the first run read). */
export function resetStdin(text?: string): void {
  given = text;
  read = undefined;
  streamed = false;
}

/** True when the command read stdin as a stream, which cannot be given to a second run. */
export function stdinStreamed(): boolean {
  return streamed;
}

/** The text the command read from stdin, if it read any. */
export function stdinRead(): string | undefined {
  return read;
}

/** Stdin's whole text, through process.stdin (a pipe, a file, a terminal and an in-process stream alike). */
export async function stdinText(): Promise<string> {
  read ??= given ?? (await streamTextLimited(process.stdin as AsyncIterable<Buffer>));
  return read;
}

/** The same, read synchronously from file descriptor 0. */
export function stdinTextSync(): string {
  read ??= given ?? readTextLimited(0);
  return read;
}

/** Stdin as lines (template --batch): the stream itself, or the text a first run read. */
export function stdinSource(): AsyncIterable<Buffer | string> {
  if (given !== undefined) {
    const text = given;
    return (async function* () {
      yield text;
    })();
  }
  streamed = true;
  return process.stdin as AsyncIterable<Buffer>;
}
