// `render --merged --mode kube-inject`: the file as `istioctl kube-inject` prints it. istioctl reads the
// input document by document (its YAML reader splits at `---` lines); a document whose kind it has no Go
// type for (a Service, a ConfigMap, an empty document) is copied through byte for byte; a workload or a
// List is decoded into its Go type, injected, and marshalled back with sigs.k8s.io/yaml, so the output
// carries the zero values Go writes. Every document is followed by `---`. With -o json the same objects
// are printed as kubectl prints JSON (KubeInjectJson): one document as itself, several as a `kind: List`.
//
// Public API
//   splitYamlDocuments(text) / yamlDocuments(text)  the documents as k8s.io/apimachinery's YAMLReader cuts them (all / one at a time)
//   kubeInjectStream(renderer, text, file, lazyMinBytes?, json?) the output text and each workload's result, one document at a time
//   KubeInjectJson                         -o json's writer, one for all the files of a run
//
// Mirrors: istio.io/istio pkg/kube/inject/inject.go (IntoResourceFile, IntoObject);
//          k8s.io/apimachinery pkg/util/yaml/decoder.go (YAMLReader)
// Proven by: test/istio/inject-conformance.test.ts, test/istio/kube-inject.test.ts

import { goJsonMarshal } from '../go/encoding/json/json.js';
import { toYaml, type YamlOptions } from '../yaml/emit.js';
import { has } from './releases.js';
import { InputError, type LoadedDocument } from '../yaml/load.js';
import type { GoValue } from '../go/reflect/value.js';
import { GoJsonError } from '../go/encoding/json/structs.js';
import { clone, isObject, type Json, type JsonObject } from '../go/encoding/json/value.js';
import { kubeApiMinor } from './postprocess.js';
import { decodeWorkload, KUBE_INJECT_KINDS } from '../k8s/workloads.js';
import { dropZeroCreationTimestamps } from '../k8s/meta.js';
import { lazyList, loadSlice, workloadFromObject } from './workload.js';
import type { RenderEvent, Renderer, WorkloadResult } from './inject.js';
import { jsonShaped } from '../go/encoding/json/value.js';

export interface RawDocument {
  text: string;
  /** 0-based line of the file where the document starts. */
  line0: number;
}

/**
 * k8s.io/apimachinery's YAMLReader: a line starting with `---` ends a document when only spaces or a
 * comment follow (anything else is an error); documents of no bytes at all are dropped.
 */
export function splitYamlDocuments(text: string, file: string): RawDocument[] {
  return [...yamlDocuments(text, file)];
}

/**
 * splitYamlDocuments one document at a time, each cut out of the text when reached (a dump of 20,000
 * documents is not held twice). The separators are all checked first, so a bad one fails the file
 * before any of its documents is printed.
 */
export function* yamlDocuments(text: string, file: string): Generator<RawDocument> {
  for (const sep of separators(text)) {
    const rest = text.slice(sep.at + 3, sep.end).trim();
    if (rest !== '' && rest[0] !== '#') throw new InputError(`invalid Yaml document separator: ${rest}`, file, sep.line + 1, 1);
  }
  let start = 0;
  let line0 = 0;
  for (const sep of separators(text)) {
    if (sep.at > start) yield { text: text.slice(start, sep.at), line0 };
    start = sep.end;
    line0 = sep.line + 1;
  }
  if (start < text.length) yield { text: text.slice(start), line0 };
}

/** The lines starting with `---`: offset, end (after the line break) and 0-based line number. */
function* separators(text: string): Generator<{ at: number; end: number; line: number }> {
  let line = 0;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl + 1;
    if (text.startsWith('---', pos)) yield { at: pos, end, line };
    pos = end;
    line++;
  }
}

function kindOf(v: unknown): string {
  return isObject(v as Json) && typeof (v as JsonObject).kind === 'string' ? ((v as JsonObject).kind as string) : '';
}

function jobTemplateOf(o: JsonObject): JsonObject | undefined {
  const spec = isObject(o.spec ?? null) ? (o.spec as JsonObject) : undefined;
  return spec && isObject(spec.jobTemplate ?? null) ? (spec.jobTemplate as JsonObject) : undefined;
}

function isInjectKind(kind: string): boolean {
  return (KUBE_INJECT_KINDS as readonly string[]).includes(kind);
}

/** The injected object as istioctl holds it before printing: a List as corev1.List; a workload is
 *  already what its Go type marshals to (typedJson). */
function typedObject(kind: string, obj: JsonObject): JsonObject {
  if (kind !== 'List') return obj;
  // corev1.List: items are raw JSON, its ListMeta a struct (`metadata: {}`)
  const list = Object.create(null) as JsonObject;
  if (typeof obj.apiVersion === 'string' && obj.apiVersion !== '') list.apiVersion = obj.apiVersion;
  list.items = Array.isArray(obj.items) ? obj.items : null;
  list.kind = 'List';
  list.metadata = isObject(obj.metadata ?? null) ? listMeta(obj.metadata as JsonObject) : (Object.create(null) as JsonObject);
  return list;
}

