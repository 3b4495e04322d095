// `sidecar-render audit`: a thin shell over src/audit.
//
// Exit codes: 0 no finding at or above --fail-on; 1 findings at or above --fail-on (default error);
// 2 bad input or usage (one line on stderr).

import { Command, Option } from 'commander';
import {
  auditDetailed,
  atOrAbove,
  formatJson,
  formatSarif,
  formatText,
  renderTimelineSvg,
  renderTimelineText,
  timeline,
  RULES,
  type AuditOptions,
  type InputText,
} from '../audit/index.js';
import { InputError } from '../audit/input.js';
import { collect } from './options.js';
import { InputTooLarge, readTextLimited } from '../util/fs.js';

interface AuditFlags {
  file: string[];
  filename: string[];
  mesh?: string;
  values?: string;
  injectorConfigmap?: string;
  kubeVersion?: string;
  nativeSidecars?: boolean | string;
  output: 'text' | 'json' | 'sarif';
  failOn: 'info' | 'warning' | 'error';
  timeline?: boolean;
  timelineFormat: 'text' | 'svg';
  color?: boolean;
  progress?: boolean;
  model?: boolean;
  listRules?: boolean;
}

function readInput(file: string): InputText {
  let text: string;
  if (file === '-') {
    try {
      text = readTextLimited(0);
    } catch (e) {
      if (e instanceof InputTooLarge) throw new InputError(`<stdin>: ${e.message}`);
      throw new InputError(`cannot read stdin: ${(e as Error).message}`);
    }
    file = '<stdin>';
  } else {
    try {
      text = readTextLimited(file);
    } catch (e) {
      if (e instanceof InputTooLarge) throw new InputError(`${file}: ${e.message}`);
      const code = (e as NodeJS.ErrnoException).code;
      throw new InputError(`${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (code ?? 'cannot read')}`);
    }
  }
  if (text.trim() === '') throw new InputError(`${file}: empty input, nothing to audit`);
  return { name: file, text };
}

/** --native-sidecars alone means on; `true`, `false` or `auto` (the values decide) as a value. */
function nativeSidecarsFlag(v: boolean | string | undefined): boolean | undefined {
  if (v === undefined || v === 'auto') return undefined;
  if (v === true || v === 'true') return true;
  if (v === 'false') return false;
  throw new InputError(`--native-sidecars takes true, false or auto, not "${String(v)}"`);
}

export function auditCommand(program: Command): Command {
  return program
    .command('audit')
    .description('find sidecar lifecycle hazards (start order, hold, preStop, drain, Jobs, native sidecars) in workloads, injector config and cluster dumps')
    .argument('[files...]', 'more input files, as with -f')
    .option('-f, --file <path>', 'input YAML/JSON (repeatable; - for stdin): workloads, kind: List dumps, istio and istio-sidecar-injector ConfigMaps', collect, [] as string[])
    .addOption(new Option('--filename <path>', 'the same as -f (the name render and kubectl use)').argParser(collect).default([] as string[]).hideHelp())
    .option('--mesh <path>', 'mesh config: the istio ConfigMap, an IstioOperator, or the mesh config itself')
    .option('--values <path>', 'injector values: a values file, an IstioOperator, or the injector ConfigMap')
    .option('--injector-configmap <path>', 'the istio-sidecar-injector ConfigMap (template and values)')
    .option('--kube-version <version>', 'the cluster\'s Kubernetes version, e.g. 1.28 (native sidecars need 1.29)')
    .option('--native-sidecars [mode]', 'istiod\'s ENABLE_NATIVE_SIDECARS: true (also the flag alone), false, or auto (default: the values and --kube-version decide)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json', 'sarif']).default('text'))
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity').choices(['info', 'warning', 'error']).default('error'))
    .option('--timeline', 'explain start-up and shutdown step by step for each workload, instead of findings')
    .addOption(new Option('--timeline-format <format>', 'timeline format').choices(['text', 'svg']).default('text'))
    .option('--color', 'force colour')
    .option('--no-color', 'never colour')
    .option('--no-progress', 'no progress on stderr for big inputs')
    .option('--model', 'judge raw workloads with the built-in model of the injector instead of rendering the template')
    .option('--list-rules', 'list the rules and exit')
    .addHelpText(
      'after',
      '\nExit codes: 0 no finding at or above --fail-on, 1 findings at or above --fail-on, 2 bad input or usage.\n' +
        'Example: kubectl get cm,deploy,job,cronjob -A -o yaml | sidecar-render audit -f -',
    )
    .action((files: string[], flags: AuditFlags) => {
      process.exitCode = runAudit({ ...flags, file: [...flags.file, ...flags.filename, ...files] });
    });
}

function runAudit(flags: AuditFlags): number {
  const out = (s: string): void => {
    process.stdout.write(s);
  };
  if (flags.listRules) {
    for (const r of RULES) out(`${r.id.padEnd(28)} ${r.severity.padEnd(8)} ${r.summary}\n`);
    return 0;
  }
  try {
    const files = flags.file.length ? flags.file : process.stdin.isTTY ? [] : ['-'];
    if (files.length === 0 && !flags.injectorConfigmap && !flags.values && !flags.mesh) {
      throw new InputError('nothing to audit: give -f FILE (or - for stdin), or --injector-configmap/--values');
    }
    const inputs = files.map((f) => readInput(f));
    const showProgress = flags.progress !== false;
    const opts: AuditOptions = {
      mesh: flags.mesh ? readInput(flags.mesh) : undefined,
      values: flags.values ? readInput(flags.values) : undefined,
      injectorConfigMap: flags.injectorConfigmap ? readInput(flags.injectorConfigmap) : undefined,
      kubeVersion: flags.kubeVersion,
      nativeSidecars: nativeSidecarsFlag(flags.nativeSidecars),
      inject: flags.model ? null : undefined,
      onProgress: showProgress
        ? (e) => {
            if (e.objects < 300) return;
            if (e.phase === 'parsed') process.stderr.write(`audit: read ${e.objects} objects, ${e.total} workloads to judge\n`);
            else if (e.phase === 'judging' && process.stderr.isTTY) process.stderr.write(`\raudit: judged ${e.done}/${e.total} workloads`);
            else if (e.phase === 'done') process.stderr.write(`${process.stderr.isTTY ? '\r' : ''}audit: judged ${e.total}/${e.total} workloads\n`);
          }
        : undefined,
    };
    const result = auditDetailed(inputs, opts);
    const color = flags.color ?? (process.stdout.isTTY && !process.env['NO_COLOR']);
    if (flags.timeline) {
      const tls = result.subjects.map(timeline);
      if (flags.timelineFormat === 'svg') {
        if (tls.length !== 1) {
          // one SVG document per workload would not be valid XML concatenated; stack them instead
          out(stackSvgs(tls.map(renderTimelineSvg)));
        } else out(renderTimelineSvg(tls[0]!));
      } else out(tls.map((t) => renderTimelineText(t, { color })).join('\n'));
      return 0;
    }
    const findings = result.findings;
    if (flags.output === 'json') out(formatJson(findings));
    else if (flags.output === 'sarif') out(formatSarif(findings));
    else out(formatText(findings, { color, workloads: result.subjects.length }));
    return atOrAbove(findings, flags.failOn).length > 0 ? 1 : 0;
  } catch (e) {
    if (e instanceof InputError || e instanceof SyntaxError) {
      process.stderr.write(`sidecar-render: ${e.message.split('\n')[0]}\n`);
      return 2;
    }
    throw e;
  }
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
