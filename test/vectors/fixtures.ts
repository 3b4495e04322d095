// The typed fixtures of tools/gorender/fixtures.go, built in the Go value model. Both files must
// describe the same values: a vector case naming a fixture runs against each.

import {
  GoError,
  GoFunc,
  GoNil,
  GoNum,
  GoStruct,
  MAP_STRING_STRING,
  RecordStruct,
  SLICE_STRING,
  T,
  mapGet,
  mapOf,
  newMap,
  ptrTo,
  sliceOf,
  withType,
  type GoMap,
  type GoMethod,
  type GoType,
  type GoValue,
  type StructField,
} from '../../src/go/reflect/value.js';
import { istioFixtures } from './istio/fixtures.js';

// Go's package main: %T prints "main.Pod".
function structType(name: string, fields: Array<[string, GoType] | [string, GoType, 'embedded']>): GoType {
  const fs: StructField[] = fields.map(([n, type, e]) => ({ name: n, json: n, type, ...(e ? { embedded: true } : {}) }));
  return { kind: 'struct', name: 'main.' + name, fields: fs };
}

function method(name: string, params: GoType[], resultType: GoType, fn: GoMethod['fn'], opts: { variadic?: boolean; errors?: boolean } = {}): GoMethod {
  return { name, params, variadic: opts.variadic ?? false, results: opts.errors ? 2 : 1, resultType, fn };
}

/** A struct value whose embedded structs' fields are promoted, as Go's FieldByName finds them. */
class Struct extends RecordStruct {
  override field(name: string): GoValue {
    const own = super.field(name);
    if (own !== undefined || this.type.fields?.some((f) => f.name === name)) return own;
    for (const f of this.type.fields ?? []) {
      if (!f.embedded) continue;
      const inner = super.field(f.name);
      if (inner instanceof GoStruct) {
        const v = inner.field(name);
        if (v !== undefined) return v;
      }
    }
    return undefined;
  }
}

function str(v: GoValue): string {
  return typeof v === 'string' ? v : '';
}

function map<V extends GoValue>(type: GoType, entries: Record<string, V>): GoMap {
  const m = newMap();
  for (const [k, v] of Object.entries(entries)) m[k] = v;
  return withType(m, type);
}

const MAP_STRING_INT = mapOf(T.string, T.int);

// ---------- types ----------

const MetaT = structType('Meta', [
  ['Name', T.string],
  ['Namespace', T.string],
  ['Labels', MAP_STRING_STRING],
  ['Annotations', MAP_STRING_STRING],
]);
const qualifiedName = method('QualifiedName', [], T.string, (recv) => {
  const s = recv as GoStruct;
  return `${str(s.field('Namespace'))}/${str(s.field('Name'))}`;
});
MetaT.methods = { QualifiedName: qualifiedName };

function wrapperType(name: string, valueType: GoType, zero: GoValue): GoType {
  const t = structType(name, [['Value', valueType]]);
  // Pointer receiver: callable on the non-nil pointer and on a nil one (returning the zero value).
  const getValue = method('GetValue', [], valueType, (recv) => (recv instanceof GoStruct ? recv.field('Value') : zero));
  t.methods = { GetValue: getValue };
  ptrTo(t).methods = { GetValue: getValue };
  return t;
}
const BoolValueT = wrapperType('BoolValue', T.bool, false);
const UInt32ValueT = wrapperType('UInt32Value', T.uint32, new GoNum(T.uint32, 0n));

const PhaseT: GoType = { kind: 'int', name: 'main.Phase' };
PhaseT.methods = {
  String: method('String', [], T.string, (recv) => {
    const n = recv instanceof GoNum ? recv.v : -1n;
    return n === 0n ? 'Pending' : n === 1n ? 'Running' : 'Unknown';
  }),
};

const PortT = structType('Port', [
  ['Name', T.string],
  ['ContainerPort', T.int32],
  ['Protocol', T.string],
]);
const ProbeT = structType('Probe', [
  ['Path', T.string],
  ['Port', T.int],
]);
const ContainerT = structType('Container', [
  ['Name', T.string],
  ['Image', T.string],
  ['Args', SLICE_STRING],
  ['Ports', sliceOf(PortT)],
  ['Readiness', ptrTo(ProbeT)],
  ['Liveness', ptrTo(ProbeT)],
]);

