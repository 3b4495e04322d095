// The inputs every command and the library take, declared once. Each row of INPUT_OPTIONS is a flag of
// the command line and the library option of the same name in camelCase (`--injector-configmap` is
// `injectorConfigmap`), with what it takes and means; InjectorOptions is the same list as a type, and
// normalizeOptions checks a set of options and gives them one shape for the resolver (resolve.ts).
//
// The library's earlier names (`injectorConfigMap`, `valuesFiles`, `workloads`, a `chart` object, ...)
// and the golden matrix's keys are accepted too: LEGACY_NAMES maps each to its flag's name.
//
// Upstream: none (istioctl's, Helm's and the commands' input flags)

import type { ChartSource } from '../istio/fromchart.js';
import { ISTIO_VERSION_PATTERN, parseIstioVersion, type IstioVersion } from '../istio/version.js';
import { InputError } from '../yaml/load.js';
import { NATIVE_AUTO_FROM } from '../istio/releases.js';
import type { NativeSidecarsMode, RenderMode } from '../istio/inject.js';

/** A file given to an option: a path ('-' for stdin where workloads are read), or a name and its text. */
export type InputFile = string | { name: string; text: string };

/** The inputs of render, audit, golden and diff, as options: the command line's flags in camelCase. */
export interface InjectorOptions {
  /** `--injector-configmap FILE`: a file holding the istio-sidecar-injector ConfigMap (`kubectl get cm -o yaml`,
   *  a List, several documents, `helm template` output); its data.config and data.values. */
  injectorConfigmap?: InputFile;
  /** `--injectConfigFile FILE` (istioctl's): data.config alone; a file holding the ConfigMap is taken too. */
  injectConfigFile?: InputFile;
  /** `--template FILE`: a bare injection template instead of a ConfigMap. */
  template?: InputFile;
  /** `--chart CHART`: an istiod Helm chart (directory or .tgz), rendered as `helm template` does; its
   *  injector and mesh ConfigMaps are used. */
  chart?: string;
  /** `--chart-values FILE` (repeatable): the chart's `-f` values files. */
  chartValues?: string[];
  /** `--chart-set KEY=VALUE` (repeatable): the chart's `--set`. */
  chartSet?: string[];
  /** `--chart-set-string KEY=VALUE` (repeatable): the chart's `--set-string`. */
  chartSetString?: string[];
  /** `--values FILE`: injector values that replace the ConfigMap's data.values (values YAML or JSON, an
   *  IstioOperator, or a file holding the injector ConfigMap). */
  values?: InputFile;
  /** `--values-file FILE` (repeatable): values merged over the values in order, with Helm's rules. */
  valuesFile?: InputFile[];
  /** `--iop FILE` (repeatable): an IstioOperator; spec.values over the values, spec.meshConfig over the mesh
   *  config (with `chart`: mapped onto the chart's values, as istioctl does; one only). */
  iop?: InputFile[];
  /** `--set KEY=VALUE` (repeatable): Helm's `--set`, over the values, applied after the files. */
  set?: string[];
  /** `--set-string KEY=VALUE` (repeatable): Helm's `--set-string`, applied last. */
  setString?: string[];
  /** `--mesh FILE`: a file holding the `istio` ConfigMap, MeshConfig YAML, or an IstioOperator. */
  mesh?: InputFile;
  /** `--istio-version V`: the release whose template data is built (`1.24`, `master`); detected otherwise. */
  istioVersion?: string | IstioVersion;
  /** `--kube-version V`: the cluster's Kubernetes version (`1.33`). */
  kubeVersion?: string;
  /** `--native-sidecars [MODE]`: istiod's ENABLE_NATIVE_SIDECARS, `auto` (default), `true` or `false`. */
  nativeSidecars?: NativeSidecarsMode | boolean;
  /** `--revision REV`: the istiod revision (`.Revision`); picks the `-REV` ConfigMaps where a file holds several. */
  revision?: string;
  /** `--env KEY=VALUE` (repeatable): istiod's environment as the template's `env` reads it. */
  env?: Record<string, string> | string[];
  /** `-f PATH` (repeatable): workloads, a directory of .yaml/.yml/.json files, or '-' for stdin. ConfigMaps
   *  and IstioOperators among them apply as they would in the cluster, unless a flag names their kind. */
  filename?: InputFile | InputFile[];
  /** `-R`: read directories given with `filename` with their subdirectories. */
  recursive?: boolean;
  /** `--mode MODE`: whose injection, `webhook` (istiod's, the default) or `kube-inject` (istioctl's). */
  mode?: RenderMode;
}

