// The built-in objects a chart's templates see besides .Values, with the Go types Helm gives them:
// .Chart (chart.Metadata, plus IsRoot), .Release (a map), .Capabilities (chartutil.Capabilities with
// KubeVersion and APIVersions.Has), .Files (engine.files: Get, GetBytes, Glob, Lines, AsConfig,
// AsSecrets) and .Template (a map of Name and BasePath).
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/chartutil/{values,capabilities}.go, pkg/engine/files.go, pkg/chart/metadata.go
// Proven by: test/vectors/helm-template/capabilities.yaml, test/helm/chart.test.ts

import * as path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { GoNum, RecordStruct, SLICE_IFACE, SLICE_STRING, T, mapOf, newMap, sliceOf, withType, type GoMap, type GoMethod, type GoType, type GoValue, type StructField } from '../go/reflect/value.js';
import { helmToYaml } from '../yaml/emit.js';
import type { Json } from '../go/encoding/json/value.js';
import { compileGlob } from './match.js';
import { chartFullPath, type Chart } from './chart.js';
import { newVersion } from '../sprig/semver.js';
import { fromGoBytes } from '../go/strconv/strconv.js';

const str = (name: string, json: string): StructField => ({ name, json, omitempty: true, type: T.string });

/** chart.Metadata's fields, as templates address them (.Chart.Name, .Chart.AppVersion, ...). */
const METADATA_FIELDS: [string, string, GoType][] = [
  ['Name', 'name', T.string],
  ['Home', 'home', T.string],
  ['Sources', 'sources', SLICE_STRING],
  ['Version', 'version', T.string],
  ['Description', 'description', T.string],
  ['Keywords', 'keywords', SLICE_STRING],
  ['Maintainers', 'maintainers', SLICE_IFACE],
  ['Icon', 'icon', T.string],
  ['APIVersion', 'apiVersion', T.string],
  ['Condition', 'condition', T.string],
  ['Tags', 'tags', T.string],
  ['AppVersion', 'appVersion', T.string],
  ['Deprecated', 'deprecated', T.bool],
  ['Annotations', 'annotations', mapOf(T.string, T.string)],
  ['KubeVersion', 'kubeVersion', T.string],
  ['Dependencies', 'dependencies', SLICE_IFACE],
  ['Type', 'type', T.string],
];

const METADATA: GoType = {
  kind: 'struct',
  name: 'chart.Metadata',
  fields: METADATA_FIELDS.map(([name, json, type]) => ({ name, json, omitempty: true, type })),
};

/** The struct Helm builds per chart: chart.Metadata embedded, and IsRoot. */
const CHART_DATA: GoType = {
  kind: 'struct',
  name: 'struct { chart.Metadata; IsRoot bool }',
  fields: [{ name: 'Metadata', json: '', embedded: true, type: METADATA }, { name: 'IsRoot', json: 'IsRoot', type: T.bool }],
};

class ChartData extends RecordStruct {
  constructor(
    private readonly meta: RecordStruct,
    isRoot: boolean,
  ) {
    super(CHART_DATA, { Metadata: meta, IsRoot: isRoot });
  }
  override field(name: string): GoValue {
    // the embedded struct's fields are promoted
    if (name === 'Metadata' || name === 'IsRoot') return super.field(name);
    return this.meta.field(name);
  }
}

function asGo(v: Json | undefined, t: GoType): GoValue {
  if (v === undefined || v === null) return undefined;
  if (t === SLICE_STRING && Array.isArray(v)) return withType(v.map((x) => (typeof x === 'string' ? x : String(x))), SLICE_STRING);
  if (t.kind === 'map' && typeof v === 'object' && !Array.isArray(v)) {
    const m = newMap();
    for (const [k, x] of Object.entries(v)) m[k] = typeof x === 'string' ? x : String(x);
    return withType(m, t);
  }
  if (Array.isArray(v)) return withType(v.map((x) => asGo(x, T.iface) ?? null), SLICE_IFACE);
  if (typeof v === 'object') {
    const m = newMap();
    for (const [k, x] of Object.entries(v)) m[k] = asGo(x, T.iface) ?? null;
    return m;
  }
  return v as GoValue;
}

