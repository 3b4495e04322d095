// Helm's fromYaml/fromYamlArray/fromJson/fromJsonArray. fromYaml is sigs.k8s.io/yaml.Unmarshal:
// gopkg.in/yaml.v2 decodes the first document into interface{} (YAML 1.1 resolution: yes/on are
// bools, 0x1F and 017 are ints, timestamps stay strings, `<<` merges), map keys become strings,
// the result goes through encoding/json, so every number ends up a float64.
//
// The YAML syntax is read by the `yaml` package; resolution, aliases, merges and the conversion are
// yaml.v2's. Syntax error texts are mapped onto yaml.v2's wording for the common cases only.
//
// Mirrors: gopkg.in/yaml.v2 {yaml,decode}.go; sigs.k8s.io/yaml yaml.go (Unmarshal, yamlToJSON);
//          helm.sh/helm/v3 v3.17 pkg/engine/funcs.go (fromYaml, fromYamlArray, fromJson, fromJsonArray)
// Proven by: test/vectors/yaml/, test/yaml/v2-inputs/, test/vectors/regress/yaml-decode.jsonl,
//            test/vectors/regress/yaml-errors.jsonl

import type { Document, Node as YamlNode } from 'yaml';
import { GO_YAML_MAX_DEPTH, YamlTooDeep, fastReaderDepthBound, isAlias, isScalar, isSeq, isYamlMap, parseAllDocumentsBounded } from './yamllib.js';
import { fastParse } from './fastload.js';
import { GoNil, SLICE_IFACE, compareKeys as compareStrings, newMap, withType, type GoMap, type GoValue } from '../go/reflect/value.js';
import { goJsonUnmarshalInto, kindName } from '../go/encoding/json/json.js';
import { GoYamlError } from './emit.js';
import { indentFlowContinuations } from './flowindent.js';
import { resolvePlain, type ResolvedTag } from './resolve.js';
import { formatFloat } from '../go/strconv/ftoa.js';
import { goBytes } from '../go/strconv/strconv.js';
import { isStackOverflow } from '../guard/stack.js';

const TAG_PREFIX = 'tag:yaml.org,2002:';
const shortTag = (t: string): string => (t.startsWith(TAG_PREFIX) ? '!!' + t.slice(TAG_PREFIX.length) : t);

/** A value as yaml.v2 decodes it into interface{}. Ints are {int} (int64 or uint64 range). */
export type V2Value = null | boolean | string | number | { int: bigint } | V2Value[] | V2Map;

/** map[interface {}]interface {}: keys compared as Go compares interface values. */
export class V2Map {
  readonly entries = new Map<string, [V2Value, V2Value]>();
  set(k: V2Value, v: V2Value): void {
    this.entries.set(keyId(k), [k, v]);
  }
}

function keyId(k: V2Value): string {
  if (k === null) return 'nil';
  switch (typeof k) {
    case 'string':
      return 's:' + k;
    case 'boolean':
      return 'b:' + k;
    case 'number':
      return 'f:' + (Object.is(k, -0) ? '0' : String(k));
  }
  if (!Array.isArray(k) && !(k instanceof V2Map)) return 'i:' + k.int;
  return 'x:' + Math.random();
}

/** A decoding failure (Go's text without the "yaml: " prefix handling) and the node it concerns. */
export class Fail extends Error {
  node?: YamlNode;
  /** For a key set twice: where it was set first. */
  first?: YamlNode;
}

/**
 * The text as yaml.v2's reader and scanner see it, or the error they stop with (and its offset).
 * A lone CR and NEL are line breaks there as LF is (each is replaced by one LF, so offsets stay); a
 * %YAML directive other than 1.1 is "incompatible". LS and PS are left to lsAsBreaks.
 */
export function v2Text(text: string): { text: string } | { error: string; offset: number } {
  if (/[\r\u0085]/.test(text)) text = text.replace(/\r(?!\n)|\u0085/g, '\n');
  if (!text.includes('%YAML')) return { text };
  // the directives of one document end at its `---`
  let seen = false;
  for (const m of text.matchAll(/^(?:%YAML[ \t]+([0-9]+)\.([0-9]+)|---)/gm)) {
    if (m[0] === '---') {
      seen = false;
      continue;
    }
    if (seen) return { error: 'found duplicate %YAML directive', offset: m.index };
    if (m[1] !== '1' || m[2] !== '1') return { error: 'found incompatible YAML document', offset: m.index };
    seen = true;
  }
  return { text };
}

/** Two characters the text does not hold, standing for LS and PS where lsAsBreaks made them breaks. */
export interface BreakMarks {
  ls: string;
  ps: string;
}

