// File writes that never leave a half-written file: write a temporary sibling, then rename over.

import * as fs from 'node:fs';
import * as path from 'node:path';

export function writeFileAtomic(file: string, data: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** Every regular file below dir (not following links), skipping dot files; [] when dir is missing. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** Largest input file (or stdin) read, in bytes. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** An input larger than the limit; `size` is known for regular files only. */
export class InputTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly size?: number,
  ) {
    super(size !== undefined ? `input is ${size} bytes, more than the limit of ${limit}` : `input is more than the limit of ${limit} bytes`);
    this.name = 'InputTooLarge';
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * The bytes of a file, or of a file descriptor (0 for stdin), read in chunks and refused as soon as
 * they pass maxBytes: a device (/dev/zero), an endless pipe or a large sparse file is never read whole.
 * File system errors are thrown as they are (ENOENT, EISDIR, ...).
 */
export function readBytesLimited(file: string | number, maxBytes = MAX_INPUT_BYTES): Buffer {
  const fd = typeof file === 'number' ? file : fs.openSync(file, 'r');
  try {
    const st = fs.fstatSync(fd);
    if (st.isFile() && st.size > maxBytes) throw new InputTooLarge(maxBytes, st.size);
    const chunks: Buffer[] = [];
    let total = 0;
    let buf = Buffer.allocUnsafe(st.isFile() && st.size > 0 ? Math.min(st.size + 1, maxBytes + 1) : 65536);
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        // a non-blocking stdin with nothing to read yet
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(pause, 0, 0, 10);
          continue;
        }
        throw e;
      }
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw new InputTooLarge(maxBytes);
      chunks.push(buf.subarray(0, n));
      buf = buf.subarray(n);
      if (buf.length === 0) buf = Buffer.allocUnsafe(Math.min(Math.max(65536, total), maxBytes + 1 - total));
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } finally {
    if (typeof file !== 'number') fs.closeSync(fd);
  }
}

/** readBytesLimited as UTF-8 text (as readFileSync(file, 'utf8') decodes it). */
export function readTextLimited(file: string | number, maxBytes = MAX_INPUT_BYTES): string {
  return readBytesLimited(file, maxBytes).toString('utf8');
}

/** The lines of a stream (without their line ends), refusing a line longer than maxBytes. */
export async function* linesLimited(stream: AsyncIterable<Buffer | string>, maxBytes = MAX_INPUT_BYTES): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let size = 0;
  const take = (): string => {
    const s = Buffer.concat(pending, size).toString('utf8');
    pending = [];
    size = 0;
    return s.endsWith('\r') ? s.slice(0, -1) : s;
  };
  for await (const c of stream) {
    let chunk = typeof c === 'string' ? Buffer.from(c) : c;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10)) {
      if (size + i > maxBytes) throw new InputTooLarge(maxBytes);
      pending.push(chunk.subarray(0, i));
      size += i;
      yield take();
      chunk = chunk.subarray(i + 1);
    }
    if (size + chunk.length > maxBytes) throw new InputTooLarge(maxBytes);
    if (chunk.length > 0) pending.push(chunk), (size += chunk.length);
  }
  if (size > 0) yield take();
}
