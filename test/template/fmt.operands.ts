// Builds the operands of test/template/fmt.cases.jsonl: the same values tools/fmt/main.go builds in Go.

import { sprintf } from '../../src/go/fmt/print.js';
import { fromGoBytes } from '../../src/go/strconv/strconv.js';
import {
  GoNil,
  GoNum,
  GoStruct,
  MAP_STRING_IFACE,
  RecordStruct,
  SLICE_IFACE,
  SLICE_STRING,
  T,
  mapOf,
  newMap,
  ptrTo,
  sliceOf,
  withType,
  type GoMethod,
  type GoType,
  type GoValue,
} from '../../src/go/reflect/value.js';

function method(name: string, fn: (recv: GoValue) => GoValue): Record<string, GoMethod> {
  return { [name]: { name, params: [], results: 1, resultType: T.string, fn } };
}

const T1: GoType = {
  kind: 'struct',
  name: 'main.T1',
  fields: [
    { name: 'Name', json: 'Name', type: T.string },
    { name: 'Age', json: 'Age', type: T.int },
  ],
};
const Temp: GoType = {
  kind: 'float64',
  name: 'main.Temp',
  methods: method('String', (r) => sprintf('%.1f°C', [(r as GoNum).v])),
};
const ErrT: GoType = {
  kind: 'struct',
  name: 'main.ErrT',
  fields: [{ name: 'Msg', json: 'Msg', type: T.string }],
  methods: method('Error', (r) => 'failed: ' + String((r as GoStruct).field('Msg'))),
};
const Boom: GoType = {
  kind: 'struct',
  name: 'main.Boom',
  fields: [],
  methods: method('String', () => {
    throw new Error('boom');
  }),
};
const PtrStringer: GoType = {
  kind: 'struct',
  name: 'main.PtrStringer',
  fields: [{ name: 'N', json: 'N', type: T.int }],
  methods: method('String', (r) => {
    if (!(r instanceof GoStruct)) throw new Error('runtime error: invalid memory address or nil pointer dereference');
    return 'ptr-stringer ' + String(r.field('N'));
  }),
};
const Mode: GoType = { kind: 'uint8', name: 'main.Mode' };
const Wrap: GoType = {
  kind: 'struct',
  name: 'main.Wrap',
  fields: [
    { name: 'A', json: 'A', type: T.iface },
    { name: 'B', json: 'B', type: ptrTo(T1) },
    { name: 'C', json: 'C', type: SLICE_STRING },
    { name: 'D', json: 'D', type: mapOf(T.string, T.int) },
    { name: 'E', json: 'E', type: T.error },
    { name: 'F', json: 'F', type: T.float32 },
  ],
};
const Emb: GoType = {
  kind: 'struct',
  name: 'main.Emb',
  fields: [
    { name: 'T1', json: '', embedded: true, type: T1 },
    { name: 'Extra', json: 'Extra', type: T.bool },
  ],
};

const temp = (v: number): GoNum => new GoNum(Temp, v);
const t1 = (name: string, age: bigint, ptr = false): RecordStruct => new RecordStruct(T1, { Name: name, Age: age }, ptr);
const u8 = (n: number): GoNum => new GoNum(T.uint8, BigInt(n));

const fixtures: Record<string, () => GoValue> = {
  t1: () => t1('a', 3n),
  pt1: () => t1('b', 4n, true),
  nilpt1: () => new GoNil(ptrTo(T1)),
  temp: () => temp(21.5),
  err: () => new RecordStruct(ErrT, { Msg: 'disk' }),
  boom: () => new RecordStruct(Boom, {}),
  ptrstr: () => new RecordStruct(PtrStringer, { N: 7n }, true),
  nilptrstr: () => new GoNil(ptrTo(PtrStringer)),
  mode: () => new GoNum(Mode, 5n),
  nilmap: () => new GoNil(MAP_STRING_IFACE),
  nilslice: () => new GoNil(SLICE_IFACE),
  nilstrs: () => new GoNil(SLICE_STRING),
  bytes: () => withType([u8(104), u8(105), u8(255)], sliceOf(T.uint8)),
  nilbytes: () => new GoNil(sliceOf(T.uint8)),
  wrap: () =>
    new RecordStruct(Wrap, {
      C: withType(['x', 'y'], SLICE_STRING),
      D: withType(Object.assign(newMap(), { k: 1n }), mapOf(T.string, T.int)),
      F: new GoNum(T.float32, Math.fround(0.1)),
    }),
  emb: () => new RecordStruct(Emb, { T1: t1('e', 5n), Extra: true }),
  listt1: () => withType([t1('x', 1n), t1('y', 2n)], sliceOf(T1)),
  mapt1: () => withType(Object.assign(newMap(), { k: t1('z', 9n) }), mapOf(T.string, T1)),
  listerr: () => [new RecordStruct(ErrT, { Msg: 'in list' }), temp(3)],
  maptemp: () => withType(Object.assign(newMap(), { b: temp(2), a: temp(1) }), mapOf(T.string, Temp)),
  mapint: () => withType(Object.assign(newMap(), { '10': 'ten', '2': 'two', '-1': 'neg' }), mapOf(T.int, T.string)),
  nilerr: () => null,
};

function float(s: string): number {
  switch (s) {
    case '+Inf':
      return Infinity;
    case '-Inf':
      return -Infinity;
    case 'NaN':
      return NaN;
    case '-0':
      return -0;
  }
  return Number(s);
}

function typed(type: string, v: unknown): GoValue {
  switch (type) {
    case 'int':
      return BigInt(v as string);
    case 'string-hex':
      return fromGoBytes(Buffer.from(v as string, 'hex'));
    case 'float64':
      return typeof v === 'number' ? v : float(v as string);
    case 'float32':
      return new GoNum(T.float32, Math.fround(typeof v === 'number' ? v : float(v as string)));
    case '[]string':
      return withType([...(v as string[])], SLICE_STRING);
    case '[]int':
      return withType((v as unknown[]).map(operand), sliceOf(T.int));
    case '[]uint8':
      return withType((v as string[]).map((x) => u8(Number(x))), sliceOf(T.uint8));
    case '[]float64':
      return withType((v as unknown[]).map(operand), sliceOf(T.float64));
    case 'map[string]string':
    case 'map[string]int': {
      const m = newMap();
      for (const [k, e] of Object.entries(v as Record<string, unknown>)) m[k] = operand(e);
      return withType(m, type === 'map[string]string' ? mapOf(T.string, T.string) : mapOf(T.string, T.int));
    }
  }
  const t = (T as Record<string, GoType>)[type];
  if (!t) throw new Error('unknown operand type ' + type);
  return new GoNum(t, BigInt(v as string));
}

export function operand(x: unknown): GoValue {
  if (x === null || typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') return x;
  if (Array.isArray(x)) return x.map(operand);
  const o = x as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === 'fixture') {
    const f = fixtures[o.fixture as string];
    if (!f) throw new Error('unknown fixture ' + String(o.fixture));
    return f();
  }
  if (keys.length === 2 && 't' in o && 'v' in o) return typed(o.t as string, o.v);
  const m = newMap();
  for (const k of keys) m[k] = operand(o[k]);
  return m;
}
