// k8s.io/apimachinery/pkg/util/intstr.IntOrString: a struct {Type, IntVal, StrVal} that marshals as
// either a JSON number or a JSON string.
//
// Mirrors: k8s.io/apimachinery pkg/util/intstr/intstr.go
// Proven by: test/istio/model.test.ts

import { GoNum, RecordStruct, T, ptrTo, type GoType, type GoValue, GoStruct, intValue } from '../go/reflect/value.js';
import { field, mismatch, namedType, registerCodec, structType } from '../go/encoding/json/structs.js';

export const IntstrType: GoType = namedType('int64', 'intstr.Type');

export const IntOrString: GoType = structType('intstr.IntOrString', [
  field('Type', 'type', IntstrType),
  field('IntVal', 'intVal', T.int32),
  field('StrVal', 'strVal', T.string),
]);

/** Build an IntOrString value from JSON (number or string). */
export function intOrString(raw: number | string, ptr = false): RecordStruct {
  if (typeof raw === 'string') {
    return new RecordStruct(IntOrString, { Type: new GoNum(IntstrType, 1n), IntVal: new GoNum(T.int32, 0n), StrVal: raw }, ptr);
  }
  return new RecordStruct(
    IntOrString,
    { Type: new GoNum(IntstrType, 0n), IntVal: new GoNum(T.int32, BigInt.asIntN(32, BigInt(Math.trunc(raw)))), StrVal: '' },
    ptr,
  );
}

/** The JSON form of an IntOrString value (number or string). */
export function intOrStringJSON(v: GoValue): number | string {
  if (!(v instanceof GoStruct)) return 0;
  const t = intValue(v.field('Type'));
  if (t === 1n) return String(v.field('StrVal') ?? '');
  return Number(intValue(v.field('IntVal')) ?? 0n);
}

// MarshalJSON returns JSON text (the shared encoder treats a string result as raw JSON).
IntOrString.marshalJSON = (v) => JSON.stringify(intOrStringJSON(v));

registerCodec(IntOrString, {
  decode(raw, ctx) {
    if (typeof raw === 'string') return intOrString(raw);
    if (typeof raw === 'number' && Number.isInteger(raw)) return intOrString(raw);
    throw mismatch(raw, IntOrString, ctx);
  },
});

const stringMethod = {
  name: 'String',
  params: [],
  results: 1 as const,
  resultType: T.string,
  fn: (recv: GoValue) => String(intOrStringJSON(recv)),
};
// String has a pointer receiver in Go: only *IntOrString (or an addressable value) is a Stringer.
ptrTo(IntOrString).methods = { String: stringMethod };
