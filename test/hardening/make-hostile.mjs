// Writes hostile-cases.jsonl: every hostile case we tried beyond the Go-checked ones in
// test/vectors/hardening/prototype.jsonl, each with its expected outcome. Go cannot tell these
// (it runs out of memory, overflows its stack, or has no such limit), so the expectation is ours:
//   expect.output   exact output, or
//   expect.error    a regular expression the one-line error must match, with expect.class
//                   (ParseError | ExecError | LimitError).
// Every case is also checked for: only template errors, no prototype change, data unchanged, no
// JavaScript text in the output. Run with node after editing; hostile.test.ts runs the list.
import { fileURLToPath } from 'node:url';
import { writeCases } from '../helpers/write-cases.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const cases = [];
const add = (name, template, expect, extra = {}) => cases.push({ name, template, funcs: 'helm', ...extra, expect });
const limit = (re) => ({ error: re, class: 'LimitError' });

// ---------- sizes: Go would run out of memory ----------
add('until-1e10', '{{ until 10000000000 }}', limit('error calling until: list of 10000000000 elements exceeds the limit of 1000000 elements$'));
add('until-max-int', '{{ until 9223372036854775807 | len }}', limit('error calling until: list of 9223372036854775807 elements exceeds'));
add('untilStep-huge', '{{ untilStep 0 1000000000000 1 | len }}', limit('error calling untilStep: list of 1000000000000 elements'));
add('untilStep-negative-huge', '{{ untilStep 0 -1000000000000 -1 | len }}', limit('error calling untilStep: list of 1000000000000 elements'));
add('untilStep-zero-step', '{{ untilStep 0 10 0 | len }}', { output: '0' });
add('seq-huge', '{{ seq 10000000000 }}', limit('error calling seq: list of 10000000000 elements'));
add('seq-huge-step', '{{ seq 0 1 10000000000 }}', limit('error calling seq: list of 10000000001 elements'));
add('repeat-1e10', '{{ repeat 10000000000 "x" }}', limit('error calling repeat: result of 10000000000 bytes exceeds the limit of 67108864 bytes per value$'));
add('repeat-max-int', '{{ repeat 9223372036854775807 "ab" }}', limit('error calling repeat: result of .* bytes exceeds'));
add('repeat-empty-huge', '[{{ repeat 9223372036854775807 "" }}]', { output: '[]' });
add('repeat-nested', '{{ repeat 100000 (repeat 100000 "x") | len }}', limit('error calling repeat: result of 10000000000 bytes'));
add('indent-huge', '{{ indent 1000000000 "a" }}', limit('error calling indent: result of .* bytes exceeds'));
add('nindent-many-lines', '{{ nindent 1000000 (repeat 1000 "\\n") }}', limit('error calling nindent: result of .* bytes exceeds'));
add('replace-empty-old', '{{ replace "" (repeat 100000 "y") (repeat 10000 "x") }}', limit('error calling replace: result of .* bytes exceeds'));
add('wrapWith-huge-sep', '{{ wrapWith 1 (repeat 100000 "-") (repeat 10000 "x") }}', limit('error calling wrapWith: result of .* bytes exceeds'));
add('join-huge-sep', '{{ join (repeat 1000000 "-") (until 1000) }}', limit('error calling join: result of .* bytes exceeds'));
add('append-past-list-limit', '{{ $l := until 1000000 }}{{ $l = append $l 1 }}', limit('error calling append: list of 1000001 elements exceeds'));
add('concat-past-list-limit', '{{ $l := until 700000 }}{{ concat $l $l | len }}', limit('error calling concat: list of 1400000 elements exceeds'));
add('built-bytes-loop', '{{ $l := list }}{{ range until 1000 }}{{ $l = append $l (repeat 60000000 "x") }}{{ end }}', { ...limit('values built by functions exceed the limit of 1073741824 bytes per execution$') });
add('printf-width-go-max', '{{ printf "%10000000d" 1 | len }}', { output: '10000000' });
add('printf-width-beyond-go', '{{ printf "%100000000d" 1 | len }}', { output: '25' }); // Go's answer
add('printf-prec-go-max', '{{ printf "%.1000000f" 1.0 | len }}', { output: '1000002' });
add('doubling-list-print', '{{ $x := list "0123456789" }}{{ range until 40 }}{{ $x = list $x $x }}{{ end }}{{ $x }}', { ...limit('printed value exceeds the limit of 67108864 bytes per value$') });
add('doubling-list-len', '{{ $x := list 1 }}{{ range until 60 }}{{ $x = list $x $x }}{{ end }}{{ len $x }}', { output: '2' });
add('doubling-dict-toJson', '{{ $x := dict "a" "0123456789" }}{{ range until 40 }}{{ $x = dict "l" $x "r" $x }}{{ end }}{{ toJson $x | len }}', { error: 'LimitError|exceeds|time limit', class: 'LimitError' }, { limits: { timeoutMs: 3000 } });
add('doubling-string', '{{ $s := "x" }}{{ range until 40 }}{{ $s = printf "%s%s" $s $s }}{{ end }}{{ len $s }}', { error: 'exceeds|time limit|Invalid string length', class: 'LimitError|ExecError' }, { limits: { timeoutMs: 3000 } });