export function chartObject(c: Chart): RecordStruct {
  const values: Record<string, GoValue> = Object.create(null);
  for (const [name, json, type] of METADATA_FIELDS) {
    const v = asGo(c.metadata[json], type);
    if (v !== undefined) values[name] = v;
  }
  values['Name'] = c.name;
  return new ChartData(new RecordStruct(METADATA, values), c.parent === undefined);
}

// ---------- .Release ----------

export interface ReleaseOptions {
  /** Default "release-name", as `helm template` without a name. */
  name?: string;
  /** Default "default". */
  namespace?: string;
  /** Default 1. */
  revision?: number;
  isUpgrade?: boolean;
}

export function releaseObject(o: ReleaseOptions): GoMap {
  const m = newMap();
  m['Name'] = o.name ?? 'release-name';
  m['Namespace'] = o.namespace ?? 'default';
  m['IsUpgrade'] = o.isUpgrade ?? false;
  m['IsInstall'] = !(o.isUpgrade ?? false);
  m['Revision'] = BigInt(o.revision ?? 1);
  m['Service'] = 'Helm';
  return m;
}

// ---------- .Capabilities ----------

/** The Helm `chart` follows: its defaults are those of this Helm's `helm template`. */
export const HELM_VERSION = {
  Version: 'v3.17.1',
  GitCommit: '980d8ac1939e39138101364400756af2bdee1da5',
  GitTreeState: 'clean',
  GoVersion: 'go1.23.5',
} as const;

/** The Kubernetes version `helm template` assumes without --kube-version: Helm 3.17's client-go (1.32). */
export const DEFAULT_KUBE_VERSION = 'v1.32.0';

/** The API group versions of Helm 3.17's DefaultVersionSet, in its order: client-go 1.32's scheme,
 *  prioritized versions of all groups, then apiextensions' v1beta1 and v1. */
export const DEFAULT_API_VERSIONS: readonly string[] = [
  'v1',
  'admissionregistration.k8s.io/v1',
  'admissionregistration.k8s.io/v1alpha1',
  'admissionregistration.k8s.io/v1beta1',
  'internal.apiserver.k8s.io/v1alpha1',
  'apps/v1',
  'apps/v1beta1',
  'apps/v1beta2',
  'authentication.k8s.io/v1',
  'authentication.k8s.io/v1alpha1',
  'authentication.k8s.io/v1beta1',
  'authorization.k8s.io/v1',
  'authorization.k8s.io/v1beta1',
  'autoscaling/v1',
  'autoscaling/v2',
  'autoscaling/v2beta1',
  'autoscaling/v2beta2',
  'batch/v1',
  'batch/v1beta1',
  'certificates.k8s.io/v1',
  'certificates.k8s.io/v1beta1',
  'certificates.k8s.io/v1alpha1',
  'coordination.k8s.io/v1alpha2',
  'coordination.k8s.io/v1beta1',
  'coordination.k8s.io/v1',
  'discovery.k8s.io/v1',
  'discovery.k8s.io/v1beta1',
  'events.k8s.io/v1',
  'events.k8s.io/v1beta1',
  'extensions/v1beta1',
  'flowcontrol.apiserver.k8s.io/v1',
  'flowcontrol.apiserver.k8s.io/v1beta1',
  'flowcontrol.apiserver.k8s.io/v1beta2',
  'flowcontrol.apiserver.k8s.io/v1beta3',
  'networking.k8s.io/v1',
  'networking.k8s.io/v1alpha1',
  'networking.k8s.io/v1beta1',
  'node.k8s.io/v1',
  'node.k8s.io/v1alpha1',
  'node.k8s.io/v1beta1',
  'policy/v1',
  'policy/v1beta1',
  'rbac.authorization.k8s.io/v1',
  'rbac.authorization.k8s.io/v1beta1',
  'rbac.authorization.k8s.io/v1alpha1',
  'resource.k8s.io/v1beta1',
  'resource.k8s.io/v1alpha3',
  'scheduling.k8s.io/v1alpha1',
  'scheduling.k8s.io/v1beta1',
  'scheduling.k8s.io/v1',
  'storage.k8s.io/v1beta1',
  'storage.k8s.io/v1',
  'storage.k8s.io/v1alpha1',
  'storagemigration.k8s.io/v1alpha1',
  'apiextensions.k8s.io/v1beta1',
  'apiextensions.k8s.io/v1',
];

