import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromJSON, runBatch, runCase } from '../src/batch.js';
import { GO_TYPE, GoNum, mapGet, type GoMap } from '../src/go/reflect/value.js';
import { cli } from './helpers/cli.js';

describe('batch protocol', () => {
  it('decodes JSON numbers as float64, or int with dataInt', () => {
    const m = fromJSON({ a: 1, b: 1.5, c: [2] }) as GoMap;
    expect(mapGet(m, 'a')).toBe(1);
    const i = fromJSON({ a: 1, b: 1.5, c: [2], big: 1e300 }, true) as GoMap;
    expect(mapGet(i, 'a')).toBe(1n);
    expect(mapGet(i, 'b')).toBe(1.5);
    expect((mapGet(i, 'c') as unknown[])[0]).toBe(2n);
    expect(mapGet(i, 'big')).toBe(1e300);
    expect(Object.getPrototypeOf(m)).toBe(null);
    expect(m[GO_TYPE]).toBeUndefined();
    expect(mapGet(m, 'c')).not.toBeInstanceOf(GoNum);
  });

  it('reads case data nested deeper than the JavaScript stack (Go decodes it), for the library too', () => {
    let m: unknown = 'leaf';
    let l: unknown = 1;
    for (let i = 0; i < 20000; i++) {
      m = { a: m };
      l = [l];
    }
    expect(runCase({ name: 'm', template: '{{ len . }} {{ len .a }}', data: m })).toEqual({ name: 'm', output: '1 1', error: null, phase: null });
    let v = fromJSON(l, true);
    for (let i = 0; i < 20000; i++) v = (v as unknown[])[0] as never;
    expect(v).toBe(1n);
  });
  it('keeps a "__proto__" key as an ordinary map entry', () => {
    const m = fromJSON(JSON.parse('{"__proto__": "own"}')) as GoMap;
    expect(mapGet(m, '__proto__')).toBe('own');
  });

  it('names the phase of an error and keeps output written before an exec error', () => {
    expect(runCase({ name: 'p', template: '{{' })).toMatchObject({ phase: 'parse', output: '' });
    const r = runCase({ name: 'e', template: 'ab{{.x.y}}', data: { x: null } });
    expect(r.phase).toBe('exec');
    expect(r.output).toBe('ab');
    expect(r.error).toBe('template: e:1:6: executing "e" at <.x.y>: nil pointer evaluating interface {}.y');
  });

  it('reports problems of the case itself without a phase', () => {
    expect(runCase({ name: 'f', template: '', fixture: 'nope' })).toMatchObject({ phase: null, error: 'unknown fixture "nope"' });
    expect(runCase({ name: 'o', template: '', option: 'bogus' })).toMatchObject({ phase: null });
  });

  it('parses defs after the root, in byte order of their names', () => {
    const r = runCase({ name: 't', template: '{{template "a"}}', defs: { b: '{{define "x"}}B{{end}}', a: '{{define "x"}}A{{end}}{{template "x"}}' } });
    expect(r).toMatchObject({ output: 'B', error: null });
  });

  it('answers one line per case, skipping blank lines', () => {
    const out = runBatch('{"name":"a","template":"{{1}}"}\n\nnot json\n{"name":"b","template":"x"}\n');
    const lines = out.trimEnd().split('\n').map((l) => JSON.parse(l) as { name: string; output: string; error: string | null });
    expect(lines.map((l) => l.output)).toEqual(['1', '', 'x']);
    expect(lines[1]!.error).toMatch(/^bad case: /);
  });
});

describe('template command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sr-template-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tpl = join(dir, 'hello.tpl');
  const data = join(dir, 'data.yaml');
  writeFileSync(tpl, '{{.name}} {{.count}} {{printf "%T" .count}} {{.enabled}} {{index . "true"}}\n');
  // YAML 1.1 as yaml.v2 reads it: `yes` is a boolean, and so is the key `on`.
  writeFileSync(data, 'name: web\ncount: 3\nenabled: yes\non: key\n');

  it('renders a file with YAML data read as Helm reads values', async () => {
    expect(await cli('template', tpl, '--data', data)).toEqual({ code: 0, stdout: 'web 3 float64 true key\n', stderr: '' });
  });

  it('names the template after the file in errors, after writing what came before', async () => {
    const bad = join(dir, 'bad.tpl');
    writeFileSync(bad, 'before {{.x}}');
    expect(await cli('template', bad, '--data', data, '--option', 'missingkey=error')).toEqual({
      code: 2,
      stdout: 'before ',
      stderr: 'sidecar-render: template: bad.tpl:1:9: executing "bad.tpl" at <.x>: map has no entry for key "x"\n',
    });
  });
});

describe('template --option', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sr-option-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects an unknown option before any file is read, as Go\'s Option panics before Parse', async () => {
    // neither file exists: the option is what is reported
    expect(await cli('template', join(dir, 'nope.tpl'), '--data', join(dir, 'nope.yaml'), '--option', 'missingkey=bogus')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'sidecar-render: unrecognized option: missingkey=bogus\n',
    });
  });

  it('rejects it with --batch too, before reading a line', async () => {
    const r = await cli('template', '--batch', '--option', 'bogus');
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'sidecar-render: unrecognized option: bogus\n' });
  });
});

describe('invalid UTF-8 in results', () => {
  it('is written as U+FFFD per byte, as Go encoding/json does, leaving valid pairs alone', () => {
    const r = runCase({ name: 'bytes', template: '{{ printf "%s|%s" (slice "é" 0 1) "💀" }}' });
    expect(r.error).toBeNull();
    expect(r.output).toBe('\uFFFD|💀');
  });
});