/**
 * yaml.v2 breaks lines at LS and PS too (`a: 1<LS>b: 2` is two keys, a comment ends there), but a
 * scalar keeps the character where it folds a line at one ("p<LS>  q" is "p<LS>q", where an LF would
 * fold to a space); the `yaml` package sees no break at all. So each LS or PS becomes a mark and an
 * LF, the marks two private-use characters the text does not hold, and restoreBreaks turns a scalar's
 * marks back into the characters. Undefined when there are none.
 */
export function lsAsBreaks(text: string): { text: string; marks: BreakMarks } | undefined {
  if (!/[\u2028\u2029]/.test(text)) return undefined;
  const free: string[] = [];
  for (let c = 0xf8ff; c >= 0xe000 && free.length < 2; c--) {
    const ch = String.fromCharCode(c);
    if (!text.includes(ch)) free.push(ch);
  }
  const marks = { ls: free[0]!, ps: free[1]! };
  // a mark only ends a scalar's text: after a space, an indicator or a quote there is none, and a mark
  // would become one ("b:<PS>" is a key and its value, "b:<mark>" a scalar)
  const made = text.replace(/([^\s:?|>"',[\]{}-]?)([\u2028\u2029])/g, (_m, before: string, c: string) => before + (before ? (c === '\u2028' ? marks.ls : marks.ps) : '') + '\n');
  return { text: made, marks };
}

/** A scalar's text with lsAsBreaks' marks made LS and PS again. In a literal block scalar the LF after
 *  a mark is the break the character was; elsewhere the space a single break folded to is (more breaks
 *  fold to LFs, which yaml.v2 keeps after the character). A mark that ends the scalar was a break
 *  after its text, and goes. */
export function restoreBreaks(text: string, marks: BreakMarks, literal: boolean): string {
  if (!text.includes(marks.ls) && !text.includes(marks.ps)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== marks.ls && c !== marks.ps) {
      out += c;
      continue;
    }
    if (i === text.length - 1) break;
    out += c === marks.ls ? '\u2028' : '\u2029';
    if (text[i + 1] === (literal ? '\n' : ' ')) i++;
  }
  return out;
}

/**
 * The escapes of a double-quoted scalar's source that yaml.v2 refuses and the `yaml` package takes:
 * `\/` (YAML 1.2 only) and code points that are surrogates or beyond U+10FFFF.
 */
function badEscape(src: string): string | undefined {
  for (let i = src.indexOf('\\'); i >= 0 && i < src.length; i = src.indexOf('\\', i)) {
    const e = src[i + 1];
    if (e === '/') return 'found unknown escape character';
    if (e === 'u' || e === 'U') {
      const n = e === 'u' ? 4 : 8;
      const code = parseInt(src.slice(i + 2, i + 2 + n), 16);
      if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return 'found invalid Unicode character escape code';
      i += 2 + n;
    } else i += 2;
  }
  return undefined;
}

/** Limits beyond yaml.v2's own alias-ratio check, so hostile input fails cleanly. */
export interface DecodeLimits {
  /** Values decoded in total, aliases expanded (default 10,000,000). */
  maxNodes?: number;
  /** The text's LS and PS were made marks and breaks (lsAsBreaks): scalars get them back. */
  marks?: BreakMarks;
  /** Nesting of collections (default 10,000, as encoding/json). */
  maxDepth?: number;
  /** A key written twice in one mapping is an error, as yaml.v2's UnmarshalStrict (kubectl) has it;
   *  a key a merge brought in may still be overridden. */
  uniqueKeys?: boolean;
}

function fail(msg: string): never {
  throw new Fail('yaml: ' + msg);
}

// ---------- %#v of decoded values, for yaml.v2's and sigs.k8s.io/yaml's error texts ----------

function sharpV(v: V2Value, nested = false): string {
  // fmt's %#v: a nil inside a container is a typed nil, a uint64 is hex.
  if (v === null) return nested ? 'interface {}(nil)' : '<nil>';
  switch (typeof v) {
    case 'string':
      return goQuoteString(v);
    case 'boolean':
      return String(v);
    case 'number':
      return formatFloat(v, 'g', 64);
  }
  if (Array.isArray(v)) return '[]interface {}{' + v.map((x) => sharpV(x, true)).join(', ') + '}';
  if (v instanceof V2Map) {
    const entries = [...v.entries.values()].sort((a, b) => compareKeys(a[0], b[0]));
    return 'map[interface {}]interface {}{' + entries.map(([k, x]) => sharpV(k, true) + ':' + sharpV(x, true)).join(', ') + '}';
  }
  return v.int > (1n << 63n) - 1n ? '0x' + v.int.toString(16) : String(v.int);
}

/** fmt's map-key order for interface keys: nil first, then by dynamic type (the linker lays out
 *  bool, float64, int, string, uint64 in name order), then by value; strings by bytes. */
function compareKeys(a: V2Value, b: V2Value): number {
  const ra = keyRank(a);
  const rb = keyRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'boolean') return Number(a) - Number(b as boolean);
  if (typeof a === 'number') return a < (b as number) ? -1 : a > (b as number) ? 1 : 0;
  if (typeof a === 'string') return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b as string, 'utf8'));
  if (a !== null && typeof a === 'object' && 'int' in a) {
    const x = a.int;
    const y = (b as { int: bigint }).int;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return 0;
}