// ---------- loops and time ----------
add('range-1e8-default', '{{ range until 1000000 }}{{ range until 1000 }}{{ end }}{{ end }}', limit('range iterations exceed the limit of 100000|execution exceeded the time limit'), { limits: { timeoutMs: 3000, maxRangeIterations: 100000 } });
add('range-int-huge', '{{ range 9223372036854775807 }}{{ end }}', limit('range iterations exceed the limit of 1000000$'), { limits: { maxRangeIterations: 1000000 } });
add('timeout-nested-range', '{{ range until 1000000 }}{{ range until 1000 }}{{ end }}{{ end }}', limit('execution exceeded the time limit$'), { limits: { timeoutMs: 300 } });
add('timeout-inside-include', '{{ define "a" }}{{ range until 1000000 }}{{ end }}{{ end }}{{ range until 1000 }}{{ include "a" . }}{{ end }}', limit('execution exceeded the time limit$'), { limits: { timeoutMs: 300 } });
add('timeout-inside-tpl', '{{ range until 1000 }}{{ tpl "{{ range until 1000000 }}{{ end }}" . }}{{ end }}', limit('execution exceeded the time limit$'), { limits: { timeoutMs: 300 } });
add('uniq-quadratic-timeout', '{{ until 100000 | uniq | len }}', { error: 'time limit|error calling uniq', class: 'LimitError' }, { limits: { timeoutMs: 300 } });

// ---------- recursion ----------
add('template-self', '{{ define "a" }}{{ template "a" . }}{{ end }}{{ template "a" . }}', { error: '^template: t:1:\\d+: executing "a" at <\\{\\{template "a" \\.\\}\\}>: exceeded maximum template depth \\(100000\\)$', class: 'ExecError' });
add('template-mutual', '{{ define "a" }}{{ template "b" . }}{{ end }}{{ define "b" }}{{ template "a" . }}{{ end }}{{ template "a" . }}', { error: 'exceeded maximum template depth \\(100000\\)$', class: 'ExecError' });
add('template-depth-option', '{{ define "a" }}{{ template "a" . }}{{ end }}{{ template "a" . }}', limit('exceeded maximum template depth \\(10\\)$'), { limits: { maxTemplateDepth: 10 } });
add('block-self', '{{ block "b" . }}{{ template "b" . }}{{ end }}', { error: 'exceeded maximum template depth', class: 'ExecError' });
add('include-self', '{{ define "a" }}{{ include "a" . }}{{ end }}{{ include "a" . }}', { error: 'rendering template has a nested reference name: a: unable to execute template|exceeded maximum template depth', class: 'ExecError|LimitError' });
add('include-self-depth-option', '{{ define "a" }}{{ include "a" . }}{{ end }}{{ include "a" . }}', limit('exceeded maximum template depth \\(20\\)$'), { limits: { maxTemplateDepth: 20 } });
add('tpl-self', '{{ tpl .t . }}', { error: 'error calling tpl|nested reference name|exceeded maximum template depth', class: 'ExecError|LimitError' }, { data: { t: '{{ tpl .t . }}' } });
add('tpl-include-mix', '{{ define "a" }}{{ tpl "{{ include \\"a\\" . }}" . }}{{ end }}{{ include "a" . }}', { error: 'nested reference name|exceeded maximum template depth|error calling', class: 'ExecError|LimitError' });

