// The two pattern languages a chart meets: Go's path/filepath.Match (.helmignore rules, `helm template
// --show-only`) and gobwas/glob with '/' as separator (.Files.Glob, where `**` crosses directories).
//
// Mirrors: go1.19 src/path/filepath/match.go; github.com/gobwas/glob {glob,compiler/compiler}.go
// Proven by: test/helm/chart.test.ts

/** Go's filepath.Match on '/'-separated names: `*` and `?` never match '/'; `[...]` classes, `\` escapes.
 *  A malformed pattern matches nothing (Go returns ErrBadPattern, which callers treat as no match). */
export function filepathMatch(pattern: string, name: string): boolean {
  const re = filepathRegExp(pattern);
  return re !== undefined && re.test(name);
}

const cache = new Map<string, RegExp | undefined>();

function escapeRe(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? '\\' + c : c;
}

/** Inside a class '-' is special too. */
function escapeClass(c: string): string {
  return c === '-' ? '\\-' : escapeRe(c);
}

/** A bracket class at pattern[i] ('[' included): its regular expression and where it ends. */
function charClass(pattern: string, i: number, notSep: boolean): { re: string; end: number } | undefined {
  let j = i + 1;
  let neg = false;
  if (pattern[j] === '^' || pattern[j] === '!') {
    neg = true;
    j++;
  }
  let body = '';
  let first = true;
  for (;;) {
    if (j >= pattern.length) return undefined;
    const c = pattern[j]!;
    if (c === ']' && !first) break;
    first = false;
    let lo = c;
    if (c === '\\') {
      j++;
      if (j >= pattern.length) return undefined;
      lo = pattern[j]!;
    }
    j++;
    if (pattern[j] === '-' && pattern[j + 1] !== ']' && j + 1 < pattern.length) {
      let hi = pattern[j + 1]!;
      j += 2;
      if (hi === '\\') {
        if (j >= pattern.length) return undefined;
        hi = pattern[j]!;
        j++;
      }
      if (hi < lo) return undefined;
      body += escapeClass(lo) + '-' + escapeClass(hi);
    } else body += escapeClass(lo);
  }
  const sep = notSep ? '/' : '';
  return { re: neg ? `[^${body}${sep}]` : `(?!/)[${body}]`, end: j + 1 };
}

function filepathRegExp(pattern: string): RegExp | undefined {
  if (cache.has(pattern)) return cache.get(pattern);
  let re = '^';
  let ok = true;
  for (let i = 0; i < pattern.length && ok; ) {
    const c = pattern[i]!;
    if (c === '*') {
      re += '[^/]*';
      i++;
    } else if (c === '?') {
      re += '[^/]';
      i++;
    } else if (c === '[') {
      const cls = charClass(pattern, i, true);
      if (!cls) ok = false;
      else {
        re += cls.re;
        i = cls.end;
      }
    } else if (c === '\\') {
      if (i + 1 >= pattern.length) ok = false;
      else re += escapeRe(pattern[i + 1]!);
      i += 2;
    } else {
      re += escapeRe(c);
      i++;
    }
  }
  const out = ok ? new RegExp(re + '$', 'su') : undefined;
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, out);
  return out;
}

/** gobwas/glob.Compile(pattern, '/'): `*` within a path segment, `**` across them, `?`, `[...]`,
 *  `[!...]`, `{a,b}` alternatives, `\` escapes. Undefined for a pattern that does not compile. */
export function globRegExp(pattern: string): RegExp | undefined {
  let i = 0;
  const alt = (depth: number): string | undefined => {
    let out = '';
    while (i < pattern.length) {
      const c = pattern[i]!;
      if (c === '*') {
        if (pattern[i + 1] === '*') {
          out += '.*';
          i += 2;
        } else {
          out += '[^/]*';
          i++;
        }
      } else if (c === '?') {
        out += '[^/]';
        i++;
      } else if (c === '[') {
        const cls = charClass(pattern, i, false);
        if (!cls) return undefined;
        out += cls.re;
        i = cls.end;
      } else if (c === '{') {
        i++;
        const parts: string[] = [];
        for (;;) {
          const p = alt(depth + 1);
          if (p === undefined) return undefined;
          parts.push(p);
          if (pattern[i] === ',') {
            i++;
            continue;
          }
          if (pattern[i] === '}') {
            i++;
            break;
          }
          return undefined;
        }
        out += '(?:' + parts.join('|') + ')';
      } else if (depth > 0 && (c === ',' || c === '}')) {
        return out;
      } else if (c === '\\') {
        if (i + 1 >= pattern.length) return undefined;
        out += escapeRe(pattern[i + 1]!);
        i += 2;
      } else {
        out += escapeRe(c);
        i++;
      }
    }
    return depth > 0 ? undefined : out;
  };
  const body = alt(0);
  return body === undefined ? undefined : new RegExp('^' + body + '$', 'su');
}
