// Reading what users feed the audit: files or stdin, multi-document YAML, `kind: List` dumps, and
// YAML/JSON embedded in ConfigMap strings, keeping enough to point at file:line:col later. The
// reading itself is the project's one input layer (src/yaml/load.ts): values as sigs.k8s.io/yaml
// gives them to Kubernetes, positions found lazily.

import { InputError, decodeInput, loadYamlDocuments, type LoadedDocument } from '../yaml/load.js';
import { lazyDocuments } from '../istio/workload.js';
import { isObject, get, asArray, type JsonObject, type Locator, type PathSeg } from './types.js';
import { nodeCrypto } from '../guard/builtins.js';
import { statSync } from 'node:fs';

export { InputError };

export interface InputText {
  /** Shown in locations; stdin is `<stdin>`. */
  name: string;
  text: string;
}

/** An input read once for each pass over it (the audit reads its inputs twice). */
export interface InputSource {
  /** Shown in locations. */
  readonly name: string;
  /** The whole text, for one pass; an InputError when it cannot be read. */
  read(): string;
}

/** Inputs smaller than this keep their text between passes: reading them twice gains nothing. */
const REREAD_MIN_BYTES = 1 << 20;

/**
 * A file read when given (so that a missing file is reported before anything else is read) and
 * again for each later pass, so that a big dump's text is not held while its workloads are judged.
 * What is not a regular file (a pipe, `<(...)`) cannot be read twice and keeps its text, as does a
 * small file. A file whose bytes changed between the passes is an InputError: the passes would
 * otherwise judge one text with what was gathered from another.
 */
export class FileSource implements InputSource {
  private held: string | undefined;
  private digest: string | undefined;
  private readonly keep: boolean;

  /** `readBytes` reads the whole file or throws an InputError naming it. */
  constructor(
    readonly path: string,
    readonly name: string,
    private readonly readBytes: (path: string) => Buffer,
  ) {
    let regular = false;
    try {
      regular = statSync(path).isFile();
    } catch {
      // readBytes says why it cannot be read
    }
    const bytes = readBytes(path);
    this.keep = !regular || bytes.length < REREAD_MIN_BYTES;
    if (!this.keep) this.digest = digestOf(bytes);
    this.held = decodeInput(bytes, name);
  }

  /** The text as first read, until the first pass takes it (for checks made before it). */
  peek(): string | undefined {
    return this.held;
  }

  read(): string {
    const t = this.held;
    if (t !== undefined) {
      if (!this.keep) this.held = undefined;
      return t;
    }
    const bytes = this.readBytes(this.path);
    if (digestOf(bytes) !== this.digest) throw new InputError('changed while it was audited (its text differs from the first read); audit it again', this.name);
    return decodeInput(bytes, this.name);
  }
}

function digestOf(bytes: Buffer): string {
  return nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}

/** One top-level Kubernetes object of the input (List items are unwrapped), with a way back to its text. */
export interface InputObject {
  value: JsonObject;
  locator: Locator;
  /** Path of this object inside its YAML document (`['items', 3]` for a List item). */
  path: PathSeg[];
}

/** The audit cites map keys (the line a field is written on). */
export class DocumentLocator implements Locator {
  constructor(readonly doc: LoadedDocument) {}
  get file(): string {
    return this.doc.file;
  }
  pos(path: readonly PathSeg[]): { line: number; col: number } {
    return this.doc.positionOf(path, { key: true });
  }
}

/** Parse a whole input stream; every `kind: List` is unwrapped into its items. */
export function loadObjects(inputs: InputText[]): InputObject[] {
  const out: InputObject[] = [];
  for (const input of inputs) {
    for (const doc of loadYamlDocuments(input.text, input.name)) {
      const value = doc.value as unknown;
      const locator = new DocumentLocator(doc);
      if (Array.isArray(value)) {
        // a JSON array of objects
        value.forEach((v, i) => isObject(v) && pushObject(out, v, locator, [i]));
        continue;
      }
      if (!isObject(value)) throw doc.errorAt([], 'expected a Kubernetes object (a mapping with kind), got ' + describe(value));
      pushObject(out, value, locator, []);
    }
  }
  return out;
}

/**
 * The objects loadObjects gives, one at a time: a big block-style List or multi-document file is
 * parsed piece by piece (as render reads it), so a cluster dump is never held parsed whole. Small or
 * unusual inputs (anchors, flow style, JSON) are parsed whole, as loadObjects does.
 */
export function* streamObjects(inputs: ReadonlyArray<InputText | InputSource>): Generator<InputObject> {
  for (const input of inputs) {
    let inList = 0;
    // a source's text lives only while its objects are read
    for (const d of lazyDocuments(isSource(input) ? input.read() : input.text, input.name)) {
      if (!('positionOf' in d)) {
        // a List opened piece by piece, or its end: its items come in between
        if (d.type === 'list') inList++;
        else if (d.type === 'end') inList--;
        continue;
      }
      const out: InputObject[] = [];
      const value = d.value as unknown;
      const locator = new DocumentLocator(d);
      if (inList > 0) {
        // a List item: one that is not an object is skipped, as loadObjects skips it
        if (isObject(value)) pushObject(out, value, locator, []);
      } else if (Array.isArray(value)) {
        value.forEach((v, i) => isObject(v) && pushObject(out, v, locator, [i]));
      } else {
        if (!isObject(value)) throw d.errorAt([], 'expected a Kubernetes object (a mapping with kind), got ' + describe(value));
        pushObject(out, value, locator, []);
      }
      yield* out;
    }
  }
}

function isSource(x: InputText | InputSource): x is InputSource {
  return typeof (x as Partial<InputSource>).read === 'function';
}

function pushObject(out: InputObject[], value: JsonObject, locator: Locator, path: PathSeg[]): void {
  const kind = get(value, 'kind');
  if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(get(value, 'items'))) {
    asArray(get(value, 'items')).forEach((item, i) => {
      if (isObject(item)) pushObject(out, item, locator, [...path, 'items', i]);
    });
    return;
  }
  out.push({ value, locator, path });
}

/** A document embedded in a string field (ConfigMap `data.mesh`, `data.values`), positioned in the outer file. */
export interface EmbeddedDoc {
  value: unknown;
  locator: Locator;
}

export function parseEmbedded(obj: InputObject, field: PathSeg[], what: string): EmbeddedDoc | undefined {
  let cur: unknown = obj.value;
  for (const seg of field) cur = typeof seg === 'number' ? asArray(cur)[seg] : get(cur, seg);
  if (typeof cur !== 'string') return undefined;
  if (!(obj.locator instanceof DocumentLocator)) return undefined;
  // istiod reads these strings with sigs.k8s.io/yaml.Unmarshal: a key written twice keeps the last
  const doc = obj.locator.doc.embedded([...obj.path, ...field], what, { duplicateKeys: 'last' });
  if (!doc) return { value: null, locator: obj.locator };
  return { value: doc.value, locator: new DocumentLocator(doc) };
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'a sequence';
  return typeof v === 'string' ? 'a string' : String(typeof v);
}
