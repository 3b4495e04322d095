// (a) Grammar-based random templates over the whole text/template language (Go 1.19 subset: no
// `else with`, no range over int), on JSON data or on the typed fixtures of tools/gorender.

import { STRING_LITS, INT_LITS, FLOAT_LITS, BIG_LITS, MISC_LITS, randValue, paths, kindOf, pathExpr } from './pools.mjs';

// Typed fixture paths by kind. Functions, and structs holding pointers (whose %v is an address), are
// left out of the general operands.
const FIXTURE_PATHS = {
  values: {
    num: ['.i', '.i8', '.i64', '.u8', '.u64', '.f32', '.f64', '.phase', '.wrap.GetValue', '.nilwrap.GetValue'],
    str: ['.s', '.ptr.Name', '.meta.Name', '.meta.Namespace', '.ss.x', '.phase.String'],
    bool: ['.b', '.wrap.Value'],
    list: ['.strs', '.ints', '.empty', '.nilslice', '.bytes', '.nested.a.b'],
    map: ['.ss', '.si', '.nilmap', '.nested', '.nested.a', '.meta.Labels'],
    nil: ['.iface', '.nilptr', '.missing', '.nilptr.Name', '.iface.x'],
    any: ['.meta', '.ptr', '.nilwrap', '.wrap', '.', '$', '.meta.QualifiedName', '.ptr.QualifiedName'],
    call: ['.fn', '.fnerr'],
  },
  pod: {
    num: ['.Replicas', '.Ratio', '.Weight', '.Priority', '.Small', '.Port', '.Phase', '.Hold.GetValue', '.Rewrite.GetValue', '.Concurrency.GetValue', '.Limits.cpu', '(.Add 1 2)', '(.Scale 1.5)'],
    str: ['.Name', '.Namespace', '.Labels.app', '.Hello', '(.Label "tier")', '.QualifiedName', '.Owner.Kind', '.Owner.Ref.Kind', '(.Join "," "a" "b")', '(index .Containers 0).Image', '(index .Containers 1).Name', '(.Ok true)'],
    bool: ['.Ready', '.Hold.Value'],
    list: ['.Tags', '.Empty', '(index .Containers 0).Args', '(index .Containers 0).Ports'],
    map: ['.Labels', '.Annotations', '.Limits', '.NoLabels', '.Detail'],
    nil: ['.Extra', '.Rewrite', '.Owner.Ref.Ref', '(.ContainerNamed "nope")', '.Missing', '.secret', '(.Fail "boom")', '(.Ok false)'],
    any: ['.Meta', '.Owner.Ref', '(index .Containers 1)', '.Detail.n', '.Detail.k', '(.ContainerNamed "sidecar").Image', '(index .Containers 0).Readiness.Path'],
    call: ['.Greet', '.Sum', '.Check'],
  },
  tree: {
    num: ['.Value', '(index .Children 0).Value'],
    str: ['.Name', '(index .Children 1).Name'],
    bool: [],
    list: ['.Children', '(index .Children 1).Children'],
    map: [],
    nil: ['.Nope'],
    any: ['(index .Children 1)'],
    call: [],
  },
};

const PRINTF_FORMATS = [
  '%v', '%d', '%s', '%q', '%x', '%X', '%5.2f', '%-10s|', '%T', '%+v', '%#v', '%t', '%e', '%g', '%08.3f', '%c', '%U', '%o', '%b',
  '%%', '%v %v', '%[2]v %[1]v', '%*d', '%!', '%z', '%6.2v', '%.3s', '% d', '%+d', '%#x', '%#o', '%x %X', '%10v|', '%-5d|', '%05d', '%.0f',
  '%.2e', '%G', '%8.3g', '%q %v', '%[3]v', '%v%', '%.*f', '%s=%d', '%#q', '%+q', '%x', '% x', '%08b', '%.1s', '%T %T', '%v|%v|%v',
];
const HTML_STRINGS = ['"<b>\\"x\\" & \'y\'</b>"', '"a=b&c=d e"', '"\\u00e9\\u2028"', '"javascript:alert(1)"', '"\\x00"', '"+/ ?"'];

