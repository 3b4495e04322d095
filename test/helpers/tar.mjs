// Tar archives for tests of chart archives: well-formed ones (packChart: a chart folder as `helm
// package` packs it) and what a careless or hostile tool might write (any type flag, a size field that
// disagrees with the data, PAX records, GNU long names). Plain JavaScript, so that the chart fuzzing's
// child process (test/fuzz/charts.child.mjs) runs it as the tests do.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * @typedef {object} TarItem
 * @property {string} name
 * @property {string} [type] the type flag, one character ('0' a file, '2' a symbolic link, '5' a folder, ...)
 * @property {Buffer | string} [data]
 * @property {number} [size] the size field, when it should say something other than the data's length
 * @property {number} [mode]
 * @property {string} [linkname]
 * @property {'ustar' | 'gnu' | 'v7'} [magic] ustar (the default), the GNU magic, or none (V7)
 * @property {Record<string, string>} [pax] records of a PAX extended header ('x') written before this entry
 * @property {string} [longName] a GNU long name ('L') written before this entry
 */

function octal(h, off, len, n) {
  h.write(n.toString(8).padStart(len - 1, '0') + '\0', off, len, 'ascii');
}

/** One 512-byte header. @param {TarItem} item @param {number} size */
export function tarHeader(item, size) {
  const h = Buffer.alloc(512);
  h.write(item.name, 0, 100, 'utf8');
  octal(h, 100, 8, item.mode ?? 0o644);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, item.size ?? size);
  octal(h, 136, 12, 0);
  h.write(item.type ?? '0', 156, 1, 'latin1');
  if (item.linkname !== undefined) h.write(item.linkname, 157, 100, 'utf8');
  const magic = item.magic ?? 'ustar';
  if (magic === 'ustar') h.write('ustar\x0000', 257, 8, 'latin1');
  if (magic === 'gnu') h.write('ustar  \x00', 257, 8, 'latin1');
  h.write('        ', 148, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return h;
}

function paxData(records) {
  let out = '';
  for (const [k, v] of Object.entries(records)) {
    const body = ` ${k}=${v}\n`;
    let len = Buffer.byteLength(body) + 1;
    while (String(len).length + Buffer.byteLength(body) !== len) len = String(len).length + Buffer.byteLength(body);
    out += `${len}${body}`;
  }
  return Buffer.from(out, 'utf8');
}

const pad = (n) => Buffer.alloc((512 - (n % 512)) % 512);

/** The entries as an uncompressed tar; `end` false leaves out the two zero blocks. @param {TarItem[]} items */
export function tarBytes(items, end = true) {
  const parts = [];
  const entry = (item, data) => {
    parts.push(tarHeader(item, data.length), data, pad(data.length));
  };
  for (const item of items) {
    if (item.pax) entry({ name: 'PaxHeaders/x', type: 'x' }, paxData(item.pax));
    if (item.longName !== undefined) entry({ name: '././@LongLink', type: 'L', magic: 'gnu' }, Buffer.from(item.longName + '\0'));
    const data = typeof item.data === 'string' ? Buffer.from(item.data) : (item.data ?? Buffer.alloc(0));
    entry(item, data);
  }
  if (end) parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** The entries as a .tgz. @param {TarItem[]} items */
export function tgzOf(items, end = true) {
  return gzipSync(tarBytes(items, end));
}

/** Every file below dir, as ustar entries named `${top}/${relative path}`, gzipped. */
export function packChart(dir, top) {
  const items = [];
  const walk = (d, rel) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(full).isDirectory()) walk(full, r);
      else items.push({ name: `${top}/${r}`, data: readFileSync(full) });
    }
  };
  walk(dir, '');
  return tgzOf(items);
}
