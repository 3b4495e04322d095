// The input flags of render, audit, golden and diff, made from the one table of inputs
// (src/inputs/options.ts): each flag is the library option of the same name in camelCase, with the
// same meaning everywhere. A command adds them with addInputOptions and reads them back with
// inputsFromFlags; what it does with them (render, judge, compare) is its own.

import { Option, type Command } from 'commander';
import { INPUT_OPTIONS, normalizeOptions, repeatable, type InjectorOptions, type InputOption } from '../inputs/options.js';
import { collect, oneOf } from './options.js';
import { InputTooLarge } from '../guard/fs.js';
import { stdinText, stdinYamlText } from './stdin.js';
import { InputError } from '../yaml/load.js';

/** The flags as commander leaves them: the options by their names, istioctl's spellings beside them. */
export type InputFlags = Record<string, unknown> & { quiet?: boolean };

/** Which groups of the table a command takes. */
export interface InputOptionSet {
  /** Workloads with -f (repeatable), directories and -R. */
  workloads?: boolean;
  /** --mode webhook|kube-inject. */
  mode?: boolean;
}

/** istioctl's spelling of a flag, kept under a name of its own (--valuesFile would be --values-file's valuesFile). */
class RenamedOption extends Option {
  constructor(
    flags: string,
    description: string,
    private readonly attr: string,
  ) {
    super(flags, description);
  }
  override attributeName(): string {
    return this.attr;
  }
}

const hiddenName = (flag: string): string => `alias:${flag}`;

function optionOf(row: InputOption): Option {
  const o = new Option(row.flag, row.help);
  if (row.choices) o.argParser(oneOf(row.flag.split(' ')[0]!.replace(/^-\w, /, ''), row.choices));
  else if (repeatable(row)) o.argParser(collect).default([] as string[]);
  return o;
}

/** Add the input flags of the table to a command (the injector's, and the groups asked for). */
export function addInputOptions(cmd: Command, set: InputOptionSet = { workloads: true }): Command {
  for (const row of INPUT_OPTIONS) {
    if ((row.group === 'workloads' && !set.workloads) || (row.group === 'mode' && !set.mode)) continue;
    cmd.addOption(optionOf(row));
    for (const alias of row.hiddenFlags ?? []) {
      const arg = /\s([<[].*)$/.exec(row.flag)?.[1];
      const a = new RenamedOption(arg ? `${alias} ${arg}` : alias, `istioctl's name of ${row.flag.split(' ')[0]}`, hiddenName(alias)).hideHelp();
      if (repeatable(row)) a.argParser(collect).default([] as string[]);
      cmd.addOption(a);
    }
  }
  return cmd.option('-q, --quiet', 'do not print the assumptions line or progress on stderr');
}

function given(v: unknown): boolean {
  return v !== undefined && !(Array.isArray(v) && v.length === 0);
}

/**
 * The options the flags give (only those given), istioctl's spellings folded in, checked as the
 * library checks them: a one-line InputError for a usage error. `extraWorkloads` are files given as
 * arguments, as with -f.
 */
export function inputsFromFlags(flags: InputFlags, extraWorkloads: string[] = []): InjectorOptions {
  const out: Record<string, unknown> = {};
  for (const row of INPUT_OPTIONS) {
    let v = flags[row.key];
    for (const alias of row.hiddenFlags ?? []) {
      const a = flags[hiddenName(alias)];
      if (!given(a)) continue;
      if (repeatable(row)) v = [...((v as string[] | undefined) ?? []), ...(a as string[])];
      else if (given(v) && v !== a) throw new InputError(`give only one of ${row.flag.split(' ')[0]} and ${alias}`);
      else v = a;
    }
    if (row.key === 'filename') v = [...((v as string[] | undefined) ?? []), ...extraWorkloads];
    // the flag alone means true; auto is what no flag says
    if (row.key === 'nativeSidecars' && (v === true || v === 'auto')) v = v === true ? 'true' : undefined;
    if (given(v) && v !== false) out[row.key] = v;
  }
  normalizeOptions(out);
  return out as InjectorOptions;
}

/** Stdin's whole text; with `yaml`, decoded as yaml.v2 reads YAML input (invalid UTF-8 refused). */
export async function readStdin(yaml = false): Promise<string> {
  try {
    // through process.stdin, not fd 0: a pipe, a file, a terminal and an in-process stream alike
    return yaml ? await stdinYamlText() : await stdinText();
  } catch (e) {
    if (e instanceof InputError) throw e;
    if (e instanceof InputTooLarge) throw new InputError(e.message, '<stdin>');
    throw new InputError(`cannot read stdin: ${(e as Error).message}`);
  }
}
