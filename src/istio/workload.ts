// Workloads as users feed them (files or stdin; multi-document YAML; `kind: List`), reduced to the pod
// each would create plus what istiod learns about its owner.
//
// Public API
//   Workload               { kind, apiVersion, name, namespace, ownerMeta, pod, where, index }
//   workloadsFromText(text, file, opts?)   every workload in the text; other kinds are skipped (ConfigMaps,
//                                          Services...) or, with opts.strict, an error; unknown kinds that
//                                          carry a pod template are accepted like istioctl's reflection path
//   workloadStream(text, file, opts?)      the same, read one document / List item at a time (large inputs);
//                                          a text without any workload is an InputError naming the first kind
//   manifestStream(text, file, opts?)      every document in order, read the same way: workloads, other
//                                          objects, and each List's fields, items and end (ManifestPiece)
//   workloadFromObject(obj, doc, at?)      one object → Workload | undefined (not a workload); a pod without
//                                          containers (or with ill-typed container lists) is an InputError
//   WORKLOAD_KINDS
//   workloadLabel(w)       "Deployment default/web" for messages
//
// Upstream: none (reads workloads from input files and reduces each to its pod template)

import { InputError, loadYamlDocuments, movedDocument, type LoadedDocument, type Position } from '../yaml/load.js';

export const WORKLOAD_KINDS = ['Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Job', 'CronJob', 'DeploymentConfig'] as const;