function keyRank(v: V2Value): number {
  if (v === null) return 0;
  switch (typeof v) {
    case 'boolean':
      return 1;
    case 'number':
      return 2;
    case 'string':
      return 4;
  }
  if (!Array.isArray(v) && !(v instanceof V2Map)) return v.int > (1n << 63n) - 1n ? 5 : 3;
  return 6;
}

function goTypeName(v: V2Value): string {
  if (v === null) return '%!s(<nil>)';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return 'float64';
  }
  if (Array.isArray(v)) return '[]interface {}';
  if (v instanceof V2Map) return 'map[interface {}]interface {}';
  return v.int > (1n << 63n) - 1n ? 'uint64' : 'int';
}

// ---------- yaml.v2's decoder over the parsed document ----------

const ALIAS_RANGE_LOW = 400000;
const ALIAS_RANGE_HIGH = 4000000;

function allowedAliasRatio(n: number): number {
  if (n <= ALIAS_RANGE_LOW) return 0.99;
  if (n >= ALIAS_RANGE_HIGH) return 0.1;
  return 0.99 - 0.89 * ((n - ALIAS_RANGE_LOW) / (ALIAS_RANGE_HIGH - ALIAS_RANGE_LOW));
}

class Decoder {
  private decodeCount = 0;
  private aliasCount = 0;
  private aliasDepth = 0;
  private readonly activeAliases = new Set<YamlNode>();
  /** anchor name → node, in document order as yaml.v2's parser records them */
  private readonly anchorsAt = new Map<YamlNode, YamlNode>();

  private depth = 0;
  private readonly maxNodes: number;
  private readonly maxDepth: number;
  private readonly uniqueKeys: boolean;
  private readonly marks: BreakMarks | undefined;

  constructor(
    root: YamlNode | null,
    private readonly text: string,
    limits: DecodeLimits = {},
  ) {
    this.maxNodes = limits.maxNodes ?? 10_000_000;
    this.maxDepth = limits.maxDepth ?? 10_000;
    this.uniqueKeys = limits.uniqueKeys ?? false;
    this.marks = limits.marks;
    const anchors = new Map<string, YamlNode>();
    const walk = (n: unknown): void => {
      if (!n || typeof n !== 'object') return;
      const node = n as YamlNode & { anchor?: string };
      if (isAlias(node)) {
        const target = anchors.get(node.source);
        if (!target) {
          const f = new Fail(`yaml: unknown anchor '${node.source}' referenced`);
          f.node = node;
          throw f;
        }
        this.anchorsAt.set(node, target);
        return;
      }
      // The anchor is known before the node's children are read (so a node may alias itself).
      if (node.anchor) anchors.set(node.anchor, node);
      if (isYamlMap(node)) {
        for (const p of node.items) {
          walk(p.key);
          walk(p.value);
        }
      } else if (isSeq(node)) for (const it of node.items) walk(it);
    };
    walk(root);
  }

