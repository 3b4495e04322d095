// Shared by the hardening suites: what "nothing reachable, nothing changed" means, checked from outside.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GO_TYPE, GoFunc, GoNil, GoNum, GoStruct } from '../../src/go/reflect/value.js';
import type { BatchCase, BatchResult } from '../../src/batch.js';

export const here = (rel: string): string => fileURLToPath(new URL(rel, import.meta.url));

export function jsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** The Go-checked hostile cases (test/vectors/hardening) with Go's results, in order. */
export function goCases(topic: string): { c: BatchCase; want: BatchResult }[] {
  const cases = jsonl<BatchCase>(here(`../vectors/hardening/${topic}.jsonl`));
  const want = jsonl<BatchResult>(here(`../vectors/hardening/${topic}.expected.jsonl`));
  if (cases.length !== want.length) throw new Error(`${topic}: run \`npm run vectors\``);
  return cases.map((c, i) => ({ c, want: want[i]! }));
}

/**
 * A canonical text of a value's whole reachable state: prototypes (by identity class), own keys
 * (including "__proto__" and symbols), property descriptors' values. Two snapshots are equal only when
 * nothing reachable changed.
 */
export function snapshot(v: unknown): string {
  const seen = new Map<object, number>();
  const walk = (x: unknown): string => {
    switch (typeof x) {
      case 'bigint':
        return `${x}n`;
      case 'string':
        return JSON.stringify(x);
      case 'number':
        return Object.is(x, -0) ? '-0' : String(x);
      case 'undefined':
        return 'undefined';
      case 'boolean':
        return String(x);
      case 'symbol':
        return x.toString();
      case 'function':
        return `fn:${x.name}`;
    }
    if (x === null) return 'null';
    const o = x as object;
    const id = seen.get(o);
    if (id !== undefined) return `#${id}`;
    seen.set(o, seen.size);
    const proto = Object.getPrototypeOf(o);
    const tag = proto === null ? 'null' : proto === Object.prototype ? 'Object' : proto === Array.prototype ? 'Array' : (proto.constructor?.name ?? '?');
    if (o instanceof GoNum) return `GoNum(${o.type.name},${walk(o.v)})`;
    if (o instanceof GoNil) return `GoNil(${o.type.name})`;
    if (o instanceof GoFunc) return `GoFunc(${o.name})`;
    const parts: string[] = [];
    for (const k of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, k)!;
      const key = typeof k === 'symbol' ? k.toString() : JSON.stringify(k);
      if (k === GO_TYPE) {
        parts.push(`${key}:${(d.value as { name?: string })?.name}`);
        continue;
      }
      parts.push(`${key}${d.enumerable ? '' : '(hidden)'}:${'value' in d ? walk(d.value) : 'accessor'}`);
    }
    if (o instanceof GoStruct) parts.push(`type:${o.type.name}`);
    return `${tag}{${parts.join(',')}}`;
  };
  return walk(v);
}

/** Names of the built-in prototypes a template must never read or write. */
export const PROTOTYPES: Array<[string, object]> = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Boolean.prototype', Boolean.prototype],
  ['BigInt.prototype', BigInt.prototype],
  ['Symbol.prototype', Symbol.prototype],
  ['Error.prototype', Error.prototype],
  ['Map.prototype', Map.prototype],
  ['Set.prototype', Set.prototype],
];

/** The own keys of every built-in prototype, to compare before and after (pollution adds or replaces keys). */
export function prototypeState(): string {
  return PROTOTYPES.map(([n, p]) => {
    const keys = Reflect.ownKeys(p).map((k) => {
      const d = Object.getOwnPropertyDescriptor(p, k)!;
      const val = 'value' in d ? (typeof d.value === 'function' ? `fn:${d.value.name}` : typeof d.value) : 'accessor';
      return `${String(k)}=${val}`;
    });
    return `${n}: ${keys.sort().join(' ')}`;
  }).join('\n');
}

/**
 * Install getters named `name` on every built-in prototype; reads are counted. A template that
 * reaches a prototype through any lookup path trips them (the path does not depend on the key).
 */
export function installCanary(name: string): { reads: string[]; remove: () => void } {
  const reads: string[] = [];
  for (const [n, p] of PROTOTYPES) {
    Object.defineProperty(p, name, {
      configurable: true,
      enumerable: false,
      get() {
        reads.push(n);
        return () => 'CANARY';
      },
      set() {
        reads.push(n + ' (write)');
      },
    });
  }
  return {
    reads,
    remove: () => {
      for (const [, p] of PROTOTYPES) delete (p as Record<string, unknown>)[name];
    },
  };
}

/** Text that only JavaScript internals print: a template output containing it leaked one. */
export const JS_LEAK = /\[native code\]|\[object [A-Z]\w*\]|\bfunction\s*[\w$]*\s*\(|CANARY/;

/** Plain JavaScript data (Object.prototype maps) as a library user passes it; integral numbers as int when dataInt. */
export function plainData(v: unknown, dataInt = false): unknown {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map((x) => plainData(x, dataInt));
  if (typeof v === 'number' && dataInt && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v)) Object.defineProperty(o, k, { value: plainData((v as Record<string, unknown>)[k], dataInt), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
}
