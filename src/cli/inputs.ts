// The injector inputs every command takes, with one meaning everywhere (render, audit, golden):
//
//   --injector-configmap FILE   the istio-sidecar-injector ConfigMap (data.config and data.values)
//   --injectConfigFile FILE     istioctl's: data.config alone (`kubectl get cm ... -o jsonpath='{.data.config}'`)
//   --template FILE             a bare injection template
//   --chart CHART               an istiod Helm chart (directory or .tgz), rendered as helm template does;
//                               --chart-values, --chart-set, --chart-set-string are its -f/--set/--set-string,
//                               and --iop is mapped onto the chart's values as istioctl does
//   --values FILE               values that REPLACE data.values (istioctl's --valuesFile is the same);
//                               a warning names what the templates read that is then missing
//   --values-file FILE, --set, --set-string   merged over the values, Helm's rules, in that order
//   --iop FILE                  IstioOperator: spec.values merged over the values, spec.meshConfig over the mesh
//   --mesh FILE                 the istio ConfigMap, MeshConfig YAML, or an IstioOperator's meshConfig
//   --istio-version, --kube-version, --native-sidecars, --revision, --env
//   -f FILE|DIR|- (repeatable), -R                 workloads, as kubectl reads them
//   --quiet                     no assumptions line and no progress on stderr
//
// A command adds them with addInputOptions and reads them back with inputsFromFlags; toRenderRequest
// makes the library's request of them (givenInputs only what was given, to lay over a golden case).
// What a command does with them (render, judge, compare) is its own.

import { Option, type Command } from 'commander';
import type { NativeSidecarsMode } from '../istio/inject.js';
import type { RenderRequest } from '../inputs/resolve.js';
import type { ChartSource } from '../istio/fromchart.js';
import { parseIstioVersion, type IstioVersion } from '../istio/version.js';
import { collect, oneOf } from './options.js';
import { InputTooLarge } from '../guard/fs.js';
import { stdinText } from './stdin.js';
import { InputError } from '../yaml/load.js';

/** The flags as commander leaves them. */
export interface InputFlags {
  injectorConfigmap?: string;
  injectConfigFile?: string;
  template?: string;
  chart?: string;
  chartValues?: string[];
  chartSet?: string[];
  chartSetString?: string[];
  values?: string;
  valuesFileIstioctl?: string;
  valuesFile?: string[];
  iop?: string[];
  set?: string[];
  setString?: string[];
  mesh?: string;
  meshConfigFile?: string;
  istioVersion?: string;
  kubeVersion?: string;
  nativeSidecars?: NativeSidecarsMode | true;
  revision?: string;
  env?: string[];
  filename?: string[];
  file?: string[];
  recursive?: boolean;
  quiet?: boolean;
}

/** The inputs, checked and named as the library takes them (RenderRequest, AuditOptions). */
export interface InjectorInputs {
  injectorConfigMap?: string;
  injectConfig?: string;
  template?: string;
  /** An istiod chart with its own values; an --iop is then mapped onto the chart's values. */
  chart?: ChartSource;
  values?: string;
  valuesFiles: string[];
  iop: string[];
  set: string[];
  setString: string[];
  mesh?: string;
  istioVersion?: IstioVersion;
  /** As given, for messages and the audit. */
  istioVersionText?: string;
  kubeVersion?: string;
  nativeSidecars: NativeSidecarsMode;
  revision?: string;
  env: Record<string, string>;
  /** Files, directories and '-' in the order given. */
  workloads: string[];
  recursive: boolean;
  quiet: boolean;
}

/** istioctl's --valuesFile and Helm-style --values-file would share commander's attribute name. */
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

export interface InputOptionSet {
  /** Workloads with -f (repeatable), directories and -R. */
  workloads?: boolean;
}

