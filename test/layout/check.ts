// The layout rules of docs/architecture.md as functions over a source tree held in memory (path under
// src/ → text), so that layout.test.ts can run them on src/ and on small planted trees alike:
//
//   (a) no import cycle among src/ files, nor among top-level src/ entries (value imports only)
//   (b) a file imports only its own top-level folder or lower layers (type-only imports included)
//   (c) a twin folder's file opens with `Mirrors:` + `Proven by:`, or with `Upstream: none (...)`
//
// Each check returns failure messages naming the file(s) and the rule; none means the tree passes.

import { posix } from 'node:path';

// ---------- the layer table ----------

export interface LayerEntry {
  /** A top-level entry of src/: a folder ('go/') or a file ('batch.ts'). */
  entry: string;
  layer: number;
  what: string;
}

/** The rows of the markdown table whose header is `| folder | layer | what it holds |`. */
export function parseLayerTable(markdown: string): LayerEntry[] {
  const lines = markdown.split('\n');
  const cells = (l: string) => l.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
  const start = lines.findIndex((l) => /^\s*\|/.test(l) && cells(l).map((c) => c.toLowerCase()).join('|') === 'folder|layer|what it holds');
  if (start < 0) throw new Error('no table with the header | folder | layer | what it holds |');
  const out: LayerEntry[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!/^\s*\|/.test(line)) break;
    const [first = '', layer = '', what = ''] = cells(line);
    const entry = /^`([^`]+)`$/.exec(first)?.[1];
    if (!entry || !/^(\S+\/|\S+\.ts)$/.test(entry)) throw new Error(`layer table: "${first}" is not a \`folder/\` or a \`file.ts\``);
    if (!/^\d+$/.test(layer)) throw new Error(`layer table: ${entry} has no whole-number layer ("${layer}")`);
    if (out.some((e) => e.entry === entry)) throw new Error(`layer table: ${entry} is listed twice`);
    out.push({ entry, layer: Number(layer), what });
  }
  if (out.length === 0) throw new Error('the layer table has no rows');
  return out;
}

// ---------- imports ----------

export interface ImportRef {
  spec: string;
  line: number;
  /** `import type`, `export type`, braces whose every name is `type`, or `typeof import(...)`. */
  typeOnly: boolean;
  dynamic: boolean;
}

interface Tok {
  k: 'id' | 'str' | 'punc' | 'other';
  v: string;
  line: number;
}

const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'instanceof', 'yield', 'await']);

/**
 * The tokens that matter for finding imports: words, string literals and punctuation. Comments,
 * template literals (their `${}` parts are read as code) and regular-expression literals are read
 * over, so text inside them is never taken for an import.
 */
function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  const braces: ('code' | 'template')[] = [];
  let line = 1;
  let i = 0;
  const n = src.length;
  const push = (k: Tok['k'], v: string, at: number) => out.push({ k, v, line: at });
  const regexMayStart = () => {
    const p = out[out.length - 1];
    if (!p) return true;
    if (p.k === 'punc') return !(p.v === ')' || p.v === ']');
    if (p.k === 'id') return REGEX_AFTER_WORD.has(p.v);
    return false;
  };
  // Reads a template literal from just after its opening backtick (or a `}` closing a `${`).
  const template = (): void => {
    while (i < n) {
      const c = src[i]!;
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === '\n') line++;
      if (c === '`') {
        i++;
        push('other', 'template', line);
        return;
      }
      if (c === '$' && src[i + 1] === '{') {
        i += 2;
        braces.push('template');
        return;
      }
      i++;
    }
  };
  while (i < n) {
    const c = src[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let j = i; j < stop; j++) if (src[j] === '\n') line++;
      i = stop;
    } else if (c === "'" || c === '"') {
      const at = line;
      let v = '';
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') {
        if (src[i] === '\\') {
          v += src[i + 1] ?? '';
          i += 2;
        } else v += src[i++];
      }
      i++;
      push('str', v, at);
    } else if (c === '`') {
      i++;
      template();
    } else if (c === '/' && regexMayStart()) {
      i++;
      let inClass = false;
      while (i < n && src[i] !== '\n') {
        const d = src[i]!;
        if (d === '\\') i++;
        else if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
        i++;
      }
      i++;
      while (i < n && /[a-z]/.test(src[i]!)) i++;
      push('other', 'regex', line);
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][\w$]*/.exec(src.slice(i, i + 256))!;
      push('id', m[0], line);
      i += m[0].length;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9][\w.]*/.exec(src.slice(i, i + 256))!;
      push('other', m[0], line);
      i += m[0].length;
    } else if (c === '{') {
      braces.push('code');
      push('punc', c, line);
      i++;
    } else if (c === '}') {
      i++;
      if (braces.pop() === 'template') template();
      else push('punc', c, line);
    } else {
      push('punc', c, line);
      i++;
    }
  }
  return out;
}