const method = (name: string, params: GoType[], resultType: GoType, fn: GoMethod['fn']): GoMethod => ({ name, params, results: 1, resultType, fn });

const KUBE_VERSION: GoType = {
  kind: 'struct',
  name: 'chartutil.KubeVersion',
  // no json tags: toJson spells the Go names
  fields: [{ name: 'Version', json: 'Version', type: T.string }, { name: 'Major', json: 'Major', type: T.string }, { name: 'Minor', json: 'Minor', type: T.string }],
};
// both have a pointer receiver: a copy (a function's argument) is printed as the struct it is
KUBE_VERSION.ptrMethods = {
  String: method('String', [], T.string, (v) => (v as RecordStruct).field('Version')),
  GitVersion: method('GitVersion', [], T.string, (v) => (v as RecordStruct).field('Version')),
};

const VERSION_SET: GoType = { kind: 'slice', name: 'chartutil.VersionSet', elem: T.string };
VERSION_SET.methods = {
  Has: method('Has', [T.string], T.bool, (v, x) => (v as GoValue[]).includes(x as string)),
};

const BUILD_INFO: GoType = {
  kind: 'struct',
  name: 'version.BuildInfo',
  fields: [str('Version', 'version'), str('GitCommit', 'git_commit'), str('GitTreeState', 'git_tree_state'), str('GoVersion', 'go_version')],
};

const CAPABILITIES: GoType = {
  kind: 'struct',
  name: 'chartutil.Capabilities',
  fields: [
    { name: 'KubeVersion', json: 'KubeVersion', type: KUBE_VERSION },
    { name: 'APIVersions', json: 'APIVersions', type: VERSION_SET },
    { name: 'HelmVersion', json: 'HelmVersion', type: BUILD_INFO },
  ],
};

export interface CapabilitiesOptions {
  /** "1.33", "v1.33.2" (default DEFAULT_KUBE_VERSION). */
  kubeVersion?: string;
  /** Added to DEFAULT_API_VERSIONS (helm template --api-versions). */
  apiVersions?: string[];
}

/** chartutil.ParseKubeVersion: Masterminds semver's reading of the text ("1.33" → v1.33.0), or the
 *  error text semver gives. */
export function parseKubeVersion(s: string): { version: string; major: string; minor: string } | string {
  const v = newVersion(s);
  if (typeof v === 'string') return v;
  return { version: `v${v.text()}`, major: v.major.toString(), minor: v.minor.toString() };
}

export function capabilitiesObject(o: CapabilitiesOptions): RecordStruct {
  const kv = parseKubeVersion(o.kubeVersion ?? DEFAULT_KUBE_VERSION);
  if (typeof kv === 'string') throw new Error(`invalid kube version '${o.kubeVersion}': ${kv}`);
  const apis = withType([...DEFAULT_API_VERSIONS, ...(o.apiVersions ?? [])], VERSION_SET);
  return new RecordStruct(
    CAPABILITIES,
    {
      KubeVersion: new RecordStruct(KUBE_VERSION, { Version: kv.version, Major: kv.major, Minor: kv.minor }),
      APIVersions: apis,
      HelmVersion: new RecordStruct(BUILD_INFO, { ...HELM_VERSION }),
    },
    true,
  );
}

// ---------- .Files ----------

