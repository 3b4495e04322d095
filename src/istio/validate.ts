// Validation of user-supplied values and mesh config against the schemas in schema/: problems come
// back with file:line:col. Unknown or misspelled fields are warnings; a wrong type is an error.
//
// Public API
//   Problem { severity: 'error' | 'warning', where, message }
//   validateValues(raw, doc?)          injector values (data.values or a values file)
//   validateMesh(raw, doc?, version?)  MeshConfig YAML object (data.mesh or a mesh file); with a version,
//                                      also every field the release's MeshConfig/ProxyConfig does not have
//   validateProxyConfigAnnotation(raw, doc?, version?)   a pod's proxy.istio.io/config
//   formatProblem(p)                   "file:line:col: warning: ..." one line
//
// Upstream: none (checks values and mesh config against the schemas, reporting file:line:col)

import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { valuesSchema } from './schema/values.schema.js';
import { meshSchema, proxyConfigSchema } from './schema/mesh.schema.js';
import { validateMeshSchema, validateProxyConfigSchema, validateValuesSchema } from './schema/validators.generated.js';
import type { LoadedDocument, PathSegment } from '../yaml/load.js';
import { applyMeshConfig } from './mesh.js';
import { ProtoParseError, splitPath, type ParseOpts } from './proto.js';
import { parseProxyConfig } from './proxyconfig.js';
import type { IstioVersion } from './version.js';

export interface Problem {
  severity: 'error' | 'warning';
  where: string;
  message: string;
}

// ajv's own code for our schemas, generated ahead of time (tools/gen-validators.mjs): compiling them at
// start-up was about 40% of a cold `render`. Any other schema is compiled by ajv, loaded on first use.
const compiled = new Map<object, ValidateFunction>([
  [valuesSchema, validateValuesSchema as ValidateFunction],
  [meshSchema, validateMeshSchema as ValidateFunction],
  [proxyConfigSchema, validateProxyConfigSchema as ValidateFunction],
]);
let ajv: Ajv | undefined;

function validator(schema: object): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    ajv ??= new AjvClass({ allErrors: true, strict: false, verbose: true });
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

/** "/global/proxy/0" → ['global', 'proxy', 0] */
function segmentsOf(instancePath: string): PathSegment[] {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** ['global', 'proxy', 0] → "global.proxy[0]" */
function shown(segs: PathSegment[]): string {
  return segs.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc === '' ? s : `${acc}.${s}`), '');
}

function closest(word: string, options: string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const o of options) {
    const d = editDistance(word.toLowerCase(), o.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = o;
    }
  }
  return bestD <= Math.max(2, Math.floor(word.length / 4)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

function run(schema: object, raw: unknown, doc: LoadedDocument | undefined, what: string): Problem[] {
  const v = validator(schema);
  if (v(raw)) return [];
  const out: Problem[] = [];
  const seen = new Set<string>();
  for (const e of (v.errors ?? []) as ErrorObject[]) {
    const segs = segmentsOf(e.instancePath);
    let severity: Problem['severity'] = 'error';
    let message: string;
    if (e.keyword === 'additionalProperties') {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      segs.push(key);
    }
    const path = shown(segs);
    if (e.keyword === 'additionalProperties') {
      const key = String(segs[segs.length - 1]);
      const known = Object.keys(((e.parentSchema as { properties?: object } | undefined)?.properties ?? {}) as object);
      const guess = closest(key, known);
      severity = 'warning';
      message = `unknown ${what} field ${path}${guess ? ` (did you mean ${guess}?)` : ''}`;
    } else if (e.keyword === 'type') {
      message = `${what} field ${path || '<root>'} must be ${(e.params as { type: string | string[] }).type}`;
    } else if (e.keyword === 'enum') {
      message = `${what} field ${path} must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues).filter((x) => typeof x === 'string').join(', ')}`;
    } else if (e.keyword === 'pattern') {
      message = `${what} field ${path} is not a duration like "5s"`;
    } else if (e.keyword === 'anyOf') {
      continue; // reported by the branch errors
    } else message = `${what} field ${path}: ${e.message ?? 'invalid'}`;
    // an unknown field is pointed at by its key, a wrong value by the value
    const where = doc ? doc.where(segs, { key: severity === 'warning' }) : '';
    const key = `${severity}|${where}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ severity, where, message });
  }
  return out;
}

export function validateValues(raw: unknown, doc?: LoadedDocument): Problem[] {
  return run(valuesSchema, raw ?? {}, doc, 'values');
}

/** What the protobuf parser (as jsonpb in istiod) says about every field: unknown ones warn, with a
 *  suggestion; a value it cannot take is an error. */
function protoProblems(parse: (opts: ParseOpts) => unknown, doc: LoadedDocument | undefined, what: string): Problem[] {
  const out: Problem[] = [];
  const where = (path: string, key: boolean): string => (doc ? doc.where(splitPath(path), { key }) : '');
  try {
    parse({
      warn: (path, message, known) => {
        if (!known) return out.push({ severity: 'warning', where: where(path, true), message: `${what}: ${message}` });
        const key = path.replace(/^.*\./, '');
        const guess = closest(key, known);
        out.push({ severity: 'warning', where: where(path, true), message: `unknown ${what} field ${path}${guess ? ` (did you mean ${guess}?)` : ''}` });
      },
    });
  } catch (e) {
    if (!(e instanceof ProtoParseError)) throw e;
    out.push({ severity: 'error', where: where(e.path, false), message: `${what}: ${e.message}` });
  }
  return out;
}

/** Schema problems first; the protobuf parser's only where the schema said nothing at that place. */
function combined(schema: Problem[], proto: Problem[]): Problem[] {
  const seen = new Set(schema.map((p) => p.where));
  return [...schema, ...proto.filter((p) => !seen.has(p.where))];
}

export function validateMesh(raw: unknown, doc?: LoadedDocument, version?: IstioVersion): Problem[] {
  const schema = run(meshSchema, raw ?? {}, doc, 'mesh config');
  if (!version) return schema;
  return combined(schema, protoProblems((opts) => applyMeshConfig(version, raw ?? {}, opts), doc, 'mesh config'));
}

export function validateProxyConfigAnnotation(raw: unknown, doc?: LoadedDocument, version?: IstioVersion): Problem[] {
  const schema = run(proxyConfigSchema, raw ?? {}, doc, 'proxy config');
  if (!version) return schema;
  return combined(schema, protoProblems((opts) => parseProxyConfig(version, raw ?? {}, opts), doc, 'proxy config'));
}

export function formatProblem(p: Problem): string {
  return `${p.where ? `${p.where}: ` : ''}${p.severity}: ${p.message}`;
}