/** Every `import ... from '...'`, `import '...'`, `export ... from '...'` and `import('...')` of a source text. */
export function scanImports(src: string): ImportRef[] {
  const t = tokenize(src);
  const out: ImportRef[] = [];
  const is = (j: number, k: Tok['k'], v?: string) => t[j]?.k === k && (v === undefined || t[j]!.v === v);
  // The names inside braces starting at j ('{'): the index after '}', and whether every name is `type`.
  const braceNames = (j: number): { end: number; allType: boolean } => {
    let allType = true;
    let atName = true;
    let names = 0;
    let k = j + 1;
    for (; k < t.length && !is(k, 'punc', '}'); k++) {
      if (is(k, 'punc', ',')) {
        atName = true;
        continue;
      }
      if (atName) {
        names++;
        if (!(is(k, 'id', 'type') && !is(k + 1, 'punc', ',') && !is(k + 1, 'punc', '}') && !is(k + 1, 'id', 'as'))) allType = false;
        atName = false;
      }
    }
    return { end: k + 1, allType: allType && names > 0 };
  };
  for (let i = 0; i < t.length; i++) {
    if (is(i - 1, 'punc', '.')) continue;
    if (is(i, 'id', 'import')) {
      if (is(i + 1, 'punc', '(')) {
        if (is(i + 2, 'str') && is(i + 3, 'punc', ')')) out.push({ spec: t[i + 2]!.v, line: t[i]!.line, typeOnly: is(i - 1, 'id', 'typeof'), dynamic: true });
        continue;
      }
      if (is(i + 1, 'punc', '.')) continue; // import.meta
      let typeOnly = false;
      if (is(i + 1, 'id', 'type') && !is(i + 2, 'punc', ',') && !is(i + 2, 'id', 'from') && !is(i + 2, 'punc', '=')) typeOnly = true;
      else if (is(i + 1, 'punc', '{')) typeOnly = braceNames(i + 1).allType;
      let j = i + 1;
      while (j < t.length && !is(j, 'str') && !is(j, 'punc', ';')) j++;
      if (is(j, 'str')) out.push({ spec: t[j]!.v, line: t[i]!.line, typeOnly, dynamic: false });
      i = j;
    } else if (is(i, 'id', 'export')) {
      let j = i + 1;
      let typeOnly = false;
      if (is(j, 'id', 'type') && (is(j + 1, 'punc', '{') || is(j + 1, 'punc', '*'))) {
        typeOnly = true;
        j++;
      }
      if (is(j, 'punc', '*')) {
        j++;
        if (is(j, 'id', 'as')) j += 2;
      } else if (is(j, 'punc', '{')) {
        const b = braceNames(j);
        typeOnly ||= b.allType;
        j = b.end;
      } else continue;
      if (is(j, 'id', 'from') && is(j + 1, 'str')) out.push({ spec: t[j + 1]!.v, line: t[i]!.line, typeOnly, dynamic: false });
    }
  }
  return out;
}

// ---------- the import graph ----------

/** A source tree: paths under src/ ('go/fmt/print.ts') → text. */
export type Tree = ReadonlyMap<string, string>;

export interface Edge {
  from: string;
  to: string;
  line: number;
  typeOnly: boolean;
}

/** The top-level entry a path under src/ belongs to: 'go/' for 'go/fmt/print.ts', 'batch.ts' for itself. */
export function topEntry(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? path : path.slice(0, slash + 1);
}

