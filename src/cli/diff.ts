// `sidecar-render diff --from A --to B -f workloads...`: what an upgrade or a values change does to each
// workload's pod, its start-up and shutdown, and the audit findings. A and B are each an exported
// injector ConfigMap or a chart (a directory or .tgz), with their own values, sets, mesh and IOP.

import * as fs from 'node:fs';
import { Option, type Command } from 'commander';
import { diffInjection, failures, FAIL_ON, formatDiffText, type DiffSide, type FailOn } from '../diff/diff.js';
import { RENDER_MODES, type NativeSidecarsMode, type RenderMode } from '../istio/inject.js';
import { workloadFiles } from '../inputs/files.js';
import { collect, oneOf } from './options.js';
import { readTextLimited } from '../guard/fs.js';

interface DiffFlags {
  from: string;
  to: string;
  filename: string[];
  fromValues: string[];
  toValues: string[];
  fromSet: string[];
  toSet: string[];
  fromIop?: string;
  toIop?: string;
  fromMesh?: string;
  toMesh?: string;
  kubeVersion?: string;
  nativeSidecars: NativeSidecarsMode;
  istioVersion?: string;
  revision?: string;
  env: string[];
  mode: RenderMode;
  recursive?: boolean;
  quiet?: boolean;
  output: 'text' | 'json';
  failOn: FailOn;
}

function isChart(p: string): boolean {
  if (p.endsWith('.tgz')) return true;
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** An IstioOperator file (read no further than the input limit: past it, the side is read as a
 *  ConfigMap file, whose reading then says what went wrong). */
function isOperator(file: string): boolean {
  try {
    return /^kind:\s*IstioOperator\s*$/m.test(readTextLimited(file));
  } catch {
    return false;
  }
}

/** One side: a chart takes the values, sets and IOP as chart values; a ConfigMap takes them as injector overrides. */
function side(where: string, values: string[], set: string[], iop: string | undefined, mesh: string | undefined, flag: string): DiffSide {
  const s: DiffSide = {};
  if (isChart(where)) {
    s.chart = where;
    s.chartValues = values;
    s.chartSet = set;
    if (iop) s.iop = [iop];
  } else {
    if (iop) throw new Error(`${flag}-iop maps an IstioOperator onto a chart: ${flag} must name a chart`);
    if (isOperator(where)) throw new Error(`${where} is an IstioOperator, which needs a chart to render: give ${flag} CHART ${flag}-iop ${where}`);
    s.injectorConfigmap = where;
    s.valuesFile = values;
    s.set = set;
  }
  if (mesh) s.mesh = mesh;
  return s;
}

export function diffCommand(program: Command): void {
  program
    .command('diff')
    .description('compare the injected pods of two injector setups (ConfigMap exports or charts): per workload, the changes, a lifecycle summary and the audit findings that appear or go')
    .argument('[files...]', 'more workload files, as with -f')
    .requiredOption('--from <source>', 'before: the injector ConfigMap export, or a chart directory or .tgz')
    .requiredOption('--to <source>', 'after: the injector ConfigMap export, or a chart directory or .tgz')
    .option('-f, --filename <path>', 'workloads: a file or a directory of .yaml/.yml/.json files (repeatable)', collect, [] as string[])
    .option('-R, --recursive', 'read directories given with -f with their subdirectories')
    .option('--from-values <file>', 'values for --from (chart values, or injector values over the ConfigMap) (repeatable)', collect, [] as string[])
    .option('--to-values <file>', 'values for --to (repeatable)', collect, [] as string[])
    .option('--from-set <key=value>', 'set a value for --from (repeatable)', collect, [] as string[])
    .option('--to-set <key=value>', 'set a value for --to (repeatable)', collect, [] as string[])
    .option('--from-iop <file>', 'an IstioOperator for the --from chart')
    .option('--to-iop <file>', 'an IstioOperator for the --to chart')
    .option('--from-mesh <file>', 'mesh config for --from (default: the chart\'s, or the istio ConfigMap in the --from file)')
    .option('--to-mesh <file>', 'mesh config for --to')
    .option('--kube-version <version>', 'the Kubernetes version of the cluster (e.g. 1.33)')
    .addOption(new Option('--native-sidecars <mode>', "istiod's ENABLE_NATIVE_SIDECARS").argParser(oneOf('--native-sidecars', ['auto', 'true', 'false'] as const)).default('auto'))
    .option('--istio-version <version>', 'the Istio release whose template data to build on both sides (default: detected from each side\'s templates)')
    .option('--revision <rev>', 'the istiod revision (.Revision) on both sides')
    .option('--env <KEY=VALUE>', "istiod's environment as the template's env function sees it (repeatable)", collect, [] as string[])
    .addOption(new Option('--mode <mode>', 'webhook (the pod as the API server defaulted it) or kube-inject (the pod as written)').argParser(oneOf('--mode', RENDER_MODES)).default('webhook'))
    .option('-q, --quiet', 'no assumptions lines on stderr')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(
      new Option('--fail-on <what>', 'exit 1 on: changes (any field), lifecycle (start/stop order, hold, postStart, preStop, drain, grace, native sidecar, probes; a side that fails to render), findings (a new finding at or above error; findings:warning, findings:info)')
        .argParser(oneOf('--fail-on', FAIL_ON))
        .default('changes'),
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 nothing fails --fail-on; 1 some workload does (default changes: any difference); 2 bad input or usage.\n' +
        'For upgrade previews in CI, --fail-on lifecycle passes an upgrade that only changes labels, env values or images,\n' +
        'and fails one that moves the proxy or changes how the pod starts or stops; --fail-on findings fails on new hazards.\n',
    )
    .action((files: string[], flags: DiffFlags) => {
      const from = side(flags.from, flags.fromValues, flags.fromSet, flags.fromIop, flags.fromMesh, '--from');
      const to = side(flags.to, flags.toValues, flags.toSet, flags.toIop, flags.toMesh, '--to');
      const given = [...flags.filename, ...files];
      const report = diffInjection(from, to, given.length ? workloadFiles(given, flags.recursive === true) : [], {
        nativeSidecars: flags.nativeSidecars,
        env: flags.env,
        mode: flags.mode,
        ...(flags.kubeVersion !== undefined ? { kubeVersion: flags.kubeVersion } : {}),
        ...(flags.istioVersion !== undefined ? { istioVersion: flags.istioVersion } : {}),
        ...(flags.revision !== undefined ? { revision: flags.revision } : {}),
      });
      if (!flags.quiet) {
        // one line per side: what it assumed, and where its injector config, values and mesh came from
        if (report.assumptions.from) process.stderr.write(`sidecar-render: --from: ${report.assumptions.from}\n`);
        if (report.assumptions.to) process.stderr.write(`sidecar-render: --to: ${report.assumptions.to}\n`);
      }
      for (const w of report.warnings) process.stderr.write(`sidecar-render: warning: ${w}\n`);
      process.stdout.write(flags.output === 'json' ? JSON.stringify(report, null, 2) + '\n' : formatDiffText(report));
      process.exitCode = failures(report, flags.failOn).length > 0 ? 1 : 0;
    });
}
