// Input loading: values as sigs.k8s.io/yaml gives them, positions, and one-line errors for bad input.
import { describe, expect, it } from 'vitest';
import { GoNil, mapGet } from '../../src/go/reflect/value.js';
import { InputError, loadYamlDocument, loadYamlDocuments } from '../../src/yaml/load.js';
import { goJsonMarshal } from '../../src/go/encoding/json/json.js';

const json = (v: unknown) => goJsonMarshal(v as never);

function err(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error('no error');
}

describe('loadYamlDocuments', () => {
  it('decodes YAML 1.1 scalars as yaml.v2 does, numbers as float64', () => {
    const [d] = loadYamlDocuments('a: yes\nb: 0x1F\nc: 017\nd: 2001-12-14\ne: ~\nf: "1"\ng: 1.0\n', 'v.yaml');
    expect(json(d!.value)).toBe('{"a":true,"b":31,"c":15,"d":"2001-12-14","e":null,"f":"1","g":1}');
  });

  it('splits documents, skips empty ones and keeps their index', () => {
    const docs = loadYamlDocuments('---\na: 1\n---\n# nothing\n---\n- x\n', 'm.yaml');
    expect(docs.map((d) => [d.index, json(d.value)])).toEqual([
      [0, '{"a":1}'],
      [2, '["x"]'],
    ]);
    expect(docs[1]!.start.line).toBe(5);
  });

  it('tells where a path is written, through aliases and merge keys', () => {
    const text = 'base: &b\n  port: 80\nsvc:\n  <<: *b\n  name: x\nlist:\n  - a\n  - b: 2\n';
    const [d] = loadYamlDocuments(text, 'p.yaml');
    expect(d!.where(['svc', 'name'])).toBe('p.yaml:5:9');
    expect(d!.where(['svc', 'port'])).toBe('p.yaml:2:9');
    expect(d!.where(['list', 1, 'b'])).toBe('p.yaml:8:8');
    expect(d!.where(['list', 7])).toBe('p.yaml:7:3');
    expect(json(mapGet(d!.value as never, 'svc'))).toBe('{"name":"x","port":80}');
  });

  it('keeps prototype-looking keys as plain data', () => {
    const [d] = loadYamlDocuments('__proto__: {polluted: 1}\nconstructor: 2\n', 'x.yaml');
    const v = d!.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(null);
    expect(json(v)).toBe('{"__proto__":{"polluted":1},"constructor":2}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads JSON with Go semantics and positions', () => {
    const [d] = loadYamlDocuments('{"a": [1, 2.5, {"b": null}]}', 'x.json');
    expect(json(d!.value)).toBe('{"a":[1,2.5,{"b":null}]}');
    expect(d!.where(['a', 2, 'b'])).toBe('x.json:1:22');
    expect(err(() => loadYamlDocuments('{"a": 1,}', 'bad.json'))).toBe("bad.json:1:9: invalid character '}' looking for beginning of object key string");
  });

  it('reports syntax errors on one line with file:line:col', () => {
    const m = err(() => loadYamlDocuments('a: 1\nb: [1, 2\nc: 3\n', 'bad.yaml'));
    expect(m).toMatch(/^bad\.yaml:\d+:\d+: \S/);
    expect(m).not.toContain('\n');
  });

  it('refuses binary and control characters', () => {
    expect(err(() => loadYamlDocuments(new Uint8Array([0x61, 0x3a, 0x20, 0xff, 0xfe]), 'bin.yaml'))).toBe('bin.yaml:1:4: invalid leading UTF-8 octet (is this a binary file?)');
    expect(err(() => loadYamlDocuments('a: 1\nb: x\u0000y\n', 'nul.yaml'))).toBe('nul.yaml:2:5: control characters are not allowed (U+0000; is this a binary file?)');
  });

  it('refuses inputs over the size limit', () => {
    expect(err(() => loadYamlDocuments('a: ' + 'x'.repeat(100), 'big.yaml', { maxBytes: 50 }))).toBe('big.yaml:1:1: input is 103 bytes, more than the limit of 50');
  });

  it('stops alias bombs', () => {
    let bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    let prev = 'a';
    for (const n of 'bcdefghi') {
      bomb += `${n}: &${n} [${Array(9).fill('*' + prev).join(',')}]\n`;
      prev = n;
    }
    expect(err(() => loadYamlDocuments(bomb, 'bomb.yaml'))).toMatch(/^bomb\.yaml:\d+:\d+: document contains excessive aliasing$/);
  });

  it('stops deep nesting', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    expect(err(() => loadYamlDocuments(deep, 'deep.yaml'))).toMatch(/^deep\.yaml:\d+:\d+: document nests (too deeply|deeper than (500|1000) levels)$/);
  });

  it('reports unknown aliases and values JSON cannot hold where they are', () => {
    expect(err(() => loadYamlDocuments('a: 1\nb: *nope\n', 'x.yaml'))).toBe("x.yaml:2:4: unknown anchor 'nope' referenced");
    expect(err(() => loadYamlDocuments('a: 1\nb: .inf\n', 'x.yaml'))).toBe('x.yaml:2:4: json: unsupported value: +Inf');
  });

  it('loadYamlDocument wants exactly one document', () => {
    expect(err(() => loadYamlDocument('', 'e.yaml'))).toBe('e.yaml:1:1: no document found');
    expect(err(() => loadYamlDocument('a: 1\n---\nb: 2\n', 'two.yaml'))).toBe('two.yaml:2:1: expected one document, found 2');
    expect(loadYamlDocument('x: 1', 'one.yaml').value).not.toBeInstanceOf(GoNil);
  });
});
