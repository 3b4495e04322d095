// values.schema.json: each chart's coalesced values checked against its schema (ajv), failures worded
// as Helm words them (gojsonschema's "- FIELD: DESCRIPTION" lines under the chart's name). Patterns
// run on RE2 (re2js), in linear time, as Go's regexp runs them; formats are checked as gojsonschema
// v1.2.0 checks them (schema-format.ts).
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/chartutil/jsonschema.go; github.com/xeipuuv/gojsonschema v1.2.0 schema.go (the regular expressions of a schema, the JSON depth)
// Proven by: test/vectors/helm-template/schema.yaml, test/helm/chart.test.ts, test/helm/schema-hostile.test.ts

import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { GoNum, isMap, type GoMap, type GoValue } from '../go/reflect/value.js';
import { InputError } from '../yaml/load.js';
import { jsonTooDeep } from '../go/encoding/json/json.js';
import { isStackOverflow } from '../guard/stack.js';
import { re2 } from '../sprig/re2.js';
import type { Chart } from './chart.js';
import { formatKeyword, goRegexpCompiles } from './schema-format.js';

/** Most subschemas (objects in schema positions) of one values.schema.json: ajv compiles code for
 *  each, about half a millisecond apiece (Helm reads 100,000 in a second). The largest schemas of
 *  public charts have about 1,500. */
export const MAX_SCHEMA_NODES = 10_000;

/** Deepest nesting of subschemas: ajv's code for a chain of them grows with the square of its length
 *  (1,000 levels take seconds, 5,000 minutes; Helm reads to encoding/json's 10,000 levels of JSON,
 *  5,000 subschemas). Public charts nest about 10 deep. */
export const MAX_SCHEMA_DEPTH = 1_000;

/** encoding/json's nesting limit (Helm reads the schema with it). */
const GO_JSON_MAX_DEPTH = 10_000;

/** A regular expression of a schema (pattern, a patternProperties key) as Go's regexp runs it:
 *  RE2 syntax, unanchored search, linear time. ajv asks for one per pattern and keeps it by its
 *  toString, which therefore names the pattern. */
function goRegExp(pattern: string): { test(s: string): boolean; toString(): string } {
  const re = re2().compile(pattern);
  return { test: (s: string) => re.matcher(s).find(), toString: () => `re2:${pattern}` };
}
goRegExp.code = 'goRegExp';


/** Compiled schemas by their text. Each is compiled by an Ajv of its own: two schemas that name the same
 *  $id (a chart and its subchart, or one chart rendered twice) must not meet in one registry. */
const validators = new Map<string, ValidateFunction>();

