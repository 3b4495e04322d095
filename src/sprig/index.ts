// Sprig v3's TxtFuncMap, assembled from one table per Sprig group. Adding a function is adding an
// entry to its group's table.
//
// Mirrors: github.com/Masterminds/sprig/v3 functions.go (TxtFuncMap)
// Proven by: test/vectors/sprig/

import { funcMap, type FuncMap } from '../go/reflect/value.js';
import { cryptoFuncs } from './crypto.js';
import { dateFuncs } from './date.js';
import { defaultFuncs } from './defaults.js';
import { dictFuncs } from './dicts.js';
import { encodingFuncs } from './encoding.js';
import { listFuncs } from './lists.js';
import { numericFuncs } from './numeric.js';
import { osFuncs } from './os.js';
import { pathFuncs } from './paths.js';
import { randomFuncs } from './random.js';
import { reflectFuncs } from './reflect.js';
import { regexFuncs } from './regex.js';
import { semverFuncs } from './semver.js';
import { stringFuncs } from './strings.js';
import { stringSliceFuncs } from './stringslice.js';
import { urlFuncs } from './url.js';
import type { SprigContext } from './util.js';

export interface SprigOptions {
  /** The clock for now, date, ago, ... (default: the system clock). */
  now?: () => Date;
  /** Uniform numbers in [0, 1) for rand*, shuffle, uuidv4, bcrypt salts, AES IVs (default: Math.random). */
  random?: () => number;
  /** The environment `env` and `expandenv` read (default: empty; the process environment is never read). */
  env?: Record<string, string>;
}

/** Every function of Sprig v3's TxtFuncMap. */
export function sprigFuncs(opts: SprigOptions = {}): FuncMap {
  const ctx: SprigContext = {
    now: opts.now ?? (() => new Date()),
    random: opts.random ?? Math.random,
    env: opts.env ?? {},
  };
  return funcMap(
    stringFuncs(ctx),
    stringSliceFuncs(),
    numericFuncs(ctx),
    defaultFuncs(),
    encodingFuncs(),
    listFuncs(),
    dictFuncs(),
    reflectFuncs(),
    regexFuncs(),
    semverFuncs(),
    pathFuncs(),
    urlFuncs(),
    cryptoFuncs(ctx),
    dateFuncs(ctx),
    randomFuncs(ctx),
    osFuncs(ctx),
  );
}

export type { SprigContext };
