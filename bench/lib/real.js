// Case (r) of bench/run.js: the `sidecar` template of real istio-sidecar-injector ConfigMaps, one
// case per release folder (<folder>/<release>/{istio-sidecar-injector,istio-mesh}.yaml), rendered warm
// for examples/deployment.yaml. TypeScript: the template as `render` parses it, executed over the data
// `render` builds. Go: tools/istiod-stage, which builds istiod's SidecarTemplateData itself from the
// same files and times text/template + Sprig + the Istio functions over it (-bench-seconds). The
// ConfigMaps are not part of this repository; the case runs when a folder of them is found
// (SIDECAR_RENDER_ISTIO_CONFIGMAPS, or ../shared/istio-configmaps beside the checkout).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folder of real ConfigMaps, if there is one. */
export function configMapFolder(root) {
  const dir = process.env.SIDECAR_RENDER_ISTIO_CONFIGMAPS ?? join(root, '..', 'shared', 'istio-configmaps');
  return existsSync(dir) ? dir : undefined;
}

/** Releases from 1.12 with both files, oldest first (master last). */
export function releases(dir) {
  const key = (v) => (v === 'master' ? [Infinity] : v.split('.').map(Number));
  return readdirSync(dir)
    .filter((v) => existsSync(join(dir, v, 'istio-sidecar-injector.yaml')) && existsSync(join(dir, v, 'istio-mesh.yaml')))
    .filter((v) => v === 'master' || (key(v)[0] === 1 && key(v)[1] >= 12) || key(v)[0] > 1)
    .sort((a, b) => {
      const x = key(a);
      const y = key(b);
      for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
      return 0;
    });
}

/** The TypeScript side of one release: the template text, a warm render, and its output. */
export function realCase(imp, root, dir, release) {
  const { Renderer, renderInputs } = imp.render;
  const { workloadsFromText } = imp.workload;
  const { buildTemplateData } = imp.data;
  const workloads = join(root, 'examples', 'deployment.yaml');
  const req = {
    injectorConfigMap: join(dir, release, 'istio-sidecar-injector.yaml'),
    mesh: join(dir, release, 'istio-mesh.yaml'),
    workloads,
  };
  const inputs = renderInputs(req);
  const r = new Renderer(inputs, req);
  const w = workloadsFromText(readFileSync(workloads, 'utf8'), workloads)[0];
  const d = buildTemplateData({ version: r.version, workload: w, values: inputs.values, mesh: inputs.mesh, revision: '', nativeSidecars: false, kubeDefaults: true });
  const t = r.template('sidecar');
  return { tsOp: () => t.execute(d), tsOutput: t.execute(d), req };
}

/** One timed run of tools/istiod-stage (built by tools/istiod-stage/build.sh) for a release. */
export function istiodStageRun(root, release, req, seconds) {
  const tool = join(root, 'tools', 'istiod-stage', 'istiod-stage');
  const args = ['-istio-version', release, '-configmap', req.injectorConfigMap, '-mesh', req.mesh, '-f', req.workloads, '-bench-seconds', String(seconds)];
  const p = spawnSync(tool, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (p.status !== 0) return { error: (p.stderr || p.error?.message || 'istiod-stage failed').split('\n')[0] };
  return JSON.parse(p.stdout);
}

/**
 * The ConfigMap text with data.config's `templates` cut to its `sidecar` entry, every other line as it
 * was (so both files take the same reader paths): what a cold `render` costs for the templates a pod
 * never uses. Undefined when the layout is not `templates:` with block-scalar entries under it.
 */
export function sidecarOnly(text) {
  const lines = text.split('\n');
  const indent = (l) => l.length - l.trimStart().length;
  const at = lines.findIndex((l) => /^\s+templates:\s*$/.test(l));
  if (at < 0) return undefined;
  const outer = indent(lines[at]);
  const out = lines.slice(0, at + 1);
  let entry = -1;
  let keep = true;
  let sawSidecar = false;
  let i = at + 1;
  for (; i < lines.length; i++) {
    const l = lines[i];
    if (l.trim() === '') {
      if (keep) out.push(l);
      continue;
    }
    const n = indent(l);
    if (n <= outer) break;
    if (entry < 0) entry = n;
    if (n === entry) {
      const m = /^\s*([\w.-]+):\s*[|>]/.exec(l);
      if (!m) return undefined;
      keep = m[1] === 'sidecar';
      sawSidecar ||= keep;
    } else if (n < entry) return undefined;
    if (keep) out.push(l);
  }
  return sawSidecar ? [...out, ...lines.slice(i)].join('\n') : undefined;
}
