// A small reader of Go source for the release check: a function's body, the last value it returns, a
// struct's fields, the keys of a composite literal, constants; and Go composite literals of protobuf
// messages evaluated to the JSON jsonpb prints for them (zero values left out, wrappers and durations
// as their value, oneof wrappers flattened), so DefaultProxyConfig and DefaultMeshConfig can be compared
// with what the model builds.

/** The text between the brace at `open` and its match, skipping strings, runes and comments. */
export function braced(src, open) {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      i = j;
      continue;
    }
    if (c === '`') {
      i = src.indexOf('`', i + 1);
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      i = src.indexOf('\n', i);
      if (i < 0) break;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      i = src.indexOf('*/', i + 2) + 1;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return src.slice(open + 1, i);
  }
  throw new Error('unbalanced braces');
}

/** The body of `func NAME(` (a method too: `func (r T) NAME(`), or undefined. */
export function funcBody(src, name) {
  const m = new RegExp(`^func (?:\\([^)]*\\) )?${name}\\(`, 'm').exec(src);
  if (!m) return undefined;
  // the body's brace is the first one after the signature's closing parenthesis at depth 0
  let i = m.index + m[0].length;
  let depth = 1;
  for (; i < src.length && depth > 0; i++) {
    if (src[i] === '(') depth++;
    else if (src[i] === ')') depth--;
  }
  const open = src.indexOf('{', i);
  return braced(src, open);
}

/** The fields of `type NAME struct { ... }`: [name, type] in order (embedded fields as [type, type]). */
export function structFields(src, name) {
  const m = new RegExp(`^type ${name} struct \\{`, 'm').exec(src);
  if (!m) return undefined;
  const body = braced(src, m.index + m[0].length - 1);
  const out = [];
  for (const raw of body.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').replace(/`[^`]*`/, '').trim();
    if (!line) continue;
    const f = /^(\w+)\s+(\S.*)$/.exec(line);
    if (f) out.push([f[1], f[2].trim()]);
    else out.push([line, line]);
  }
  return out;
}

// ---------- Go expressions ----------

function tokenize(s) {
  const toks = [];
  const re = /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|("(?:[^"\\]|\\.)*"|`[^`]*`)|(\d+(?:\.\d+)?)|([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)|(\[\]|[{}()[\],:&*+\-/])/gy;
  let m;
  while (re.lastIndex < s.length && (m = re.exec(s))) {
    if (m[1]) toks.push({ t: 'str', v: m[1].startsWith('`') ? m[1].slice(1, -1) : JSON.parse(m[1]) });
    else if (m[2]) toks.push({ t: 'num', v: Number(m[2]) });
    else if (m[3]) toks.push({ t: 'id', v: m[3] });
    else if (m[4]) toks.push({ t: 'p', v: m[4] });
  }
  if (re.lastIndex < s.length) throw new Error(`cannot read Go near: ${s.slice(re.lastIndex, re.lastIndex + 40)}`);
  return toks;
}

/**
 * Parse a Go expression into a tree: { k: 'lit', type, fields: [[name, expr]] | elems: [expr] },
 * { k: 'call', fn, args }, { k: 'id', v }, { k: 'str' | 'num', v }, { k: 'bin', op, a, b }.
 */
