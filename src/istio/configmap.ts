// The injector configuration as users have it: the `istio-sidecar-injector` ConfigMap exported with
// `kubectl get cm -o yaml` (data.config YAML + data.values JSON), or the same parts as separate files
// (istioctl kube-inject's --injectConfigFile / --valuesFile).
//
// Public API
//   InjectorConfig                  inject.Config: policy, templates (+ defaultTemplates, aliases), selectors, injectedAnnotations
//   InjectorValues                  { values (Go map[string]interface{} with float64 numbers), raw, doc }
//   loadInjectorConfigMap(text, file)  → { config, values, detected }   (a ConfigMap, or a List/multi-doc containing one)
//   parseInjectorConfig(text, file)    data.config YAML (old `template:` or `templates:`), or a bare template text
//   parseInjectorValues(text, file)    data.values (JSON or YAML)
//   injectorFromObject(obj, doc)       the same from an already parsed ConfigMap object
//   SIDECAR_TEMPLATE_NAME = 'sidecar'

import { plainToGo } from './gostruct.js';
import { detectIstioVersion, type Detection } from './version.js';
import { InputError, parseYamlDocuments, parseYamlText, splitPath, type Position, type YamlDoc } from './yamlsrc.js';
import type { GoMap } from '../template/value.js';
import { newMap } from '../template/value.js';

export const SIDECAR_TEMPLATE_NAME = 'sidecar';

export interface InjectorConfig {
  /** "enabled" | "disabled" (anything else: istiod disables auto-injection). */
  policy: string;
  /** Template name → text. A pre-1.10 `template:` becomes the "sidecar" template. */
  templates: Record<string, string>;
  defaultTemplates: string[];
  aliases: Record<string, string[]>;
  alwaysInjectSelector: unknown[];
  neverInjectSelector: unknown[];
  injectedAnnotations: Record<string, string>;
  /** The config used the old single `template` field. */
  legacyTemplate: boolean;
  /** Where the config came from, and positions inside it. */
  doc?: YamlDoc;
  /** Per template, the position of its first line in the file (for error messages). */
  templatePositions: Record<string, Position | undefined>;
}

export interface InjectorValues {
  /** Go's view: map[string]interface{} (float64 numbers, null-prototype maps). */
  values: GoMap;
  /** The parsed JSON/YAML as plain JS. */
  raw: Record<string, unknown>;
  doc?: YamlDoc;
}

