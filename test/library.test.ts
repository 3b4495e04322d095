// The library behaves as the README shows it: each call as consistent as the command line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Template, ParseError, funcMap, def } from '../src/go/text/template/template.js';
import { funcSet } from '../src/funcs/index.js';
import { audit, auditDetailed, InputError } from '../src/audit/index.js';
import { renderRequest } from '../src/output/render.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const ex = (f: string) => join(root, 'examples', f);
const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-lib-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('funcSet("helm") without a bound template set', () => {
  it('include and tpl run against the template executing them', () => {
    const mine = funcMap(funcSet('helm'), { shout: def('shout', 'func(string) string', (s: string) => s.toUpperCase() + '!') });
    const t = new Template('page').funcs(mine);
    t.parse('{{ define "item" }}<{{ . }}>{{ end }}{{ include "item" .a | shout }} {{ tpl "{{ include \\"item\\" .b }}" . }}');
    expect(t.execute({ a: 'x', b: 'y' })).toBe('<X>! <y>');
    // one map shared by two template sets: each include finds its own set's definitions
    const u = new Template('other').funcs(mine).parse('{{ define "item" }}[{{ . }}]{{ end }}{{ include "item" 1 }}');
    expect(u.execute(null)).toBe('[1]');
    expect(t.execute({ a: 'z', b: 'w' })).toBe('<Z>! <w>');
  });

  it('include outside any execution is a clear error, not a crash', () => {
    const include = funcSet('helm').include as unknown as { fn: (...a: unknown[]) => unknown } | ((...a: unknown[]) => unknown);
    const call = typeof include === 'function' ? include : include.fn;
    expect(() => call('x', null)).toThrow(/include and tpl run only while a template executes/);
  });
});

describe('ParseError positions', () => {
  it('col is the 0-based column, in its line, of the token where parsing stopped (as an ExecError counts columns)', () => {
    for (const [src, line, token] of [
      ['a\n  {{ nope }}', 2, 'nope'],
      ['x\n{{ define "a" }}\n\t{{ if }}{{ end }}{{ end }}', 3, '}}'],
      ['ab {{ end }}', 1, '}}'],
    ] as const) {
      let err: unknown;
      try {
        new Template('p').parse(src);
      } catch (e) {
        err = e;
      }
      expect(err, src).toBeInstanceOf(ParseError);
      const e = err as ParseError;
      expect(e.line, src).toBe(line);
      const text = src.split('\n')[line - 1]!;
      expect(e.col, src).toBe(text.indexOf(token));
    }
  });

  it('a parse error in an injector ConfigMap is reported at the file column of the token', () => {
    const cm = readFileSync(ex('istio-sidecar-injector.yaml'), 'utf8').replace('{{ index .ObjectMeta.Labels', '{{ nosuchfunc .ObjectMeta.Labels');
    const file = join(dir, 'cm.yaml');
    writeFileSync(file, cm);
    const lines = cm.split('\n');
    const n = lines.findIndex((l) => l.includes('nosuchfunc'));
    let msg = '';
    try {
      renderRequest({ injectorConfigMap: file, workloads: ex('deployment.yaml') });
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toContain(`${file}:${n + 1}:${lines[n]!.indexOf('nosuchfunc') + 1}: `);
  });
});

describe('audit() takes paths, as renderRequest does', () => {
  it('a string is a file to read; {name, text} is text', () => {
    const byPath = audit([ex('deployment.yaml')], { injectorConfigMap: ex('istio-sidecar-injector.yaml'), mesh: ex('istio-mesh.yaml') });
    const text = (f: string) => ({ name: f, text: readFileSync(f, 'utf8') });
    const byText = audit([text(ex('deployment.yaml'))], { injectorConfigMap: text(ex('istio-sidecar-injector.yaml')), mesh: text(ex('istio-mesh.yaml')) });
    expect(byPath).toEqual(byText);
    expect(auditDetailed([ex('deployment.yaml')]).subjects.map((s) => s.workload.id)).toEqual(['Deployment/bookinfo/reviews']);
    expect(() => audit([join(dir, 'missing.yaml')])).toThrow(InputError);
    expect(() => audit([join(dir, 'missing.yaml')])).toThrow(/missing\.yaml: no such file/);
  });
});
