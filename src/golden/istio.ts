// Golden cases rendered by the Istio renderer: a case is exactly a `sidecar-render render` invocation,
// so a golden file holds what that command prints.

import { type RenderRequest } from '../inputs/resolve.js';
import { renderRequest } from '../output/render.js';
import { parseIstioVersion } from '../istio/version.js';
import type { ExecOptions } from '../go/text/template/template.js';
import type { CaseRenderer } from './run.js';
import type { GoldenCase, GoldenMatrix } from './matrix.js';

export function renderRequestOf(c: GoldenCase): RenderRequest {
  if (!c.workloads) throw new Error(`case "${c.name}" (${c.declaredAt}) names no workloads file`);
  if (c.workloads === '-') throw new Error(`case "${c.name}" (${c.declaredAt}): workloads cannot be stdin in a matrix`);
  const req: RenderRequest = { workloads: c.workloads };
  if (c.injectorConfigMap) req.injectorConfigMap = c.injectorConfigMap;
  if (c.injectConfig) req.injectConfig = c.injectConfig;
  if (c.chart) {
    if ((c.iop ?? []).length > 1) throw new Error(`case "${c.name}" (${c.declaredAt}): a chart takes one iop`);
    req.chart = { chart: c.chart, values: c.chartValues ?? [], set: c.chartSet ?? [], setString: c.chartSetString ?? [], ...(c.iop?.[0] ? { iop: c.iop[0] } : {}), ...(c.kubeVersion ? { kubeVersion: c.kubeVersion } : {}) };
  }
  if (c.template) req.template = c.template;
  if (c.values) req.values = c.values;
  if (c.valuesFiles) req.valuesFiles = c.valuesFiles;
  if (c.iop && !c.chart) req.iop = c.iop;
  if (c.set) req.set = c.set;
  if (c.setString) req.setString = c.setString;
  if (c.mesh) req.mesh = c.mesh;
  if (c.istioVersion) req.istioVersion = parseIstioVersion(c.istioVersion);
  if (c.revision) req.revision = c.revision;
  if (c.nativeSidecars) req.nativeSidecars = c.nativeSidecars;
  if (c.mode) req.mode = c.mode;
  if (c.kubeVersion) req.kubeVersion = c.kubeVersion;
  if (c.env) req.env = c.env;
  if (c.merged) req.merged = c.merged;
  if (c.output) req.output = c.output;
  return req;
}

/**
 * Render a case as `sidecar-render render` would print it; any failed workload fails the case. Inputs,
 * function maps and parsed templates are cached across cases (render.ts), so a matrix of 1,000 cases
 * over a few files loads each file once. `limits` apply to every template execution of every case.
 */
export function istioCaseRenderer(_m?: GoldenMatrix, opts: { limits?: ExecOptions; overrides?: Partial<RenderRequest> } = {}): CaseRenderer {
  return (c) => {
    const req = withOverrides(renderRequestOf(c), opts.overrides);
    if (opts.limits) req.limits = opts.limits;
    const out = renderRequest(req);
    if (out.failed > 0) throw new Error(out.messages.find((m) => m.startsWith('error:')) ?? `${out.failed} workloads failed`);
    return out.text;
  };
}

const LIST_FIELDS = ['valuesFiles', 'iop', 'set', 'setString'] as const;

/**
 * Inputs given on the command line over a case's: a single input replaces the case's (an injector
 * source replaces any of the case's), lists are appended after the case's, so `--set` applies last.
 */
export function withOverrides(req: RenderRequest, over: Partial<RenderRequest> | undefined): RenderRequest {
  if (!over) return req;
  const out: RenderRequest = { ...req };
  if (over.injectorConfigMap || over.injectConfig || over.template) {
    delete out.injectorConfigMap;
    delete out.injectConfig;
    delete out.template;
  }
  for (const [k, v] of Object.entries(over) as [keyof RenderRequest, unknown][]) {
    if (v === undefined) continue;
    if ((LIST_FIELDS as readonly string[]).includes(k)) {
      const list = v as string[];
      if (list.length) (out as unknown as Record<string, unknown>)[k] = [...(((req as unknown as Record<string, unknown>)[k] as string[] | undefined) ?? []), ...list];
    } else if (k === 'env') {
      out.env = { ...(req.env ?? {}), ...(v as Record<string, string>) };
    } else (out as unknown as Record<string, unknown>)[k] = v;
  }
  return out;
}