// ---------- cycles and depth: Go overflows its stack ----------
// A value that contains itself: Go's printing, copying or merging of it never ends (a fatal stack
// overflow, asked of Go); here a clean error at once, with no run on the big stack. Where Go's walk
// ends (reflect.DeepEqual, encoding/json) the answers are Go's: test/vectors/hardening/cycles.jsonl.
const cyc = '{{ $d := dict }}{{ $_ := set $d "self" $d }}';
const itself = (what, call) => ({ error: (call ? `error calling ${call}: ` : '') + `value contains itself: Go's ${what} never ends$`, class: 'LimitError' });
add('cycle-print', cyc + '{{ $d }}', itself('printing of it'));
add('cycle-printf', cyc + '{{ printf "%v" $d }}', itself('printing of it', 'printf'));
add('cycle-eq', cyc + '{{ eq $d $d }}', itself('printing of it', 'eq')); // Go's error text prints the map
add('cycle-deepCopy', cyc + '{{ deepCopy $d }}', itself('copystructure.Copy of it', 'deepCopy'));
add('cycle-toJson', cyc + '[{{ toJson $d }}]', { output: '[]' });
add('cycle-toYaml', cyc + '[{{ toYaml $d }}]', { output: '[]' });
add('cycle-merge', cyc + '{{ merge (dict "self" (dict "self" (dict))) $d }}', itself('printing of it'));
add('cycle-merge-itself', cyc + '{{ $x := merge $d $d }}', itself('merge of it', 'merge'));
add('cycle-mergeOverwrite-itself', cyc + '{{ $x := mergeOverwrite $d $d }}', itself('merge of it', 'mergeOverwrite'));
add('cycle-toString', cyc + '{{ toString $d }}', itself('printing of it', 'toString'));
add('cycle-quote', cyc + '{{ quote $d }}', itself('printing of it', 'quote'));
add('cycle-list', '{{ $l := list 1 }}{{ $d := dict "l" $l }}{{ $_ := set $d "me" (list $d) }}{{ $d }}', itself('printing of it'));
add('cycle-long', '{{ $a := dict }}{{ $b := dict "a" $a }}{{ $c := list $b }}{{ $_ := set $a "c" $c }}{{ printf "%#v" $a }}', itself('printing of it', 'printf'));
add('deep-parens-1000', '{{ ' + '('.repeat(1000) + '1' + ')'.repeat(1000) + ' }}', { output: '1' });
add('deep-if-1000', '{{ if 1 }}'.repeat(1000) + 'x' + '{{ end }}'.repeat(1000), { output: 'x' });
// deeper nesting, and toYaml of a list 5,000 deep, give Go's results on a big stack: deep-go.json
add('long-line-many-actions', '{{ 1 }}'.repeat(200000), { output: '1'.repeat(200000) });
add('unterminated-comment-long', '{{/*' + ' '.repeat(1000000), { error: 'unclosed comment', class: 'ParseError' });
add('unterminated-action-long', '{{ ' + 'a '.repeat(100000), { error: '^template: t:1: ', class: 'ParseError' });

// ---------- what templates cannot reach ----------
add('env-empty', '[{{ env "HOME" }}][{{ env "PATH" }}][{{ expandenv "$HOME:$PATH" }}]', { output: '[][][:]' }, { funcs: 'sprig' });
add('env-helm-undefined', '{{ env "HOME" }}', { error: 'function "env" not defined', class: 'ParseError' });
add('getHostByName-offline', '[{{ getHostByName "localhost" }}]', { output: '[]' });
add('lookup-offline', '{{ lookup "v1" "Secret" "kube-system" "" }}', { output: 'map[]' });
for (const f of ['readFile', 'exec', 'shell', 'eval', 'require', 'import', 'process', 'fetch', 'httpGet', 'osEnv', 'getenv', 'Function']) {
  for (const set of ['sprig', 'helm', 'istio']) add(`no-${f}-${set}`, `{{ ${f} "x" }}`, { error: `function "${f}" not defined`, class: 'ParseError' }, { funcs: set });
}
add('call-constructor-chain', '{{ call .x.constructor.constructor "return process" }}', { error: "can't evaluate field constructor|nil|call of nil", class: 'ExecError' }, { data: { x: {} } });
add('call-data-string', '{{ call .f }}', { error: 'non-function', class: 'ExecError' }, { data: { f: 'process.exit(1)' } });
add('tpl-data-template', '{{ tpl .t . }}', { output: '' }, { data: { t: '{{ .constructor }}' } });
add('tpl-data-js', '{{ tpl .t . }}', { output: '${process.exit(1)}' }, { data: { t: '${process.exit(1)}' } });

