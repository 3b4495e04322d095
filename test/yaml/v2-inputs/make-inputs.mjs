// Writes the input files of this folder: raw bytes as yaml.v2 (through sigs.k8s.io/yaml) reads them.
// Run it with node after editing the list, then `npm run vectors` to get Go's answers (expected.jsonl).
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const utf8 = (s) => Buffer.from(s, 'utf8');
const bytes = (...parts) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? utf8(p) : Buffer.from(p))));
const utf16le = (s) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
const utf16be = (s) => Buffer.from(utf16le(s)).swap16();

export const cases = {
  // encodings
  'invalid-utf8': bytes('a: 1\nb: ', [0xff, 0xfe], '\n'),
  'invalid-utf8-continuation': bytes('a: x', [0xc3], '\n'),
  'encoded-surrogate': bytes('a: ', [0xed, 0xa0, 0x80], '\n'),
  'utf8-bom': bytes([0xef, 0xbb, 0xbf], 'a: 1\n'),
  'utf16le-bom': utf16le('a: 1\nb: x\n'),
  'utf16be-bom': utf16be('a: 1\nb: [x, "é"]\n'),
  'utf16le-no-bom': Buffer.from('a: 1\n', 'utf16le'),
  // line breaks
  'cr-only': utf8('a: 1\rb: 2\r'),
  'crlf': utf8('a: 1\r\nb: 2\r\n'),
  'cr-mixed': utf8('a:\r\n  b: 1\r  c: 2\n'),
  'nel': utf8('a: 1\u0085b: 2\n'),
  'line-separator': utf8('a: 1\u2028b: 2\n'),
  'paragraph-separator': utf8('a: 1\u2029b:\u2029  c: 3\n'),
  'line-separator-in-double-quoted': utf8('a: "x\u2028y"\n'),
  'line-separator-in-json-string': utf8('{"a": "x\u2028y", "b": "p\u2029q"}\n'),
  'nel-in-double-quoted': utf8('a:\n  "u\u0085  v"\n'),
  'cr-in-single-quoted': utf8("a:\n  'm\r  n'\n"),
  'cr-in-json-string': utf8('{"a": "m\rn"}\n'),
  // directives
  'yaml-1.1': utf8('%YAML 1.1\n---\na: 1\n'),
  'yaml-1.2': utf8('%YAML 1.2\n---\na: 1\n'),
  'yaml-1.0': utf8('%YAML 1.0\n---\na: 1\n'),
  'yaml-2.0': utf8('%YAML 2.0\n---\na: 1\n'),
  'yaml-twice': utf8('%YAML 1.1\n%YAML 1.1\n---\na: 1\n'),
  'yaml-per-document': utf8('%YAML 1.1\n---\na: 1\n...\n%YAML 1.1\n---\nb: 2\n'),
  'tag-directive': utf8('%TAG ! tag:example.com,2000:\n---\na: !foo 1\n'),
  // escapes
  'escape-slash': utf8('a: "x\\/y"\n'),
  'escape-slash-in-json': utf8('{"a": "x\\/y"}\n'),
  'escape-slash-single-quoted': utf8("a: 'x\\/y'\n"),
  'escape-lone-high-surrogate': utf8('a: "\\ud800"\n'),
  'escape-lone-low-surrogate': utf8('a: "\\uDC00"\n'),
  'escape-surrogate-pair': utf8('a: "\\ud83d\\ude00"\n'),
  'escape-surrogate-in-json': utf8('{"a": "\\ud83d\\ude00"}\n'),
  'escape-long-surrogate': utf8('a: "\\U0000D800"\n'),
  'escape-beyond-unicode': utf8('a: "\\U00110000"\n'),
  'escape-others': utf8('a: "\\U0001F600 \\x41 \\N \\_ \\L \\P \\e \\0 \\a \\\\/"\n'),
  // tags
  'omap': utf8('!!omap\n- a: 1\n- b: 2\n'),
  'omap-nested': utf8('x: !!omap\n  - a: 1\n  - b: 2\n'),
  'omap-flow': utf8('a: !!omap [x: 1, y: 2]\nb: !!omap []\nc: !!omap {x: 1}\n'),
  'omap-two-keys': utf8('!!omap\n- a: 1\n  b: 2\n- c\n'),
  'pairs': utf8('a: !!pairs [a: 1, b: 2]\n'),
  'set': utf8('a: !!set {x, y}\n'),
  // duplicate keys (sigs.k8s.io/yaml's UnmarshalStrict refuses them; kubectl reads manifests so)
  'dup-top': utf8('a: 1\nb: 2\na: 3\n'),
  'dup-nested': utf8('a:\n  x: 1\n  z: 2\n  x: 3\n'),
  'dup-same-value': utf8('b: 1\nb: 1\n'),
  'dup-flow': utf8('x:\n  - {a: 1, a: 2}\n'),
  'dup-map-value': utf8('a: 1\nb:\n  c: 2\nb: 3\n'),
  'dup-quoted': utf8('"a": 1\na: 2\n'),
  'dup-after-alias': utf8('a: &x 1\nb: *x\na: 2\n'),
  'dup-json': utf8('{"a": 1, "b": 2, "a": 3}\n'),
  'dup-json-compact-nested': utf8('{"items":[{"x":1},{"x":1,"y":2,"y":3}]}\n'),
  'dup-json-multiline': utf8('{\n  "metadata": {\n    "name": "a",\n    "labels": {"app": "x"},\n    "name": "b"\n  }\n}\n'),
  'dup-json-escaped-key': utf8('{"a\\u0062": 1, "ab": 2}\n'),
  'json-value-starting-with-colon': utf8('{"a":":x","b":{"c":"d:"}}\n'),
  // quoted scalars and flow collections go on at any column, 0 included (libyaml checks no
  // indentation inside them); plain and block scalars do not
  'cont-dq-top': utf8('key: "abc\ndef"\nnext: 1\n'),
  'cont-sq-top': utf8("key: 'it''s\n\n\nfine'\n"),
  'cont-dq-nested': utf8('a:\n  b:\n    key: "abc\ndef"\n  c: 1\n'),
  'cont-dq-nested-col1': utf8('a:\n  key: "abc\n def"\n'),
  'cont-dq-seq': utf8('a:\n- "abc\ndef"\n- x\n'),
  'cont-dq-seq-nested': utf8('x:\n  y:\n  - "p\nq"\n  z: 1\n'),
  'cont-dq-compact': utf8('x:\n  - a: "abc\ndef"\n    b: 1\n'),
  'cont-dq-seq-seq': utf8('- - "abc\ndef"\n'),
  'cont-dq-root': utf8('"abc\ndef"\n'),
  'cont-dq-blank-lines': utf8('x: "a\n\n\n  b\n"\n'),
  'cont-dq-escaped-break': utf8('x: "abc\\\ndef"\ny: "abc \\\n  def"\nz: "a\\\n\\ b"\n'),
  'cont-dq-spaces-tabs': utf8('x: "abc\n   def  \n\t\tghi"\n'),
  'cont-dq-indicators': utf8('a: "abc\n- def"\nb: "abc\ndef: x"\nc: "a\n#c\n  d"   # note\nd: "abc\n---x"\n'),
  'cont-dq-anchor-tag': utf8('a: &x "abc\ndef"\nb: *x\nc: !!str "p\nq"\n'),
  'cont-dq-after-plain-quote': utf8("a: it's\nb: \"x\ny\"\n"),
  'cont-dq-after-block': utf8('x: |\n  "abc\nz: "p\nq"\n'),
  'cont-dq-doc-start': utf8('key: "abc\n---\ndef"\n'),
  'cont-dq-doc-end': utf8('key: "abc\n...\ndef"\n'),
  'cont-dq-text-after': utf8('x: "abc\ndef" junk\n'),
  'cont-dq-unterminated': utf8('x: "unterminated\n'),
  'cont-flow-seq': utf8('key: [a,\nb]\n'),
  'cont-flow-map': utf8('key: {a: 1,\nb: 2}\n'),
  'cont-flow-close-col0': utf8('key: [a,\n]\n'),
  'cont-flow-nested': utf8('x: {a: 1,\nb: [p,\nq], c: "p\nq"}\nz: 3\n'),
  'cont-flow-in-seq': utf8('- {a: "x\ny", b: [1,\n2]}\n'),
  'cont-plain-top': utf8('key: plain\ncont\n'),
  'cont-plain-nested': utf8('a:\n  key: plain\ncont\n'),
  'cont-block-literal': utf8('key: |\nabc\n'),
  'cont-block-folded': utf8('key: >\n abc\ndef\n'),
  // merges: a key written beside a merge overrides it, as yaml.v2's Unmarshal has it
  'merge-then-key': utf8('<<: {a: 1}\na: 2\n'),
  'key-then-merge': utf8('a: 1\n<<: {a: 2}\n'),
  'merge-inline': utf8('<<: {a: 1}\n'),
};

for (const f of readdirSync(here)) if (f.endsWith('.yaml')) rmSync(here + f);
for (const [name, b] of Object.entries(cases)) writeFileSync(`${here}${name}.yaml`, b);
