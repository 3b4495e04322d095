// Go values and template errors sent to the big-stack thread and back (guard/syncstack.ts). Structured
// clone keeps neither the GO_TYPE symbol, nor GoNum/GoNil/RecordStruct, nor type identity (T.int,
// sliceOf(...)), and it recurses: data as deep as Go takes would exhaust the stack being escaped. So
// values are flattened here, without recursion, into a list of nodes that refer to each other by
// index (shared and cyclic values stay shared and cyclic), and rebuilt on the other side. What cannot
// be rebuilt faithfully (functions, types with methods or their own JSON encoding, struct kinds other
// than RecordStruct) is refused with the reason.
//
// Upstream: none (Go values and template errors carried to the big-stack thread and back)

import { GO_TYPE, GoFunc, GoNil, GoNum, GoStruct, RecordStruct, T, mapOf, newMap, ptrTo, sliceOf, type GoMap, type GoType, type GoValue, type StructField } from '../../reflect/value.js';
import { ExecError, GoPanic, ParseError, TemplateError } from './errors.js';

/** A value that cannot be sent; message says which and why. */
export class NotSendable extends Error {}

type Cell = string | boolean | number | bigint | null | undefined | { r: number };

type Node =
  | { a: Cell[]; t?: number }
  | { k: string[]; v: Cell[]; t?: number }
  | { n: bigint | number; t: number }
  | { nil: number }
  | { s: number; ptr: boolean; k: string[]; v: Cell[] };

type TypeNode =
  | { T: string }
  | { slice: number }
  | { map: [number, number] }
  | { ptr: number }
  | { kind: GoType['kind']; name: string; elem?: number; key?: number; fields?: Array<Omit<StructField, 'type'> & { type: number }> };

export interface SentValue {
  root: Cell;
  nodes: Node[];
  types: TypeNode[];
}

const BUILTIN_TYPES = new Map<GoType, string>(Object.entries(T).map(([k, t]) => [t, k]));
const recordValues = (s: RecordStruct): Record<string, GoValue> => (s as unknown as { values: Record<string, GoValue> }).values;

class Encoder {
  nodes: Node[] = [];
  types: TypeNode[] = [];
  private seen = new Map<object, number>();
  private typeIds = new Map<GoType, number>();
  private work: Array<[object, Node]> = [];

  type(t: GoType): number {
    const known = this.typeIds.get(t);
    if (known !== undefined) return known;
    const b = BUILTIN_TYPES.get(t);
    if (b !== undefined) return this.addType(t, { T: b });
    if (t.methods || t.marshalJSON) throw new NotSendable(`a value of Go type ${t.name} has methods`);
    if (t.kind === 'slice' && t.elem && sliceOf(t.elem) === t) return this.addType(t, { slice: this.type(t.elem) });
    if (t.kind === 'ptr' && t.elem && ptrTo(t.elem) === t) return this.addType(t, { ptr: this.type(t.elem) });
    if (t.kind === 'map' && t.key && t.elem && mapOf(t.key, t.elem) === t) {
      const k = this.type(t.key);
      return this.addType(t, { map: [k, this.type(t.elem)] });
    }
    // a type of its own: its index first, so that a field can refer back to it
    const node: Extract<TypeNode, { kind: unknown }> = { kind: t.kind, name: t.name };
    const id = this.addType(t, node);
    if (t.elem) node.elem = this.type(t.elem);
    if (t.key) node.key = this.type(t.key);
    if (t.fields) node.fields = t.fields.map((f) => ({ name: f.name, json: f.json, ...(f.omitempty ? { omitempty: true } : {}), ...(f.embedded ? { embedded: true } : {}), type: this.type(f.type) }));
    return id;
  }

  private addType(t: GoType, n: TypeNode): number {
    const id = this.types.length;
    this.types.push(n);
    this.typeIds.set(t, id);
    return id;
  }

  cell(v: GoValue): Cell {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'function' || typeof v === 'symbol') throw new NotSendable(`the data holds a JavaScript ${typeof v}`);
      return v;
    }
    const known = this.seen.get(v);
    if (known !== undefined) return { r: known };
    const id = this.nodes.length;
    this.seen.set(v, id);
    let node: Node;
    if (Array.isArray(v)) {
      const t = (v as { [GO_TYPE]?: GoType })[GO_TYPE];
      node = t ? { a: [], t: this.type(t) } : { a: [] };
    } else if (v instanceof GoNum) {
      if (Object.getPrototypeOf(v) !== GoNum.prototype) throw new NotSendable(`the data holds a ${v.type.name} value`);
      node = { n: v.v, t: this.type(v.type) };
    } else if (v instanceof GoNil) {
      node = { nil: this.type(v.type) };
    } else if (v instanceof GoStruct) {
      if (Object.getPrototypeOf(v) !== RecordStruct.prototype) throw new NotSendable(`the data holds a struct of Go type ${v.type.name} that is not a RecordStruct`);
      node = { s: this.type(v.type), ptr: v.ptr, k: [], v: [] };
    } else if (v instanceof GoFunc) {
      throw new NotSendable(`the data holds the function ${v.name}`);
    } else {
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== null && proto !== Object.prototype) throw new NotSendable(`the data holds a JavaScript ${(v as object).constructor?.name ?? 'object'}`);
      const t = (v as GoMap)[GO_TYPE];
      node = t ? { k: [], v: [], t: this.type(t) } : { k: [], v: [] };
    }
    this.nodes.push(node);
    if ('a' in node || 'k' in node) this.work.push([v, node]);
    return { r: id };
  }

  /** Fill containers breadth-first: no recursion, however deep the value. */
  run(root: GoValue): SentValue {
    const r = this.cell(root);
    for (let i = 0; i < this.work.length; i++) {
      const [v, node] = this.work[i]!;
      if ('a' in node) {
        for (const x of v as GoValue[]) node.a.push(this.cell(x));
      } else if ('s' in node) {
        const rec = recordValues(v as RecordStruct);
        for (const k of Object.keys(rec)) {
          node.k.push(k);
          node.v.push(this.cell(rec[k]));
        }
      } else {
        const m = node as { k: string[]; v: Cell[] };
        for (const k of Object.keys(v)) {
          m.k.push(k);
          m.v.push(this.cell((v as GoMap)[k]));
        }
      }
    }
    this.work = [];
    return { root: r, nodes: this.nodes, types: this.types };
  }
}

