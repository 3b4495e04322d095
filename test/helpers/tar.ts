// A tar writer for hostile chart archives: any type flag, a size field that disagrees with the data,
// PAX records, GNU long names, raw header bytes. packChart (tgz.ts) writes well-formed archives; this
// one writes what a careless or hostile tool might.

import { gzipSync } from 'node:zlib';

export interface TarItem {
  name: string;
  /** The type flag, one character ('0' a file, '2' a symbolic link, '5' a folder, ...). */
  type?: string;
  data?: Buffer | string;
  /** The size field, when it should say something other than the data's length. */
  size?: number;
  mode?: number;
  linkname?: string;
  /** ustar (the default), the GNU magic, or none (V7). */
  magic?: 'ustar' | 'gnu' | 'v7';
  /** Records of a PAX extended header ('x') written before this entry. */
  pax?: Record<string, string>;
  /** A GNU long name ('L') written before this entry. */
  longName?: string;
}

function octal(h: Buffer, off: number, len: number, n: number): void {
  h.write(n.toString(8).padStart(len - 1, '0') + '\0', off, len, 'ascii');
}

/** One 512-byte header. */
export function tarHeader(item: TarItem, size: number): Buffer {
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

function paxData(records: Record<string, string>): Buffer {
  let out = '';
  for (const [k, v] of Object.entries(records)) {
    const body = ` ${k}=${v}\n`;
    let len = Buffer.byteLength(body) + 1;
    while (String(len).length + Buffer.byteLength(body) !== len) len = String(len).length + Buffer.byteLength(body);
    out += `${len}${body}`;
  }
  return Buffer.from(out, 'utf8');
}

const pad = (n: number): Buffer => Buffer.alloc((512 - (n % 512)) % 512);

/** The entries as an uncompressed tar; `end` false leaves out the two zero blocks. */
export function tarBytes(items: TarItem[], end = true): Buffer {
  const parts: Buffer[] = [];
  const entry = (item: TarItem, data: Buffer): void => {
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

/** The entries as a .tgz. */
export function tgzOf(items: TarItem[], end = true): Buffer {
  return gzipSync(tarBytes(items, end));
}
