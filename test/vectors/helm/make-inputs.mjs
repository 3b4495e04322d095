// Writes the helm vector inputs (funcs.jsonl, json.jsonl) of this folder. Run it with node after
// editing, then `npm run vectors` for Go's expected outputs.
import { fileURLToPath } from 'node:url';
import { writeCases } from '../../helpers/write-cases.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

const write = (file, cases) => writeCases(here + file, cases.map((c) => ({ ...c, funcs: 'helm' })));

const values = { name: 'app', replicas: 3, labels: { app: 'x', tier: 'web' }, empty: '', zero: 0, list: [1, 2], nested: { a: { b: 'deep' } } };

const funcs = [
  // include
  { name: 'include-basic', template: '{{ include "t" . }}', defs: { t: 'name={{ .name }}' }, data: values },
  { name: 'include-pipe-indent', template: 'x:\n{{ include "t" . | indent 2 }}', defs: { t: 'a: 1\nb: {{ .name }}' }, data: values },
  { name: 'include-nindent', template: 'x:{{- include "t" . | nindent 2 }}', defs: { t: 'a: 1' }, data: values },
  { name: 'include-define-in-main', template: '{{ define "d" }}[{{ . }}]{{ end }}{{ include "d" .name }}', data: values },
  { name: 'include-missing', template: '{{ include "nope" . }}', data: values },
  { name: 'include-nil-data', template: '{{ include "t" nil }}', defs: { t: '[{{ . }}]' }, data: values },
  { name: 'include-dict-data', template: '{{ include "t" (dict "x" 1 "y" "z") }}', defs: { t: '{{ .x }}-{{ .y }}' }, data: values },
  { name: 'include-error-inside', template: '{{ include "t" . }}', defs: { t: '{{ fail "boom" }}' }, data: values },
  { name: 'include-exec-error-inside', template: 'a{{ include "t" . }}b', defs: { t: '{{ index .list 5 }}' }, data: values },
  { name: 'include-nested', template: '{{ include "outer" . }}', defs: { outer: '<{{ include "inner" .labels }}>', inner: '{{ .app }}' }, data: values },
  { name: 'include-recursive-bounded', template: '{{ include "count" 3 }}', defs: { count: '{{ . }}{{ if gt . 0 }},{{ include "count" (sub . 1) }}{{ end }}' }, data: values },
  { name: 'include-wrong-name-type', template: '{{ include 1 . }}', data: values },
  { name: 'include-too-few-args', template: '{{ include "t" }}', defs: { t: 'x' }, data: values },
  { name: 'include-to-var', template: '{{ $x := include "t" . }}{{ $x | upper }}', defs: { t: 'abc' }, data: values },
  { name: 'include-toyaml', template: '{{ include "t" . | fromYaml | toJson }}', defs: { t: 'a: {{ .replicas }}\nb: [x, y]' }, data: values },
  { name: 'include-parse-error-in-def', template: '{{ include "t" . }}', defs: { t: '{{ .name ' }, data: values },
  { name: 'include-missingkey-error', template: '{{ include "t" . }}', defs: { t: '{{ .nope }}' }, data: values, option: 'missingkey=error' },
  { name: 'include-no-value', template: '[{{ include "t" . }}]', defs: { t: '{{ .nope }}' }, data: values },
  // tpl
  { name: 'tpl-basic', template: '{{ tpl "hello {{ .name }}" . }}', data: values },
  { name: 'tpl-from-values', template: '{{ tpl .t . }}', data: { t: '{{ .n | upper }}', n: 'x' } },
  { name: 'tpl-no-value-removed', template: '[{{ tpl "{{ .nope }}" . }}]', data: values },
  { name: 'tpl-missing-nested', template: '[{{ tpl "{{ .nope.deeper }}" . }}]', data: values },
  { name: 'tpl-parse-error', template: '{{ tpl "{{ .name " . }}', data: values },
  { name: 'tpl-exec-error', template: '{{ tpl "{{ index .list 9 }}" . }}', data: values },
  { name: 'tpl-fail', template: '{{ tpl "{{ fail \\"no\\" }}" . }}', data: values },
  { name: 'tpl-include-parent-define', template: '{{ tpl "<{{ include \\"t\\" . }}>" . }}', defs: { t: 'T{{ .name }}' }, data: values },
  { name: 'tpl-define-and-include', template: '{{ tpl "{{ define \\"x\\" }}X{{ end }}{{ include \\"x\\" . }}" . }}', data: values },
  { name: 'tpl-define-does-not-leak', template: '{{ tpl "{{ define \\"x\\" }}X{{ end }}" . }}{{ include "x" . }}', data: values },
  { name: 'tpl-nested-tpl', template: '{{ tpl "{{ tpl \\"[{{ .name }}]\\" . }}" . }}', data: values },
  { name: 'tpl-strict', template: '{{ tpl "{{ .nope }}" . }}', data: values, option: 'missingkey=error' },
  { name: 'tpl-data-string', template: '{{ tpl "{{ . }}" "str" }}', data: values },
  { name: 'tpl-data-nil', template: '[{{ tpl "{{ . }}" nil }}]', data: values },
  { name: 'tpl-multiline', template: '{{ tpl "a: {{ .name }}\\nb: {{ .replicas }}" . | fromYaml | toJson }}', data: values },
  { name: 'tpl-wrong-type', template: '{{ tpl 1 . }}', data: values },
  { name: 'tpl-unknown-func', template: '{{ tpl "{{ nosuch }}" . }}', data: values },
  { name: 'tpl-main-name', template: '{{ tpl "{{ template \\"nope\\" }}" . }}', data: values },
  // required
  { name: 'required-present', template: '{{ required "need name" .name }}', data: values },
  { name: 'required-missing', template: '{{ required "need nope" .nope }}', data: values },
  { name: 'required-empty-string', template: '{{ required "need empty" .empty }}', data: values },
  { name: 'required-zero-ok', template: '{{ required "need zero" .zero }}', data: values },
  { name: 'required-false-ok', template: '{{ required "need f" .f }}', data: { f: false } },
  { name: 'required-empty-list-ok', template: '{{ required "need l" .l }}', data: { l: [] } },
  { name: 'required-empty-map-ok', template: '{{ required "need m" .m }}', data: { m: {} } },
  { name: 'required-nil', template: '{{ required "nil!" nil }}', data: values },
  { name: 'required-pipeline', template: '{{ .name | required "x" | upper }}', data: values },
  { name: 'required-nested-missing', template: '{{ required "need a.b.c" .nested.a.c }}', data: values },
  { name: 'required-in-include', template: '{{ include "t" . }}', defs: { t: '{{ required "inner required" .nope }}' }, data: values },
  { name: 'required-msg-with-colon', template: '{{ required "a: b: c" .nope }}', data: values },
  // env removed, lookup, getHostByName, toYaml/toJson swallowing errors
  { name: 'env-removed', template: '{{ env "HOME" }}', data: values },
  { name: 'expandenv-removed', template: '{{ expandenv "$HOME" }}', data: values },
  { name: 'lookup-empty', template: '{{ lookup "v1" "ConfigMap" "ns" "name" | toJson }}|{{ len (lookup "v1" "Pod" "" "") }}', data: values },
  { name: 'lookup-index', template: '[{{ (lookup "v1" "Secret" "ns" "s").data }}]', data: values },
  { name: 'gethostbyname', template: '[{{ getHostByName "localhost" }}]', data: values },
  { name: 'toyaml-nan-swallowed', template: '[{{ toYaml (list (float64 "NaN")) }}]', data: values },
  { name: 'tojson-inf-swallowed', template: '[{{ toJson (dict "a" (float64 "+Inf")) }}]', data: values },
  { name: 'tojson-func-swallowed', template: '[{{ toJson . }}]|[{{ toYaml . }}]', fixture: 'values' },
  { name: 'toyaml-of-include', template: '{{ toYaml (dict "k" (include "t" .)) }}', defs: { t: 'line1\nline2' }, data: values },
  { name: 'sprig-still-there', template: '{{ "abc" | upper | quote }} {{ list 1 2 | toJson }} {{ dict "a" 1 | toPrettyJson }}', data: values },
];
// Typed values (tools/gorender/fixtures.go): struct fields, embedded structs, typed numbers, nil
// pointers, maps and slices, []byte, func fields.
for (const [fx, paths] of Object.entries({
  values: ['.i', '.i8', '.i64', '.u8', '.u64', '.f32', '.f64', '.strs', '.ints', '.empty', '.nilslice', '.ss', '.si', '.nilmap', '.ptr', '.nilptr', '.meta', '.phase', '.wrap', '.nilwrap', '.iface', '.bytes', '.fn', '.nested'],
  pod: ['.Meta', '.Containers', '.Owner', '.Hold', '.Rewrite', '.Limits', '.Detail', '.Extra', '.Phase', '.Weight', '.Tags', '.Empty', '.NoLabels', '.Greet', '.Concurrency'],
  tree: ['.', '.Children'],
})) {
  for (const p of paths) {
    funcs.push({ name: `typed-${fx}${p === '.' ? '-root' : p.replace('.', '-')}`, template: `{{ toJson ${p} }}|{{ toYaml ${p} }}`, fixture: fx });
  }
}
write('funcs.jsonl', funcs.map((c) => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined))));