/** Relative imports resolved to files of the tree (a `.js` specifier names the `.ts` file); the rest are failures. */
export function importGraph(tree: Tree): { edges: Edge[]; failures: string[] } {
  const edges: Edge[] = [];
  const failures: string[] = [];
  for (const [from, text] of tree) {
    for (const ref of scanImports(text)) {
      if (!ref.spec.startsWith('./') && !ref.spec.startsWith('../')) continue;
      const joined = posix.normalize(posix.join(posix.dirname(from), ref.spec));
      const candidates = [joined.replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts'), joined, `${joined}.ts`, `${joined}/index.ts`];
      const to = candidates.find((c) => tree.has(c));
      if (joined.startsWith('../')) failures.push(`src/${from}:${ref.line} imports '${ref.spec}', outside src/ (a source file imports source files only)`);
      else if (!to) failures.push(`src/${from}:${ref.line} imports '${ref.spec}', which names no file under src/`);
      else edges.push({ from, to, line: ref.line, typeOnly: ref.typeOnly });
    }
  }
  return { edges, failures };
}

/** Strongly connected components of more than one node (or a node that reaches itself), each as one cycle path. */
function cycles(nodes: string[], next: (n: string) => string[]): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const comps: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || next(v).includes(v)) comps.push(comp);
    }
  };
  for (const v of [...nodes].sort()) if (!idx.has(v)) visit(v);
  // One concrete cycle through each component, from its first node in sorted order.
  return comps.map((comp) => {
    const inComp = new Set(comp);
    const start = [...comp].sort()[0]!;
    const prev = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const v = queue.shift()!;
      for (const w of next(v).filter((x) => inComp.has(x)).sort()) {
        if (w === start) {
          const path = [v];
          while (path[0] !== start) path.unshift(prev.get(path[0]!)!);
          return [...path, start];
        }
        if (!prev.has(w)) {
          prev.set(w, v);
          queue.push(w);
        }
      }
    }
    return [...comp, comp[0]!];
  });
}

// ---------- the rules ----------

/** (a) Import cycles among files and among top-level entries, over value imports. */
export function checkCycles(edges: Edge[]): string[] {
  const value = edges.filter((e) => !e.typeOnly);
  const fileNext = new Map<string, string[]>();
  const entryNext = new Map<string, string[]>();
  for (const e of value) {
    fileNext.set(e.from, [...(fileNext.get(e.from) ?? []), e.to]);
    const a = topEntry(e.from);
    const b = topEntry(e.to);
    if (a !== b) entryNext.set(a, [...new Set([...(entryNext.get(a) ?? []), b])]);
  }
  const failures: string[] = [];
  for (const c of cycles([...fileNext.keys()], (n) => fileNext.get(n) ?? [])) {
    failures.push(`import cycle among files (rule a): ${c.map((f) => `src/${f}`).join(' → ')}`);
  }
  for (const c of cycles([...entryNext.keys()], (n) => entryNext.get(n) ?? [])) {
    const witness = c.slice(1).map((to, k) => {
      const e = value.find((x) => topEntry(x.from) === c[k] && topEntry(x.to) === to)!;
      return `src/${e.from}:${e.line} → src/${e.to}`;
    });
    failures.push(`import cycle among top-level folders (rule a): ${c.map((f) => `src/${f}`).join(' → ')} (${witness.join('; ')})`);
  }
  return failures;
}

/** (b) Imports go to the file's own top-level folder or to a lower layer; every top-level entry has a layer. */
export function checkLayers(tree: Tree, edges: Edge[], table: LayerEntry[]): string[] {
  const layer = new Map(table.map((e) => [e.entry, e.layer]));
  const failures: string[] = [];
  for (const entry of [...new Set([...tree.keys()].map(topEntry))].sort()) {
    if (!layer.has(entry)) failures.push(`src/${entry} is not in the layer table of docs/architecture.md (rule b: every top-level folder and file has a layer)`);
  }
  for (const e of edges) {
    const a = topEntry(e.from);
    const b = topEntry(e.to);
    if (a === b) continue;
    const la = layer.get(a);
    const lb = layer.get(b);
    if (la === undefined || lb === undefined) continue;
    const what = `src/${e.from}:${e.line} (src/${a}, layer ${la}) imports${e.typeOnly ? ' (type only)' : ''} src/${e.to} (src/${b}, layer ${lb})`;
    if (lb > la) failures.push(`upward import (rule b: a file imports only its own folder or lower layers): ${what}`);
    else if (lb === la) failures.push(`same-layer import (rule b: sibling folders of one layer do not import each other): ${what}`);
  }
  return failures;
}

/** The folders whose files are twins of upstream code, or say that they are not. */
export const TWIN_FOLDERS = ['go/', 'yaml/', 'k8s/', 'sprig/', 'helm/', 'istio/'];

/** `upstream [version] path...` with a Go file named: 'go1.19 src/time/time.go', 'gopkg.in/yaml.v2 encode.go'. */
const MIRROR_PART = /^(go\d+\.\d+|[a-z0-9-]+(\.[a-z0-9-]+)+(\/[A-Za-z0-9._~-]+)*)( v?\d+(\.\d+)*)? [\w./{},-]*\.go\b/;

export interface Header {
  mirrors?: string;
  provenBy?: string;
  upstreamNone?: string;
}

