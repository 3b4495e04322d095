// (b) Function-heavy templates over Sprig, Helm and Istio functions: realistic and edge-case arguments
// (unicode, empty, nil, int vs float, negative, huge, wrong types, wrong arity), results printed
// directly, through toJson, with their Go type, or fed to a second function.
// Nondeterministic functions (now, rand*, uuidv4, gen*, shuffle, bcrypt, htpasswd, encryptAES),
// DNS and the process environment are left out.

import { STRING_LITS, DATA_STRINGS, NUMBERS, randValue, goQuote } from './pools.mjs';

// name: argument kinds; a trailing '*' makes the last kind variadic.
const SPRIG = `
abbrev:int,str abbrevboth:int,int,str trunc:int,str trim:str trimAll:str,str trimall:str,str trimPrefix:str,str trimSuffix:str,str
upper:str lower:str title:str untitle:str substr:int,int,str repeat:small,str nospace:str initials:str wrap:int,text wrapWith:int,str,text
contains:str,str hasPrefix:str,str hasSuffix:str,str quote:any* squote:any* cat:any* indent:small,text nindent:small,text replace:str,str,str
plural:str,str,int snakecase:word camelcase:word kebabcase:word swapcase:str sha1sum:str sha256sum:str adler32sum:str toString:any
atoi:numstr int:num int64:num float64:num toDecimal:num split:sep,str splitList:sep,str splitn:sep,int,str toStrings:any join:sep,list
sortAlpha:list until:small untilStep:small,small,small seq:small* add:num* add1:num sub:num,num div:num,num mod:num,num mul:num,num*
max:num,num* min:num,num* biggest:num,num* addf:num* add1f:num subf:num,num* divf:num,num* mulf:num,num* maxf:num,num* minf:num,num*
floor:num ceil:num round:num,small base:path dir:path clean:path ext:path isAbs:path osBase:path osDir:path osClean:path osExt:path osIsAbs:path
b64enc:str b64dec:b64 b32enc:str b32dec:b32 default:any,any empty:any coalesce:any* all:any* any:any* ternary:any,any,bool
fromJson:json toJson:any toPrettyJson:any toRawJson:any mustFromJson:json mustToJson:any mustToPrettyJson:any mustToRawJson:any
list:any* dict:kv* get:map,key set:map,key,any unset:map,key hasKey:map,key pluck:key,map* sortedkeys:map* pick:map,key* omit:map,key*
merge:map,map* mergeOverwrite:map,map* mustMerge:map,map* mustMergeOverwrite:map,map* deepCopy:any mustDeepCopy:any
append:list,any push:list,any prepend:list,any first:list last:list rest:list initial:list reverse:list uniq:list without:list,any*
has:any,list compact:list slice:list,small* concat:list* chunk:small,list dig:key,key,any,map
mustAppend:list,any mustPush:list,any mustPrepend:list,any mustFirst:list mustLast:list mustRest:list mustInitial:list mustReverse:list
mustUniq:list mustWithout:list,any* mustHas:any,list mustCompact:list mustSlice:list,small* mustChunk:small,list
typeOf:any typeIs:type,any typeIsLike:type,any kindOf:any kindIs:kind,any deepEqual:any,any
regexMatch:re,str regexFindAll:re,str,int regexFind:re,str regexReplaceAll:re,str,str regexReplaceAllLiteral:re,str,str regexSplit:re,str,int
regexQuoteMeta:str mustRegexMatch:re,str mustRegexFindAll:re,str,int mustRegexFind:re,str mustRegexReplaceAll:re,str,str
mustRegexReplaceAllLiteral:re,str,str mustRegexSplit:re,str,int
semver:ver semverCompare:constraint,ver urlParse:url urlJoin:urlmap fail:str duration:dur durationRound:dur
toDate:layout,datestr mustToDate:layout,datestr date:layout,time dateInZone:layout,time,zone htmlDate:time htmlDateInZone:time,zone
unixEpoch:time dateModify:durstr,time mustDateModify:durstr,time decryptAES:str,str derivePassword:small,word,word,word,word
`;
const HELM = `
toYaml:any fromYaml:yaml fromYamlArray:yaml toJson:any fromJson:json fromJsonArray:json required:str,any tpl:tpltext,any include:defname,any
`;
const ISTIO = `
annotation:meta,key,any isset:smap,key valueOrDefault:any,any excludeInboundPort:any,portlist includeInboundPorts:containers
kubevirtInterfaces:str excludeInterfaces:str applicationPorts:containers toJSON:smap fromJSON:json structToJSON:any protoToJSON:any
formatDuration:pdur toYaml:any indent:small,text directory:path contains:str,str toLower:str appendMultusNetwork:str,str
omit:smap,key* strdict:str* toJsonMap:smap* mergeMaps:smap* omitNil:any
`;