/** Flatten a value for sending; throws NotSendable. */
export function sendValue(v: GoValue): SentValue {
  return new Encoder().run(v);
}

function receiveTypes(ns: TypeNode[]): GoType[] {
  const out: GoType[] = new Array(ns.length);
  // types of their own first (fields may refer to any of them), then the shared ones in order
  for (let i = 0; i < ns.length; i++) {
    const n = ns[i]!;
    if ('kind' in n) out[i] = { kind: n.kind, name: n.name };
  }
  for (let i = 0; i < ns.length; i++) {
    const n = ns[i]!;
    if ('T' in n) out[i] = (T as Record<string, GoType>)[n.T]!;
    else if ('slice' in n) out[i] = sliceOf(out[n.slice]!);
    else if ('ptr' in n) out[i] = ptrTo(out[n.ptr]!);
    else if ('map' in n) out[i] = mapOf(out[n.map[0]]!, out[n.map[1]]!);
  }
  for (let i = 0; i < ns.length; i++) {
    const n = ns[i]!;
    if (!('kind' in n)) continue;
    const t = out[i]!;
    if (n.elem !== undefined) t.elem = out[n.elem]!;
    if (n.key !== undefined) t.key = out[n.key]!;
    if (n.fields) t.fields = n.fields.map((f) => ({ ...f, type: out[f.type]! }));
  }
  return out;
}

/** Rebuild a value sent with sendValue. */
export function receiveValue(s: SentValue): GoValue {
  const types = receiveTypes(s.types);
  const objs: GoValue[] = new Array(s.nodes.length);
  const records: Array<Record<string, GoValue> | undefined> = new Array(s.nodes.length);
  for (let i = 0; i < s.nodes.length; i++) {
    const n = s.nodes[i]!;
    if ('a' in n) objs[i] = [];
    else if ('s' in n) {
      const rec = newMap() as Record<string, GoValue>;
      records[i] = rec;
      objs[i] = new RecordStruct(types[n.s]!, rec, n.ptr);
    } else if ('k' in n) objs[i] = newMap();
    else if ('n' in n) objs[i] = new GoNum(types[n.t]!, n.n);
    else objs[i] = new GoNil(types[n.nil]!);
  }
  const cell = (c: Cell): GoValue => (c !== null && typeof c === 'object' ? objs[c.r] : c);
  for (let i = 0; i < s.nodes.length; i++) {
    const n = s.nodes[i]!;
    if ('a' in n) {
      const a = objs[i] as GoValue[];
      for (const c of n.a) a.push(cell(c));
      if (n.t !== undefined) typed(a, types[n.t]!);
    } else if ('k' in n) {
      const m = (records[i] ?? objs[i]) as GoMap;
      for (let j = 0; j < n.k.length; j++) m[n.k[j]!] = cell(n.v[j]);
      if (!('s' in n) && n.t !== undefined) typed(m, types[n.t]!);
    }
  }
  return cell(s.root);
}

function typed(v: object, t: GoType): void {
  Object.defineProperty(v, GO_TYPE, { value: t, enumerable: false, configurable: true, writable: true });
}

/** An error thrown on the big stack, as sent back. */
export interface SentError {
  kind: 'ParseError' | 'ExecError' | 'LimitError' | 'TemplateError' | 'GoPanic' | 'Error';
  message: string;
  templateName?: string;
  line?: number;
  col?: number;
  output?: string;
}

export function sendError(e: unknown, limitError: new (...a: ConstructorParameters<typeof ExecError>) => ExecError): SentError {
  if (e instanceof TemplateError) {
    const kind = e instanceof ParseError ? 'ParseError' : e instanceof limitError ? 'LimitError' : e instanceof ExecError ? 'ExecError' : 'TemplateError';
    return { kind, message: e.message, templateName: e.templateName, line: e.line, col: e.col, ...(e instanceof ExecError ? { output: e.output } : {}) };
  }
  if (e instanceof GoPanic) return { kind: 'GoPanic', message: e.message };
  return { kind: 'Error', message: e instanceof Error ? e.message : String(e) };
}

export function receiveError(s: SentError, limitError: new (...a: ConstructorParameters<typeof ExecError>) => ExecError): Error {
  const where = [s.templateName ?? '', s.line ?? 0, s.col ?? 0] as const;
  switch (s.kind) {
    case 'ParseError':
      return new ParseError(s.message, ...where);
    case 'ExecError':
    case 'LimitError': {
      const e = s.kind === 'LimitError' ? new limitError(s.message, ...where) : new ExecError(s.message, ...where);
      e.output = s.output ?? '';
      return e;
    }
    case 'TemplateError':
      return new TemplateError(s.message, ...where);
    case 'GoPanic':
      return new GoPanic(s.message);
    default:
      return new Error(s.message);
  }
}
