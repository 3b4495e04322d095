// The body of test/fuzz/deep-huge.test.ts, run in a process of its own (the built library in dist/),
// since what it looks for (a V8 abort, heap exhaustion) would take the test runner down with it.
// Argument: runs and seed. Prints one line per unexpected outcome and exits 1 if there was any.

import { writeSync } from 'node:fs';
import { loadYamlDocuments, InputError } from '../../dist/yaml/load.js';
import { Template, TemplateError } from '../../dist/go/text/template/template.js';
import { funcSet } from '../../dist/funcs/index.js';

const runs = Number(process.argv[2] ?? 60);
let seed = Number(process.argv[3] ?? 1) >>> 0;
const rand = () => {
  // mulberry32
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const DEPTHS = [3, 50, 400, 499, 500, 501, 800, 1000, 1001, 3000, 9999, 10000, 10001, 20000, 100000];

/** A nested YAML document of one shape. */
function yamlDoc(depth) {
  switch (pick(['flowSeq', 'flowMap', 'blockMap', 'blockSeq', 'mixed', 'anchors'])) {
    case 'flowSeq':
      return '['.repeat(depth) + '1' + ']'.repeat(depth);
    case 'flowMap':
      return '{a: '.repeat(depth) + '1' + '}'.repeat(depth);
    case 'blockMap': {
      const d = Math.min(depth, 3000); // indentation grows quadratically
      return Array.from({ length: d }, (_, i) => ' '.repeat(i) + 'k:').join('\n') + '\n' + ' '.repeat(d) + 'v';
    }
    case 'blockSeq':
      return '- '.repeat(depth) + 'x';
    case 'mixed': {
      let s = '';
      for (let i = 0; i < depth; i++) s += pick(['[', '{a: ', '- ']) === '- ' && s.indexOf('[') < 0 && s.indexOf('{') < 0 ? '- ' : pick(['[', '{a: ']);
      let close = '';
      for (let i = s.length - 1; i >= 0; i--) if (s[i] === '[') close += ']';
      else if (s[i] === '{') close += '}';
      return s + '1' + close;
    }
    default:
      return `a: &x ${'['.repeat(Math.min(depth, 400))}1${']'.repeat(Math.min(depth, 400))}\nb: [${Array(20).fill('*x').join(', ')}]\nc: ${'['.repeat(depth % 200)}*x${']'.repeat(depth % 200)}`;
  }
}

function hugeYaml() {
  switch (pick(['longScalar', 'manyKeys', 'longLine', 'manyDocs'])) {
    case 'longScalar':
      return 'a: ' + 'x'.repeat(1 + Math.floor(rand() * 8e6)) + '\n';
    case 'manyKeys':
      return Array.from({ length: 100000 }, (_, i) => `k${i}: ${i}`).join('\n');
    case 'longLine':
      return '[' + Array(200000).fill('1').join(',') + ']';
    default:
      return Array(20000).fill('a: 1').join('\n---\n');
  }
}

function maybeBreak(s) {
  const r = rand();
  if (r < 0.15) return s.slice(0, Math.floor(rand() * s.length));
  if (r < 0.2) return s + '\n---\n' + s;
  return s;
}

/** A deeply nested template of one shape, and the data it runs on. */
function template(depth) {
  switch (pick(['parens', 'ifs', 'withs', 'ranges', 'elseIfs', 'include', 'template', 'tpl', 'dataPrint', 'dataJson', 'dataYaml', 'fromYaml', 'fromJson', 'huge'])) {
    case 'parens':
      return ['{{ ' + '('.repeat(depth) + '1' + ')'.repeat(depth) + ' }}', null];
    case 'ifs':
      return ['{{ if 1 }}'.repeat(depth) + 'x' + '{{ end }}'.repeat(depth), null];
    case 'withs':
      return ['{{ with 1 }}'.repeat(depth) + 'x' + '{{ end }}'.repeat(depth), null];
    case 'ranges':
      return ['{{ range list 1 }}'.repeat(depth) + 'x' + '{{ end }}'.repeat(depth), null];
    case 'elseIfs':
      return ['{{ if 0 }}a' + '{{ else if 0 }}b'.repeat(depth) + '{{ else }}z{{ end }}', null];
    case 'include':
      return [`{{ define "a" }}{{ if gt . 0 }}{{ include "a" (sub . 1) }}{{ end }}{{ end }}{{ include "a" ${depth} }}`, null];
    case 'template':
      return [`{{ define "a" }}{{ if gt . 0 }}{{ template "a" (sub . 1) }}{{ end }}{{ end }}{{ template "a" ${depth} }}`, null];
    case 'tpl':
      return ['{{ tpl .t . }}', { t: '{{ if gt (len .t) 0 }}{{ tpl .t . }}{{ end }}' }];
    case 'dataPrint':
      return [pick(['{{ print . | len }}', '{{ printf "%v %+v %#v" . . . | len }}', '{{ len . }}', '{{ eq . . }}', '{{ deepCopy . | len }}']), nest(depth)];
    case 'dataJson':
      return [pick(['{{ toJson . | len }}', '{{ toPrettyJson . | len }}', '{{ toJson . | fromJson | len }}']), nest(depth)];
    case 'dataYaml':
      return [pick(['{{ toYaml . | len }}', '{{ toYaml . | fromYaml | len }}']), nest(depth)];
    case 'fromYaml':
      return ['{{ fromYaml .s | len }}{{ fromYamlArray .s | len }}{{ fromYaml .s | toJson | len }}', { s: maybeBreak(yamlDoc(depth)) }];
    case 'fromJson':
      return ['{{ fromJson .s | len }}{{ fromJsonArray .s | len }}', { s: maybeBreak('{"a":'.repeat(depth) + '[]' + '}'.repeat(depth)) }];
    default:
      return [pick(['{{ repeat 100000000 "x" }}', '{{ range until 100000000 }}x{{ end }}', 'x'.repeat(8e6) + '{{ . }}', '{{ $s := "ab" }}{{ range until 40 }}{{ $s = print $s $s }}{{ end }}']), null];
  }
}

function nest(depth) {
  let v = 1;
  for (let i = 0; i < depth; i++) v = rand() < 0.5 ? [v] : { a: v };
  return v;
}

let bad = 0;
const unexpected = (what, e) => {
  bad++;
  console.log(`UNEXPECTED ${what}: ${e && e.constructor ? e.constructor.name : typeof e}: ${String(e && e.message ? e.message : e).slice(0, 300)}`);
};

for (let i = 0; i < runs; i++) {
  const depth = pick(DEPTHS);
  // written at once, so that the case an abort interrupts is known
  const say = (what) => writeSync(1, `case ${i}: ${what}\n`);
  if (rand() < 0.5) {
    const text = rand() < 0.8 ? maybeBreak(yamlDoc(depth)) : hugeYaml();
    say(`yaml depth ${depth}: ${JSON.stringify(text.slice(0, 40))} (${text.length} chars)`);
    try {
      loadYamlDocuments(text, 'fuzz.yaml');
    } catch (e) {
      if (!(e instanceof InputError) || e.message.includes('\n') || !e.message.startsWith('fuzz.yaml')) unexpected(`yaml depth ${depth}`, e);
    }
  } else {
    const [src, data] = template(depth);
    say(`template depth ${depth}: ${JSON.stringify(src.slice(0, 60))}`);
    const t = new Template('t');
    t.funcs(funcSet('helm', { template: t }));
    try {
      t.parse(maybeBreak(src));
      t.execute(data, { timeoutMs: 10_000 });
    } catch (e) {
      if (!(e instanceof TemplateError) || e.message.includes('\n')) unexpected(`template depth ${depth} ${src.slice(0, 60)}`, e);
    }
  }
}
console.log(`ran ${runs}, ${bad} unexpected`);
process.exitCode = bad > 0 ? 1 : 0;
