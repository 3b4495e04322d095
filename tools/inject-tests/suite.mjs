// Istio's own injection tests (pkg/kube/inject: TestInjection's case table in inject_test.go, the
// testdata/inject inputs and kube-inject goldens) run through `render --merged --mode kube-inject`.
//
// A suite is a folder holding either a checkout of istio/istio at one tag (pkg/kube/inject/ and
// manifests/), or the injection tests alone (inject_test.go and testdata/, as ../shared keeps 1.24.0).
// The case table is read from the Go source, so any release's copy can be pointed at; what each case
// sets is interpreted here: its values (--set flags and IstioOperator file, given to the release's own
// chart as istioctl's operator gives them), its mesh edits, and istiod's environment.
//
// Where the tag ships the Helm-rendered settings (testdata/inputs/*.gen.yaml, 1.14 to 1.24), they are
// used as they are; elsewhere the release's own chart (manifests/charts/istio-control/istio-discovery)
// is rendered with the values istioctl's operator would give it: the default profile, then the empty
// one, pilot on, the case's IstioOperator file and --set flags (inputsFromChart).
//
// The renderer and the chart renderer are given by the caller (the built package for the command line
// tool, the sources under vitest), so this file imports neither.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { parseGoExpr, protoJSON } from '../istio-source/golit.mjs';

// ---------- the suite's folders ----------

/**
 * The folders of a suite: `inject` (inject_test.go, testdata/) and, in a checkout, `manifests`.
 * @param {string} dir
 * @returns {{ dir: string, inject: string, manifests?: string, legacyOperator?: boolean }}
 */
export function suiteFolders(dir) {
  const inCheckout = join(dir, 'pkg/kube/inject');
  if (existsSync(join(inCheckout, 'inject_test.go'))) {
    const manifests = join(dir, 'manifests');
    // the operator before its rewrite (1.24) translates values its own way
    const legacyOperator = existsSync(join(dir, 'operator/pkg/translate/translate.go'));
    return { dir, inject: inCheckout, ...(existsSync(manifests) ? { manifests } : {}), ...(legacyOperator ? { legacyOperator } : {}) };
  }
  if (existsSync(join(dir, 'inject_test.go'))) return { dir, inject: dir };
  throw new Error(`${dir}: neither an istio/istio checkout (pkg/kube/inject/inject_test.go) nor an injection test folder (inject_test.go)`);
}

// ---------- the case table ----------

/** The body between the brace at `open` and its match, skipping Go strings, runes and comments. */
function braced(src, open) {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === '`' || c === "'") {
      if (c === '`') i = src.indexOf('`', i + 1);
      else {
        let j = i + 1;
        while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
        i = j;
      }
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      i = src.indexOf('\n', i);
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return src.slice(open + 1, i);
  }
  throw new Error('unbalanced braces in inject_test.go');
}

function goString(s) {
  return s.startsWith('`') ? s.slice(1, -1) : JSON.parse(s);
}

const GO_STRING = '("(?:[^"\\\\]|\\\\.)*"|`[^`]*`)';

function fieldBody(entry, name) {
  const m = new RegExp(`\\b${name}:\\s*func\\([^)]*\\)\\s*\\{`).exec(entry);
  return m ? braced(entry, m.index + m[0].length - 1) : undefined;
}

/**
 * @typedef {object} InjectCase
 * @property {number} index      position in the table (names the case's own inputs: `<in>.<index>.*.gen.yaml`)
 * @property {string} in
 * @property {string} want
 * @property {string[]} [setFlags]   the case's istioctl --set flags
 * @property {string} [inFilePath]   the case's IstioOperator file (testdata/inject/)
 * @property {string} [kubeVersion]  the kubelet version of the nodes the test gives istiod
 * @property {string} [meshBody]
 * @property {string} [setupBody]
 * @property {boolean} skipInjection
 * @property {string} [expectedError]
 * @property {string} [expectedLog]
 */

/**
 * TestInjection's table, then (as the test does) every other `*.yaml` input of testdata/inject.
 * @param {string} injectDir  the folder of inject_test.go
 * @returns {InjectCase[]}
 */
