// Writes the yaml vector inputs (toyaml-*.jsonl, fromyaml.jsonl) of this folder. Run it with node after
// editing the lists, then `npm run vectors` to get Go's expected outputs.
import { fileURLToPath } from 'node:url';
import { writeCases } from '../../helpers/write-cases.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

const write = (file, cases) => writeCases(here + file, cases);

const TO_YAML = '{{ toYaml .v }}';

function toYamlCase(name, v, extra = {}) {
  return { name, template: TO_YAML, data: { v }, funcs: 'helm', ...extra };
}

// Strings in every class of yaml.v2's quoting decision.
const strings = [
  // resolve table words
  'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'yes', 'Yes', 'YES', 'yEs', 'no', 'No', 'NO',
  'on', 'On', 'ON', 'off', 'Off', 'OFF', 'y', 'Y', 'n', 'N', 'null', 'Null', 'NULL', 'nULL', '~', '',
  '<<', '=',
  // numbers
  '1', '-1', '+1', '0', '-0', '007', '08', '09', '0x1F', '0X1F', '0x', '0xG', '0o17', '0O17', '0b101', '-0b101', '0b102',
  '1_000', '_1', '1_', '1__0', '1e3', '1E3', '1e+3', '1e', 'e3', '1.5', '-1.5', '.5', '+.5', '1.', '.', '..5',
  '.inf', '.Inf', '.INF', '-.inf', '+.inf', '.nan', '.NaN', 'inf', 'nan', 'Infinity', '1e400', '.5e400', '.e1',
  '99999999999999999999', '18446744073709551615', '18446744073709551616', '9223372036854775808', '-9223372036854775809',
  '.5_5', '1_0.5', '0.1.2', '1.2.3', '1,000', '1 000', '$1', '1st', 'v1', 'v1.2.3', '1-2', '0-0',
  // base 60
  '12:30', '12:30:45', '-1:20', '190:20:30.15', '1:2:3', '12:60', '1_2:30', 'a:30', '12:3a',
  // timestamps
  '2001-12-14', '2001-12-14T21:59:43.10Z', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10', '2001-12-14T21:59:43',
  '2001-02-30', '2000-02-29', '1999-02-29', '2001-1-2', '2001-12-14   21:59:43', '2001-12-14T21:59:43Z', '2001-13-01',
  '2001-12-14T25:00:00Z', '2001-12-14T21:59:43,5Z', '2001-12-14T21:59:43+0500', '20011-12-14', '2001-12', '2001-12-14x',
  // indicators
  '- a', '-a', '-', '--', '---', '--- a', '...', '..', '....', '? a', '?a', '?', ': a', ':a', ':', 'a: b', 'a:b', 'a:', 'a::',
  'a #b', 'a#b', '#a', '#', ',a', 'a,b', '[a]', 'a[b]', ']', '{a}', 'a{b}', '}', '&a', 'a&b', '*a', 'a*', '!a', 'a!', '|a', 'a|', '>a', 'a>',
  "'a", "a'b", '"a', 'a"b', '%a', 'a%', '@a', 'a@', '`a', 'a`', '\\', 'a\\b', "'", '"', 'a: ', 'a #', '-- a', '- ', 'a -',
  // spaces and tabs
  ' a', 'a ', ' ', '  ', 'a  b', '\t', 'a\tb', 'tab\t', '\ta', 'a \t b',
  // unicode and control characters
  'été', '日本語', '😀', 'a😀b', '\u0085', 'a\u0085b', '\u00a0', 'a\u00a0b', '\u2028', 'a\u2028b', '\u2029', '\ufeffab', 'a\ufeffb',
  '\u0001', 'a\u0000b', '\u001b', 'a\u0007b', '\u0008', '\u000b', '\u000c', '\u007f', '\u0080', '\u009f', '\ufffe', '\uffff', '\ufffd',
  '\u00ad', '\u200b', '\ue000', '\r', 'a\rb', 'a\r\nb', '<a href="x">&amp;</a>', 'Null ', 'NULL\n',
];

const multiline = [
  'a\nb', 'a\nb\n', 'a\nb\n\n', '\n', '\n\n', '\na', ' a\nb', 'a\n b', 'a \nb', 'a\n\nb', 'a\nb ', 'a\n\tb', '\ta\nb',
  'a\u2028b\nc', 'line1\nline2\nline3\n', 'a\n\n\n', 'x: 1\ny: 2\n', '- a\n- b', '#!/bin/sh\necho hi\n', 'a\n \nb',
  'a\n😀', 'trailing\n ', '\n a', 'a\u0085\nb', '"quoted"\n', 'tab\there\nnext',
];

