// A gzipped tar archive (what `helm package` and `helm pull` write), read as Go's archive/tar reads
// it: every entry Go's Reader.Next returns, in order, with Go's header checks (checksum, numeric
// fields, PAX records, GNU long names, ustar/star/GNU prefixes, sparse files) and Go's error texts.
// An entry's data is only read when asked for, after the caller has checked its name, as Helm's
// LoadArchiveFiles does. Everything is bounded: the archive once unpacked, a header's special data
// (1 MiB, as Go) and a sparse file's size; every loop consumes the archive block by block.
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/chart/loader/archive.go; go1.23 src/archive/tar/{reader,format,common,strconv}.go
// Proven by: test/helm/chart.test.ts, test/helm/tar-hostile.test.ts

import { nodeZlib } from '../guard/builtins.js';

export class TarError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TarError';
  }
}

/** The archive, unpacked, is larger than the limit given (a gzip bomb, or simply too big). */
export class TarTooLarge extends TarError {
  constructor(readonly limit: number) {
    super(`unpacked, the archive is more than ${limit} bytes`);
    this.name = 'TarTooLarge';
  }
}

/** Largest archive accepted once decompressed (Helm's own limit on a chart archive is 20 MiB compressed). */
export const MAX_TAR_BYTES = 256 * 1024 * 1024;

const ERR_HEADER = 'archive/tar: invalid tar header';
const ERR_FIELD_TOO_LONG = 'archive/tar: header field too long';
const ERR_MISS_DATA = 'archive/tar: sparse file references non-existent data';
const ERR_UNREF_DATA = 'archive/tar: sparse file contains unreferenced data';
const ERR_EOF = 'unexpected EOF';
/** Go's maxSpecialFileSize: a PAX header or a GNU long name holds at most 1 MiB. */
const MAX_SPECIAL = 1 << 20;
const BLOCK = 512;

