// `sidecar-render template FILE --data data.yaml [--funcs SET] [--option missingkey=error]`: render one
// Go template, as text/template would. `--batch` speaks the JSON Lines protocol of tools/gorender.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { runCase, type BatchCase } from '../batch.js';
import { loadYamlDocuments } from '../yaml/load.js';

const FUNC_SETS = ['builtin', 'sprig', 'helm', 'istio'] as const;
type FuncSetFlag = (typeof FUNC_SETS)[number];

interface TemplateFlags {
  data?: string;
  funcs: FuncSetFlag;
  option: string[];
  batch?: boolean;
}

export function templateCommand(program: Command): void {
  program
    .command('template')
    .description('render a Go text/template with Go, Sprig, Helm or Istio functions')
    .argument('[file]', 'template file (its base name is the template name in error messages)')
    .option('-d, --data <file>', 'YAML or JSON data; numbers are float64, as Helm and encoding/json read them')
    .option('--funcs <set>', `function set: ${FUNC_SETS.join('|')}`, parseFuncs, 'builtin')
    .option('--option <opt>', 'template option, e.g. missingkey=error (repeatable)', collect, [] as string[])
    .option('--batch', 'read JSON Lines cases on stdin, write one result line per case')
    .action(async (file: string | undefined, flags: TemplateFlags) => {
      if (flags.batch) {
        await batch();
        return;
      }
      if (!file) throw new Error('template: a template FILE is needed (or --batch)');
      const c: BatchCase = {
        name: basename(file),
        template: readText(file),
        data: flags.data ? readData(flags.data) : undefined,
        funcs: flags.funcs,
        option: flags.option,
      };
      const r = runCase(c);
      // As Go's Execute into stdout: what was written before an error stays written.
      process.stdout.write(r.output);
      if (r.error !== null) throw new Error(r.error);
    });
}

function parseFuncs(v: string): FuncSetFlag {
  if (!(FUNC_SETS as readonly string[]).includes(v)) throw new Error(`--funcs must be one of ${FUNC_SETS.join(', ')}, not "${v}"`);
  return v as FuncSetFlag;
}

function collect(v: string, prev: string[]): string[] {
  return [...prev, v];
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

/** Data as Helm reads values: sigs.k8s.io/yaml (YAML 1.1, through JSON, so numbers are float64). */
function readData(file: string): unknown {
  return loadYamlDocuments(readText(file), file)[0]?.value ?? null;
}

async function batch(): Promise<void> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.trim() === '') continue;
    let out: object;
    try {
      out = runCase(JSON.parse(line) as BatchCase);
    } catch (e) {
      out = { name: '', output: '', error: `bad case: ${(e as Error).message}`, phase: null };
    }
    process.stdout.write(JSON.stringify(out) + '\n');
  }
}
