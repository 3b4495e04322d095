// A cold `render` of one ConfigMap cut into the phases the CLI goes through, each timed in the same
// fresh process (CPU time of the process, and wall time): loading the modules, reading the ConfigMap
// YAML, data.config (the injector config and its templates), data.values, the release detection (run
// twice, as `render` does: the renderer and the assumptions line), the mesh config, parsing the
// templates a pod gets, executing them, and formatting the output. Bench case (e) runs it on the real
// 1.24 ConfigMap and on the same file cut to its sidecar template, so the difference shows per phase.
//   node bench/lib/cold-phases.js CONFIGMAP MESH WORKLOADS   → one JSON line: {phase: {cpuMs, wallMs}}
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [configMap, meshFile, workloads] = process.argv.slice(2);
const dist = process.env.SIDECAR_RENDER_DIST ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const out = {};
// COLD_PHASES_STOP=PHASE ends the process after that phase: instruction counts of whole processes
// (valgrind --tool=callgrind), one per prefix of the phases, give each phase's count without a timer
const stopAfter = process.env.COLD_PHASES_STOP;
let cpu0 = process.cpuUsage();
let wall0 = performance.now();
const phase = (name) => {
  const c = process.cpuUsage(cpu0);
  const w = performance.now();
  out[name] = { cpuMs: (c.user + c.system) / 1000, wallMs: w - wall0 };
  if (name === stopAfter) process.exit(0);
  cpu0 = process.cpuUsage();
  wall0 = performance.now();
};
const imp = (p) => import(pathToFileURL(join(dist, p)).href);

// what `render` loads: the CLI shell, its render command and the library under it
const [, , render, output, configmap, load, mesh, validate, version, workload] = await Promise.all(
  ['cli/index.js', 'cli/render.js', 'istio/inject.js', 'output/render.js', 'istio/configmap.js', 'yaml/load.js', 'istio/mesh.js', 'istio/validate.js', 'istio/version.js', 'istio/workload.js'].map(imp),
);
phase('modules');

const text = readFileSync(configMap, 'utf8');
const doc = load.loadYamlDocuments(text, configMap)[0];
phase('configmap YAML');

const cfgDoc = doc.embedded(['data', 'config'], 'data.config');
const config = configmap.injectorConfigFromDocument(cfgDoc, doc.value.data.config);
phase('data.config');

const valuesDoc = doc.embedded(['data', 'values'], 'data.values');
const values = configmap.valuesFromDocument(valuesDoc);
const problems = validate.validateValues(values.values, values.doc);
phase('data.values');

version.detectIstioVersion(config.source);
version.detectIstioVersion(config.source);
phase('detect');

const meshDoc = mesh.loadMeshDocument(readFileSync(meshFile, 'utf8'), meshFile);
problems.push(...validate.validateMesh(meshDoc.value, meshDoc));
phase('mesh');

const r = new render.Renderer({ config, values: values.values, mesh: meshDoc.value, warnings: [] }, {});
r.prepare();
phase('template parse');

const results = [];
for (const w of workload.workloadStream(readFileSync(workloads, 'utf8'), workloads)) results.push(r.renderWorkload(w, false));
phase('exec');

const { text: printed } = output.formatOutcome(results, {});
phase('output');

if (results.some((x) => x.error !== undefined) || printed.length === 0) {
  process.stderr.write(`cold-phases: render failed: ${results.map((x) => x.error).join('; ')}\n`);
  process.exitCode = 1;
}
process.stdout.write(`${JSON.stringify(out)}\n`);
