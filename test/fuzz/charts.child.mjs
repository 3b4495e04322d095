// The chart fuzzing of charts.test.ts, in a process of its own over the build in dist/, so that a hang
// (a synchronous loop no time limit can interrupt) ends in a kill the test sees, not in a stuck suite.
// Usage: node charts.child.mjs PROPERTY RUNS SEED, with PROPERTY one of folders, archives, schemas.
// Before each case it prints "case N ..." (stdout is a pipe: written at once); at the end "ran N".

import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { renderChart } from '../../dist/helm/index.js';
import { tgzOf } from '../helpers/tar.mjs';

const [property, runsText, seedText] = process.argv.slice(2);
const RUNS = Number(runsText);
const SEED = Number(seedText);
/** The render's own limit; a run that takes far longer than it has hung. */
const RENDER_MS = 2000;
const HANG_MS = RENDER_MS + 8000;

const tmp = mkdtempSync(join(tmpdir(), 'sidecar-render-fuzz-charts-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

// What must never reach an output: a file outside every chart, and an environment variable.
const SECRET = 'OUTSIDE-THE-CHART-7f3a9c';
const ENV_SECRET = 'IN-THE-ENVIRONMENT-51d2e8';
const outsideFile = join(tmp, 'outside', 'secret.txt');
mkdirSync(dirname(outsideFile), { recursive: true });
writeFileSync(outsideFile, `${SECRET}\n`);
process.env['SIDECAR_RENDER_FUZZ_SECRET'] = ENV_SECRET;

// ---------- the grammar ----------

const word = fc.constantFrom('a', 'b', 'x', 'name', 'sub', 'global', 'enabled', 'items', '__proto__', 'constructor', 'toString', 'é', '日本');
const scalar = fc.constantFrom('1', '-1', '0x10', '1e3', 'true', 'no', 'on', '~', 'null', '"s"', "'q'", 'text', '""', '[]', '{}', '&a x', '*a', '!!str 1', '!!binary aGk=', '|\n  lit', '>-\n  fold', '"\\u2028"', '"\\x00"', 'a\u0085b', '\t', '@', '%x', 'a'.repeat(40) + '!', 'ab-'.repeat(30) + '_');
const yamlValue = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('map'), tie('list')),
  map: fc.array(fc.tuple(word, tie('v')), { maxLength: 4 }).map((es) => (es.length === 0 ? '{}' : `{${es.map(([k, v]) => `${k}: ${v.includes('\n') ? JSON.stringify(v) : v}`).join(', ')}}`)),
  list: fc.array(tie('v'), { maxLength: 4 }).map((vs) => `[${vs.map((v) => (v.includes('\n') ? JSON.stringify(v) : v)).join(', ')}]`),
})).v;
const valuesText = fc.oneof(
  fc.array(fc.tuple(word, yamlValue), { maxLength: 6 }).map((es) => es.map(([k, v]) => `${k}: ${v.includes('\n') ? JSON.stringify(v) : v}`).join('\n') + '\n'),
  fc.constantFrom('', '---\n---\n', 'a: [\n', '- 1\n', 'a: *missing\n', 'a: &x [*x]\n', 'x: "{{ tpl .Values.x . }}"\n', '\ufeffa: 1\n', ': :\n'),
  fc.string({ maxLength: 40 }),
);