/** Add the shared input options to a command. */
export function addInputOptions(cmd: Command, set: InputOptionSet = { workloads: true }): Command {
  cmd
    .option('--injector-configmap <file>', 'the istio-sidecar-injector ConfigMap (kubectl get cm -o yaml): its data.config and data.values')
    .addOption(new Option('--injectConfigFile <file>', "istioctl's: the ConfigMap's data.config alone (a whole ConfigMap is taken too)").hideHelp())
    .option('--template <file>', 'an injection template file (instead of a ConfigMap)')
    .option('--chart <chart>', 'an istiod Helm chart (directory or .tgz): its rendered injector and mesh ConfigMaps are used')
    .option('--chart-values <file>', 'values file for --chart, Helm -f style (repeatable)', collect, [] as string[])
    .option('--chart-set <key=value>', 'set a value of --chart, Helm --set style (repeatable)', collect, [] as string[])
    .option('--chart-set-string <key=value>', 'set a value of --chart as a string (repeatable)', collect, [] as string[])
    .option('--values <file>', "injector values that replace the ConfigMap's data.values (JSON, YAML, or an IstioOperator)")
    .addOption(new RenamedOption('--valuesFile <file>', "istioctl's name of --values (the ConfigMap's data.values JSON)", 'valuesFileIstioctl').hideHelp())
    .option('--values-file <file>', "values merged over the injector values, Helm's rules (repeatable)", collect, [] as string[])
    .option('--iop <file>', 'an IstioOperator: spec.values merged over the values, spec.meshConfig over the mesh config (repeatable)', collect, [] as string[])
    .option('--set <key=value>', "override values, Helm's --set syntax (repeatable)", collect, [] as string[])
    .option('--set-string <key=value>', 'override values with strings (repeatable)', collect, [] as string[])
    .option('--mesh <file>', 'mesh config: the istio ConfigMap (data.mesh), MeshConfig YAML, or an IstioOperator')
    .addOption(new Option('--meshConfigFile <file>', "istioctl's name of --mesh").hideHelp())
    .option('--istio-version <version>', 'the Istio release whose template data to build, e.g. 1.24 or master (default: detected from the templates)')
    .option('--kube-version <version>', "the cluster's Kubernetes version, e.g. 1.33")
    .addOption(
      new Option('--native-sidecars [mode]', "istiod's ENABLE_NATIVE_SIDECARS: true (also the flag alone), false, or auto (on for Istio 1.28+ on Kubernetes 1.33+)")
        .argParser(oneOf('--native-sidecars', ['auto', 'true', 'false'] as const))
        .default('auto'),
    )
    .option('--revision <rev>', 'the istiod revision (.Revision)')
    .option('--env <KEY=VALUE>', "istiod's environment as the template's env function sees it (repeatable)", collect, [] as string[])
    .option('-q, --quiet', 'do not print the assumptions line or progress on stderr');
  if (set.workloads) {
    cmd
      .option('-f, --filename <path>', 'workloads: a file, a directory of .yaml/.yml/.json files, or - for stdin (repeatable)', collect, [] as string[])
      .addOption(new Option('--file <path>', 'the same as -f').argParser(collect).default([] as string[]).hideHelp())
      .option('-R, --recursive', 'read directories given with -f with their subdirectories');
  }
  return cmd;
}

export function parseEnv(list: string[]): Record<string, string> {
  const env: Record<string, string> = Object.create(null);
  for (const kv of list) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new Error(`--env wants KEY=VALUE, not "${kv}"`);
    env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return env;
}

function pick(a: string | undefined, b: string | undefined, names: string): string | undefined {
  if (a !== undefined && b !== undefined && a !== b) throw new Error(`give only one of ${names}`);
  return a ?? b;
}

