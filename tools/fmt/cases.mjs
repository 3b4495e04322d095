// Writes the fmt table inputs (JSON Lines) to stdout; tools/fmt/main.go adds Go's output:
//   node tools/fmt/cases.mjs | tools/fmt/fmtcases > test/template/fmt.cases.jsonl
const t = (type, v) => ({ t: type, v });
const fx = (name) => ({ fixture: name });

const ints = [
  t('int', '0'), t('int', '42'), t('int', '-42'), t('int', '9223372036854775807'), t('int', '-9223372036854775808'),
  t('int8', '-128'), t('int16', '1234'), t('int32', '65'), t('int64', '-1'), t('uint', '7'), t('uint8', '255'),
  t('uint16', '0'), t('uint32', '4294967295'), t('uint64', '18446744073709551615'), t('uintptr', '4096'),
  t('int', '128512'), t('int', '55296'), t('int', '1114112'), t('int32', '10'), t('int32', '-1'),
];
const floats = [
  0, 1, -1.5, 0.1, 100, 1e21, 1e20, 1e-5, 0.0001, 123456789, 1234567, 123456, 3.14159265358979, 2.5, 0.5,
  -0.000123, 1e100, 5e-324, 1.7976931348623157e308, 0.3, 1 / 3, 999999.5,
  t('float64', 'NaN'), t('float64', '+Inf'), t('float64', '-Inf'), t('float64', '-0'),
  t('float32', '0.1'), t('float32', '16777216'), t('float32', '3.4028234663852886e38'), t('float32', '1e-45'),
  t('float32', '0.333333333'), t('float32', '1e21'),
];
const strs = ['', 'hello', 'héllo wörld', 'a"b\\c\n\t', '日本語', 'x\u0007y\u007f', '\u200b\ufeff', '`back`', 'a b',
  '\u{1F600}', 'ABCDEFGHIJ', '%d', '\u00a0nbsp'];
const others = [true, false, null, [1, 'a', null, 2.5], { b: 1, a: 'x', c: [true] }, [], {},
  [[1, 2], { k: 'v' }], { z: { y: { x: 1 } } },
  t('[]string', ['a', 'b c']), t('[]int', [t('int', '1'), t('int', '-2')]), t('[]uint8', ['104', '105', '255']),
  t('[]float64', [0.5, 1e21]), t('map[string]string', { b: '2', a: '1' }), t('map[string]int', { x: t('int', '3') }),
  ...['t1', 'pt1', 'nilpt1', 'temp', 'err', 'boom', 'ptrstr', 'nilptrstr', 'mode', 'nilmap', 'nilslice', 'nilstrs',
    'bytes', 'nilbytes', 'wrap', 'emb', 'listt1', 'mapt1', 'listerr', 'maptemp', 'mapint', 'nilerr'].map(fx),
];

const verbs = ['v', '+v', '#v', 'T', 'd', 's', 'q', 't', 'x', 'X', 'o', 'O', 'b', 'c', 'U', 'e', 'E', 'f', 'F', 'g', 'G', 'z', '!'];
const out = [];
const add = (fn, format, args) => out.push(JSON.stringify({ fn, format, args }));

// every verb on every operand
for (const a of [...ints, ...floats, ...strs, ...others]) for (const v of verbs) add('sprintf', '%' + v, [a]);

// flags, width and precision on numbers
const numFlags = ['5', '-5', '05', '+', ' ', '#', '.0', '.3', '8.3', '-8.3', '+08.3', '08.3', '+.2', '# 8', '#08', '-08', ' 05', '+ 5', '.10', '020.12'];
for (const a of [...ints.slice(0, 6), t('uint8', '255'), t('int', '26085')]) {
  for (const fl of numFlags) for (const v of ['d', 'x', 'X', 'o', 'b', 'c', 'q', 'U', 'v']) add('sprintf', '%' + fl + v, [a]);
}
for (const a of [0, 1, -1.5, 0.1, 1e21, 1e-5, 123456789, 2.5, 0.5, 999999.5, t('float64', 'NaN'), t('float64', '-Inf'),
  t('float64', '-0'), t('float32', '0.1'), t('float32', '0.333333333')]) {
  for (const fl of numFlags) for (const v of ['e', 'f', 'g', 'G', 'v', 'x']) add('sprintf', '%' + fl + v, [a]);
}
// flags, width and precision on strings, byte slices and containers
const strFlags = ['5', '-5', '05', '.2', '8.3', '-8.3', '#', '+', ' ', '# ', '#.1', '010', '-010', '.0'];
for (const a of [...strs, t('[]uint8', ['104', '105', '255']), fx('bytes'), fx('nilbytes'), ['ab', 'cd'], { k: 'v' }, fx('temp'), fx('err'), true]) {
  for (const fl of strFlags) for (const v of ['s', 'q', 'x', 'X', 'v', 't']) add('sprintf', '%' + fl + v, [a]);
}

