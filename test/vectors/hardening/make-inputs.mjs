// Writes prototype.jsonl: hostile templates that reach for JavaScript internals (prototypes,
// constructors, Object.prototype methods) through every lookup a template has. Go's answers
// (prototype.expected.jsonl, from `npm run vectors`) are the proof that each name is an ordinary
// missing key, an ordinary data key, or an ordinary error. Run with node after editing.
import { fileURLToPath } from 'node:url';
import { writeCases } from '../../helpers/write-cases.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

// Names that mean something to JavaScript objects, functions, strings or numbers.
const JS_NAMES = [
  'constructor', '__proto__', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf',
  'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__defineSetter__', '__lookupGetter__',
];
const VALUE_NAMES = ['length', 'call', 'apply', 'bind', 'name', 'then', 'toJSON', 'push', 'map', 'at', 'charAt', 'toFixed'];

// An object literal's __proto__ would be a prototype change: JSON.parse makes it an own key, as JSON data has it.
const withKeys = JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":"c","toString":"t","prototype":{"p":1},"hasOwnProperty":false,"valueOf":0,"x":1}');

const plain = { m: { a: 1 }, list: [1, 'two'], s: 'str', n: 1.5, b: true, z: null, e: {} };

const cases = [];
const add = (c) => cases.push(c);