  private count(): void {
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    if (this.aliasCount > 100 && this.decodeCount > 1000 && this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)) {
      fail('document contains excessive aliasing');
    }
    if (this.decodeCount > this.maxNodes) fail(`document expands to more than ${this.maxNodes} values`);
  }

  private target(n: YamlNode): YamlNode {
    return isAlias(n) ? this.anchorsAt.get(n)! : n;
  }

  decode(n: YamlNode | null): V2Value {
    this.count();
    if (n === null) return null;
    if (++this.depth > this.maxDepth) fail(`document nests deeper than ${this.maxDepth} levels`);
    try {
      return this.decodeNode(n);
    } catch (e) {
      if (e instanceof Fail && !e.node) e.node = n;
      throw e;
    } finally {
      this.depth--;
    }
  }

  private decodeNode(n: YamlNode): V2Value {
    if (isAlias(n)) {
      if (this.activeAliases.has(n)) fail(`anchor '${n.source}' value contains itself`);
      this.activeAliases.add(n);
      this.aliasDepth++;
      try {
        return this.decode(this.anchorsAt.get(n)!);
      } finally {
        this.aliasDepth--;
        this.activeAliases.delete(n);
      }
    }
    if (isScalar(n)) return this.scalar(n);
    if (isSeq(n)) return n.items.map((it) => this.decode(it as YamlNode | null));
    if (isYamlMap(n)) {
      const m = new V2Map();
      this.mappingInto(n, m);
      return m;
    }
    return null;
  }

  private mappingInto(n: YamlNode, out: V2Map): void {
    if (!isYamlMap(n)) return;
    const written = this.uniqueKeys ? new Map<string, YamlNode>() : undefined;
    for (const p of n.items) {
      const k = p.key as YamlNode | null;
      if (k && isScalar(k) && k.source === '<<' && String(k.value) === '<<' && isMergeKey(k)) {
        this.merge(p.value as YamlNode | null, out);
        continue;
      }
      this.count();
      const key = k === null ? null : this.decodeKey(k);
      if (Array.isArray(key) || key instanceof V2Map) fail('invalid map key: ' + sharpV(key));
      if (written && k) {
        const first = written.get(keyId(key));
        if (first) {
          const f = new Fail(`yaml: key ${sharpV(key)} already set in map`);
          f.node = k;
          f.first = first;
          throw f;
        }
        written.set(keyId(key), k);
      }
      out.set(key, this.decode(p.value as YamlNode | null));
    }
  }

  private decodeKey(k: YamlNode): V2Value {
    this.decodeCount--;
    return this.decode(k);
  }

  private merge(n: YamlNode | null, out: V2Map): void {
    const wantMap = (): never => fail('map merge requires map or sequence of maps as the value');
    if (n === null) return wantMap();
    if (isYamlMap(n)) {
      this.count();
      this.mappingInto(n, out);
    } else if (isAlias(n)) {
      const t = this.target(n);
      if (!isYamlMap(t)) wantMap();
      this.count();
      this.count();
      this.aliasDepth++;
      try {
        this.mappingInto(t, out);
      } finally {
        this.aliasDepth--;
      }
    } else if (isSeq(n)) {
      // Earlier maps in the list take precedence, so they are merged last.
      const items = n.items as YamlNode[];
      for (let i = items.length - 1; i >= 0; i--) {
        const it = items[i]!;
        const t = this.target(it);
        if (!isYamlMap(t)) wantMap();
        this.count();
        if (isAlias(it)) {
          this.aliasDepth++;
          try {
            this.mappingInto(t, out);
          } finally {
            this.aliasDepth--;
          }
        } else this.mappingInto(t, out);
      }
    } else wantMap();
  }

  private scalar(n: YamlNode): V2Value {
    const s = n as YamlNode & { value: unknown; type?: string; tag?: string; source?: string; range?: [number, number, number] };
    let text = typeof s.value === 'string' ? s.value : (s.source ?? String(s.value ?? ''));
    if (this.marks) text = restoreBreaks(text, this.marks, s.type === 'BLOCK_LITERAL');
    if ((s.type === 'BLOCK_LITERAL' || s.type === 'BLOCK_FOLDED') && text.endsWith('\n') && this.endsWithoutBreak(s.range)) {
      // At the very end of a stream without a final line break, yaml.v2 has no break to keep.
      text = text.slice(0, -1);
    }
    if (s.type === 'QUOTE_DOUBLE' && s.range) {
      const bad = badEscape(this.text.slice(s.range[0], s.range[1]));
      if (bad) fail(bad);
    }
    const tag = s.tag && s.tag !== '!' ? s.tag : '';
    const plain = s.type === 'PLAIN' || s.type === undefined;
    if (tag === '') {
      if (!plain) return text;
      return fromResolved(resolvePlain(text));
    }
    return resolveTagged(tag, text);
  }

  private endsWithoutBreak(range: [number, number, number] | undefined): boolean {
    if (!range) return false;
    const rest = this.text.slice(range[1]);
    return rest.trim() === '' && !/[\n\r]$/.test(this.text);
  }
}

function isMergeKey(k: YamlNode): boolean {
  const s = k as YamlNode & { type?: string; tag?: string };
  return (s.type === 'PLAIN' && !s.tag) || s.tag === TAG_PREFIX + 'merge';
}

function fromResolved(r: { tag: ResolvedTag; value: unknown }): V2Value {
  switch (r.tag) {
    case 'int':
      return { int: r.value as bigint };
    case 'float':
      return r.value as number;
    case 'bool':
      return r.value as boolean;
    case 'null':
      return null;
    default:
      // strings, timestamps (kept as their text for interface{}) and a bare "<<"
      return String(r.value);
  }
}

const RESOLVABLE = new Set(['str', 'bool', 'int', 'float', 'null', 'timestamp'].map((t) => TAG_PREFIX + t));