const OwnerT = structType('Owner', [['Kind', T.string]]);
OwnerT.fields!.push({ name: 'Ref', json: 'Ref', type: ptrTo(OwnerT) });

const PodT = structType('Pod', [
  ['Meta', MetaT, 'embedded'],
  ['Phase', PhaseT],
  ['Containers', sliceOf(ContainerT)],
  ['Replicas', T.int],
  ['Ratio', T.float64],
  ['Weight', T.float32],
  ['Priority', T.int64],
  ['Small', T.int8],
  ['Port', T.uint16],
  ['Ready', T.bool],
  ['Hold', ptrTo(BoolValueT)],
  ['Rewrite', ptrTo(BoolValueT)],
  ['Concurrency', ptrTo(UInt32ValueT)],
  ['Limits', MAP_STRING_INT],
  ['Tags', SLICE_STRING],
  ['Empty', SLICE_STRING],
  ['NoLabels', MAP_STRING_STRING],
  ['Extra', T.iface],
  ['Detail', T.iface],
  ['Owner', ptrTo(OwnerT)],
  ['Greet', { kind: 'func', name: 'func(string) string' }],
  ['Sum', { kind: 'func', name: 'func(...int) int' }],
  ['Check', { kind: 'func', name: 'func(int) (int, error)' }],
]);
PodT.fields!.push({ name: 'secret', json: '-', type: T.string });

const NodeT = structType('Node', [
  ['Name', T.string],
  ['Value', T.int],
]);
NodeT.fields!.push({ name: 'Children', json: 'Children', type: sliceOf(ptrTo(NodeT)) });

// ---------- values ----------

function pod(): GoValue {
  const containerValues: Array<Record<string, GoValue>> = [
    {
      Name: 'app',
      Image: 'nginx:1.25',
      Args: withType(['--port', '8080'], SLICE_STRING),
      Ports: withType(
        [
          new RecordStruct(PortT, { Name: 'http', ContainerPort: new GoNum(T.int32, 8080n), Protocol: 'TCP' }),
          new RecordStruct(PortT, { Name: 'metrics', ContainerPort: new GoNum(T.int32, 9090n), Protocol: 'TCP' }),
        ],
        sliceOf(PortT),
      ),
      Readiness: new RecordStruct(ProbeT, { Path: '/ready', Port: 8080n }, true),
    },
    { Name: 'sidecar', Image: 'proxy:1.0' },
  ];
  const meta = new RecordStruct(MetaT, {
    Name: 'web-0',
    Namespace: 'prod',
    Labels: map(MAP_STRING_STRING, { app: 'web', tier: 'front', version: 'v1' }),
    Annotations: map(MAP_STRING_STRING, { 'sidecar.istio.io/inject': 'true' }),
  });
  const self = (recv: GoValue) => recv as GoStruct;
  PodT.methods = {
    QualifiedName: method('QualifiedName', [], T.string, (recv) => qualifiedName.fn(self(recv).field('Meta'))),
    Hello: method('Hello', [], T.string, (recv) => 'hello ' + str(self(recv).field('Name'))),
    Label: method('Label', [T.string], T.string, (recv, key) => {
      const labels = self(recv).field('Labels') as GoMap;
      return str(mapGet(labels, key as string));
    }),
    Add: method('Add', [T.int, T.int], T.int, (_r, a, b) => BigInt.asIntN(64, (a as bigint) + (b as bigint))),
    Scale: method('Scale', [T.float64], T.float64, (recv, f) => (f as number) * Number(self(recv).field('Replicas') as bigint)),
    Fail: method(
      'Fail',
      [T.string],
      T.string,
      (_r, msg) => {
        throw new GoError(msg as string);
      },
      { errors: true },
    ),
    Ok: method(
      'Ok',
      [T.bool],
      T.string,
      (_r, b) => {
        if (b) return 'ok';
        throw new GoError('not ok');
      },
      { errors: true },
    ),
    Join: method('Join', [T.string, SLICE_STRING], T.string, (_r, sep, ...parts) => (parts as string[]).join(sep as string), { variadic: true }),
    ContainerNamed: method('ContainerNamed', [T.string], ptrTo(ContainerT), (_r, name) => {
      const c = containerValues.find((x) => x['Name'] === name);
      return c ? new RecordStruct(ContainerT, c, true) : new GoNil(ptrTo(ContainerT));
    }),
  };
  return new Struct(
    PodT,
    {
      Meta: meta,
      Phase: new GoNum(PhaseT, 1n),
      Containers: withType(
        containerValues.map((c) => new RecordStruct(ContainerT, c)),
        sliceOf(ContainerT),
      ),
      Replicas: 3n,
      Ratio: 0.25,
      Weight: new GoNum(T.float32, 1.5),
      Priority: new GoNum(T.int64, -7n),
      Small: new GoNum(T.int8, -3n),
      Port: new GoNum(T.uint16, 15001n),
      Ready: true,
      Hold: new RecordStruct(BoolValueT, { Value: true }, true),
      Concurrency: new RecordStruct(UInt32ValueT, { Value: new GoNum(T.uint32, 2n) }, true),
      Limits: map(MAP_STRING_INT, { cpu: 2n, memory: 512n }),
      Tags: withType(['b', 'a', 'c'], SLICE_STRING),
      Extra: null,
      Detail: map(mapOf(T.string, T.iface), { k: 'v', n: 1.5 }),
      Owner: new RecordStruct(OwnerT, { Kind: 'ReplicaSet', Ref: new RecordStruct(OwnerT, { Kind: 'Deployment' }, true) }, true),
      Greet: new GoFunc('Greet', [T.string], false, 1, T.string, (s) => 'hi ' + (s as string)),
      Sum: new GoFunc('Sum', [sliceOf(T.int)], true, 1, T.int, (...xs) => BigInt.asIntN(64, (xs as bigint[]).reduce((a, b) => a + b, 0n))),
      Check: new GoFunc('Check', [T.int], false, 2, T.int, (n) => {
        if ((n as bigint) < 0n) throw new GoError('negative');
        return (n as bigint) * 2n;
      }),
      secret: 'hidden',
    },
    true,
  );
}