export function parseGoExpr(text) {
  const toks = tokenize(text);
  let i = 0;
  const peek = (v) => toks[i] && toks[i].v === v && toks[i].t === 'p';
  const eat = (v) => {
    if (!peek(v)) throw new Error(`expected ${v} at ${JSON.stringify(toks[i])}`);
    i++;
  };
  const typeExpr = () => {
    let s = '';
    while (peek('[]') || peek('*') || peek('&')) s += toks[i++].v;
    if (toks[i]?.t === 'id' && toks[i].v === 'map') {
      i++;
      eat('[');
      const k = typeExpr();
      eat(']');
      return `${s}map[${k}]${typeExpr()}`;
    }
    if (toks[i]?.t !== 'id') throw new Error(`expected a type at ${JSON.stringify(toks[i])}`);
    return s + toks[i++].v;
  };
  const elements = () => {
    eat('{');
    const fields = [];
    const elems = [];
    while (!peek('}')) {
      if (toks[i].t === 'id' && toks[i + 1]?.v === ':' && toks[i + 1].t === 'p') {
        const name = toks[i].v;
        i += 2;
        fields.push([name, expr()]);
      } else elems.push(peek('{') ? { k: 'lit', type: '', ...elementsOf() } : expr());
      if (peek(',')) i++;
    }
    eat('}');
    return { fields, elems };
  };
  const elementsOf = () => elements();
  const primary = () => {
    const tok = toks[i];
    if (!tok) throw new Error('unexpected end');
    if (tok.t === 'str' || tok.t === 'num') {
      i++;
      return { k: tok.t, v: tok.v };
    }
    if (peek('&') || peek('[]') || peek('*')) {
      const type = typeExpr();
      if (peek('{')) return { k: 'lit', type, ...elements() };
      return { k: 'id', v: type };
    }
    if (peek('(')) {
      i++;
      const e = expr();
      eat(')');
      return e;
    }
    if (tok.t === 'id') {
      if (tok.v === 'map') {
        const type = typeExpr();
        return { k: 'lit', type, ...elements() };
      }
      i++;
      if (peek('(')) {
        i++;
        const args = [];
        while (!peek(')')) {
          args.push(peek('[]') || (toks[i].t === 'id' && toks[i].v === 'map') ? { k: 'type', v: typeExpr() } : expr());
          if (peek(',')) i++;
        }
        eat(')');
        return { k: 'call', fn: tok.v, args };
      }
      if (peek('{') && /^[A-Z]|\.[A-Z]/.test(tok.v)) return { k: 'lit', type: tok.v, ...elements() };
      return { k: 'id', v: tok.v };
    }
    throw new Error(`unexpected ${JSON.stringify(tok)}`);
  };
  const expr = () => {
    let a = primary();
    while (peek('*') || peek('+') || peek('-') || peek('/')) {
      const op = toks[i++].v;
      a = { k: 'bin', op, a, b: primary() };
    }
    return a;
  };
  const e = expr();
  return e;
}

/** The expression of the last top-level `return` of a function body. */
export function lastReturn(body) {
  // a body's own statements: returns inside nested blocks (a TestMode branch) come before the last one
  const at = body.lastIndexOf('\n\treturn ');
  if (at < 0) throw new Error('no return statement');
  return body.slice(at + '\n\treturn '.length);
}