/** resolve(tag, in) for an explicitly tagged scalar, with yaml.v2's "cannot decode" failure. */
function resolveTagged(tag: string, text: string): V2Value {
  if (tag === TAG_PREFIX + 'binary') {
    const clean = text.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 !== 0) fail('!!binary value contains invalid base64 data');
    return Buffer.from(clean, 'base64').toString('latin1');
  }
  if (!RESOLVABLE.has(tag)) return text;
  if (tag === TAG_PREFIX + 'str') return text;
  const want = tag.slice(TAG_PREFIX.length);
  const r = resolvePlain(text, want === 'timestamp');
  return checkTag(r.tag, want, text, r.value);
}

function checkTag(rtag: ResolvedTag, want: string, text: string, value: unknown): V2Value {
  const rname = rtag === 'merge' ? 'merge' : rtag;
  if (rname === want) return fromResolved({ tag: rtag, value });
  if (want === 'float' && rtag === 'int') return Number(value as bigint);
  if (rtag === 'str' && want === 'str') return text;
  fail(`cannot decode ${shortTag(TAG_PREFIX + rname)} \`${text}\` as a ${shortTag(TAG_PREFIX + want)}`);
}

// ---------- syntax errors in yaml.v2's words ----------

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

/** The 0-based line of an offset (yaml.v2's marks). */
function line0(text: string, offset: number): number {
  let line = 0;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

/** Where yaml.v2 puts the stream end: on the line after the last one unless the text ends with a break. */
function streamEndLine0(text: string): number {
  return line0(text, text.length) + (text === '' || text.endsWith('\n') ? 0 : 1);
}

// yaml.v2 reports scanner errors with a 1-based line, parser errors with the 0-based line of the
// token at fault, and no line at all when that number is 0.
const scannerError = (l0: number, msg: string): string => (l0 > 0 ? `yaml: line ${l0 + 1}: ${msg}` : `yaml: ${msg}`);
const parserError = (l0: number, msg: string): string => (l0 > 0 ? `yaml: line ${l0}: ${msg}` : `yaml: ${msg}`);

export function yamlV2SyntaxError(text: string, doc: Document.Parsed): string | undefined {
  const err = doc.errors[0];
  if (!err) {
    if (/^%YAML[ \t]+(?!1\.\d+\s)/m.test(text)) return 'yaml: found incompatible YAML document';
    return emptyKeyError(text, doc.contents as YamlNode | null);
  }
  const pos = err.pos[0];
  const msg = err.message;
  // '-' where a flow collection wants a node: yaml.v2's parser finds a block entry token there
  if (doc.errors.some((e) => e.code === 'BLOCK_IN_FLOW' && e.pos[0] === pos)) return parserError(line0(text, pos), 'did not find expected node content');
  // the scanner reads on to the end of the stream for the closing quote
  if (/Missing closing .?quote/.test(msg)) return scannerError(line0(text, text.length), 'found unexpected end of stream');
  if (err.code === 'BAD_SCALAR_START') return scannerError(line0(text, pos), 'found character that cannot start any token');
  if (err.code === 'TAB_AS_INDENT') {
    const l = line0(text, pos);
    return l === 0 ? 'yaml: found character that cannot start any token' : scannerError(l, 'found a tab character that violates indentation');
  }
  if (err.code === 'BLOCK_AS_IMPLICIT_KEY' && /Nested mappings/.test(msg)) {
    const rest = text.slice(pos);
    const m = /:(?=[ \t\r\n]|$)/.exec(rest);
    return scannerError(line0(text, pos + (m ? m.index : 0)), 'mapping values are not allowed in this context');
  }
  if (/Flow (map|sequence)/.test(msg)) {
    const isMapFlow = /map/.test(msg);
    const open = text.lastIndexOf(isMapFlow ? '{' : '[');
    const body = open >= 0 ? text.slice(open + 1) : '';
    if (body.trim() === '') return parserError(streamEndLine0(text), 'did not find expected node content');
    return parserError(streamEndLine0(text), `did not find expected ',' or '${isMapFlow ? '}' : ']'}'`);
  }
  if (err.code === 'MISSING_CHAR' && /Implicit map keys need to be followed/.test(msg)) {
    return scannerError(streamEndLine0(text), "could not find expected ':'");
  }
  if (err.code === 'UNEXPECTED_TOKEN' && /at node end/.test(msg)) {
    // text after a node: yaml.v2 wanted the next entry of the block collection that node is in
    const want = enclosingBlockKind(doc.contents as YamlNode | null, pos) === 'map' ? 'did not find expected key' : "did not find expected '-' indicator";
    return parserError(line0(text, err.pos[1] ?? pos), want);
  }
  return parserError(line0(text, pos), 'did not find expected key');
}

/** The kind of block collection holding the last node that ends before offset. */
function enclosingBlockKind(root: YamlNode | null, offset: number): 'map' | 'seq' | undefined {
  let best = -1;
  let kind: 'map' | 'seq' | undefined;
  const visit = (n: unknown, parent: 'map' | 'seq' | undefined): void => {
    if (!n || typeof n !== 'object') return;
    const node = n as YamlNode;
    const end = node.range?.[1];
    if (parent && end !== undefined && end <= offset && end >= best) {
      best = end;
      kind = parent;
    }
    const flow = (node as { flow?: boolean }).flow === true;
    if (isYamlMap(node)) {
      for (const p of node.items) {
        visit(p.key, flow ? parent : 'map');
        visit(p.value, flow ? parent : 'map');
      }
    } else if (isSeq(node)) for (const it of node.items) visit(it, flow ? parent : 'seq');
  };
  visit(root, undefined);
  return kind;
}

/** A block mapping entry with no key and no '?' (": x") is a parse error in yaml.v2. */
function emptyKeyError(text: string, root: YamlNode | null): string | undefined {
  let found: string | undefined;
  const walk = (n: unknown): void => {
    if (found || !n || typeof n !== 'object') return;
    if (isYamlMap(n)) {
      const flow = (n as { flow?: boolean }).flow;
      for (const p of n.items) {
        const k = p.key as { range?: number[]; source?: string; tag?: string } | null;
        const emptyKey = k === null || (isScalar(k) && k.source === '' && !k.tag && k.range?.[0] === k.range?.[1]);
        if (emptyKey && !flow) {
          const start = (p.value as { range?: number[] } | null)?.range?.[0] ?? 0;
          const colon = text.lastIndexOf(':', start);
          const lineStart = text.lastIndexOf('\n', colon) + 1;
          if (!/^\s*\?/.test(text.slice(lineStart, colon))) found = parserError(line0(text, colon), 'did not find expected key');
        }
        walk(p.key);
        walk(p.value);
      }
    } else if (isSeq(n)) for (const it of n.items) walk(it);
  };
  walk(root);
  return found;
}

// ---------- sigs.k8s.io/yaml: YAML → JSON-able → encoding/json ----------

/** convertToJSONableObject plus the json.Marshal/Unmarshal round trip: the Go value fromYaml sees. */
export function toJsonable(v: V2Value): GoValue {
  // Every map key is converted before json.Marshal sees a NaN or an infinity (in its key order).
  const nonFinite = { seen: false };
  const out = jsonable(v, nonFinite);
  if (nonFinite.seen) {
    const bad = firstNonFinite(out);
    if (bad !== undefined) throw new Fail('json: unsupported value: ' + formatFloat(bad, 'g', 64));
  }
  return out;
}

function firstNonFinite(v: GoValue): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : v;
  if (Array.isArray(v)) {
    for (const x of v) {
      const b = firstNonFinite(x);
      if (b !== undefined) return b;
    }
    return undefined;
  }
  if (v !== null && typeof v === 'object') {
    const m = v as Record<string, GoValue>;
    for (const k of Object.keys(m).sort(compareStrings)) {
      const b = firstNonFinite(m[k]);
      if (b !== undefined) return b;
    }
  }
  return undefined;
}