export interface InputOption {
  /** The flag as the command line spells it, with its argument. */
  flag: string;
  /** The library option (and golden matrix key) of the same name. */
  key: keyof InjectorOptions;
  /** One line for --help. */
  help: string;
  /** What it takes: a file (a path, resolved against a golden matrix's folder), files (repeatable),
   *  text, texts (repeatable), a switch, or KEY=VALUE entries (repeatable; a mapping in a matrix). */
  value: 'file' | 'files' | 'string' | 'strings' | 'boolean' | 'map';
  /** The only values it takes. */
  choices?: readonly string[];
  /** A regular expression its value must match. */
  pattern?: string;
  /** Names the command line also takes (istioctl's): hidden from --help. */
  hiddenFlags?: string[];
  /** Which commands have it: every command that injects; those that read workloads; those that say whose injection. */
  group: 'injector' | 'workloads' | 'mode';
}

const KUBE_VERSION_PATTERN = '^v?\\d+\\.\\d+(\\.\\d+)?$';
const NATIVE_SIDECARS_MODES = ['auto', 'true', 'false'] as const;
const RENDER_MODE_NAMES = ['webhook', 'kube-inject'] as const;

export const INPUT_OPTIONS: readonly InputOption[] = [
  { flag: '--injector-configmap <file>', key: 'injectorConfigmap', value: 'file', group: 'injector', help: 'a file holding the istio-sidecar-injector ConfigMap (kubectl get cm -o yaml, a List, helm template output): its data.config and data.values' },
  { flag: '--injectConfigFile <file>', key: 'injectConfigFile', value: 'file', group: 'injector', help: "istioctl's: the ConfigMap's data.config alone (a file holding the ConfigMap is taken too)" },
  { flag: '--template <file>', key: 'template', value: 'file', group: 'injector', help: 'an injection template file (instead of a ConfigMap)' },
  { flag: '--chart <chart>', key: 'chart', value: 'file', group: 'injector', help: 'an istiod Helm chart (directory or .tgz): its rendered injector and mesh ConfigMaps are used' },
  { flag: '--chart-values <file>', key: 'chartValues', value: 'files', group: 'injector', help: 'values file for --chart, Helm -f style (repeatable)' },
  { flag: '--chart-set <key=value>', key: 'chartSet', value: 'strings', group: 'injector', help: 'set a value of --chart, Helm --set style (repeatable)' },
  { flag: '--chart-set-string <key=value>', key: 'chartSetString', value: 'strings', group: 'injector', help: 'set a value of --chart as a string (repeatable)' },
  { flag: '--values <file>', key: 'values', value: 'file', hiddenFlags: ['--valuesFile'], group: 'injector', help: "injector values that replace the ConfigMap's data.values (JSON, YAML, an IstioOperator, or a file holding the ConfigMap)" },
  { flag: '--values-file <file>', key: 'valuesFile', value: 'files', group: 'injector', help: "values merged over the injector values, Helm's rules (repeatable)" },
  { flag: '--iop <file>', key: 'iop', value: 'files', group: 'injector', help: 'an IstioOperator: spec.values merged over the values, spec.meshConfig over the mesh config (repeatable)' },
  { flag: '--set <key=value>', key: 'set', value: 'strings', group: 'injector', help: "override values, Helm's --set syntax (repeatable)" },
  { flag: '--set-string <key=value>', key: 'setString', value: 'strings', group: 'injector', help: 'override values with strings (repeatable)' },
  { flag: '--mesh <file>', key: 'mesh', value: 'file', hiddenFlags: ['--meshConfigFile'], group: 'injector', help: 'mesh config: a file holding the istio ConfigMap (data.mesh), MeshConfig YAML, or an IstioOperator' },
  { flag: '--istio-version <version>', key: 'istioVersion', value: 'string', pattern: ISTIO_VERSION_PATTERN, group: 'injector', help: 'the Istio release whose template data to build, e.g. 1.24 or master (default: detected from the templates)' },
  { flag: '--kube-version <version>', key: 'kubeVersion', value: 'string', pattern: KUBE_VERSION_PATTERN, group: 'injector', help: "the cluster's Kubernetes version, e.g. 1.33" },
  { flag: '--native-sidecars [mode]', key: 'nativeSidecars', value: 'string', choices: NATIVE_SIDECARS_MODES, group: 'injector', help: `istiod's ENABLE_NATIVE_SIDECARS: true (also the flag alone), false, or auto (on for Istio ${NATIVE_AUTO_FROM}+ on Kubernetes 1.33+)` },
  { flag: '--revision <rev>', key: 'revision', value: 'string', group: 'injector', help: 'the istiod revision (.Revision); picks the -REV ConfigMaps where a file holds several' },
  { flag: '--env <KEY=VALUE>', key: 'env', value: 'map', group: 'injector', help: "istiod's environment as the template's env function sees it (repeatable)" },
  { flag: '--mode <mode>', key: 'mode', value: 'string', choices: RENDER_MODE_NAMES, group: 'mode', help: "webhook: what istiod's admission webhook injects into the pod the API server defaulted; kube-inject: what istioctl kube-inject does to the pod as written (with --merged, its output byte for byte)" },
  { flag: '-f, --filename <path>', key: 'filename', value: 'files', hiddenFlags: ['--file'], group: 'workloads', help: 'workloads: a file, a directory of .yaml/.yml/.json files, or - for stdin (repeatable)' },
  { flag: '-R, --recursive', key: 'recursive', value: 'boolean', group: 'workloads', help: 'read directories given with -f with their subdirectories' },
];

