// encoding/json over typed values (structs, tags, omitempty, embedding, MarshalJSON, unsupported
// values) and the toYaml of the same values. Expected texts were produced by Go 1.19 with
// encoding/json and sigs.k8s.io/yaml on the equivalent Go types (listed in each row's comment).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GoNil,
  GoNum,
  GoStruct,
  GoFunc,
  RecordStruct,
  T,
  mapOf,
  newMap,
  ptrTo,
  sliceOf,
  withType,
  type GoType,
  type GoValue,
  type StructField,
} from '../../src/go/reflect/value.js';
import { GoJsonError, goJsonMarshal, goJsonUnmarshal, parseJson } from '../../src/go/encoding/json/json.js';
import { GoYamlError, toYaml } from '../../src/yaml/emit.js';

const f = (name: string, json: string, type: GoType, extra: Partial<StructField> = {}): StructField => ({ name, json, type, ...extra });
const st = (name: string, fields: StructField[]): GoType => ({ kind: 'struct', name, fields });

// type Inner struct { A string `json:"a"`; B int `json:"b,omitempty"` }
const InnerT = st('main.Inner', [f('A', 'a', T.string), f('B', 'b', T.int, { omitempty: true })]);
// type Base struct { Name string `json:"name"`; Kind string `json:"kind,omitempty"` }
const BaseT = st('main.Base', [f('Name', 'name', T.string), f('Kind', 'kind', T.string, { omitempty: true })]);
// type Other struct { Name string `json:"name"`; Extra string `json:"extra"` }
const OtherT = st('main.Other', [f('Name', 'name', T.string), f('Extra', 'extra', T.string)]);
const TaggedT = st('main.Tagged', [
  f('Base', '', BaseT, { embedded: true }),
  f('Name2', 'name2', T.string),
  f('Skip', '-', T.string),
  f('Opt', 'opt', ptrTo(InnerT), { omitempty: true }),
  f('Nil', 'nil', ptrTo(InnerT)),
  f('Zero', 'zero', T.int, { omitempty: true }),
  f('F', 'f', T.float64, { omitempty: true }),
  f('Bo', 'bo', T.bool, { omitempty: true }),
  f('S', 's', T.string, { omitempty: true }),
  f('L', 'l', sliceOf(T.string), { omitempty: true }),
  f('M', 'm', mapOf(T.string, T.string), { omitempty: true }),
  f('EL', 'el', sliceOf(T.string)),
  f('I', 'i', T.iface, { omitempty: true }),
  f('Inner', 'inner', InnerT, { omitempty: true }),
  f('Untagged', '', T.string),
]);
const ConflictT = st('main.Conflict', [f('Base', '', BaseT, { embedded: true }), f('Other', '', OtherT, { embedded: true })]);
const ShadowT = st('main.Shadow', [f('Base', '', BaseT, { embedded: true }), f('Name', 'name', T.string)]);
const PtrEmbedT = st('main.PtrEmbed', [f('Base', '', ptrTo(BaseT), { embedded: true }), f('X', 'x', T.int)]);
// func (d Dur) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(`"%ds" `, int64(d))), nil }
const DurT: GoType = { kind: 'int64', name: 'main.Dur', marshalJSON: (v) => `"${(v as GoNum).v}s" ` };
// func (Raw) MarshalJSON() ([]byte, error) { return []byte(` { "z" : [1, 2], "a":"<x>" } `), nil }
const RawT: GoType = { kind: 'struct', name: 'main.Raw', fields: [], marshalJSON: () => ' { "z" : [1, 2], "a":"<x>" } ' };
// func (Bad) MarshalJSON() ([]byte, error) { return nil, errors.New("nope") }
const BadT: GoType = {
  kind: 'struct',
  name: 'main.Bad',
  fields: [],
  marshalJSON: () => {
    throw new Error('nope');
  },
};

const m = (o: Record<string, GoValue>): GoValue => Object.assign(newMap(), o);
const selfMap = newMap();
selfMap['self'] = selfMap;

interface Row {
  name: string;
  v: GoValue;
  json: string;
  yaml: string;
  indent?: string;
  error?: string;
}