// Share of templates edited into (mostly) parse errors; DIFFFUZZ_MUTATE overrides it.
const MUTATE = Number(process.env.DIFFFUZZ_MUTATE ?? 0.08);

class Scope {
  constructor(parent) {
    this.parent = parent;
    this.vars = [];
  }
  all() {
    return this.parent ? [...this.parent.all(), ...this.vars] : [...this.vars];
  }
}

export function genEngineCase(r, id) {
  const g = new EngineGen(r);
  return g.build(id);
}

class EngineGen {
  constructor(r) {
    this.r = r;
    this.varN = 0;
    this.defNames = [];
    this.inRange = 0;
  }

  build(id) {
    const r = this.r;
    const c = { name: `e${id}`, funcs: 'builtin' };
    const kind = r.weighted([[6, 'json'], [2, 'values'], [2, 'pod'], [1, 'tree']]);
    if (kind === 'json') {
      const data = {};
      const n = r.range(2, 6);
      for (let i = 0; i < n; i++) data[r.pick(['a', 'b', 'c', 'x', 'name', 'items', 'n', 'f', 's', 'list', 'm', 'on', 'empty', 'port', 'labels'])] = randValue(r, 3);
      c.data = data;
      if (r.chance(0.4)) c.dataInt = true;
      this.byKind = { num: [], str: [], bool: [], list: [], map: [], nil: ['.missing', '.a.missing', '.nope.deeper'], any: ['.', '$'], call: [] };
      for (const p of paths(data)) {
        if (p.path.length === 0) continue;
        this.byKind[kindOf(p.value)].push(pathExpr(p.path));
      }
    } else {
      c.fixture = kind;
      this.byKind = FIXTURE_PATHS[kind];
    }
    this.fixture = kind;
    if (r.chance(0.12)) c.option = r.pick(['missingkey=error', 'missingkey=zero', 'missingkey=default', 'missingkey=invalid', 'missingkey=error', r.chance(0.1) ? 'missingkey=bogus' : 'missingkey=zero']);

    // associated templates
    if (r.chance(0.3)) {
      c.defs = {};
      const n = r.range(1, 2);
      for (let i = 0; i < n; i++) {
        const name = r.pick(['d1', 'd2', 'sub', 'x y']);
        this.defNames.push(name);
        c.defs[name] = this.body(new Scope(), 2);
      }
    }
    this.top = true;
    let body = this.body(new Scope(), r.range(2, 4));
    if (r.chance(MUTATE)) body = this.mutate(body);
    c.template = body;
    if (r.chance(0.04)) {
      const [L, R] = r.pick([['<<', '>>'], ['[[', ']]'], ['{%', '%}'], ['(', ')'], ['{{{', '}}}']]);
      c.delims = [L, R];
      const swap = (t) => t.split('{{').join('\u0000L').split('}}').join(R).split('\u0000L').join(L);
      c.template = swap(c.template);
      if (c.defs) for (const k of Object.keys(c.defs)) c.defs[k] = swap(c.defs[k]);
    }
    return c;
  }

  // --- statements
  body(scope, depth, n = this.r.range(1, 4)) {
    let s = '';
    for (let i = 0; i < n; i++) s += this.stmt(scope, depth);
    return s;
  }

  text() {
    return this.r.pick(['', ' ', 'x', '\n', ' | ', '-', 'a b', '\n  ', '<', 'é', '}', ': ', '{ x']);
  }

  open() {
    return this.r.chance(0.2) ? '{{- ' : this.r.chance(0.05) ? '{{' : '{{ ';
  }
  close() {
    return this.r.chance(0.2) ? ' -}}' : this.r.chance(0.05) ? '}}' : ' }}';
  }
  act(inner) {
    // newlines inside actions move the line numbers errors report
    if (this.r.chance(0.04)) inner = inner.replace(/ \| /g, '\n| ');
    if (this.r.chance(0.03)) return '{{\n' + inner + '\n}}';
    return this.open() + inner + this.close();
  }