// Printf syntax: indexes, stars, errors
const syntax = [
  ['%[2]d %[1]d', [t('int', '1'), t('int', '2')]],
  ['%[3]d', [t('int', '1'), t('int', '2')]],
  ['%[0]d', [t('int', '1')]],
  ['%[x]d', [t('int', '1')]],
  ['%[1]d %d', [t('int', '1'), t('int', '2')]],
  ['%[2]*[1]d', [t('int', '12'), t('int', '5')]],
  ['%[3]*.[2]*[1]f', [12.0, t('int', '2'), t('int', '6')]],
  ['%.[2]d', [t('int', '1'), t('int', '2')]],
  ['%[1]2d', [t('int', '1')]],
  ['%[1].2d', [t('int', '1')]],
  ['%[1]', [t('int', '1')]],
  ['%[1', [t('int', '1')]],
  ['%[]d', [t('int', '1')]],
  ['%*d', [t('int', '5'), t('int', '3')]],
  ['%-*d|', [t('int', '5'), t('int', '3')]],
  ['%*d|', [t('int', '-5'), t('int', '3')]],
  ['%.*f', [t('int', '2'), 3.14159]],
  ['%.*f', [t('int', '-2'), 3.14159]],
  ['%*d', ['x', t('int', '3')]],
  ['%*d', [5.0, t('int', '3')]],
  ['%*d', [t('int', '10000000'), t('int', '3')]],
  ['%.*d', ['x', t('int', '3')]],
  ['%*.*f', [t('int8', '8'), t('uint16', '2'), 1.0]],
  ['%*d', [t('uint64', '18446744073709551615'), t('int', '3')]],
  ['%*', [t('int', '3')]],
  ['%', []],
  ['abc%', []],
  ['%5', [t('int', '1')]],
  ['%-', [t('int', '1')]],
  ['%.', [t('int', '1')]],
  ['%.d', [t('int', '7')]],
  ['%d', []],
  ['%d %d', [t('int', '1')]],
  ['%d', [t('int', '1'), 'a', null, [1]]],
  ['no verbs', ['a', t('int', '2')]],
  ['%%', [t('int', '1')]],
  ['%5%', []],
  ['%-5%|', []],
  ['%ä', [t('int', '1')]],
  ['%!', [t('int', '1')]],
  ['%v %v', [null, null]],
  ['%s', [null]],
  ['%d', [null]],
  ['%T', [null]],
  ['%v', []],
  ['%[2]v %v', ['a', 'b', 'c']],
  ['%[1]v %v %v', ['a', 'b']],
  ['%1234d|', [t('int', '1')]],
  ['%.300d', [t('int', '1')]],
  ['%9999999999d', [t('int', '1')]],
  ['%[99999999999]d', [t('int', '1')]],
  ['%x %X % x %#x %# x', ['hi', 'hi', 'hi', 'hi', 'hi']],
  ['%+q %#q %#+q', ['日本\t', 'raw`', 'a\u00e9']],
  ['%c|%5c|%-5c|', [t('int', '65'), t('int', '26085'), t('int', '66')]],
  ['%U %#U %#U %#U', [t('int', '26085'), t('int', '26085'), t('int', '10'), t('int', '-1')]],
  ['%#.8U %.2U %08U', [t('int', '65'), t('int', '65'), t('int', '65')]],
  ['%q %+q %q %q', [t('int', '26085'), t('int', '26085'), t('int', '39'), t('int', '1114112')]],
  ['%#o %#O %O %#b %#X %#x', [t('int', '8'), t('int', '8'), t('int', '-8'), t('int', '5'), t('int', '255'), t('int', '0')]],
  ['%#08x|%-#8x|%+#x', [t('int', '255'), t('int', '255'), t('int', '255')]],
  ['%08d|%+08d|% 08d|%-08d|', [t('int', '-42'), t('int', '42'), t('int', '42'), t('int', '42')]],
  ['%.0d|%5.0d|%-5.0d|%05.0d|', [t('int', '0'), t('int', '0'), t('int', '0'), t('int', '0')]],
  ['%#g %#.3g %#e %#.0f %#.0e %#x %#X', [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]],
  ['%#g %#g %#g %#.4g', [0.0, 123456.0, 1e-7, 100.0]],
  ['%#v %#v %#v', [1.0, 1e21, 0.5]],
  ['%x %X %.3x %.0X %#.2x', [3.5, -0.1, 1.0, 1.0, 1e300]],
  ['%b %b', [1.0, t('float32', '0.5')]],
  ['%08.3f|%-08.3f|%+08.3f|% 8.3f|', [-3.14159, 3.14159, 3.14159, 3.14159]],
  ['%08f|%+08f|% 08f|%-8f|', [t('float64', 'NaN'), t('float64', '+Inf'), t('float64', '-Inf'), t('float64', 'NaN')]],
  ['% f|%+f|% +f', [t('float64', 'NaN'), t('float64', 'NaN'), t('float64', 'NaN')]],
  ['%5t|%-7t|%05t', [true, false, true]],
  ['%.2s|%.5s|%.0s|%5.1s|', ['日本語', 'ab', 'abc', 'héllo']],
  ['%6.2q', ['日本語']],
  ['%.1x %.2X %.0x', ['hello', 'hello', 'hello']],
  ['%s %d', [[t('int', '1'), 'a'], ['a', t('int', '1')]]],
  ['%d', [{ a: 'x', b: t('int', '2') }]],
  ['%x', [{ a: 'hi', b: t('int', '255') }]],
  ['%q', [[t('int', '65'), 'a', null]]],
  ['%5v', [[t('int', '1'), 'ab']]],
  ['%05d', [[t('int', '1'), t('int', '-2')]]],
  ['%v %s %d', [fx('temp'), fx('temp'), fx('temp')]],
  ['%v %s %d %q %x', [fx('err'), fx('err'), fx('err'), fx('err'), fx('err')]],
  ['%v|%s|%d', [fx('boom'), fx('boom'), fx('boom')]],
  ['%v %s', [fx('ptrstr'), fx('nilptrstr')]],
  ['%v %d %s', [fx('nilpt1'), fx('nilpt1'), fx('nilpt1')]],
  ['%v %+v %#v', [fx('pt1'), fx('pt1'), fx('t1')]],
  ['%v %d %x', [fx('mode'), fx('mode'), fx('mode')]],
  ['%s', [fx('listerr')]],
  ['%v', [fx('maptemp')]],
  ['%d', [fx('maptemp')]],
  ['%T %T %T %T %T %T', [fx('t1'), fx('pt1'), fx('temp'), fx('nilmap'), fx('bytes'), fx('mapint')]],
  ['%T %T %T %T %T', [t('int', '1'), 1.0, 'a', [], {}]],
  ['%T %T %T', [t('float32', '1'), t('uint8', '1'), true]],
  ['%!d', [t('int', '1')]],
  ['%d %!', [t('int', '1'), t('int', '2')]],
  ['%-+ #0d', [t('int', '5')]],
  ['%+-5d|', [t('int', '5')]],
  ['%0-5d|', [t('int', '5')]],
  ['%-05d|', [t('int', '5')]],
];
for (const [f, a] of syntax) add('sprintf', f, a);

