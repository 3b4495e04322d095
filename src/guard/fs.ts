// File writes that never leave a half-written file: write a temporary sibling, then rename over. A
// FIFO, a character device or another file that is not a regular one (or a link to one) is written
// through instead, as a shell's `>` would: renaming over it would replace /dev/null or a pipe a reader
// waits on with a regular file.

import * as fs from 'node:fs';
import * as path from 'node:path';

/** A file system failure as one line naming the file, without the syscall or temporary names. */
export class FileError extends Error {
  constructor(
    readonly file: string,
    what: string,
  ) {
    super(`${file}: ${what}`);
    this.name = 'FileError';
  }
}

const REASONS: Record<string, string> = {
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent of it is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EBUSY: 'is busy (a mount point, or in use)',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ENOENT: 'no such file or directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EXDEV: 'cannot be replaced across file systems',
  EEXIST: 'already exists',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

/** `file: cannot write: is a directory` for an fs error of writing `file`; other errors pass through. */
const READ_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'no such file (a parent is not a directory)',
  ELOOP: 'too many levels of symbolic links',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'file name too long',
  EIO: 'input/output error',
};

/** Why a file could not be read, in words: never a bare errno code. */
export function readReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && READ_REASONS[code]) return READ_REASONS[code]!;
  // Node's own words for the rest: "EXDEV: cross-device link not permitted, open 'x'" -> the middle
  const msg = (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
  return `cannot read: ${msg.replace(/^[A-Z][A-Z0-9_]+: /, '').replace(/, \w+ '.*'$/, '')}`;
}

export function writeError(e: unknown, file: string, verb = 'cannot write'): Error {
  if (e instanceof InputTooLarge) return new FileError(file, `${verb}: ${e.message}`);
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return e instanceof Error ? e : new Error(String(e));
  return new FileError(file, `${verb}: ${REASONS[code] ?? code}`);
}

// ---------- temporary files removed on SIGINT/SIGTERM/SIGHUP ----------

const liveTemps = new Set<string>();
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let handlersOn = false;

function onSignal(sig: NodeJS.Signals): void {
  for (const f of liveTemps) {
    try {
      fs.rmSync(f, { force: true });
    } catch {
      // nothing more can be done on the way out
    }
  }
  liveTemps.clear();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  handlersOn = false;
  // die of the signal as without a handler, so the caller sees the usual status (130, 143)
  process.kill(process.pid, sig);
}

function track(tmp: string): void {
  liveTemps.add(tmp);
  observer?.(tmp, true);
  if (!handlersOn) {
    for (const s of SIGNALS) process.on(s, onSignal);
    handlersOn = true;
  }
}

function untrack(tmp: string): void {
  liveTemps.delete(tmp);
  observer?.(tmp, false);
  if (liveTemps.size === 0 && handlersOn) {
    for (const s of SIGNALS) process.removeListener(s, onSignal);
    handlersOn = false;
  }
}

// A worker thread gets no signals: its writes tell the main thread, which removes their files too.
let observer: ((tmp: string, live: boolean) => void) | undefined;

/** On a worker thread: report each temporary file as it comes and goes. */
export function observeTemporaries(f: ((tmp: string, live: boolean) => void) | undefined): void {
  observer = f;
}

/** On the main thread: a worker's temporary file, removed on a signal like this thread's own. */
export function trackTemporary(tmp: string, live: boolean): void {
  if (live) track(tmp);
  else untrack(tmp);
}

/** Temporary files of writes under way (for tests). */
export function pendingTemporaries(): string[] {
  return [...liveTemps];
}

// ---------- writers ----------

/** A temporary sibling; a long file name is cut so the temporary's name stays within the 255 bytes a
 *  file system allows (the file itself may use them all). */
function tempBeside(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file).slice(0, 64)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
}

interface Target {
  /** Where to write: the file, or the regular file a link to it names. */
  path: string;
  /** Not a regular file: written in place. */
  through: boolean;
  /** The permissions of the file replaced, kept as a shell's `>` keeps them. */
  mode?: number;
  /** One of this process's own descriptors (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`): written
   *  as it is, at its offset and with its flags, never opened again (which would truncate what a
   *  shell's `>>` appends to) nor replaced (which would unlink it). */
  fd?: number;
}

const OWN_FD = /^\/(?:dev\/fd|proc\/(?:self|thread-self|(\d+))\/fd)\/(\d+)$/;

