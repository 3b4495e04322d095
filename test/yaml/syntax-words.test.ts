// A syntax error in a file (workloads, ConfigMaps, values) is worded as yaml.v2 words it, as fromYaml
// already words it, at our own line and column: before, the `yaml` package's own texts ("Implicit map
// keys need to be followed by map values") reached users who compare with Helm's and kubectl's. Go's
// answers (tools/yamlcheck) beside each case.

import { describe, expect, it } from 'vitest';
import { InputError, loadYamlDocuments } from '../../src/yaml/load.js';

describe("syntax errors in yaml.v2's words", () => {
  it.each([
    // Go: yaml: line 3: could not find expected ':'
    ['a: x\ny\n', "could not find expected ':'"],
    // Go: yaml: line 2: found unexpected end of stream
    ['a: "x\n', 'found unexpected end of stream'],
    // Go: yaml: line 1: did not find expected ',' or ']'
    ['a: [1, 2\n', "did not find expected ',' or ']'"],
    // Go: yaml: line 1: did not find expected ',' or '}'
    ['a: {b: 1\n', "did not find expected ',' or '}'"],
    // Go: yaml: line 2: mapping values are not allowed in this context
    ['a: 1\n b: 2\n', 'mapping values are not allowed in this context'],
    // Go: yaml: mapping values are not allowed in this context
    ['a: b: c\n', 'mapping values are not allowed in this context'],
  ])('%j', (text, words) => {
    let err: unknown;
    try {
      loadYamlDocuments(text, 'v.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(new RegExp(`^v\\.yaml:\\d+:\\d+: ${words.replace(/[[\]{}()]/g, '\\$&')}$`));
  });
});