// ---------- field access on every kind of value ----------
for (const k of JS_NAMES) {
  add({ name: `field-map-${k}`, template: `{{ .${k} }}`, data: plain });
  add({ name: `field-map-error-${k}`, template: `{{ .${k} }}`, data: plain, option: 'missingkey=error' });
  add({ name: `field-map-zero-${k}`, template: `{{ .${k} }}`, data: plain, option: 'missingkey=zero' });
  add({ name: `field-nested-${k}`, template: `{{ .m.${k} }}`, data: plain });
  add({ name: `field-chain-${k}`, template: `{{ .${k}.${k} }}`, data: plain });
  add({ name: `field-slice-${k}`, template: `{{ .list.${k} }}`, data: plain });
  add({ name: `field-string-${k}`, template: `{{ .s.${k} }}`, data: plain });
  add({ name: `field-float-${k}`, template: `{{ .n.${k} }}`, data: plain });
  add({ name: `field-int-${k}`, template: `{{ .n.${k} }}`, data: { n: 3 }, dataInt: true });
  add({ name: `field-bool-${k}`, template: `{{ .b.${k} }}`, data: plain });
  add({ name: `field-nil-${k}`, template: `{{ .z.${k} }}`, data: plain });
  add({ name: `field-nodata-${k}`, template: `{{ .${k} }}` });
  add({ name: `field-var-${k}`, template: `{{ $.${k} }}{{ $v := .list }}{{ $v.${k} }}`, data: plain });
  add({ name: `field-paren-string-${k}`, template: `{{ ("abc").${k} }}`, data: plain });
  add({ name: `field-paren-number-${k}`, template: `{{ (1).${k} }}`, data: plain });
  add({ name: `field-struct-${k}`, template: `{{ .${k} }}`, fixture: 'pod' });
  add({ name: `field-struct-embedded-${k}`, template: `{{ .Meta.${k} }}`, fixture: 'pod' });
  add({ name: `field-typedmap-${k}`, template: `{{ .Labels.${k} }}`, fixture: 'pod' });
  add({ name: `field-func-${k}`, template: `{{ .fn.${k} }}`, fixture: 'values' });
  add({ name: `field-stringer-${k}`, template: `{{ .Phase.${k} }}`, fixture: 'pod' });
  add({ name: `field-nilptr-${k}`, template: `{{ .nilptr.${k} }}`, fixture: 'values' });
  add({ name: `field-args-${k}`, template: `{{ .${k} "return process" }}`, data: plain });
  add({ name: `index-map-${k}`, template: `{{ index . "${k}" }}`, data: plain });
  add({ name: `index-typedmap-${k}`, template: `{{ index .Labels "${k}" }}`, fixture: 'pod' });
  add({ name: `index-string-${k}`, template: `{{ index "abc" "${k}" }}` });
  add({ name: `call-${k}`, template: `{{ call .${k} }}`, data: plain });
  add({ name: `call-index-${k}`, template: `{{ call (index . "${k}") "x" }}`, data: plain });
  add({ name: `func-${k}`, template: `{{ ${k} }}` });
  add({ name: `func-sprig-${k}`, template: `{{ ${k} . }}`, funcs: 'sprig' });
  add({ name: `template-${k}`, template: `{{ template "${k}" . }}`, data: plain });
  add({ name: `data-key-${k}`, template: `{{ .${k} }}|{{ index . "${k}" }}|{{ printf "%v" .${k} }}`, data: withKeys });
  add({ name: `sprig-get-${k}`, template: `[{{ get . "${k}" }}] {{ hasKey . "${k}" }}`, data: plain, funcs: 'sprig' });
  add({ name: `sprig-get-present-${k}`, template: `[{{ get . "${k}" }}] {{ hasKey . "${k}" }}`, data: withKeys, funcs: 'sprig' });
  add({ name: `sprig-dict-${k}`, template: `{{ $d := dict "${k}" (dict "polluted" 1) }}{{ $d }} [{{ $d.polluted }}] {{ keys $d }} {{ index $d "${k}" "polluted" }} {{ hasKey $d "polluted" }}`, funcs: 'sprig' });
  add({ name: `sprig-set-${k}`, template: `{{ $d := dict "a" 1 }}{{ $_ := set $d "${k}" (dict "polluted" 1) }}{{ $d }} [{{ $d.polluted }}] {{ len $d }}`, funcs: 'sprig' });
  add({ name: `sprig-set-data-${k}`, template: `{{ $_ := set . "${k}" (dict "polluted" 1) }}{{ . }} [{{ .polluted }}]`, data: { a: 1 }, funcs: 'sprig' });
  add({ name: `sprig-unset-${k}`, template: `{{ $_ := unset . "${k}" }}{{ . }}`, data: withKeys, funcs: 'sprig' });
  add({ name: `sprig-merge-${k}`, template: `{{ $d := merge (dict "a" 1) (dict "${k}" (dict "polluted" 1)) }}{{ $d }} [{{ $d.polluted }}]`, funcs: 'sprig' });
  add({ name: `sprig-mergeOverwrite-${k}`, template: `{{ $d := mergeOverwrite (dict "${k}" 2) (dict "${k}" (dict "polluted" 1)) }}{{ $d }} [{{ $d.polluted }}]`, funcs: 'sprig' });
  add({ name: `sprig-pluck-${k}`, template: `{{ pluck "${k}" . (dict "${k}" 5) }}`, data: plain, funcs: 'sprig' });
  add({ name: `sprig-dig-${k}`, template: `{{ dig "${k}" "polluted" "default" . }}`, data: plain, funcs: 'sprig' });
  add({ name: `sprig-dig-present-${k}`, template: `{{ dig "${k}" "polluted" "default" . }}`, data: withKeys, funcs: 'sprig' });
  add({ name: `sprig-pick-omit-${k}`, template: `{{ pick . "${k}" "x" }} {{ omit . "${k}" }}`, data: withKeys, funcs: 'sprig' });
  add({ name: `sprig-default-${k}`, template: `{{ default "d" .${k} }} {{ empty .${k} }} {{ coalesce .${k} "c" }} {{ typeOf .${k} }} {{ kindOf .${k} }}`, data: plain, funcs: 'sprig' });
  add({ name: `helm-fromYaml-${k}`, template: `{{ $d := fromYaml "${k}:\\n  polluted: 1\\n" }}{{ $d }} [{{ $d.polluted }}] {{ index $d "${k}" "polluted" }} {{ toJson $d }}`, funcs: 'helm' });
  add({ name: `helm-fromJson-${k}`, template: `{{ $d := fromJson "{\\"${k}\\":{\\"polluted\\":1}}" }}{{ $d }} [{{ $d.polluted }}] {{ toYaml $d }}`, funcs: 'helm' });
  add({ name: `helm-include-${k}`, template: `{{ include "${k}" . }}`, data: plain, funcs: 'helm' });
  add({ name: `helm-tpl-${k}`, template: `[{{ tpl "{{ .${k} }}" . }}]`, data: plain, funcs: 'helm' });
  add({ name: `istio-fromJSON-${k}`, template: `{{ $d := fromJSON "{\\"${k}\\":{\\"polluted\\":1}}" }}{{ $d }} [{{ $d.polluted }}]`, funcs: 'istio' });
}

