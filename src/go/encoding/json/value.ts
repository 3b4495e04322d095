// JSON values as encoding/json's interface{} decoding gives them: null, bool, float64, string,
// []interface{} and map[string]interface{}, held as plain JavaScript values with own properties only.
//
// Mirrors: go1.19 src/encoding/json/decode.go (the interface{} shapes of Unmarshal)
// Proven by: test/vectors/helm/json.jsonl

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export type JsonObject = { [k: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Own property only: input comes from users and must never reach a prototype. */
export function own(o: JsonObject, k: string): Json | undefined {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

/** A JSON object with no prototype. */
export function newObject(): JsonObject {
  return Object.create(null) as JsonObject;
}

export function clone<T extends Json>(v: T): T {
  if (Array.isArray(v)) return v.map(clone) as T;
  if (isObject(v)) {
    const o = newObject();
    for (const k of Object.keys(v)) o[k] = clone(v[k]!);
    return o as T;
  }
  return v;
}

export function strMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (isObject((v ?? null) as Json)) for (const [k, x] of Object.entries(v as JsonObject)) out[k] = typeof x === 'string' ? x : JSON.stringify(x);
  return out;
}

/** What a JSON round trip leaves of a parsed YAML value. */
export function jsonShaped(v: unknown): Json {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(jsonShaped);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Map) {
    const o = Object.create(null) as JsonObject;
    for (const [k, x] of v) o[String(k)] = jsonShaped(x);
    return o;
  }
  if (typeof v === 'object') {
    const o = Object.create(null) as JsonObject;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = jsonShaped(x);
    return o;
  }
  return v as Json;
}
