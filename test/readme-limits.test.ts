// The README's Limits table says what the code enforces: each row that names a bound is held to the
// constant the code uses, so the table cannot drift from the code.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_CHART_DEPTH, MAX_FILES, MAX_TREE_BYTES, MAX_TREE_CHARTS, MAX_TREE_FILES } from '../src/helm/chart.js';
import { MAX_TAR_BYTES } from '../src/helm/tar.js';
import { MAX_IGNORE_RULES, MAX_IGNORE_STEPS } from '../src/helm/ignore.js';
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from '../src/helm/schema.js';
import { HELM_INCLUDE_MAX, TPL_MAX } from '../src/helm/funcs.js';
import { MAX_INPUT_BYTES } from '../src/guard/fs.js';
import { DEFAULT_MAX_LIST_LENGTH } from '../src/guard/limits.js';
import { MAX_CASES } from '../src/golden/matrix.js';
import { MAX_EXEC_DEPTH } from '../src/go/text/template/exec.js';
import { GO_YAML_MAX_DEPTH } from '../src/yaml/yamllib.js';
import { DEFAULT_TIMEOUT_MS } from '../src/cli/limits.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const section = readme.slice(readme.indexOf('\n## Limits\n'), readme.indexOf('\n## ', readme.indexOf('\n## Limits\n') + 5));

/** The bound cell of the row whose first cell starts with `what`. */
function bound(what: string): string {
  const row = section.split('\n').find((l) => l.startsWith(`| ${what}`));
  expect(row, `a row for ${what}`).toBeDefined();
  return row!.split(' | ')[1]!;
}

const count = (n: number): string => n.toLocaleString('en-US');
const bytes = (n: number): string => (n % 1024 ** 3 === 0 ? `${n / 1024 ** 3} GiB` : `${n / 1024 ** 2} MiB`);

describe('the README Limits table', () => {
  it('is there', () => expect(section).toContain('| what | bound |'));

  it.each([
    ['one input file', bytes(MAX_INPUT_BYTES)],
    ['YAML nesting', count(GO_YAML_MAX_DEPTH)],
    ['template execution: wall time', `${DEFAULT_TIMEOUT_MS / 1000} s`],
    ['nested `template`', count(MAX_EXEC_DEPTH)],
    ['`include` or `tpl` of one name', count(HELM_INCLUDE_MAX)],
    ['nested `tpl` calls', count(TPL_MAX)],
    ['one list a function makes', count(DEFAULT_MAX_LIST_LENGTH)],
    ['files in one chart', count(MAX_FILES)],
    ['charts in one tree', count(MAX_TREE_CHARTS)],
    ['charts in one tree', `${MAX_CHART_DEPTH} deep`],
    ['files in one tree', count(MAX_TREE_FILES)],
    ['bytes of files in one tree', bytes(MAX_TREE_BYTES)],
    ['a chart archive', bytes(MAX_TAR_BYTES)],
    ['`.helmignore`', `${count(MAX_IGNORE_RULES)} rules`],
    ['`.helmignore`', `${count(MAX_IGNORE_STEPS)} matching steps`],
    ['`values.schema.json`', `${count(MAX_SCHEMA_NODES)} subschemas`],
    ['`values.schema.json`', `nested ${count(MAX_SCHEMA_DEPTH)} deep`],
    ['a golden matrix', `${count(MAX_CASES)} cases`],
  ])('%s: %s', (what, text) => {
    expect(bound(what)).toContain(text);
  });
});
