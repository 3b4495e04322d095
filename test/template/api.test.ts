// The Template API and the parse tree, checked against what Go's text/template does (the expected
// texts below were produced by a Go 1.19 program doing the same calls).

import { describe, expect, it } from 'vitest';
import { ExecError, LimitError, ParseError, Template } from '../../src/go/text/template/template.js';
import { GoError, def, newMap, type GoValue } from '../../src/go/reflect/value.js';

function run(t: Template, data: GoValue = undefined, name?: string): string {
  try {
    return `out=${JSON.stringify(name ? t.executeTemplate(name, data) : t.execute(data))}`;
  } catch (e) {
    const x = e as ExecError;
    return `out=${JSON.stringify(x.output ?? '')} err=${JSON.stringify(x.message)}`;
  }
}

function map(o: Record<string, GoValue>): GoValue {
  return Object.assign(newMap(), o);
}

describe('Template API (as Go)', () => {
  it('clone: parsing into the copy leaves the original alone', () => {
    const t = new Template('t').parse('{{define "a"}}A{{end}}[{{template "a"}}]');
    const c = t.clone();
    c.parse('{{define "a"}}B{{end}}');
    expect([run(t), run(c)]).toEqual(['out="[A]"', 'out="[B]"']);
  });

  it('executeTemplate of an unknown name', () => {
    expect(run(new Template('t').parse('x'), undefined, 'zz')).toBe(
      'out="" err="template: no template \\"zz\\" associated with template \\"t\\""',
    );
  });

  it('execute before parse', () => {
    expect(run(new Template('e'))).toBe('out="" err="template: e: \\"e\\" is an incomplete or empty template"');
  });

  it('custom delimiters, with trim markers', () => {
    const t = new Template('d').delims('<<', '>>').parse('<<.a>> {{.a}} <<- " x " ->> y');
    expect(run(t, map({ a: 1 }))).toBe('out="1 {{.a}} x y"');
  });

  it('an unknown function is a parse error', () => {
    expect(() => new Template('f').parse('{{f 1}}')).toThrow(new ParseError('template: f:1: function "f" not defined', 'f', 1, 2));
  });

  it('functions added before parse are callable; their errors are wrapped', () => {
    const t = new Template('t')
      .funcs({
        up: def('up', 'func(string) string', (s: string) => s.toUpperCase()),
        fail: def('fail', 'func() (string, error)', () => {
          throw new GoError('boom');
        }),
      })
      .parse('{{up "a"}}-{{fail}}');
    expect(run(t)).toBe('out="A-" err="template: t:1:13: executing \\"t\\" at <fail>: error calling fail: boom"');
  });

  it('lookup, templates, new', () => {
    const t = new Template('root').parse('{{define "x"}}X{{end}}R');
    expect(t.lookup('x')?.name()).toBe('x');
    expect(t.lookup('nope')).toBeUndefined();
    expect(t.templates().map((x) => x.name()).sort()).toEqual(['root', 'x']);
    t.new('y').parse('Y{{template "x"}}');
    expect(run(t, undefined, 'y')).toBe('out="YX"');
  });

  it('options: bad option names throw like Go panics', () => {
    expect(() => new Template('t').option('missingkey=nope')).toThrow('unrecognized option: missingkey=nope');
    expect(() => new Template('t').option('')).toThrow('empty option string');
  });

  it('ExecError carries name, line, column and the output written before it', () => {
    const t = new Template('t').parse('ab\ncd{{.a.b}}');
    try {
      t.execute(map({ a: null }));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ExecError);
      const x = e as ExecError;
      expect([x.templateName, x.line, x.col, x.output]).toEqual(['t', 2, 6, 'ab\ncd']);
      expect(x.message).toBe('template: t:2:6: executing "t" at <.a.b>: nil pointer evaluating interface {}.b');
    }
  });

  it('a compiled template is reused across executions with different data', () => {
    const t = new Template('t').parse('{{range .}}{{.}},{{end}}');
    expect(t.execute([1n, 2n])).toBe('1,2,');
    expect(t.execute(['x'])).toBe('x,');
  });
});

describe('limits', () => {
  it('maximum output bytes', () => {
    const t = new Template('t').parse('{{range .}}0123456789{{end}}');
    expect(() => t.execute(Array(100).fill(0n), { maxOutputBytes: 500 })).toThrow(LimitError);
    expect(t.execute(Array(10).fill(0n), { maxOutputBytes: 500 })).toHaveLength(100);
  });

  it('maximum range iterations', () => {
    const t = new Template('t').parse('{{range .}}{{range .}}x{{end}}{{end}}');
    const data = [Array(10).fill(0n), Array(10).fill(0n)];
    expect(() => t.execute(data, { maxRangeIterations: 15 })).toThrow(/range iterations exceed the limit of 15/);
    expect(t.execute(data, { maxRangeIterations: 22 })).toHaveLength(20);
  });

  it('maximum template depth', () => {
    const t = new Template('t').parse('{{define "r"}}{{template "r" .}}{{end}}{{template "r"}}');
    expect(() => t.execute(null, { maxTemplateDepth: 50 })).toThrow(/exceeded maximum template depth \(50\)/);
  });

  it('wall time', () => {
    const t = new Template('t').parse('{{range .}}{{range .}}{{range .}}x{{end}}{{end}}{{end}}');
    const l = Array(200).fill(0n);
    const l2 = Array(200).fill(l);
    expect(() => t.execute(Array(200).fill(l2), { timeoutMs: 1 })).toThrow(/time limit/);
  });

  it('unbounded recursion reports Go\'s depth error', () => {
    const t = new Template('t').parse('pre-{{define "r"}}{{template "r" .}}{{end}}{{template "r" .}}');
    expect(run(t)).toBe(
      'out="pre-" err="template: t:1:29: executing \\"r\\" at <{{template \\"r\\" .}}>: exceeded maximum template depth (100000)"',
    );
  });
});

// Tree printing: node String() as Go prints it (else-if prints as a nested if, as Go's does).
const printed: [string, string][] = [
  ['{{if .a}}x{{else if .b}}y{{else}}z{{end}}', '{{if .a}}x{{else}}{{if .b}}y{{else}}z{{end}}{{end}}'],
  ['{{range $i, $v := .}}{{$i}}{{break}}{{continue}}{{else}}e{{end}}', '{{range $i, $v := .}}{{$i}}{{break}}{{continue}}{{else}}e{{end}}'],
  ['{{with $x := .a | printf "%v" | len}}{{$x = 3}}{{end}}', '{{with $x := .a | printf "%v" | len}}{{$x := 3}}{{end}}'],
  ['{{/* c */}}{{- .a -}} {{(.b).x}}', '{{.a}}{{(.b).x}}'],
  ['{{template "x" (index . "a" 1)}}{{block "b" .}}in{{end}}', '{{template "x" (index . "a" 1)}}{{template "b" .}}'],
  ["{{print \"q\\n\" `raw` 'c' 0x1F 1e3 -2 nil true}}", "{{print \"q\\n\" `raw` 'c' 0x1F 1e3 -2 nil true}}"],
];

describe('parse tree printing', () => {
  for (const [src, want] of printed) {
    it(src, () => {
      const t = new Template('p').parse(src);
      expect(t.tree!.root!.toString()).toBe(want);
      // printing is a fixed point: the printed source parses to a tree that prints the same
      expect(new Template('p').parse(want).tree!.root!.toString()).toBe(want);
    });
  }
});
