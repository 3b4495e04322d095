// The injector configuration as users have it: the `istio-sidecar-injector` ConfigMap exported with
// `kubectl get cm -o yaml` (data.config YAML + data.values JSON), or the same parts as separate files
// (istioctl kube-inject's --injectConfigFile / --valuesFile). Every template keeps where its text
// starts in the file, so template errors point at the ConfigMap line.
//
// Public API
//   InjectorConfig                      inject.Config: policy, templates (+ defaultTemplates, aliases), selectors, injectedAnnotations
//   loadInjectorConfigMap(text, file)   → { config, values, valuesDoc?, detected? } (a ConfigMap, or a List/multi-doc holding one)
//   injectorFromDocument(doc)           the same from an already loaded ConfigMap document
//   parseInjectorConfig(text, file)     data.config text (old `template:` or `templates:`), or a bare template text
//   injectorConfigFromDocument(doc)     data.config as a loaded (possibly embedded) document
//   loadValuesFile(text, file)          a values file (JSON or YAML) → { values, doc }; valuesFromDocument(doc)
//   SIDECAR_TEMPLATE = 'sidecar'
//
// Upstream: none (reads the injector ConfigMap or its parts, keeping where each template starts)

import { InputError, loadYamlDocuments, loadYamlDocumentsByKind, type LoadedDocument } from '../yaml/load.js';
import { isObject, type Json, type JsonObject } from '../go/encoding/json/value.js';
import { detectIstioVersion, type Detection } from './version.js';

export const SIDECAR_TEMPLATE = 'sidecar';

/** Template line L col C is at file line `line + L - 1`, column `col + C` (block scalars only). */
export interface TextPosition {
  file: string;
  line: number;
  col: number;
}

export interface InjectorConfig {
  /** "enabled" | "disabled" (anything else: istiod disables auto-injection). */
  policy: string;
  /** 1.5-1.9: the single template (istiod treats it as the template named "sidecar"). */
  template?: string;
  /** Template name → text. */
  templates: Record<string, string>;
  defaultTemplates: string[];
  aliases: Record<string, string[]>;
  neverInjectSelector: JsonObject[];
  alwaysInjectSelector: JsonObject[];
  injectedAnnotations: Record<string, string>;
  /** Where each template's text starts in its file, for error positions. */
  positions: Record<string, TextPosition>;
  /** The config text as given (what the release is guessed from). */
  source: string;
}

export interface InjectorValues {
  /** As istiod reads them (float64 numbers, null-prototype maps). */
  values: JsonObject;
  /** Where they came from, for validation messages. */
  doc?: LoadedDocument;
}

export interface InjectorConfigMap {
  config: InjectorConfig;
  values: JsonObject;
  valuesDoc?: LoadedDocument;
  /** Istio release guessed from the ConfigMap's templates, if recognisable. */
  detected?: Detection;
}