// Sprint and Sprintln spacing
const printArgs = [
  ['a', 'b'], ['a', t('int', '1')], [t('int', '1'), t('int', '2')], [t('int', '1'), 'a', t('int', '2')],
  [1.5, 2.5], [null, null], [null, 'a', null], [true, false], [[1, 2], [3]], ['', ''], [t('int', '1'), '', t('int', '2')],
  [fx('temp'), fx('err')], [fx('t1'), 'x', fx('pt1')], [], [{ a: 1 }, { b: 2 }], [fx('mode'), t('int', '3')],
];
for (const a of printArgs) {
  add('sprint', '', a);
  add('sprintln', '', a);
}

// {{.}}: text/template's own printing
for (const a of [...ints.slice(0, 6), ...floats, ...strs.slice(0, 6), ...others]) add('value', '', [a]);

// strconv: FormatFloat on pseudo-random and chosen floats in every format
const dv = new DataView(new ArrayBuffer(8));
let seed = 20240601;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const chosen = [0, -0, 1, 0.1, 0.5, 1.5, 2.5, 1e21, 1e20, 1e-5, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
  123456789, 1e6, 100000, 0.3, 1 / 3, 2 / 3, 9.5, 0.05, 0.125, 1e23, 8.41e21, 5.960464477539063e-8, 4.35, 1.005, Infinity, -Infinity, NaN];