// ---------- gzip ----------

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE), as the gzip trailer holds it. */
function crc32(data: Buffer): number {
  const nativeCrc32 = (nodeZlib() as { crc32?: (data: Buffer) => number }).crc32;
  if (nativeCrc32) return nativeCrc32(data);
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = crcTable[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A gzip member's header from `at` (compress/gzip readHeader): where its deflate data starts, or
 *  Go's error ('EOF' when the stream ends right there). */
function gzipHeader(gz: Buffer, at: number): number | string {
  if (at === gz.length) return 'EOF';
  if (gz.length - at < 10) return ERR_EOF;
  if (gz[at] !== 0x1f || gz[at + 1] !== 0x8b || gz[at + 2] !== 8) return 'gzip: invalid header';
  const flags = gz[at + 3]!;
  let pos = at + 10;
  if (flags & 4) {
    if (gz.length - pos < 2) return ERR_EOF;
    pos += 2 + gz.readUInt16LE(pos);
    if (pos > gz.length) return ERR_EOF;
  }
  for (const flag of [8, 16]) {
    if (!(flags & flag)) continue;
    // a name or a comment: NUL-terminated, in Go's 512-byte buffer
    const nul = gz.indexOf(0, pos);
    if (nul < 0 ? gz.length - pos >= 512 : nul - pos >= 512) return 'gzip: invalid header';
    if (nul < 0) return ERR_EOF;
    pos = nul + 1;
  }
  if (flags & 2) {
    if (gz.length - pos < 2) return ERR_EOF;
    if (gz.readUInt16LE(pos) !== (crc32(gz.subarray(at, pos)) & 0xffff)) return 'gzip: invalid header';
    pos += 2;
  }
  return pos;
}

/** A gzip stream unpacked as Go's gzip.Reader gives it to a tar reader: the data, and the error (if
 *  any) Go's reader returns once that data has been read: a bad checksum, a stream cut short, bytes
 *  after the last member that are not another. Go's tar reader stops at the archive's end and never
 *  asks for more, so Helm loads an archive whose trailer is wrong or missing; so does this. */
export interface Unpacked {
  data: Buffer;
  tail?: string;
}

/** The gzip stream unpacked, refused once it passes maxBytes (a gzip bomb stops there). */
export function gunzipLimited(gz: Buffer, maxBytes = MAX_TAR_BYTES): Unpacked {
  const first = gzipHeader(gz, 0);
  if (typeof first === 'string') throw new TarError(first);
  const parts: Buffer[] = [];
  let total = 0;
  let tail: string | undefined;
  for (let at = first; ; ) {
    const body = gz.subarray(at);
    let out: { buffer: Buffer; engine: { bytesWritten: number } };
    const zlib = nodeZlib();
    try {
      out = zlib.inflateRawSync(body, { info: true, finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: Math.max(1, maxBytes - total) }) as unknown as typeof out;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new TarTooLarge(maxBytes);
      throw new TarError(`corrupt gzip data (${(e as Error).message})`);
    }
    parts.push(out.buffer);
    total += out.buffer.length;
    if (total > maxBytes) throw new TarTooLarge(maxBytes);
    // all the input taken: cut short, in the data or before its trailer
    const used = out.engine.bytesWritten;
    if (used >= body.length || body.length - used < 8) {
      tail = ERR_EOF;
      break;
    }
    const trailer = at + used;
    if (gz.readUInt32LE(trailer) !== crc32(out.buffer) || gz.readUInt32LE(trailer + 4) !== out.buffer.length % 2 ** 32) {
      tail = 'gzip: invalid checksum';
      break;
    }
    const next = gzipHeader(gz, trailer + 8);
    if (next === 'EOF') break;
    if (typeof next === 'string') {
      tail = next;
      break;
    }
    at = next;
  }
  const data = parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
  return tail === undefined ? { data } : { data, tail };
}

// ---------- numbers and strings of a header ----------

/** A NUL-terminated string (the whole field when it has no NUL). */
function cString(b: Buffer): Buffer {
  const nul = b.indexOf(0);
  return nul < 0 ? b : b.subarray(0, nul);
}

const text = (b: Buffer): string => cString(b).toString('utf8');

/** Reads the numeric fields of one header; `bad` is set as Go's parser sets its err. */
class Numbers {
  bad = false;

  /** parseNumeric: base-256 when the top bit is set, else octal. */
  numeric(b: Buffer): bigint {
    if (b.length > 0 && b[0]! & 0x80) {
      const inv = b[0]! & 0x40 ? 0xff : 0;
      let x = 0n;
      for (let i = 0; i < b.length; i++) {
        let c = b[i]! ^ inv;
        if (i === 0) c &= 0x7f;
        if (x >> 56n > 0n) {
          this.bad = true;
          return 0n;
        }
        x = (x << 8n) | BigInt(c);
      }
      if (x >> 63n > 0n) {
        this.bad = true;
        return 0n;
      }
      return inv ? -x - 1n : x;
    }
    return this.octal(b);
  }

  /** parseOctal: leading and trailing spaces and NULs trimmed, then up to a NUL, base 8, 64 bits. */
  octal(b: Buffer): bigint {
    let lo = 0;
    let hi = b.length;
    while (lo < hi && (b[lo] === 0x20 || b[lo] === 0)) lo++;
    while (hi > lo && (b[hi - 1] === 0x20 || b[hi - 1] === 0)) hi--;
    if (lo === hi) return 0n;
    let n = 0;
    let i = lo;
    for (; i < hi && b[i] !== 0; i++) {
      const d = b[i]! - 0x30;
      if (d < 0 || d > 7) {
        this.bad = true;
        return 0n;
      }
      n = n * 8 + d;
    }
    // up to 17 digits the number is exact; past that, BigInt's
    if (i - lo <= 17) return BigInt(n);
    const x = BigInt('0o' + b.toString('latin1', lo, i));
    if (x >> 64n > 0n) {
      this.bad = true;
      return 0n;
    }
    return BigInt.asIntN(64, x);
  }
}

/** strconv.ParseInt(s, 10, 64), or undefined where Go gives an error. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const x = BigInt(s);
  return x >= -(1n << 63n) && x < 1n << 63n ? x : undefined;
}

/** The PAX time forms Go accepts: seconds, optionally a dot and digits. */
function validPaxTime(s: string): boolean {
  const dot = s.indexOf('.');
  const secs = dot < 0 ? s : s.slice(0, dot);
  if (parseInt64(secs) === undefined) return false;
  return dot < 0 || /^[0-9]*$/.test(s.slice(dot + 1));
}

/** PAX extended header records, "LEN key=value\n" each (parsePAX). GNU.sparse.offset/numbytes pairs
 *  of sparse format 0.0 become one GNU.sparse.map record. */
function paxRecords(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  const sparse: string[] = [];
  let s = data.toString('latin1');
  while (s.length > 0) {
    const sp = s.indexOf(' ');
    if (sp < 0) throw new TarError(ERR_HEADER);
    const n = parseInt64(s.slice(0, sp));
    if (n === undefined || n < 5n || n > BigInt(s.length)) throw new TarError(ERR_HEADER);
    const len = Number(n);
    if (len - (sp + 1) <= 0 || s[len - 1] !== '\n') throw new TarError(ERR_HEADER);
    const rec = s.slice(sp + 1, len - 1);
    s = s.slice(len);
    const eq = rec.indexOf('=');
    if (eq < 0) throw new TarError(ERR_HEADER);
    // records are bytes: keys and values are UTF-8 (latin1 above kept the byte offsets right)
    const key = Buffer.from(rec.slice(0, eq), 'latin1').toString('utf8');
    const value = Buffer.from(rec.slice(eq + 1), 'latin1').toString('utf8');
    if (key === '' || key.includes('=')) throw new TarError(ERR_HEADER);
    const nulChecked = key === 'path' || key === 'linkpath' || key === 'uname' || key === 'gname' ? value : key;
    if (nulChecked.includes('\0')) throw new TarError(ERR_HEADER);
    if (key === 'GNU.sparse.offset' || key === 'GNU.sparse.numbytes') {
      const wanted = sparse.length % 2 === 0 ? 'GNU.sparse.offset' : 'GNU.sparse.numbytes';
      if (key !== wanted || value.includes(',')) throw new TarError(ERR_HEADER);
      sparse.push(value);
    } else {
      out.set(key, value);
    }
  }
  if (sparse.length > 0) out.set('GNU.sparse.map', sparse.join(','));
  return out;
}

// ---------- headers ----------

/** One entry as Go's Reader.Next returns it. */
export interface TarHeader {
  name: string;
  linkname: string;
  /** The type flag: '0' a file, '1' a hard link, '2' a symbolic link, '5' a folder, 'g' a PAX global header, ... */
  typeflag: string;
  /** The mode field (low 32 bits, as Go's FileMode takes them). */
  mode: number;
  /** The size of the data (a sparse file's full size). */
  size: number;
}

/** A header whose data is not read unless asked for. */
export interface TarItem {
  header: TarHeader;
  /** hd.FileInfo().IsDir(): a folder by its type flag or by its mode bits. */
  isDir: boolean;
  /** The entry's data, a buffer of its own (io.Copy of it); refused past maxBytes. */
  read(maxBytes: number): Buffer;
}

/** An entry's data is larger than the limit given. */
export class TarFileTooLarge extends TarError {
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(`file is ${size} bytes, more than the limit of ${limit}`);
    this.name = 'TarFileTooLarge';
  }
}

type Format = 'v7' | 'ustar' | 'star' | 'gnu';

const USTAR = Buffer.from('ustar\0', 'latin1');
const GNU_MAGIC = Buffer.from('ustar  \0', 'latin1');
const STAR_TRAILER = Buffer.from('tar\0', 'latin1');
const ZERO_BLOCK = Buffer.alloc(BLOCK);

function formatOf(blk: Buffer): Format | undefined {
  const nums = new Numbers();
  const sum = nums.octal(blk.subarray(148, 156));
  // the checksum field counts as spaces; the signed sum counts bytes past 127 as negative
  let unsigned = 8 * 0x20;
  let high = 0;
  for (let i = 0; i < BLOCK; i++) {
    if (i === 148) i = 156;
    const c = blk[i]!;
    unsigned += c;
    if (c > 127) high++;
  }
  if (nums.bad || (sum !== BigInt(unsigned) && sum !== BigInt(unsigned - 256 * high))) return undefined;
  if (blk.compare(USTAR, 0, 6, 257, 263) === 0) return blk.compare(STAR_TRAILER, 0, 4, 508, 512) === 0 ? 'star' : 'ustar';
  if (blk.compare(GNU_MAGIC, 0, 8, 257, 265) === 0) return 'gnu';
  return 'v7';
}

interface RawHeader {
  name: string;
  linkname: string;
  typeflag: string;
  mode: bigint;
  size: bigint;
  format: Format;
}

function parseHeader(blk: Buffer): RawHeader {
  const format = formatOf(blk);
  if (format === undefined) throw new TarError(ERR_HEADER);
  const p = new Numbers();
  const h: RawHeader = {
    typeflag: String.fromCharCode(blk[156]!),
    name: text(blk.subarray(0, 100)),
    linkname: text(blk.subarray(157, 257)),
    size: p.numeric(blk.subarray(124, 136)),
    mode: p.numeric(blk.subarray(100, 108)),
    format,
  };
  p.numeric(blk.subarray(108, 116)); // uid
  p.numeric(blk.subarray(116, 124)); // gid
  p.numeric(blk.subarray(136, 148)); // mtime
  if (format !== 'v7') {
    p.numeric(blk.subarray(329, 337)); // devmajor
    p.numeric(blk.subarray(337, 345)); // devminor
    let prefix = '';
    if (format === 'ustar') {
      prefix = text(blk.subarray(345, 500));
    } else if (format === 'star') {
      prefix = text(blk.subarray(345, 476));
      p.numeric(blk.subarray(476, 488));
      p.numeric(blk.subarray(488, 500));
    } else {
      // GNU keeps access and change times where ustar has its prefix; an archive of a Go before 1.8
      // wrote a prefix there, taken when the times do not parse and it is ASCII
      const p2 = new Numbers();
      if (blk[345] !== 0) p2.numeric(blk.subarray(345, 357));
      if (blk[357] !== 0) p2.numeric(blk.subarray(357, 369));
      if (p2.bad) {
        const raw = cString(blk.subarray(345, 500));
        if (raw.every((c) => c < 0x80)) prefix = raw.toString('latin1');
      }
    }
    if (prefix.length > 0) h.name = prefix + '/' + h.name;
  }
  if (p.bad) throw new TarError(ERR_HEADER);
  return h;
}

/** Link, symbolic link, devices, folder, FIFO: Go reads no data for them, whatever the size says. */
const HEADER_ONLY = new Set(['1', '2', '3', '4', '5', '6']);

const C_ISDIR = 0o40000;

function isDirectory(typeflag: string, mode: number): boolean {
  return typeflag === '5' || (mode & ~0o7777) >>> 0 === C_ISDIR;
}

// ---------- sparse files ----------

interface Fragment {
  offset: bigint;
  length: bigint;
}

/** validateSparseEntries: in order, not overlapping, within the size. */
function validSparse(frags: Fragment[], size: bigint): boolean {
  if (size < 0n) return false;
  let end = 0n;
  for (const f of frags) {
    if (f.offset < 0n || f.length < 0n) return false;
    if (f.offset > (1n << 63n) - 1n - f.length) return false;
    if (f.offset + f.length > size) return false;
    if (end > f.offset) return false;
    end = f.offset + f.length;
  }
  return true;
}

// ---------- the reader ----------

/**
 * The entries of an uncompressed tar, as Go's Reader.Next returns them (PAX and GNU long-name headers
 * folded into the entry they describe; a PAX global header returned as an entry of type 'g').
 * The reading stops at two zero blocks or at the end of the bytes, as Go's does.
 */
export function* tarItems(src: Unpacked): Generator<TarItem> {
  const tar = src.data;
  let pos = 0;
  const end = tar.length;
  /** Reading past the data: the gzip stream's own error if it has one, else "unexpected EOF". */
  const short = (): TarError => new TarError(src.tail ?? ERR_EOF);
  const block = (): Buffer | undefined => {
    if (pos === end) {
      if (src.tail !== undefined) throw short();
      return undefined;
    }
    if (end - pos < BLOCK) throw short();
    const b = tar.subarray(pos, pos + BLOCK);
    pos += BLOCK;
    return b;
  };
  const zero = (b: Buffer): boolean => b.equals(ZERO_BLOCK);
  /** The bytes of a data section of n bytes from `at`, all there or "unexpected EOF". */
  const section = (at: number, n: number): Buffer => {
    if (n > end - at) throw short();
    return tar.subarray(at, at + n);
  };
  /** A PAX header's or long name's data: readSpecialFile. */
  const special = (at: number, n: number): Buffer => {
    if (n > MAX_SPECIAL && end - at > MAX_SPECIAL) throw new TarError(ERR_FIELD_TOO_LONG);
    return section(at, n);
  };
  const sizeOf = (h: RawHeader): number => {
    const nb = HEADER_ONLY.has(h.typeflag) ? 0n : h.size;
    if (nb < 0n) throw new TarError(ERR_HEADER);
    // past the end of the bytes: as good as infinite, reading it fails with "unexpected EOF"
    return nb > BigInt(end) ? end + 1 : Number(nb);
  };

  let pax: Map<string, string> | undefined;
  let longName = '';
  let longLink = '';
  for (;;) {
    const blk = block();
    if (blk === undefined) return;
    if (zero(blk)) {
      const second = block();
      if (second === undefined || zero(second)) return;
      throw new TarError(ERR_HEADER);
    }
    const h = parseHeader(blk);
    let nb = sizeOf(h);
    let dataAt = pos;
    if (h.typeflag === 'x' || h.typeflag === 'g') {
      const records = paxRecords(special(dataAt, nb));
      pos = skip(dataAt, nb);
      if (pos < 0) return;
      if (h.typeflag === 'x') {
        pax = records;
        continue;
      }
      const path = records.get('path');
      yield { header: { name: path ? path : h.name, linkname: '', typeflag: 'g', mode: 0, size: 0 }, isDir: false, read: () => Buffer.alloc(0) };
      pax = undefined;
      longName = longLink = '';
      continue;
    }
    if (h.typeflag === 'L' || h.typeflag === 'K') {
      const name = text(special(dataAt, nb));
      if (h.typeflag === 'L') longName = name;
      else longLink = name;
      pos = skip(dataAt, nb);
      if (pos < 0) return;
      continue;
    }

    // mergePAX: an empty value keeps the header's own
    const records = pax ?? new Map<string, string>();
    for (const [k, v] of records) {
      if (v === '') continue;
      let ok = true;
      if (k === 'path') h.name = v;
      else if (k === 'linkpath') h.linkname = v;
      else if (k === 'uid' || k === 'gid') ok = parseInt64(v) !== undefined;
      else if (k === 'atime' || k === 'mtime' || k === 'ctime') ok = validPaxTime(v);
      else if (k === 'size') {
        const size = parseInt64(v);
        ok = size !== undefined;
        if (size !== undefined) h.size = size;
      }
      if (!ok) throw new TarError(ERR_HEADER);
    }
    if (longName !== '') h.name = longName;
    if (longLink !== '') h.linkname = longLink;
    if (h.typeflag === '\0') h.typeflag = h.name.endsWith('/') ? '5' : '0';
    nb = sizeOf(h);

    // sparse files: the map says where the data fragments go, the rest reads as zeros
    let frags: Fragment[] | undefined;
    if (h.typeflag === 'S') {
      if (h.format !== 'gnu') throw new TarError(ERR_HEADER);
      const p = new Numbers();
      h.size = p.numeric(blk.subarray(483, 495));
      if (p.bad) throw new TarError(ERR_HEADER);
      frags = [];
      let area = blk.subarray(386, 386 + 24 * 4 + 1);
      for (;;) {
        const count = Math.floor(area.length / 24);
        for (let i = 0; i < count; i++) {
          const e = area.subarray(i * 24, i * 24 + 24);
          if (e[0] === 0) break;
          const offset = p.numeric(e.subarray(0, 12));
          const length = p.numeric(e.subarray(12, 24));
          if (p.bad) throw new TarError(ERR_HEADER);
          frags.push({ offset, length });
        }
        if (area[count * 24]! > 0) {
          // an extension block, read from the archive before the data
          if (end - pos < BLOCK) throw short();
          area = tar.subarray(pos, pos + BLOCK);
          pos += BLOCK;
          dataAt = pos;
          continue;
        }
        break;
      }
    } else if (pax) {
      const major = pax.get('GNU.sparse.major') ?? '';
      const minor = pax.get('GNU.sparse.minor') ?? '';
      let version: '0.x' | '1.0' | undefined;
      if (major === '0' && (minor === '0' || minor === '1')) version = '0.x';
      else if (major === '1' && minor === '0') version = '1.0';
      else if (major === '' && minor === '' && (pax.get('GNU.sparse.map') ?? '') !== '') version = '0.x';
      if (version) {
        const name = pax.get('GNU.sparse.name') ?? '';
        if (name !== '') h.name = name;
        const size = pax.get('GNU.sparse.size') || pax.get('GNU.sparse.realsize') || '';
        if (size !== '') {
          const n = parseInt64(size);
          if (n === undefined) throw new TarError(ERR_HEADER);
          h.size = n;
        }
        if (version === '1.0') {
          // the map opens the data: a count, then offset and length, a number a line, in whole blocks
          const lines: string[] = [];
          let partial = '';
          let used = 0;
          const feed = (want: number): void => {
            while (lines.length < want) {
              if (end - (dataAt + used) < Math.min(BLOCK, nb - used)) throw short();
              if (used + BLOCK > nb) throw new TarError(ERR_EOF);
              const chunk = partial + tar.toString('latin1', dataAt + used, dataAt + used + BLOCK);
              used += BLOCK;
              const parts = chunk.split('\n');
              partial = parts.pop()!;
              for (const line of parts) lines.push(line);
            }
          };
          feed(1);
          const count = parseInt64(lines.shift()!);
          if (count === undefined || count < 0n || count >= 1n << 62n) throw new TarError(ERR_HEADER);
          // each entry takes two lines of the data at least: more entries than that cannot be there
          if (count * 2n > BigInt(end)) throw nb - used > end - (dataAt + used) ? short() : new TarError(ERR_EOF);
          feed(Number(count) * 2);
          frags = [];
          for (let i = 0; i < Number(count); i++) {
            const offset = parseInt64(lines[2 * i]!);
            const length = parseInt64(lines[2 * i + 1]!);
            if (offset === undefined || length === undefined) throw new TarError(ERR_HEADER);
            frags.push({ offset, length });
          }
          dataAt += used;
          nb -= used;
        } else {
          const count = parseInt64(pax.get('GNU.sparse.numblocks') ?? '');
          if (count === undefined || count < 0n || count >= 1n << 62n) throw new TarError(ERR_HEADER);
          let map = (pax.get('GNU.sparse.map') ?? '').split(',');
          if (map.length === 1 && map[0] === '') map = [];
          if (BigInt(map.length) !== 2n * count) throw new TarError(ERR_HEADER);
          frags = [];
          for (let i = 0; i + 1 < map.length; i += 2) {
            const offset = parseInt64(map[i]!);
            const length = parseInt64(map[i + 1]!);
            if (offset === undefined || length === undefined) throw new TarError(ERR_HEADER);
            frags.push({ offset, length });
          }
        }
      }
    }
    if (frags && (HEADER_ONLY.has(h.typeflag) || !validSparse(frags, h.size))) throw new TarError(ERR_HEADER);

    const header: TarHeader = {
      name: h.name,
      linkname: h.linkname,
      typeflag: h.typeflag,
      mode: Number(BigInt.asUintN(32, h.mode)),
      size: frags ? Number(h.size) : nb,
    };
    const physAt = dataAt;
    const phys = nb;
    const sparse = frags;
    const logical = h.size;
    yield {
      header,
      isDir: isDirectory(header.typeflag, header.mode),
      read: (maxBytes: number): Buffer => (sparse ? expand(sparse, logical, physAt, phys, maxBytes) : regular(physAt, phys, maxBytes)),
    };
    pax = undefined;
    longName = longLink = '';
    pos = skip(physAt, phys);
    if (pos < 0) return;
  }

  /** Past an entry's data and padding: the next header's place, or -1 at an end cut in the padding. */
  function skip(at: number, n: number): number {
    if (n > end - at) throw short();
    const next = at + n + ((BLOCK - (n % BLOCK)) % BLOCK);
    if (next <= end) return next;
    if (src.tail !== undefined) throw short();
    return -1;
  }

  function regular(at: number, n: number, maxBytes: number): Buffer {
    const data = section(at, n);
    if (n > maxBytes) throw new TarFileTooLarge(n, maxBytes);
    // a copy, as Go's io.Copy makes one: the unpacked archive can go as soon as its files are taken,
    // while a view would keep all of it alive for as long as any one file is
    return Buffer.from(data);
  }

  function expand(frags: Fragment[], size: bigint, at: number, n: number, maxBytes: number): Buffer {
    if (size > BigInt(maxBytes)) throw new TarFileTooLarge(Number(size), maxBytes);
    const out = Buffer.alloc(Number(size));
    let used = 0;
    for (const f of frags) {
      if (f.length === 0n) continue;
      const want = Number(f.length);
      const have = Math.min(want, n - used);
      if (have > end - (at + used)) throw short();
      if (have < want) throw new TarError(ERR_MISS_DATA);
      tar.copy(out, Number(f.offset), at + used, at + used + want);
      used += want;
    }
    if (n - used > 0) throw new TarError(ERR_UNREF_DATA);
    return out;
  }
}

/** What Helm keeps of an archive: every entry but folders and PAX headers, with its data (no name
 *  checks: the chart loader makes them). */
export function readTgz(gz: Buffer, maxBytes = MAX_TAR_BYTES): { name: string; data: Buffer }[] {
  const out: { name: string; data: Buffer }[] = [];
  for (const item of tarItems(gunzipLimited(gz, maxBytes))) {
    if (item.isDir || item.header.typeflag === 'g') continue;
    out.push({ name: item.header.name, data: item.read(maxBytes) });
  }
  return out;
}
