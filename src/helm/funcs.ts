// Helm 3's template functions (pkg/engine funcs.go and engine.go): Sprig's text functions without
// env/expandenv, plus toYaml/fromYaml/fromYamlArray/toJson/fromJson/fromJsonArray, a cluster-less
// lookup, and the late-bound include/tpl/required.
//
// include and tpl need the template set being executed, so helmFuncs is a factory:
//
//   const t = new Template('main');
//   t.funcs(helmFuncs({ template: () => t })).parse(src);
//   t.execute(values);
//
// `template` is called when include/tpl run (not when the map is built), so the map can be made
// before the set is parsed. include runs a template of that set; tpl clones the set, parses its text
// into the clone under the set's name and executes it, as Helm does.
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/engine/{funcs,engine}.go
// Proven by: test/vectors/helm/funcs.jsonl, test/helm/values-hostile.test.ts

import { checkExpandedSize, LimitExceeded } from '../guard/limits.js';
import { funcMap, def, newMap, withType, GoError, GoNil, SLICE_IFACE, MAP_STRING_IFACE, type FuncMap, type GoValue } from '../go/reflect/value.js';
import { LimitError, TemplateError, type Template } from '../go/text/template/template.js';
import { goQuote } from '../go/strconv/quote.js';
import { sprigFuncs, type SprigOptions } from '../sprig/index.js';
import { goJsonMarshalChecked, GoJsonError } from '../go/encoding/json/json.js';
import { helmToYaml } from '../yaml/emit.js';
import { helmFromJson, helmFromJsonArray, helmFromYaml, helmFromYamlArray } from '../yaml/decode.js';
import { isStackOverflow } from '../guard/stack.js';

/** Helm refuses an include nested deeper than this for one template name (engine.go recursionMaxNums). */
export const HELM_INCLUDE_MAX = 1000;

/**
 * tpl calls nested deeper than this end the render. Helm has no bound: a value that runs itself through
 * tpl (`x: "{{ tpl .Values.x . }}"`) clones the template set at every level until Go's stack overflows
 * (a fatal error after a minute and 11 GB); real charts nest tpl a few levels.
 */
export const TPL_MAX = 1000;

/** The longest error a tpl call wraps in its own words (Helm's message quotes the text it ran). */
const TPL_ERROR_MAX = 1024 * 1024;

export interface HelmOptions extends SprigOptions {
  /** The template set being executed (include looks names up in it, tpl clones it). Called at call time. */
  template: () => Template;
  /** Helm's strict mode: tpl parses with missingkey=error instead of missingkey=zero. */
  strict?: boolean;
  /** Nesting allowed per template name for include/tpl (default: Helm's 1000). */
  includeMax?: number;
  /** Nested tpl calls allowed (default TPL_MAX, 1000). */
  tplMax?: number;
}

const I = 'interface {}';

/** Helm's toJson: json.Marshal, "" when it fails. */
function toJson(v: GoValue): string {
  try {
    return goJsonMarshalChecked(v);
  } catch (e) {
    if (e instanceof GoJsonError) return '';
    throw e;
  }
}

/** The error a nested execution failed with, as the Go error value's text. */
function execErrorText(e: unknown): string {
  if (e instanceof TemplateError || e instanceof GoError) return e.message;
  throw e;
}

