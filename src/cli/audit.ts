// `sidecar-render audit`: a thin shell over src/audit.
//
// Exit codes: 0 no finding at or above --fail-on; 1 findings at or above --fail-on (default error);
// 2 bad input or usage (one line on stderr).

import { Command, Option } from 'commander';
import {
  auditDetailed,
  atOrAbove,
  formatSarif,
  jsonReport,
  textReport,
  renderTimelineSvg,
  renderTimelineText,
  timeline,
  RULES,
  IGNORE_ANNOTATION,
  FileSource,
  groupByCause,
  type AuditOptions,
  type InputText,
} from '../audit/index.js';
import { InputError } from '../audit/input.js';
import { decodeInput } from '../yaml/load.js';
import { workloadFiles } from '../inputs/files.js';
import { collect } from './options.js';
import { addInputOptions, inputsFromFlags, type InputFlags } from './inputs.js';
import { InputTooLarge, readBytesLimited, readReason } from '../guard/fs.js';
import { stdinYamlTextSync } from './stdin.js';

type AuditFlags = InputFlags & {
  output: 'text' | 'json' | 'sarif';
  failOn: 'info' | 'warning' | 'error';
  timeline?: boolean;
  timelineFormat: 'text' | 'svg';
  color?: boolean;
  progress?: boolean;
  model?: boolean;
  listRules?: boolean;
  disable: string[];
  perWorkload?: boolean;
  info?: boolean;
};

/** A file's bytes, or a one-line InputError naming it. */
function readFileBytes(file: string): Buffer {
  try {
    return readBytesLimited(file);
  } catch (e) {
    if (e instanceof InputTooLarge) throw new InputError(`${file}: ${e.message}`);
    throw new InputError(`${file}: ${readReason(e)}`);
  }
}

function readInput(file: string): InputText {
  let text: string;
  if (file === '-') {
    try {
      text = stdinYamlTextSync();
    } catch (e) {
      if (e instanceof InputTooLarge) throw new InputError(`<stdin>: ${e.message}`);
      if (e instanceof InputError) throw e;
      throw new InputError(`cannot read stdin: ${(e as Error).message}`);
    }
    file = '<stdin>';
  } else {
    text = decodeInput(readFileBytes(file), file);
  }
  if (text.trim() === '') throw new InputError(`${file}: empty input, nothing to audit`);
  return { name: file, text };
}

/** A workload input: stdin keeps its text; a file is read again for the audit's second pass. */
function workloadInput(file: string): InputText | FileSource {
  if (file === '-') return readInput(file);
  const source = new FileSource(file, file, readFileBytes);
  if (source.peek()?.trim() === '') throw new InputError(`${file}: empty input, nothing to audit`);
  return source;
}

export function auditCommand(program: Command): Command {
  const cmd = program
    .command('audit')
    .description('find sidecar lifecycle hazards (start order, hold, preStop, drain, Jobs, native sidecars) in workloads, injector config and cluster dumps')
    .argument('[files...]', 'more input files, as with -f');
  addInputOptions(cmd)
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json', 'sarif']).default('text'))
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity').choices(['info', 'warning', 'error']).default('error'))
    .option('--disable <rule>', 'do not apply this rule (repeatable, or comma-separated)', collect, [] as string[])
    .option('--info', 'also report info findings (hidden by default, unless --fail-on info)')
    .option('--per-workload', 'one entry per workload and finding, info included, as before findings were grouped by cause (text, JSON rows of rule, severity, workload, container, message, location, fix; SARIF)')
    .option('--timeline', 'explain start-up and shutdown step by step for each workload, instead of findings')
    .addOption(new Option('--timeline-format <format>', 'timeline format').choices(['text', 'svg']).default('text'))
    .option('--color', 'force colour')
    .option('--no-color', 'never colour')
    .option('--no-progress', 'no progress on stderr for big inputs')
    .option('--model', 'judge raw workloads with the built-in model of the injector instead of rendering the template')
    .option('--list-rules', 'list the rules and exit')
    .addHelpText(
      'after',
      '\nInputs: -f takes workloads, kind: List dumps, and the istio and istio-sidecar-injector ConfigMaps, which apply to\n' +
        'the workloads beside them as in the cluster; the injector flags override them and mean what they mean for render.\n' +
        `A workload annotated ${IGNORE_ANNOTATION}: "RULE: reason" is not reported for RULE (the reason is required).\n` +
        '\nOne finding per cause: findings of one rule at one location (a line of injector values, the mesh ConfigMap,\n' +
        'a --set) are one, listing the workloads it affects (JSON: affects and workloads; SARIF: related locations).\n' +
        '--per-workload gives one entry per workload and finding instead; info findings are shown with --info.\n' +
        '\nExit codes: 0 no finding at or above --fail-on, 1 findings at or above --fail-on, 2 bad input or usage.\n' +
        'Example: kubectl get cm,deploy,job,cronjob -A -o yaml | sidecar-render audit -f -',
    )
    .action((files: string[], flags: AuditFlags) => {
      process.exitCode = runAudit(flags, files);
    });
  return cmd;
}

