// Sprig's path functions: Go's path package, and path/filepath as it behaves on Linux (the same).
//
// Mirrors: github.com/Masterminds/sprig/v3 functions.go (path functions); go1.19 src/path/path.go, src/path/filepath/path.go
// Proven by: test/vectors/sprig/paths.jsonl

import { def, type FuncMap } from '../go/reflect/value.js';
import { table } from './util.js';

/** path.Clean: the shortest lexically equivalent path. */
export function clean(path: string): string {
  if (path === '') return '.';
  const rooted = path[0] === '/';
  const n = path.length;
  let out = rooted ? '/' : '';
  let r = rooted ? 1 : 0;
  let dotdot = out.length;
  while (r < n) {
    if (path[r] === '/') r++;
    else if (path[r] === '.' && (r + 1 === n || path[r + 1] === '/')) r++;
    else if (path[r] === '.' && path[r + 1] === '.' && (r + 2 === n || path[r + 2] === '/')) {
      r += 2;
      if (out.length > dotdot) {
        let w = out.length - 1;
        while (w > dotdot && out[w] !== '/') w--;
        out = out.slice(0, w);
      } else if (!rooted) {
        if (out.length > 0) out += '/';
        out += '..';
        dotdot = out.length;
      }
    } else {
      if ((rooted && out.length !== 1) || (!rooted && out.length !== 0)) out += '/';
      for (; r < n && path[r] !== '/'; r++) out += path[r];
    }
  }
  return out === '' ? '.' : out;
}

export function base(path: string): string {
  if (path === '') return '.';
  while (path.length > 0 && path.endsWith('/')) path = path.slice(0, -1);
  const i = path.lastIndexOf('/');
  if (i >= 0) path = path.slice(i + 1);
  return path === '' ? '/' : path;
}

export function dir(path: string): string {
  return clean(path.slice(0, path.lastIndexOf('/') + 1));
}

export function ext(path: string): string {
  for (let i = path.length - 1; i >= 0 && path[i] !== '/'; i--) if (path[i] === '.') return path.slice(i);
  return '';
}

const isAbs = (path: string): boolean => path.startsWith('/');

export function pathFuncs(): FuncMap {
  const fns = { base, dir, clean, ext };
  return table([
    ...Object.entries(fns).flatMap(([name, f]) => [
      def(name, 'func(string) string', f),
      def('os' + name[0]!.toUpperCase() + name.slice(1), 'func(string) string', f),
    ]),
    def('isAbs', 'func(string) bool', isAbs),
    def('osIsAbs', 'func(string) bool', isAbs),
  ]);
}
