// node:path in the playground's bundle: POSIX paths only, for the names the page gives its inputs
// (a chart's file names and golden paths are never reached from the page).

export const sep = '/';
export const delimiter = ':';

export function normalize(p: string): string {
  if (p === '') return '.';
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!abs) out.push('..');
    } else out.push(part);
  }
  const body = out.join('/');
  const trail = p.endsWith('/') && body !== '' ? '/' : '';
  return (abs ? '/' : '') + body + trail || (abs ? '/' : '.');
}

export function join(...parts: string[]): string {
  const given = parts.filter((p) => p !== '');
  return given.length === 0 ? '.' : normalize(given.join('/'));
}

export function isAbsolute(p: string): boolean {
  return p.startsWith('/');
}

export function resolve(...parts: string[]): string {
  let out = '';
  for (let i = parts.length - 1; i >= 0 && !out.startsWith('/'); i--) {
    const p = parts[i]!;
    if (p !== '') out = out === '' ? p : `${p}/${out}`;
  }
  if (!out.startsWith('/')) out = `/${out}`;
  const n = normalize(out);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

export function dirname(p: string): string {
  const t = p.length > 1 ? p.replace(/\/+$/, '') : p;
  const i = t.lastIndexOf('/');
  if (i < 0) return '.';
  if (i === 0) return '/';
  return t.slice(0, i);
}

export function basename(p: string, ext?: string): string {
  const t = p.length > 1 ? p.replace(/\/+$/, '') : p;
  const b = t.slice(t.lastIndexOf('/') + 1);
  return ext && b.endsWith(ext) && b !== ext ? b.slice(0, -ext.length) : b;
}

export function extname(p: string): string {
  const b = basename(p);
  const i = b.lastIndexOf('.');
  return i <= 0 || b === '..' ? '' : b.slice(i);
}

export function relative(from: string, to: string): string {
  const a = resolve(from).split('/').filter(Boolean);
  const b = resolve(to).split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}

export const posix = { sep, delimiter, normalize, join, isAbsolute, resolve, dirname, basename, extname, relative };
export default posix;