export function readInjectCases(injectDir) {
  const src = readFileSync(join(injectDir, 'inject_test.go'), 'utf8');
  const fn = src.indexOf('func TestInjection(');
  const start = src.indexOf('cases := []testCase{', fn);
  if (fn < 0 || start < 0) throw new Error(`${injectDir}/inject_test.go: no TestInjection case table`);
  const table = braced(src, src.indexOf('{', start + 'cases := []testCase'.length));
  // nodes declared before the table (from 1.28): their oldest kubelet version
  const kubelets = [...src.slice(fn, start).matchAll(/KubeletVersion:\s*"v?(\d+)\.(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  kubelets.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const kube = kubelets.length ? { kubeVersion: `${kubelets[0][0]}.${kubelets[0][1]}` } : {};
  /** @type {InjectCase[]} */
  const cases = [];
  for (let i = 0; i < table.length; i++) {
    if (table[i] !== '{') continue;
    const entry = braced(table, i);
    i += entry.length + 1;
    const str = (name) => {
      const m = new RegExp(`\\b${name}:\\s*${GO_STRING}`).exec(entry);
      return m ? goString(m[1]) : undefined;
    };
    const input = str('in');
    /** @type {InjectCase} */
    const c = { ...kube, index: cases.length, in: input, want: str('want') ?? `${input}.injected`, skipInjection: /\bskipInjection:\s*true/.test(entry) };
    const flags = /\bsetFlags:\s*\[\]string\{/.exec(entry);
    if (flags) c.setFlags = [...braced(entry, flags.index + flags[0].length - 1).matchAll(new RegExp(GO_STRING, 'g'))].map((m) => goString(m[1]));
    const iop = str('inFilePath');
    if (iop !== undefined) c.inFilePath = iop;
    const meshBody = fieldBody(entry, 'mesh');
    const setupBody = fieldBody(entry, 'setup');
    const err = str('expectedError');
    const log = str('expectedLog');
    if (meshBody !== undefined) c.meshBody = meshBody;
    if (setupBody !== undefined) c.setupBody = setupBody;
    if (err !== undefined) c.expectedError = err;
    if (log !== undefined) c.expectedLog = log;
    cases.push(c);
  }
  const tested = new Set(cases.map((c) => c.want));
  for (const f of readdirSync(join(injectDir, 'testdata/inject')).sort()) {
    if (f.endsWith('.iop.yaml') || !f.endsWith('.yaml')) continue;
    if (tested.has(`${f}.injected`)) continue;
    cases.push({ ...kube, index: cases.length, in: f, want: `${f}.injected`, skipInjection: false });
  }
  return cases;
}

/** Whether the case has settings of its own (the test renders the chart again for it). */
export const ownSettings = (c) => c.setFlags !== undefined || c.inFilePath !== undefined;

// ---------- what a case sets, in render's terms ----------

// istiod feature flags a case's setup may set, by Go name: the environment variable behind each.
const FEATURE_ENV = {
  EnableLegacyFSGroupInjection: 'ENABLE_LEGACY_FSGROUP_INJECTION',
  RewriteTCPProbes: 'REWRITE_TCP_PROBES',
  CompliancePolicy: 'COMPLIANCE_POLICY',
};

const lowerFirst = (s) => s.charAt(0).toLowerCase() + s.slice(1);

function at(mesh, path) {
  let cur = mesh;
  for (const p of path) {
    if (typeof cur[p] !== 'object' || cur[p] === null) cur[p] = {};
    cur = cur[p];
  }
  return cur;
}

const UNIT = { Second: 's', Millisecond: 'ms', Minute: 'm' };

/** A Go expression assigned to a MeshConfig field, as mesh YAML; undefined when not understood. */
function goValue(expr) {
  expr = expr.trim().replace(/,$/, '');
  // append(m.X, &meshapi.T{...}): the list as the mesh YAML has it (read by istio-source's Go reader);
  // the loaded mesh's defaults come in when render loads it, as they were in the Go value
  const app = /^append\(m\.[\w.]+,\s*([\s\S]*)\)$/.exec(expr);
  if (app) {
    try {
      return { append: protoJSON(parseGoExpr(app[1]), { constants: {} }) };
    } catch {
      return undefined;
    }
  }
  let m = /^(?:meshapi|meshconfig|v1alpha1)\.\w+?_([A-Z0-9_]+)$/.exec(expr);
  if (m) return /_([A-Z0-9]+)$/.exec(expr)[1];
  // durationpb.New(time.Second * 23) (golang/protobuf), types.DurationProto(time.Second * 23) (gogo, to 1.8)
  m = /^(?:durationpb\.New|types\.DurationProto|ptypes\.DurationProto)\(time\.(Second|Millisecond|Minute)\s*\*\s*(\d+)\)$/.exec(expr);
  if (m) return `${m[2]}${UNIT[m[1]]}`;
  m = /^&(?:meshapi|meshconfig|v1alpha1)\.[\w]+\{([\s\S]*)\}$/.exec(expr);
  if (m) {
    const o = {};
    for (const part of m[1].split(/,\s*\n|\n/).map((s) => s.trim()).filter(Boolean)) {
      const kv = /^(\w+):\s*(.+)$/.exec(part);
      if (!kv) return undefined;
      const v = goValue(kv[2]);
      if (v === undefined) return undefined;
      o[lowerFirst(kv[1])] = v;
    }
    return o;
  }
  m = /^("(?:[^"\\]|\\.)*")$/.exec(expr);
  if (m) return JSON.parse(m[1]);
  if (/^(true|false|\d+)$/.test(expr)) return JSON.parse(expr);
  return undefined;
}

/**
 * @typedef {object} CaseSettings
 * @property {Array<(mesh: Record<string, unknown>) => void>} meshEdits
 * @property {'true' | 'false'} [nativeSidecars]
 * @property {Record<string, string>} env   istiod's environment (`render --env`)
 */

/**
 * The case's mesh function and setup as render settings, or why they cannot be expressed.
 * @param {InjectCase} c
 * @returns {CaseSettings | { unexpressible: string }}
 */
export function caseSettings(c) {
  /** @type {CaseSettings} */
  const s = { meshEdits: [], env: {} };
  if (c.meshBody !== undefined) {
    // nil-map guards only make room for the assignment that follows
    const body = c.meshBody.replace(/if\s+m\.[\w.]+\s*==\s*nil\s*\{[\s\S]*?\n\s*\}/g, '');
    const stmts = body.split(/\n(?=\s*m\.)/).map((x) => x.trim()).filter(Boolean);
    for (const st of stmts) {
      const mapSet = /^m\.([\w.]+)\["([^"]+)"\]\s*=\s*(.+)$/s.exec(st);
      const set = /^m\.([\w.]+)\s*=\s*(.+)$/s.exec(st);
      const path = (mapSet ?? set)?.[1]?.split('.').map(lowerFirst);
      const value = mapSet ? goValue(mapSet[3]) : set ? goValue(set[2]) : undefined;
      if (!path || value === undefined) return { unexpressible: `mesh edit not understood: ${st.split('\n')[0]}` };
      const key = mapSet ? mapSet[2] : path.pop();
      s.meshEdits.push((mesh) => {
        const parent = at(mesh, path);
        if (isMap(value) && 'append' in value) parent[key] = [...(Array.isArray(parent[key]) ? parent[key] : []), value.append];
        else parent[key] = value;
      });
    }
  }
  if (c.setupBody !== undefined) {
    for (const st of c.setupBody.split('\n').map((x) => x.trim()).filter(Boolean)) {
      const native = /features\.EnableNativeSidecars(?:\.Name)?,\s*(?:"(true|false)"|features\.NativeSidecarMode(Enabled|Disabled)|(true|false))\)/.exec(st);
      const flag = /&(?:\w+\.)?(\w+),\s*("(?:[^"\\]|\\.)*"|true|false)\)/.exec(st);
      const envSet = /(?:SetEnvForTest\(t,|os\.Setenv\()\s*"(\w+)",\s*("(?:[^"\\]|\\.)*")\)/.exec(st);
      // a feature variable assigned directly (to 1.13): features.RewriteTCPProbes = false
      const assigned = /^features\.(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|true|false)$/.exec(st);
      if (native) s.nativeSidecars = native[1] === 'true' || native[2] === 'Enabled' || native[3] === 'true' ? 'true' : 'false';
      else if (envSet) s.env[envSet[1]] = JSON.parse(envSet[2]);
      else if (flag && FEATURE_ENV[flag[1]]) s.env[FEATURE_ENV[flag[1]]] = flag[2].startsWith('"') ? JSON.parse(flag[2]) : flag[2];
      else if (assigned && FEATURE_ENV[assigned[1]]) s.env[FEATURE_ENV[assigned[1]]] = assigned[2].startsWith('"') ? JSON.parse(assigned[2]) : assigned[2];
      else return { unexpressible: `setup not expressible with render's flags: ${st}` };
    }
  }
  return s;
}