const words = (n, w = 'word') => Array.from({ length: n }, (_, i) => w + i).join(' ');
const longs = {
  'long-words': words(30),
  'long-exactly-80': 'x'.repeat(79) + ' y',
  'long-81-then-space': 'x'.repeat(81) + ' yy zz',
  'long-no-spaces': 'y'.repeat(200),
  'long-double-spaces': words(12) + '  ' + words(12),
  'long-trailing-space': words(25) + ' ',
  'long-needs-double': '\t' + words(25),
  'long-needs-single': '- ' + words(25),
  'long-double-spaces-in-double': '\t' + words(12).replace(/ /g, '  '),
  'long-unicode': Array.from({ length: 30 }, () => 'été').join(' '),
  'long-multiline': words(25) + '\n' + words(25),
  'long-numbers': Array.from({ length: 40 }, (_, i) => String(i)).join(' '),
  'long-url-list': Array.from({ length: 8 }, (_, i) => `https://example.com/path/${i}/resource?x=${i}`).join(','),
  'long-json': JSON.stringify({ a: words(10), b: [1, 2, 3], c: { d: 'e' } }),
  'long-quote-in-single': "- it's " + words(20),
};

const numbers = [
  ['zero', 0], ['one', 1], ['minus-one', -1], ['one-half', 1.5], ['pi', 3.14159], ['tenth', 0.1], ['e6', 1e6], ['million-ish', 1234567],
  ['million-frac', 1234567.5], ['e20', 1e20], ['e21', 1e21], ['e22', 1.5e22], ['micro', 1e-6], ['e-7', 1e-7], ['e-5', 2.5e-5],
  ['big-float', 123456789012345680000], ['2^53+', 9007199254740993], ['max', 1.7976931348623157e308], ['min-sub', 5e-324],
  ['hundred', 100], ['e100', 1e100], ['neg-small', -0.000123], ['12345678.9', 12345678.9], ['1e19', 1e19], ['1.8e19', 1.8e19],
  ['2e19', 2e19], ['9.2e18', 9.2e18], ['neg-1e19', -1e19], ['0.0001', 0.0001], ['0.00001', 0.00001],
];

const keyOrder = [
  { a10: 1, a9: 2, a2: 3, b: 4, B: 5, _x: 6, 1: 7, 10: 8, 2: 9, a01: 10, a1: 11, 'é': 12, Z: 13, z: 14 },
  { 'a-b': 1, a_b: 2, 'a.b': 3, '': 4, ' ': 5, x1y: 6, x10y: 10, 'x1.5': 11 },
  { item2: 1, item10: 2, item1: 3, Item1: 4, item: 5, items: 6, 'item-1': 7, item_1: 8 },
  { v1beta1: 1, v1alpha1: 2, v1: 3, v2: 4, v1beta2: 6 },
  { '日本': 1, '中文': 2, abc: 3, ABC: 4, '123': 5, '١٢': 6, '!': 7, '~': 8, '[': 9 },
  { '007': 1, '7': 2, '07': 3, '70': 4, '0': 5, '00': 6 },
];