/** The injected object as sigs.k8s.io/yaml prints it (JSON, then YAML with sorted keys). */
function typedYaml(kind: string, obj: JsonObject, opts: YamlOptions): string {
  return toYaml(typedObject(kind, obj) as unknown as GoValue, opts);
}

/** kubectl's JSON printer: json.MarshalIndent with four spaces (maps' keys sorted, as Go sorts them). */
function kubectlJson(v: unknown): string {
  return goJsonMarshal(v as GoValue, { indent: '    ' });
}

/** Every line of `text` after its first `pad` further in (the first line goes where the text is put). */
function indentLines(text: string, pad: string): string {
  return text.replace(/\n(?=.)/g, `\n${pad}`);
}

const LIST_OPEN = '{\n    "apiVersion": "v1",\n    "items": [\n';
const LIST_CLOSE = '\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n';

/**
 * -o json of `render --merged --mode kube-inject`: the objects istioctl would print, as `kubectl ... -o
 * json` prints objects: one document alone as itself, several as the `kind: List` kubectl makes of them
 * (metadata.resourceVersion ""), four-space indent, keys sorted. Documents come one at a time, a big
 * List item by item; the first is held as text until a second shows it is not alone (so a single big
 * List's text, not its objects, is held to the end). Documents istioctl copies through are printed as
 * read; an empty one (only comments) is no object and is left out.
 */
export class KubeInjectJson {
  private docs = 0;
  /** The first document's text while it may be the only one. */
  private held: string[] = [];
  /** The last text written ended a line: the next is indented from its start. */
  private lineStart = true;
  /** The List being printed item by item: its items so far and what follows them. */
  private list: { items: number; after: string } | undefined;

  /** A whole document. */
  *document(v: unknown): Generator<RenderEvent> {
    yield* this.begin();
    yield* this.put(kubectlJson(v));
  }

  /** A List printed item by item: its header (the List without items) first. */
  *beginList(header: JsonObject): Generator<RenderEvent> {
    yield* this.begin();
    const whole = kubectlJson(typedObject('List', { ...header, items: [] }));
    const at = whole.indexOf('\n    "items": []') + '\n    "items": '.length;
    this.list = { items: 0, after: whole.slice(at + '[]'.length) };
    yield* this.put(whole.slice(0, at));
  }

  *listItem(v: unknown): Generator<RenderEvent> {
    const list = this.list!;
    yield* this.put(`${list.items++ === 0 ? '[\n' : ',\n'}        ${indentLines(kubectlJson(v), '        ')}`);
  }

  *endList(): Generator<RenderEvent> {
    const list = this.list!;
    this.list = undefined;
    yield* this.put(`${list.items === 0 ? '[]' : '\n    ]'}${list.after}`);
  }

  /** After the last file: the lone document, or the end of the List holding them all. */
  *end(): Generator<RenderEvent> {
    if (this.docs === 0) yield { type: 'text', text: kubectlJson({ apiVersion: 'v1', items: [], kind: 'List', metadata: { resourceVersion: '' } }) + '\n' };
    else if (this.docs === 1) yield { type: 'text', text: `${this.held.join('')}\n` };
    else yield { type: 'text', text: LIST_CLOSE };
  }

  private *begin(): Generator<RenderEvent> {
    this.docs++;
    if (this.docs === 1) return;
    if (this.docs === 2) {
      // not alone: the List opens, and the first document goes in it
      yield { type: 'text', text: LIST_OPEN };
      const first = this.held.join('');
      this.held = [];
      yield* this.put(first);
    }
    yield* this.put(',\n');
  }

  /** Text of the current document, held while it is the first, else inside the List (8 spaces in). */
  private *put(text: string): Generator<RenderEvent> {
    if (text === '') return;
    if (this.docs === 1) {
      this.held.push(text);
      return;
    }
    const pad = '        ';
    yield { type: 'text', text: (this.lineStart ? pad : '') + indentLines(text, pad) };
    this.lineStart = text.endsWith('\n');
  }
}

function listMeta(m: JsonObject): JsonObject {
  const out = Object.create(null) as JsonObject;
  for (const k of ['selfLink', 'resourceVersion', 'continue', 'remainingItemCount']) if (m[k] !== undefined && m[k] !== '' && m[k] !== null) out[k] = m[k]!;
  return out;
}

/** The object after a JSON round trip through its Go type, as kube-inject holds it once decoded. */
function typedJson(kind: string, obj: JsonObject, kube: number): Json {
  const t = decodeWorkload(kind, obj, kube);
  if (!t) return obj;
  const v = JSON.parse(goJsonMarshal(t)) as unknown;
  if (kube >= 34) dropZeroCreationTimestamps(v);
  return jsonShaped(v);
}