function parseTable(t) {
  const out = [];
  for (const item of t.split(/\s+/).filter(Boolean)) {
    const [name, args] = item.split(':');
    const kinds = args ? args.split(',') : [];
    const variadic = kinds.length > 0 && kinds[kinds.length - 1].endsWith('*');
    if (variadic) kinds[kinds.length - 1] = kinds[kinds.length - 1].slice(0, -1);
    out.push({ name, kinds, variadic });
  }
  return out;
}
const TABLES = { sprig: parseTable(SPRIG), helm: parseTable(SPRIG + HELM), istio: parseTable(SPRIG + ISTIO) };
// Istio's own functions replace Sprig's of the same name.
for (const set of ['helm', 'istio']) {
  const seen = new Map();
  for (const f of TABLES[set]) seen.set(f.name, f);
  TABLES[set] = [...seen.values()];
}
const SIZED = new Set(['repeat', 'indent', 'nindent', 'until', 'untilStep', 'seq', 'wrap', 'wrapWith', 'chunk', 'mustChunk', 'abbrev', 'abbrevboth', 'trunc', 'derivePassword']);
const MUTATING = new Set(['set', 'unset', 'merge', 'mergeOverwrite', 'mustMerge', 'mustMergeOverwrite', 'dig']);
// Date functions fall back to time.Now() for other types; formatDuration's Go stand-in type has
// another name than Istio's: both get well-typed arguments only.
const NOW_FALLBACK = new Set(['date', 'dateInZone', 'htmlDate', 'htmlDateInZone', 'unixEpoch', 'dateModify', 'mustDateModify', 'formatDuration']);
const ISTIO_ONLY = new Set(parseTable(ISTIO).map((f) => f.name));
const HELM_ONLY = new Set(parseTable(HELM).map((f) => f.name));