// The table and the type name the same options: this fails to compile when one has an option the other lacks.
type TableKeys = (typeof INPUT_OPTIONS)[number]['key'];
type Missing = Exclude<keyof InjectorOptions, TableKeys>;
const sameOptions: [Missing] extends [never] ? true : never = true;
void sameOptions;

/**
 * Earlier names of options, still taken by the library and in golden matrices: each maps to its
 * flag's name. `chart` given as an object ({chart, values, set, setString, iop, kubeVersion}) is taken
 * too, as are `meshInput` ({name, text}) and a boolean `nativeSidecars`.
 */
export const LEGACY_NAMES: Readonly<Record<string, keyof InjectorOptions>> = {
  injectorConfigMap: 'injectorConfigmap',
  injectConfig: 'injectConfigFile',
  valuesFiles: 'valuesFile',
  workloads: 'filename',
  meshInput: 'mesh',
};

/** The options one shape: lists as lists, versions parsed, the chart as the renderer takes it. */
export interface NormalizedOptions {
  injectorConfigmap?: InputFile;
  injectConfigFile?: InputFile;
  template?: InputFile;
  chart?: ChartSource;
  values?: InputFile;
  valuesFile: InputFile[];
  iop: InputFile[];
  set: string[];
  setString: string[];
  mesh?: InputFile;
  istioVersion?: IstioVersion;
  kubeVersion?: string;
  nativeSidecars: NativeSidecarsMode;
  /** Whether nativeSidecars was given (not the default `auto`). */
  nativeSidecarsGiven: boolean;
  revision?: string;
  env: Record<string, string>;
  filename: InputFile[];
  recursive: boolean;
  mode: RenderMode;
}

/** Whether an option may be given more than once. */
export function repeatable(o: InputOption): boolean {
  return o.value === 'files' || o.value === 'strings' || o.value === 'map';
}

/** Whether an option names files (resolved against a golden matrix's folder). */
export function namesFiles(o: InputOption): boolean {
  return o.value === 'file' || o.value === 'files';
}

/** The flag of an option, for messages. */
export function flagOf(key: keyof InjectorOptions): string {
  return INPUT_OPTIONS.find((o) => o.key === key)!.flag.replace(/^-\w, /, '').split(' ')[0]!;
}

/** `KEY=VALUE` entries as a map; a one-line error for an entry without `=`. */
export function parseEnv(list: readonly string[]): Record<string, string> {
  const env: Record<string, string> = Object.create(null);
  for (const kv of list) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new InputError(`--env wants KEY=VALUE, not "${kv}"`);
    env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return env;
}


function list<T>(v: T | readonly T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? [...(v as readonly T[])] : [v as T];
}

/**
 * Check a set of options (the flags' or a library caller's, earlier names included) and give them one
 * shape. Throws a one-line InputError naming the flag for what no command would take.
 */
