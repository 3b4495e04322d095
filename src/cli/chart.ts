// `sidecar-render chart CHART`: what `helm template CHART` prints, without Helm. Flags follow Helm's.

import type { Command } from 'commander';
import { DEFAULT_KUBE_VERSION, HELM_VERSION, renderChart } from '../helm/index.js';
import { iopValues } from '../istio/iop.js';
import { readInputText } from '../inputs/files.js';
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
  kubeVersion?: string;
  apiVersions: string[];
  showOnly: string[];
  includeCrds?: boolean;
  iop?: string;
}

export function chartCommand(program: Command): void {
  const cmd = program
    .command('chart')
    .description('render a Helm chart as `helm template` prints it (a chart directory or .tgz)')
    .argument('<chart>', 'chart directory or archive (.tgz); with two arguments, as `helm template NAME CHART`, the release name then the chart')
    .argument('[chart2]')
    .option('-f, --values <file>', 'values file, merged left to right (repeatable; or comma-separated)', csvList('-f, --values'), [] as string[])
    .option('--set <key=value>', 'set values (repeatable): a.b=c, a[0]=x, a={x,y}, null deletes a default', collect, [] as string[])
    .option('--set-string <key=value>', 'set values as strings (repeatable)', collect, [] as string[])
    .option('--set-json <key=json>', 'set values as JSON (repeatable): a={"b":[1,2]}', collect, [] as string[])
    .option('--set-file <key=path>', 'set values from the text of files (repeatable)', collect, [] as string[])
    .option('--set-literal <key=text>', 'set a value to the rest of the text, as it is (repeatable)', collect, [] as string[])
    .option('--iop <file>', "an IstioOperator file: spec.values, spec.meshConfig, spec.profile, hub and tag as istioctl maps them (before -f)")
    .option('-n, --namespace <ns>', '.Release.Namespace (default "default")')
    .option('--name <name>', '.Release.Name (default "release-name")')
    .option('--kube-version <version>', `.Capabilities.KubeVersion (default ${DEFAULT_KUBE_VERSION}, Helm ${HELM_VERSION.Version}'s)`)
    .option('-a, --api-versions <version>', 'more API versions for .Capabilities.APIVersions (repeatable; or comma-separated)', csvList('-a, --api-versions'), [] as string[])
    .option('-s, --show-only <template>', 'only the documents of templates matching this path, e.g. templates/configmap.yaml (repeatable)', collect, [] as string[])
    .option('--include-crds', 'print the crds/ files first');
  addLimitOptions(cmd).addHelpText('after', '\nExit codes: 0 rendered; 2 a bad chart, bad values, a template error or a schema violation (one line naming FILE:LINE:COL).\n');
  cmd.action((first: string, second: string | undefined, flags: ChartFlags) => {
    const chart = second ?? first;
    if (second !== undefined && flags.name !== undefined) throw new Error('chart: give the release name as an argument or with --name, not both');
    if (second !== undefined) flags.name = first;
    const r = renderChart(chart, {
      values: flags.values,
      ...(flags.iop ? { baseValues: iopValues(readInputText(flags.iop), flags.iop) } : {}),
      set: flags.set,
      setString: flags.setString,
      setJson: flags.setJson,
      setFile: flags.setFile,
      setLiteral: flags.setLiteral,
      ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
      ...(flags.name !== undefined ? { name: flags.name } : {}),
      ...(flags.kubeVersion !== undefined ? { kubeVersion: flags.kubeVersion } : {}),
      apiVersions: flags.apiVersions,
      showOnly: flags.showOnly,
      includeCrds: flags.includeCrds ?? false,
      limits: limitsFromFlags(flags),
      warn: (m) => process.stderr.write(m + '\n'),
    });
    process.stdout.write(r.text);
  });
}
