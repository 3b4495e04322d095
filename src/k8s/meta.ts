// k8s.io/apimachinery/pkg/apis/meta/v1 types that injection templates see (package name "v1").
//
// Mirrors: k8s.io/apimachinery pkg/apis/meta/v1/{types,time}.go, pkg/types/namespacedname.go
// Proven by: test/vectors/istio/typed.jsonl

import { GoStruct, T, MAP_STRING_STRING, SLICE_STRING, ptrTo, sliceOf, type GoType, type GoValue } from '../go/reflect/value.js';
import { GoJsonError, field, registerCodec, structType } from '../go/encoding/json/structs.js';

export const TypeMeta: GoType = structType('v1.TypeMeta', [
  field('Kind', 'kind,omitempty', T.string),
  field('APIVersion', 'apiVersion,omitempty', T.string),
]);

// metav1.Time embeds time.Time; it marshals as RFC 3339 in UTC, the zero time as null.
export const Time: GoType = structType('v1.Time', []);

export class TimeValue extends GoStruct {
  readonly type = Time;
  override readonly ptr: boolean;
  constructor(
    /** RFC 3339 text in UTC, or '' for the zero time. */
    readonly rfc3339: string,
    ptr = false,
  ) {
    super();
    this.ptr = ptr;
  }
  field(): GoValue {
    return undefined;
  }
}

function toRFC3339(s: string): string {
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) throw new GoJsonError(`parsing time "${s}" as "2006-01-02T15:04:05Z07:00": cannot parse`);
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// MarshalJSON returns JSON text (the shared encoder treats a string result as raw JSON).
Time.marshalJSON = (v) => (v instanceof TimeValue && v.rfc3339 !== '' ? JSON.stringify(v.rfc3339) : 'null');
registerCodec(Time, {
  decode(raw) {
    if (typeof raw === 'string') return new TimeValue(raw === '' ? '' : toRFC3339(raw));
    throw new GoJsonError('json: cannot unmarshal non-string into Go value of type v1.Time');
  },
});

/**
 * From Kubernetes 1.34 ObjectMeta.CreationTimestamp is `omitzero`: an unset one is left out instead of
 * written as null. Removes `creationTimestamp: null` from every `metadata` object in marshalled JSON.
 */
export function dropZeroCreationTimestamps(v: unknown): void {
  if (Array.isArray(v)) {
    for (const x of v) dropZeroCreationTimestamps(x);
    return;
  }
  if (v === null || typeof v !== 'object') return;
  const o = v as Record<string, unknown>;
  for (const [k, x] of Object.entries(o)) {
    if (k === 'metadata' && x !== null && typeof x === 'object' && !Array.isArray(x) && (x as Record<string, unknown>).creationTimestamp === null) {
      delete (x as Record<string, unknown>).creationTimestamp;
    }
    dropZeroCreationTimestamps(x);
  }
}

export const UID: GoType = T.string; // types.UID, a named string

export const OwnerReference: GoType = structType('v1.OwnerReference', [
  field('APIVersion', 'apiVersion', T.string),
  field('Kind', 'kind', T.string),
  field('Name', 'name', T.string),
  field('UID', 'uid', UID),
  field('Controller', 'controller,omitempty', ptrTo(T.bool)),
  field('BlockOwnerDeletion', 'blockOwnerDeletion,omitempty', ptrTo(T.bool)),
]);

export const ManagedFieldsEntry: GoType = structType('v1.ManagedFieldsEntry', [
  field('Manager', 'manager,omitempty', T.string),
  field('Operation', 'operation,omitempty', T.string),
  field('APIVersion', 'apiVersion,omitempty', T.string),
  field('Time', 'time,omitempty', ptrTo(Time)),
  field('FieldsType', 'fieldsType,omitempty', T.string),
  // FieldsV1 holds raw JSON; plain data here
  field('FieldsV1', 'fieldsV1,omitempty', T.iface),
  field('Subresource', 'subresource,omitempty', T.string),
]);

export const ObjectMeta: GoType = structType('v1.ObjectMeta', [
  field('Name', 'name,omitempty', T.string),
  field('GenerateName', 'generateName,omitempty', T.string),
  field('Namespace', 'namespace,omitempty', T.string),
  field('SelfLink', 'selfLink,omitempty', T.string),
  field('UID', 'uid,omitempty', UID),
  field('ResourceVersion', 'resourceVersion,omitempty', T.string),
  field('Generation', 'generation,omitempty', T.int64),
  field('CreationTimestamp', 'creationTimestamp,omitempty', Time),
  field('DeletionTimestamp', 'deletionTimestamp,omitempty', ptrTo(Time)),
  field('DeletionGracePeriodSeconds', 'deletionGracePeriodSeconds,omitempty', ptrTo(T.int64)),
  field('Labels', 'labels,omitempty', MAP_STRING_STRING),
  field('Annotations', 'annotations,omitempty', MAP_STRING_STRING),
  field('OwnerReferences', 'ownerReferences,omitempty', sliceOf(OwnerReference)),
  field('Finalizers', 'finalizers,omitempty', SLICE_STRING),
  field('ManagedFields', 'managedFields,omitempty', sliceOf(ManagedFieldsEntry)),
]);

export const LabelSelectorRequirement: GoType = structType('v1.LabelSelectorRequirement', [
  field('Key', 'key', T.string),
  field('Operator', 'operator', T.string),
  field('Values', 'values,omitempty', SLICE_STRING),
]);

export const LabelSelector: GoType = structType('v1.LabelSelector', [
  field('MatchLabels', 'matchLabels,omitempty', MAP_STRING_STRING),
  field('MatchExpressions', 'matchExpressions,omitempty', sliceOf(LabelSelectorRequirement)),
]);

/** types.NamespacedName: what Istio 1.23+ passes as DeploymentMeta. */
export const NamespacedName: GoType = structType('types.NamespacedName', [
  field('Namespace', 'Namespace', T.string),
  field('Name', 'Name', T.string),
]);