export interface InjectorConfigMap {
  config: InjectorConfig;
  values: InjectorValues;
  /** Istio release guessed from the ConfigMap's templates, if recognisable. */
  detected?: Detection;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function strMap(v: unknown, what: string, file: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (v === undefined || v === null) return out;
  if (!isObj(v)) throw new InputError(`${file}: ${what} must be a mapping`);
  for (const k of Object.keys(v)) {
    const x = v[k];
    out[k] = typeof x === 'string' ? x : x === null ? '' : String(x);
  }
  return out;
}

/** Parse data.config (YAML). A text that is not such a mapping is taken as a bare template. */
export function parseInjectorConfig(text: string, file: string, base?: Position): InjectorConfig {
  let doc: YamlDoc | undefined;
  try {
    doc = parseYamlText(text, file, base);
  } catch {
    doc = undefined;
  }
  const v = doc?.value;
  const looksLikeConfig = isObj(v) && ('template' in v || 'templates' in v || 'policy' in v || 'defaultTemplates' in v);
  if (!looksLikeConfig) {
    return {
      policy: 'enabled',
      templates: { [SIDECAR_TEMPLATE_NAME]: text },
      defaultTemplates: [SIDECAR_TEMPLATE_NAME],
      aliases: {},
      alwaysInjectSelector: [],
      neverInjectSelector: [],
      injectedAnnotations: {},
      legacyTemplate: true,
      templatePositions: { [SIDECAR_TEMPLATE_NAME]: base ?? { line: 1, col: 1 } },
    };
  }
  const o = v as Record<string, unknown>;
  const templates: Record<string, string> = {};
  const templatePositions: Record<string, Position | undefined> = {};
  let legacy = false;
  if (o.templates !== undefined && o.templates !== null) {
    if (!isObj(o.templates)) throw new InputError(`${doc!.where('templates')}: templates must be a mapping of name to template text`);
    for (const k of Object.keys(o.templates)) {
      const t = o.templates[k];
      if (typeof t !== 'string') throw new InputError(`${doc!.where(`templates.${k}`)}: template ${k} must be a string`);
      templates[k] = t;
      templatePositions[k] = doc!.positionOf(['templates', k]);
    }
  }
  if (typeof o.template === 'string' && !(SIDECAR_TEMPLATE_NAME in templates)) {
    // Before Istio 1.10 the config had a single `template`; istiod treats it as "sidecar"
    templates[SIDECAR_TEMPLATE_NAME] = o.template;
    templatePositions[SIDECAR_TEMPLATE_NAME] = doc!.positionOf(['template']);
    legacy = true;
  }
  let defaultTemplates: string[] = [];
  if (Array.isArray(o.defaultTemplates)) defaultTemplates = o.defaultTemplates.map(String);
  if (defaultTemplates.length === 0) defaultTemplates = [SIDECAR_TEMPLATE_NAME];
  const aliases: Record<string, string[]> = {};
  if (isObj(o.aliases)) for (const k of Object.keys(o.aliases)) aliases[k] = Array.isArray(o.aliases[k]) ? (o.aliases[k] as unknown[]).map(String) : [];
  return {
    policy: typeof o.policy === 'string' ? o.policy : o.policy === undefined ? '' : String(o.policy),
    templates,
    defaultTemplates,
    aliases,
    alwaysInjectSelector: Array.isArray(o.alwaysInjectSelector) ? o.alwaysInjectSelector : [],
    neverInjectSelector: Array.isArray(o.neverInjectSelector) ? o.neverInjectSelector : [],
    injectedAnnotations: strMap(o.injectedAnnotations, 'injectedAnnotations', file),
    legacyTemplate: legacy,
    doc,
    templatePositions,
  };
}

/** Parse data.values: JSON (as the chart writes it) or YAML; numbers become float64 as in Go. */
export function parseInjectorValues(text: string, file: string, base?: Position): InjectorValues {
  const doc = parseYamlText(text, file, base);
  const v = doc.value ?? {};
  if (!isObj(v)) throw new InputError(`${file}: values must be a mapping`);
  const values = plainToGo(v) as GoMap;
  return { values, raw: v, doc };
}

export function emptyValues(): InjectorValues {
  return { values: newMap(), raw: {} };
}

/** The injector parts of a parsed ConfigMap object. */
export function injectorFromObject(obj: Record<string, unknown>, doc: YamlDoc): InjectorConfigMap {
  const data = obj.data;
  if (!isObj(data)) throw new InputError(`${doc.file}: ConfigMap has no data`);
  if (typeof data.config !== 'string') throw new InputError(`${doc.where('data')}: ConfigMap has no data.config (the injection template configuration)`);
  const cfgPos = doc.positionOf(['data', 'config']);
  const config = parseInjectorConfig(data.config, doc.file, cfgPos ? { line: cfgPos.line, col: cfgPos.col } : undefined);
  const valPos = doc.positionOf(['data', 'values']);
  const values = typeof data.values === 'string' ? parseInjectorValues(data.values, doc.file, valPos) : emptyValues();
  const detected = detectIstioVersion(Object.values(config.templates).join('\n') + '\n' + (typeof data.values === 'string' ? data.values : ''));
  const out: InjectorConfigMap = { config, values };
  if (detected) out.detected = detected;
  return out;
}

/** Load the injector ConfigMap from file text (a ConfigMap, a List, or several documents with one injector). */
export function loadInjectorConfigMap(text: string, file: string): InjectorConfigMap {
  const docs = parseYamlDocuments(text, file);
  for (const d of docs) {
    const found = findInjector(d.value, d, []);
    if (found) return found;
  }
  throw new InputError(`${file}: no ConfigMap with data.config found (expected the istio-sidecar-injector ConfigMap)`);
}

function findInjector(v: unknown, doc: YamlDoc, at: (string | number)[]): InjectorConfigMap | undefined {
  if (!isObj(v)) return undefined;
  if (v.kind === 'ConfigMap' && isObj(v.data) && typeof v.data.config === 'string') {
    if (at.length === 0) return injectorFromObject(v, doc);
    return injectorFromObject(v, subDoc(doc, at));
  }
  if (v.kind === 'List' || v.kind === 'ConfigMapList') {
    const items = Array.isArray(v.items) ? v.items : [];
    for (let i = 0; i < items.length; i++) {
      const r = findInjector(items[i], doc, [...at, 'items', i]);
      if (r) return r;
    }
  }
  return undefined;
}

/** A view of a sub-object of a document, with positions relative to the whole document. */
export function subDoc(doc: YamlDoc, at: (string | number)[]): YamlDoc {
  let value: unknown = doc.value;
  for (const s of at) value = (value as Record<string | number, unknown>)?.[s];
  return {
    value,
    file: doc.file,
    positionOf: (segs, key) => doc.positionOf([...at, ...segs], key),
    where: (path, key) => {
      const p = doc.positionOf([...at, ...splitPath(path)], key);
      return p ? `${doc.file}:${p.line}:${p.col}` : doc.file;
    },
  };
}
