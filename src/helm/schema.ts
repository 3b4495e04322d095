// values.schema.json: each chart's coalesced values checked against its schema (ajv), failures worded
// as Helm words them (gojsonschema's "- FIELD: DESCRIPTION" lines under the chart's name).
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/chartutil/jsonschema.go
// Proven by: test/vectors/helm-template/schema.yaml, test/helm/chart.test.ts

import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { GoNum, isMap, type GoMap, type GoValue } from '../go/reflect/value.js';
import { InputError } from '../yaml/load.js';
import type { Chart } from './chart.js';

/** Compiled schemas by their text. Each is compiled by an Ajv of its own: two schemas that name the same
 *  $id (a chart and its subchart, or one chart rendered twice) must not meet in one registry. */
const validators = new Map<string, ValidateFunction>();

function compile(text: string, schema: Record<string, unknown>): ValidateFunction {
  let v = validators.get(text);
  if (!v) {
    const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    v = new AjvClass({ allErrors: true, strict: false, validateSchema: false }).compile(schema);
    if (validators.size >= 64) validators.delete(validators.keys().next().value!);
    validators.set(text, v);
  }
  return v;
}

function field(instancePath: string, extra?: string): string {
  const segs = instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) segs.push(extra);
  return segs.length === 0 ? '(root)' : segs.join('.');
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

/** One gojsonschema-style line for an ajv error. */
function describe(e: ErrorObject, values: unknown): string {
  const at = field(e.instancePath);
  const p = e.params as Record<string, unknown>;
  const valueAt = (): unknown => e.instancePath.split('/').slice(1).reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), values);
  switch (e.keyword) {
    case 'type':
      return `${at}: Invalid type. Expected: ${String(p.type).replace(/,/g, ', ')}, given: ${jsonType(valueAt())}`;
    case 'required':
      return `${at}: ${String(p.missingProperty)} is required`;
    case 'additionalProperties':
      return `${at}: Additional property ${String(p.additionalProperty)} is not allowed`;
    case 'enum':
      return `${at}: ${at} must be one of the following: ${(p.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ')}`;
    case 'const':
      return `${at}: ${at} does not match: ${JSON.stringify(p.allowedValue)}`;
    case 'minimum':
      return `${at}: Must be greater than or equal to ${String(p.limit)}`;
    case 'maximum':
      return `${at}: Must be less than or equal to ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `${at}: Must be greater than ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `${at}: Must be less than ${String(p.limit)}`;
    case 'minLength':
      return `${at}: String length must be greater than or equal to ${String(p.limit)}`;
    case 'maxLength':
      return `${at}: String length must be less than or equal to ${String(p.limit)}`;
    case 'pattern':
      return `${at}: Does not match pattern '${String(p.pattern)}'`;
    case 'minItems':
      return `${at}: Array must have at least ${String(p.limit)} items`;
    case 'maxItems':
      return `${at}: Array must have at most ${String(p.limit)} items`;
    default:
      return `${at}: ${e.message ?? e.keyword}`;
  }
}

/** The keywords that validate: beside a $ref, gojsonschema (drafts 4 to 7) applies none of them. */
const VALIDATION_KEYWORDS = new Set([
  'type', 'enum', 'const', 'properties', 'patternProperties', 'additionalProperties', 'required', 'items',
  'additionalItems', 'contains', 'minItems', 'maxItems', 'uniqueItems', 'minLength', 'maxLength', 'pattern',
  'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minProperties',
  'maxProperties', 'propertyNames', 'dependencies', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else',
]);

/** The schema with every $ref standing alone, as gojsonschema reads it: a $ref replaces the schema it
 *  is in, so the validating keywords beside it are dropped (definitions stay, for refs to reach). */
function refsAlone(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(refsAlone);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const hasRef = typeof o['$ref'] === 'string';
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    if (hasRef && VALIDATION_KEYWORDS.has(k)) continue;
    Object.defineProperty(out, k, { value: refsAlone(o[k]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Values as JSON sees them (an int64 from --set is a number). */
function plainJson(v: GoValue): unknown {
  if (v instanceof GoNum) return Number(v.v);
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plainJson);
  if (isMap(v)) {
    const o: Record<string, unknown> = Object.create(null);
    for (const k of Object.keys(v)) o[k] = plainJson(v[k]);
    return o;
  }
  return v === undefined ? null : v;
}

/** The problems of one chart's values against its schema ([] when it has none or they pass). */
export function schemaProblems(c: Chart, values: GoMap): string[] {
  if (!c.schema) return [];
  let schema: unknown;
  try {
    schema = JSON.parse(c.schema.text);
  } catch (e) {
    throw new InputError(`invalid JSON: ${(e as Error).message}`, c.schema.file);
  }
  if (schema === null || typeof schema !== 'object') throw new InputError('a schema must be a JSON object', c.schema.file);
  // Helm reads draft 4 to 7 whatever $schema says; ajv would look the meta-schema up and fail
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  void _ignored;
  let validate;
  try {
    validate = compile(c.schema.text, refsAlone(rest) as Record<string, unknown>);
  } catch (e) {
    throw new InputError(`invalid schema: ${(e as Error).message.split('\n')[0]}`, c.schema.file);
  }
  const plain = plainJson(values);
  let ok: boolean;
  try {
    ok = validate(plain) as boolean;
  } catch (e) {
    // a $ref back to itself ({"$ref": "#"}) recurses without end: a bigger stack would only take
    // longer to fail (Helm's validator dies of a goroutine stack overflow), so the run is not repeated
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new InputError('the schema recurses without end (a $ref that leads back to itself without reading deeper into the values)', c.schema.file);
    }
    throw e;
  }
  if (ok) return [];
  return (validate.errors ?? []).map((e) => describe(e, plain));
}

/** ValidateAgainstSchema: the chart and each subchart (with its table of the values). */
export function validateAgainstSchema(c: Chart, values: GoMap): void {
  const lines: string[] = [];
  const walk = (ch: Chart, v: GoMap): void => {
    const problems = schemaProblems(ch, v);
    if (problems.length > 0) lines.push(`${ch.name}:`, ...problems.map((p) => `- ${p}`));
    for (const d of ch.dependencies) {
      const sub = Object.prototype.hasOwnProperty.call(v, d.name) ? v[d.name] : undefined;
      walk(d, isMap(sub) ? sub : (Object.create(null) as GoMap));
    }
  };
  walk(c, values);
  if (lines.length > 0) {
    throw new InputError(`values don't meet the specifications of the schema(s) in the following chart(s): ${lines.join(' ')}`, c.schema?.file ?? c.location);
  }
}
