// Deeply nested data given to printing and serializing functions. Where the JavaScript stack ends
// before Go's own limits, the result is a one-line LimitError, never a raw RangeError and never a
// silently wrong result: toYaml of a 3000-deep map used to return "" (Helm's answer for a value Go
// cannot marshal) where Go writes it. (fromJson to Go's 10,000 levels: test/vectors/hardening/deep-json.)

import { describe, expect, it } from 'vitest';
import { LimitError, Template } from '../../src/go/text/template/template.js';
import { funcSet } from '../../src/funcs/index.js';

const deepMap = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};
const deepList = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = [v];
  return v;
};

function run(src: string, data: unknown, set: 'helm' | 'istio' = 'helm'): { output?: string; error?: unknown } {
  const t = new Template('t');
  t.funcs(funcSet(set, { template: t }));
  t.parse(src);
  try {
    return { output: t.execute(data as never) };
  } catch (e) {
    return { error: e };
  }
}

describe('deep data', () => {
  it.each([
    ['toYaml', '{{ toYaml . | len }}', deepMap(3000)],
    ['toYaml deeper', '{{ toYaml . | len }}', deepMap(6000)],
    ['toJson', '{{ toJson . | len }}', deepMap(20000)],
    ['print', '{{ print . | len }}', deepList(20000)],
    ['printf', '{{ printf "%v" . | len }}', deepMap(20000)],
  ])('%s: Go output or a one-line limit error, never a silent ""', (_what, src, data) => {
    const r = run(src, data);
    if (r.error === undefined) {
      expect(Number(r.output)).toBeGreaterThan(1000);
      return;
    }
    expect(r.error).toBeInstanceOf(LimitError);
    expect((r.error as Error).message).not.toContain('\n');
    expect((r.error as Error).message).toMatch(/nesting exceeds the JavaScript call stack/);
  });
  it("istio's structToJSON and toJSON do not hide a stack overflow as {}", () => {
    const r = run('{{ structToJSON . }}', deepMap(20000), 'istio');
    expect(r.output).not.toBe('{}');
  });
  it('shallow values still go through', () => {
    expect(run('{{ toYaml . }}', deepMap(3))).toEqual({ output: 'a:\n  a:\n    a: 1' });
  });
});