  stmt(scope, depth) {
    const r = this.r;
    const choices = [[4, 'text'], [8, 'print'], [2, 'decl'], [1, 'assign'], [1, 'comment']];
    if (depth > 0) choices.push([3, 'if'], [2, 'with'], [3, 'range'], [1, 'block']);
    if (depth > 0 && scope.parent === undefined && this.top) choices.push([1, 'define']);
    if (this.defNames.length) choices.push([2, 'template']);
    if (this.inRange) choices.push([1, 'breakcont']);
    switch (r.weighted(choices)) {
      case 'text':
        return this.text();
      case 'print':
        return this.act(this.pipeline(scope, 'any'));
      case 'decl': {
        const v = `$v${this.varN++}`;
        const s = this.act(`${v} := ${this.pipeline(scope, 'any', true)}`);
        scope.vars.push(v);
        return s + (r.chance(0.6) ? this.act(v) : '');
      }
      case 'assign': {
        const vars = scope.all();
        const v = vars.length && r.chance(0.85) ? r.pick(vars) : '$undeclared';
        return this.act(`${v} = ${this.pipeline(scope, 'any', true)}`) + this.act(v);
      }
      case 'comment':
        return r.chance(0.9) ? r.pick(['{{/* c */}}', '{{- /* c */ -}}', '{{/*\nmulti\n*/}}', '{{- /* c */}}', '{{/* c */ -}}']) : r.pick(['{{ /* spaced */ }}', '{{/* c */ .}}', '{{/* unclosed }}']);
      case 'if': {
        let s = this.act('if ' + this.pipeline(scope, r.pick(['bool', 'any']), true)) + this.body(new Scope(scope), depth - 1, r.range(1, 2));
        while (r.chance(0.3)) s += this.act('else if ' + this.pipeline(scope, 'any', true)) + this.body(new Scope(scope), depth - 1, 1);
        if (r.chance(0.5)) s += this.act('else') + this.body(new Scope(scope), depth - 1, r.range(1, 2));
        return s + this.act('end');
      }
      case 'with': {
        const inner = new Scope(scope);
        let s = this.act('with ' + this.pipeline(inner, 'any', true));
        s += this.body(inner, depth - 1, r.range(1, 2));
        if (r.chance(0.4)) s += this.act('else') + this.body(new Scope(scope), depth - 1, 1);
        return s + this.act('end');
      }
      case 'range': {
        const inner = new Scope(scope);
        const target = this.operand(scope, r.pick(['list', 'list', 'map', 'any', 'str', 'num']), 1);
        let head;
        switch (r.int(4)) {
          case 0:
            head = target;
            break;
          case 1: {
            const v = `$e${this.varN++}`;
            inner.vars.push(v);
            head = `${v} := ${target}`;
            break;
          }
          case 2: {
            const k = `$k${this.varN++}`;
            const v = `$e${this.varN++}`;
            inner.vars.push(k, v);
            head = `${k}, ${v} := ${target}`;
            break;
          }
          default: {
            const k = `$k${this.varN++}`;
            const v = `$e${this.varN++}`;
            inner.vars.push(k, v);
            head = `${k}, ${v} = ${target}`;
          }
        }
        this.inRange++;
        let s = this.act('range ' + head) + this.body(inner, depth - 1, r.range(1, 3));
        this.inRange--;
        if (r.chance(0.3)) s += this.act('else') + this.body(new Scope(scope), depth - 1, 1);
        return s + this.act('end');
      }
      case 'breakcont':
        return r.chance(0.5)
          ? this.act(r.pick(['break', 'continue']))
          : this.act('if ' + this.pipeline(scope, 'bool')) + this.act(r.pick(['break', 'continue'])) + this.act('end');
      case 'define': {
        const name = r.pick(['inl', 'd1', 'rec']);
        this.defNames.push(name);
        return this.act(`define "${name}"`) + this.body(new Scope(), depth - 1, r.range(1, 2)) + this.act('end');
      }
      case 'block': {
        const name = r.pick(['blk', 'd2']);
        this.defNames.push(name);
        return this.act(`block "${name}" ${this.pipeline(scope, 'any')}`) + this.body(new Scope(), depth - 1, 1) + this.act('end');
      }
      case 'template': {
        const name = r.chance(0.9) ? r.pick(this.defNames) : 'undefined-tmpl';
        return this.act(r.chance(0.7) ? `template "${name}" ${this.pipeline(scope, 'any')}` : `template "${name}"`);
      }
    }
  }