/** Helm's functions on top of Sprig's. */
export function helmFuncs(opts: HelmOptions): FuncMap {
  const f = sprigFuncs(opts);
  delete f['env'];
  delete f['expandenv'];
  const max = opts.includeMax ?? HELM_INCLUDE_MAX;
  const included = new Map<string, number>();
  const tplMax = opts.tplMax ?? TPL_MAX;
  // tpl calls under way, nested in one another
  let tplDepth = 0;

  const nestedError = (name: string): GoError =>
    new GoError(`rendering template has a nested reference name: ${name}: unable to execute template`);

  const includeFor = (set: () => Template) =>
    def('include', `func(string, ${I}) (string, error)`, (name: string, data: GoValue) => {
      const n = included.get(name);
      if (n !== undefined) {
        if (n > max) throw nestedError(name);
        included.set(name, n + 1);
      } else included.set(name, 1);
      try {
        return set().executeTemplate(name, data ?? null);
      } catch (e) {
        // A resource limit ends the whole render, reported where it was reached.
        if (e instanceof LimitError) throw e;
        // JavaScript's stack is shallower than Go's: report what Helm reports at its limit.
        if (isStackOverflow(e)) throw nestedError(name);
        throw new GoError(execErrorText(e));
      } finally {
        included.set(name, included.get(name)! - 1);
      }
    });

  const tplFor = (set: () => Template): ReturnType<typeof def> =>
    def('tpl', `func(string, ${I}) (string, error)`, (text: string, vals: GoValue) => {
      // a limit, so that no tpl around it wraps the message again
      if (tplDepth >= tplMax) throw new LimitExceeded(`exceeded maximum tpl depth (${tplMax})`);
      tplDepth++;
      try {
        return runTpl(set, text, vals);
      } finally {
        tplDepth--;
      }
    });

  const runTpl = (set: () => Template, text: string, vals: GoValue): string => {
    const parent = set();
    const t = parent.clone();
    t.option(opts.strict ? 'missingkey=error' : 'missingkey=zero');
    // include and tpl inside the text see the clone, so its {{define}}s can be included.
    t.funcs({ include: includeFor(() => t), tpl: tplFor(() => t) });
    const nt = t.new(parent.name());
    try {
      nt.parse(text);
    } catch (e) {
      if (isStackOverflow(e)) throw e;
      throw new GoError(`cannot parse template ${goQuote(text)}: ${execErrorText(e)}`);
    }
    let out: string;
    try {
      out = nt.execute(vals ?? null);
    } catch (e) {
      if (e instanceof LimitError) throw e;
      // a limit, not an error each tpl around it would wrap again (quoting its text) on the way out
      if (isStackOverflow(e)) throw new LimitExceeded('tpl nesting exceeds the JavaScript call stack');
      const inner = execErrorText(e);
      // each tpl around an error quotes its own text in front of it: past TPL_ERROR_MAX the message
      // would only grow (a 1 MB text run 1,000 deep is a 1 GB message)
      if (inner.length > TPL_ERROR_MAX) throw new LimitExceeded(`the error of nested tpl calls passes ${TPL_ERROR_MAX} characters; it ends: ${inner.slice(-200)}`);
      throw new GoError(`error during tpl function execution for ${goQuote(text)}: ${inner}`);
    }
    return out.split('<no value>').join('');
  };

  const helm: FuncMap = {
    toYaml: def('toYaml', `func(${I}) string`, (v: GoValue) => {
      checkExpandedSize(v, true);
      return helmToYaml(v ?? null);
    }),
    fromYaml: def('fromYaml', 'func(string) map[string]interface {}', (s: string) => withType(helmFromYaml(s), MAP_STRING_IFACE)),
    fromYamlArray: def('fromYamlArray', 'func(string) []interface {}', (s: string) => withType(helmFromYamlArray(s), SLICE_IFACE)),
    toJson: def('toJson', `func(${I}) string`, toJson),
    fromJson: def('fromJson', 'func(string) map[string]interface {}', (s: string) => {
      const m = helmFromJson(s);
      return m instanceof GoNil ? m : withType(m, MAP_STRING_IFACE);
    }),
    fromJsonArray: def('fromJsonArray', 'func(string) []interface {}', (s: string) => {
      const a = helmFromJsonArray(s);
      return a instanceof GoNil ? a : withType(a, SLICE_IFACE);
    }),
    // No cluster: Helm's placeholder answers an empty map.
    lookup: def('lookup', 'func(string, string, string, string) (map[string]interface {}, error)', () => withType(newMap(), MAP_STRING_IFACE)),
    // Helm answers "" unless DNS lookups are enabled explicitly.
    getHostByName: def('getHostByName', 'func(string) string', () => ''),
    // Helm wraps the message in markers its own error cleanup removes; users read the bare message.
    required: def('required', `func(string, ${I}) (${I}, error)`, (warn: string, val: GoValue) => {
      if (val === undefined || val === null || val === '') throw new GoError(warn);
      return val;
    }),
    include: includeFor(opts.template),
    tpl: tplFor(opts.template),
  };
  return funcMap(f, helm);
}