const POOLS = {
  word: ['"hello world"', '"HelloWorld"', '"hello_world"', '"hello-world"', '"HTTPServer"', '"fooBar baz"', '"  x  "', '""', '"ABC"', '"a1b2"', '"éa"', '"xml_HTTP-request"', '"__x__"', '"a.b"'],
  sep: ['","', '" "', '""', '"-"', '"::"', '"é"', '"a"', '"\\n"'],
  path: ['"/a/b/c.txt"', '"a/b/"', '"../x/./y"', '""', '"/"', '"."', '"a.tar.gz"', '".hidden"', '"a//b"', '"C:\\\\x"', '"/usr/local/"', '"x/.."'],
  b64: ['"aGVsbG8="', '"aGVsbG8"', '"!!"', '""', '"8J+YgA=="', '"YQ=="', '"Zm9v\\nYmFy"', '"w6k="'],
  b32: ['"NBSWY3DP"', '"NBSWY3DPEE======"', '"bad"', '""', '"MFRGG==="'],
  json: ['"{\\"a\\":1,\\"b\\":[true,null,\\"x\\"]}"', '"[1,2.5,\\"x\\"]"', '"\\"s\\""', '"1e3"', '"12345678901234567890"', '"null"', '"{bad"', '""', '"[]"', '"{}"', '" 42 "', '"{\\"a\\":{\\"b\\":{}}}"', '"tru"', '"[1,]"', '"{\\"k\\":\\"\\\\u00e9\\"}"', '"0.1"', '"-0"'],
  yaml: ['"a: 1\\nb: [x, 2.5]"', '"- a\\n- 1\\n- true"', '"x"', '""', '"a: b: c"', '"{a: 1"', '"- 1\\n- [2, 3]"', '"a: 010\\nb: 0x1F\\nc: 1e3\\nd: yes\\ne: ~"', '"k: |\\n  line1\\n  line2\\n"', '"? complex\\n: key"', '"a: &x 1\\nb: *x"', '"1: one\\n2: two"', '"--- 1\\n--- 2"', '"[1, 2"', '"a:\\n  - b: 1"'],
  re: ['"a+"', '"^a"', '"[0-9]+"', '"\\\\d+"', '"(a)(b)?"', '"(?i)hello"', '"\\\\w+@\\\\w+"', '"["', '"a(b"', '"x*"', '""', '"^$"', '"."', '"(?P<n>\\\\w)"', '"\\\\pL+"', '"a{2,}"', '"\\\\bfoo\\\\b"', '"[[:alpha:]]+"', '"(?s).+"', '"é"', '"a|b"', '"\\\\S+"', '"(a*)*"'],
  ver: ['"1.2.3"', '"v1.2.3"', '"1.2.3-beta.1+build.5"', '"1.2"', '"1"', '"x.y"', '""', '"01.2.3"', '"1.2.3.4"', '"2.0.0-rc1"', '"v0.0.0"', '"1.10.0"'],
  constraint: ['">=1.0"', '"^1.2"', '"~1.2.3"', '"1.x"', '"!=1.2.3"', '">1, <2"', '">=1.0 || <0.5"', '"<= 2.0.0-0"', '"bad"', '"= 1.2.3"', '"*"', '""', '">=1.2.3-0"', '"1.2 - 1.4"'],
  url: ['"http://user:pw@example.com:8080/p/a?q=1&r=x#frag"', '"https://example.com"', '"/relative/path?x=1"', '"mailto:a@b.c"', '"::bad"', '""', '"http://[::1]:80/"', '"http://h/%zz"', '"HTTP://EXAMPLE.com/A%20B"'],
  urlmap: ['(dict "scheme" "https" "host" "h.io" "path" "/x" "query" "a=b")', '(dict "host" "h" "userinfo" "u:p" "fragment" "f")', '(dict)', '(dict "path" "a b" "opaque" "o")'],
  dur: ['95', '"1h2m3s"', '"2h10m5s"', '0', '-5', '"1.5h"', '"bad"', '3600', '86400', '"300ms"', '1e10', '"3d"', '(int64 90061)'],
  durstr: ['"1h"', '"-30m"', '"1.5h"', '"bad"', '"0"', '"24h"'],
  layout: ['"2006-01-02"', '"2006-01-02T15:04:05Z07:00"', '"Jan 2, 2006"', '"15:04"', '"02/01/06 3PM"', '"Monday"', '""', '"2006-01-02 15:04:05.000"'],
  datestr: ['"2021-03-04"', '"2021-03-04T05:06:07Z"', '"Mar 4, 2021"', '"bad"', '""', '"2024-02-29"', '"13:45"'],
  // date functions fall back to time.Now() for other types: only times and integers here
  time: ['(toDate "2006-01-02" "2021-03-04")', '(toDate "2006-01-02T15:04:05Z07:00" "2020-12-31T23:59:59+02:00")', '0', '1600000000', '(int64 1700000000)', '(mustToDate "2006-01-02" "1999-12-31")'],
  zone: ['"UTC"', '"America/New_York"', '"Asia/Kolkata"', '"Bad/Zone"', '""', '"Local"'],
  type: ['"string"', '"int"', '"float64"', '"[]interface {}"', '"map[string]interface {}"', '"bool"', '"int64"', '"*int"', '"nope"'],
  kind: ['"string"', '"int"', '"float64"', '"slice"', '"map"', '"bool"', '"int64"', '"ptr"', '"invalid"'],
  text: ['"line1\\nline2"', '"a b c d e f g h"', '"one\\n\\ntwo\\n"', '""', '"The quick brown fox jumps over the lazy dog"', '"x"', '"  indented\\n\\tline"', '"é è ê"'],
  tpltext: ['"{{ .a }}"', '"x{{ . }}"', '"{{ .missing }}"', '"{{ include \\"d1\\" . }}"', '"{{"', '"plain"', '"{{ .a | upper }}"', '"{{ template \\"d1\\" }}"', '"{{ fail \\"no\\" }}"'],
  defname: ['"d1"', '"d2"', '"nope"'],
  numstr: ['"42"', '"-7"', '"0"', '"1.5"', '"abc"', '""', '" 3"', '"99999999999999999999"', '"0x1F"', '"+5"'],
  portlist: ['"8080"', '"8080,9090"', '"*"', '""', '"15020, 15021"', '"a,b"'],
};

