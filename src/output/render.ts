// render as a pipeline: the inputs resolved (src/inputs), the templates parsed, then each workload read,
// injected (src/istio) and printed (format.ts) in turn, so memory stays flat however many workloads a
// file holds.
//
// Upstream: none (the render command and the library's renderRequest/renderStream)

import { Renderer, nativeSidecarsOn, type RenderEvent, type WorkloadResult } from '../istio/inject.js';
import { configObjectsOf, describeSources, resolveInputs, type RenderRequest, type ResolvedInputs } from '../inputs/resolve.js';
import { normalizeOptions } from '../inputs/options.js';
import { workloadFiles, workloadText, manifestOf, workloadsOf } from '../inputs/files.js';
import { detectIstioVersion as detectFromText, formatIstioVersion, releaseWhy } from '../istio/version.js';
import { NATIVE_AUTO_FROM } from '../istio/releases.js';
import { KubeInjectJson, kubeInjectStream } from '../istio/kubeinject.js';
import { OutputFormat } from './format.js';

export interface RenderOutcome {
  text: string;
  results: WorkloadResult[];
  failed: number;
  /** Lines for stderr: skipped workloads, failures. */
  messages: string[];
  /** What the run assumed (release, Kubernetes version, native sidecars): describeAssumptions. */
  assumptions?: string;
}

/**
 * What a run takes for granted unless told: the Istio release whose template data is built (and why),
 * the cluster's Kubernetes version, and whether native sidecars are on. One line, for stderr.
 */
export function describeAssumptions(renderer: Renderer, inputs?: ResolvedInputs): string {
  const opts = renderer.opts;
  const detected = detectFromText(renderer.inputs.config.source, renderer.inputs.releaseValues);
  const why = releaseWhy(opts.istioVersion, detected);
  const release = `Istio ${formatIstioVersion(renderer.version)} (${why})`;
  const kube = opts.kubeVersion ? `Kubernetes ${opts.kubeVersion}` : 'Kubernetes version not given (--kube-version)';
  const native = opts.nativeSidecars ?? 'auto';
  const on = nativeSidecarsOn(opts, renderer.version);
  const nativeWhy = native !== 'auto' ? `--native-sidecars ${native}` : `auto: on for Istio ${NATIVE_AUTO_FROM}+ on Kubernetes 1.33+`;
  const mode = opts.mode === 'kube-inject' ? 'kube-inject mode (the pod as written)' : "webhook mode (the pod as the API server defaulted it)";
  const from = inputs ? `; ${describeSources(inputs.sources)}` : '';
  return `assuming ${release}, ${kube}, native sidecars ${on ? 'on' : 'off'} (${nativeWhy}; the pod's sidecar.istio.io/nativeSidecar annotation wins), ${mode}${from}`;
}

/**
 * `sidecar-render render` as a stream: inputs are loaded and every template parsed first (bad input
 * throws InputError before anything is produced), then each workload is read, rendered and formatted
 * in turn, so memory stays flat however many workloads the file holds. The text events, concatenated,
 * are exactly renderRequest's text.
 */
export function* renderStream(req: RenderRequest): Generator<RenderEvent, { failed: number; total: number }> {
  const o = normalizeOptions(req as Record<string, unknown>);
  // the ConfigMaps among the workloads apply where no flag names their kind; the flags' own files are
  // read first, so that their errors come first
  const flagged = o.chart !== undefined || o.injectorConfigmap !== undefined || o.injectConfigFile !== undefined || o.template !== undefined;
  let inputs = flagged ? resolveInputs(req) : undefined;
  const files = o.filename.length > 0 ? workloadFiles(o.filename, o.recursive) : [];
  if (o.chart === undefined && o.mesh === undefined && files.length > 0) {
    const found = configObjectsOf(files, req.stdin);
    if (found.length > 0 || !inputs) inputs = resolveInputs(req, { found });
  }
  inputs ??= resolveInputs(req);
  const renderer = new Renderer(inputs, { ...inputs.renderOptions, ...(req.limits ? { limits: req.limits } : {}), ...(req.kubeDefaults !== undefined ? { kubeDefaults: req.kubeDefaults } : {}) });
  renderer.prepare();
  if (files.length === 0) workloadFiles([]);
  if (o.mode === 'kube-inject' && req.merged) {
    const json = req.output === 'json' ? new KubeInjectJson() : undefined;
    yield { type: 'assumptions', text: describeAssumptions(renderer, inputs) };
    for (const w of inputs.warnings) yield { type: 'message', text: w };
    let failed = 0;
    let total = 0;
    for (const f of files) {
      const { name, text } = workloadText(f, req.stdin);
      const r = yield* kubeInjectStream(renderer, text, name, undefined, json);
      failed += r.failed;
      total += r.total;
    }
    if (json) yield* json.end();
    return { failed, total };
  }
  // merged output gives every document back; the template output is the workloads' alone
  const it = req.merged ? manifestOf(files, req.stdin) : workloadsOf(files, req.stdin);
  let cur = it.next();
  let next = cur.done ? cur : it.next();
  // only once the first pieces read well: input that cannot be rendered at all stays one line
  yield { type: 'assumptions', text: describeAssumptions(renderer, inputs) };
  for (const w of inputs.warnings) yield { type: 'message', text: w };
  const fmt = new OutputFormat(req, next.done === true);
  let failed = 0;
  let total = 0;
  while (!cur.done) {
    const p = cur.value;
    if (p.type === 'workload') {
      const r = renderer.renderWorkload(p.workload, req.merged ?? false);
      total++;
      if (r.error !== undefined) failed++;
      yield* fmt.add(r);
      yield { type: 'result', result: r };
    } else yield* fmt.piece(p);
    cur = next;
    if (!cur.done) next = it.next();
  }
  yield* fmt.end();
  return { failed, total };
}

/** Everything `sidecar-render render` does, minus writing: the text to print and what happened per workload. */
export function renderRequest(req: RenderRequest): RenderOutcome {
  return collect(renderStream(req));
}

export function collect(events: Generator<RenderEvent, { failed: number; total: number }>): RenderOutcome {
  let text = '';
  const messages: string[] = [];
  const results: WorkloadResult[] = [];
  let failed = 0;
  let assumptions: string | undefined;
  for (const ev of events) {
    if (ev.type === 'text') text += ev.text;
    else if (ev.type === 'message') messages.push(ev.text);
    else if (ev.type === 'assumptions') assumptions = ev.text;
    else {
      results.push(ev.result);
      if (ev.result.error !== undefined) failed++;
    }
  }
  return { text, results, failed, messages, ...(assumptions !== undefined ? { assumptions } : {}) };
}

export function formatOutcome(results: WorkloadResult[], req: { merged?: boolean; output?: 'yaml' | 'json' }): RenderOutcome {
  return collect(
    (function* (): Generator<RenderEvent, { failed: number; total: number }> {
      const fmt = new OutputFormat(req, results.length === 1);
      for (const r of results) {
        yield* fmt.add(r);
        yield { type: 'result', result: r };
      }
      yield* fmt.end();
      return { failed: 0, total: results.length };
    })(),
  );
}
