// Unusual and hostile chart archives, each with what Helm 3.17.1 answered for `helm template X.tgz`:
// the lines its template printed, or its error. Entry kinds (links, devices, FIFOs and folders), names
// that leave the chart, PAX records and GNU long names, header fields, sparse files, the end of the
// archive and the gzip stream around it. Then the bounds: a gzip bomb, an archive that is a device or
// a huge sparse file, and a chart tree past its bounds on charts, files or bytes (Helm has none: it
// ran out of time or memory where the answer here is one line).

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadChart, renderChart } from '../../src/helm/index.js';
import { InputError } from '../../src/yaml/load.js';
import { tarBytes, tarHeader, tgzOf, type TarItem } from '../helpers/tar.mjs';
import { cleanError, runBin } from '../hardening/spawn.js';

const tmp = mkdtempSync(join(tmpdir(), 'sidecar-render-tar-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CHART: TarItem = { name: 'c/Chart.yaml', data: 'apiVersion: v2\nname: c\nversion: 0.1.0\n' };
/** Every file of the chart with its content, then what .Files.Get "link" gives. */
const GLOB: TarItem = {
  name: 'c/templates/cm.yaml',
  data: '{{- range $k, $v := .Files.Glob "**" }}\n{{ $k }}: {{ $v | toString | quote }}\n{{- end }}\nget: {{ .Files.Get "link" | quote }}\n',
};
const with_ = (...items: TarItem[]): Buffer => tgzOf([CHART, GLOB, ...items]);
const hello = (extra: Partial<TarItem> = {}): TarItem => ({ name: 'c/link', data: 'hello', ...extra });

/** A header with `value` written over its bytes at `offset`, the checksum made right again. */
function patched(item: TarItem, size: number, offset: number, value: Buffer | string, signed = false): Buffer {
  const h = tarHeader(item, size);
  (typeof value === 'string' ? Buffer.from(value, 'latin1') : value).copy(h, offset);
  h.write('        ', 148, 'latin1');
  let sum = 0;
  for (const b of h) sum += signed && b > 127 ? b - 256 : b;
  h.write((sum < 0 ? sum + 0o1000000 : sum).toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
  return h;
}
const block = (data: string): Buffer => Buffer.concat([Buffer.from(data), Buffer.alloc(512 - data.length)]);
const rawTgz = (...parts: Buffer[]): Buffer => gzipSync(Buffer.concat([tarBytes([CHART, GLOB], false), ...parts]));
const sparse = (records: Record<string, string>, data: Buffer | string, extra: Partial<TarItem> = {}): Buffer =>
  with_({ name: 'c/big', data, pax: { 'GNU.sparse.major': '0', 'GNU.sparse.minor': '1', ...records }, ...extra });

const ok = (...lines: string[]): string => lines.join('\n');
const LINK_EMPTY = ok('link: ""', 'get: ""');
const LINK_HELLO = ok('link: "hello"', 'get: "hello"');
const NOTHING = ok('get: ""');
const BAD_HEADER = 'Error: archive/tar: invalid tar header';

/** What `helm template FILE` printed below the Source lines, or its error without Helm's prefix. */
function ours(name: string, archive: Buffer): string {
  const file = join(tmp, `${name}.tgz`);
  writeFileSync(file, archive);
  try {
    const text = renderChart(file, { namespace: 'default', name: 'release-name' }).text;
    return text
      .split('\n')
      .filter((l) => l !== '' && l !== '---' && !l.startsWith('# Source:'))
      .join('\n');
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    expect(e.file?.startsWith(file)).toBe(true);
    return `Error: ${e.reason.replace(/^not a chart archive: /, '')}`;
  }
}

export const cases: Record<string, [Buffer, string]> = {
  // entry kinds: Go reads no data for links, devices, FIFOs and folders; Helm keeps all but folders
  'a symbolic link is an empty file': [with_({ name: 'c/link', type: '2', linkname: 'Chart.yaml' }), LINK_EMPTY],
  'a symbolic link to outside the chart is an empty file': [with_({ name: 'c/link', type: '2', linkname: '../../../etc/passwd' }), LINK_EMPTY],
  'a hard link is an empty file': [with_({ name: 'c/link', type: '1', linkname: 'c/Chart.yaml' }), LINK_EMPTY],
  'a character device is an empty file': [with_({ name: 'c/link', type: '3' }), LINK_EMPTY],
  'a block device is an empty file': [with_({ name: 'c/link', type: '4' }), LINK_EMPTY],
  'a FIFO is an empty file': [with_({ name: 'c/link', type: '6' }), LINK_EMPTY],
  'a folder is skipped': [with_({ name: 'c/link', type: '5' }), NOTHING],
  'a file whose mode says folder is skipped': [with_(hello({ mode: 0o40755 })), NOTHING],
  'a file whose mode says FIFO is a file': [with_(hello({ mode: 0o10644 })), LINK_HELLO],
  'a PAX global header is skipped': [with_({ name: 'g', type: 'g', data: '12 path=c/x\n' }, hello()), LINK_HELLO],
  'a contiguous file is a file': [with_(hello({ type: '7' })), LINK_HELLO],
  'an unknown type (V) is a file': [with_(hello({ type: 'V' })), LINK_HELLO],
  'an unknown type (Z) is a file': [with_(hello({ type: 'Z' })), LINK_HELLO],
  'an old-style file (type NUL) is a file': [with_(hello({ type: '\0' })), LINK_HELLO],
  'a file named with a trailing slash is a file': [with_(hello({ name: 'c/link/' })), LINK_HELLO],
  // a size on an entry Go reads no data for: the data is read as the next header
  'a symbolic link with data': [with_({ name: 'c/link', type: '2', linkname: 'x', size: 5, data: 'hello' }), BAD_HEADER],
  'a hard link with data': [with_({ name: 'c/link', type: '1', linkname: 'x', size: 5, data: 'hello' }), BAD_HEADER],
  'a FIFO with data': [with_({ name: 'c/link', type: '6', size: 5, data: 'hello' }), BAD_HEADER],
  'a folder with data': [with_({ name: 'c/link', type: '5', size: 5, data: 'hello' }), BAD_HEADER],
  'an old-style folder (type NUL, trailing slash) with data': [with_(hello({ name: 'c/link/', type: '\0' })), BAD_HEADER],

  // names
  'a link named c/../../X': [with_({ name: 'c/../../X', type: '2', linkname: '/etc/passwd' }), 'Error: chart illegally references parent directory'],
  'a link named c/a/../../X': [with_({ name: 'c/a/../../X', type: '2', linkname: '/etc/passwd' }), 'Error: chart illegally references parent directory'],
  'a name starting with .. (c/..foo)': [with_(hello({ name: 'c/..foo' })), 'Error: chart illegally references parent directory'],
  'a name Chart.yaml/../../x': [with_(hello({ name: 'Chart.yaml/../../x' })), 'Error: chart illegally references parent directory'],
  'a link named c/a/../b stays inside': [with_({ name: 'c/a/../b', type: '2', linkname: '/etc/passwd' }), ok('b: ""', 'get: ""')],
  'a name with a leading slash loses its top folder like any other': [with_({ name: '/c/x', type: '2', linkname: '/etc/passwd' }), ok('c/x: ""', 'get: ""')],
  'a name with a slash after the top folder is absolute': [with_(hello({ name: 'c//x' })), 'Error: chart illegally contains absolute paths'],
  'a name with a drive letter': [with_(hello({ name: 'c/c:/x' })), 'Error: chart contains illegally named files'],
  'a Windows name with a drive letter': [with_(hello({ name: 'c\\c:\\x' })), 'Error: chart contains illegally named files'],
  'a Windows name with ..': [with_(hello({ name: 'c\\..\\..\\x' })), 'Error: chart illegally references parent directory'],
  'a Windows name': [with_(hello({ name: 'c\\link' })), LINK_HELLO],
  'a name with both separators splits at the backslash': [with_(hello({ name: 'c/x\\y' })), ok('y: "hello"', 'get: ""')],
  'a name with both separators, backslash first': [with_(hello({ name: 'c\\x/y' })), ok('x/y: "hello"', 'get: ""')],
  'Chart.yaml as a folder': [with_(hello({ name: 'Chart.yaml/x' })), 'Error: chart yaml not in base directory'],
  'Chart.yaml at the top': [tgzOf([{ name: 'Chart.yaml', data: 'x' }, CHART, GLOB]), 'Error: chart illegally contains content outside the base directory: "Chart.yaml"'],
  'a name outside any folder, quoted as Go quotes': [with_(hello({ name: 'a\tb"ü\x01' })), 'Error: chart illegally contains content outside the base directory: "a\\tb\\"ü\\x01"'],
  'a name ..': [with_(hello({ name: '..' })), 'Error: chart illegally contains content outside the base directory: ".."'],
  'a name written twice keeps the last': [with_(hello({ data: 'one' }), hello({ data: 'two' })), ok('link: "two"', 'get: "two"')],

  // PAX records and GNU long names
  'PAX size=0 leaves the data to be read as a header': [with_(hello({ pax: { size: '0' } })), BAD_HEADER],
  'PAX size=3 reads three bytes': [with_(hello({ pax: { size: '3' } })), ok('link: "hel"', 'get: "hel"')],
  'PAX size not a number': [with_(hello({ pax: { size: 'x' } })), BAD_HEADER],
  'PAX size negative': [with_(hello({ pax: { size: '-1' } })), BAD_HEADER],
  'PAX size empty keeps the header size': [with_(hello({ pax: { size: '' } })), LINK_HELLO],
  'PAX size with a plus sign': [with_(hello({ pax: { size: '+5' } })), LINK_HELLO],
  'PAX size on a symbolic link reads no data': [with_({ name: 'c/link', type: '2', pax: { size: '5' } }), LINK_EMPTY],
  'PAX path renames': [with_(hello({ name: 'c/zzz', pax: { path: 'c/link' } })), LINK_HELLO],
  'PAX path out of the chart': [with_(hello({ name: 'c/zzz', pax: { path: 'c/../../link' } })), 'Error: chart illegally references parent directory'],
  'PAX path with a NUL': [with_(hello({ pax: { path: 'c/a\0b' } })), BAD_HEADER],
  'PAX path empty keeps the header name': [with_(hello({ pax: { path: '' } })), LINK_HELLO],
  'PAX linkpath': [with_({ name: 'c/link', type: '2', pax: { linkpath: 'x' } }), LINK_EMPTY],
  'PAX mtime not a time': [with_(hello({ pax: { mtime: 'abc' } })), BAD_HEADER],
  'PAX uid not a number': [with_(hello({ pax: { uid: 'abc' } })), BAD_HEADER],
  'PAX unknown record': [with_(hello({ pax: { foo: 'abc' } })), LINK_HELLO],
  'PAX header of 1 MiB': [with_(hello({ pax: { comment: 'x'.repeat(1 << 20) } })), 'Error: archive/tar: header field too long'],
  'PAX header just under 1 MiB': [with_(hello({ pax: { comment: 'x'.repeat((1 << 20) - 20) } })), LINK_HELLO],
  'a PAX header and nothing after': [gzipSync(Buffer.concat([tarBytes([CHART, GLOB], false), tarHeader({ name: 'x', type: 'x' }, 0), Buffer.alloc(1024)])), NOTHING],
  'GNU long name renames': [with_(hello({ name: 'c/zzz', longName: 'c/link' })), LINK_HELLO],
  'GNU long name of 1 MiB': [with_(hello({ longName: 'c/' + 'x'.repeat(1 << 20) })), 'Error: archive/tar: header field too long'],
  'GNU long link name': [with_({ name: '././@LongLink', type: 'K', magic: 'gnu', data: 'target\0' }, { name: 'c/link', type: '2' }), LINK_EMPTY],

  // header fields
  'uid not a number': [rawTgz(patched(hello(), 5, 108, 'zz'), block('hello'), Buffer.alloc(1024)), BAD_HEADER],
  'mtime not a number': [rawTgz(patched(hello(), 5, 136, 'zz'), block('hello'), Buffer.alloc(1024)), BAD_HEADER],
  'mode not a number': [rawTgz(patched(hello(), 5, 100, 'zz'), block('hello'), Buffer.alloc(1024)), BAD_HEADER],
  'device number not a number': [rawTgz(patched(hello(), 5, 329, 'zz'), block('hello'), Buffer.alloc(1024)), BAD_HEADER],
  'size with leading NULs': [rawTgz(patched(hello(), 5, 124, '\0'.repeat(10) + '5'), block('hello'), Buffer.alloc(1024)), LINK_HELLO],
  'size padded with spaces': [rawTgz(patched(hello(), 5, 124, '    5      '), block('hello'), Buffer.alloc(1024)), LINK_HELLO],
  'size with a space inside': [rawTgz(patched(hello(), 5, 124, '5 5'), block('hello'), Buffer.alloc(1024)), BAD_HEADER],
  'size in base-256': [rawTgz(patched(hello(), 5, 124, Buffer.from([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5])), block('hello'), Buffer.alloc(1024)), LINK_HELLO],
  'size negative in base-256': [rawTgz(patched(hello(), 0, 124, Buffer.alloc(12, 0xff)), Buffer.alloc(1024)), BAD_HEADER],
  'a checksum of signed bytes': [rawTgz(patched({ name: 'c/lînk' }, 5, 0, Buffer.from('c/lînk'), true), block('hello'), Buffer.alloc(1024)), ok('lînk: "hello"', 'get: ""')],
  'a ustar prefix': [rawTgz(patched({ name: 'link' }, 5, 345, 'c'), block('hello'), Buffer.alloc(1024)), LINK_HELLO],
  'a GNU header whose times do not parse: the prefix of an old Go': [rawTgz(patched({ name: 'link', magic: 'gnu' }, 5, 345, 'c'), block('hello'), Buffer.alloc(1024)), LINK_HELLO],
  'a V7 header has no prefix': [rawTgz(patched({ name: 'link', magic: 'v7' }, 5, 345, 'c'), block('hello'), Buffer.alloc(1024)), 'Error: chart illegally contains content outside the base directory: "link"'],

  // sparse files: holes read as zeros; a map that does not fit the data is Go's error
  'a sparse file (PAX 0.1)': [sparse({ 'GNU.sparse.numblocks': '1', 'GNU.sparse.map': '3,2', 'GNU.sparse.size': '6' }, 'ab'), ok('big: "\\x00\\x00\\x00ab\\x00"', 'get: ""')],
  'a sparse file (PAX 1.0, the map in the data)': [
    sparse({ 'GNU.sparse.major': '1', 'GNU.sparse.minor': '0', 'GNU.sparse.realsize': '7' }, Buffer.concat([block('1\n2\n3\n'), Buffer.from('xyz')])),
    ok('big: "\\x00\\x00xyz\\x00\\x00"', 'get: ""'),
  ],
  'a sparse file with less data than its map': [sparse({ 'GNU.sparse.numblocks': '1', 'GNU.sparse.map': '3,2', 'GNU.sparse.size': '10' }, 'a'), 'Error: archive/tar: sparse file references non-existent data'],
  'a sparse file with more data than its map': [sparse({ 'GNU.sparse.numblocks': '1', 'GNU.sparse.map': '3,2', 'GNU.sparse.size': '10' }, 'abc'), 'Error: archive/tar: sparse file contains unreferenced data'],
  'a sparse file whose fragments overlap': [sparse({ 'GNU.sparse.numblocks': '2', 'GNU.sparse.map': '3,2,4,2', 'GNU.sparse.size': '10' }, 'abcd'), BAD_HEADER],
  'a sparse map (1.0) shorter than a block': [sparse({ 'GNU.sparse.major': '1', 'GNU.sparse.minor': '0', 'GNU.sparse.realsize': '10' }, '1\n0\n'), 'Error: unexpected EOF'],
  'a sparse map (1.0) that is not a number': [sparse({ 'GNU.sparse.major': '1', 'GNU.sparse.minor': '0', 'GNU.sparse.realsize': '10' }, block('x\n')), BAD_HEADER],
  'a sparse map (1.0) of 99999999999 entries': [sparse({ 'GNU.sparse.major': '1', 'GNU.sparse.minor': '0', 'GNU.sparse.realsize': '10' }, block('99999999999\n')), 'Error: unexpected EOF'],
  'a sparse symbolic link': [sparse({ 'GNU.sparse.numblocks': '0', 'GNU.sparse.map': '', 'GNU.sparse.size': '5' }, '', { type: '2' }), BAD_HEADER],
  'an unknown sparse version is a plain file': [sparse({ 'GNU.sparse.major': '2', 'GNU.sparse.minor': '0', 'GNU.sparse.size': '10' }, 'ab'), ok('big: "ab"', 'get: ""')],
  'an old GNU sparse header without a map': [with_(hello({ type: 'S', magic: 'gnu' })), 'Error: archive/tar: sparse file contains unreferenced data'],
  'an old GNU sparse header in a ustar archive': [with_(hello({ type: 'S' })), BAD_HEADER],

  // the end of the archive
  'no end blocks': [gzipSync(tarBytes([CHART, GLOB, hello()], false)), LINK_HELLO],
  'one end block': [rawTgz(tarBytes([hello()], false), Buffer.alloc(512)), LINK_HELLO],
  'a zero block, then a header': [rawTgz(tarBytes([hello()], false), Buffer.alloc(512), tarBytes([{ name: 'c/x', data: 'x' }])), BAD_HEADER],
  'a part of a block at the end': [rawTgz(tarBytes([hello()], false), Buffer.alloc(100)), 'Error: unexpected EOF'],
  'junk after the end blocks': [rawTgz(tarBytes([hello()]), Buffer.from('junk junk')), LINK_HELLO],
  'an empty gzip stream': [gzipSync(Buffer.alloc(0)), 'Error: no files in chart archive'],
};

/** A gzip stream with a flag byte and the optional fields it announces. */
function gzipFlags(flags: number, fields: Buffer): Buffer {
  const gz = gzipSync(tarBytes([CHART, GLOB, hello()]));
  return Buffer.concat([gz.subarray(0, 3), Buffer.from([flags]), gz.subarray(4, 10), fields, gz.subarray(10)]);
}
const badCrc = (gz: Buffer): Buffer => {
  const b = Buffer.from(gz);
  b[b.length - 6]! ^= 1;
  return b;
};
const full = tarBytes([CHART, GLOB, hello()]);
const noEnd = tarBytes([CHART, GLOB, hello()], false);
export const gzipCases: Record<string, [Buffer, string]> = {
  // Go's tar reader stops at the end blocks, before the gzip trailer: Helm never sees it
  'a wrong CRC': [badCrc(gzipSync(full)), LINK_HELLO],
  'a wrong length': [(() => { const b = Buffer.from(gzipSync(full)); b[b.length - 2]! ^= 1; return b; })(), LINK_HELLO],
  'no trailer': [gzipSync(full).subarray(0, -8), LINK_HELLO],
  'junk after the stream': [Buffer.concat([gzipSync(full), Buffer.from('garbage garbage')]), LINK_HELLO],
  'two members': [Buffer.concat([gzipSync(full.subarray(0, 1024)), gzipSync(full.subarray(1024))]), LINK_HELLO],
  'two members, the first with a wrong CRC': [Buffer.concat([badCrc(gzipSync(full.subarray(0, 1024))), gzipSync(full.subarray(1024))]), 'Error: gzip: invalid checksum'],
  // without end blocks, the tar reader asks for more and meets the stream's error
  'a wrong CRC and no end blocks': [badCrc(gzipSync(noEnd)), 'Error: gzip: invalid checksum'],
  'no trailer and no end blocks': [gzipSync(noEnd).subarray(0, -8), 'Error: unexpected EOF'],
  'junk after the stream and no end blocks': [Buffer.concat([gzipSync(noEnd), Buffer.from('garbage garbage')]), 'Error: does not appear to be a valid chart file (details: gzip: invalid header)'],
  'less than a gzip header after the stream and no end blocks': [Buffer.concat([gzipSync(noEnd), Buffer.from('garbage!!')]), 'Error: unexpected EOF'],
  'zeros after the stream and no end blocks': [Buffer.concat([gzipSync(noEnd), Buffer.alloc(20)]), 'Error: does not appear to be a valid chart file (details: gzip: invalid header)'],
  'a stream cut in its data': [gzipSync(full).subarray(0, 200), 'Error: unexpected EOF'],
  'a file name in the header': [gzipFlags(8, Buffer.from('chart.tar\0')), LINK_HELLO],
  'a file name of 511 bytes': [gzipFlags(8, Buffer.from('x'.repeat(511) + '\0')), LINK_HELLO],
  'a file name of 512 bytes': [gzipFlags(8, Buffer.from('x'.repeat(512) + '\0')), 'Error: does not appear to be a valid chart file (details: gzip: invalid header)'],
  'an extra field': [gzipFlags(4, Buffer.from([3, 0, 1, 2, 3])), LINK_HELLO],
  'a wrong header CRC': [gzipFlags(2, Buffer.from([0, 0])), 'Error: does not appear to be a valid chart file (details: gzip: invalid header)'],
};

describe('chart archives as Helm reads them', () => {
  for (const [title, [archive, helm]] of Object.entries(cases)) {
    it(title, () => expect(ours(title.replace(/\W+/g, '-'), archive)).toBe(helm));
  }
});

describe('the gzip stream around a chart archive', () => {
  for (const [title, [archive, helm]] of Object.entries(gzipCases)) {
    it(title, () => expect(ours(title.replace(/\W+/g, '-'), archive)).toBe(helm));
  }
});

const MiB = 1024 * 1024;
const chartYaml = (name: string): string => `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`;
/** A chart archive named `name` holding `subcharts` (file name -> archive) and `files`. */
function chartTgz(name: string, subcharts: [string, Buffer][] = [], files: TarItem[] = []): Buffer {
  return tgzOf([{ name: `${name}/Chart.yaml`, data: chartYaml(name) }, ...subcharts.map(([f, data]) => ({ name: `${name}/charts/${f}`, data })), ...files]);
}
function loadError(file: string): string {
  try {
    renderChart(file, { namespace: 'default', name: 'release-name' });
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  return 'no error';
}

describe('bounds on a chart archive and a chart tree', () => {
  it('a gzip bomb is refused once it passes 256 MiB, in words, naming the archive', () => {
    // 17 members of 16 MiB of zeros each: 272 MiB from 270 KB
    const member = gzipSync(Buffer.alloc(16 * MiB));
    const file = join(tmp, 'bomb.tgz');
    writeFileSync(file, Buffer.concat(Array.from({ length: 17 }, () => member)));
    expect(loadError(file)).toBe(`${file}: decompressed, the archive is more than 256 MiB, the limit of a chart`);
  });

  it('an archive that is a link to /dev/zero, or a 1.9 GB sparse file, is refused without being read whole', () => {
    const zero = join(tmp, 'zero.tgz');
    symlinkSync('/dev/zero', zero);
    const r = runBin(['chart', zero]);
    expect(cleanError(r)).toBeUndefined();
    expect(r.stderr).toBe(`sidecar-render: ${zero}: not a chart archive: not a gzip archive\n`);
    const huge = join(tmp, 'huge.tgz');
    writeFileSync(huge, gzipSync(Buffer.alloc(0)).subarray(0, 10));
    truncateSync(huge, 1_900_000_000);
    const h = runBin(['chart', huge], { maxOldSpaceMb: 256 });
    expect(cleanError(h)).toBeUndefined();
    expect(h.stderr).toBe(`sidecar-render: ${huge}: the archive is more than 256 MiB, the limit of a chart\n`);
  });

  it('a 3 KB archive of 30 subcharts a level, 4 levels deep (810,000 charts), is refused early with the count', () => {
    let inner = chartTgz('l');
    for (let level = 0; level < 3; level++) inner = chartTgz('l', Array.from({ length: 30 }, (_, i) => [`s${i}.tgz`, inner] as [string, Buffer]));
    const top = chartTgz('top', Array.from({ length: 30 }, (_, i) => [`s${i}.tgz`, inner] as [string, Buffer]));
    expect(top.length).toBeLessThan(4000);
    const file = join(tmp, 'many.tgz');
    writeFileSync(file, top);
    const r = runBin(['chart', file]);
    expect(cleanError(r)).toBeUndefined();
    expect(r.stderr).toMatch(/^sidecar-render: .*many\.tgz\/top\/charts\/s0\.tgz\/l\/charts\/s\d+\.tgz\/l: more than 1000 charts in one tree \(subcharts at every depth count\)\n$/);
  });

  it('a chart folder is bounded as an archive: 30 subchart archives of 900 charts each are refused with the count', () => {
    let inner = chartTgz('l');
    for (let level = 0; level < 2; level++) inner = chartTgz('l', Array.from({ length: 30 }, (_, i) => [`s${i}.tgz`, inner] as [string, Buffer]));
    const dir = join(tmp, 'wide');
    mkdirSync(join(dir, 'charts'), { recursive: true });
    writeFileSync(join(dir, 'Chart.yaml'), chartYaml('wide'));
    for (let i = 0; i < 30; i++) writeFileSync(join(dir, 'charts', `s${i}.tgz`), inner);
    expect(loadError(dir)).toMatch(new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/charts/s\\d+\\.tgz/l(/charts/s\\d+\\.tgz/l)*: more than 1000 charts in one tree \\(subcharts at every depth count\\)$`));
  });

  it('more than 50,000 files in a chart with its subcharts are refused, though each chart holds fewer than 10,000', () => {
    const sub = chartTgz('s', [], Array.from({ length: 9000 }, (_, i) => ({ name: `s/f${i}`, data: '' })));
    const file = join(tmp, 'files.tgz');
    writeFileSync(file, chartTgz('top', Array.from({ length: 6 }, (_, i) => [`s${i}.tgz`, sub] as [string, Buffer])));
    expect(loadError(file)).toMatch(/files\.tgz\/top\/charts\/s5\.tgz: more than 50000 files in one chart with its subcharts$/);
  });

  it('a chart folder of five 60 MiB files (each under the limit of one file) is refused before any is read', () => {
    const dir = join(tmp, 'heavy');
    mkdirSync(dir);
    writeFileSync(join(dir, 'Chart.yaml'), chartYaml('heavy'));
    for (let i = 0; i < 5; i++) {
      writeFileSync(join(dir, `f${i}`), '');
      truncateSync(join(dir, `f${i}`), 60 * MiB);
    }
    expect(loadError(dir)).toBe(`${dir}: more than 256 MiB of files in one chart with its subcharts`);
  });

  it('subchart archives of 60 MiB each, unpacked, past 256 MiB in all are refused, naming the subchart', () => {
    const sub = chartTgz('s', [], [{ name: 's/big', data: Buffer.alloc(60 * MiB) }]);
    const file = join(tmp, 'subs.tgz');
    writeFileSync(file, chartTgz('top', Array.from({ length: 5 }, (_, i) => [`s${i}.tgz`, sub] as [string, Buffer])));
    expect(loadError(file)).toBe(`${file}/top/charts/s4.tgz: decompressed, the archive takes the chart and its subcharts past 256 MiB, the limit of a chart`);
  });

  it('a sparse file of 1 TiB in a small archive is refused (Helm unpacks it, filling memory)', () => {
    const file = join(tmp, 'sparse-bomb.tgz');
    writeFileSync(file, sparse({ 'GNU.sparse.numblocks': '0', 'GNU.sparse.map': '', 'GNU.sparse.size': String(2 ** 40) }, ''));
    expect(loadError(file)).toBe(`${file}: big is ${2 ** 40} bytes, more than the limit of ${64 * MiB} for a file`);
  });

  it('the files a chart keeps do not hold on to the whole unpacked archive (a big values.yaml lives no longer than its parse)', () => {
    const file = join(tmp, 'views.tgz');
    writeFileSync(file, chartTgz('c', [], [{ name: 'c/values.yaml', data: `big: ${'a'.repeat(MiB)}\n` }, { name: 'c/templates/x.yaml', data: 'a: 1\n' }, { name: 'c/notes.txt', data: 'n' }]));
    const chart = loadChart(file);
    for (const f of [...chart.templates, ...chart.files]) expect(f.data.buffer.byteLength).toBeLessThan(MiB);
  });

  it('a file of an archive is at most 64 MiB, as a file of a folder', () => {
    const file = join(tmp, 'bigfile.tgz');
    writeFileSync(file, chartTgz('c', [], [{ name: 'c/big', data: Buffer.alloc(65 * MiB) }]));
    expect(loadError(file)).toBe(`${file}: big is ${65 * MiB} bytes, more than the limit of ${64 * MiB} for a file`);
  });
});
