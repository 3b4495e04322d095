// Text from the input shown on a terminal: control characters (ESC, BEL, a carriage return, a newline
// inside a message, C1 codes) and the Unicode line and paragraph separators would move the cursor,
// recolour the screen or forge a line of output. They are written as -o json writes them, \u001b.
//
// Upstream: none (what the command line prints to a terminal)

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

/** s with its control characters escaped (a tab kept; a newline kept only when `keepNewlines`). */
export function printable(s: string, keepNewlines = false): string {
  const out = s.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return keepNewlines ? out : out.replace(/\n/g, '\\n');
}
