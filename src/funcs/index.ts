// Named, composable function sets: what a template can call. Each is a plain FuncMap; combine them
// with funcMap(...) and add your own with def(name, goSignature, impl).

import { funcMap, type FuncMap } from '../go/reflect/value.js';
import { executingTemplate, markFuncSet, type Template } from '../go/text/template/template.js';
import { sprigFuncs } from '../sprig/index.js';
import { helmFuncs } from '../helm/funcs.js';
import { istioFuncs } from '../istio/template.js';

export type FuncSetName = 'builtin' | 'sprig' | 'helm' | 'istio';
export const FUNC_SET_NAMES: readonly FuncSetName[] = ['builtin', 'sprig', 'helm', 'istio'];

export interface FuncSetOptions {
  /** The template set Helm's include and tpl run templates of; by default, the template executing them. */
  template?: Template;
  /** Helm's strict mode (missingkey=error): tpl inherits it. */
  strict?: boolean;
  /** What `env`/`expandenv` read (Sprig and Istio); never the process environment. */
  env?: Record<string, string>;
  /** Clock for date functions. */
  now?: () => Date;
  /** Random source for random functions. */
  random?: () => number;
}

/** The functions of a named set, on top of Go's builtins (which every template has). */
export function funcSet(name: FuncSetName, opts: FuncSetOptions = {}): FuncMap {
  const t = opts.template;
  // marked, so that a set using them can be built again on a big stack (go/text/template/template.ts)
  return markFuncSet(buildFuncSet(name, opts, () => t), name, opts);
}

/** funcSet, with the template include and tpl run against given as a function of its own (resolved when they run). */
export function buildFuncSet(name: FuncSetName, opts: FuncSetOptions, bound: () => Template | undefined): FuncMap {
  const common = { env: opts.env ?? {}, ...(opts.now ? { now: opts.now } : {}), ...(opts.random ? { random: opts.random } : {}) };
  switch (name) {
    case 'builtin':
      return funcMap();
    case 'sprig':
      return sprigFuncs(common);
    case 'helm': {
      return helmFuncs({
        ...common,
        strict: opts.strict ?? false,
        // without a bound set, include and tpl use the template executing them
        template: () => {
          const set = bound() ?? executingTemplate();
          if (!set) throw new Error('helm functions include and tpl run only while a template executes');
          return set;
        },
      });
    }
    case 'istio':
      return istioFuncs(common);
    default:
      throw new Error(`unknown function set "${String(name)}" (want one of ${FUNC_SET_NAMES.join(', ')})`);
  }
}

export { sprigFuncs, helmFuncs, istioFuncs };