const floatsToFormat = [...chosen];
for (let i = 0; i < 300; i++) {
  const k = rnd();
  if (k < 0.4) {
    dv.setUint32(0, Math.floor(rnd() * 2 ** 32));
    dv.setUint32(4, Math.floor(rnd() * 2 ** 32));
    floatsToFormat.push(dv.getFloat64(0));
  } else if (k < 0.6) {
    dv.setUint32(0, Math.floor(rnd() * 2 ** 32));
    floatsToFormat.push(dv.getFloat32(0));
  } else floatsToFormat.push((rnd() - 0.5) * 10 ** Math.floor(rnd() * 50 - 25));
}
const ffmts = ['e', 'E', 'f', 'g', 'G', 'b', 'x', 'X'];
for (const f of floatsToFormat) {
  dv.setFloat64(0, f);
  const bits = dv.getBigUint64(0).toString(16);
  for (let j = 0; j < 4; j++) {
    const fm = ffmts[Math.floor(rnd() * ffmts.length)];
    const prec = j === 0 ? -1 : Math.floor(rnd() * (rnd() < 0.8 ? 12 : 40));
    out.push(JSON.stringify({ fn: 'formatFloat', args: [bits, fm, prec, rnd() < 0.3 ? 32 : 64] }));
  }
}
for (const [n, base] of [['0', 10], ['-9223372036854775808', 2], ['255', 16], ['-255', 36], ['9223372036854775807', 8], ['35', 36]]) {
  out.push(JSON.stringify({ fn: 'formatInt', args: [t('int64', n), base] }));
}
const quoteStrings = ['', 'plain', 'tab\tnl\n', '"quoted"', 'back\\slash', '\u0000\u0007\u007f\u0080\u009f', '\u00a0\u00ad',
  '\u200b\u200e\u2028\u2029\u202e', '\ufeff\ufffd\uffff', '\ue000\uf8ff', '日本語 ελληνικά العربية', '\u{1F600}\u{10FFFF}\u{E0001}',
  '`', 'é', '\u0378\u0530\u2fff\u{1D455}\u{2FFFF}'];
const quoteHex = ['ff', '61ff62', 'c3', 'c3a9', 'eda080', 'f4908080', 'e282', 'c0af', 'f0'];
for (const fn of ['quote', 'quoteToASCII', 'canBackquote']) {
  for (const s of quoteStrings) out.push(JSON.stringify({ fn, args: [s] }));
  for (const h of quoteHex) out.push(JSON.stringify({ fn, args: [t('string-hex', h)] }));
}
const runesToQuote = [0, 7, 9, 10, 31, 32, 39, 34, 92, 127, 128, 160, 173, 0x2028, 0xd800, 0xfeff, 0xfffd, 0xe000, 0x1f600, 0x10ffff, 0x110000, -1, 0xe0001, 0x30000];
for (const fn of ['quoteRune', 'quoteRuneToASCII', 'isPrint']) {
  for (const r of runesToQuote) out.push(JSON.stringify({ fn, args: [t('int32', String(r))] }));
}

process.stdout.write(out.join('\n') + '\n');
