// Literal pools and random data shared by the generators. Values are chosen to hit Go's edge cases:
// int vs float, huge and negative numbers, unicode, strings YAML would read as something else.

/** Go template string literals (source text). */
export const STRING_LITS = [
  '""', '"a"', '"abc"', '"hello world"', '"Hello, World"', '"x,y,z"', '"a b  c"', '"  padded  "',
  '"\\t\\n\\\\\\""', '"\\x41\\101\\u00e9\\U0001F600"', '`raw\\n`', '`a"b`', '"<a href=\'x\'>&amp;</a>"',
  '"héllo wörld"', '"日本語"', '"😀x"', '"ǅemo"', '"ß"', '"İstanbul"', '"123"', '"-4"', '"1.5"', '"0x1F"',
  '"1e3"', '"true"', '"false"', '"null"', '"~"', '"yes"', '"foo_bar-baz"', '"FooBar"', '"fooBar"',
  '"HTTPServer"', '"a.b.c"', '"/usr/local/bin/"', '"../x/./y"', '"a/b.tar.gz"', '"key=value"',
  '"line1\\nline2"', '"trailing\\n"', '"\\u00a0nbsp"', '"a\\x00b"', '"\\xff\\xfe"', '"%d %s"', '"{{x}}"',
  '"UPPER lower"', '"snake_case_word"', '"kebab-case-word"', '"1.2.3"', '"v2.0.0-rc.1+b5"', '"http://u:p@h:80/p?q=1#f"',
];

export const INT_LITS = [
  '0', '1', '2', '3', '5', '10', '-1', '-3', '42', '100', '255', '1000', '0x1F', '0X1f', '0o17', '017', '0b101',
  '1_000', '0x_1F', '9223372036854775807', '-9223372036854775808', '4294967296', "'a'", "'\\n'", "'é'", "'\\x41'",
  "'\\u00e9'", "'😀'", '007', '-0',
];
export const FLOAT_LITS = ['1.5', '-2.5', '0.0', '.5', '1.', '1e3', '1E-3', '2.0', '0x1p-2', '1e100', '3.14159', '-0.0', '1e21', '1e20', '123456789.125', '0.1', '1_0.5'];
export const BIG_LITS = ['9223372036854775808', '18446744073709551615', '18446744073709551616', '1e309', '99999999999999999999'];
export const MISC_LITS = ['true', 'false', 'nil', '2i', '1+2i'];

export const IDENT_KEYS = ['a', 'b', 'c', 'x', 'y', 'name', 'items', 'n', 'f', 's', 'list', 'm', 'on', 'off', 'Name', 'Value', 'k1', 'zero', 'empty', 'nil_', 'flag', 'port', 'labels'];
export const ODD_KEYS = ['', 'a-b', 'a.b', '1', 'true', 'with space', 'é', 'x:y', '#c', 'null', 'Yes', '0x10', '~'];

/** Plain data strings (JSON values). */
export const DATA_STRINGS = [
  '', 'a', 'abc', 'hello world', 'x', 'true', 'false', 'yes', 'no', 'on', 'off', 'y', 'n', 'Y', 'N', 'True', 'FALSE', 'null', 'Null', '~',
  '1', '0', '-1', '1.0', '1.5', '-2.5', '1e3', '1E3', '.5', '5.', '0x1F', '0o17', '017', '0b11', '1_000', '+1', '+.5', '.inf', '-.Inf', '.nan', 'NaN', 'Infinity',
  '123456789012345678901', '00', '08', '09', '1:30', '12:30:45', '2001-12-14', '2001-12-14t21:59:43.10-05:00',
  ' lead', 'trail ', ' both ', 'a: b', 'a:b', 'a #b', 'a#b', '#c', '- x', '-x', '-', '--', '---', '...', '? x', '?x', ': x', '[x', ']x', '{x', '}x', 'a, b', ',', '*x', '&x', '!x', '|x', '>x', "'x", '"x', 'x"', "x'", '%x', '@x', '`x', '=', '<<',
  'x\ny', 'x\n', '\n', '\nx', 'x\n\n', 'a\n b', 'x\ty', '\t', 'x\r\ny', 'x\r', ' \n ', 'a\\b', 'tab\tand\nnewline',
  'é', 'naïve café', '日本語', '😀', 'a😀b', '\u0001', '\u007f', '\u0085', '\u2028', '\u00a0', '\ufeff', 'e\u0301',
  'word '.repeat(20).trim(), 'x'.repeat(90), 'a b '.repeat(30), 'long line with many words that will certainly exceed the eighty column limit of yaml folding',
  'Name', 'name', 'APP_ENV', 'sidecar.istio.io/inject', 'docker.io/istio/proxyv2:1.20.0', '/etc/istio/proxy', 'http://example.com/a?b=c&d=e', '10.0.0.1/24', '8080', '15001', '*', '0.0.0.0',
];

export const NUMBERS = [0, 1, 2, 3, -1, -7, 42, 100, 1.5, -2.5, 0.1, 0.25, 3.14159, 1e21, 1e20, 1e-7, 123456789, 1234567890123, 9007199254740993, 2 ** 53, 1e100, -0.5, 65535, 4294967295, 0.000001, 123.456, 1e6, 1e7, 5e-324];

export function identKey(r) {
  return r.pick(IDENT_KEYS);
}

/** Random JSON value: nested maps and lists of scalars. */
export function randValue(r, depth = 3, opts = {}) {
  const kinds = depth <= 0 ? [[5, 'str'], [4, 'num'], [1, 'bool'], [1, 'null']] : [[5, 'str'], [4, 'num'], [1, 'bool'], [1, 'null'], [3, 'list'], [3, 'map']];
  switch (r.weighted(kinds)) {
    case 'str':
      return r.pick(DATA_STRINGS);
    case 'num':
      return r.chance(0.6) ? r.range(-3, 20) : r.pick(NUMBERS);
    case 'bool':
      return r.chance(0.5);
    case 'null':
      return null;
    case 'list': {
      const n = r.weighted([[1, 0], [3, 1], [4, 2], [3, 3], [1, 5]]);
      const out = [];
      for (let i = 0; i < n; i++) out.push(randValue(r, depth - 1, opts));
      return out;
    }
    case 'map': {
      const n = r.weighted([[1, 0], [3, 1], [4, 2], [3, 3], [1, 5]]);
      const out = {};
      for (let i = 0; i < n; i++) out[r.chance(opts.oddKeys ?? 0.15) ? r.pick(ODD_KEYS) : identKey(r)] = randValue(r, depth - 1, opts);
      return out;
    }
  }
}

/** Every path into data: {path:[...keys], value}; keys are strings (maps) or numbers (lists). */
export function paths(v, prefix = [], out = []) {
  out.push({ path: prefix, value: v });
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...prefix, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out);
  return out;
}

export function kindOf(v) {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'number') return 'num';
  if (typeof v === 'string') return 'str';
  return 'bool';
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Template expression reaching a path: field chain when possible, index otherwise. */
export function pathExpr(path, root = '.') {
  let expr = root === '.' ? '' : root;
  let needIndex = false;
  for (const k of path) if (typeof k === 'number' || !IDENT.test(k)) needIndex = true;
  if (!needIndex) return path.length === 0 ? root : expr + path.map((k) => '.' + k).join('');
  const keys = path.map((k) => (typeof k === 'number' ? String(k) : JSON.stringify(k)));
  return `(index ${root} ${keys.join(' ')})`;
}

export function goQuote(s) {
  // JSON escapes are valid Go interpreted-string escapes except \u2028-like which are fine too.
  return JSON.stringify(s);
}
