// (c) toYaml / fromYaml / toJson of random nested values: strings YAML would read as something else,
// multi-line and long strings, numbers as strings, big and special floats, odd keys; and fromYaml of
// random YAML text in many styles.

import { DATA_STRINGS, NUMBERS, ODD_KEYS, IDENT_KEYS, randValue } from './pools.mjs';

const EXTRA_STRINGS = [
  'a'.repeat(79), 'a'.repeat(80), 'a'.repeat(81), 'word '.repeat(17) + 'x', 'x '.repeat(50), 'trailing space at fold boundary '.repeat(3) + ' ',
  'line one\nline two\n', 'line one\nline two', 'ends with two\n\n', ' leading space\nsecond', 'tab\tinside\nnext', 'a\n\n\nb', 'x\n ',
  'café\nnaïve', '😀\n😀', 'json: {"a": 1}', '[1, 2]', '{a: 1}', 'key: value\nother: 2', '- item\n- item2', '# comment', 'a # not comment',
  '0755', '0o755', '1e+21', '-.5', '+12', '1_000_000', '0b1010', '0x_1F', '12e', '1.2.3', '2023-01-01', '2023-01-01T00:00:00Z', '12:00', '1:2:3',
  'TRUE', 'On', 'OFF', 'Yes', 'NO', 'y', 'Y', 'n', 'NULL', 'Nil', 'none', '=', '<<', '!!str', '&anchor', '*alias', '%TAG', '@', '`', '|', '>',
  '\u0000', '\u001b[0m', '\u00ff', '\u0100', '\ud7ff', '\ue000', '\ufffd', '\u200b', '\ufeffbom', 'a\u2029b', '\u0085x', 'x\u0085',
];
const ALL_STRINGS = [...DATA_STRINGS, ...EXTRA_STRINGS];
const KEYS = [...IDENT_KEYS, ...ODD_KEYS, 'Z', 'aa', 'a_b', 'A', '10', '2', 'k'.repeat(30), '😀', 'b\nc', ' x', 'on', 'y', '-', '? q', '[k]', 'key: v'];

function yv(r, depth) {
  switch (r.weighted([[5, 'str'], [3, 'num'], [1, 'bool'], [0.7, 'null'], [depth > 0 ? 2.5 : 0, 'list'], [depth > 0 ? 3 : 0, 'map']])) {
    case 'str':
      return r.pick(ALL_STRINGS);
    case 'num':
      return r.chance(0.4) ? r.range(-3, 1000) : r.pick([...NUMBERS, 1e15, 1e16, 123456789012345680000, 0.000001, 1e-6, 1.0000001, 2.5e-8, -1e21, 100000, 1234567, 12345678.9]);
    case 'bool':
      return r.chance(0.5);
    case 'null':
      return null;
    case 'list':
      return Array.from({ length: r.weighted([[1, 0], [3, 1], [3, 2], [2, 3]]) }, () => yv(r, depth - 1));
    case 'map': {
      const o = {};
      const n = r.weighted([[1, 0], [3, 1], [3, 2], [2, 4]]);
      for (let i = 0; i < n; i++) o[r.pick(KEYS)] = yv(r, depth - 1);
      return o;
    }
  }
}

// Random YAML text: block and flow styles, quoting, anchors, comments, block scalars, documents.
function ytext(r, depth, indent = '') {
  const scalar = () =>
    r.weighted([
      [4, () => r.pick(['a', 'b c', '1', '1.5', '-2', '0x1F', '0o17', '017', '1e3', 'true', 'no', 'on', '~', 'null', '', '2020-01-02', '.inf', '.NaN', '12:30', '+1', '1_000', 'é', "'x'", '"y"', '"esc\\n\\t\\u00e9\\x41"', "'it''s'", '"\\U0001F600"', '!!str 1', '!!int "3"', '!!float 1', '0b101', '9223372036854775808', '-0', '.5', '5.'])],
      [1, () => JSON.stringify(r.pick(ALL_STRINGS))],
    ])();
  if (depth <= 0) return scalar();
  switch (r.weighted([[3, 'scalar'], [2, 'bmap'], [2, 'bseq'], [1, 'flow'], [0.6, 'block']])) {
    case 'scalar':
      return scalar();
    case 'flow':
      return r.pick(['[1, 2, x]', '{a: 1, b: [x, y]}', '[]', '{}', '[a, {b: c}]', '{a: 1, a: 2}', '[1, 2', '{"q": "r", ? k : v}']);
    case 'block':
      return r.pick(['|\n' + indent + '  line1\n' + indent + '  line2\n', '>\n' + indent + '  folded\n' + indent + '  text\n', '|-\n' + indent + '  x\n', '|+\n' + indent + '  keep\n\n', '>-\n' + indent + '  a\n\n' + indent + '  b\n']);
    case 'bmap': {
      let s = '\n';
      const n = r.range(1, 3);
      for (let i = 0; i < n; i++) {
        const k = r.pick(['a', 'b', 'c', '1', 'true', '"q k"', "'s'", 'null', '~', '? x', '<<', 'y', 'x y', 'dup', 'dup']);
        const v = ytext(r, depth - 1, indent + '  ');
        s += `${indent}${k}:${v.startsWith('\n') ? '' : ' '}${v}${v.endsWith('\n') ? '' : '\n'}`;
        if (r.chance(0.1)) s += `${indent}# comment\n`;
      }
      return s;
    }
    case 'bseq': {
      let s = '\n';
      const n = r.range(1, 3);
      for (let i = 0; i < n; i++) {
        const v = ytext(r, depth - 1, indent + '  ');
        s += `${indent}-${v.startsWith('\n') ? '' : ' '}${v}${v.endsWith('\n') ? '' : '\n'}`;
      }
      return s;
    }
  }
}

