// `sidecar-render chart CHART`: what `helm template CHART` prints, without Helm. Flags follow Helm's
// (cmd/helm/template.go and the install flags it shares); the ones that need a cluster or a network are
// refused in one line saying so.

import { nodeChildProcess } from '../guard/builtins.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_KUBE_VERSION, HELM_VERSION, renderChart, type OutputFile } from '../helm/index.js';
import { iopValues } from '../istio/iop.js';
import { readInputText } from '../inputs/files.js';
import { stdinTextSync } from './stdin.js';
import { Template } from '../go/text/template/template.js';
import { sprigFuncs } from '../sprig/index.js';
import { InputError } from '../yaml/load.js';
import { addLimitOptions, limitsFromFlags, type LimitFlags } from './limits.js';
import { collect, csvList } from './options.js';

interface ChartFlags extends LimitFlags {
  values: string[];
  set: string[];
  setString: string[];
  setJson: string[];
  setFile: string[];
  setLiteral: string[];
  namespace?: string;
  name?: string;
  nameTemplate?: string;
  generateName?: boolean;
  kubeVersion?: string;
  apiVersions: string[];
  showOnly: string[];
  includeCrds?: boolean;
  skipCrds?: boolean;
  skipTests?: boolean;
  hooks: boolean;
  isUpgrade?: boolean;
  skipSchemaValidation?: boolean;
  outputDir?: string;
  releaseName?: boolean;
  postRenderer?: string;
  postRendererArgs: string[];
  dependencyUpdate?: boolean;
  validate?: boolean;
  iop?: string;
}

/** Install.NameAndChart as helm template runs it (its release name is preset to release-name, so
 *  --generate-name changes nothing): the release name and the chart. */
function nameAndChart(args: string[], flags: ChartFlags): { name: string; chart: string } {
  if (args.length > 2) throw new InputError(`expected at most two arguments, unexpected arguments: ${args.slice(2).join(', ')}`);
  if (args.length === 2) {
    if (flags.name !== undefined) throw new InputError('chart: give the release name as an argument or with --name, not both');
    if (flags.generateName) throw new InputError('cannot set --generate-name and also specify a name');
    if (flags.nameTemplate) throw new InputError('cannot set --name-template and also specify a name');
    return { name: args[0]!, chart: args[1]! };
  }
  if (flags.nameTemplate) return { name: nameFromTemplate(flags.nameTemplate), chart: args[0]! };
  return { name: flags.name ?? 'release-name', chart: args[0]! };
}

/** action.TemplateName: the template run with Sprig's functions over no data. */
function nameFromTemplate(text: string): string {
  try {
    return new Template('name-template').funcs(sprigFuncs({ env: process.env as Record<string, string> })).parse(text).execute(null);
  } catch (e) {
    throw new InputError(`--name-template: ${(e as Error).message}`);
  }
}

/** postrender.NewExec's look-up (exec.LookPath): a path with a slash as it is, else a name on PATH. */
function postRendererPath(p: string): string {
  const executable = (f: string): boolean => {
    try {
      const st = fs.statSync(f);
      return st.isFile() && (st.mode & 0o111) !== 0;
    } catch {
      return false;
    }
  };
  const bad = (why: string): never => {
    throw new InputError(`invalid argument "${p}" for "--post-renderer" flag: unable to find binary at ${p}: ${why}`);
  };
  if (p.includes('/')) {
    if (!fs.existsSync(p)) bad(`exec: "${p}": stat ${p}: no such file or directory`);
    if (!executable(p)) bad(`exec: "${p}": permission denied`);
    return path.resolve(p);
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir !== '' && executable(path.join(dir, p))) return path.resolve(dir, p);
  }
  return bad(`exec: "${p}": executable file not found in $PATH`);
}

