// Golden cases rendered by the Istio renderer: a case is exactly a `sidecar-render render` invocation,
// so a golden file holds what that command prints.

import { type RenderRequest } from '../inputs/resolve.js';
import { renderRequest } from '../output/render.js';
import { INPUT_OPTIONS } from '../inputs/options.js';
import type { ExecOptions } from '../go/text/template/template.js';
import type { CaseRenderer } from './run.js';
import type { GoldenCase, GoldenMatrix } from './matrix.js';

/** The render request a case is: its inputs (render's flags in camelCase) and how it prints. */
export function renderRequestOf(c: GoldenCase): RenderRequest {
  if (!c.filename) throw new Error(`case "${c.name}" (${c.declaredAt}) names no workloads file`);
  if (c.filename === '-') throw new Error(`case "${c.name}" (${c.declaredAt}): workloads cannot be stdin in a matrix`);
  const req: Record<string, unknown> = {};
  for (const o of INPUT_OPTIONS) if (c[o.key] !== undefined) req[o.key] = c[o.key];
  if (c.merged) req.merged = c.merged;
  if (c.output) req.output = c.output;
  return req as RenderRequest;
}

export interface CaseRendererOptions {
  limits?: ExecOptions;
  /** Inputs given over every case's own (the command line's). */
  overrides?: Partial<RenderRequest>;
  /** What each case's render assumed and where its inputs came from (render's assumptions line). */
  onAssumptions?: (caseName: string, line: string) => void;
}

/**
 * Render a case as `sidecar-render render` would print it; any failed workload fails the case. Inputs,
 * function maps and parsed templates are cached across cases (render.ts), so a matrix of 1,000 cases
 * over a few files loads each file once. `limits` apply to every template execution of every case.
 */
export function istioCaseRenderer(_m?: GoldenMatrix, opts: CaseRendererOptions = {}): CaseRenderer {
  return (c) => {
    const req = withOverrides(renderRequestOf(c), opts.overrides);
    if (opts.limits) req.limits = opts.limits;
    const out = renderRequest(req);
    if (out.assumptions !== undefined) opts.onAssumptions?.(c.name, out.assumptions);
    if (out.failed > 0) throw new Error(out.messages.find((m) => m.startsWith('error:')) ?? `${out.failed} workloads failed`);
    return out.text;
  };
}

/** The inputs given as lists: the command line's are appended to a case's. */
const LIST_FIELDS = new Set<string>(INPUT_OPTIONS.filter((o) => o.value === 'files' || o.value === 'strings').map((o) => o.key));
const SOURCES = ['injectorConfigmap', 'injectConfigFile', 'template', 'chart'];

/**
 * Inputs given on the command line over a case's: a single input replaces the case's (an injector
 * source replaces any of the case's), lists are appended after the case's, so `--set` applies last.
 */
export function withOverrides(req: RenderRequest, over: Partial<RenderRequest> | undefined): RenderRequest {
  if (!over) return req;
  const out: Record<string, unknown> = { ...req };
  const base = req as Record<string, unknown>;
  if (SOURCES.some((k) => (over as Record<string, unknown>)[k] !== undefined)) for (const k of SOURCES) delete out[k];
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue;
    if (LIST_FIELDS.has(k)) {
      const list = v as unknown[];
      if (list.length) out[k] = [...((base[k] as unknown[] | undefined) ?? []), ...list];
    } else if (k === 'env') {
      out.env = { ...((base.env as Record<string, string> | undefined) ?? {}), ...(v as Record<string, string>) };
    } else out[k] = v;
  }
  return out as RenderRequest;
}