function yamlDoc(r) {
  let t = ytext(r, r.range(0, 3));
  if (t.startsWith('\n')) t = t.slice(1);
  if (r.chance(0.1)) t = '---\n' + t;
  if (r.chance(0.05)) t += (t.endsWith('\n') ? '' : '\n') + '---\nsecond: doc\n';
  if (r.chance(0.05)) t = 'a: &x {k: v}\nb: *x\nc:\n  <<: *x\n  d: 1\n';
  if (r.chance(0.05)) t = t.replace(/\n/g, '\r\n');
  if (r.chance(0.04)) t = '\t' + t;
  return t;
}

export function genYamlCase(r, id) {
  const c = { name: `y${id}`, funcs: r.weighted([[6, 'helm'], [2, 'istio'], [2, 'sprig']]) };
  const v = yv(r, r.range(1, 4));
  const doc = yamlDoc(r);
  c.data = { v, doc, j: JSON.stringify(yv(r, 2)) };
  if (r.chance(0.4)) c.dataInt = true;
  const helm = [
    '{{ toYaml .v }}', '{{ toYaml .v }}', '{{ toYaml . }}', '{{ .v | toYaml | indent 2 }}', '{{ .v | toYaml | nindent 4 }}', 'k:\n{{ toYaml .v | indent 2 }}',
    '{{ toYaml .v | fromYaml | toJson }}', '{{ toJson .v }}', '{{ toJson .v | fromJson | toYaml }}', '{{ fromYaml .doc | toJson }}', '{{ fromYaml .doc | toYaml }}',
    '{{ fromYamlArray .doc | toJson }}', '{{ fromJson .j | toYaml }}', '{{ fromJsonArray .j | toJson }}', '{{ toYaml (list .v (dict "k" .v)) }}',
    '{{ toYaml (dict "nan" (float64 "NaN")) }}', '{{ toYaml (dict "inf" (float64 "-Inf") "v" .v) }}', '{{ toYaml (dict "big" 9223372036854775807 "f" 1e21 "i" (int64 -5) "u" (float64 1e-7)) }}',
    '{{ toYaml (fromYaml .doc) }}', '{{ (fromYaml .doc).a | toYaml }}', '{{ toYaml (toString .v) }}', '{{ .v | toYaml | fromYamlArray | toJson }}', '{{ toYaml (list) }}{{ toYaml (dict) }}{{ toYaml nil }}',
    '{{ toYaml (dict .doc 1) }}', '{{ toYaml (fromJson .j) | fromYaml | toYaml }}',
  ];
  const istio = ['{{ toYaml .v }}', '{{ toYaml . }}', '{{ .v | toYaml | indent 2 }}', '{{ toJson .v }}', '{{ fromJSON .j | toYaml }}', '{{ toYaml (fromJSON .j) }}', '{{ toJSON (strdict "k" (toYaml .v)) }}', '{{ toPrettyJson .v }}', '{{ toYaml (dict "nan" (float64 "NaN")) }}'];
  const sprig = ['{{ toJson .v }}', '{{ toPrettyJson .v }}', '{{ toRawJson .v }}', '{{ fromJson .j | toJson }}', '{{ mustFromJson .j | toPrettyJson }}', '{{ toJson (fromJson .doc) }}', '{{ toJson (dict "f" (float64 "NaN")) }}', '{{ toJson (list 1.0 1e21 1e-7 100000000.0 -0.0 (int64 3)) }}', '{{ toJson .j }}'];
  const pool = c.funcs === 'helm' ? helm : c.funcs === 'istio' ? istio : sprig;
  c.template = r.pick(pool);
  if (r.chance(0.15)) c.template += '\n' + r.pick(pool);
  return c;
}
