// Writes the fmt vector inputs test/vectors/fmt/*.jsonl (Go's outputs come from `npm run vectors`).
//   node tools/fmt/vectors.mjs
import { mkdirSync, writeFileSync } from 'node:fs';

const dir = new URL('../../test/vectors/fmt/', import.meta.url);
mkdirSync(dir, { recursive: true });

const data = {
  f: 2.5, big: 1e21, small: 1e-7, tenth: 0.1, hundred: 100, million: 1e6, third: 1 / 3, neg: -0.5, zero: 0,
  s: 'hello', u: 'héllo 日本', q: 'say "hi"\n', e: '', t: true, nul: null,
  l: [1, 'a', null, 2.5, true], m: { b: 2, a: 'x', c: [1, 2], d: { z: null } }, el: [], em: {},
  nested: { a: { b: [1, { c: 'd' }] } },
};

function file(name, cases) {
  const seen = new Set();
  const lines = cases.map((c) => {
    if (seen.has(c.name)) throw new Error('duplicate ' + c.name);
    seen.add(c.name);
    return JSON.stringify({ funcs: 'builtin', ...c });
  });
  writeFileSync(new URL(name + '.jsonl', dir), lines.join('\n') + '\n');
  console.log(name, cases.length);
}

const slug = (s) =>
  s.replace(/%/g, 'pct').replace(/[^A-Za-z0-9.+#-]+/g, '_').replace(/^_+|_+$/g, '') || 'empty';

// --- every verb on literal operands and on data (float64 from JSON) ---
const operands = ['42', '-7', '0', "'a'", '0x1F', '3.5', '-0.25', '1e21', '"hi"', '"日本"', 'true', 'nil', '.f', '.s', '.l', '.m'];
const verbs = ['%v', '%+v', '%#v', '%T', '%d', '%s', '%q', '%x', '%X', '%o', '%b', '%c', '%U', '%e', '%f', '%g', '%t'];
const verbCases = [];
for (const o of operands) {
  for (const v of verbs) {
    verbCases.push({ name: `verb-${slug(v)}-${slug(o)}`, template: `{{printf "${v}" ${o}}}`, data });
  }
}
file('printf-verbs', verbCases);

// --- flags, width, precision ---
const flagCases = [
  ['%5d|%-5d|%05d', '42 42 42'], ['%+d % d %+d', '5 5 -5'], ['%x %#x %#X %#o %#b', '255 255 255 8 5'],
  ['%08.3f|%-8.2f|%+.1f', '3.14159 2.5 2.0'], ['%.0f %.0f %.0f %.0f', '0.5 1.5 2.5 3.5'], ['%e %E %.2e', '123456.789 0.000123 1.0'],
  ['%g %G %.3g %.10g', '1e-7 1e21 3.14159 0.1'], ['%6.2f%%', '99.5'], ['%10s|%-10s|%.2s', '"abc" "abc" "abc"'],
  ['%5.1s|', '"日本語"'], ['%-6q|%6q', '"a" "b"'], ['%x % x %X % X', '"hi" "hi" "é" "é"'], ['%#x %# x', '"ab" "ab"'],
  ['%05s|%-05s', '"ab" "ab"'], ['%5t|%-6t|', 'true false'], ['%3c|%-3c|', '65 66'], ['%#U %U', '0x1F600 65'],
  ['%+q %#q %#q', '"日本" "back`tick" "plain"'], ['%q %+q', '0x65E5 0x65E5'], ['%.3d %.0d|%5.0d|', '7 0 0'],
  ['%O %#o', '8 0'], ['%x %X', '-255 -255'], ['%b %o', '-5 -8'], ['%8.3e|%-12.4E|', '1234.5678 0.00012'],
  ['%#g %#.3g %#.0f %#e', '1.0 2.0 3.0 4.0'], ['%x %X %.2x', '1.0 -3.5 1.0'], ['%v %5v %-5v|', '1.5 1.5 1.5'],
  ['%5v|%-5v|', '.l .el'], ['%05v', '.l'], ['%6.2v', '.m'], ['%x', '.l'], ['%X', '.m'], ['%q', '.l'], ['%d', '.l'],
  ['%s', '.m'], ['%.1f', '.l'], ['%t', '.l'], ['%8.2f|', '.f'], ['%+v', '.nested'], ['%#v', '.nested'], ['%#v', '.l'],
  ['%#v %#v %#v', '.s .f .t'], ['%#v', '.em'], ['%#v', '.el'], ['%*d|', '5 42'], ['%-*d|', '5 42'], ['%*d|', '-5 42'],
  ['%.*f', '2 3.14159'], ['%*.*f|', '8 3 3.14159'], ['%[2]d %[1]d', '1 2'], ['%[2]*[1]d|', '7 4'], ['%[1]d %[1]x %[1]o', '64'],
  ['%d %[1]d %d', '1 2'], ['%[3]*.[2]*[1]f', '12.0 2 6'], ['%-+8.2f|% -8.2f|', '1.5 1.5'], ['%+.2e % .2e', '1.5 1.5'],
  ['%+s %+v', '"a" "b"'], ['% s', '"a"'], ['%#s', '"a"'], ['%010.4f|%-010.4f|', '-1.5 -1.5'], ['%+010d|%-+10d|', '42 42'],
];
file('printf-flags', flagCases.map(([f, a], i) => ({ name: `flags-${String(i + 1).padStart(2, '0')}-${slug(f)}`, template: `{{printf "${f}" ${a}}}`, data })));

// --- the error forms ---
const errorCases = [
  ['%d', '"x"'], ['%s', '1'], ['%t', '1'], ['%d', '1.5'], ['%f', '1'], ['%s', 'true'], ['%d', 'true'], ['%c', '"c"'],
  ['%z', '1'], ['%z', '"s"'], ['%!', '1'], ['%d %d', '1'], ['%d', ''], ['%s', 'nil'], ['%d', 'nil'], ['%x', 'nil'],
  ['%d', '1 2'], ['%s', '"a" "b" 3'], ['no verbs', '"a" 1 nil'], ['%', ''], ['abc%', ''], ['%5', '1'], ['%.', '1'],
  ['%-', '1'], ['%*d', '"w" 1'], ['%*d', '1.5 1'], ['%.*d', '"p" 1'], ['%*d', '10000000 1'], ['%[3]d', '1 2'],
  ['%[0]d', '1'], ['%[x]d', '1'], ['%[1]2d', '1'], ['%[1].2d', '1'], ['%[1]', '1'], ['%[1', '1'], ['%[2]d %d', '1 2'],
  ['%[1]d %d %d', '1 2'], ['%5t', '"x"'], ['%-8d|', '"x"'], ['%d', '.l'], ['%d', '.m'], ['%x', 'true'], ['%e', '"e"'],
  ['%!d(string=x)', ''], ['%%%d%%', '5'], ['%5%|', ''], ['%ä', '1'], ['%d', '.nul'], ['%s', '.missing'], ['%v', '.missing'],
  ['%d %s', '.missing .missing'],
];
file('printf-errors', errorCases.map(([f, a], i) => ({ name: `err-${String(i + 1).padStart(2, '0')}-${slug(f)}`, template: `{{printf "${f}" ${a}}}`, data })));

// --- floats: %v (shortest, 'g' with exponent threshold 21 digits? no: 6), and precisions ---
const floatValues = ['0.0', '1.0', '-1.0', '0.1', '0.2', '0.3', '100.0', '123456.0', '1234567.0', '1e6', '1e20', '1e21', '1e-4', '1e-5',
  '0.000012345', '3.141592653589793', '2.5e-300', '1.7976931348623157e308', '5e-324', '123456789.0', '0.1e1', '1.5e10',
  '999999.0', '999999.9', '9999999.0', '-0.0'];
const floatCases = [];
floatValues.forEach((v, i) => {
  floatCases.push({ name: `float-v-${i}`, template: `{{${v}}}|{{print ${v}}}|{{printf "%v %g %e %f %.2f %.3g %G" ${v} ${v} ${v} ${v} ${v} ${v} ${v}}}` });
});
const dataFloats = { a: 0.1, b: 1e21, c: 1e-7, d: 123456789, e: 1.5, f: 100, g: 1e6, h: -2.25, i: 12345.678, j: 0.30000000000000004, k: 1e100, l: 4.35 };
for (const k of Object.keys(dataFloats)) {
  floatCases.push({ name: `float-data-${k}`, template: `{{.${k}}} {{printf "%v|%.1f|%.0f|%e|%g|%8.3g|%x" .${k} .${k} .${k} .${k} .${k} .${k} .${k}}}`, data: dataFloats });
}
floatCases.push({ name: 'float-list', template: '{{.}}', data: [0.1, 1e21, 1e-7, 100, 2.5, -0] });
floatCases.push({ name: 'float-map', template: '{{.}}', data: dataFloats });
floatCases.push({ name: 'float-int-data', template: '{{.n}} {{printf "%T %v %d" .n .n .n}} {{.f}} {{printf "%T" .f}}', data: { n: 3, f: 1.5 }, dataInt: true });
floatCases.push({ name: 'float-data-not-int', template: '{{.n}} {{printf "%T %v %d" .n .n .n}}', data: { n: 3 } });
floatCases.push({ name: 'float-rounding-half-even', template: '{{printf "%.0f %.0f %.0f %.1f %.1f %.2f %.2f" 0.5 1.5 2.5 0.25 0.35 1.005 2.675}}' });
floatCases.push({ name: 'float-typed', template: '{{printf "%v %v %T %.3f %e" .f32 .f64 .f32 .f32 .f32}}', fixture: 'values' });
file('floats', floatCases);

// --- print and println spacing, {{.}} printing ---
const printCases = [
  ['print', '"a" "b"'], ['print', '1 2'], ['print', '"a" 1 "b"'], ['print', '1 "a" 2'], ['print', '1.5 2'], ['print', 'nil nil'],
  ['print', 'nil "a" nil'], ['print', 'true false'], ['print', '.l .m'], ['print', '"" ""'], ['print', '1 "" 2'], ['print', ''],
  ['print', '.s .f .t'], ['print', '.missing'], ['print', '.missing .missing'], ['print', '.nul 1'], ['print', '"x" .l'],
  ['println', '"a" "b"'], ['println', '1 2'], ['println', ''], ['println', '.l'], ['println', 'nil'], ['println', '"a" 1 nil'],
];
const printVectors = printCases.map(([fn, a], i) => ({ name: `${fn}-${String(i + 1).padStart(2, '0')}`, template: `[{{${fn} ${a}}}]`, data }));
const valueCases = [
  '.s', '.u', '.f', '.big', '.small', '.tenth', '.hundred', '.million', '.third', '.neg', '.zero', '.t', '.nul', '.missing',
  '.l', '.m', '.el', '.em', '.nested', '.nested.a', '.nested.a.b', '.m.d', '.m.d.z', '.', '42', '-0x10', "'x'", '1.0',
  '3e2', '"str"', 'true', '0o17', '1_000', '0b101',
];
valueCases.forEach((v, i) => printVectors.push({ name: `value-${String(i + 1).padStart(2, '0')}-${slug(v)}`, template: `{{${v}}}`, data }));
const typedValues = ['i', 'i8', 'i64', 'u8', 'u64', 'f32', 'f64', 'strs', 'ints', 'empty', 'nilslice', 'ss', 'si', 'nilmap', 'ptr',
  'nilptr', 'meta', 'phase', 'iface', 'bytes', 'nested', 'wrap', 'nilwrap'];
for (const k of typedValues) {
  printVectors.push({ name: `typed-${k}`, template: `{{.${k}}}|{{print .${k}}}|{{printf "%v|%+v|%T" .${k} .${k} .${k}}}`, fixture: 'values' });
}
printVectors.push({ name: 'typed-phase-verbs', template: '{{printf "%v %s %d %q %x %5s|" .phase .phase .phase .phase .phase .phase}}', fixture: 'values' });
printVectors.push({ name: 'typed-bytes-verbs', template: '{{printf "%s %q %x %X %d %v" .bytes .bytes .bytes .bytes .bytes .bytes}}', fixture: 'values' });
printVectors.push({ name: 'typed-ints-verbs', template: '{{printf "%d %x %05d %c %U %o" .u8 .i64 .i8 .i .i .u64}}', fixture: 'values' });
printVectors.push({ name: 'typed-slices-verbs', template: '{{printf "%q %x %d %5s|" .strs .ints .ints .strs}}', fixture: 'values' });
printVectors.push({ name: 'typed-maps-verbs', template: '{{printf "%v %d %q %#v" .si .si .ss .ss}}', fixture: 'values' });
printVectors.push({ name: 'typed-struct-verbs', template: '{{printf "%v %+v %s %d" .meta .meta .meta .meta}}', fixture: 'values' });
printVectors.push({ name: 'typed-ptr-struct', template: '{{printf "%v %+v" .ptr .ptr}} {{.ptr}}', fixture: 'values' });
printVectors.push({ name: 'typed-nil-ptr', template: '{{printf "%v %d %s %+v" .nilptr .nilptr .nilptr .nilptr}}', fixture: 'values' });
printVectors.push({ name: 'typed-nils', template: '{{printf "%v %v %#v %#v %#v" .nilmap .nilslice .nilmap .nilslice .iface}}', fixture: 'values' });
printVectors.push({ name: 'typed-nested-verbs', template: '{{printf "%v %d %s" .nested .nested .nested}}', fixture: 'values' });
printVectors.push({ name: 'typed-print-mix', template: '{{print .i .s .f64 .phase .strs}}|{{println .i .s .phase}}', fixture: 'values' });
printVectors.push({ name: 'pod-fields', template: '{{.Phase}} {{.Replicas}} {{.Ratio}} {{.Weight}} {{.Priority}} {{.Small}} {{.Port}} {{.Limits}} {{.Tags}} {{.Empty}} {{.NoLabels}} {{.Extra}} {{.Detail}}', fixture: 'pod' });
printVectors.push({ name: 'pod-meta', template: '{{.Meta}}|{{printf "%+v" .Meta}}|{{.Labels}}|{{(index .Containers 1)}}', fixture: 'pod' });
printVectors.push({ name: 'pod-ports', template: '{{(index .Containers 0).Ports}}|{{printf "%+v" (index .Containers 0).Ports}}|{{printf "%T" (index .Containers 0).Ports}}', fixture: 'pod' });
printVectors.push({ name: 'pod-types', template: '{{printf "%T|%T|%T|%T|%T|%T|%T" .Phase .Weight .Small .Port .Limits .Tags .Meta}}', fixture: 'pod' });
printVectors.push({ name: 'pod-nil-fields', template: '{{.Rewrite}}|{{.Extra}}|{{printf "%v|%v|%v" .Rewrite .Extra .Empty}}', fixture: 'pod' });
file('print-and-values', printVectors);

// --- strings: quoting, unicode, hex ---
const strCases = [
  ['%q', '"tab\\there"'], ['%q', '"nl\\nret\\r"'], ['%q', '"bell\\a bs\\b ff\\f vt\\v"'], ['%q', '"nul\\x00 del\\x7f"'],
  ['%q', '"bad\\xff\\xfe byte"'], ['%x', '"bad\\xff"'], ['%q', '"\\u200b zwsp"'], ['%q', '"\\ufeff bom"'], ['%q', '"\\u00a0 nbsp"'],
  ['%q', '"\\U0001F600 emoji"'], ['%+q', '"\\U0001F600 emoji é"'], ['%q', '"\\u2028 ls"'], ['%q', '"\\U000E0001 tag"'],
  ['%q', '"\\U0010FFFF max"'], ['%q', '"\\ue000 private"'], ['%#q', '"has\\ttab"'], ['%#q', '"has\\nnl"'], ['%#q', '"\\ufeff"'],
  ['%#q', '"é"'], ['%#+q', '"é"'], ['%q', '"back\\\\slash"'], ['%q', "`raw \"q\"`"], ['%c', '0xD800'], ['%c', '0x110000'],
  ['%c', '-1'], ['%q', '0xD800'], ['%q', '0x7F'], ['%q', '0x0A'], ['%q', '0x27'], ['%+q', '0xE9'], ['%U', '0x110000'],
  ['%#U', '0x2028'], ['%#U', '0x1F600'], ['%x', '"日本"'], ['% X', '"日本"'], ['%.2x', '"日本"'], ['%10.1q|', '"日本"'],
  ['%-10q|', '"é"'], ['%q', '(printf "%5s|" "\\xff")'], ['%q', '(printf "%.1s|" "\\xffa")'], ['%s', '"\\xc3\\xa9"'], ['%q', '"\\xc3\\xa9"'], ['%q', '"\\xc3"'],
  ['%v|%s', '"a\\x00b" "x\\ty"'], ['%08q', '"a"'], ['%-08q|', '"a"'], ['%x', '""'], ['%5x|', '""'], ['% x', '"abc"'],
  ['%#-10x|', '"ab"'], ['%010x', '"ab"'],
];
file('strings', strCases.map(([f, a], i) => ({ name: `str-${String(i + 1).padStart(2, '0')}-${slug(f)}`, template: `{{printf "${f}" ${a}}}` })));
