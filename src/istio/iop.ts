// An IstioOperator file as chart values, the way istioctl hands it to Istio's charts: spec.values as
// they are, spec.meshConfig as values.meshConfig, spec.hub/tag as global.hub/tag, spec.revision as
// revision, spec.namespace as global.istioNamespace, spec.profile as the charts' `profile` value
// (charts from Istio 1.22 carry the profiles as files/profile-NAME.yaml).
//
// Mirrors: istio.io/istio 1.24 operator/pkg/render/manifest.go (MergeInputs, translateIstioOperatorToHelm)
// Proven by: test/helm/chart.test.ts

import { isMap, newMap, type GoMap } from '../go/reflect/value.js';
import { loadYamlDocuments } from '../yaml/load.js';
import { mergeMaps } from '../helm/values.js';

/** The chart values an IstioOperator document stands for. Throws InputError (file:line:col) when it is not one. */
export function iopValues(text: string, file: string): GoMap {
  const docs = loadYamlDocuments(text, file, { format: 'yaml' });
  const doc = docs.find((d) => isMap(d.value) && (d.value as GoMap)['kind'] === 'IstioOperator') ?? docs[0];
  if (!doc || !isMap(doc.value)) throw (doc ? doc.errorAt([], 'not an IstioOperator (want kind: IstioOperator with a spec)') : new Error(`${file}: empty file`));
  const obj = doc.value as GoMap;
  if (obj['kind'] !== undefined && obj['kind'] !== 'IstioOperator') throw doc.errorAt(['kind'], `kind ${String(obj['kind'])} is not IstioOperator`);
  const spec = obj['spec'];
  if (spec === undefined || spec === null) return newMap();
  if (!isMap(spec)) throw doc.errorAt(['spec'], 'spec must be a mapping');
  let out = newMap();
  const values = spec['values'];
  if (values !== undefined && values !== null) {
    if (!isMap(values)) throw doc.errorAt(['spec', 'values'], 'spec.values must be a mapping');
    out = mergeMaps(out, values);
  }
  const put = (path: string[], v: unknown, from: string[]): void => {
    if (v === undefined || v === null) return;
    if (typeof v !== 'string' && path[path.length - 1] !== 'meshConfig') throw doc.errorAt(from, `${from.join('.')} must be a string`);
    let m = out;
    for (const k of path.slice(0, -1)) {
      if (!isMap(m[k])) m[k] = newMap();
      m = m[k] as GoMap;
    }
    const last = path[path.length - 1]!;
    m[last] = isMap(m[last]) && isMap(v) ? mergeMaps(m[last] as GoMap, v as GoMap) : (v as GoMap);
  };
  if (spec['meshConfig'] !== undefined && spec['meshConfig'] !== null && !isMap(spec['meshConfig'])) throw doc.errorAt(['spec', 'meshConfig'], 'spec.meshConfig must be a mapping');
  put(['meshConfig'], spec['meshConfig'], ['spec', 'meshConfig']);
  put(['global', 'hub'], spec['hub'], ['spec', 'hub']);
  put(['global', 'tag'], spec['tag'], ['spec', 'tag']);
  put(['revision'], spec['revision'], ['spec', 'revision']);
  put(['global', 'istioNamespace'], spec['namespace'], ['spec', 'namespace']);
  if (spec['profile'] !== undefined && spec['profile'] !== null && spec['profile'] !== 'default') put(['profile'], spec['profile'], ['spec', 'profile']);
  return out;
}
