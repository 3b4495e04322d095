// re2js, loaded on first use: it is a large module, and most renders call no regular-expression or
// semver function, so the CLI does not pay for loading it at start-up.
//
// Upstream: none (loads re2js on first use)

import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

let loaded: typeof RE2JS | undefined;

/** The RE2JS class (re2js's CommonJS build, required synchronously the first time). */
export function re2(): typeof RE2JS {
  loaded ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return loaded;
}