export interface Workload {
  kind: string;
  apiVersion: string;
  /** The workload's own name (metadata.name) and namespace ('' when unset). */
  name: string;
  namespace: string;
  /** The workload's metadata (for Pods, the pod's). */
  ownerMeta: Record<string, unknown>;
  /** The pod as JSON: {metadata, spec} from the pod template (or the Pod itself). */
  pod: Record<string, unknown>;
  /** Where the object came from ("file:line:col"), and positions within it. */
  where: string;
  doc: LoadedDocument;
  /** The JSON path of the pod template inside the object (['spec','template'] ...), [] for a Pod. */
  templatePath: (string | number)[];
  /** Position of the object among the inputs. */
  index: number;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function workloadLabel(w: Pick<Workload, 'kind' | 'namespace' | 'name'>): string {
  return `${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name || '<unnamed>'}`;
}

const NOT_WORKLOADS = new Set([
  'ConfigMap', 'Secret', 'Service', 'ServiceAccount', 'Namespace', 'Ingress', 'Role', 'RoleBinding', 'ClusterRole',
  'ClusterRoleBinding', 'PersistentVolumeClaim', 'PersistentVolume', 'HorizontalPodAutoscaler', 'PodDisruptionBudget',
  'NetworkPolicy', 'CustomResourceDefinition', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration',
  'Endpoints', 'EndpointSlice', 'LimitRange', 'ResourceQuota', 'StorageClass', 'PriorityClass', 'IstioOperator',
  'Gateway', 'VirtualService', 'DestinationRule', 'ServiceEntry', 'Sidecar', 'PeerAuthentication',
  'AuthorizationPolicy', 'EnvoyFilter', 'Telemetry', 'WorkloadEntry', 'WorkloadGroup', 'ProxyConfig',
  'RequestAuthentication', 'WasmPlugin', 'HTTPRoute', 'GRPCRoute', 'TCPRoute', 'TLSRoute', 'GatewayClass',
]);

export interface WorkloadOptions {
  /** Treat a non-workload object as an error instead of skipping it. */
  strict?: boolean;
  /** workloadStream: inputs smaller than this are loaded whole (default 256 KiB; tests lower it). */
  lazyMinBytes?: number;
}

/** One object → its workload, or undefined when it is not a workload (and not an error). */
export function workloadFromObject(obj: unknown, doc: LoadedDocument, at: (string | number)[] = [], index = 0, opts: WorkloadOptions = {}): Workload | undefined {
  if (!isObj(obj)) throw doc.errorAt(at, `expected a Kubernetes object, got ${Array.isArray(obj) ? 'a list' : typeof obj}`, { key: true });
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  if (!kind) throw doc.errorAt(at, 'object has no kind', { key: true });
  const meta = isObj(obj.metadata) ? obj.metadata : {};
  const name = typeof meta.name === 'string' ? meta.name : '';
  const namespace = typeof meta.namespace === 'string' ? meta.namespace : '';
  const spec = isObj(obj.spec) ? obj.spec : undefined;
  let templatePath: (string | number)[];
  let tmpl: unknown;
  if (kind === 'Pod') {
    templatePath = [];
    tmpl = { metadata: obj.metadata ?? {}, spec: obj.spec ?? {} };
  } else if (kind === 'CronJob') {
    const jt = isObj(spec?.jobTemplate) ? spec!.jobTemplate : undefined;
    const js = isObj(jt?.spec) ? (jt!.spec as Record<string, unknown>) : undefined;
    tmpl = js?.template;
    templatePath = ['spec', 'jobTemplate', 'spec', 'template'];
  } else if (spec && 'template' in spec) {
    tmpl = spec.template;
    templatePath = ['spec', 'template'];
  } else if ((WORKLOAD_KINDS as readonly string[]).includes(kind)) {
    tmpl = undefined;
    templatePath = ['spec', 'template'];
  } else {
    if (NOT_WORKLOADS.has(kind) && !opts.strict) return undefined;
    if (!opts.strict) return undefined;
    throw doc.errorAt(at, `${kind} ${name || '<unnamed>'} has no pod template (spec.template); supported kinds: ${WORKLOAD_KINDS.join(', ')}`, { key: true });
  }
  if (!isObj(tmpl)) {
    // istioctl: "spec.template is required value"
    throw doc.errorAt(at, `${kind} ${name || '<unnamed>'}: spec.template is required value`, { key: true });
  }
  const pod: Record<string, unknown> = { metadata: isObj(tmpl.metadata) ? tmpl.metadata : {}, spec: isObj(tmpl.spec) ? tmpl.spec : {} };
  checkPodSpec(pod.spec as Record<string, unknown>, doc, at, [...templatePath, 'spec'], `${kind} ${namespace ? `${namespace}/` : ''}${name || '<unnamed>'}`);
  // where it is, looked up when a message needs it: finding a position can mean reading the file again
  let where: string | undefined;
  return {
    kind,
    apiVersion,
    name,
    namespace,
    ownerMeta: meta,
    pod,
    get where(): string {
      return (where ??= doc.where(at, { key: true }));
    },
    set where(v: string) {
      where = v;
    },
    doc: doc.sub(at),
    templatePath,
    index,
  };
}

/** JSON's name for what a value is, as encoding/json words its "cannot unmarshal X" errors. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * What the API server refuses before any webhook sees the pod: a spec without containers, or container
 * lists that are not lists of objects. Such a workload is bad input (exit 2), not a failed render.
 */
function checkPodSpec(spec: Record<string, unknown>, doc: LoadedDocument, at: (string | number)[], inObject: (string | number)[], label: string): void {
  const specPath = [...at, ...inObject];
  const rel = inObject.join('.');
  for (const field of ['containers', 'initContainers'] as const) {
    const l = spec[field];
    if (l === undefined || l === null) continue;
    if (!Array.isArray(l)) {
      throw doc.errorAt([...specPath, field], `${label}: json: cannot unmarshal ${jsonKind(l)} into Go struct field PodSpec.spec.${field} of type []v1.Container`);
    }
    l.forEach((c, i) => {
      if (!isObj(c)) throw doc.errorAt([...specPath, field, i], `${label}: json: cannot unmarshal ${jsonKind(c)} into Go struct field PodSpec.spec.${field} of type v1.Container`);
    });
  }
  const cs = spec.containers;
  if (!Array.isArray(cs) || cs.length === 0) {
    const path = cs === undefined || cs === null ? specPath : [...specPath, 'containers'];
    throw doc.errorAt(path, `${label}: ${rel}.containers: Required value (Kubernetes rejects a pod without containers)`, { key: true });
  }
}

/** What the file held instead of workloads, for the error when it held none. */
interface NotWorkload {
  doc: LoadedDocument;
  at: (string | number)[];
  kind: string;
}

function noWorkloads(file: string, first: NotWorkload | undefined): InputError {
  if (!first) return new InputError('no workloads (the file holds no Kubernetes objects)', file);
  return first.doc.errorAt([...first.at, 'kind'], `kind ${first.kind} has no pod template (want ${WORKLOAD_KINDS.join(', ')}, or a List of them)`);
}

/**
 * What a manifest holds, in order, for output that gives every document back (`render --merged`):
 * workloads, other objects (a Service, a ConfigMap) as read, and Lists as their fields without `items`
 * followed by their items and an `end`.
 */
export type ManifestPiece =
  | { type: 'workload'; workload: Workload }
  | { type: 'object'; value: Record<string, unknown> }
  | { type: 'list'; header: Record<string, unknown> }
  | { type: 'end' };

interface Counter {
  index: number;
  skipped?: NotWorkload;
}

function isList(v: unknown): v is Record<string, unknown> & { items: unknown[] } {
  return isObj(v) && typeof v.kind === 'string' && /List$/.test(v.kind) && Array.isArray(v.items);
}

function listHeader(v: Record<string, unknown>): Record<string, unknown> {
  const h: Record<string, unknown> = { ...v };
  delete h.items;
  return h;
}

/** One loaded document → its pieces (Lists are opened), noting the first non-workload. A plain loop,
 *  not a generator: a recursive generator per document made rendering 10,000 workloads hold twice the
 *  memory. */
function visitDocument(doc: LoadedDocument, counter: Counter, opts: WorkloadOptions, out: ManifestPiece[]): void {
  const visit = (v: unknown, at: (string | number)[]): void => {
    if (isList(v)) {
      out.push({ type: 'list', header: listHeader(v) });
      for (let i = 0; i < v.items.length; i++) visit(v.items[i], [...at, 'items', i]);
      out.push({ type: 'end' });
      return;
    }
    const w = workloadFromObject(v, doc, at, counter.index++, opts);
    if (w) out.push({ type: 'workload', workload: w });
    else if (isObj(v)) {
      counter.skipped ??= { doc, at, kind: String(v.kind) };
      out.push({ type: 'object', value: v });
    }
  };
  visit(doc.value, []);
}

function isPiece(d: LoadedDocument | ManifestPiece): d is ManifestPiece {
  return typeof (d as { where?: unknown }).where !== 'function';
}

/** The pieces of a text, read one document (or block List item) at a time; see lazyDocuments. */
function* pieces(text: string, file: string, opts: WorkloadOptions, counter: Counter): Generator<ManifestPiece> {
  for (const d of lazyDocuments(text, file, opts.lazyMinBytes)) {
    if (isPiece(d)) {
      yield d;
      continue;
    }
    const ps: ManifestPiece[] = [];
    visitDocument(d, counter, opts, ps);
    yield* ps;
  }
}

/**
 * All workloads in a YAML/JSON text (documents, Lists), read one at a time: the documents of a
 * multi-document file and the items of a block-style `kind: List` (what `kubectl get -o yaml` prints)
 * are each loaded only when reached, so a dump of 10,000 Deployments is never held parsed at once.
 * Non-workload objects are skipped; a text with no workload at all is an InputError naming the first
 * object's kind (or the file, when it is empty).
 */
export function* workloadStream(text: string, file: string, opts: WorkloadOptions = {}): Generator<Workload> {
  const counter: Counter = { index: 0 };
  let seen = 0;
  for (const p of pieces(text, file, opts, counter)) {
    if (p.type !== 'workload') continue;
    seen++;
    yield p.workload;
  }
  if (seen === 0) throw noWorkloads(file, counter.skipped);
}

/**
 * Everything in a YAML/JSON text, in order, read piece by piece as workloadStream reads it: workloads,
 * other objects, and Lists opened. A text without any object is an InputError naming the file.
 */
export function* manifestStream(text: string, file: string, opts: WorkloadOptions = {}): Generator<ManifestPiece> {
  let seen = 0;
  for (const p of pieces(text, file, opts, { index: 0 })) {
    seen++;
    yield p;
  }
  if (seen === 0) throw noWorkloads(file, undefined);
}

/** All workloads in a YAML/JSON text (documents, Lists). Non-workload objects are skipped. */
export function workloadsFromText(text: string, file: string, opts: WorkloadOptions = {}): Workload[] {
  const docs = loadYamlDocuments(text, file);
  const out: Workload[] = [];
  const counter: Counter = { index: 0 };
  const ps: ManifestPiece[] = [];
  for (const d of docs) visitDocument(d, counter, opts, ps);
  for (const p of ps) if (p.type === 'workload') out.push(p.workload);
  return out;
}

// ---------- reading a large input piece by piece ----------

/** Load a slice of the file (lines from file line line0+1, each with `shift` columns removed). */
export function loadSlice(text: string, file: string, line0: number, shift: number): LoadedDocument[] {
  const map = (p: Position): Position => ({ line: p.line + line0, col: p.col + shift });
  try {
    return loadYamlDocuments(text, file, { format: 'yaml' }).map((d) => movedDocument(d, map));
  } catch (e) {
    if (!(e instanceof InputError) || e.file === undefined || !e.line) throw e;
    const p = map({ line: e.line, col: e.col ?? 1 });
    throw new InputError(e.reason, e.file, p.line, p.col);
  }
}

const LAZY_MIN_BYTES = 256 * 1024;
const LAZY_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The documents of a text, loaded one at a time when that cannot change their meaning: block YAML
 * without directives, document-end markers, anchors or aliases. Anything else (and small inputs) is
 * loaded whole, as before. A block List read item by item comes as its fields (a `list` piece), its
 * items, and an `end`.
 */
export function* lazyDocuments(text: string, file: string, minBytes = LAZY_MIN_BYTES): Generator<LoadedDocument | ManifestPiece> {
  if (!lazyReadable(text, file, minBytes)) {
    yield* loadYamlDocuments(text, file);
    return;
  }
  const lines = lineStarts(text);
  // document boundaries: each document slice starts at its `---` line
  const bounds: number[] = [0];
  for (let i = 1; i < lines.length; i++) {
    const at = lines[i]!;
    if (text.startsWith('---', at) && (at + 3 >= text.length || /[\s]/.test(text[at + 3]!))) bounds.push(i);
  }
  bounds.push(lines.length);
  for (let b = 0; b + 1 < bounds.length; b++) {
    const from = bounds[b]!;
    const to = bounds[b + 1]!;
    const list = pieceList(text, lines, from, to, file, 0);
    if (!list) {
      yield* loadSlice(sliceLines(text, lines, from, to), file, from, 0);
      continue;
    }
    yield { type: 'list', header: listHeader(list.header.value as Record<string, unknown>) };
    for (const item of list.items) yield item.doc;
    yield { type: 'end' };
  }
}

/** Whether a text may be read piece by piece without changing its meaning (and is big enough to gain). */
function lazyReadable(text: string, file: string, minBytes: number): boolean {
  const first = text.trimStart()[0];
  return !(
    text.length < minBytes ||
    Buffer.byteLength(text, 'utf8') > LAZY_MAX_BYTES ||
    /\.json$/i.test(file) ||
    first === '{' ||
    first === '[' ||
    /^(%|\.\.\.(\s|$))/m.test(text) ||
    /\t/.test(text) ||
    mayHaveAnchors(text) ||
    text.charCodeAt(0) === 0xfeff
  );
}

/** An `&` or `*` where a YAML node may start: an anchor or an alias, or plain text that looks like one. */
const ANCHOR_AT = /(^|[\s[{,:-])[&*][^\s,\]}]/;
const QUOTE_OR_MARK = /["'#&*]/;
/** What may stand before a node's first character on its line (after the indentation). */
const NODE_START = ' \t\r[{,:-';
/** A line that ends in a block scalar's header (after its key or `-`); group 1 is what stands before it. */
const BLOCK_HEADER = /^((?:- +)*(?:[^\s#"'][^#]*?: +)?(?:- +)*)[|>][-+1-9]{0,2}$/;

/**
 * Whether the text may hold an anchor or an alias, which ties List items together. `&` and `*` inside
 * quoted scalars, comments and block scalars are text (a cron schedule `"*\/15 * * * *"`, a shell
 * script's `ls *.yaml`): those lines are skipped. Whatever is not plainly one of these counts as a
 * possible anchor, so the answer errs on the side of reading whole. (Exported for tests.)
 */
export function mayHaveAnchors(text: string): boolean {
  if (!/[&*]/.test(text)) return false;
  let blockParent = -1;
  for (let at = 0; at < text.length; ) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const line = text.slice(at, nl);
    at = nl + 1;
    let indent = 0;
    while (line.charCodeAt(indent) === 32) indent++;
    if (indent === line.length || line[indent] === '\r') continue;
    if (blockParent >= 0) {
      // a block scalar's content: every line indented past the node that holds it
      if (indent > blockParent) continue;
      blockParent = -1;
    }
    const body = line.slice(indent).trimEnd();
    // the line without its quoted scalars and comment
    const marked = QUOTE_OR_MARK.test(body);
    let bare = marked ? '' : body;
    for (let i = indent; marked && i < line.length; i++) {
      const c = line[i]!;
      const starts = i === indent || NODE_START.includes(line[i - 1]!);
      if ((c === '"' || c === "'") && starts) {
        let k = i + 1;
        for (; k < line.length; k++) {
          if (c === '"' && line[k] === '\\') k++;
          else if (line[k] === c) {
            if (c === "'" && line[k + 1] === "'") k++;
            else break;
          }
        }
        // a quoted scalar over lines: its other lines cannot be told apart here
        if (k >= line.length) return true;
        bare += c + c;
        i = k;
        continue;
      }
      if (c === '#' && (i === indent || line[i - 1] === ' ')) break;
      bare += c;
    }
    bare = bare.trimEnd();
    if (ANCHOR_AT.test(bare)) return true;
    const h = '|>-+123456789'.includes(bare[bare.length - 1] ?? ' ') ? BLOCK_HEADER.exec(bare) : null;
    if (h) {
      // the node holding the block: the key (or the last `-`) before the header
      const lead = h[1]!;
      const key = /[^\s-]/.exec(lead);
      blockParent = indent + (key ? key.index : Math.max(0, lead.lastIndexOf('-')));
    }
  }
  return false;
}

/** A block-style List read one item at a time: the List without its items, then each item. */
export interface LazyList {
  header: LoadedDocument;
  /** Each item as a document of its own, with the file line and column of its `-`. */
  items: Generator<{ doc: LoadedDocument; line: number; col: number }>;
}

/**
 * The List in lines [from, to) of text (file line = line0 + index + 1), when its items can be cut apart
 * line by line and the rest of it reads as a List; else undefined (read the document whole).
 */
function pieceList(text: string, lines: LineStarts, from: number, to: number, file: string, line0: number): LazyList | undefined {
  const list = blockListItems(text, lines, from, to);
  if (!list) return undefined;
  // the List itself without its items: it must load, and be a List
  const header = sliceLines(text, lines, from, list.itemsFrom) + sliceLines(text, lines, list.itemsTo, to);
  let h: LoadedDocument | undefined;
  try {
    h = loadSlice(header, file, line0 + from, 0)[0];
  } catch {
    // report the error where the whole document puts it
    h = undefined;
  }
  if (!h || !isObj(h.value) || typeof h.value.kind !== 'string' || !/List$/.test(h.value.kind) || (h.value.items !== null && h.value.items !== undefined)) return undefined;
  function* items(): Generator<{ doc: LoadedDocument; line: number; col: number }> {
    for (let k = 0; k < list!.items.length; k++) {
      const a = list!.items[k]!;
      const z = k + 1 < list!.items.length ? list!.items[k + 1]! : list!.itemsTo;
      const shift = list!.dash + 2;
      let item = '';
      for (let i = a; i < z; i++) item += lineText(text, lines, i).slice(shift) + '\n';
      const docs = loadSlice(item, file, line0 + a, shift);
      if (docs.length !== 1) throw new InputError(`List item ${k} is ${docs.length ? 'several documents' : 'empty'}`, file, line0 + a + 1, list!.dash + 1);
      yield { doc: docs[0]!, line: line0 + a + 1, col: list!.dash + 1 };
    }
  }
  return { header: h, items: items() };
}

/**
 * One document's text (starting at file line line0 + 1) as a List read item by item, when it is a
 * block-style List big enough to gain and readable piece by piece (as workloadStream reads Lists);
 * else undefined.
 */
export function lazyList(text: string, file: string, line0: number, minBytes = LAZY_MIN_BYTES): LazyList | undefined {
  if (!lazyReadable(text, file, minBytes)) return undefined;
  const lines = lineStarts(text);
  return pieceList(text, lines, 0, lines.length, file, line0);
}

/** Where each line starts: a typed array, counted first, since a dump has millions of lines (a
 *  growing array of numbers took 8 bytes a line in the heap, and copies as it grew). */
type LineStarts = Uint32Array;

function lineStarts(text: string): LineStarts {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) n++;
  const ls = new Uint32Array(n);
  let k = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) ls[k++] = i + 1;
  return ls;
}

function lineText(text: string, lines: LineStarts, i: number): string {
  const s = lines[i]!;
  const e = i + 1 < lines.length ? lines[i + 1]! - 1 : text.length;
  const l = text.slice(s, e);
  return l.endsWith('\r') ? l.slice(0, -1) : l;
}

function sliceLines(text: string, lines: LineStarts, from: number, to: number): string {
  if (from >= to) return '';
  return text.slice(lines[from]!, to < lines.length ? lines[to]! : text.length);
}

/**
 * A top-level `items:` block sequence in lines [from, to): the line of each `- ` entry, the lines the
 * sequence spans, and the entries' indentation. Undefined when the document is not such a List or its
 * items cannot be cut apart line by line (an entry's lines less indented than its content).
 */
function blockListItems(text: string, lines: LineStarts, from: number, to: number): { items: number[]; itemsFrom: number; itemsTo: number; dash: number } | undefined {
  let itemsLine = -1;
  let isList = false;
  for (let i = from; i < to; i++) {
    const s = lines[i]!;
    const c = text[s];
    if (c === ' ' || c === '\n' || c === '#' || c === '-' || c === undefined) continue;
    const l = lineText(text, lines, i);
    if (/^items:\s*(#.*)?$/.test(l)) itemsLine = i;
    else if (/^kind:\s*["']?[A-Za-z0-9]*List["']?\s*(#.*)?$/.test(l)) isList = true;
  }
  if (itemsLine < 0 || !isList) return undefined;
  const items: number[] = [];
  let dash = -1;
  let end = to;
  for (let i = itemsLine + 1; i < to; i++) {
    const l = lineText(text, lines, i);
    const body = l.trimStart();
    if (body === '') continue;
    const indent = l.length - body.length;
    if (dash < 0) {
      if (!/^-(\s|$)/.test(body)) return undefined;
      dash = indent;
    }
    if (indent === dash && /^-(\s|$)/.test(body)) {
      // an entry that does not start on its dash line (`-` alone, `- - `) is left to the whole-document reader
      if (!/^- +[^\s#-]/.test(body) || /^- +[|>]/.test(body)) return undefined;
      items.push(i);
      continue;
    }
    if (indent >= dash + 2) continue;
    if (indent === 0 && body[0] !== '#') {
      end = i;
      break;
    }
    return undefined;
  }
  if (items.length === 0) return undefined;
  // trailing blank lines belong to the last item; the header keeps what follows
  return { items, itemsFrom: itemsLine + 1, itemsTo: end, dash };
}