  // --- expressions
  pipeline(scope, want, noDecl = false, depth = 2) {
    const r = this.r;
    let s = this.command(scope, want, depth);
    const more = r.weighted([[6, 0], [3, 1], [1, 2]]);
    for (let i = 0; i < more; i++) s += ' | ' + this.pipedCommand(scope, depth);
    return s;
  }

  pipedCommand(scope, depth) {
    const r = this.r;
    return r.pick([
      'print', 'println', 'len', 'not', 'html', 'js', 'urlquery',
      `printf ${JSON.stringify(r.pick(PRINTF_FORMATS))}`,
      `printf "%v|%v" ${this.operand(scope, 'any', depth - 1)}`,
      `eq ${this.operand(scope, 'any', depth - 1)}`,
      `ne ${this.operand(scope, 'any', depth - 1)}`,
      `lt ${this.operand(scope, 'num', depth - 1)}`,
      `and ${this.operand(scope, 'any', depth - 1)}`,
      `or ${this.operand(scope, 'any', depth - 1)}`,
      `index ${this.operand(scope, r.pick(['list', 'map']), depth - 1)}`,
      `slice`, `print "x"`,
      r.chance(0.9) ? 'call' : '.',
    ]);
  }

  command(scope, want, depth) {
    const r = this.r;
    if (depth <= 0 || r.chance(0.45)) return this.operand(scope, want, depth);
    return this.builtinCall(scope, want, depth - 1);
  }

  builtinCall(scope, want, depth) {
    const r = this.r;
    const op = (k) => this.operand(scope, k, depth);
    const any = () => op('any');
    const fns = {
      bool: () => r.pick([
        () => `not ${any()}`, () => `and ${any()} ${any()}`, () => `or ${any()} ${any()}`, () => `and ${any()} ${any()} ${any()}`,
        () => `eq ${any()} ${any()}`, () => { const k = r.pick(['num', 'str', 'bool']); return `eq ${op(k)} ${op(k)}`; },
        () => { const k = r.pick(['num', 'str']); return `eq ${op(k)} ${op(k)} ${op(k)}`; },
        () => { const k = r.pick(['num', 'str', 'num']); return `${r.pick(['ne', 'lt', 'le', 'gt', 'ge'])} ${op(k)} ${op(k)}`; },
        () => `${r.pick(['lt', 'le', 'gt', 'ge', 'ne'])} ${any()} ${any()}`,
      ])(),
      num: () => r.pick([() => `len ${op(r.pick(['list', 'map', 'str']))}`, () => `len ${any()}`, () => `index ${op('list')} ${op('num')}`])(),
      str: () => r.pick([
        () => `print ${any()}`, () => `print ${any()} ${any()}`, () => `print ${any()} ${any()} ${any()}`, () => `println ${any()} ${any()}`,
        () => `printf ${JSON.stringify(r.pick(PRINTF_FORMATS))} ${any()}`,
        () => `printf ${JSON.stringify(r.pick(PRINTF_FORMATS))} ${any()} ${any()}`,
        () => `printf ${JSON.stringify(r.pick(PRINTF_FORMATS))}`,
        () => `${r.pick(['html', 'js', 'urlquery'])} ${r.chance(0.5) ? r.pick(HTML_STRINGS) : any()}`,
        () => `${r.pick(['html', 'js', 'urlquery'])} ${any()} ${any()}`,
        () => `slice ${op('str')} ${r.pick(['0', '1', '2', '-1', '10'])}`,
        () => `index ${op('str')} ${r.pick(['0', '1', '5'])}`,
      ])(),
      list: () => r.pick([
        () => `slice ${op('list')}`, () => `slice ${op('list')} ${r.pick(['0', '1', '2', '5'])}`,
        () => `slice ${op('list')} ${r.pick(['0', '1'])} ${r.pick(['1', '2', '3'])}`,
        () => `slice ${op('list')} 0 1 ${r.pick(['1', '2', '3'])}`, () => `index ${op('list')}`,
      ])(),
      map: () => `index ${op('map')}`,
      any: () => r.pick([
        () => `index ${op('map')} ${r.pick(['"a"', '"b"', '"x"', '"name"', '"missing"', '1', 'nil'])}`,
        () => `index ${op(r.pick(['list', 'map']))} ${any()}`, () => `index ${any()} ${any()} ${any()}`,
        () => `call ${r.chance(0.7) && this.byKind.call.length ? r.pick(this.byKind.call) : any()} ${any()}`,
        () => `call ${r.chance(0.8) && this.byKind.call.length ? r.pick(this.byKind.call) : any()} ${r.pick(['""', '"x"', '1', '-1', '1 2 3', '"a" "b"'])}`,
        () => `${r.pick(['and', 'or'])} ${any()} ${any()}`, () => `slice ${any()} ${any()}`,
      ])(),
    };
    fns.nil = fns.any;
    fns.call = fns.any;
    const k = want === 'any' ? r.pick(['bool', 'num', 'str', 'list', 'map', 'any']) : want;
    return fns[k]();
  }