export function genFuncsCase(r, id) {
  const set = r.weighted([[6, 'sprig'], [2.5, 'helm'], [2, 'istio']]);
  const c = { name: `f${id}`, funcs: set };
  const useIstioFixture = set === 'istio' && r.chance(0.45);
  let data;
  if (useIstioFixture) c.fixture = 'istio';
  else {
    data = {
      s: r.pick(DATA_STRINGS),
      n: r.pick(NUMBERS),
      i: r.range(-3, 12),
      f: r.pick([1.5, -2.5, 0.1, 3.0, 1e21, 1e-7]),
      l: randValue(r, 2, { oddKeys: 0.05 }),
      list: [r.pick(DATA_STRINGS), r.range(0, 5), r.pick(DATA_STRINGS)],
      m: { a: r.range(0, 9), b: r.pick(DATA_STRINGS), c: randValue(r, 2) },
      t: r.chance(0.5),
      z: null,
      e: '',
    };
    c.data = data;
    if (r.chance(0.35)) c.dataInt = true;
  }
  if (set === 'helm' && r.chance(0.4)) c.defs = { d1: r.pick(['{{ .a }}', 'd1:{{ . }}', '{{ toYaml . }}', '{{ include "d2" . }}']), d2: r.pick(['{{ .b }}', 'd2', '{{ upper (print .) }}', '{{ include "d1" . }}']) };
  const g = new FuncGen(r, set, useIstioFixture);
  c.template = g.template();
  return c;
}

class FuncGen {
  constructor(r, set, istioFixture) {
    this.r = r;
    this.set = set;
    this.fx = istioFixture;
    this.table = TABLES[set];
  }

  pickFunc() {
    const r = this.r;
    // favour each set's own functions a little
    if (this.set === 'istio' && r.chance(0.35)) return r.pick(this.table.filter((f) => ISTIO_ONLY.has(f.name)));
    if (this.set === 'helm' && r.chance(0.3)) return r.pick(this.table.filter((f) => HELM_ONLY.has(f.name)));
    return r.pick(this.table);
  }

  template() {
    const r = this.r;
    const n = r.weighted([[6, 1], [3, 2], [1, 3]]);
    let s = '';
    for (let i = 0; i < n; i++) {
      if (i) s += r.pick(['\n', '|', ' ']);
      s += this.action();
    }
    return s;
  }

  action() {
    const r = this.r;
    const f = this.pickFunc();
    const call = this.call(f);
    switch (r.weighted([[5, 'plain'], [2, 'json'], [2, 'type'], [2, 'pipe'], [2, 'chain'], [1, 'var'], [1, 'cond']])) {
      case 'plain':
        return `{{ ${call.text} }}`;
      case 'json':
        return `{{ ${call.text} | ${this.set === 'istio' && r.chance(0.3) ? 'toJson' : r.pick(['toJson', 'toRawJson', 'toJson'])} }}`;
      case 'type':
        return `{{ $r := ${call.text} }}{{ printf "%T %v" $r $r }}`;
      case 'pipe':
        return `{{ ${call.piped} }}`;
      case 'chain': {
        let g = this.pickFunc();
        // a piped value of another type makes the date functions print time.Now()
        while (NOW_FALLBACK.has(g.name)) g = this.pickFunc();
        const second = this.call(g, true);
        return `{{ ${call.text} | ${second.text} }}`;
      }
      case 'var':
        return `{{ $x := ${call.text} }}{{ range $i, $v := $x }}[{{ $i }}={{ $v }}]{{ else }}{{ $x }}{{ end }}`;
      case 'cond':
        return `{{ if ${call.text} }}yes{{ else }}no{{ end }}`;
    }
  }

