// `sidecar-render render`: the sidecar istiod would inject into each workload — the template stage
// output (byte for byte, for one workload without -o), or with --merged the workload after the output
// is merged into its pod. Flags follow istioctl kube-inject (aliases) and Helm (--set, values files).
// Each workload that fails is reported on stderr by name and the rest still render; the exit code is
// then 1. Bad inputs (unreadable files, invalid YAML, templates that do not parse, pods Kubernetes would
// refuse) stop the run with one line and exit code 2. Output is written as each workload is rendered;
// --output-file goes to a temporary sibling renamed over the file only when the run completes.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Option, type Command } from 'commander';
import { renderStream, type NativeSidecarsMode, type RenderRequest } from '../istio/render.js';
import { parseIstioVersion } from '../istio/version.js';
import type { ChartSource } from '../istio/fromchart.js';
import { addLimitOptions, limitsFromFlags, type LimitFlags } from './limits.js';
import { collect, oneOf } from './options.js';

interface RenderFlags extends LimitFlags {
  injectorConfigmap?: string;
  chart?: string;
  chartValues?: string[];
  chartSet?: string[];
  chartSetString?: string[];
  iop?: string;
  injectConfigFile?: string;
  template?: string;
  values?: string;
  valuesFile: string[];
  valuesFileIstioctl?: string;
  mesh?: string;
  meshConfigFile?: string;
  filename?: string;
  merged?: boolean;
  output?: 'yaml' | 'json';
  outputFile?: string;
  set: string[];
  setString: string[];
  revision?: string;
  istioVersion?: string;
  nativeSidecars: NativeSidecarsMode;
  kubeVersion?: string;
  env: string[];
}

