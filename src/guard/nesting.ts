// How deep the parser will recurse for a text, guessed in one pass without lexing: each block opened
// ({{if}}, {{with}}, {{range}}, {{block}}, {{define}}) is a level until its {{end}}, each {{else if}} or
// {{else with}} one more (Go parses the chain as nested ifs, closed by the one {{end}}), and each
// parenthesis open inside an action. Strings, comments and trim markers are not told apart: the guess
// only decides where a command runs (guard/stack.ts), never what it prints.

const BLOCKS = new Set(['if', 'with', 'range', 'block', 'define']);

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function skipSpace(s: string, p: number, end: number): number {
  while (p < end && isSpace(s.charCodeAt(p))) p++;
  return p;
}

function wordAt(s: string, p: number, end: number): string {
  let q = p;
  while (q < end && isLetter(s.charCodeAt(q))) q++;
  return q - p <= 6 ? s.slice(p, q) : '';
}

/** The parser's nesting for text, about: block levels plus the parentheses of the deepest action. */
export function nestingEstimate(text: string, left = '{{', right = '}}'): number {
  let depth = 0;
  let max = 0;
  const levels: number[] = []; // per open block, the levels its {{end}} closes
  let i = text.indexOf(left);
  while (i >= 0) {
    const end = text.indexOf(right, i + left.length);
    if (end < 0) break;
    let p = i + left.length;
    if (text.charCodeAt(p) === 0x2d && isSpace(text.charCodeAt(p + 1))) p += 2;
    p = skipSpace(text, p, end);
    const word = wordAt(text, p, end);
    if (BLOCKS.has(word)) {
      levels.push(1);
      depth++;
    } else if (word === 'else') {
      const next = wordAt(text, skipSpace(text, p + 4, end), end);
      if ((next === 'if' || next === 'with') && levels.length > 0) {
        levels[levels.length - 1]!++;
        depth++;
      }
    } else if (word === 'end') depth -= levels.pop() ?? 0;
    let parens = 0;
    let most = 0;
    for (let k = p; k < end; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x28) {
        if (++parens > most) most = parens;
      } else if (c === 0x29) parens--;
    }
    if (depth + most > max) max = depth + most;
    i = text.indexOf(left, end + right.length);
  }
  return max;
}

/** The bracket nesting of JSON text, strings stepped over. */
export function jsonNesting(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}