for (const k of VALUE_NAMES) {
  add({ name: `value-slice-${k}`, template: `{{ .list.${k} }}`, data: plain });
  add({ name: `value-string-${k}`, template: `{{ .s.${k} }}`, data: plain });
  add({ name: `value-float-${k}`, template: `{{ .n.${k} }}`, data: plain });
  add({ name: `value-func-${k}`, template: `{{ .fn.${k} }}`, fixture: 'values' });
  add({ name: `value-call-func-${k}`, template: `{{ call .fn.${k} "a" "b" }}`, fixture: 'values' });
  add({ name: `value-index-slice-${k}`, template: `{{ index .list "${k}" }}`, data: plain });
  add({ name: `value-func-name-${k}`, template: `{{ ${k} }}` });
}

// ---------- escapes to the host: none of these names are functions of any set ----------
for (const f of ['eval', 'require', 'process', 'Function', 'globalThis', 'import', 'Buffer', 'setTimeout', 'fetch', 'readFile', 'exec', 'console']) {
  for (const set of ['builtin', 'sprig', 'helm', 'istio']) add({ name: `host-${f}-${set}`, template: `{{ ${f} "x" }}`, funcs: set });
}
add({ name: 'host-constructor-chain', template: '{{ .x.constructor.constructor "return process" }}', data: { x: 1 } });
add({ name: 'host-call-constructor-chain', template: '{{ call .x.constructor.constructor "return process" }}', data: { x: {} } });
add({ name: 'host-call-nil', template: '{{ call nil }}' });
add({ name: 'host-call-string', template: '{{ call "constructor" }}' });
add({ name: 'host-call-builtin-name', template: '{{ call "print" 1 }}' });
add({ name: 'host-call-func-value', template: '{{ call .fn "a" "b" }}', fixture: 'values' });
add({ name: 'host-call-method-value', template: '{{ call .Hello }}', fixture: 'pod' });
add({ name: 'host-env-helm', template: '{{ env "HOME" }}', funcs: 'helm' });
add({ name: 'host-getHostByName', template: '[{{ getHostByName "localhost" }}]', funcs: 'helm' });
add({ name: 'host-lookup', template: '{{ lookup "v1" "Secret" "default" "x" }}', funcs: 'helm' });
add({ name: 'host-template-define-proto', template: '{{ define "__proto__" }}P{{ end }}{{ define "constructor" }}C{{ end }}{{ template "__proto__" }}{{ template "constructor" }}' });
add({ name: 'host-include-define-proto', template: '{{ define "toString" }}T{{ end }}{{ include "toString" . }}{{ include "hasOwnProperty" . }}', funcs: 'helm' });
add({ name: 'host-tpl-define-proto', template: '{{ tpl "{{ define \\"valueOf\\" }}V{{ end }}{{ include \\"valueOf\\" . }}{{ template \\"valueOf\\" }}" . }}', funcs: 'helm' });

