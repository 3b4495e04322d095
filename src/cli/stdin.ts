// Stdin is read once per command, and what was read is kept: a command re-run on the big-stack thread
// (bigstack.ts) is given the same text, since the stream itself cannot be read twice.

import { streamBytesLimited, readBytesLimited } from '../guard/fs.js';
import { decodeInput } from '../yaml/load.js';

let given: string | undefined;
let read: string | undefined;
/** The bytes read, where stdin itself was read (not a first run's text given again). */
let bytes: Buffer | undefined;
let streamed = false;

/** At the start of a command: nothing read yet (or, on the big-stack thread, what the first run read). */
export function resetStdin(text?: string): void {
  given = text;
  read = undefined;
  bytes = undefined;
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
  if (read === undefined) {
    if (given !== undefined) read = given;
    else {
      bytes = await streamBytesLimited(process.stdin as AsyncIterable<Buffer>);
      read = bytes.toString('utf8');
    }
  }
  return read;
}

/** The same, read synchronously from file descriptor 0. */
export function stdinTextSync(): string {
  if (read === undefined) {
    if (given !== undefined) read = given;
    else {
      bytes = readBytesLimited(0);
      read = bytes.toString('utf8');
    }
  }
  return read;
}

/** Stdin's text as YAML input: its bytes decoded as yaml.v2 reads them (invalid UTF-8 is an error at its place). */
export async function stdinYamlText(): Promise<string> {
  const text = await stdinText();
  return bytes ? decodeInput(bytes, '<stdin>') : text;
}

/** The same, read synchronously. */
export function stdinYamlTextSync(): string {
  const text = stdinTextSync();
  return bytes ? decodeInput(bytes, '<stdin>') : text;
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