function runAudit(flags: AuditFlags, extra: string[]): number {
  const out = (s: string): void => {
    process.stdout.write(s);
  };
  if (flags.listRules) {
    for (const r of RULES) out(`${r.id.padEnd(28)} ${r.severity.padEnd(8)} ${r.summary}\n`);
    return 0;
  }
  try {
    const inputs = inputsFromFlags(flags, extra);
    const named = (inputs.filename ?? []) as string[];
    const given = named.length ? named : process.stdin.isTTY ? [] : ['-'];
    const files = given.length ? workloadFiles(given, inputs.recursive === true) : [];
    const anyConfig = ['injectorConfigmap', 'chart', 'injectConfigFile', 'template', 'values', 'mesh', 'iop', 'valuesFile'].some((k) => inputs[k as keyof typeof inputs] !== undefined);
    if (files.length === 0 && !anyConfig) {
      throw new InputError('nothing to audit: give -f FILE (or - for stdin), or --injector-configmap/--chart/--values');
    }
    const workloads = (files.includes('-') ? [...files.filter((f) => f !== '-'), '-'] : files).map((f) => workloadInput(f));
    const showProgress = flags.progress !== false && !flags.quiet;
    const { filename: _f, recursive: _r, nativeSidecars, ...rest } = inputs;
    const opts: AuditOptions = {
      ...(rest as AuditOptions),
      nativeSidecars: nativeSidecars === undefined ? undefined : nativeSidecars === 'true' || nativeSidecars === true,
      inject: flags.model ? null : undefined,
      keepSubjects: !!flags.timeline,
      disable: flags.disable.flatMap((d) => d.split(',').map((x) => x.trim()).filter(Boolean)),
      onProgress: showProgress
        ? (e) => {
            if (e.objects < 300) return;
            if (e.phase === 'parsed') process.stderr.write(`audit: read ${e.objects} objects, ${e.total} workloads to judge\n`);
            else if (e.phase === 'judging' && process.stderr.isTTY) process.stderr.write(`\raudit: judged ${e.done}/${e.total} workloads`);
            else if (e.phase === 'done') process.stderr.write(`${process.stderr.isTTY ? '\r' : ''}audit: judged ${e.total}/${e.total} workloads\n`);
          }
        : undefined,
    };
    const result = auditDetailed(workloads, opts);
    if (!flags.quiet) process.stderr.write(`sidecar-render: ${result.assumptions}\n`);
    for (const n of result.notes) process.stderr.write(n + '\n');
    if (result.ignored.length && !flags.quiet) {
      process.stderr.write(`audit: ${result.ignored.length} finding${result.ignored.length === 1 ? '' : 's'} ignored by ${IGNORE_ANNOTATION} annotations\n`);
    }
    const color = flags.color ?? (process.stdout.isTTY && !process.env['NO_COLOR']);
    if (flags.timeline) {
      const tls = result.subjects.map(timeline);
      if (flags.timelineFormat === 'svg') {
        if (tls.length !== 1) {
          // one SVG document per workload would not be valid XML concatenated; stack them instead
          out(stackSvgs(tls.map(renderTimelineSvg)));
        } else out(renderTimelineSvg(tls[0]!));
      } else out(tls.map((t) => renderTimelineText(t, { color })).join('\n'));
      // the same hazards fail the run with or without --timeline
      const failing = atOrAbove(result.findings, flags.failOn).length;
      if (failing && !flags.quiet) process.stderr.write(`audit: ${failing} finding${failing === 1 ? '' : 's'} at or above ${flags.failOn} (the report without --timeline lists them)\n`);
      return failing ? 1 : 0;
    }
    const findings = result.findings;
    // info is shown when asked for, or when it can fail the run
    const byCause = !flags.perWorkload;
    const shown = !byCause || flags.info || flags.failOn === 'info' ? findings : atOrAbove(findings, 'warning');
    const hidden = shown.length < findings.length ? groupByCause(findings.filter((f) => f.severity === 'info')).length : 0;
    if (flags.output === 'json') writeInChunks(jsonReport(shown, { byCause }), out);
    else if (flags.output === 'sarif') out(formatSarif(shown, { byCause }));
    else writeInChunks(textReport(shown, { color, workloads: result.judged, byCause, hidden }), out);
    return atOrAbove(findings, flags.failOn).length > 0 ? 1 : 0;
  } catch (e) {
    if (e instanceof InputError || e instanceof SyntaxError) {
      process.stderr.write(`sidecar-render: ${e.message.split('\n')[0]}\n`);
      return 2;
    }
    throw e;
  }
}

/** A report written as it is made, in writes of about 64 KB, instead of as one string the size of all of it. */
function writeInChunks(pieces: Iterable<string>, write: (s: string) => void): void {
  let buf = '';
  for (const p of pieces) {
    buf += p;
    if (buf.length >= 1 << 16) {
      write(buf);
      buf = '';
    }
  }
  if (buf) write(buf);
}

/** Several timelines in one self-contained SVG: each nested at its own offset. */
function stackSvgs(svgs: string[]): string {
  let y = 0;
  let width = 0;
  const parts: string[] = [];
  for (const s of svgs) {
    const w = Number(/width="(\d+)"/.exec(s)?.[1] ?? 0);
    const h = Number(/height="(\d+)"/.exec(s)?.[1] ?? 0);
    parts.push(s.replace('<svg ', `<svg y="${y}" `).trimEnd());
    y += h + 20;
    width = Math.max(width, w);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${Math.max(0, y - 20)}" viewBox="0 0 ${width} ${Math.max(0, y - 20)}">\n${parts.join('\n')}\n</svg>\n`;
}