// ---------- data keys that are JS internals are ordinary data ----------
add({ name: 'data-keys-print', template: '{{ . }}', data: withKeys });
add({ name: 'data-keys-range', template: '{{ range $k, $v := . }}{{ $k }}={{ $v }};{{ end }}', data: withKeys });
add({ name: 'data-keys-len', template: '{{ len . }}', data: withKeys });
add({ name: 'data-keys-nested', template: '{{ .__proto__.polluted }} {{ .prototype.p }} {{ .m.polluted }}', data: withKeys });
add({ name: 'data-keys-keys', template: '{{ keys . | sortAlpha }}', data: withKeys, funcs: 'sprig' });
add({ name: 'data-keys-values', template: '{{ values . | len }}', data: withKeys, funcs: 'sprig' });
add({ name: 'data-keys-deepCopy', template: '{{ deepCopy . }}', data: withKeys, funcs: 'sprig' });
add({ name: 'data-keys-toJson', template: '{{ toJson . }}', data: withKeys, funcs: 'helm' });
add({ name: 'data-keys-toYaml', template: '{{ toYaml . }}', data: withKeys, funcs: 'helm' });
add({ name: 'data-keys-eq', template: '{{ eq .constructor "c" }} {{ eq .toString "t" }}', data: withKeys });
add({ name: 'data-keys-with', template: '{{ with .__proto__ }}{{ .polluted }}{{ end }}', data: withKeys });
add({ name: 'data-keys-missing-inner', template: '{{ .__proto__.constructor }} {{ .__proto__.__proto__ }}', data: withKeys });
add({ name: 'yaml-merge-key-proto', template: '{{ $d := fromYaml "a: &a\\n  __proto__:\\n    p: 1\\nb:\\n  <<: *a\\n" }}{{ $d.b }} [{{ $d.b.p }}]', funcs: 'helm' });
add({ name: 'yaml-merge-into-proto', template: '{{ $d := fromYaml "__proto__:\\n  <<: {polluted: 1}\\n" }}{{ $d }}', funcs: 'helm' });
add({ name: 'fromYamlArray-proto', template: '{{ $l := fromYamlArray "- __proto__: {polluted: 1}\\n" }}{{ $l }} {{ (index $l 0).polluted }}', funcs: 'helm' });
add({ name: 'fromJsonArray-proto', template: '{{ $l := fromJsonArray "[{\\"__proto__\\":{\\"polluted\\":1}}]" }}{{ $l }}', funcs: 'helm' });
add({ name: 'sprig-list-proto', template: '{{ $l := list "a" }}{{ $l.length }}', funcs: 'sprig' });
add({ name: 'sprig-set-proto-twice', template: '{{ $d := dict }}{{ $_ := set $d "__proto__" 1 }}{{ $_ := set $d "__proto__" 2 }}{{ $d }} {{ $d.__proto__ }}', funcs: 'sprig' });
add({ name: 'sprig-merge-nested-proto', template: '{{ $d := merge (dict "a" (dict "b" 1)) (dict "a" (dict "__proto__" (dict "polluted" 1))) }}{{ $d }} [{{ $d.a.polluted }}]', funcs: 'sprig' });
add({ name: 'sprig-mustMerge-proto', template: '{{ $d := mustMerge (dict) (fromJson "{\\"__proto__\\":{\\"polluted\\":1}}") }}{{ $d }}', funcs: 'sprig' });
add({ name: 'sprig-dict-proto-odd', template: '{{ dict "__proto__" }}', funcs: 'sprig' });
add({ name: 'sprig-dict-nonstring-key', template: '{{ dict 1 2 true 3 }}', funcs: 'sprig' });
add({ name: 'sprig-splitList-proto', template: '{{ $m := split "." "__proto__.constructor" }}{{ $m }} {{ $m._0 }}', funcs: 'sprig' });
add({ name: 'sprig-regexFind-proto', template: '{{ regexFind "__proto__" "a__proto__b" }}', funcs: 'sprig' });
add({ name: 'sprig-urlParse-proto', template: '{{ $u := urlParse "http://h/__proto__?constructor=1" }}{{ $u.path }} {{ $u.query }} [{{ $u.constructor }}]', funcs: 'sprig' });
add({ name: 'sprig-semver-proto', template: '{{ $v := semver "1.2.3" }}{{ $v.Major }} {{ $v.constructor }}', funcs: 'sprig' });

writeCases(here + 'prototype.jsonl', cases);