function nullMap<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function text(v: unknown): string {
  return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function strMap(v: unknown): Record<string, string> {
  const out = nullMap<string>();
  if (isObject(v as Json)) for (const [k, x] of Object.entries(v as JsonObject)) out[k] = text(x);
  return out;
}

function objList(v: unknown): JsonObject[] {
  return Array.isArray(v) ? (v as Json[]).filter(isObject) : [];
}

/** A config that is not a YAML map with config fields is a bare template (a --template file). */
function bareTemplate(source: string, at: TextPosition): InjectorConfig {
  return {
    policy: 'enabled',
    template: source,
    templates: Object.assign(nullMap<string>(), { [SIDECAR_TEMPLATE]: source }),
    defaultTemplates: [SIDECAR_TEMPLATE],
    aliases: nullMap<string[]>(),
    neverInjectSelector: [],
    alwaysInjectSelector: [],
    injectedAnnotations: nullMap<string>(),
    positions: Object.assign(nullMap<TextPosition>(), { [SIDECAR_TEMPLATE]: at }),
    source,
  };
}

function looksLikeConfig(v: unknown): v is JsonObject {
  return isObject(v as Json) && ['template', 'templates', 'policy', 'defaultTemplates'].some((k) => Object.prototype.hasOwnProperty.call(v, k));
}

/** data.config as a loaded document: policy, template or templates/defaultTemplates/aliases, selectors. */
export function injectorConfigFromDocument(doc: LoadedDocument, source: string): InjectorConfig {
  const c = doc.value as JsonObject;
  const templates = nullMap<string>();
  const positions = nullMap<TextPosition>();
  // Found on first use (a template error): finding one reads the config again with positions, which a
  // run whose templates all parse never needs.
  const place = (name: string, path: string[]): void => {
    Object.defineProperty(positions, name, {
      enumerable: true,
      configurable: true,
      get(): TextPosition {
        // a block scalar maps line for line; a quoted or plain one only as a whole
        const b = doc.blockScalarAt(path);
        const p = b ? { line: b.line + 1, col: b.col } : doc.positionOf(path);
        const at = { file: doc.file, line: p.line, col: b ? p.col : p.col - 1 };
        Object.defineProperty(positions, name, { value: at, enumerable: true, configurable: true, writable: true });
        return at;
      },
    });
  };
  if (c.templates !== undefined && c.templates !== null) {
    if (!isObject(c.templates)) throw doc.errorAt(['templates'], 'templates must be a mapping of template name to template text');
    for (const [k, t] of Object.entries(c.templates)) {
      if (typeof t !== 'string') throw doc.errorAt(['templates', k], `template ${k} must be a string`);
      templates[k] = t;
      place(k, ['templates', k]);
    }
  }
  let template: string | undefined;
  const hasTemplates = c.templates !== undefined && c.templates !== null;
  // Before Istio 1.10 the config had a single `template`, which istiod treats as "sidecar". From 1.10
  // inject.Config has no such field: the chart still writes one, a call to an undefined function, so
  // that an older istiod fails loudly; istiod 1.10+ ignores it, and so do we beside `templates`.
  if (!hasTemplates && typeof c.template === 'string' && c.template !== '') {
    template = c.template;
    templates[SIDECAR_TEMPLATE] = c.template;
    place(SIDECAR_TEMPLATE, ['template']);
  }
  const aliases = nullMap<string[]>();
  if (isObject(c.aliases ?? null)) for (const [k, v] of Object.entries(c.aliases as JsonObject)) aliases[k] = Array.isArray(v) ? v.map(text) : [];
  const defaultTemplates = Array.isArray(c.defaultTemplates) && c.defaultTemplates.length > 0 ? c.defaultTemplates.map(text) : [SIDECAR_TEMPLATE];
  if (c.injectedAnnotations !== undefined && c.injectedAnnotations !== null && !isObject(c.injectedAnnotations)) {
    throw doc.errorAt(['injectedAnnotations'], 'injectedAnnotations must be a mapping');
  }
  return {
    policy: typeof c.policy === 'string' ? c.policy : c.policy === undefined || c.policy === null ? 'enabled' : text(c.policy),
    ...(template !== undefined ? { template } : {}),
    templates,
    defaultTemplates,
    aliases,
    neverInjectSelector: objList(c.neverInjectSelector),
    alwaysInjectSelector: objList(c.alwaysInjectSelector),
    injectedAnnotations: strMap(c.injectedAnnotations),
    positions,
    source,
  };
}

/** data.config text on its own (a --injectConfigFile, or the string from a ConfigMap); a text that is
 *  not such a mapping is taken as a bare template. */
export function parseInjectorConfig(source: string, file: string): InjectorConfig {
  let doc: LoadedDocument | undefined;
  try {
    doc = loadYamlDocuments(source, file, { format: 'yaml', duplicateKeys: 'last' })[0];
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    // a template file is usually not valid YAML at all
    doc = undefined;
  }
  if (!doc || !looksLikeConfig(doc.value)) return bareTemplate(source, { file, line: 1, col: 0 });
  return injectorConfigFromDocument(doc, source);
}

/** data.values or a values file: JSON (as the chart writes it) or YAML. */
export function valuesFromDocument(doc: LoadedDocument | undefined): InjectorValues {
  if (!doc) return { values: nullMap<Json>() as JsonObject };
  if (!isObject(doc.value as Json)) throw doc.errorAt([], 'values must be a mapping');
  return { values: doc.value as JsonObject, doc };
}

/** The injector parts of a loaded ConfigMap document. */
export function injectorFromDocument(doc: LoadedDocument): InjectorConfigMap {
  const obj = doc.value as JsonObject;
  const data = isObject(obj.data ?? null) ? (obj.data as JsonObject) : undefined;
  if (data && data.config !== undefined && data.config !== null && typeof data.config !== 'string') {
    throw doc.errorAt(['data', 'config'], 'data.config must be a string (the injector config YAML, with the templates)');
  }
  if (!data || typeof data.config !== 'string') {
    const meta = isObject(obj.metadata ?? null) ? (obj.metadata as JsonObject) : {};
    const name = typeof meta.name === 'string' ? `ConfigMap ${meta.name}` : 'the ConfigMap';
    throw doc.errorAt(data ? ['data'] : [], `${name} has no data.config (the injector config with the templates); is this the istio-sidecar-injector ConfigMap?`, { key: true });
  }
  // istiod reads data.config and data.values with sigs.k8s.io/yaml.Unmarshal: a key written twice keeps the last
  const cfgDoc = doc.embedded(['data', 'config'], 'data.config', { duplicateKeys: 'last' });
  const source = data.config;
  const config = cfgDoc && looksLikeConfig(cfgDoc.value) ? injectorConfigFromDocument(cfgDoc, source) : parseInjectorConfig(source, doc.file);
  if (Object.keys(config.templates).length === 0) {
    throw (cfgDoc ?? doc).errorAt(cfgDoc ? [] : ['data', 'config'], 'the injector config has no templates (neither `templates` nor `template`)');
  }
  const values = valuesFromDocument(doc.embedded(['data', 'values'], 'data.values', { duplicateKeys: 'last' }));
  const detected = detectIstioVersion(source, values.values);
  return { config, values: values.values, ...(values.doc ? { valuesDoc: values.doc } : {}), ...(detected ? { detected } : {}) };
}

/** Load the injector ConfigMap from file text (a ConfigMap, a List, or several documents with one injector). */
export function loadInjectorConfigMap(source: string, file: string): InjectorConfigMap {
  const docs = loadYamlDocuments(source, file);
  for (const d of docs) {
    const found = findInjector(d);
    if (found) return found;
  }
  if (docs.length === 1 && !isObject(docs[0]!.value as Json)) throw docs[0]!.errorAt([], 'not a ConfigMap');
  if (docs.length === 1) return injectorFromDocument(docs[0]!);
  throw new InputError('no ConfigMap with data.config found (expected the istio-sidecar-injector ConfigMap)', file);
}

function findInjector(doc: LoadedDocument): InjectorConfigMap | undefined {
  const v = doc.value as Json;
  if (!isObject(v)) return undefined;
  const data = v.data;
  if (v.kind === 'ConfigMap' && isObject(data ?? null) && typeof (data as JsonObject).config === 'string') return injectorFromDocument(doc);
  if (typeof v.kind === 'string' && v.kind.endsWith('List') && Array.isArray(v.items)) {
    for (let i = 0; i < v.items.length; i++) {
      const r = findInjector(doc.sub(['items', i]));
      if (r) return r;
    }
  }
  return undefined;
}

/** A single-document file (--values, --values-file): the values themselves, or an IstioOperator
 *  (its spec.values, as `istioctl install -f` applies them). */
export function loadValuesFile(source: string, file: string): InjectorValues {
  // istiod (istioctl's --valuesFile) and Helm (-f) read values with sigs.k8s.io/yaml.Unmarshal, which
  // keeps a key written twice last; istioctl reads an IstioOperator strictly
  const docs = loadYamlDocumentsByKind(source, file, ['IstioOperator']);
  if (docs.length > 1) throw docs[1]!.errorAt([], `expected one document, found ${docs.length}`);
  const iop = docs[0] && istioOperatorPart(docs[0], 'values');
  return valuesFromDocument(iop === null ? undefined : (iop ?? docs[0]));
}

/** An IstioOperator document's spec.values or spec.meshConfig: undefined when doc is no IstioOperator,
 *  null when it has no such part. */
export function istioOperatorPart(doc: LoadedDocument, part: 'values' | 'meshConfig'): LoadedDocument | null | undefined {
  const v = doc.value as Json;
  if (!isObject(v) || v.kind !== 'IstioOperator') return undefined;
  const spec = isObject(v.spec ?? null) ? (v.spec as JsonObject) : undefined;
  const inner = spec?.[part];
  if (inner === undefined || inner === null) return null;
  if (!isObject(inner)) throw doc.errorAt(['spec', part], `IstioOperator spec.${part} must be a mapping`);
  return doc.sub(['spec', part]);
}

/** An IstioOperator file (one document, or several with one IstioOperator among them). */
export function loadIstioOperator(source: string, file: string): { values?: InjectorValues; mesh?: LoadedDocument } {
  for (const d of loadYamlDocuments(source, file)) {
    const values = istioOperatorPart(d, 'values');
    if (values === undefined) continue;
    const mesh = istioOperatorPart(d, 'meshConfig');
    return { ...(values ? { values: valuesFromDocument(values) } : {}), ...(mesh ? { mesh } : {}) };
  }
  throw new InputError('no IstioOperator found (expected kind: IstioOperator)', file);
}
