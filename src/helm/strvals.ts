// Helm's ways of overriding values, applied to the injector's `values` before rendering:
//   --values-file FILE   deep merge (maps merged key by key, anything else replaced; null deletes)
//   --set a.b=c          Helm's strvals syntax: dotted keys, `\.` escapes, `a[0]` list indexes,
//                        `{x,y}` lists, typed scalars (true/false/null/integers)
//   --set-string a.b=c   the same syntax, every value a string
//
// Values end up as the JSON istiod decodes from the ConfigMap, so integers are plain numbers here.
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/strvals/parser.go, pkg/cli/values/options.go (mergeMaps)
// Proven by: test/istio/setvalues.test.ts

import type { Json, JsonObject } from '../go/encoding/json/value.js';
import { clone, isObject, newObject, own } from '../go/encoding/json/value.js';

export class SetValuesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetValuesError';
  }
}

/** Helm's mergeMaps for values files: `over` wins; nested maps merge; a null deletes the key. */
export function mergeValues(base: JsonObject, over: JsonObject): JsonObject {
  const out = newObject();
  for (const k of Object.keys(base)) out[k] = base[k]!;
  for (const k of Object.keys(over)) {
    const v = over[k]!;
    if (v === null) {
      delete out[k];
      continue;
    }
    const cur = Object.prototype.hasOwnProperty.call(out, k) ? out[k] : undefined;
    out[k] = isObject(v) && isObject(cur) ? mergeValues(cur, v) : clone(v);
  }
  return out;
}

/** Apply one `--set` (or `--set-string` when asString) argument to values (a new object is returned).
 *  With keepNull, `k=null` stores null, as Helm's strvals does before a chart's defaults are coalesced
 *  (where null deletes the default); without it the key is deleted at once. */
export function applySet(values: JsonObject, arg: string, asString = false, keepNull = false): JsonObject {
  const out = clone(values);
  new StrvalsParser(arg, asString, keepNull).parseInto(out);
  return out;
}

/** Helm's strvals: `name=value,other.name=value`. */
class StrvalsParser {
  private pos = 0;
  constructor(
    private readonly src: string,
    private readonly asString: boolean,
    private readonly keepNull = false,
  ) {}

  parseInto(data: JsonObject): void {
    while (this.pos < this.src.length) {
      this.key(data);
    }
  }

  private fail(msg: string): never {
    throw new SetValuesError(msg);
  }

  /** Characters up to one of `stops` (unescaped); returns the text and the stop (undefined at the end). */
  private until(stops: string): { text: string; stop?: string } {
    let text = '';
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos++]!;
      if (ch === '\\' && this.pos < this.src.length) {
        text += this.src[this.pos++]!;
        continue;
      }
      if (stops.includes(ch)) return { text, stop: ch };
      text += ch;
    }
    return { text };
  }

  private key(data: JsonObject): void {
    const { text: k, stop } = this.until('=[,.');
    switch (stop) {
      case undefined:
        if (k === '') return;
        this.fail(`key "${k}" has no value`);
      // falls through (fail never returns)
      case ',':
        this.fail(`key "${k}" has no value (cannot end with ,)`);
      // falls through
      case '=':
        this.setValue(data, k);
        return;
      case '.': {
        if (k === '') this.fail('key has no name before "."');
        const cur = own(data, k);
        const inner = isObject(cur) ? cur : newObject();
        data[k] = inner;
        this.key(inner);
        return;
      }
      case '[': {
        const cur = own(data, k);
        const list = Array.isArray(cur) ? cur : [];
        data[k] = this.keyIndex(list);
        return;
      }
    }
  }

  private setValue(data: JsonObject, k: string): void {
    if (this.src[this.pos] === '{') {
      this.pos++;
      data[k] = this.valList();
      this.skipComma();
      return;
    }
    const { text } = this.until(',');
    const v = this.typed(text);
    if (v === null && !this.keepNull) delete data[k];
    else data[k] = v;
  }

  private skipComma(): void {
    if (this.src[this.pos] === ',') this.pos++;
    else if (this.pos < this.src.length) this.fail(`unexpected data after list at offset ${this.pos}`);
  }

  private valList(): Json[] {
    const out: Json[] = [];
    for (;;) {
      const { text, stop } = this.until(',}');
      if (stop === undefined) this.fail('list must terminate with "}"');
      out.push(this.typed(text));
      if (stop === '}') return out;
    }
  }

  private index(): number {
    const { text, stop } = this.until(']');
    if (stop === undefined) this.fail('unclosed "[" in key');
    if (!/^-?\d+$/.test(text)) this.fail(`invalid index "${text}"`);
    const n = Number(text);
    if (n < 0) this.fail(`negative ${n} index not allowed`);
    if (n > 65536) this.fail(`index of ${n} is greater than maximum supported index 65536`);
    return n;
  }

  /** After `name[`: the index, then `=value`, `.key...` or another `[`. */
  private keyIndex(list: Json[]): Json[] {
    const i = this.index();
    while (list.length <= i) list.push(null);
    const next = this.src[this.pos++];
    if (next === '=') {
      if (this.src[this.pos] === '{') {
        this.pos++;
        list[i] = this.valList();
        this.skipComma();
      } else {
        list[i] = this.typed(this.until(',').text);
      }
      return list;
    }
    if (next === '.') {
      const cur = list[i];
      const inner = isObject(cur ?? null) ? (cur as JsonObject) : newObject();
      list[i] = inner;
      this.key(inner);
      return list;
    }
    if (next === '[') {
      const cur = list[i];
      list[i] = this.keyIndex(Array.isArray(cur) ? cur : []);
      return list;
    }
    this.fail(`key "${this.src.slice(0, this.pos)}" has no value`);
  }

  private typed(v: string): Json {
    if (this.asString) return v;
    const lower = v.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    if (lower === 'null') return null;
    if (v === '0') return 0;
    // Helm keeps leading-zero numbers (and anything ParseInt rejects) as strings.
    if (v.length > 0 && v[0] !== '0' && /^[+-]?\d+$/.test(v)) {
      const n = BigInt(v);
      if (n >= -(2n ** 63n) && n < 2n ** 63n) return Number(n);
    }
    return v;
  }
}
