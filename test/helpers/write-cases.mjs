// Writing a case file for the generators (vector inputs, hostile cases): JSON Lines, one case a line.
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';

/** Write cases to path, one JSON object a line; a name used twice is refused, since results are matched by name. */
export function writeCases(path, cases) {
  const seen = new Set();
  for (const c of cases) {
    if (seen.has(c.name)) throw new Error('duplicate case ' + c.name);
    seen.add(c.name);
  }
  writeFileSync(path, cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  console.log(basename(path), cases.length);
}
