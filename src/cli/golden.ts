// `sidecar-render golden check|update MATRIX`: golden-file regression tests of rendered injection.
// check prints a diff per changed golden and one line per missing one (a new matrix has only those);
// --run naming no case is a usage error, not an empty pass.

import { Option, type Command } from 'commander';
import type { ExecOptions } from '../go/text/template/template.js';
import { addLimitOptions, limitsFromFlags, type LimitFlags } from './limits.js';
import { addInputOptions, inputsFromFlags, type InputFlags } from './inputs.js';
import { parseEnv } from '../inputs/options.js';
import type { RenderRequest } from '../inputs/resolve.js';
import { checkMatrix, colorDiff, loadMatrix, updateMatrix, type CaseRenderer, type CheckReport, type GoldenMatrix, type UpdateReport } from '../golden/index.js';

export interface GoldenCommandDeps {
  /** Builds the renderer for a matrix (the Istio renderer, with inputs cached across cases); limits apply to every case. */
  renderer: (m: GoldenMatrix, opts?: { limits?: ExecOptions; overrides?: Partial<RenderRequest>; onAssumptions?: (caseName: string, line: string) => void }) => CaseRenderer;
}

type GoldenFlags = LimitFlags &
  InputFlags & {
    output: 'text' | 'json';
    color?: boolean;
    run?: string;
    prune?: boolean;
    goldenDir?: string;
    progress?: boolean;
  };

const PROGRESS_MIN_CASES = 50;

function progress(flags: GoldenFlags, verb: string) {
  return (done: number, total: number) => {
    if (flags.progress === false || flags.quiet || total < PROGRESS_MIN_CASES) return;
    if (done === total || done % 100 === 0) process.stderr.write(`${verb} ${done}/${total} cases\n`);
  };
}

/** The shared input flags given, which apply over every case's own (env as a map, as a case holds it). */
function overridesOf(flags: GoldenFlags): Partial<RenderRequest> | undefined {
  const o: Record<string, unknown> = { ...inputsFromFlags(flags) };
  if (Array.isArray(o.env)) o.env = parseEnv(o.env as string[]);
  return Object.keys(o).length ? (o as Partial<RenderRequest>) : undefined;
}

/**
 * What the cases that changed or failed assumed, and where their inputs came from (render's assumptions
 * line): each different line once on stderr, with how many of those cases share it. A clean run, and
 * cases that only miss their golden file, say nothing.
 */
function assumptionsOf(flags: GoldenFlags): { add: (caseName: string, line: string) => void; print: (r: { results: { name: string; status: string }[] }) => void } {
  const byCase = new Map<string, string>();
  return {
    add: (caseName, line) => void byCase.set(caseName, line),
    print: (r) => {
      if (flags.quiet) return;
      const lines = new Map<string, string[]>();
      for (const res of r.results) {
        const line = byCase.get(res.name);
        if (line === undefined || (res.status !== 'changed' && res.status !== 'failed')) continue;
        lines.set(line, [...(lines.get(line) ?? []), res.name]);
      }
      for (const [line, names] of lines) process.stderr.write(`sidecar-render: ${names.length === 1 ? `case ${names[0]}` : `${names.length} cases (${names[0]}, ...)`}: ${line}\n`);
    },
  };
}

function filterOf(flags: GoldenFlags): ((name: string) => boolean) | undefined {
  if (flags.run === undefined) return undefined;
  const parts = flags.run.split(',').map((s) => s.trim()).filter(Boolean);
  return (name) => parts.some((p) => name.includes(p));
}

/** The case filter of --run; one that selects no case is an error naming some of the cases there are. */
function selection(m: GoldenMatrix, flags: GoldenFlags, file: string): ((name: string) => boolean) | undefined {
  const filter = filterOf(flags);
  if (!filter || m.cases.some((c) => filter(c.name))) return filter;
  const names = m.cases.map((c) => c.name);
  const some = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ') || 'none';
  throw new Error(`--run ${JSON.stringify(flags.run)} matches no case of ${file} (its cases: ${some})`);
}

function summary(r: CheckReport): string {
  const parts = [`${r.passed} passed`, `${r.changed} changed`, `${r.missing} missing`];
  if (r.failed) parts.push(`${r.failed} failed`);
  return parts.join(', ');
}