  /** A call of f: {text, piped}. With chained, the last argument is left out (it comes from the pipe). */
  call(f, chained = false) {
    const r = this.r;
    let kinds = [...f.kinds];
    if (f.variadic) {
      const last = kinds.pop();
      const extra = r.weighted([[2, 0], [4, 1], [3, 2], [1, 3]]);
      for (let i = 0; i < extra; i++) kinds.push(last);
    }
    // A map changed in place and then printed through itself would be a cycle, which kills Go (stack
    // overflow in fmt): functions that change maps get fresh dicts only.
    this.fresh = MUTATING.has(f.name);
    // no huge sizes where Go would allocate them
    this.small = SIZED.has(f.name);
    let args = kinds.map((k) => this.arg(k));
    this.fresh = false;
    // wrong arity and wrong types, now and then
    if (r.chance(0.04)) args.push(this.arg('any'));
    else if (r.chance(0.04) && args.length) args.pop();
    if (r.chance(0.1) && args.length && !NOW_FALLBACK.has(f.name)) args[r.int(args.length)] = this.arg(r.chance(0.3) ? 'nil' : 'any');
    if (chained && args.length) args = args.slice(0, -1);
    // Go map order is random: keys only sorted
    const name = f.name === 'sortedkeys' ? 'keys' : f.name;
    const text = [name, ...args].join(' ');
    let piped = text;
    if (args.length && !chained) piped = `${args[args.length - 1]} | ${[name, ...args.slice(0, -1)].join(' ')}`;
    if (name === 'keys') return { text: `${text} | sortAlpha`, piped: `${piped} | sortAlpha` };
    return { text, piped };
  }