function compile(text: string, schema: Record<string, unknown>): ValidateFunction {
  let v = validators.get(text);
  if (!v) {
    const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    // optimize: false: Ajv's pass over the code it generates saves less than it costs a schema validated
    // once (traefik's chart, cold: 12% fewer instructions in all); the validator's answers are the same
    const ajv = new AjvClass({ allErrors: true, strict: false, validateSchema: false, code: { regExp: goRegExp, optimize: false } });
    ajv.removeKeyword('format');
    ajv.addKeyword(formatKeyword());
    v = ajv.compile(schema);
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
    case 'format':
      return `${at}: Does not match format '${String(p.format)}'`;
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

type Task = { schema: unknown; depth: number } | { pattern: string } | { key: string };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/**
 * The schema read as gojsonschema reads it, in its order (definitions, a $ref that ends the
 * subschema, properties, additionalProperties, patternProperties, propertyNames, dependencies, items,
 * additionalItems, pattern, contains, oneOf, anyOf, allOf, not, if, then, else), with an explicit
 * stack: the first regular expression Go's regexp does not compile (worded as gojsonschema words it),
 * how many subschemas there are (counting stops past MAX_SCHEMA_NODES) and how deep they nest.
 */
export function readSchema(root: unknown): { regexError?: string; nodes: number; depth: number } {
  const stack: Task[] = [{ schema: root, depth: 1 }];
  let nodes = 0;
  let depth = 0;
  while (stack.length > 0) {
    const t = stack.pop()!;
    if ('pattern' in t) {
      if (!goRegexpCompiles(t.pattern)) return { regexError: 'pattern must be a valid regex', nodes, depth };
      continue;
    }
    if ('key' in t) {
      if (!goRegexpCompiles(t.key)) return { regexError: `Invalid regex pattern '${t.key}'`, nodes, depth };
      continue;
    }
    const m = t.schema;
    if (!isObject(m)) continue;
    if (++nodes > MAX_SCHEMA_NODES) return { nodes, depth };
    if (t.depth > depth) depth = t.depth;
    const d = t.depth + 1;
    const todo: Task[] = [];
    const sub = (v: unknown): void => void (isObject(v) && todo.push({ schema: v, depth: d }));
    const subs = (v: unknown): void => {
      if (Array.isArray(v)) for (const x of v) sub(x);
    };
    const values = (v: unknown): void => {
      if (isObject(v)) for (const k of Object.keys(v)) sub(v[k]);
    };
    values(own(m, 'definitions'));
    if (typeof own(m, '$ref') !== 'string') {
      values(own(m, 'properties'));
      sub(own(m, 'additionalProperties'));
      const pp = own(m, 'patternProperties');
      if (isObject(pp)) for (const k of Object.keys(pp)) todo.push({ key: k }, { schema: pp[k], depth: d });
      sub(own(m, 'propertyNames'));
      values(own(m, 'dependencies'));
      const items = own(m, 'items');
      if (Array.isArray(items)) subs(items);
      else sub(items);
      sub(own(m, 'additionalItems'));
      const pattern = own(m, 'pattern');
      if (typeof pattern === 'string') todo.push({ pattern });
      sub(own(m, 'contains'));
      subs(own(m, 'oneOf'));
      subs(own(m, 'anyOf'));
      subs(own(m, 'allOf'));
      sub(own(m, 'not'));
      sub(own(m, 'if'));
      sub(own(m, 'then'));
      sub(own(m, 'else'));
    }
    for (let i = todo.length - 1; i >= 0; i--) stack.push(todo[i]!);
  }
  return { nodes, depth };
}

/**
 * What Helm prints under a chart's name for its values against its schema: gojsonschema's problems
 * (each a line "- FIELD: DESCRIPTION"), or its one error about the schema itself (a regular
 * expression Go does not compile, JSON past encoding/json's depth), printed without a "- " or a
 * newline after it; no problems when the chart has no schema or the values meet it.
 */
export function schemaReport(c: Chart, values: GoMap): { problems: string[] } | { schemaError: string } {
  if (!c.schema) return { problems: [] };
  const file = c.schema.file;
  let schema: unknown;
  try {
    schema = JSON.parse(c.schema.text);
  } catch (e) {
    throw new InputError(`invalid JSON: ${(e as Error).message}`, file);
  }
  const deep = jsonTooDeep(c.schema.text, GO_JSON_MAX_DEPTH);
  if (deep >= 0) return { schemaError: `invalid character '${c.schema.text[deep]!}' exceeded max depth` };
  if (schema === null || typeof schema !== 'object') throw new InputError('a schema must be a JSON object', file);
  // Helm reads draft 4 to 7 whatever $schema says; ajv would look the meta-schema up and fail
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  void _ignored;
  const read = readSchema(rest);
  if (read.regexError) return { schemaError: read.regexError };
  if (read.nodes > MAX_SCHEMA_NODES) throw new InputError(`the schema has more than ${MAX_SCHEMA_NODES} subschemas`, file);
  if (read.depth > MAX_SCHEMA_DEPTH) throw new InputError(`the schema nests subschemas more than ${MAX_SCHEMA_DEPTH} deep`, file);
  let validate;
  try {
    validate = compile(c.schema.text, refsAlone(rest) as Record<string, unknown>);
  } catch (e) {
    // nesting deeper than this thread's stack: the command line runs again on a big stack (guard/stack.ts)
    if (isStackOverflow(e)) throw new InputError(`the schema nests deeper than the JavaScript call stack (${read.depth} levels)`, file);
    throw new InputError(`invalid schema: ${(e as Error).message.split('\n')[0]}`, file);
  }
  const plain = plainJson(values);
  let ok: boolean;
  try {
    ok = validate(plain) as boolean;
  } catch (e) {
    // a $ref back to itself ({"$ref": "#"}) recurses without end: a bigger stack would only take
    // longer to fail (Helm's validator dies of a goroutine stack overflow), so the run is not repeated
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new InputError('the schema recurses without end (a $ref that leads back to itself without reading deeper into the values)', file);
    }
    throw e;
  }
  if (ok) return { problems: [] };
  return { problems: (validate.errors ?? []).map((e) => describe(e, plain)) };
}

/** ValidateAgainstSchema: the chart and each subchart (with its table of the values). */
export function validateAgainstSchema(c: Chart, values: GoMap): void {
  // Helm's text on one line: "NAME:" and "- PROBLEM" lines, or "NAME:" and a schema error with no
  // newline after it, so the next chart's name follows it at once
  let text = '';
  let glued = false;
  const add = (piece: string): void => {
    text += text === '' || glued ? piece : ` ${piece}`;
    glued = false;
  };
  const walk = (ch: Chart, v: GoMap): void => {
    const report = schemaReport(ch, v);
    if ('schemaError' in report) {
      add(`${ch.name}:`);
      add(report.schemaError);
      glued = true;
    } else if (report.problems.length > 0) {
      add(`${ch.name}:`);
      for (const p of report.problems) add(`- ${p}`);
    }
    for (const d of ch.dependencies) {
      const sub = Object.prototype.hasOwnProperty.call(v, d.name) ? v[d.name] : undefined;
      walk(d, isMap(sub) ? sub : (Object.create(null) as GoMap));
    }
  };
  walk(c, values);
  if (text !== '') {
    throw new InputError(`values don't meet the specifications of the schema(s) in the following chart(s): ${text}`, c.schema?.file ?? c.location);
  }
}
