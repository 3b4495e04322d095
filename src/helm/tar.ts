// A gzipped tar archive (what `helm package` and `helm pull` write) read into memory: regular files
// only, names from ustar prefix+name, PAX `path` records and GNU long names. Sizes are bounded, as a
// chart is untrusted input.
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/chart/loader/archive.go; go1.19 src/archive/tar/{reader,format}.go
// Proven by: test/helm/chart.test.ts

import { gunzipSync } from 'node:zlib';

export interface TarEntry {
  name: string;
  data: Buffer;
}

export class TarError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TarError';
  }
}

/** Largest archive accepted once decompressed (Helm's own limit on a chart archive is 20 MiB compressed). */
export const MAX_TAR_BYTES = 256 * 1024 * 1024;

function field(block: Buffer, off: number, len: number): string {
  const end = block.indexOf(0, off);
  return block.toString('utf8', off, end < 0 || end > off + len ? off + len : end);
}

function octal(block: Buffer, off: number, len: number): number {
  // GNU base-256 for sizes of 8 GiB and more: far beyond what is accepted here anyway
  if (block[off]! & 0x80) throw new TarError('file too large');
  const s = field(block, off, len).trim();
  if (s === '') return 0;
  if (!/^[0-7]+$/.test(s)) throw new TarError(`invalid number ${JSON.stringify(s)} in header`);
  return parseInt(s, 8);
}

/** PAX extended header records: "LEN key=value\n". */
function paxRecords(data: Buffer): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  let pos = 0;
  while (pos < data.length) {
    const sp = data.indexOf(0x20, pos);
    if (sp < 0) break;
    const len = parseInt(data.toString('ascii', pos, sp), 10);
    if (!(len > 0) || pos + len > data.length) throw new TarError('invalid PAX record');
    const rec = data.toString('utf8', sp + 1, pos + len - 1);
    const eq = rec.indexOf('=');
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    pos += len;
  }
  return out;
}

/** The regular files of a .tgz, in archive order. */
export function readTgz(gz: Buffer): TarEntry[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(gz, { maxOutputLength: MAX_TAR_BYTES });
  } catch (e) {
    throw new TarError(`not a gzip archive (${(e as Error).message})`);
  }
  const entries: TarEntry[] = [];
  let pos = 0;
  let longName: string | undefined;
  let pax: Record<string, string> = Object.create(null);
  while (pos + 512 <= tar.length) {
    const h = tar.subarray(pos, pos + 512);
    if (h.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    if (sum !== octal(h, 148, 8)) throw new TarError('archive/tar: invalid tar header');
    const size = octal(h, 124, 12);
    const type = String.fromCharCode(h[156]!);
    const start = pos + 512;
    if (start + size > tar.length) throw new TarError('unexpected EOF');
    const data = tar.subarray(start, start + size);
    pos = start + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = field(data, 0, data.length);
      continue;
    }
    if (type === 'x') {
      pax = paxRecords(data);
      continue;
    }
    if (type === 'g') continue;
    let name = field(h, 0, 100);
    if (h.toString('ascii', 257, 262) === 'ustar') {
      const prefix = field(h, 345, 155);
      if (prefix) name = prefix + '/' + name;
    }
    if (pax['path'] !== undefined) name = pax['path'];
    if (longName !== undefined) name = longName;
    longName = undefined;
    pax = Object.create(null);
    if (type === '0' || type === '\0' || type === '7') entries.push({ name, data: Buffer.from(data) });
  }
  return entries;
}