// engine.files is a map[string][]byte: a file's bytes are what it holds, text or not. Get gives them as a
// Go string (bytes that are not UTF-8 kept as they are: see go/strconv goBytes), GetBytes as a []byte.
// The map's values are []byte values too, made on first reading (a chart's files can be large and most
// are only read through Get).

const BYTES = sliceOf(T.uint8);
const FILES: GoType = { kind: 'map', name: 'engine.files', key: T.string, elem: BYTES };

/** The raw bytes behind each files map, by name. */
const rawFiles = new WeakMap<GoMap, Map<string, Buffer>>();

function rawOf(v: GoValue): Map<string, Buffer> {
  return rawFiles.get(v as GoMap) ?? new Map();
}

/** The uint8 values, shared by every []byte (a GoNum never changes). */
const UINT8: GoNum[] = Array.from({ length: 256 }, (_, i) => new GoNum(T.uint8, BigInt(i)));

/** A []byte value. */
function byteSlice(b: Uint8Array): GoValue[] {
  const out: GoValue[] = new Array<GoValue>(b.length);
  for (let i = 0; i < b.length; i++) out[i] = UINT8[b[i]!]!;
  return withType(out, BYTES);
}

/** string([]byte): the Go string of the bytes. */
function goString(b: Buffer): string {
  return isUtf8(b) ? b.toString('utf8') : fromGoBytes(b);
}

/** A files map (newFiles) over these files: the values []byte, made when first read. */
function filesMap(files: Map<string, Buffer>): GoMap {
  const m = withType(newMap(), FILES);
  for (const [name, data] of files) {
    Object.defineProperty(m, name, {
      enumerable: true,
      configurable: true,
      get() {
        const v = byteSlice(data);
        Object.defineProperty(m, name, { value: v, enumerable: true, configurable: true, writable: true });
        return v;
      },
    });
  }
  rawFiles.set(m, files);
  return m;
}

function basenameMap(v: GoValue, encode: (b: Buffer) => string): string {
  const out = newMap();
  for (const [k, b] of rawOf(v)) out[path.posix.basename(k)] = encode(b);
  return helmToYaml(withType(out, mapOf(T.string, T.string)));
}

FILES.methods = {
  Get: method('Get', [T.string], T.string, (v, name) => {
    const b = rawOf(v).get(name as string);
    return b === undefined ? '' : goString(b);
  }),
  GetBytes: method('GetBytes', [T.string], BYTES, (v, name) => byteSlice(rawOf(v).get(name as string) ?? Buffer.alloc(0))),
  Glob: method('Glob', [T.string], FILES, (v, pattern) => {
    // a pattern gobwas/glob cannot compile is "**": every file
    const re = compileGlob(pattern as string) ?? compileGlob('**')!;
    const out = new Map<string, Buffer>();
    for (const [k, b] of rawOf(v)) if (re.test(k)) out.set(k, b);
    return filesMap(out);
  }),
  Lines: method('Lines', [T.string], SLICE_STRING, (v, p) => {
    const b = rawOf(v).get(p as string);
    if (b === undefined) return withType([], SLICE_STRING);
    // s[len(s)-1] of an empty file: Go's index error
    if (b.length === 0) throw new Error('runtime error: index out of range [-1]');
    let s = goString(b);
    if (s.endsWith('\n')) s = s.slice(0, -1);
    return withType(s.split('\n'), SLICE_STRING);
  }),
  AsConfig: method('AsConfig', [], T.string, (v) => basenameMap(v, goString)),
  AsSecrets: method('AsSecrets', [], T.string, (v) => basenameMap(v, (b) => b.toString('base64'))),
};

/** The chart's non-template files, as .Files. */
export function filesObject(c: Chart): GoMap {
  return filesMap(new Map(c.files.map((f) => [f.name, f.data])));
}

export function templateObject(name: string, basePath: string): GoMap {
  const m = newMap();
  m['Name'] = name;
  m['BasePath'] = basePath;
  return m;
}

export { chartFullPath };