/** The descriptor of this process that `file` names through its links, if it names one. */
function ownDescriptor(file: string): number | undefined {
  let p = path.resolve(file);
  for (let i = 0; i < 40; i++) {
    const m = OWN_FD.exec(p);
    if (m && (m[1] === undefined || Number(m[1]) === process.pid)) return Number(m[2]);
    try {
      if (!fs.lstatSync(p).isSymbolicLink()) return undefined;
      p = path.resolve(path.dirname(p), fs.readlinkSync(p));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Where a write of `file` goes; `followLinks` false replaces a link itself (golden files). */
function targetOf(file: string, followLinks: boolean): Target {
  const fd = followLinks ? ownDescriptor(file) : undefined;
  if (fd !== undefined) return { path: file, through: true, fd };
  let st: fs.Stats;
  try {
    st = followLinks ? fs.statSync(file) : fs.lstatSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path: followLinks ? danglingTarget(file) : file, through: false };
    throw writeError(e, file);
  }
  if (st.isDirectory()) throw new FileError(file, 'cannot write: is a directory');
  if (st.isSymbolicLink()) return { path: file, through: false };
  if (!st.isFile()) return { path: file, through: true };
  return { path: followLinks ? fs.realpathSync(file) : file, through: false, mode: st.mode & 0o7777 };
}

/** A link to a file not there yet creates that file, as `>` does; anything else is the path itself. */
function danglingTarget(file: string): string {
  try {
    if (fs.lstatSync(file).isSymbolicLink()) return path.resolve(path.dirname(file), fs.readlinkSync(file));
  } catch {
    // not there at all
  }
  return file;
}

export interface WriteOptions {
  /** Write through a symbolic link to the file it names (the default); false replaces the link. */
  followLinks?: boolean;
  /** Create the file's missing folders (golden files under goldenDir). Otherwise a missing folder is
   *  refused when the writer is made, before anything is rendered: `--output-file out/x.yaml` with no
   *  `out/` is most likely a typo, and silently made folders are litter. */
  createFolders?: boolean;
}

/**
 * An output file written as it goes: to a temporary sibling renamed over the file by close(), removed
 * by abort() or a signal; a FIFO or device is written directly. Errors are one-line FileErrors.
 */
export class AtomicWriter {
  private fd: number | undefined;
  private readonly target: Target;
  private readonly tmp: string;

  private readonly createFolders: boolean;

  constructor(
    private readonly file: string,
    opts: WriteOptions = {},
  ) {
    this.target = targetOf(file, opts.followLinks ?? true);
    this.tmp = this.target.through ? this.target.path : tempBeside(this.target.path);
    this.createFolders = opts.createFolders ?? false;
    if (!this.createFolders && !this.target.through) folderThere(file, path.dirname(this.target.path));
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    try {
      if (!this.target.through) {
        if (this.createFolders) fs.mkdirSync(path.dirname(this.target.path), { recursive: true });
        track(this.tmp);
        this.fd = fs.openSync(this.tmp, 'wx');
        if (this.target.mode !== undefined) fs.fchmodSync(this.fd, this.target.mode);
      } else {
        this.fd = this.target.fd ?? fs.openSync(this.target.path, 'w');
      }
    } catch (e) {
      this.abort();
      throw writeError(e, this.file);
    }
    return this.fd;
  }

  write(data: string): void {
    const fd = this.open();
    try {
      fs.writeSync(fd, data);
    } catch (e) {
      this.abort();
      throw writeError(e, this.file);
    }
  }

  close(): void {
    const fd = this.open();
    try {
      if (this.target.fd === undefined) fs.closeSync(fd);
      this.fd = undefined;
      if (!this.target.through) fs.renameSync(this.tmp, this.target.path);
    } catch (e) {
      this.abort();
      throw writeError(e, this.file);
    }
    untrack(this.tmp);
  }

  abort(): void {
    if (this.fd !== undefined && this.target.fd === undefined) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // already failing; the temporary is removed below
      }
    }
    this.fd = undefined;
    if (!this.target.through) {
      try {
        fs.rmSync(this.tmp, { force: true });
      } catch {
        // already failing with the error that says why; nothing was made to remove
      }
      untrack(this.tmp);
    }
  }
}

/** The folder a file is to be written in exists, or a one-line FileError naming it. (A file in its
 *  place was refused already, by targetOf: 'a parent of it is not a directory'.) */
function folderThere(file: string, dir: string): void {
  try {
    fs.statSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new FileError(file, `cannot write: the folder ${dir} does not exist`);
    throw writeError(e, file);
  }
}

export function writeFileAtomic(file: string, data: string, opts: WriteOptions = {}): void {
  const w = new AtomicWriter(file, opts);
  w.write(data);
  w.close();
}

/**
 * Where `p` really is: the real path of its deepest existing ancestor (symbolic links resolved) joined
 * with the rest, so a path that does not exist yet is judged by the folder it would be created in.
 */
export function realPathLoose(p: string): string {
  let rest = '';
  let cur = path.resolve(p);
  for (;;) {
    try {
      const real = fs.realpathSync(cur);
      return rest ? path.join(real, rest) : real;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const parent = path.dirname(cur);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === cur) return path.resolve(p);
      rest = rest ? path.join(path.basename(cur), rest) : path.basename(cur);
      cur = parent;
    }
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

/** A stream's whole bytes (stdin), refused as soon as they pass maxBytes, so an endless stream ends. */
export async function streamBytesLimited(stream: AsyncIterable<Buffer | string>, maxBytes = MAX_INPUT_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    const chunk = typeof c === 'string' ? Buffer.from(c) : c;
    size += chunk.length;
    if (size > maxBytes) throw new InputTooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** A stream's whole text (stdin), refused as soon as it passes maxBytes. */
export async function streamTextLimited(stream: AsyncIterable<Buffer | string>, maxBytes = MAX_INPUT_BYTES): Promise<string> {
  return (await streamBytesLimited(stream, maxBytes)).toString('utf8');
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