function values(): GoValue {
  const u8 = (n: number) => new GoNum(T.uint8, BigInt(n));
  return map(mapOf(T.string, T.iface), {
    i: 42n,
    i8: new GoNum(T.int8, -8n),
    i64: new GoNum(T.int64, 1n << 40n),
    u8: new GoNum(T.uint8, 200n),
    u64: new GoNum(T.uint64, 18446744073709551615n),
    f32: new GoNum(T.float32, Math.fround(0.1)),
    f64: 2.5,
    s: 'str',
    b: true,
    strs: withType(['b', 'a', 'c'], SLICE_STRING),
    ints: withType([3n, 1n, 2n], sliceOf(T.int)),
    empty: withType([], SLICE_STRING),
    nilslice: new GoNil(SLICE_STRING),
    ss: map(MAP_STRING_STRING, { x: '1', y: '2' }),
    si: map(MAP_STRING_INT, { one: 1n, two: 2n }),
    nilmap: new GoNil(MAP_STRING_INT),
    ptr: new RecordStruct(MetaT, { Name: 'm', Namespace: 'ns' }, true),
    nilptr: new GoNil(ptrTo(MetaT)),
    meta: new RecordStruct(MetaT, { Name: 'v', Namespace: 'vs', Labels: map(MAP_STRING_STRING, { a: '1' }) }),
    phase: new GoNum(PhaseT, 0n),
    wrap: new RecordStruct(BoolValueT, { Value: true }, true),
    nilwrap: new GoNil(ptrTo(BoolValueT)),
    iface: null,
    bytes: withType([u8(104), u8(105)], sliceOf(T.uint8)),
    fn: new GoFunc('fn', [T.string, T.string], false, 1, T.string, (a, b) => `${a as string}+${b as string}`),
    fnerr: new GoFunc('fnerr', [T.string], false, 2, T.string, (s) => {
      if (s === '') throw new GoError('empty input');
      return (s as string).toUpperCase();
    }),
    nested: map(mapOf(T.string, T.iface), {
      a: map(mapOf(T.string, T.iface), { b: [1, 'two', 3.5, null, true] }),
    }),
  });
}

function tree(): GoValue {
  const node = (name: string, value: bigint, children?: GoValue[]): GoValue =>
    new RecordStruct(NodeT, { Name: name, Value: value, ...(children ? { Children: withType(children, sliceOf(ptrTo(NodeT))) } : {}) }, true);
  return node('root', 1n, [node('a', 2n, [node('a1', 3n), node('a2', 4n)]), node('b', 5n)]);
}

export const fixtures: Record<string, () => GoValue> = {
  pod,
  values,
  tree,
  ...istioFixtures,
};