function jsonable(v: V2Value, nonFinite: { seen: boolean }): GoValue {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) nonFinite.seen = true;
    return v;
  }
  if (Array.isArray(v)) return withType(v.map((x) => jsonable(x, nonFinite)), SLICE_IFACE);
  if (v instanceof V2Map) {
    const m = newMap();
    for (const [k, x] of v.entries.values()) {
      let key: string;
      if (typeof k === 'string') key = k;
      else if (typeof k === 'boolean') key = String(k);
      else if (typeof k === 'number') {
        const s = formatFloat(Math.fround(k), 'g', 32);
        key = s === '+Inf' ? '.inf' : s === '-Inf' ? '-.inf' : s === 'NaN' ? '.nan' : s;
      } else if (k !== null && !Array.isArray(k) && !(k instanceof V2Map)) key = String(k.int);
      else throw new Fail(`Unsupported map key of type: ${goTypeName(k)}, key: ${sharpV(k)}, value: ${sharpV(x)}`);
      // "1" and 1 are two keys to yaml.v2 and one to JSON; Go keeps whichever its map order meets
      // last, at random: the first written is kept, so a result never changes between runs
      if (Object.hasOwn(m, key)) continue;
      m[key] = jsonable(x, nonFinite);
    }
    return m;
  }
  // JSON numbers come back as float64
  return Number(v.int);
}

// eslint-disable-next-line no-control-regex
const V2_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f\ufffe\uffff]/;

/**
 * The first complaint of yaml.v2's reader (libyaml's yaml_parser_update_buffer) about bytes that are
 * not UTF-8, or a control character before them, in its words.
 */