const J = [];
const jsonDocs = [
  '{"a":1}', '{"a":1.5,"b":[true,null,"x"]}', '{}', '[]', 'null', '"str"', '42', 'true', '{"a":1e400}', '{"a":-0}',
  '{"a":"\\u00e9\\ud83d\\ude00"}', '{"a":"\\ud800"}', '{"__proto__":{"x":1},"constructor":2}', '{"a":1,"a":2}',
  '{"big":12345678901234567890}', '{"e":1e21,"f":1e-7,"g":100}',
  '{', '{"a":}', '{"a" 1}', '{"a":1,}', '[1,]', '{"a":1}x', '', ' ', 'nul', 'tru', '01', '-', '1.', '1e', '"\\x"', '"a\tb"',
  '"\\u12"', "{'a':1}", '{"a":1 "b":2}', '[1 2]', '\u00e9', '\u0080', '{"a":[1,2}', 'NaN', 'Infinity', '{"a":01}', '  {"a":1}  ',
];
jsonDocs.forEach((s, i) => {
  J.push({ name: `fromjson-${i}`, template: '{{ toJson (fromJson .s) }}', data: { s } });
  J.push({ name: `fromjson-err-${i}`, template: '{{ (fromJson .s).Error }}', data: { s } });
  J.push({ name: `fromjsonarray-${i}`, template: '{{ toJson (fromJsonArray .s) }}', data: { s } });
});
const toJsonValues = [
  ['html', '<a href="x">&</a>'], ['u2028', 'a\u2028b\u2029c'], ['controls', '\u0000\u0001\b\f\n\r\t\u001f\u007f'],
  ['unicode', 'é😀'], ['floats', [0.1, 1e21, 1e-7, 1e20, 123456789.125, -0.0000015, 5e-324]], ['map-order', { b: 1, a: 2, B: 3, '10': 4, '9': 5 }],
  ['nested', { a: [{ b: null }, []], c: {} }], ['empty-string-key', { '': 1 }],
];
toJsonValues.forEach(([n, v]) => {
  J.push({ name: `tojson-${n}`, template: '{{ toJson .v }}', data: { v } });
  J.push({ name: `toprettyjson-${n}`, template: '{{ toPrettyJson .v }}', data: { v } });
  J.push({ name: `torawjson-${n}`, template: '{{ toRawJson .v }}', data: { v } });
});
J.push({ name: 'tojson-ints', template: '{{ toJson (list 1 -2 (int64 3) (uint 4) 2.5 (float64 3)) }}', data: {} });
J.push({ name: 'tojson-int-data', template: '{{ toJson .v }}', data: { v: [1, 2.5, 1e15, 1e16] }, dataInt: true });
write('json.jsonl', J);
