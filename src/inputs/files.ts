// Reading what users name on the command line or give the library: files (with a one-line error for
// one that cannot be read, never an errno code), stdin, texts given by name, and kubectl's -f: files,
// directories of .yaml/.yml/.json files (-R with their subdirectories) and '-'.
//
// Upstream: none (kubectl's -f and -R)

import { readBytesLimited, readTextLimited, InputTooLarge, listFiles, readReason } from '../guard/fs.js';
import { InputError, decodeInput } from '../yaml/load.js';
import { statSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { workloadStream, manifestStream, type ManifestPiece } from '../istio/workload.js';
import type { InputFile } from './options.js';

/** A file's text, or an InputError `FILE: no such file` (never a bare errno code). */
export function readInputText(file: string): string {
  try {
    return readTextLimited(file);
  } catch (e) {
    if (e instanceof InputTooLarge) throw new InputError(e.message, file);
    throw new InputError(readReason(e), file);
  }
}

/**
 * Workload paths as kubectl takes them: files, '-' for stdin, and directories, whose .yaml, .yml and
 * .json files are read in name order (with subdirectories when recursive). Every path is checked here,
 * so a missing one fails the run before anything is rendered.
 */
export function workloadFiles<F extends InputFile>(paths: F | readonly F[], recursive = false): F[] {
  const list: F[] = Array.isArray(paths) ? [...(paths as readonly F[])] : [paths as F];
  if (list.length === 0) throw new InputError('no workload files given (-f FILE, a directory, or - for stdin)');
  const out: F[] = [];
  for (const p of list) {
    if (typeof p !== 'string' || p === '-') {
      out.push(p);
      continue;
    }
    let st: Stats;
    try {
      st = statSync(p);
    } catch (e) {
      throw new InputError(readReason(e), p);
    }
    if (!st.isDirectory()) {
      out.push(p);
      continue;
    }
    const found = (recursive ? listFiles(p) : readdirSync(p).filter((n) => !n.startsWith('.')).map((n) => join(p, n)).sort()).filter(
      (f) => /\.(ya?ml|json)$/i.test(f) && statSync(f).isFile(),
    );
    if (found.length === 0) throw new InputError(`no .yaml, .yml or .json files in the directory${recursive ? ' or below it' : ' (-R reads subdirectories)'}`, p);
    out.push(...(found as F[]));
  }
  return out;
}

/** The name and text of a workload input: '-' is stdin's text, shown as <stdin>. */
export function workloadText(f: InputFile, stdin: string | undefined): { name: string; text: string } {
  return f === '-' ? { name: '<stdin>', text: stdin ?? '' } : textOf(f);
}

/** The workloads of several files, one file read at a time. */
export function* workloadsOf(files: readonly InputFile[], stdin: string | undefined): Generator<ManifestPiece> {
  for (const f of files) {
    const { name, text } = workloadText(f, stdin);
    for (const workload of workloadStream(text, name)) yield { type: 'workload', workload };
  }
}

/** Every document of several files in order (workloads, other objects, Lists), one file read at a time. */
export function* manifestOf(files: readonly InputFile[], stdin: string | undefined): Generator<ManifestPiece> {
  for (const f of files) {
    const { name, text } = workloadText(f, stdin);
    yield* manifestStream(text, name);
  }
}

/** A YAML or JSON input file's text, decoded as yaml.v2 reads it: invalid UTF-8 is an error naming
 *  the file, line and column, where reading it as text would have replaced it quietly. */
export function readYamlText(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readBytesLimited(file);
  } catch (e) {
    if (e instanceof InputTooLarge) throw new InputError(e.message, file);
    throw new InputError(readReason(e), file);
  }
  return decodeInput(bytes, file);
}

/** The name and text of a file given to an option (a path is read as YAML input; a name and text are taken as given). */
export function textOf(f: InputFile): { name: string; text: string } {
  return typeof f === 'string' ? { name: f, text: readYamlText(f) } : f;
}

/** The name a file given to an option is shown by. */
export function nameOf(f: InputFile): string {
  return typeof f === 'string' ? f : f.name;
}