export function normalizeOptions(given: InjectorOptions | Record<string, unknown>): NormalizedOptions {
  const o: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(given)) {
    if (v === undefined) continue;
    const key = LEGACY_NAMES[k] ?? k;
    if (o[key] !== undefined && JSON.stringify(o[key]) !== JSON.stringify(v)) throw new InputError(`give ${k} or ${key}, not both`);
    o[key] = v;
  }
  const sources = (['injectorConfigmap', 'injectConfigFile', 'template', 'chart'] as const).filter((k) => o[k] !== undefined && o[k] !== '');
  if (sources.length > 1) throw new InputError(`give only one of ${sources.map(flagOf).join(', ')}`);
  const out: NormalizedOptions = {
    valuesFile: list(o.valuesFile as InputFile | InputFile[] | undefined),
    iop: list(o.iop as InputFile | InputFile[] | undefined),
    set: list(o.set as string | string[] | undefined),
    setString: list(o.setString as string | string[] | undefined),
    nativeSidecars: 'auto',
    nativeSidecarsGiven: false,
    env: Object.create(null) as Record<string, string>,
    filename: list(o.filename as InputFile | InputFile[] | undefined),
    recursive: o.recursive === true,
    mode: 'webhook',
  };
  for (const k of ['injectorConfigmap', 'injectConfigFile', 'template', 'values', 'mesh'] as const) {
    const v = o[k] as InputFile | undefined;
    if (v !== undefined && v !== '') out[k] = v;
  }
  const native = o.nativeSidecars;
  if (native !== undefined) {
    if (native === true || native === 'true') out.nativeSidecars = 'true';
    else if (native === false || native === 'false') out.nativeSidecars = 'false';
    else if (native !== 'auto') throw new InputError(`--native-sidecars must be one of auto, true, false, not "${String(native)}"`);
    out.nativeSidecarsGiven = native !== 'auto';
  }
  const mode = o.mode;
  if (mode !== undefined) {
    if (mode !== 'webhook' && mode !== 'kube-inject') throw new InputError(`--mode must be one of webhook, kube-inject, not "${String(mode)}"`);
    out.mode = mode;
  }
  const version = o.istioVersion;
  if (typeof version === 'string') {
    try {
      out.istioVersion = parseIstioVersion(version);
    } catch (e) {
      throw new InputError(`--istio-version: ${(e as Error).message}`);
    }
  } else if (version !== undefined) out.istioVersion = version as IstioVersion;
  const kube = o.kubeVersion;
  if (kube !== undefined) {
    if (typeof kube !== 'string' || !new RegExp(KUBE_VERSION_PATTERN).test(kube)) throw new InputError(`--kube-version wants MAJOR.MINOR (e.g. 1.33), not "${String(kube)}"`);
    out.kubeVersion = kube;
  }
  if (o.revision !== undefined) out.revision = String(o.revision);
  const env = o.env;
  if (Array.isArray(env)) out.env = parseEnv(env as string[]);
  else if (env && typeof env === 'object') out.env = Object.assign(Object.create(null) as Record<string, string>, env);
  const chart = o.chart;
  const chartParts = { values: list(o.chartValues as string | string[] | undefined), set: list(o.chartSet as string | string[] | undefined), setString: list(o.chartSetString as string | string[] | undefined) };
  if (typeof chart === 'string' && chart !== '') {
    // istioctl maps one IstioOperator onto the chart's values (spec.values, spec.meshConfig, spec.profile)
    if (out.iop.length > 1) throw new InputError('--chart takes one --iop');
    const iop = out.iop[0];
    if (iop !== undefined && typeof iop !== 'string') throw new InputError('--chart takes its --iop as a file path');
    out.chart = { chart, ...chartParts, ...(iop !== undefined ? { iop } : {}), ...(out.kubeVersion ? { kubeVersion: out.kubeVersion } : {}) };
    out.iop = [];
  } else if (chart && typeof chart === 'object') {
    out.chart = chart as ChartSource;
  } else if (chartParts.values.length || chartParts.set.length || chartParts.setString.length) {
    throw new InputError('--chart-values, --chart-set and --chart-set-string need --chart CHART');
  }
  if (out.filename.filter((w) => w === '-').length > 1) throw new InputError('stdin (-) can be read only once');
  return out;
}