/** The `Mirrors:`, `Proven by:` and `Upstream: none` lines of a file's opening comment (indented lines continue them). */
export function readHeader(text: string): Header {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  const h: Header = {};
  let last: keyof Header | undefined;
  for (; i < lines.length && lines[i]!.startsWith('//'); i++) {
    const body = lines[i]!.replace(/^\/\/ ?/, '');
    const m = /^(Mirrors|Proven by|Upstream):\s*(.*)$/.exec(body);
    if (m) {
      last = m[1] === 'Mirrors' ? 'mirrors' : m[1] === 'Proven by' ? 'provenBy' : 'upstreamNone';
      h[last] = m[2]!.trim();
    } else if (last && /^\s{2,}\S/.test(body)) h[last] += ' ' + body.trim();
    else last = undefined;
  }
  return h;
}

/** `value` split at `sep` outside parentheses (and braces: `{encode,decode}.go`). */
function splitOutside(value: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of value) {
    if (c === '(' || c === '{') depth++;
    else if ((c === ')' || c === '}') && depth > 0) depth--;
    if (c === sep && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  return [...parts, cur];
}

/** The paths a `Proven by:` value names: comma-separated, each optionally followed by a note in parentheses. */
export function provenPaths(value: string): string[] {
  return splitOutside(value, ',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => s.split(/\s+/)[0]!);
}

/**
 * (c) Every file of a twin folder opens with a well-formed `Mirrors:` and a `Proven by:` whose paths
 * exist (repository-relative, under test/), or with `Upstream: none (what it is for)`. Files in
 * `exceptions` (path under src/ → why) are skipped until they have a header, and then reported.
 */
export function checkHeaders(tree: Tree, exists: (repoPath: string) => boolean, exceptions: ReadonlyMap<string, string> = new Map()): string[] {
  const failures: string[] = [];
  for (const [path, text] of [...tree].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!TWIN_FOLDERS.includes(topEntry(path))) continue;
    const h = readHeader(text);
    const file = `src/${path}`;
    const has = h.mirrors !== undefined || h.provenBy !== undefined || h.upstreamNone !== undefined;
    if (exceptions.has(path)) {
      if (has) failures.push(`${file} now has its header: take it off the known exceptions in test/layout/layout.test.ts (rule c)`);
      continue;
    }
    const rule = '(rule c: a twin opens with Mirrors: + Proven by:, anything else with Upstream: none (...))';
    if (h.upstreamNone !== undefined) {
      if (!/^none \(\S.*\)$/.test(h.upstreamNone)) failures.push(`${file}: "Upstream: ${h.upstreamNone}" is not "Upstream: none (what it is for)" ${rule}`);
      if (h.mirrors !== undefined || h.provenBy !== undefined) failures.push(`${file} has both Upstream: none and Mirrors:/Proven by: ${rule}`);
      continue;
    }
    if (!has) {
      failures.push(`${file} opens with neither Mirrors: + Proven by: nor Upstream: none (...) ${rule}`);
      continue;
    }
    if (h.mirrors === undefined) failures.push(`${file} has Proven by: but no Mirrors: ${rule}`);
    else {
      for (const part of splitOutside(h.mirrors, ';').map((s) => s.trim())) {
        if (!MIRROR_PART.test(part)) failures.push(`${file}: Mirrors: "${part}" does not name an upstream and a Go file of it ('go1.19 src/text/template/exec.go', 'gopkg.in/yaml.v2 encode.go') ${rule}`);
      }
    }
    if (h.provenBy === undefined) failures.push(`${file} has Mirrors: but no Proven by: ${rule}`);
    else {
      const paths = provenPaths(h.provenBy);
      if (paths.length === 0) failures.push(`${file}: Proven by: names no path ${rule}`);
      for (const p of paths) {
        if (!/^test\/[^\s]*$/.test(p) || p.includes('..')) failures.push(`${file}: Proven by: "${p}" is not a path under test/ ${rule}`);
        else if (!exists(p)) failures.push(`${file}: Proven by: ${p} does not exist ${rule}`);
      }
    }
  }
  for (const path of exceptions.keys()) if (!tree.has(path)) failures.push(`src/${path} is a known exception of rule c but no such file exists`);
  return failures;
}

/** All three rules over a tree. */
export function checkTree(tree: Tree, table: LayerEntry[], exists: (repoPath: string) => boolean, exceptions?: ReadonlyMap<string, string>): string[] {
  const { edges, failures } = importGraph(tree);
  return [...failures, ...checkCycles(edges), ...checkLayers(tree, edges, table), ...checkHeaders(tree, exists, exceptions)];
}