const TEMPLATES = [
  'a: {{ .Values.a | toYaml | nindent 2 }}',
  'b: {{ .Values | toJson | quote }}',
  '{{ range $k, $v := .Values }}{{ $k }}: {{ $v | quote }}\n{{ end }}',
  'f: {{ .Files.Get "secret.txt" | quote }}',
  'g: {{ .Files.Glob "**" | toJson | quote }}',
  'h: {{ range $p, $_ := .Files.Glob "*" }}{{ $p }} {{ end }}',
  'h2: {{ .Files.Glob "files/*a*a*a*a*a*a*a*a*b" | len }}',
  'i: {{ .Files.GetBytes "link" | b64enc }}',
  'j: {{ (.Files.Glob "files/*").AsConfig | quote }}',
  'k: {{ tpl (toString .Values.x) . | quote }}',
  'l: {{ include "t" . }}{{ define "t" }}{{ .Chart.Name }}{{ end }}',
  'm: {{ required "need a" .Values.a }}',
  'n: {{ .Capabilities.KubeVersion }} {{ .Release.Name }} {{ .Template.Name }}',
  'o: {{ lookup "v1" "Secret" "" "" | toJson | quote }}',
  'p: {{ fail "no" }}',
  'q: {{ env "SIDECAR_RENDER_FUZZ_SECRET" }}{{ expandenv "$SIDECAR_RENDER_FUZZ_SECRET" }}',
  'r: {{ .Values.sub | toYaml | nindent 2 }}',
  'kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: {{ .Values.name | default "x" }}\n  annotations:\n    helm.sh/hook-weight: 5\n    helm.sh/hook: {{ .Values.hook | default "pre-install" }}',
  '{{ .Files.Get "link-out" }}{{ .Files.Get "proc" }}',
  'kind: {{ .Values.a }}\nmetadata: {{ .Values.b }}',
];
const template = fc.oneof(fc.constantFrom(...TEMPLATES), fc.string({ maxLength: 30 }));

const IGNORE = ['*', '**', '*.txt', 'templates/', '!templates/a.yaml', '[', '[!a-c]*', '\\*', 'sub/', '/abs', '*a*a*a*a*a*a*a*a*b', 'a?c', '#c', '', 'link*', 'charts/', '..', '.'];
const helmignore = fc.array(fc.oneof(fc.constantFrom(...IGNORE), fc.string({ maxLength: 12 })), { maxLength: 6 }).map((ls) => ls.join('\n'));

const PATTERNS = ['^(a+)+$', '^([a-z0-9]+-?)+$', '(?=x)', '\\1', '[', '^\\p{L}+$', 'a{2,1000}', '.*.*.*.*.*=', '^[^/]*$'];
const schemaNode = fc.letrec((tie) => ({
  s: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom({}, true, false, { type: 'string' }, { type: 'integer' }, { type: ['string', 'null'] }, { $ref: '#' }, { $ref: '#/definitions/x' }, { format: 'email' }, { format: 'date-time' }, { format: 'ipv4' }, { enum: [1, 'a', null] }, { const: 'x' }, { minimum: 0 }, { maxLength: 2 }, { type: 'bogus' }),
    fc.constantFrom(...PATTERNS).map((pattern) => ({ type: 'string', pattern })),
    fc.record({ properties: fc.dictionary(word, tie('s'), { maxKeys: 3 }) }),
    fc.record({ patternProperties: fc.dictionary(fc.constantFrom(...PATTERNS), tie('s'), { maxKeys: 2 }), additionalProperties: fc.boolean() }),
    fc.record({ items: tie('s'), required: fc.array(word, { maxLength: 2 }) }),
    fc.record({ anyOf: fc.array(tie('s'), { minLength: 1, maxLength: 2 }) }),
  ),
})).s;
const schemaText = fc.oneof(schemaNode.map((s) => JSON.stringify(s)), fc.constantFrom('', '{', 'null', '[]', '{"$schema":"http://json-schema.org/draft-07/schema#","$id":"same","type":"object"}'));

const setText = fc.oneof(
  fc.tuple(fc.array(fc.oneof(word, fc.constantFrom('a[0]', 'a[65537]', 'b\\.c', 'x[1][2]', '')), { minLength: 1, maxLength: 4 }), fc.oneof(scalar, fc.constantFrom('{a,b}', 'a,b=c', 'null', '', '[1', '"q"'))).map(([ks, v]) => `${ks.join('.')}=${v}`),
  fc.string({ maxLength: 20 }),
);

const LINKS = [
  ['link-out', () => outsideFile],
  ['link-rel', (c) => joinUp(c, outsideFile)],
  ['proc', () => '/proc/self/environ'],
  ['zero', () => '/dev/zero'],
  ['self', () => '.'],
  ['root', () => '/'],
  ['link', () => 'Chart.yaml'],
  ['templates/link.yaml', () => '../values.yaml'],
  ['dangling', () => 'nowhere'],
  ['files/loop', () => '../files'],
];
function joinUp(chart, target) {
  const depth = chart.slice(tmp.length + 1).split('/').length;
  return '../'.repeat(depth) + target.slice(tmp.length + 1);
}