const structures = {
  'nested-map': { a: { b: { c: 'd' } } },
  'list-of-maps': [{ name: 'a', value: 1 }, { name: 'b', value: 2 }],
  'map-with-list': { containers: [{ name: 'c', args: ['--a', '--b'], env: [] }], volumes: {} },
  'list-of-lists': [[1, 2], [3], [], [[4]]],
  'empty-map': {},
  'empty-list': [],
  'list-of-empty': [[], {}, null, ''],
  'map-of-empty': { a: [], b: {}, c: null, d: '' },
  'nested-empty-in-list': [{ a: [] }, { b: {} }],
  'deep': { a: [{ b: [{ c: [{ d: 'e' }] }] }] },
  'list-multiline': ['a\nb', 'c'],
  'map-multiline': { script: '#!/bin/sh\nset -e\necho "$1"\n', other: 'x' },
  'nested-multiline': { a: { b: ['x\ny\n', { c: 'p\nq' }] } },
  'key-needs-quotes': { true: 1, 1: 2, null: 3, '~': 4, 'a: b': 5, '- x': 6, '': 7, 'y': 8, '1.5': 9, '0x1': 10 },
  'long-key': { ['k'.repeat(130)]: 'v', short: 1 },
  'key-128-bytes': { ['k'.repeat(128)]: 'v' },
  'key-129-bytes': { ['k'.repeat(129)]: 'v' },
  'long-key-map-value': { ['k'.repeat(130)]: { a: 1 } },
  'long-key-list-value': { ['k'.repeat(130)]: [1, 2] },
  'multiline-key': { 'a\nb': 1 },
  'multiline-key-trailing': { 'a\n': 1 },
  'unicode-key-long': { ['é'.repeat(65)]: 1 },
  'key-1022-chars': { ['k'.repeat(1022)]: 1 },
  'key-1023-chars': { ['k'.repeat(1023)]: 1 },
  'key-escapes-over-1024': { ['<'.repeat(171)]: 1 },
  'key-with-nel': { 'a\u0085b': 1 },
  'value-with-nel': { a: 'x \u0085 y', b: '\u0085\u0085' },
  'value-with-nel-marker': { c: 'p\u0085--- q' },
  'key-with-tab': { 'a\tb': 1 },
  'long-value-indented': { a: { b: { c: words(25) } } },
  'long-in-list': [words(25)],
  'long-in-nested-list': [[words(25)]],
  'bools-nulls': { t: true, f: false, n: null },
  'mixed-list': [1, 'two', 3.5, true, null, { a: 1 }, ['x']],
  'html': { h: '<b>&</b>' },
  'pod': {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'p', labels: { app: 'x', 'app.kubernetes.io/name': 'y' }, annotations: { 'sidecar.istio.io/inject': 'true' } },
    spec: { containers: [{ name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.20.0', ports: [{ containerPort: 15090, protocol: 'TCP', name: 'http-envoy-prom' }], resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '100m', memory: '128Mi' } } }] },
  },
  'root-string': 'hello',
  'root-multiline': 'a\nb',
  'root-null': null,
  'root-true': true,
  'root-number': 42,
};

const toYamlCases = [];
strings.forEach((s, i) => toYamlCases.push(toYamlCase(`str-${i}-${JSON.stringify(s).slice(1, -1).slice(0, 20)}`, s)));
strings.slice(0, 60).forEach((s, i) => toYamlCases.push(toYamlCase(`key-${i}-${JSON.stringify(s).slice(1, -1).slice(0, 20)}`, { [s]: s })));
multiline.forEach((s, i) => {
  toYamlCases.push(toYamlCase(`ml-${i}`, s));
  toYamlCases.push(toYamlCase(`ml-in-map-${i}`, { k: s }));
  toYamlCases.push(toYamlCase(`ml-in-list-${i}`, [s]));
});
for (const [n, s] of Object.entries(longs)) {
  toYamlCases.push(toYamlCase(n, s));
  toYamlCases.push(toYamlCase(n + '-in-map', { key: s }));
  toYamlCases.push(toYamlCase(n + '-in-list', { a: [s] }));
}
for (const [n, v] of numbers) {
  toYamlCases.push(toYamlCase(`num-${n}`, v));
  toYamlCases.push(toYamlCase(`num-int-${n}`, { x: v }, { dataInt: true }));
}
keyOrder.forEach((m, i) => toYamlCases.push(toYamlCase(`keys-${i}`, m)));
for (const [n, v] of Object.entries(structures)) toYamlCases.push(toYamlCase(n, v));
// trimming: Helm drops exactly one trailing newline
toYamlCases.push({ name: 'trim-keep-plus', template: '[{{ toYaml .v }}]', data: { v: 'a\n\n' }, funcs: 'helm' });
toYamlCases.push({ name: 'trim-map', template: '[{{ toYaml .v }}]', data: { v: { a: 1 } }, funcs: 'helm' });
toYamlCases.push({ name: 'indent-pipeline', template: 'x:\n{{ toYaml .v | indent 2 }}', data: { v: { a: [1, 2], b: 'c' } }, funcs: 'helm' });
toYamlCases.push({ name: 'nindent-pipeline', template: 'x:{{ toYaml .v | nindent 4 }}', data: { v: [{ a: 1 }] }, funcs: 'helm' });
toYamlCases.push({ name: 'missing-value', template: '[{{ toYaml .nope }}]', data: { v: 1 }, funcs: 'helm' });
toYamlCases.push({ name: 'int-literal', template: '{{ toYaml 3 }}', data: {}, funcs: 'helm' });
toYamlCases.push({ name: 'float-literal', template: '{{ toYaml 3.0 }}', data: {}, funcs: 'helm' });
toYamlCases.push({ name: 'dict-literal', template: '{{ toYaml (dict "b" 1 "a" (list 1 "x" 2.5)) }}', data: {}, funcs: 'helm' });

write('toyaml.jsonl', toYamlCases);

// ---------- fromYaml / fromYamlArray / fromJson / fromJsonArray ----------

const FROM_YAML_JSON = '{{ toJson (fromYaml .s) }}';
const FROM_YAML_YAML = '{{ toYaml (fromYaml .s) }}';
const fromYamlDocs = [
  'a: 1', 'a: yes', 'a: on', 'a: 1.0', 'a: 0x1F', 'a: 0o17', 'a: 017', 'a: 1_000', 'a: 2001-12-14', 'a: 2001-12-14T21:59:43.10Z',
  'a: ~', 'a: null', 'a:', 'a: [1, 2]', 'a: {b: c}', 'a: "1"', "a: '1'", 'a: !!str 1', 'a: !!int "1"', 'a: !!float 1',
  'a: 1e3', 'a: 1.5e+3', 'a: -.5', 'a: 12:30', 'a: 99999999999999999999', 'a: 18446744073709551615', 'a: 9223372036854775807',
  'a: 0b101', 'a: +1', 'a: 1e400',
  'a: &x 1\nb: *x', 'base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3', 'a: 1\na: 2', '"<<": {x: 1}', 'a: |\n  line1\n  line2\n', 'a: >\n  folded\n  text\n',
  'a: |-\n  keep\n\n', 'a: "esc\\tape\\u00e9"', 'a: \'it\'\'s\'', '1: one', 'true: t', '1.5: x', '0x10: hex', '~: n', 'a: 1\n---\nb: 2',
  '---\na: 1\n...\n', '# only a comment', '', 'null', '- 1\n- 2', 'just a string', '42', 'true',
  'a:\n  b:\n    c: [1, {d: e}]', 'list:\n- a\n- b', 'k: "multi\n  line"', 'k: plain\n  continued', 'a: !custom x', 'a: !!binary aGVsbG8=',
  'a: .inf', 'a: .nan', 'a: -.inf', 'a: [1, .inf]', '? complex\n: key', 'a: "\\U0001F600"', 'a: 😀', 'a: 3.0', 'a: 1.0e+10', 'a: -0',
];
const badYamlDocs = [
  '{', '[', 'a: b: c', 'a:\n  - 1\n - 2', 'a: "unterminated', "a: 'x", '\tA: 1', 'a: *unknown', 'a: &x\n  b: *x\n  c: [*x]', '- a\nb: c',
  'a: [1, 2', 'a: {b', ': x', 'a: b\n c', '[1, 2]: x', '{a: 1}: x', 'null: x', 'a: !!int x', 'a: !!float x', '@x', '`x', '%YAML 2.0\n---\na: 1',
  'a: b\n\tc: d', 'a:\n- 1\n  - 2', 'key: value\n  bad: indent', '---\n- a\n---\n- b', 'a: 1\nb',
];

const fromCases = [];
fromYamlDocs.forEach((s, i) => {
  fromCases.push({ name: `fy-json-${i}`, template: FROM_YAML_JSON, data: { s }, funcs: 'helm' });
  fromCases.push({ name: `fy-yaml-${i}`, template: FROM_YAML_YAML, data: { s }, funcs: 'helm' });
});
badYamlDocs.forEach((s, i) => {
  fromCases.push({ name: `fy-err-${i}`, template: '{{ (fromYaml .s).Error }}', data: { s }, funcs: 'helm' });
});
const arrayDocs = ['- 1\n- 2', '[a, b]', '- a: 1\n- [x]', '', 'null', 'a: 1', 'x', '- yes\n- 0x10\n- 1.5', '[1, 2', '- &a x\n- *a'];
arrayDocs.forEach((s, i) => {
  fromCases.push({ name: `fya-${i}`, template: '{{ toJson (fromYamlArray .s) }}', data: { s }, funcs: 'helm' });
});
write('fromyaml.jsonl', fromCases);

// Round trips: toYaml, then fromYaml, then toYaml again.
const rt = [];
const rtValues = [
  ...strings.filter((s) => !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffe\uffff]/.test(s)).slice(0, 120),
  ...multiline, ...Object.values(longs),
].filter((s) => !/[\u2028\u2029\u0085]/.test(s)); // raw YAML 1.1 line breaks: a known gap of fromYaml
rtValues.forEach((s, i) => {
  rt.push({ name: `rt-${i}`, template: '{{ $y := toYaml (dict "k" .v) }}{{ $m := fromYaml $y }}{{ toJson $m }}|{{ toYaml $m }}', data: { v: s }, funcs: 'helm' });
});
Object.entries(structures).forEach(([n, v]) => {
  rt.push({ name: `rt-${n}`, template: '{{ $m := fromYaml (toYaml (dict "k" .v)) }}{{ toJson $m }}|{{ toYaml $m }}', data: { v }, funcs: 'helm' });
});
write('roundtrip.jsonl', rt);