/** The post-renderer run as Helm runs it: the manifests on its stdin, its stdout in their place. */
function postRenderWith(bin: string, args: string[]): (manifests: string) => string {
  return (manifests) => {
    const r = nodeChildProcess().spawnSync(bin, args, { input: manifests, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
    if (r.error) throw new InputError(`error while running post render on files: error while running command ${bin}: ${r.error.message}`);
    if (r.status !== 0) {
      const why = r.status === null ? `signal: ${r.signal}` : `exit status ${r.status}`;
      const err = r.stderr.trim().split('\n').join(' ');
      throw new InputError(`error while running post render on files: error while running command ${bin}. error output: ${err}${err ? ' ' : ''}: ${why}`);
    }
    return r.stdout;
  };
}

/** --output-dir: each file written (or added to), and Helm's "wrote PATH" line for it. */
function writeOutputs(files: OutputFile[]): string {
  let lines = '';
  const seen = new Set<string>();
  for (const f of files) {
    fs.mkdirSync(path.dirname(f.path), { recursive: true });
    const append = f.append === 'written' || (f.append === 'exists' && (seen.has(f.path) || fs.existsSync(f.path)));
    if (append) fs.appendFileSync(f.path, f.content);
    else fs.writeFileSync(f.path, f.content);
    seen.add(f.path);
    lines += `wrote ${f.path}\n`;
  }
  return lines;
}

export function chartCommand(program: Command): void {
  const cmd = program
    .command('chart')
    .description(`render a Helm chart as \`helm template\` (Helm ${HELM_VERSION.Version}) prints it (a chart directory or .tgz)`)
    .argument('<chart>', 'chart directory or archive (.tgz); with two arguments, as `helm template NAME CHART`, the release name then the chart')
    .argument('[more...]')
    .option('-f, --values <file>', 'values file, merged left to right (repeatable; or comma-separated)', csvList('-f, --values'), [] as string[])
    .option('--set <key=value>', 'set values (repeatable): a.b=c, a[0]=x, a={x,y}, null deletes a default', collect, [] as string[])
    .option('--set-string <key=value>', 'set values as strings (repeatable)', collect, [] as string[])
    .option('--set-json <key=json>', 'set values as JSON (repeatable): a={"b":[1,2]}', collect, [] as string[])
    .option('--set-file <key=path>', 'set values from the text of files (repeatable)', collect, [] as string[])
    .option('--set-literal <key=text>', 'set a value to the rest of the text, as it is (repeatable)', collect, [] as string[])
    .option('--iop <file>', "an IstioOperator file: spec.values, spec.meshConfig, spec.profile, hub and tag as istioctl maps them (before -f)")
    .option('-n, --namespace <ns>', '.Release.Namespace (default "default")')
    .option('--name <name>', '.Release.Name (default "release-name")')
    .option('--name-template <template>', 'the release name from a template (Sprig functions)')
    .option('-g, --generate-name', 'accepted as helm template accepts it (the name stays release-name)')
    .option('--is-upgrade', 'set .Release.IsUpgrade instead of .Release.IsInstall')
    .option('--kube-version <version>', `.Capabilities.KubeVersion (default ${DEFAULT_KUBE_VERSION}, Helm ${HELM_VERSION.Version}'s)`)
    .option('-a, --api-versions <version>', 'more API versions for .Capabilities.APIVersions (repeatable; or comma-separated)', csvList('-a, --api-versions'), [] as string[])
    .option('-s, --show-only <template>', 'only the documents of templates matching this path, e.g. templates/configmap.yaml (repeatable)', collect, [] as string[])
    .option('--include-crds', 'print the crds/ files first')
    .option('--skip-crds', 'accepted as helm template accepts it (CRDs are printed only with --include-crds)')
    .option('--skip-tests', 'leave out test hooks')
    .option('--no-hooks', 'leave out every hook')
    .option('--skip-schema-validation', 'do not check values.schema.json')
    .option('--output-dir <dir>', 'write each template\'s documents to DIR/CHART/templates/FILE instead of printing them')
    .option('--release-name', 'with --output-dir, put the files under DIR/RELEASE-NAME')
    .option('--post-renderer <path>', 'an executable that gets the manifests on stdin and prints what replaces them (run as Helm runs it)')
    .option('--post-renderer-args <arg>', 'an argument to the post-renderer (repeatable)', collect, [] as string[])
    .option('--dependency-update', 'refused when dependencies are missing (downloading them needs a network)')
    .option('--validate', 'refused: validating against a cluster needs a cluster');
  addLimitOptions(cmd).addHelpText('after', '\nExit codes: 0 rendered; 2 a bad chart, bad values, a template error or a schema violation (one line naming FILE:LINE:COL).\n');
  cmd.action((first: string, more: string[], flags: ChartFlags) => {
    // cobra parses the flags first: a post-renderer that cannot be found is the first error
    const post = flags.postRenderer ? postRendererPath(flags.postRenderer) : undefined;
    const { name, chart } = nameAndChart([first, ...more], flags);
    if (flags.validate) throw new InputError('--validate checks the manifests against a Kubernetes cluster, which chart does not reach: Kubernetes cluster unreachable');
    const r = renderChart(chart, {
      values: flags.values,
      // -f - is standard input, as Helm reads it
      ...(flags.values.includes('-') ? { stdin: stdinTextSync() } : {}),
      ...(flags.iop ? { baseValues: iopValues(readInputText(flags.iop), flags.iop) } : {}),
      set: flags.set,
      setString: flags.setString,
      setJson: flags.setJson,
      setFile: flags.setFile,
      setLiteral: flags.setLiteral,
      ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
      name,
      ...(flags.kubeVersion !== undefined ? { kubeVersion: flags.kubeVersion } : {}),
      apiVersions: flags.apiVersions,
      showOnly: flags.showOnly,
      includeCrds: flags.includeCrds ?? false,
      noHooks: !flags.hooks,
      skipTests: flags.skipTests ?? false,
      isUpgrade: flags.isUpgrade ?? false,
      skipSchemaValidation: flags.skipSchemaValidation ?? false,
      ...(flags.outputDir !== undefined ? { outputDir: flags.outputDir, useReleaseName: flags.releaseName ?? false } : {}),
      ...(post ? { postRender: postRenderWith(post, flags.postRendererArgs) } : {}),
      ...(flags.dependencyUpdate ? { dependencyUpdate: true } : {}),
      limits: limitsFromFlags(flags),
      warn: (m) => process.stderr.write(m + '\n'),
    });
    process.stdout.write(writeOutputs(r.outputs) + r.text);
  });
}
