// node:module in the playground's bundle. The library loads yaml, re2js and ajv with createRequire on
// first use, to keep them off the CLI's start-up; here the first two are bundled and handed over as
// require would. ajv compiles schemas other than the bundled validators' (a chart's
// values.schema.json), which the page never gives it.

import * as yaml from 'yaml';
import { RE2JS } from 're2js';

const MODULES: Record<string, unknown> = { yaml, re2js: { RE2JS } };

export function createRequire(_url: string): (id: string) => unknown {
  return (id: string) => {
    const m = MODULES[id];
    if (m === undefined) throw new Error(`${id} is not part of the playground's bundle`);
    return m;
  };
}
