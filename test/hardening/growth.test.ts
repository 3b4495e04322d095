// Strings that grow by doubling end at the value limit, whatever function builds them: the engine
// checks every string a function returns (limits.ts checkResult), so no function needs its own count.
// They used to end in a heap abort or V8's raw "Invalid string length", and a 90 MB `print` passed
// the 64 MiB --max-value.

import { describe, expect, it } from 'vitest';
import { LimitError, Template, type ExecOptions } from '../../src/go/text/template/template.js';
import { funcSet } from '../../src/funcs/index.js';

function run(src: string, opts: ExecOptions, set: 'sprig' | 'helm' = 'helm'): { output?: string; error?: unknown } {
  const t = new Template('t');
  t.funcs(funcSet(set, { template: t }));
  t.parse(src);
  try {
    return { output: t.execute({}, opts) };
  } catch (e) {
    return { error: e };
  }
}

const MiB = 1024 * 1024;
/** $s doubles (at least) 40 times through expr. */
const doubling = (expr: string, pre = '') => `${pre}{{ $s := "0123456789abcdef" }}{{ range until 40 }}{{ $s = ${expr} }}{{ end }}{{ len $s }}`;

describe('doubling strings stop at maxValueBytes', () => {
  const cases: Array<[string, string, 'sprig' | 'helm']> = [
    ['toJson', doubling('toJson (list $s $s)'), 'helm'],
    ['sprig toJson', doubling('toJson (list $s $s)'), 'sprig'],
    ['toPrettyJson', doubling('toPrettyJson (list $s $s)'), 'sprig'],
    ['print', doubling('print $s $s'), 'helm'],
    ['printf', doubling('printf "%s%s" $s $s'), 'helm'],
    ['cat', doubling('cat $s $s'), 'helm'],
    ['quote', doubling('quote $s $s'), 'helm'],
    ['join', doubling('join "" (list $s $s)'), 'helm'],
    ['upper', doubling('upper (printf "%s%s" $s $s)'), 'helm'],
    ['include', doubling('include "d" $s', '{{ define "d" }}{{ . }}{{ . }}{{ end }}'), 'helm'],
    ['tpl', doubling('tpl "{{ . }}{{ . }}" $s'), 'helm'],
    ['toYaml', doubling('toYaml (list $s $s)'), 'helm'],
    ['b64enc', doubling('b64enc (print $s $s)'), 'helm'],
    ['replace', doubling('replace "a" "aa" (print $s "a")'), 'helm'],
  ];
  // no wall-clock bound here (a loaded machine is no failure): the test's own timeout stops a run that never ends
  it.each(cases)('%s', (_what, src, set) => {
    const r = run(src, { maxValueBytes: 4 * MiB }, set);
    expect(r.error, String(r.output ?? '').slice(0, 100)).toBeInstanceOf(LimitError);
    const msg = (r.error as Error).message;
    expect(msg).toMatch(/exceeds the limit of 4194304 bytes per value$/);
    expect(msg).not.toContain('\n');
  });

  it('a printed value larger than the limit is refused even when no argument was', () => {
    const src = '{{ $s := repeat 600000 "ab" }}{{ print $s $s | len }}';
    expect(run(src, { maxValueBytes: 2 * MiB }).error).toBeInstanceOf(LimitError);
    expect(run(src, { maxValueBytes: 3 * MiB })).toEqual({ output: '2400000' });
    const list = '{{ $s := repeat 600000 "ab" }}{{ print (list $s $s) | len }}';
    expect(run(list, { maxValueBytes: 2 * MiB }).error).toBeInstanceOf(LimitError);
  });

  it('counts UTF-8 bytes, not UTF-16 units', () => {
    const src = '{{ $s := repeat 400000 "€" }}{{ print $s | len }}';
    expect(run(src, { maxValueBytes: 1_300_000 })).toEqual({ output: '1200000' });
    expect((run(src, { maxValueBytes: 1_100_000 }).error as Error).message).toMatch(/result of 1200000 bytes exceeds the limit of 1100000 bytes per value$/);
  });

  it("JavaScript's own string length is a limit error, not a raw RangeError", () => {
    const src = '{{ $s := repeat 1000000 "x" }}{{ $l := list }}{{ range until 700 }}{{ $l = append $l $s }}{{ end }}{{ join "" $l | len }}';
    const r = run(src, { maxValueBytes: 2 ** 40, maxBuiltBytes: 2 ** 40 });
    expect(r.error).toBeInstanceOf(LimitError);
    expect((r.error as Error).message).toMatch(/error calling join: result exceeds the limit of \d+ bytes per value$/);
  });

  it('strings functions return count toward maxBuiltBytes', () => {
    const src = '{{ $s := repeat 100000 "x" }}{{ range until 100 }}{{ $t := print $s "y" }}{{ end }}done';
    expect(run(src, {})).toEqual({ output: 'done' });
    const r = run(src, { maxBuiltBytes: 5 * MiB });
    expect((r.error as Error).message).toMatch(/values built by functions exceed the limit of 5242880 bytes per execution$/);
  });
});