/** Check the flags and name them as the library does. Throws a one-line usage error. */
export function inputsFromFlags(flags: InputFlags, extraWorkloads: string[] = []): InjectorInputs {
  const sources = [
    ['--injector-configmap', flags.injectorConfigmap],
    ['--injectConfigFile', flags.injectConfigFile],
    ['--template', flags.template],
    ['--chart', flags.chart],
  ].filter(([, v]) => v !== undefined);
  if (sources.length > 1) throw new Error(`give only one of ${sources.map(([f]) => f).join(', ')}`);
  const native = flags.nativeSidecars === true ? 'true' : (flags.nativeSidecars ?? 'auto');
  const out: InjectorInputs = {
    valuesFiles: flags.valuesFile ?? [],
    iop: flags.iop ?? [],
    set: flags.set ?? [],
    setString: flags.setString ?? [],
    nativeSidecars: native,
    env: parseEnv(flags.env ?? []),
    workloads: [...(flags.filename ?? []), ...(flags.file ?? []), ...extraWorkloads],
    recursive: flags.recursive === true,
    quiet: flags.quiet === true,
  };
  if (flags.injectorConfigmap) out.injectorConfigMap = flags.injectorConfigmap;
  if (flags.injectConfigFile) out.injectConfig = flags.injectConfigFile;
  if (flags.template) out.template = flags.template;
  const values = pick(flags.values, flags.valuesFileIstioctl, '--values and --valuesFile');
  if (values) out.values = values;
  const mesh = pick(flags.mesh, flags.meshConfigFile, '--mesh and --meshConfigFile');
  if (mesh) out.mesh = mesh;
  if (flags.istioVersion) {
    out.istioVersion = parseIstioVersion(flags.istioVersion);
    out.istioVersionText = flags.istioVersion;
  }
  if (flags.kubeVersion) {
    if (!/^v?\d+\.\d+(\.\d+)?$/.test(flags.kubeVersion)) throw new Error(`--kube-version wants MAJOR.MINOR (e.g. 1.33), not "${flags.kubeVersion}"`);
    out.kubeVersion = flags.kubeVersion;
  }
  if (flags.revision !== undefined) out.revision = flags.revision;
  if (flags.chart) {
    // istioctl maps one IstioOperator onto the chart's values (spec.values, spec.meshConfig, spec.profile)
    if (out.iop.length > 1) throw new Error('--chart takes one --iop');
    out.chart = { chart: flags.chart, values: flags.chartValues ?? [], set: flags.chartSet ?? [], setString: flags.chartSetString ?? [] };
    if (out.iop.length === 1) out.chart.iop = out.iop[0]!;
    if (out.kubeVersion) out.chart.kubeVersion = out.kubeVersion;
    out.iop = [];
  } else if ((flags.chartValues ?? []).length || (flags.chartSet ?? []).length || (flags.chartSetString ?? []).length) {
    throw new Error('--chart-values, --chart-set and --chart-set-string need --chart CHART');
  }
  if (out.workloads.filter((w) => w === '-').length > 1) throw new Error('stdin (-) can be read only once');
  return out;
}

/** The inputs as the library's RenderRequest (render, and any command that renders: golden, diff). */
export function toRenderRequest(inputs: InjectorInputs): RenderRequest {
  const { istioVersionText: _text, quiet: _quiet, ...req } = inputs;
  return req;
}

/**
 * Only the inputs given on the command line, as a RenderRequest fragment to lay over another request
 * (a golden case's): no workloads, no empty lists, no default native-sidecar mode.
 */
export function givenInputs(inputs: InjectorInputs): Partial<RenderRequest> {
  const { workloads: _w, recursive: _r, ...req } = toRenderRequest(inputs);
  const out: Partial<RenderRequest> = {};
  for (const [k, v] of Object.entries(req) as [keyof RenderRequest, unknown][]) {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    if (k === 'nativeSidecars' && v === 'auto') continue;
    if (k === 'env' && Object.keys(v as object).length === 0) continue;
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** Stdin's whole text. */
export async function readStdin(): Promise<string> {
  try {
    // through process.stdin, not fd 0: a pipe, a file, a terminal and an in-process stream alike
    return await stdinText();
  } catch (e) {
    if (e instanceof InputTooLarge) throw new InputError(e.message, '<stdin>');
    throw new InputError(`cannot read stdin: ${(e as Error).message}`);
  }
}