function v2ReaderError(b: Uint8Array): string | undefined {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const width = (c & 0x80) === 0 ? 1 : (c & 0xe0) === 0xc0 ? 2 : (c & 0xf0) === 0xe0 ? 3 : (c & 0xf8) === 0xf0 ? 4 : 0;
    if (width === 0) return 'invalid leading UTF-8 octet';
    if (width > b.length - i) return 'incomplete UTF-8 octet sequence';
    let v = width === 1 ? c : width === 2 ? c & 0x1f : width === 3 ? c & 0x0f : c & 0x07;
    for (let k = 1; k < width; k++) {
      const t = b[i + k]!;
      if ((t & 0xc0) !== 0x80) return 'invalid trailing UTF-8 octet';
      v = (v << 6) | (t & 0x3f);
    }
    if (!(width === 1 || (width === 2 && v >= 0x80) || (width === 3 && v >= 0x800) || (width === 4 && v >= 0x10000))) return 'invalid length of a UTF-8 sequence';
    if ((v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff) return 'invalid Unicode character';
    if (V2_CONTROL.test(String.fromCodePoint(v))) return 'control characters are not allowed';
    i += width;
  }
  return undefined;
}

/** yaml.v2 Unmarshal of the first document into interface{}. Throws GoYamlError("yaml: ..."). */
export function yamlV2Decode(text: string): V2Value {
  const breaks = lsAsBreaks(text);
  return breaks ? yamlV2DecodeText(breaks.text, breaks.marks) : yamlV2DecodeText(text);
}

function yamlV2DecodeText(text: string, marks?: BreakMarks): V2Value {
  // yaml.v2's reader refuses these before the scanner sees anything.
  if (!text.isWellFormed()) {
    const bad = v2ReaderError(goBytes(text));
    if (bad) throw new GoYamlError('yaml: ' + bad);
  }
  if (V2_CONTROL.test(text)) throw new GoYamlError('yaml: control characters are not allowed');
  const prepared = v2Text(text);
  if ('error' in prepared) throw new GoYamlError('yaml: ' + prepared.error);
  text = prepared.text;
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocumentsBounded(text, { schema: 'failsafe', uniqueKeys: false, merge: false, prettyErrors: false, strict: false, resolveKnownTags: false });
  } catch (e) {
    if (e instanceof YamlTooDeep) throw new GoYamlError(e.limit === GO_YAML_MAX_DEPTH ? e.goMessage(text) : 'yaml: ' + e.message);
    throw new GoYamlError('yaml: ' + (e as Error).message.split('\n')[0]);
  }
  let doc = docs[0];
  if (!doc) return null;
  const syntax = yamlV2SyntaxError(text, doc);
  if (syntax) {
    // quoted scalars and flow collections continued at a column YAML 1.2 refuses and yaml.v2 takes
    const reindented = indentFlowContinuations(text);
    if (reindented?.marker !== undefined) throw new GoYamlError(scannerError(reindented.marker - 1, 'found unexpected document indicator'));
    let again: Document.Parsed | undefined;
    try {
      again = reindented && parseAllDocumentsBounded(reindented.text, { schema: 'failsafe', uniqueKeys: false, merge: false, prettyErrors: false, strict: false, resolveKnownTags: false })[0];
    } catch {
      again = undefined;
    }
    if (!reindented || !again) throw new GoYamlError(syntax);
    // what is left wrong once the indentation is not is what yaml.v2 stops at (lines are the same)
    const still = yamlV2SyntaxError(reindented.text, again);
    if (still) throw new GoYamlError(still);
    doc = again;
    text = reindented.text;
  }
  try {
    return decodeYamlNode(doc.contents as YamlNode | null, text, marks ? { marks } : undefined);
  } catch (e) {
    if (e instanceof Fail) throw new GoYamlError(e.message);
    if (e instanceof RangeError) {
      isStackOverflow(e);
      throw new GoYamlError('yaml: document nests too deeply');
    }
    throw e;
  }
}

/** yaml.v2's decoding of one parsed document's root node (throws Fail with the node at fault). */
export function decodeYamlNode(root: YamlNode | null, text: string, limits?: DecodeLimits): V2Value {
  return new Decoder(root, text, limits).decode(root);
}

/** sigs.k8s.io/yaml.YAMLToJSON's value half: the decoded document as encoding/json leaves it
 *  (numbers float64, maps null-prototype). Throws GoYamlError with sigs.k8s.io/yaml's wording. */
export function yamlToGo(text: string): GoValue {
  const fast = fastYamlToGo(text);
  if (fast !== undefined) return fast;
  try {
    return toJsonable(yamlV2Decode(text));
  } catch (e) {
    if (e instanceof GoYamlError || e instanceof Fail) throw new GoYamlError('error converting YAML to JSON: ' + e.message);
    throw e;
  }
}


