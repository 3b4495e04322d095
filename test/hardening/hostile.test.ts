// Runs test/hardening/hostile-cases.jsonl (written by make-hostile.mjs): each hostile case ends in
// its expected output or its expected one-line error class and text, with nothing polluted
// and the data unchanged. The Go-checked hostile cases are in test/vectors/hardening.

import { describe, expect, it } from 'vitest';
import { Template, TemplateError, type ExecOptions } from '../../src/go/text/template/template.js';
import { funcSet, type FuncSetName } from '../../src/funcs/index.js';
import type { GoValue } from '../../src/go/reflect/value.js';
import { JS_LEAK, here, jsonl, plainData, prototypeState, snapshot } from './helpers.js';

interface HostileCase {
  name: string;
  template: string;
  funcs?: FuncSetName;
  data?: unknown;
  limits?: ExecOptions;
  expect: { output?: string; error?: string; class?: string };
}

const cases = jsonl<HostileCase>(here('./hostile-cases.jsonl'));
const before = prototypeState();

describe('hostile cases', () => {
  it(`the list is there (${cases.length} cases)`, () => expect(cases.length).toBeGreaterThan(100));
  for (const c of cases) {
    it(c.name, () => {
      const data = plainData(c.data ?? {});
      const snap = snapshot(data);
      const t = new Template('t');
      t.funcs(funcSet(c.funcs ?? 'helm', { template: t }));
      let output = '';
      let error: TemplateError | null = null;
      try {
        output = t.parse(c.template).execute(data as GoValue, c.limits);
      } catch (e) {
        if (!(e instanceof TemplateError)) throw new Error(`not a template error: ${e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e)}`);
        error = e;
      }
      if (c.expect.error !== undefined) {
        expect(error, `expected an error, got output ${JSON.stringify(output.slice(0, 200))}`).not.toBeNull();
        expect(error!.message).toMatch(new RegExp(c.expect.error));
        expect(error!.message).not.toMatch(/\n/);
        if (c.expect.class) expect(error!.constructor.name).toMatch(new RegExp(`^(${c.expect.class})$`));
      } else {
        expect(error?.message ?? null).toBeNull();
        expect(output).toBe(c.expect.output);
      }
      expect(output + (error?.message ?? '')).not.toMatch(JS_LEAK);
      expect(snapshot(data)).toBe(snap);
      expect(prototypeState()).toBe(before);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });
  }
});
