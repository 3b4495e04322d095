// Validation of user-supplied values and mesh config against the schemas in schema/: problems come
// back with file:line:col. Unknown or misspelled fields are warnings; a wrong type is an error.
//
// Public API
//   Problem { severity: 'error' | 'warning', where, message }
//   validateValues(raw, doc?)          injector values (data.values or a values file)
//   validateMesh(raw, doc?)            MeshConfig YAML object (data.mesh or a mesh file)
//   validateProxyConfigAnnotation(raw, doc?)
//   formatProblem(p)                   "file:line:col: warning: ..." one line

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { valuesSchema } from './schema/values.schema.js';
import { meshSchema, proxyConfigSchema } from './schema/mesh.schema.js';
import type { YamlDoc } from './yamlsrc.js';

export interface Problem {
  severity: 'error' | 'warning';
  where: string;
  message: string;
}

let ajv: Ajv | undefined;
const compiled = new Map<object, ValidateFunction>();

function validator(schema: object): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    ajv ??= new Ajv({ allErrors: true, strict: false, verbose: true });
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

function pathOf(instancePath: string): string {
  // "/global/proxy/lifecycle" → "global.proxy.lifecycle"; array indexes as [i]
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc === '' ? s : `${acc}.${s}`), '');
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

function run(schema: object, raw: unknown, doc: YamlDoc | undefined, what: string, prefix = ''): Problem[] {
  const v = validator(schema);
  if (v(raw)) return [];
  const out: Problem[] = [];
  const seen = new Set<string>();
  for (const e of (v.errors ?? []) as ErrorObject[]) {
    let path = pathOf(e.instancePath);
    let severity: Problem['severity'] = 'error';
    let message: string;
    if (e.keyword === 'additionalProperties') {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      path = path === '' ? key : `${path}.${key}`;
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
    const full = prefix ? (path ? `${prefix}.${path}` : prefix) : path;
    const where = doc ? doc.where(full, severity === 'warning') : '';
    const key = `${severity}|${where}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ severity, where, message });
  }
  return out;
}

export function validateValues(raw: unknown, doc?: YamlDoc): Problem[] {
  return run(valuesSchema, raw ?? {}, doc, 'values');
}

export function validateMesh(raw: unknown, doc?: YamlDoc): Problem[] {
  return run(meshSchema, raw ?? {}, doc, 'mesh config');
}

export function validateProxyConfigAnnotation(raw: unknown, doc?: YamlDoc): Problem[] {
  return run(proxyConfigSchema, raw ?? {}, doc, 'proxy config');
}

export function formatProblem(p: Problem): string {
  return `${p.where ? `${p.where}: ` : ''}${p.severity}: ${p.message}`;
}