const rows: Row[] = [
  {
    name: 'tagged-zero',
    v: new RecordStruct(TaggedT, {}),
    json: '{"name":"","name2":"","nil":null,"el":null,"inner":{"a":""},"Untagged":""}',
    yaml: 'Untagged: ""\nel: null\ninner:\n  a: ""\nname: ""\nname2: ""\nnil: null\n',
    indent: '{\n>\t"name": "",\n>\t"name2": "",\n>\t"nil": null,\n>\t"el": null,\n>\t"inner": {\n>\t\t"a": ""\n>\t},\n>\t"Untagged": ""\n>}',
  },
  {
    name: 'tagged-full',
    v: new RecordStruct(TaggedT, {
      Base: new RecordStruct(BaseT, { Name: 'n', Kind: 'k' }),
      Name2: 'x',
      Skip: 's',
      Opt: new RecordStruct(InnerT, { A: 'a', B: 2n }, true),
      Zero: 1n,
      F: 0.5,
      Bo: true,
      S: 's',
      L: withType(['a'], sliceOf(T.string)),
      M: withType(m({ b: '1', a: '2' }) as never, mapOf(T.string, T.string)),
      EL: withType([], sliceOf(T.string)),
      I: 0n,
      Untagged: 'u',
    }),
    json: '{"name":"n","kind":"k","name2":"x","opt":{"a":"a","b":2},"nil":null,"zero":1,"f":0.5,"bo":true,"s":"s","l":["a"],"m":{"a":"2","b":"1"},"el":[],"i":0,"inner":{"a":""},"Untagged":"u"}',
    yaml: 'Untagged: u\nbo: true\nel: []\nf: 0.5\ni: 0\ninner:\n  a: ""\nkind: k\nl:\n- a\nm:\n  a: "2"\n  b: "1"\nname: "n"\nname2: x\nnil: null\nopt:\n  a: a\n  b: 2\ns: s\nzero: 1\n',
  },
  {
    name: 'conflict',
    v: new RecordStruct(ConflictT, { Base: new RecordStruct(BaseT, { Name: 'b' }), Other: new RecordStruct(OtherT, { Name: 'o', Extra: 'e' }) }),
    json: '{"extra":"e"}',
    yaml: 'extra: e\n',
  },
  { name: 'shadow', v: new RecordStruct(ShadowT, { Base: new RecordStruct(BaseT, { Name: 'inner' }), Name: 'outer' }), json: '{"name":"outer"}', yaml: 'name: outer\n' },
  { name: 'ptr-embed-nil', v: new RecordStruct(PtrEmbedT, { X: 1n }), json: '{"x":1}', yaml: 'x: 1\n' },
  { name: 'ptr-embed', v: new RecordStruct(PtrEmbedT, { Base: new RecordStruct(BaseT, { Name: 'p' }, true), X: 1n }), json: '{"name":"p","x":1}', yaml: 'name: p\nx: 1\n' },
  {
    name: 'hook',
    v: m({ d: new GoNum(DurT, 5n), r: new RecordStruct(RawT, {}) }),
    json: '{"d":"5s","r":{"z":[1,2],"a":"\\u003cx\\u003e"}}',
    yaml: 'd: 5s\nr:\n  a: <x>\n  z:\n  - 1\n  - 2\n',
    indent: '{\n>\t"d": "5s",\n>\t"r": {\n>\t\t"z": [\n>\t\t\t1,\n>\t\t\t2\n>\t\t],\n>\t\t"a": "\\u003cx\\u003e"\n>\t}\n>}',
  },
  { name: 'hook-err', v: m({ b: new RecordStruct(BadT, {}) }), json: '', yaml: '', error: 'json: error calling MarshalJSON for type main.Bad: nope' },
  { name: 'nan', v: [NaN], json: '', yaml: '', error: 'json: unsupported value: NaN' },
  { name: 'neginf', v: -Infinity, json: '', yaml: '', error: 'json: unsupported value: -Inf' },
  {
    name: 'f32',
    v: [0.1, 1e21, 1e-7, 16777217].map((x) => new GoNum(T.float32, Math.fround(x))),
    json: '[0.1,1e+21,1e-7,16777216]',
    yaml: '- 0.1\n- 1e+21\n- 1e-07\n- 16777216\n',
  },
  { name: 'bytes', v: withType([0, 255, 10].map((x) => new GoNum(T.uint8, BigInt(x))), sliceOf(T.uint8)), json: '"AP8K"', yaml: 'AP8K\n' },
  { name: 'cycle', v: selfMap, json: '', yaml: '', error: 'json: unsupported value: encountered a cycle via map[string]interface {}' },
  { name: 'func', v: new GoFunc('f', [], false, 1, T.string, () => ''), json: '', yaml: '', error: 'json: unsupported type: func() string' },
  { name: 'complex', v: new GoNum({ kind: 'complex128', name: 'complex128' }, 0), json: '', yaml: '', error: 'json: unsupported type: complex128' },
  { name: 'chan', v: new GoNil({ kind: 'chan', name: 'chan int' }), json: '', yaml: '', error: 'json: unsupported type: chan int' },
  {
    name: 'empty-indent',
    v: m({ a: withType([], sliceOf(T.int)), b: withType(newMap(), mapOf(T.string, T.int)), c: withType([1n], sliceOf(T.int)) }),
    json: '{"a":[],"b":{},"c":[1]}',
    yaml: 'a: []\nb: {}\nc:\n- 1\n',
    indent: '{\n>\t"a": [],\n>\t"b": {},\n>\t"c": [\n>\t\t1\n>\t]\n>}',
  },
];