// ---------- the settings istioctl's operator gives the chart ----------

const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The operator's values.Map MergeFrom: maps merged key by key, anything else replaced. */
function mergeFrom(dst, src) {
  for (const [k, v] of Object.entries(src)) {
    if (isMap(v) && isMap(dst[k])) mergeFrom(dst[k], v);
    else dst[k] = isMap(v) ? mergeFrom({}, v) : v;
  }
  return dst;
}

/** A --set value as the operator reads it: true/false and numbers typed, anything else a string. */
function flagValue(s) {
  if (s === 'true' || s === 'false') return s === 'true';
  if (/^-?\d+$/.test(s)) return Number(s);
  return s;
}

function setPath(obj, path, value) {
  let cur = obj;
  for (const p of path.slice(0, -1)) {
    if (!isMap(cur[p])) cur[p] = {};
    cur = cur[p];
  }
  cur[path.at(-1)] = value;
}

function getPath(obj, path) {
  let cur = obj;
  for (const p of path) {
    if (!isMap(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

function readIOP(file) {
  const doc = parse(readFileSync(file, 'utf8')) ?? {};
  if (doc.spec === null) delete doc.spec;
  return doc;
}

/**
 * The chart values istioctl's operator computes for the pilot component: the default profile, the empty
 * profile over it, the IstioOperator file, the --set flags (profile=empty, components.pilot.enabled=true
 * as the test adds them), then spec.hub/tag/revision/meshConfig as values and component enablement.
 * Before its rewrite (1.24: operator/pkg/render), the operator (operator/pkg/translate) also wrote each
 * component's namespace and the global and istio_cni enablement (`legacy`).
 * @param {string} manifests   the checkout's manifests/
 * @param {string[]} setFlags
 * @param {string | undefined} iopFile
 * @param {boolean} [legacy]
 */
export function operatorValues(manifests, setFlags, iopFile, legacy = false) {
  const user = { apiVersion: 'install.istio.io/v1alpha1', kind: 'IstioOperator', metadata: {}, spec: {} };
  if (iopFile) mergeFrom(user, readIOP(iopFile));
  for (const f of [...setFlags, 'profile=empty', 'components.pilot.enabled=true']) {
    const eq = f.indexOf('=');
    setPath(user.spec, f.slice(0, eq).split('.'), flagValue(f.slice(eq + 1)));
  }
  const base = readIOP(join(manifests, 'profiles/default.yaml'));
  const profile = user.spec.profile ?? 'default';
  if (profile !== 'default') mergeFrom(base, readIOP(join(manifests, `profiles/${profile}.yaml`)));
  mergeFrom(base, user);
  const spec = base.spec ?? {};
  const values = isMap(spec.values) ? spec.values : {};
  for (const [from, to] of [['hub', 'global.hub'], ['tag', 'global.tag'], ['revision', 'revision']]) {
    if (spec[from] !== undefined && spec[from] !== '') setPath(values, to.split('.'), spec[from]);
  }
  if (isMap(spec.meshConfig)) values.meshConfig = mergeFrom(isMap(values.meshConfig) ? values.meshConfig : {}, spec.meshConfig);
  const enabled = (c) => getPath(spec, ['components', c, 'enabled']) === true;
  setPath(values, ['pilot', 'enabled'], enabled('pilot'));
  if (legacy) {
    // operator/pkg/translate (to 1.23) setComponentProperties: each component's enablement and namespace
    // (the cni component's enablement as istio_cni.enabled), the base component's last, then istioNamespace
    const ns = (typeof spec.namespace === 'string' && spec.namespace) || (typeof base.metadata?.namespace === 'string' && base.metadata.namespace) || 'istio-system';
    for (const [root, on] of [['ztunnel', 'ztunnel'], ['pilot', 'pilot'], ['global', 'istiodRemote'], ['cni', 'cni'], ['global', 'base']]) {
      setPath(values, [root === 'cni' ? 'istio_cni' : root, 'enabled'], enabled(on));
      setPath(values, [root, 'namespace'], ns);
    }
    setPath(values, ['global', 'istioNamespace'], ns);
  } else setPath(values, ['pilot', 'cni', 'enabled'], enabled('cni'));
  // user values win over the translations, as MergeInputs applies them last
  if (isMap(user.spec.values)) mergeFrom(values, user.spec.values);
  return values;
}

/**
 * The injector config, values and mesh the release's chart renders for the case, written as the
 * `*.gen.yaml` files Istio's later suites ship. Cached per settings in `scratch`.
 * @param {{ inject: string, manifests: string, legacyOperator?: boolean }} suite
 * @param {InjectCase | undefined} c   undefined: the default settings
 * @param {string} scratch
 * @param {(chart: string, opts: object) => { manifests: { kind: string, content: string }[] }} renderChart
 */
export function inputsFromChart(suite, c, scratch, renderChart) {
  const prefix = c && ownSettings(c) ? `${c.in}.${c.index}` : 'default';
  const file = (k) => join(scratch, `${prefix}.${k}.gen.yaml`);
  if (existsSync(file('template'))) return file;
  const iop = c?.inFilePath ? join(suite.inject, 'testdata/inject', c.inFilePath) : undefined;
  const values = operatorValues(suite.manifests, c?.setFlags ?? [], iop, suite.legacyOperator === true);
  mkdirSync(scratch, { recursive: true });
  const valuesFile = join(scratch, `${prefix}.chart-values.yaml`);
  writeFileSync(valuesFile, stringify(values));
  const chart = join(suite.manifests, 'charts/istio-control/istio-discovery');
  const r = renderChart(chart, { namespace: 'istio-system', name: 'istiod', values: [valuesFile] });
  let config;
  let vals;
  let mesh;
  for (const m of r.manifests) {
    if (m.kind !== 'ConfigMap') continue;
    const doc = parse(m.content);
    if (doc?.metadata?.name === 'istio-sidecar-injector') {
      config = doc.data?.config;
      vals = doc.data?.values;
    } else if (doc?.metadata?.name === 'istio') mesh = doc.data?.mesh;
  }
  if (typeof config !== 'string') throw new Error(`${chart}: no istio-sidecar-injector ConfigMap rendered for ${prefix}`);
  writeFileSync(file('template'), config);
  writeFileSync(file('values'), typeof vals === 'string' ? vals : '{}');
  writeFileSync(file('mesh'), typeof mesh === 'string' ? mesh : '{}');
  return file;
}

// ---------- running ----------

/** @typedef {'bytes' | 'parsed' | 'differs' | 'error-ok' | 'error-missed' | 'unexpressible'} CaseStatus */

function docs(text) {
  return parseAllDocuments(text).map((d) => d.toJS());
}

function firstDifference(a, b) {
  const al = a.split('\n');
  const bl = b.split('\n');
  for (let i = 0; i < Math.max(al.length, bl.length); i++) if (al[i] !== bl[i]) return `line ${i + 1}: got ${JSON.stringify(al[i])}, want ${JSON.stringify(bl[i])}`;
  return '';
}

/**
 * @typedef {object} RunOptions
 * @property {(req: object) => { text: string, failed: number, messages: string[], assumptions?: string }} renderRequest
 * @property {(chart: string, opts: object) => { manifests: { kind: string, content: string }[] }} [renderChart]
 * @property {string} scratch        a folder for mesh edits and chart-rendered inputs
 * @property {string} [istioVersion] the release given (--istio-version); detected when absent
 */

/**
 * Where the case's injector config, values and mesh come from: the tag's gen files, else its chart.
 * @returns {((k: string) => string) | string}  the files by kind, or why there are none
 */
function inputsOf(suite, c, opts) {
  const inputs = join(suite.inject, 'testdata/inputs');
  const prefix = ownSettings(c) ? `${c.in}.${c.index}` : 'default';
  const gen = (k) => join(inputs, `${prefix}.${k}.gen.yaml`);
  if (existsSync(gen('template'))) return gen;
  if (existsSync(join(inputs, 'default.template.gen.yaml'))) return `no inputs ${prefix}.*.gen.yaml`;
  if (!suite.manifests) return 'no testdata/inputs and no manifests/ to render the chart from';
  if (!opts.renderChart) return 'no chart renderer given';
  return inputsFromChart(suite, c, join(opts.scratch, 'chart'), opts.renderChart);
}

/**
 * @param {{ inject: string, manifests?: string }} suite
 * @param {InjectCase} c
 * @param {RunOptions} opts
 * @returns {{ c: InjectCase, status: CaseStatus, detail?: string, assumptions?: string }}
 */
export function runInjectCase(suite, c, opts) {
  if (c.skipInjection) return { c, status: 'unexpressible', detail: 'Istio runs this case through its webhook only (no kube-inject golden)' };
  const settings = caseSettings(c);
  if ('unexpressible' in settings) return { c, status: 'unexpressible', detail: settings.unexpressible };
  let file;
  try {
    file = inputsOf(suite, c, opts);
  } catch (e) {
    return { c, status: 'differs', detail: `chart: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}` };
  }
  if (typeof file === 'string') return { c, status: 'differs', detail: file };
  let mesh = file('mesh');
  if (settings.meshEdits.length) {
    const m = parse(readFileSync(mesh, 'utf8')) ?? {};
    for (const e of settings.meshEdits) e(m);
    mesh = join(opts.scratch, `${c.index}.mesh.json`);
    writeFileSync(mesh, JSON.stringify(m));
  }
  let text;
  let assumptions;
  try {
    const out = opts.renderRequest({
      template: file('template'),
      values: file('values'),
      mesh,
      filename: join(suite.inject, 'testdata/inject', c.in),
      merged: true,
      mode: 'kube-inject',
      ...(opts.istioVersion ? { istioVersion: opts.istioVersion } : {}),
      ...(settings.nativeSidecars ? { nativeSidecars: settings.nativeSidecars } : {}),
      env: settings.env,
      ...(c.kubeVersion ? { kubeVersion: c.kubeVersion } : {}),
    });
    // the tests of 1.5 to 1.8 strip the status annotation's template hash before comparing (StripVersion)
    text = out.text.replace(/sidecar\.istio\.io\/status: '\{"version":"[0-9a-f]+",/g, 'sidecar.istio.io/status: \'{"version":"",');
    assumptions = out.assumptions;
    if (out.failed > 0) throw new Error(out.messages.filter((m) => m.startsWith('error:')).join('; '));
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (c.expectedError !== undefined) {
      return msg.toLowerCase().includes(c.expectedError) ? { c, status: 'error-ok' } : { c, status: 'error-missed', detail: `error without "${c.expectedError}": ${msg}` };
    }
    return { c, status: 'differs', detail: `failed: ${msg.split('\n')[0]}` };
  }
  if (c.expectedError !== undefined) return { c, status: 'error-missed', detail: `rendered; Istio fails with "${c.expectedError}"` };
  const want = readFileSync(join(suite.inject, 'testdata/inject', c.want), 'utf8');
  const extra = assumptions ? { assumptions } : {};
  if (text === want) return { c, status: 'bytes', ...extra };
  let same = false;
  try {
    same = JSON.stringify(docs(text)) === JSON.stringify(docs(want));
  } catch {
    same = false;
  }
  return { c, status: same ? 'parsed' : 'differs', detail: firstDifference(text, want), ...extra };
}

/**
 * @typedef {object} SuiteReport
 * @property {ReturnType<typeof runInjectCase>[]} results
 * @property {number} expressible
 * @property {number} agreeParsed
 * @property {number} agreeBytes
 */

/**
 * Every case of the suite's table.
 * @param {string} dir   the suite's folder (suiteFolders)
 * @param {RunOptions & { only?: RegExp }} opts
 * @returns {SuiteReport}
 */
export function runInjectSuite(dir, opts) {
  const suite = suiteFolders(dir);
  const cases = readInjectCases(suite.inject).filter((c) => !opts.only || opts.only.test(c.want) || opts.only.test(c.in));
  const results = cases.map((c) => runInjectCase(suite, c, opts));
  const expressible = results.filter((r) => r.status !== 'unexpressible').length;
  const agreeBytes = results.filter((r) => r.status === 'bytes' || r.status === 'error-ok').length;
  const agreeParsed = agreeBytes + results.filter((r) => r.status === 'parsed').length;
  return { results, expressible, agreeParsed, agreeBytes };
}

/** One line per case, then the figures. */
export function formatReport(name, r) {
  const lines = r.results.map((x) => `[${String(x.c.index).padStart(2, '0')}] ${x.status.padEnd(13)} ${x.c.want}${x.detail ? `  ${x.detail}` : ''}`);
  lines.push(summaryLine(name, r));
  return lines.join('\n');
}

export function summaryLine(name, r) {
  return `${name}: ${r.results.length} cases, ${r.expressible} expressible; agree parsed ${r.agreeParsed}, byte for byte ${r.agreeBytes}`;
}
