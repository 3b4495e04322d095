// How rendered workloads are printed: the template stage's text, or the merged objects as YAML or JSON,
// one document or several (with a # Source: comment each), Lists printed item by item as they are
// rendered, every other document of the input given back in order.
//
// Upstream: none (the command line's output formats)

import { jsonShaped, type JsonObject, type Json } from '../go/encoding/json/value.js';
import { WorkloadResult, RenderEvent, objectOf } from '../istio/inject.js';
import { parseTemplateOutput } from '../istio/webhook.js';
import { type ManifestPiece } from '../istio/workload.js';
import { goJsonMarshal } from '../go/encoding/json/json.js';
import { type GoValue } from '../go/reflect/value.js';
import { jsonToYaml, toYaml } from '../yaml/emit.js';
import { printable } from './escape.js';

/** A List being printed: its fields without `items`, and what its items have become so far. */
export interface ListFrame {
  header: JsonObject;
  /** Items of a List inside a List, held until its end. */
  items: Json[];
  /** A top-level List, printed item by item: the text after its items, the comma that follows them
   *  in JSON, and how many items were printed. */
  streamed?: { after: string; comma: string; count: number };
}

/**
 * How results are printed, one at a time holding back at most one document: the template output alone
 * for a single workload, `# Source:` headers and `---` between several; -o json prints one document
 * alone and several as a JSON array. With --merged, other objects are printed as read and a List as a
 * List, a top-level one item by item (the text is what emitting the whole List would give), so a dump
 * of 10,000 workloads in one List is never held whole, except as -o json's first document.
 */
export class OutputFormat {
  private pending: string | undefined;
  private count = 0;
  /** The document being written, held back until it is known to be the only one (a JSON array needs
   *  its `[` first). */
  private held = false;
  /** The last text of the document being written (a JSON document ends without its newline). */
  private tail: string | undefined;
  private readonly lists: ListFrame[] = [];
  constructor(
    private readonly req: { merged?: boolean; output?: 'yaml' | 'json' },
    /** The run has exactly one workload. */
    private readonly single: boolean,
  ) {}

  /** The events for one result, in order. (Arrays, not generators: see visitDocument in workload.ts.) */
  add(r: WorkloadResult): RenderEvent[] {
    const out: RenderEvent[] = [];
    for (const w of r.warnings ?? []) out.push({ type: 'message', text: w });
    if (r.error !== undefined) {
      out.push({ type: 'message', text: `error: ${r.label} (${r.workload.where}): ${r.error}` });
      return out;
    }
    const req = this.req;
    if (!r.decision.inject) {
      out.push({ type: 'message', text: `skipped: ${r.label}: ${r.decision.reason}` });
      if (req.merged) this.object(objectOf(r.workload), out);
      return out;
    }
    if (req.merged) {
      this.object(r.merged!, out);
    } else if (req.output) {
      const parsed = r.outputs.map((o, i) => parseTemplateOutput(o, r.templates[i]!));
      for (const p of parsed) this.doc(emit(p, req.output), out);
    } else {
      const text = r.outputs.join(r.outputs.length > 1 ? '\n---\n' : '');
      // a name with a newline would end the comment and write YAML of its own
      this.doc(this.single ? text : `# Source: ${printable(r.label)}\n${text}`, out);
    }
    return out;
  }

  /** The events for what is not a workload (merged output only). */
  piece(p: Exclude<ManifestPiece, { type: 'workload' }>): RenderEvent[] {
    const out: RenderEvent[] = [];
    if (p.type === 'object') this.object(jsonShaped(p.value) as JsonObject, out);
    else if (p.type === 'list') this.beginList(jsonShaped(p.header) as JsonObject, out);
    else this.endList(out);
    return out;
  }

  /** An object of the output: a document, or an item of the List being printed. */
  private object(v: Json, out: RenderEvent[]): void {
    const top = this.lists[this.lists.length - 1];
    if (!top) this.doc(emit(v as JsonObject, this.req.output ?? 'yaml'), out);
    else if (!top.streamed) top.items.push(v);
    else this.listItem(top, v, out);
  }