/** The file's documents injected as istioctl kube-inject prints them, or with `json` as -o json's objects. */
export function* kubeInjectStream(renderer: Renderer, text: string, file: string, lazyMinBytes?: number, json?: KubeInjectJson): Generator<RenderEvent, { failed: number; total: number }> {
  const kube = kubeApiMinor(renderer.version);
  const yamlOpts: YamlOptions = { lineWrap: !has(renderer.version, 'output.yamlNoLineWrap') };
  let failed = 0;
  let total = 0;
  let index = 0;
  const results: WorkloadResult[] = [];

  // One object: injected (a workload), opened (a List), or as decoded (anything istioctl has a type for).
  // `where` names an item of a List read piece by piece where the whole List's reader names it (its `-`).
  const inject = (v: unknown, doc: LoadedDocument, at: (string | number)[], where?: string): Json => {
    const kind = kindOf(v);
    if (kind === 'List') {
      const o = clone(v as JsonObject);
      const items = Array.isArray(o.items) ? o.items : [];
      o.items = items.map((item, i) => (isInjectKind(kindOf(item)) ? inject(item, doc, [...at, 'items', i]) : item));
      return o;
    }
    const w = workloadFromObject(v, doc, at, index++, { strict: true });
    if (!w) return v as Json;
    if (where !== undefined) w.where = where;
    // A CronJob's pod is its jobTemplate's metadata over the pod template's spec (IntoObject's special case)
    const jobMeta = kind === 'CronJob' ? jobTemplateOf(v as JsonObject)?.metadata : undefined;
    if (kind === 'CronJob') w.pod = { metadata: isObject(jobMeta ?? null) ? jobMeta : {}, spec: w.pod.spec };
    const r = renderer.renderWorkload(w, true);
    if (kind === 'CronJob' && r.merged) {
      const jt = jobTemplateOf(r.merged)!;
      const tpl = (jt.spec as JsonObject).template as JsonObject;
      jt.metadata = tpl.metadata ?? null;
      const orig = ((jobTemplateOf(v as JsonObject)!.spec as JsonObject).template as JsonObject).metadata;
      tpl.metadata = orig === undefined ? (Object.create(null) as JsonObject) : clone(orig);
    }
    total++;
    results.push(r);
    if (r.error !== undefined) {
      failed++;
      return typedJson(kind, clone(v as JsonObject), kube);
    }
    return typedJson(kind, r.decision.inject && r.merged ? r.merged : (clone(v as JsonObject) as JsonObject), kube);
  };

  /** The messages and result events of the workloads injected since the last call. */
  function* reported(): Generator<RenderEvent> {
    for (const r of results) {
      for (const w of r.warnings) yield { type: 'message', text: w };
      if (r.error !== undefined) yield { type: 'message', text: `error: ${r.label} (${r.workload.where}): ${r.error}` };
      else if (!r.decision.inject) yield { type: 'message', text: `skipped: ${r.label}: ${r.decision.reason}` };
      yield { type: 'result', result: r };
    }
    results.length = 0;
  }

  for (const raw of yamlDocuments(text, file)) {
    const lazy = lazyList(raw.text, file, raw.line0, lazyMinBytes);
    if (lazy) {
      // A big List is read, injected and printed one item at a time: its text is the whole List's as
      // typedYaml prints it, the items' YAML cut out of a List of one, so memory stays flat.
      const head = json ? '' : typedYaml('List', { ...(lazy.header.value as JsonObject), items: null }, yamlOpts);
      const at = head.startsWith('items: null\n') ? 0 : head.indexOf('\nitems: null\n') + 1;
      if (json) yield* json.beginList(lazy.header.value as JsonObject);
      else yield { type: 'text', text: head.slice(0, at) + 'items:\n' };
      for (const item of lazy.items) {
        let out: Json;
        try {
          out = isInjectKind(kindOf(item.doc.value)) ? inject(item.doc.value, item.doc, [], `${file}:${item.line}:${item.col}`) : (item.doc.value as Json);
        } catch (e) {
          if (e instanceof GoJsonError) throw lazy.header.errorAt([], e.message);
          throw e;
        }
        yield* reported();
        if (json) yield* json.listItem(out);
        else yield { type: 'text', text: toYaml({ items: [out] } as unknown as GoValue, yamlOpts).slice('items:\n'.length) };
      }
      if (json) yield* json.endList();
      else yield { type: 'text', text: head.slice(at + 'items: null\n'.length) + '---\n' };
      continue;
    }
    const docs = loadSlice(raw.text, file, raw.line0, 0);
    const doc = docs[0];
    const kind = doc ? kindOf(doc.value) : '';
    if (!doc || !isInjectKind(kind)) {
      if (!json) yield { type: 'text', text: raw.text + '---\n' };
      else if (doc && doc.value !== null) yield* json.document(doc.value);
      continue;
    }
    results.length = 0;
    let out: Json;
    try {
      out = inject(doc.value, doc, []);
    } catch (e) {
      if (e instanceof GoJsonError) throw doc.errorAt([], e.message);
      throw e;
    }
    yield* reported();
    if (json) yield* json.document(typedObject(kind, out as JsonObject));
    else yield { type: 'text', text: typedYaml(kind, out as JsonObject, yamlOpts) + '---\n' };
  }
  return { failed, total };
}