export function printCheck(r: CheckReport, flags: GoldenFlags, matrix: string, out: NodeJS.WritableStream = process.stdout): void {
  if (flags.output === 'json') {
    out.write(JSON.stringify({ passed: r.passed, changed: r.changed, missing: r.missing, failed: r.failed, stale: r.stale, results: r.results }, null, 2) + '\n');
    return;
  }
  const color = flags.color ?? (Boolean((out as NodeJS.WriteStream).isTTY) && !process.env['NO_COLOR']);
  for (const res of r.results) {
    if (res.status === 'passed') continue;
    if (res.status === 'failed') {
      out.write(`FAILED  ${res.name}: ${res.error}\n`);
      continue;
    }
    if (res.status === 'missing') {
      out.write(`MISSING ${res.name}: no golden file ${res.golden} yet; 'sidecar-render golden update ${matrix}' writes it\n`);
      continue;
    }
    out.write(`CHANGED ${res.name} (${res.golden})\n`);
    if (res.diff) out.write((color ? colorDiff(res.diff) : res.diff).replace(/\n?$/, '\n'));
  }
  for (const s of r.stale) out.write(`STALE   ${s} (no case produces it; ${r.unrecorded.includes(s) ? 'not written by golden update of this matrix, so --prune leaves it' : "'golden update --prune' removes it"})\n`);
  out.write(summary(r) + '\n');
}

export function printUpdate(r: UpdateReport, flags: GoldenFlags, out: NodeJS.WritableStream = process.stdout): void {
  if (flags.output === 'json') {
    out.write(JSON.stringify({ added: r.added, updated: r.updated, unchanged: r.passed, failed: r.results.filter((x) => x.status === 'failed'), stale: r.stale, removed: r.removed }, null, 2) + '\n');
    return;
  }
  for (const a of r.added) out.write(`added    ${a}\n`);
  for (const u of r.updated) out.write(`updated  ${u}\n`);
  for (const x of r.removed) out.write(`removed  ${x}\n`);
  for (const s of r.stale) out.write(`stale    ${s} (no case produces it; ${r.unrecorded.includes(s) ? 'not written by golden update of this matrix, so --prune leaves it' : '--prune removes it'})\n`);
  for (const f of r.results.filter((x) => x.status === 'failed')) out.write(`FAILED   ${f.name}: ${f.error}\n`);
  out.write(`${r.added.length} added, ${r.updated.length} updated, ${r.passed} unchanged, ${r.removed.length} removed, ${r.stale.length} stale${r.failed ? `, ${r.failed} failed` : ''}\n`);
}

export function goldenCommand(program: Command, deps: GoldenCommandDeps): void {
  const golden = program.command('golden').description('golden-file regression tests of rendered injection (the matrix format: docs/commands.md)');

  const check = golden
    .command('check')
    .description('render every case and compare with its golden file; exit 1 on any difference')
    .argument('[matrix]', 'matrix file', 'golden.yaml')
    .addOption(new Option('-o, --output <format>', 'report format').choices(['text', 'json']).default('text'))
    .option('--color', 'colour diffs even when stdout is not a terminal')
    .option('--no-color', 'never colour diffs')
    .option('--run <names>', 'only cases whose name contains one of these comma-separated strings')
    .option('--golden-dir <dir>', "the golden directory, over the matrix's goldenDir (the only way to name one outside the matrix's folder)")
    .option('--no-progress', 'no progress lines on stderr');
  addInputOptions(check, { workloads: false });
  addLimitOptions(check).action(async (file: string, flags: GoldenFlags) => {
      const limits = limitsFromFlags(flags);
      const overrides = overridesOf(flags);
      const m = loadMatrix(file, flags.goldenDir !== undefined ? { goldenDir: flags.goldenDir } : {});
      const filter = selection(m, flags, file);
      const said = assumptionsOf(flags);
      const r = await checkMatrix(m, deps.renderer(m, { limits, ...(overrides ? { overrides } : {}), onAssumptions: said.add }), { filter, onProgress: progress(flags, 'checked') });
      said.print(r);
      printCheck(r, flags, file);
      process.exitCode = r.changed + r.missing + r.failed > 0 ? 1 : 0;
    });

  const update = golden
    .command('update')
    .description('write new and changed golden files atomically; report stale ones')
    .argument('[matrix]', 'matrix file', 'golden.yaml')
    .addOption(new Option('-o, --output <format>', 'report format').choices(['text', 'json']).default('text'))
    .option('--prune', 'remove golden files that no case produces and an earlier golden update of this matrix wrote')
    .option('--run <names>', 'only cases whose name contains one of these comma-separated strings')
    .option('--golden-dir <dir>', "the golden directory, over the matrix's goldenDir (the only way to name one outside the matrix's folder)")
    .option('--no-progress', 'no progress lines on stderr');
  addInputOptions(update, { workloads: false });
  addLimitOptions(update).action(async (file: string, flags: GoldenFlags) => {
      const limits = limitsFromFlags(flags);
      const overrides = overridesOf(flags);
      const m = loadMatrix(file, flags.goldenDir !== undefined ? { goldenDir: flags.goldenDir } : {});
      const filter = selection(m, flags, file);
      const said = assumptionsOf(flags);
      const r = await updateMatrix(m, deps.renderer(m, { limits, ...(overrides ? { overrides } : {}), onAssumptions: said.add }), { filter, prune: flags.prune, onProgress: progress(flags, 'rendered') });
      said.print(r);
      printUpdate(r, flags);
      process.exitCode = r.failed > 0 ? 1 : 0;
    });
}
