// Templates nested as deep as the JavaScript stack allows, at every depth around that edge: each one
// runs, or fails with a one-line TemplateError (parse or execution), never a raw RangeError. Found by
// the deep-huge fuzz run: a tree that parsed could still exhaust the stack while being compiled for
// its first execution, outside the engine's error handling.

import { describe, expect, it } from 'vitest';
import { Template, TemplateError } from '../../src/go/text/template/template.js';
import { funcSet } from '../../src/funcs/index.js';

const nest = (open: string, n: number) => open.repeat(n) + 'x' + '{{ end }}'.repeat(n);

function outcome(src: string): string {
  const t = new Template('t');
  t.funcs(funcSet('helm', { template: t }));
  try {
    t.parse(src);
    return t.execute(null);
  } catch (e) {
    if (e instanceof TemplateError && !e.message.includes('\n')) return 'error';
    return `raw ${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
}

describe('nesting at the edge of the stack', () => {
  it.each(['{{ if 1 }}', '{{ with 1 }}', '{{ range list 1 }}', '{{ if 0 }}{{ else }}'])('%s', (open) => {
    // warm up, so that optimized code (smaller frames) parses deeper than it compiles
    for (let i = 0; i < 200; i++) expect(outcome(nest(open, 50))).toBe('x');
    const raw: string[] = [];
    for (let n = 500; n <= 5000; n += 250) {
      const r = outcome(nest(open, n));
      if (r !== 'x' && r !== 'error') raw.push(`${n}: ${r}`);
    }
    expect(raw).toEqual([]);
  });
});