  private beginList(header: JsonObject, out: RenderEvent[]): void {
    if (this.lists.length > 0) {
      this.lists.push({ header, items: [] });
      return;
    }
    // the List with no items, cut where its items go
    const json = this.req.output === 'json';
    const empty = emit({ ...header, items: [] }, json ? 'json' : 'yaml');
    const m = json ? /^ {2}"items": \[\](,?)\n/m.exec(empty) : /^items: \[\]\n/m.exec(empty);
    this.open(out);
    this.write(empty.slice(0, m!.index), out);
    this.lists.push({ header, items: [], streamed: { after: empty.slice(m!.index + m![0].length), comma: m![1] ?? '', count: 0 } });
  }

  private listItem(frame: ListFrame, v: Json, out: RenderEvent[]): void {
    const s = frame.streamed!;
    if (this.req.output === 'json') {
      const text = goJsonMarshal(v as unknown as GoValue, { indent: '  ' }).replace(/^/gm, '    ');
      this.write(`${s.count === 0 ? '  "items": [\n' : ',\n'}${text}`, out);
    } else {
      // an item is printed as it is inside any top-level `items:`
      const text = jsonToYaml(goJsonMarshal({ items: [v] } as unknown as GoValue));
      this.write(s.count === 0 ? text : text.slice('items:\n'.length), out);
    }
    s.count++;
  }

  private endList(out: RenderEvent[]): void {
    const frame = this.lists.pop()!;
    if (!frame.streamed) {
      this.object({ ...frame.header, items: frame.items }, out);
      return;
    }
    const s = frame.streamed;
    const json = this.req.output === 'json';
    if (s.count === 0) this.write(json ? `  "items": []${s.comma}\n` : 'items: []\n', out);
    else if (json) this.write(`\n  ]${s.comma}\n`, out);
    this.write(s.after, out);
    this.close(out);
  }

  private doc(d: string, out: RenderEvent[]): void {
    this.open(out);
    this.write(d, out);
    this.close(out);
  }

  private open(out: RenderEvent[]): void {
    const json = this.req.output === 'json';
    const n = ++this.count;
    this.tail = '';
    if (n === 1) {
      this.held = true;
      this.pending = '';
      return;
    }
    if (n === 2 && this.held) {
      const first = this.pending!;
      this.pending = undefined;
      this.held = false;
      out.push({ type: 'text', text: json ? `[\n${first.replace(/\n$/, '')}` : ensureNewline(first) });
    }
    out.push({ type: 'text', text: json ? ',\n' : '---\n' });
  }

  private write(text: string, out: RenderEvent[]): void {
    const prev = this.tail!;
    this.tail = text;
    if (prev === '') return;
    // a YAML first document is only held to see that it is the only one: a List need not wait
    if (this.held && (this.req.output === 'json' || this.lists.length === 0)) this.pending += prev;
    else {
      if (this.held) {
        out.push({ type: 'text', text: this.pending! });
        this.pending = '';
        this.held = false;
      }
      out.push({ type: 'text', text: prev });
    }
  }

  private close(out: RenderEvent[]): void {
    const last = this.tail!;
    this.tail = undefined;
    if (this.held) {
      this.pending += last;
      return;
    }
    const json = this.req.output === 'json';
    const text = json ? last.replace(/\n$/, '') : this.count === 1 ? last : ensureNewline(last);
    if (text !== '') out.push({ type: 'text', text });
  }

  end(): RenderEvent[] {
    const json = this.req.output === 'json';
    if (this.count === 1) return this.held ? [{ type: 'text', text: this.pending! }] : [];
    if (json) return [{ type: 'text', text: this.count === 0 ? '[\n\n]\n' : '\n]\n' }];
    return [];
  }
}

export function ensureNewline(d: string): string {
  return d.endsWith('\n') ? d : d + '\n';
}

export function emit(v: JsonObject, output: 'yaml' | 'json'): string {
  if (output === 'json') return goJsonMarshal(v as unknown as GoValue, { indent: '  ' }) + '\n';
  // sigs.k8s.io/yaml.Marshal: JSONToYAML of json.Marshal's text, without writing the text for plain values
  return toYaml(v as unknown as GoValue);
}
