// The time limit holds inside functions whose own work is long: 60 derivePassword calls ran 9.5 s
// under a 2 s limit, 3000 bcrypt calls 137 s under 60 s.

import { describe, expect, it } from 'vitest';
import { LimitError, Template } from '../../src/go/text/template/template.js';
import { funcSet } from '../../src/funcs/index.js';

function timed(src: string, timeoutMs: number): { ms: number; error: unknown } {
  const t = new Template('t');
  t.funcs(funcSet('sprig'));
  t.parse(src);
  const t0 = Date.now();
  let error: unknown;
  try {
    t.execute({}, { timeoutMs });
  } catch (e) {
    error = e;
  }
  return { ms: Date.now() - t0, error };
}

describe('--timeout stops slow functions', () => {
  it.each([
    ['derivePassword', '{{ range until 60 }}{{ derivePassword 1 "long" "password" "user" "example.com" }}{{ end }}'],
    ['bcrypt', '{{ range until 3000 }}{{ bcrypt "x" }}{{ end }}'],
    ['htpasswd', '{{ range until 3000 }}{{ htpasswd "u" "p" }}{{ end }}'],
  ])('%s', (_what, src) => {
    const r = timed(src, 300);
    expect(r.error).toBeInstanceOf(LimitError);
    expect((r.error as Error).message).toMatch(/error calling (derivePassword|bcrypt|htpasswd): execution exceeded the time limit$|execution exceeded the time limit$/);
    // one scrypt (about 150 ms) may run past the limit, never the whole loop
    expect(r.ms).toBeLessThan(3000);
  });
});
