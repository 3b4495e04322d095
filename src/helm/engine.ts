// Helm's pkg/engine: every template of the chart and its subcharts parsed into one template set (so
// any of them can include another's {{define}}), then each non-partial template executed with its
// chart's top-level object. Helm runs them in its own order (deepest path first, then names in
// reverse), and the objects are shared and mutable: a template that runs `set $ "Values" ...` changes
// what the templates after it see. Istio's charts rely on both (zzz_profile.yaml runs first).
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/engine/engine.go
// Proven by: test/helm/chart.test.ts, test/helm/istio-charts.test.ts

import { ExecError, ParseError, Template, type ExecLimits } from '../go/text/template/template.js';
import { isMap, newMap, type GoMap, type GoValue } from '../go/reflect/value.js';
import { helmFuncs } from './funcs.js';
import { InputError } from '../yaml/load.js';
import { chartFullPath, isLibrary, type Chart } from './chart.js';
import { chartObject, filesObject, templateObject } from './objects.js';

export interface EngineOptions {
  /** Helm's --strict rendering: a missing map key is an error instead of an empty value. */
  strict?: boolean;
  /** Bounds on each template execution (output size, time, include depth, ...). */
  limits?: ExecLimits;
}

interface Renderable {
  text: string;
  vals: GoMap;
  basePath: string;
  /** The file the template came from, for messages. */
  file: string;
}

/** recAllTpls: one top-level object per chart; a subchart's .Values is its parent's table of its name. */
function allTemplates(c: Chart, out: Map<string, Renderable>, parent: GoMap): GoMap {
  const subcharts = newMap();
  const next = newMap();
  next['Chart'] = chartObject(c);
  next['Files'] = filesObject(c);
  next['Release'] = parent['Release'];
  next['Capabilities'] = parent['Capabilities'];
  next['Values'] = newMap();
  next['Subcharts'] = subcharts;
  if (!c.parent) next['Values'] = parent['Values'];
  else {
    const pv = parent['Values'];
    const own = isMap(pv) && Object.prototype.hasOwnProperty.call(pv, c.name) ? pv[c.name] : undefined;
    if (isMap(own)) next['Values'] = own;
  }
  for (const d of c.dependencies) subcharts[d.name] = allTemplates(d, out, next);
  const id = chartFullPath(c);
  for (const t of c.templates) {
    // a library chart renders nothing of its own; its partials are there to be included
    if (isLibrary(c) && !t.name.split('/').pop()!.startsWith('_')) continue;
    out.set(`${id}/${t.name}`, { text: t.data.toString('utf8'), vals: next, basePath: `${id}/templates`, file: `${c.location}/${t.name}` });
  }
  return next;
}

function slashes(s: string): number {
  let n = 0;
  for (const ch of s) if (ch === '/') n++;
  return n;
}

/** sortTemplates: sort.Reverse(byPathLen): more path segments first, then names in reverse byte order. */
export function templateOrder(names: string[]): string[] {
  return [...names].sort((a, b) => {
    const ca = slashes(a);
    const cb = slashes(b);
    if (ca !== cb) return cb - ca;
    return a < b ? 1 : a > b ? -1 : 0;
  });
}

function isPartial(name: string): boolean {
  return name.slice(name.lastIndexOf('/') + 1).startsWith('_');
}

/** Where a template error points: the chart file, the template's line and column. */
function templateError(e: unknown, files: Map<string, Renderable>, fallback: string): InputError {
  if (e instanceof ParseError || e instanceof ExecError) {
    // the file is that of the template the error is in: a {{ template }} call runs the define's own
    // nodes, whose place Go's message names first (an include's error is named where it is called)
    const at = /^template: (\S*?):\d+(?::\d+)?: /.exec(e.message);
    const r = (at && files.get(at[1]!)) || files.get(e.templateName);
    const file = r ? r.file : fallback;
    // Go's message starts "template: NAME:LINE:COL: "; the file position replaces it
    let msg = e.message.replace(/^template: [^\s]*?:\d+(:\d+)?: /, '');
    // fail and required: Helm shows the chart's own message alone
    const own = /error calling (?:fail|required): ([^]*)$/.exec(msg);
    if (own) msg = `execution error: ${own[1]}`;
    return new InputError(e instanceof ParseError ? `parse error: ${msg}` : msg, file, e.line || undefined, e.line ? Math.max(1, e.col) : undefined);
  }
  if (e instanceof InputError) return e;
  return new InputError(e instanceof Error ? e.message : String(e), fallback);
}

/**
 * Render every template of the chart: name (CHART/templates/FILE, CHART/charts/SUB/templates/FILE)
 * → output, with "<no value>" removed as Helm does. `top` holds Values, Release and Capabilities.
 */
export function renderTemplates(chart: Chart, top: GoMap, opts: EngineOptions = {}): Map<string, string> {
  const tpls = new Map<string, Renderable>();
  allTemplates(chart, tpls, top);
  const root = new Template('gotpl');
  root.option(opts.strict ? 'missingkey=error' : 'missingkey=zero');
  root.funcs(helmFuncs({ template: () => root, strict: opts.strict ?? false, env: {} }));
  const keys = templateOrder([...tpls.keys()]);
  for (const name of keys) {
    try {
      root.new(name).parse(tpls.get(name)!.text);
    } catch (e) {
      throw templateError(e, tpls, tpls.get(name)!.file);
    }
  }
  const rendered = new Map<string, string>();
  const limits: ExecLimits = { ...(opts.limits ?? {}), copyData: false };
  for (const name of keys) {
    if (isPartial(name)) continue;
    const r = tpls.get(name)!;
    r.vals['Template'] = templateObject(name, r.basePath);
    let out: string;
    try {
      out = root.executeTemplate(name, r.vals as GoValue, limits);
    } catch (e) {
      throw templateError(e, tpls, r.file);
    }
    rendered.set(name, out.split('<no value>').join(''));
  }
  return rendered;
}