  arg(kind) {
    const r = this.r;
    const fx = this.fx;
    if (POOLS[kind] && r.chance(0.9)) return r.pick(POOLS[kind]);
    switch (kind) {
      case 'str':
        return r.weighted([[6, () => r.pick(STRING_LITS)], [fx ? 0 : 2, () => r.pick(['.s', '.e', '.m.b', '(index .list 0)'])], [1, () => goQuote(r.pick(DATA_STRINGS))], [0.3, () => r.pick(['1', '1.5', 'nil', 'true', '.n'])]])();
      case 'key':
        return r.pick(['"a"', '"b"', '"c"', '"x"', '""', '"a.b"', '"é"', '"missing"', '"name"']);
      case 'int':
        return r.weighted([[6, () => String(r.range(-3, 12))], [1, () => r.pick(['-1', '100', '9223372036854775807', '0x10', "'a'"])], [1, () => r.pick(['1.5', '"3"', '2.0', 'nil', '"x"'])], [fx ? 0 : 1, () => r.pick(['.i', '.n', '.f'])]])();
      case 'small':
        return r.weighted([[8, () => String(r.range(0, 6))], [1, () => r.pick(['-1', '-3', '1.5', '"2"', '0'])], [fx ? 0 : 1, () => '.i']])();
      case 'num':
        if (this.small) return String(r.range(-3, 8));
        return r.weighted([
          [4, () => String(r.range(-5, 20))],
          [2, () => r.pick(['1.5', '-2.5', '0.1', '3.0', '1e3', '1e21', '2.675', '-0.5', '0.125'])],
          [1, () => r.pick(['"7"', '"1.5"', '"abc"', '""', 'nil', 'true', '"1e3"', '"0x1F"', '" 4"'])],
          [0.5, () => r.pick(['9223372036854775807', '-9223372036854775808', '(int64 5)', '(float64 2)', '(int 3)', '1e300', '(float64 "NaN")', '(float64 "+Inf")'])],
          [fx ? 0 : 2, () => r.pick(['.n', '.i', '.f', '.s', '.z', '(index .list 1)'])],
        ])();
      case 'bool':
        return r.pick(['true', 'false', 'true', '.t', '1', '""', 'nil']).replace('.t', fx ? 'true' : '.t');
      case 'list':
        return r.weighted([
          [4, () => `(list ${Array.from({ length: r.range(0, 4) }, () => this.scalar()).join(' ')})`],
          [fx ? 0 : 2, () => r.pick(['.list', '.l', '.m.c'])],
          [1, () => r.pick(['(splitList "," "a,b,,c")', '(list 1 2 2 1)', '(list "b" "a" "c" "a")', '(list (list 1) (dict "a" 1) nil)', '(tuple)', '(until 4)', '(list "")', '(list 3 1.5 "x" true nil)'])],
          [0.5, () => r.pick(['"abc"', 'nil', '(dict "a" 1)', '5'])],
        ])();
      case 'map':
        return r.weighted([
          [4, () => `(dict ${Array.from({ length: r.range(0, 3) }, () => `${this.arg('key')} ${this.scalar()}`).join(' ')})`],
          [fx || this.fresh ? 0 : 2, () => r.pick(['.m', '.', '.l', '(dict "a" (dict "b" 1))'])],
          [0.5, () => r.pick(['nil', '(list 1)', '"x"', '(dict "a" (list 1 2) "b" (dict "c" nil))'])],
        ])();
      case 'kv':
        return `${this.arg('key')} ${this.scalar()}`;
      case 'smap':
        return fx ? r.pick(['.Annotations', '.NilAnnotations', '.ObjectMeta.Labels', '(strdict "a" "1" "b" "2")', '(strdict)', '(dict "a" "1")']) : r.pick(['(strdict "a" "1" "b" "2")', '(strdict "k" "v")', '(strdict)', '.m', 'nil']);
      case 'meta':
        return fx ? r.pick(['.ObjectMeta', '.ObjectMeta', '.EmptyMeta', '.Annotations', 'nil']) : r.pick(['.m', 'nil', '"x"']);
      case 'containers':
        return fx ? r.pick(['.Containers', '.NoContainers', 'nil', '(list)']) : r.pick(['.list', 'nil']);
      case 'pdur':
        return fx ? r.pick(['.DrainDuration', '.ShortDuration', '.NilDuration', 'nil']) : 'nil';
      case 'nil':
        return 'nil';
      case 'any':
      default:
        return r.weighted([
          [3, () => this.scalar()],
          [1, () => this.arg('list')],
          [1, () => this.arg('map')],
          [fx ? 0 : 2, () => r.pick(this.small ? ['.s', '.i', '.t', '.z', '.e'] : this.fresh ? ['.s', '.n', '.i', '.f', '.t', '.z', '.e'] : ['.s', '.n', '.i', '.f', '.l', '.list', '.m', '.t', '.z', '.e', '.missing', '.m.c'])],
          // the Go tool's Istio structs are stand-ins with fewer fields: only their maps print alike
          [fx ? 2 : 0, () => r.pick(['.Annotations', '.NilAnnotations', '.ObjectMeta.Labels', '.ObjectMeta.Name', '.NilDuration'])],
        ])();
    }
  }

  scalar() {
    const r = this.r;
    return r.weighted([
      [4, () => r.pick(STRING_LITS)],
      [3, () => String(r.range(-3, 10))],
      [1.5, () => r.pick(this.small ? ['1.5', '-2.5', '0.0', '3.0', '0.1', '1e-7'] : ['1.5', '-2.5', '0.0', '1e21', '3.0', '0.1', '1e-7', '123456789.0'])],
      [1, () => r.pick(['true', 'false', 'nil'])],
      [this.small ? 0 : 0.3, () => r.pick(['9223372036854775807', '(int64 -4)', '(float64 5)', '(toString 5)'])],
    ])();
  }
}