function parseEnv(list: string[]): Record<string, string> {
  const env: Record<string, string> = Object.create(null);
  for (const kv of list) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new Error(`--env wants KEY=VALUE, not "${kv}"`);
    env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return env;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The request the flags describe (exported for tests and the golden command). */
export function requestFromFlags(flags: RenderFlags): RenderRequest {
  const pick = (a: string | undefined, b: string | undefined, names: string) => {
    if (a !== undefined && b !== undefined && a !== b) throw new Error(`give only one of ${names}`);
    return a ?? b;
  };
  const injectorConfigMap = pick(flags.injectorConfigmap, flags.injectConfigFile, '--injector-configmap and --injectConfigFile');
  const values = pick(flags.values, flags.valuesFileIstioctl, '--values and --valuesFile');
  const mesh = pick(flags.mesh, flags.meshConfigFile, '--mesh and --meshConfigFile');
  if (!flags.filename) throw new Error('render: give the workloads with -f FILE (or -f - for stdin)');
  if (!injectorConfigMap && !flags.template && !flags.chart) throw new Error('render: give --injector-configmap FILE, --chart CHART, or --template FILE --values FILE');
  if (flags.iop && !flags.chart) throw new Error('render: --iop maps an IstioOperator onto a chart: give --chart CHART too');
  const req: RenderRequest = {
    workloads: flags.filename,
    valuesFiles: flags.valuesFile,
    set: flags.set,
    setString: flags.setString,
    nativeSidecars: flags.nativeSidecars,
    env: parseEnv(flags.env),
  };
  if (injectorConfigMap) req.injectorConfigMap = injectorConfigMap;
  const chart = chartSourceFromFlags(flags);
  if (chart) req.chart = chart;
  if (flags.template) req.template = flags.template;
  if (values) req.values = values;
  if (mesh) req.mesh = mesh;
  if (flags.merged) req.merged = true;
  if (flags.output) req.output = flags.output;
  if (flags.revision !== undefined) req.revision = flags.revision;
  if (flags.istioVersion) req.istioVersion = parseIstioVersion(flags.istioVersion);
  req.limits = limitsFromFlags(flags);
  if (flags.kubeVersion) {
    if (!/^v?\d+\.\d+(\.\d+)?$/.test(flags.kubeVersion)) throw new Error(`--kube-version wants MAJOR.MINOR (e.g. 1.33), not "${flags.kubeVersion}"`);
    req.kubeVersion = flags.kubeVersion;
  }
  return req;
}

/** --chart with its values flags, shared by render, audit and golden's command line. */
export function chartSourceFromFlags(flags: { chart?: string; chartValues?: string[]; chartSet?: string[]; chartSetString?: string[]; iop?: string; kubeVersion?: string }): ChartSource | undefined {
  if (!flags.chart) return undefined;
  return {
    chart: flags.chart,
    values: flags.chartValues ?? [],
    set: flags.chartSet ?? [],
    setString: flags.chartSetString ?? [],
    ...(flags.iop ? { iop: flags.iop } : {}),
    ...(flags.kubeVersion ? { kubeVersion: flags.kubeVersion } : {}),
  };
}

/** The --chart flags, for any command that takes an injector ConfigMap. */
export function addChartOptions(cmd: Command): Command {
  return cmd
    .option('--chart <chart>', 'an istiod Helm chart (directory or .tgz): its rendered injector and mesh ConfigMaps are used')
    .option('--chart-values <file>', 'values file for --chart, Helm -f style (repeatable)', collect, [] as string[])
    .option('--chart-set <key=value>', 'set a value of --chart, Helm --set style (repeatable)', collect, [] as string[])
    .option('--chart-set-string <key=value>', 'set a value of --chart as a string (repeatable)', collect, [] as string[])
    .option('--iop <file>', 'an IstioOperator file for --chart: spec.values, spec.meshConfig, spec.profile as istioctl maps them');
}

export function renderCommand(program: Command): void {
  // istioctl's --valuesFile and Helm-style --values-file share commander's attribute name: the former
  // is kept aside here and leaves the latter's list alone.
  let istioctlValues: string | undefined;
  const cmd = program
    .command('render')
    .description('render the sidecar istiod would inject into each workload (the template output, or the merged pod with --merged)')
    .option('--injector-configmap <file>', 'the istio-sidecar-injector ConfigMap (kubectl get cm -o yaml)')
    .addOption(new Option('--injectConfigFile <file>', 'istioctl kube-inject name of --injector-configmap').hideHelp())
    .option('--template <file>', 'an injection template file (instead of a ConfigMap)')
    .option('--values <file>', 'the injector values (JSON or YAML), instead of the ConfigMap\'s data.values')
    .addOption(
      new Option('--valuesFile <file>', 'istioctl kube-inject name of --values').hideHelp().argParser((v: string, prev: unknown) => {
        istioctlValues = v;
        return prev;
      }),
    )
    .option('--mesh <file>', 'mesh config: the istio ConfigMap (data.mesh) or MeshConfig YAML')
    .addOption(new Option('--meshConfigFile <file>', 'istioctl kube-inject name of --mesh').hideHelp())
    .option('-f, --filename <file>', 'workloads: Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, List; - for stdin')
    .option('--merged', 'print each workload with the sidecar merged into its pod, as istiod admits it')
    .addOption(new Option('-o, --output <format>', 'print parsed YAML or JSON instead of the raw template output').choices(['yaml', 'json']))
    .option('--output-file <file>', 'write the result to a file (atomically) instead of stdout')
    .option('--set <key=value>', "override values, Helm's --set syntax (repeatable)", collect, [] as string[])
    .option('--set-string <key=value>', 'override values with strings (repeatable)', collect, [] as string[])
    .option('--values-file <file>', 'values merged over the injector values, Helm -f style (repeatable)', collect, [] as string[])
    .option('--revision <rev>', 'the istiod revision (.Revision)')
    .option('--istio-version <version>', 'the Istio release whose template data to build, e.g. 1.20 or master (default: detected from what the templates use; see the README)')
    .addOption(
      new Option('--native-sidecars <mode>', "istiod's ENABLE_NATIVE_SIDECARS: auto means on from --kube-version 1.33 (Istio 1.28+ templates)")
        .argParser(oneOf('--native-sidecars', ['auto', 'true', 'false'] as const))
        .default('auto'),
    )
    .option('--kube-version <version>', 'the Kubernetes version of the cluster (e.g. 1.33)')
    .option('--env <KEY=VALUE>', "istiod's environment as the template's env function sees it (repeatable)", collect, [] as string[]);
  addChartOptions(cmd);
  addLimitOptions(cmd).addHelpText(
    'after',
    `
Exit codes: 0 every workload rendered (or was skipped by the injection policy); 1 some workloads failed
(each named on stderr, the others still printed) - a template execution error, a missing template, a
bad proxy.istio.io/config annotation, or a limit (the message names the limit and the flag raising it);
2 bad input, one line naming FILE:LINE:COL: unreadable or invalid files, a template that does not parse,
a pod without containers, a file without workloads.
`,
  );
  cmd.action(async (flags: RenderFlags) => {
    const req = requestFromFlags({ ...flags, valuesFile: Array.isArray(flags.valuesFile) ? flags.valuesFile : [], ...(istioctlValues !== undefined ? { valuesFileIstioctl: istioctlValues } : {}) });
    if (req.workloads === '-') req.stdin = await readStdin();
    const out = flags.outputFile ? new AtomicFile(flags.outputFile) : new Stdout();
    let summary: { failed: number; total: number };
    try {
      const events = renderStream(req);
      for (;;) {
        const ev = events.next();
        if (ev.done) {
          summary = ev.value;
          break;
        }
        const e = ev.value;
        if (e.type === 'text') out.write(e.text);
        else if (e.type === 'message') process.stderr.write(e.text + '\n');
      }
      out.close();
    } catch (e) {
      out.abort();
      throw e;
    }
    if (summary.failed > 0) {
      process.stderr.write(`${summary.failed} of ${summary.total} workloads failed\n`);
      process.exitCode = 1;
    }
  });
}

/** Output in chunks of about 64 KiB, so 10,000 workloads are not 10,000 writes. */
class Stdout {
  protected buf = '';
  write(text: string): void {
    this.buf += text;
    if (this.buf.length >= 65536) this.flush();
  }
  protected flush(): void {
    if (this.buf) process.stdout.write(this.buf);
    this.buf = '';
  }
  close(): void {
    this.flush();
  }
  abort(): void {
    // what was rendered before the error stays printed, as a stream
    this.flush();
  }
}

/** --output-file: written as it goes to a temporary sibling, renamed over the file at the end. */
class AtomicFile extends Stdout {
  private fd: number | undefined;
  private readonly tmp: string;
  constructor(private readonly file: string) {
    super();
    this.tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  }
  protected override flush(): void {
    if (this.fd === undefined) {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      this.fd = fs.openSync(this.tmp, 'w');
    }
    if (this.buf) fs.writeSync(this.fd, this.buf);
    this.buf = '';
  }
  override close(): void {
    try {
      this.flush();
      fs.closeSync(this.fd!);
      this.fd = undefined;
      fs.renameSync(this.tmp, this.file);
    } catch (e) {
      this.abort();
      throw e;
    }
  }
  override abort(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    fs.rmSync(this.tmp, { force: true });
  }
}