/** `NAME = "value"` and `NAME = NAME2` constants of a Go file. */
export function goConstants(src) {
  const out = {};
  for (const m of src.matchAll(/^\s*(\w+)\s*(?:\w+\s*)?=\s*("(?:[^"\\]|\\.)*"|\d+)\s*(?:\/\/.*)?$/gm)) out[m[1]] = JSON.parse(m[2]);
  return out;
}

// ---------- protobuf literals as jsonpb prints them ----------

const TIME = { 'time.Second': 1, 'time.Millisecond': 0.001, 'time.Minute': 60, 'time.Hour': 3600 };
// enum values that are 0, which jsonpb leaves out
const ZERO_ENUMS = new Set(['NONE', 'TEXT', 'PASSTHROUGH', 'REGISTRY_ONLY', 'UNSPECIFIED', 'REDIRECT', 'DO_NOT_UPGRADE']);
const SKIP = Symbol('zero');

function seconds(e) {
  if (e.k === 'num') return e.v;
  if (e.k === 'id' && TIME[e.v] !== undefined) return TIME[e.v];
  if (e.k === 'bin' && e.op === '*') return seconds(e.a) * seconds(e.b);
  throw new Error(`duration not understood: ${JSON.stringify(e)}`);
}

/** A duration as jsonpb writes it: whole seconds, or 3, 6 or 9 digits of fraction. */
function durationString(s) {
  const nanos = Math.round(s * 1e9);
  const sec = Math.trunc(nanos / 1e9);
  const frac = Math.abs(nanos % 1e9);
  if (frac === 0) return `${sec}s`;
  const digits = frac % 1e6 === 0 ? 3 : frac % 1e3 === 0 ? 6 : 9;
  return `${sec}.${String(frac).padStart(9, '0').slice(0, digits)}s`;
}

const lowerFirst = (s) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * A Go expression of a protobuf message (or field value) as jsonpb's JSON. `env` resolves identifiers:
 * constants (`constants.X`) and local variables (`proxyConfig`).
 */
export function protoJSON(e, env) {
  switch (e.k) {
    case 'str':
      return e.v === '' ? SKIP : e.v;
    case 'num':
      return e.v === 0 ? SKIP : e.v;
    case 'id': {
      if (e.v === 'true') return true;
      if (e.v === 'false') return SKIP;
      if (e.v === 'nil') return SKIP;
      const name = e.v.replace(/^&/, '');
      if (name in env) return env[name];
      const short = name.split('.').at(-1);
      // constants.X, or a constant of the file itself
      if ((name.startsWith('constants.') || !name.includes('.')) && short in env.constants) return env.constants[short] === '' ? SKIP : env.constants[short];
      // an enum value: meshconfig.AuthenticationPolicy_MUTUAL_TLS
      const en = /_([A-Z][A-Z0-9_]*)$/.exec(name);
      if (en) {
        const value = enumName(name.split('.').at(-1));
        return ZERO_ENUMS.has(value) ? SKIP : value;
      }
      throw new Error(`identifier not understood: ${e.v}`);
    }
    case 'bin':
      return seconds(e);
    case 'call': {
      if (/^(types|ptypes)\.DurationProto$|^durationpb\.New$/.test(e.fn)) return durationString(seconds(e.args[0]));
      if (/^(wrappers|wrapperspb)\.(Bool|Int32|UInt32|String|Int64|UInt64|Double|Float)$/.test(e.fn)) return protoValue(e.args[0], env);
      if (e.fn === 'make') return SKIP;
      throw new Error(`call not understood: ${e.fn}`);
    }
    case 'lit': {
      const type = e.type.replace(/^&/, '');
      if (/\.(Int32|UInt32|Bool|String|Int64|UInt64|Double|Float)Value$/.test(type)) {
        const f = e.fields.find(([n]) => n === 'Value');
        return f ? protoValue(f[1], env) : type.endsWith('BoolValue') ? false : type.endsWith('StringValue') ? '' : 0;
      }
      if (type.startsWith('[]')) {
        const xs = e.elems.map((x) => protoJSON(x, env)).filter((x) => x !== SKIP);
        return xs.length ? xs : SKIP;
      }
      const out = {};
      for (const [name, value] of e.fields) {
        // a oneof wrapper: &meshconfig.ProxyConfig_ServiceCluster{ServiceCluster: x} sets serviceCluster
        if (value.k === 'lit' && value.fields.length === 1 && /_\w+_?$/.test(value.type) && oneofInner(value)) {
          const [inner, innerValue] = value.fields[0];
          const j = protoJSON(innerValue, env);
          out[lowerFirst(inner)] = j === SKIP ? zeroOf(innerValue) : j;
          continue;
        }
        const j = protoJSON(value, env);
        if (j !== SKIP) out[lowerFirst(name)] = j;
      }
      return out;
    }
    default:
      throw new Error(`expression not understood: ${JSON.stringify(e)}`);
  }
}

/** A scalar that is set through a wrapper or a oneof prints even when it is the zero value. */
function protoValue(e, env) {
  if (e.k === 'id' && e.v === 'false') return false;
  if (e.k === 'num') return e.v;
  if (e.k === 'str') return e.v;
  const j = protoJSON(e, env);
  return j === SKIP ? zeroOf(e) : j;
}

function zeroOf(e) {
  if (e.k === 'str') return '';
  if (e.k === 'num') return 0;
  if (e.k === 'id' && e.v === 'false') return false;
  return {};
}

/** Whether a literal is a oneof wrapper: its type ends with its one field's name (Tracing_Zipkin_{Zipkin: ...}). */
function oneofInner(lit) {
  const short = lit.type.split('.').at(-1).replace(/_$/, '');
  return short.endsWith(`_${lit.fields[0][0]}`);
}

/** MeshConfig_OutboundTrafficPolicy_ALLOW_ANY → ALLOW_ANY: the upper-case tail after the type's name. */
function enumName(short) {
  const parts = short.split('_');
  let i = parts.length - 1;
  while (i > 0 && /^[A-Z0-9]+$/.test(parts[i - 1]) && !/^[A-Z][a-z]/.test(parts[i - 1])) i--;
  return parts.slice(i).join('_');
}

export { SKIP };