const chartSpec = fc.record({
  name: fc.oneof(fc.constantFrom('c', 'my-chart', 'UPPER', 'x.y'), fc.string({ minLength: 1, maxLength: 8 }).filter((s) => /^[\w.-]+$/.test(s) && s !== '.' && s !== '..')),
  values: fc.option(valuesText, { nil: undefined }),
  templates: fc.array(template, { maxLength: 4 }),
  ignore: fc.option(helmignore, { nil: undefined }),
  schema: fc.option(schemaText, { nil: undefined }),
  links: fc.uniqueArray(fc.nat({ max: LINKS.length - 1 }), { maxLength: 3 }),
  sub: fc.option(
    fc.record({
      aliases: fc.array(fc.constantFrom('one', 'two', 'sub', ''), { maxLength: 3 }),
      values: fc.option(valuesText, { nil: undefined }),
      templates: fc.array(template, { maxLength: 2 }),
      schema: fc.option(schemaText, { nil: undefined }),
    }),
    { nil: undefined },
  ),
  files: fc.array(fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('\u0000\u00ff binary', '\ufeffbom')), { maxLength: 2 }),
  longName: fc.boolean(),
});

function write(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

let serial = 0;
function makeFolder(spec) {
  const dir = join(tmp, `c${serial++}`, spec.name);
  const deps = spec.sub ? (spec.sub.aliases.length ? spec.sub.aliases : [undefined]).map((a) => `- name: sub\n  version: 0.1.0\n${a !== undefined ? `  alias: ${a || '""'}\n` : ''}`).join('') : '';
  write(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${JSON.stringify(spec.name)}\nversion: 0.1.0\n${deps ? `dependencies:\n${deps}` : ''}`);
  if (spec.values !== undefined) write(join(dir, 'values.yaml'), spec.values);
  spec.templates.forEach((t, i) => write(join(dir, 'templates', `t${i}.yaml`), t));
  if (spec.ignore !== undefined) write(join(dir, '.helmignore'), spec.ignore);
  if (spec.schema !== undefined) write(join(dir, 'values.schema.json'), spec.schema);
  spec.files.forEach((f, i) => write(join(dir, 'files', `f${i}.txt`), Buffer.from(f, 'latin1')));
  if (spec.longName) write(join(dir, 'files', 'a'.repeat(60)), 'long');
  if (spec.sub) {
    const s = join(dir, 'charts', 'sub');
    write(join(s, 'Chart.yaml'), 'apiVersion: v2\nname: sub\nversion: 0.1.0\n');
    if (spec.sub.values !== undefined) write(join(s, 'values.yaml'), spec.sub.values);
    if (spec.sub.schema !== undefined) write(join(s, 'values.schema.json'), spec.sub.schema);
    spec.sub.templates.forEach((t, i) => write(join(s, 'templates', `s${i}.yaml`), t));
  }
  for (const i of spec.links) {
    const [name, target] = LINKS[i];
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    symlinkSync(target(dir), join(dir, name));
  }
  return dir;
}

// ---------- archives ----------

const entryName = fc.oneof(
  fc.constantFrom('c/Chart.yaml', 'c/values.yaml', 'c/templates/a.yaml', 'c/values.schema.json', 'c/.helmignore', 'c/charts/sub.tgz', 'c/../../x', '/abs/Chart.yaml', 'c/a/../../b', 'Chart.yaml', 'c/', 'c/files/é', 'd/Chart.yaml', 'c\\..\\x'),
  fc.string({ minLength: 1, maxLength: 12 }).map((s) => `c/${s}`),
  fc.constant(`c/${'a'.repeat(60)}`),
);
const entry = fc.record({
  name: entryName,
  type: fc.constantFrom('0', '0', '0', '\0', '1', '2', '3', '4', '5', '6', '7', 'g', 'L', 'K', 'Z'),
  data: fc.oneof(fc.constantFrom('apiVersion: v2\nname: c\nversion: 1.0.0\n', 'a: {{ .Values | toJson | quote }}\n', 'x: 1\n', '{}', ''), fc.string({ maxLength: 30 })).map((s) => Buffer.from(s)),
  linkname: fc.option(fc.constantFrom('/etc/passwd', '../../x', 'c/Chart.yaml', '/proc/self/environ'), { nil: undefined }),
  pax: fc.option(fc.dictionary(fc.constantFrom('path', 'size', 'linkpath', 'mtime'), fc.constantFrom('0', '1', 'c/p.yaml', '../../y', '-1', '99999999999', 'x')), { nil: undefined }),
});

function makeArchive(entries, base, nested) {
  const list = [...entries];
  if (base) list.unshift({ name: 'c/Chart.yaml', type: '0', data: Buffer.from('apiVersion: v2\nname: c\nversion: 1.0.0\n') }, { name: 'c/templates/t.yaml', type: '0', data: Buffer.from('v: {{ .Values | toJson | quote }}\nf: {{ .Files.Glob "**" | toJson | quote }}\n') });
  if (nested) list.push({ name: 'c/charts/n.tgz', type: '0', data: tgzOf([{ name: 'n/Chart.yaml', type: '0', data: Buffer.from('apiVersion: v2\nname: n\nversion: 1.0.0\n') }, ...entries]) });
  const file = join(tmp, `a${serial++}.tgz`);
  writeFileSync(file, tgzOf(list));
  return file;
}

// ---------- the property ----------

/** Errors of the language the chart is written in are never the sign of a bug of ours. */
function ownError(e) {
  if (!(e instanceof Error)) return false;
  if (e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError || e instanceof SyntaxError) return false;
  return !/Maximum call stack|Cannot read propert|is not a function|undefined|\[object /.test(e.message) || /\bundefined\b.*(template|value|key)/.test(e.message);
}

function check(chart, sets, strings) {
  const started = Date.now();
  let out = '';
  try {
    const r = renderChart(chart, { set: sets, setString: strings, timeoutMs: RENDER_MS });
    out = JSON.stringify(r.manifests) + JSON.stringify(r.hooks);
  } catch (e) {
    if (!ownError(e)) throw new Error(`not one of our errors: ${e?.stack ?? String(e)}`);
    out = e.message;
  }
  const took = Date.now() - started;
  if (took > HANG_MS) throw new Error(`a render took ${took} ms, past its time limit of ${RENDER_MS} ms`);
  if (out.includes(SECRET)) throw new Error('a file outside the chart reached the output');
  if (out.includes(ENV_SECRET)) throw new Error('an environment variable reached the output');
}

// ---------- the run ----------

let n = 0;
const note = (what) => process.stdout.write(`case ${++n} ${JSON.stringify(what).slice(0, 2000)}\n`);
const properties = {
  folders: fc.property(chartSpec, fc.array(setText, { maxLength: 3 }), fc.array(setText, { maxLength: 2 }), (spec, sets, strings) => {
    note({ spec, sets, strings });
    check(makeFolder(spec), sets, strings);
  }),
  archives: fc.property(fc.array(entry, { maxLength: 6 }), fc.boolean(), fc.boolean(), fc.array(setText, { maxLength: 2 }), (entries, base, nested, sets) => {
    note({ entries: entries.map((e) => ({ ...e, data: e.data.toString() })), base, nested, sets });
    check(makeArchive(entries, base, nested), sets, []);
  }),
  schemas: fc.property(schemaText, valuesText, fc.array(setText, { maxLength: 2 }), (schema, values, sets) => {
    note({ schema, values, sets });
    check(makeFolder({ name: 's', values, templates: ['v: {{ .Values | toJson | quote }}'], ignore: undefined, schema, links: [], sub: undefined, files: [], longName: false }), sets, []);
  }),
};
const details = fc.check(properties[property], { numRuns: RUNS, seed: SEED });
if (details.failed) {
  const why = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  process.stdout.write(`FAILED after ${details.numRuns} runs, seed ${SEED}: ${JSON.stringify(details.counterexample).slice(0, 4000)}\n${why.slice(0, 4000)}\n`);
  process.exitCode = 1;
} else process.stdout.write(`ran ${details.numRuns}\n`);
