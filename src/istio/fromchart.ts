// The injector and mesh ConfigMaps an istiod chart produces, as if exported from the cluster after
// `helm install`: the chart is rendered (src/helm), and the `istio-sidecar-injector[-REV]` and
// `istio[-REV]` ConfigMaps of the revision the values choose are picked out. Each comes back as the
// text of its rendered document, so every consumer loads it exactly as it loads an exported file;
// positions in messages are those of the rendered document, named after the template it came from.
//
//   const { injector, mesh } = chartConfigMaps({ chart: 'charts/istiod', set: ['revision=canary'] });
//   loadInjectorConfigMap(injector.text, injector.name)
//
// Upstream: none (the injector and mesh ConfigMaps an istiod chart renders, as exported files)

import { lstatSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { InputTooLarge, readReason, readTextLimited } from '../guard/fs.js';
import { join } from 'node:path';
import { renderChart, type ChartRenderOptions, type Manifest } from '../helm/index.js';
import { isMap, type GoMap } from '../go/reflect/value.js';
import { InputError, loadYamlDocument } from '../yaml/load.js';
import { loadInjectorConfigMap, type InjectorConfigMap } from './configmap.js';
import { iopValues } from './iop.js';

export interface ChartSource {
  /** Chart directory or .tgz (Istio's istio-discovery chart, or a chart that wraps it). */
  chart: string;
  /** -f values files, in order. */
  values?: string[];
  /** --set and --set-string. */
  set?: string[];
  setString?: string[];
  /** An IstioOperator file, mapped onto the chart's values under the files and sets. */
  iop?: string;
  /** .Release.Namespace (default istio-system) and .Release.Name (default istiod). */
  namespace?: string;
  name?: string;
  kubeVersion?: string;
}

export interface RenderedConfigMap {
  /** Where it came from: CHART_FILE (rendered by CHART). */
  name: string;
  /** The ConfigMap document as rendered. */
  text: string;
}

export interface ChartConfigMaps {
  injector: RenderedConfigMap;
  /** Undefined when the chart renders no mesh ConfigMap (configMap: false). */
  mesh?: RenderedConfigMap;
  /** The revision the values chose ('' for the default revision). */
  revision: string;
}

function revisionOf(values: GoMap): string {
  const r = Object.prototype.hasOwnProperty.call(values, 'revision') ? values['revision'] : undefined;
  return typeof r === 'string' ? r : '';
}

interface Found {
  manifest: Manifest;
  name: string;
}

function configMaps(manifests: Manifest[], key: string, source: string): Found[] {
  const out: Found[] = [];
  for (const m of manifests) {
    if (m.kind !== 'ConfigMap') continue;
    const doc = loadYamlDocument(m.content, `${m.name} (rendered from ${source})`);
    const obj = isMap(doc.value) ? (doc.value as GoMap) : undefined;
    const data = obj?.['data'];
    const meta = obj?.['metadata'];
    const name = isMap(meta) && typeof meta['name'] === 'string' ? meta['name'] : '';
    if (isMap(data) && typeof data[key] === 'string') out.push({ manifest: m, name });
  }
  return out;
}

// A golden matrix names the same chart and values in many cases: each is rendered once while its files
// (sizes and modification times) stay the same.
const rendered = new Map<string, ChartConfigMaps>();

/** The most entries a fingerprint reads; a bigger tree is not cached (the chart loader bounds it anyway). */
const FINGERPRINT_ENTRIES = 20_000;

/**
 * The sizes and modification times of the files, a folder's entries one by one. A symbolic link is
 * recorded with what it points at, never walked into: a chart's links may loop or lead anywhere
 * (`a -> .`, `root -> /`), and the chart loader decides about them. Undefined past FINGERPRINT_ENTRIES.
 */
function fingerprint(files: string[]): string | undefined {
  const out: string[] = [];
  const walk = (p: string, top: boolean): void => {
    if (out.length > FINGERPRINT_ENTRIES) return;
    let st;
    try {
      st = top ? statSync(p) : lstatSync(p);
    } catch {
      out.push(`${p}:missing`);
      return;
    }
    if (st.isSymbolicLink()) {
      let target = '';
      try {
        const t = statSync(p);
        target = `${readlinkSync(p)}:${t.isDirectory() ? 'dir' : `${t.size}:${t.mtimeMs}`}`;
      } catch {
        target = 'dangling';
      }
      out.push(`${p} -> ${target}`);
    } else if (st.isDirectory()) {
      let names: string[];
      try {
        names = readdirSync(p).sort();
      } catch {
        out.push(`${p}:unreadable`);
        return;
      }
      for (const n of names) walk(join(p, n), false);
    } else out.push(`${p}:${st.size}:${st.mtimeMs}`);
  };
  for (const f of files) walk(f, true);
  return out.length > FINGERPRINT_ENTRIES ? undefined : out.join('\n');
}

/** Render the chart and pick out the injector and mesh ConfigMaps of its revision. */
export function chartConfigMaps(src: ChartSource): ChartConfigMaps {
  const print = fingerprint([src.chart, ...(src.values ?? []), ...(src.iop ? [src.iop] : [])]);
  if (print === undefined) return renderConfigMaps(src);
  const key = JSON.stringify(src) + '\n' + print;
  const hit = rendered.get(key);
  if (hit) return hit;
  const out = renderConfigMaps(src);
  if (rendered.size >= 16) rendered.delete(rendered.keys().next().value!);
  rendered.set(key, out);
  return out;
}

function renderConfigMaps(src: ChartSource): ChartConfigMaps {
  const opts: ChartRenderOptions = {
    namespace: src.namespace ?? 'istio-system',
    name: src.name ?? 'istiod',
    values: src.values ?? [],
    set: src.set ?? [],
    setString: src.setString ?? [],
    ...(src.kubeVersion !== undefined ? { kubeVersion: src.kubeVersion } : {}),
  };
  if (src.iop) {
    let text: string;
    try {
      text = readTextLimited(src.iop);
    } catch (e) {
      throw new InputError(e instanceof InputTooLarge ? e.message : readReason(e), src.iop);
    }
    opts.baseValues = iopValues(text, src.iop);
  }
  const r = renderChart(src.chart, opts);
  const revision = revisionOf(r.values);
  const pick = (key: string, base: string): Found | undefined => {
    const all = configMaps(r.manifests, key, src.chart);
    const want = revision ? `${base}-${revision}` : base;
    return all.find((f) => f.name === want) ?? all[0];
  };
  const injector = pick('config', 'istio-sidecar-injector');
  if (!injector) {
    throw new InputError(`the chart renders no ConfigMap with data.config (the injector's); does it set global.omitSidecarInjectorConfigMap?`, src.chart);
  }
  const mesh = pick('mesh', 'istio');
  const named = (f: Found): RenderedConfigMap => ({ name: `${f.manifest.name} (rendered from ${src.chart})`, text: f.manifest.content });
  return { injector: named(injector), ...(mesh ? { mesh: named(mesh) } : {}), revision };
}

/** loadInjectorConfigMap's result for the chart's injector ConfigMap, plus its mesh ConfigMap's text. */
export function injectorInputsFromChart(src: ChartSource): InjectorConfigMap & { mesh?: RenderedConfigMap; revision: string } {
  const cms = chartConfigMaps(src);
  const cm = loadInjectorConfigMap(cms.injector.text, cms.injector.name);
  return { ...cm, ...(cms.mesh ? { mesh: cms.mesh } : {}), revision: cms.revision };
}