/** sigs.k8s.io/yaml.Unmarshal into a map[string]interface{} or []interface{} that starts empty. */
function unmarshalInto(text: string, target: 'map' | 'slice'): { value: GoValue; error?: string } {
  const empty: GoValue = target === 'map' ? newMap() : withType([], SLICE_IFACE);
  let v: GoValue;
  try {
    v = yamlToGo(text);
  } catch (e) {
    if (e instanceof GoYamlError) return { value: empty, error: e.message };
    throw e;
  }
  // JSON null leaves the target untouched (it is reached through an interface).
  if (v === null) return { value: empty };
  const want = target === 'map' ? 'object' : 'array';
  const got = kindName(v);
  if (got !== want) {
    const tname = target === 'map' ? 'map[string]interface {}' : '[]interface {}';
    return { value: empty, error: `error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${got} into Go value of type ${tname}` };
  }
  return { value: v };
}

/**
 * yamlToGo by the fast reader of plain block YAML (fastload.ts, which yields what sigs.k8s.io/yaml
 * yields for the YAML it reads): one document without tabs, carriage returns, a byte order mark,
 * control characters or unpaired surrogates, nested less deeply than a limit could matter. Undefined
 * for anything else, which the full reader answers, with its errors.
 */
function fastYamlToGo(text: string): GoValue | undefined {
  if (/[\t\r\ufeff\u2028\u2029\ud800-\udfff]/.test(text) || V2_CONTROL.test(text)) return undefined;
  if (fastReaderDepthBound(text) >= 1000) return undefined;
  let docs;
  try {
    docs = fastParse(text, undefined, { multiLineFlow: true });
  } catch {
    return undefined;
  }
  return docs.length === 1 ? (docs[0]!.value as GoValue) : undefined;
}

/**
 * sigs.k8s.io/yaml's Unmarshal into a typed target: where the target has a string, a number or a boolean
 * the YAML holds becomes its text (convertToJSONableObject with a string jsonTarget: FormatInt,
 * FormatFloat 'g' at 32 bits with .inf/-.inf/.nan, FormatBool); everything else as yamlToGo gives it.
 * `stringAt(path)` says where the target has a string (a key that is not a string is '*').
 */
export function yamlToGoTargeted(text: string, stringAt: (path: readonly string[]) => boolean): GoValue {
  const conv = (v: V2Value, path: string[]): V2Value => {
    if (v instanceof V2Map) {
      const m = new V2Map();
      for (const [k, x] of v.entries.values()) m.set(k, conv(x, [...path, typeof k === 'string' ? k : '*']));
      return m;
    }
    if (v === null || Array.isArray(v) || !stringAt(path)) return v;
    if (typeof v === 'boolean') return String(v);
    if (typeof v === 'number') {
      const s = formatFloat(Math.fround(v), 'g', 32);
      return s === '+Inf' ? '.inf' : s === '-Inf' ? '-.inf' : s === 'NaN' ? '.nan' : s;
    }
    if (typeof v === 'object') return v.int.toString();
    return v;
  };
  try {
    return toJsonable(conv(yamlV2Decode(text), []));
  } catch (e) {
    if (e instanceof GoYamlError || e instanceof Fail) throw new GoYamlError('error converting YAML to JSON: ' + e.message);
    throw e;
  }
}

/** Helm's fromYaml: the document as a map; on failure the map holds the error text under "Error". */
export function helmFromYaml(text: string): GoMap {
  const { value, error } = unmarshalInto(text, 'map');
  const m = value as GoMap;
  if (error !== undefined) m['Error'] = error;
  return m;
}

/** Helm's fromYamlArray: the document as a list; on failure a one-element list holding the error text. */
export function helmFromYamlArray(text: string): GoValue[] {
  const { value, error } = unmarshalInto(text, 'slice');
  if (error !== undefined) return withType([error], SLICE_IFACE);
  return value as GoValue[];
}

/** Helm's fromJson: json.Unmarshal into map[string]interface{}; the error text under "Error". */
export function helmFromJson(text: string): GoMap | GoNil {
  const { value, error } = goJsonUnmarshalInto(text, 'map');
  if (value instanceof GoNil) return value;
  const m = value as GoMap;
  if (error !== undefined) m['Error'] = error;
  return m;
}

/** Helm's fromJsonArray: json.Unmarshal into []interface{}; on failure a one-element list. */
export function helmFromJsonArray(text: string): GoValue[] | GoNil {
  const { value, error } = goJsonUnmarshalInto(text, 'slice');
  if (error !== undefined) return withType([error], SLICE_IFACE);
  return value as GoValue[] | GoNil;
}

/** strconv.Quote, for %#v of strings in error texts. */
function goQuoteString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x0d) out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else if (!/[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(ch)) out += c > 0xffff ? '\\U' + c.toString(16).padStart(8, '0') : '\\u' + c.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}
