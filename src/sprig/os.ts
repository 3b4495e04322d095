// Sprig's env/expandenv (reading an explicit environment map, never the process's), getHostByName
// (no DNS: always ""), and fail.
//
// Mirrors: github.com/Masterminds/sprig/v3 functions.go (env, expandenv, fail), network.go; go1.19 src/os/env.go (Expand)
// Proven by: test/vectors/sprig/os.jsonl, test/funcs/sprig/injected.test.ts

import { def, type FuncMap } from '../go/reflect/value.js';
import { fail, table, type SprigContext } from './util.js';

const isShellSpecial = (c: string): boolean => '*#$@!?-0123456789'.includes(c);
const isAlphaNum = (c: string): boolean => /^[_0-9a-zA-Z]$/.test(c);

function getShellName(s: string): [string, number] {
  if (s[0] === '{') {
    if (s.length > 2 && isShellSpecial(s[1]!) && s[2] === '}') return [s.slice(1, 2), 3];
    for (let i = 1; i < s.length; i++) {
      if (s[i] === '}') {
        if (i === 1) return ['', 2];
        return [s.slice(1, i), i + 1];
      }
    }
    return ['', 1];
  }
  if (isShellSpecial(s[0]!)) return [s.slice(0, 1), 1];
  let i = 0;
  while (i < s.length && isAlphaNum(s[i]!)) i++;
  return [s.slice(0, i), i];
}

/** os.Expand */
export function expand(s: string, mapping: (name: string) => string): string {
  let buf: string | undefined;
  let i = 0;
  for (let j = 0; j < s.length; j++) {
    if (s[j] === '$' && j + 1 < s.length) {
      buf ??= '';
      buf += s.slice(i, j);
      const [name, w] = getShellName(s.slice(j + 1));
      if (name === '' && w > 0) {
        // Invalid syntax: the characters are dropped.
      } else if (name === '') buf += s[j];
      else buf += mapping(name);
      j += w;
      i = j + 1;
    }
  }
  return buf === undefined ? s : buf + s.slice(i);
}

export function osFuncs(ctx: SprigContext): FuncMap {
  const getenv = (k: string): string => (Object.prototype.hasOwnProperty.call(ctx.env, k) ? ctx.env[k]! : '');
  return table([
    def('env', 'func(string) string', getenv),
    def('expandenv', 'func(string) string', (s: string) => expand(s, getenv)),
    def('getHostByName', 'func(string) string', () => ''),
    def('fail', 'func(string) (string, error)', (msg: string) => fail(msg)),
  ]);
}