  operand(scope, want, depth) {
    const r = this.r;
    const choice = r.weighted([[5, 'data'], [3, 'lit'], [1.5, 'var'], [depth > 0 ? 1.5 : 0, 'paren'], [0.08, 'weird']]);
    if (choice === 'var') {
      const vars = scope.all();
      if (vars.length) {
        const v = r.pick(vars);
        return r.chance(0.2) ? `${v}.${r.pick(['a', 'Name', 'x', 'b'])}` : v;
      }
      return r.chance(0.03) ? '$nope' : r.pick(['$', '$.' + r.pick(['a', 'Name', 'x'])]);
    }
    if (choice === 'paren') {
      const p = `(${this.pipeline(scope, want, true, depth - 1)})`;
      return r.chance(0.15) ? `${p}.${r.pick(['a', 'Name', 'x'])}` : p;
    }
    if (choice === 'weird') return r.pick(['.', '$', 'nil', '.a.b.c', '(.)', '"x".y', '1.x', '$.', '..a', '.a..b']);
    if (choice === 'data') {
      const pool = want === 'any' ? [].concat(...['num', 'str', 'bool', 'list', 'map', 'nil', 'any'].map((k) => this.byKind[k] ?? [])) : this.byKind[want] ?? [];
      if (pool.length) return r.pick(pool);
    }
    return this.literal(want);
  }

  literal(want) {
    const r = this.r;
    switch (want) {
      case 'num':
        return r.chance(0.6) ? r.pick(INT_LITS) : r.chance(0.97) ? r.pick(FLOAT_LITS) : r.pick(BIG_LITS);
      case 'str':
        return r.pick(STRING_LITS);
      case 'bool':
        return r.pick(['true', 'false']);
      default:
        return r.weighted([[4, () => r.pick(STRING_LITS)], [3, () => r.pick(INT_LITS)], [2, () => r.pick(FLOAT_LITS)], [1, () => r.pick(MISC_LITS)], [0.05, () => r.pick(BIG_LITS)]])();
    }
  }

  // Parse-error generation: small edits of a valid template.
  mutate(t) {
    const r = this.r;
    const edits = r.range(1, 2);
    for (let i = 0; i < edits; i++) {
      const pos = r.int(t.length + 1);
      switch (r.int(4)) {
        case 0: // delete a char
          t = t.slice(0, pos) + t.slice(pos + 1);
          break;
        case 1:
          t = t.slice(0, pos) + r.pick([')', '(', '|', '}}', '{{', '{{end}}', '{{else}}', ':=', '$', '.', ',', '"', "'", '`', '=', ' $y', '{{ if }}', '{{ range }}', ' 1', '"x"', '-}}', '{{-', '/*', '*/', '\n', '{{ define "q" }}', '{{break}}', '{{ with . }}']) + t.slice(pos);
          break;
        case 2: // drop an {{end}}
          t = t.replace(/\{\{-? end -?\}\}/, '');
          break;
        default: // truncate
          t = t.slice(0, pos);
      }
    }
    return t;
  }
}