// ---------- prototype pollution attempts through every writer ----------
const P = (name, template, expect, extra) => add('pollute-' + name, template, expect, extra);
P('set-data', '{{ $_ := set . "__proto__" (dict "polluted" "yes") }}{{ .polluted }}', { output: '<no value>' }, { data: {} });
P('set-dict', '{{ $d := dict }}{{ $_ := set $d "__proto__" (dict "polluted" "yes") }}{{ $d.polluted }}{{ (dict).polluted }}', { output: '<no value><no value>' });
P('merge', '{{ $d := merge (dict) (fromJson "{\\"__proto__\\":{\\"polluted\\":\\"yes\\"}}") }}{{ $d.polluted }}', { output: '<no value>' });
P('mergeOverwrite-nested', '{{ $d := mergeOverwrite (dict "a" (dict)) (fromJson "{\\"a\\":{\\"__proto__\\":{\\"polluted\\":\\"yes\\"}}}") }}{{ $d.a.polluted }}', { output: '<no value>' });
P('fromYaml', '{{ $d := fromYaml "__proto__:\\n  polluted: yes" }}{{ $d.polluted }}|{{ index $d "__proto__" "polluted" }}', { output: '<no value>|true' }); // yes is a YAML 1.1 bool
P('fromYaml-merge-key', '{{ $d := fromYaml "a: &a {__proto__: {polluted: yes}}\\nb: {<<: *a}" }}{{ $d.b.polluted }}', { output: '<no value>' });
P('fromJsonArray', '{{ $l := fromJsonArray "[{\\"__proto__\\":{\\"polluted\\":1}}]" }}{{ (index $l 0).polluted }}', { output: '<no value>' });
P('dict-constructor-prototype', '{{ $d := dict "constructor" (dict "prototype" (dict "polluted" "yes")) }}{{ $d.polluted }}{{ $d.constructor.prototype.polluted }}', { output: '<no value>yes' });
P('set-constructor-prototype', '{{ $d := dict }}{{ $_ := set $d "constructor" (dict) }}{{ $_ := set $d.constructor "prototype" (dict "polluted" 1) }}{{ (dict).polluted }}', { output: '<no value>' });
P('tpl-with-data-proto', '{{ tpl "{{ $_ := set . \\"__proto__\\" (dict \\"polluted\\" 1) }}{{ .polluted }}" . }}', { output: '' }, { data: {} });
P('istio-fromJSON', '{{ $d := fromJSON "{\\"__proto__\\":{\\"polluted\\":1}}" }}{{ $d.polluted }}', { output: '<no value>' }, { funcs: 'istio' });

// ---------- odd inputs ----------
add('nul-bytes', 'a\u0000{{ "b\\x00c" }}\u0000', { output: 'a\u0000b\u0000c\u0000' });
add('lone-surrogate-text', '\ud800{{ .a }}', { output: '\ud800<no value>' }); // text passes through as it is
add('bom', '\ufeff{{ 1 }}', { output: '\ufeff1' });
add('crlf', '{{ if 1 }}\r\nx\r\n{{ end }}', { output: '\r\nx\r\n' });
add('delims-huge-text', 'x'.repeat(1000000) + '{{ 1 }}', { output: 'x'.repeat(1000000) + '1' });
add('regex-catastrophic', '{{ regexMatch "(a+)+$" (printf "%sb" (repeat 10000 "a")) }}', { output: 'false' });
add('regex-huge-repeat', '{{ regexMatch "a{1000}{1000}" "a" }}', { output: 'false' }); // Go's answer
add('semver-huge', '{{ semverCompare ">=1.0" (repeat 100000 "9") }}', { error: 'error calling semverCompare', class: 'ExecError' });
add('b64dec-garbage', '{{ b64dec "!!!!" }}', { output: 'illegal base64 data at input byte 0' });

for (const c of cases) {
  if (c.expect === undefined) throw new Error('no expectation: ' + c.name);
}
writeCases(here + 'hostile-cases.jsonl', cases);