describe('goJsonMarshal and toYaml on typed values', () => {
  for (const r of rows) {
    it(r.name, () => {
      if (r.error) {
        expect(() => goJsonMarshal(r.v)).toThrow(new GoJsonError(r.error));
        expect(() => toYaml(r.v)).toThrow(new GoYamlError('error marshaling into JSON: ' + r.error));
        return;
      }
      expect(goJsonMarshal(r.v)).toBe(r.json);
      expect(toYaml(r.v)).toBe(r.yaml);
      if (r.indent) expect(goJsonMarshal(r.v, { prefix: '>', indent: '\t' })).toBe(r.indent);
    });
  }
  it('SetEscapeHTML(false) keeps <>& but still escapes U+2028', () => {
    expect(goJsonMarshal('<a>&\u2028', { escapeHTML: false })).toBe('"<a>&\\u2028"');
  });
  it('a struct value is never a map: GoStruct subclasses marshal by their declared fields', () => {
    expect(new RecordStruct(InnerT, { A: 'x' })).toBeInstanceOf(GoStruct);
  });
});

describe('json.Unmarshal into interface{}: the JSON.parse path agrees with the byte parser', () => {
  // parseJson is the byte-level reader (Go's scanner); goJsonUnmarshal takes JSON.parse where the two agree.
  const slow = (text: string): string => {
    try {
      const r = parseJson(Buffer.from(text, 'utf8'));
      return r.error ? `error: ${r.error}` : goJsonMarshal(r.value as GoValue);
    } catch (e) {
      if (e instanceof GoJsonError) return `error: ${e.message}`;
      throw e;
    }
  };
  const fast = (text: string): string => {
    try {
      return goJsonMarshal(goJsonUnmarshal(text));
    } catch (e) {
      if (e instanceof GoJsonError) return `error: ${e.message}`;
      throw e;
    }
  };
  const texts = [
    '{"a":1,"b":[true,null,"x"],"c":{"d":-0}}',
    '[1e-400, -0, 0.1e-320, 1.5e300, 12345678901234567890]',
    '{"a":1e400}',
    '{"__proto__":{"polluted":1},"constructor":"x"}',
    '"\\ud800"',
    '"\\ud83d\\ude00 \\u00e9 \\u2028"',
    '{"a":1,"a":2}',
    '  [ ]  ',
    '',
    '{"a":}',
    '['.repeat(500) + '{"a":1}' + ']'.repeat(500),
  ];
  for (const t of texts) it(`reads ${JSON.stringify(t.slice(0, 40))}`, () => expect(fast(t)).toBe(slow(t)));
  it('reads random JSON', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 5 }), (t) => {
        expect(fast(t)).toBe(slow(t));
      }),
      { numRuns: 500, seed: 11 },
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
