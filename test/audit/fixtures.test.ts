// Every rule has positive fixtures (the rule fires) and negative ones (it stays silent); every seed
// scenario fires its rule, and its fix is silent altogether. Fixtures are data: add a file, not code.
//
// Header comments: `# flags: --kube-version 1.28 --native-sidecars --model`, and in seeds/
// `# expect: rule-a, rule-b` or `# expect: none`. In user-manifests/ (shapes users posted when
// asking for help) `# expect:` is the exact set of rules, and `# fix: TEXT`, `# not-in-fix: TEXT`,
// `# message: TEXT`, `# not-in-message: TEXT` (each repeatable) check what the findings say.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit, RULES, type AuditOptions } from '../../src/audit/index.js';

const root = join(import.meta.dirname, 'fixtures');

function header(text: string, key: string): string | undefined {
  const m = new RegExp(`^# ${key}: (.*)$`, 'm').exec(text);
  return m?.[1]?.trim();
}

function headers(text: string, key: string): string[] {
  return [...text.matchAll(new RegExp(`^# ${key}: (.*)$`, 'gm'))].map((m) => m[1]!.trim());
}

function optionsFor(text: string): AuditOptions {
  const flags = (header(text, 'flags') ?? '').split(/\s+/).filter(Boolean);
  const o: AuditOptions = {};
  for (let i = 0; i < flags.length; i++) {
    if (flags[i] === '--kube-version') o.kubeVersion = flags[++i];
    else if (flags[i] === '--native-sidecars') o.nativeSidecars = true;
    else if (flags[i] === '--model') o.inject = null;
    else throw new Error(`unknown fixture flag ${flags[i]}`);
  }
  return o;
}

function run(dir: string, file: string) {
  const text = readFileSync(join(root, dir, file), 'utf8');
  return { text, findings: audit([{ name: `${dir}/${file}`, text }], optionsFor(text)) };
}

describe('rule fixtures', () => {
  for (const rule of RULES) {
    const files = readdirSync(join(root, rule.id)).sort();
    it(`${rule.id} has positive and negative fixtures`, () => {
      expect(files.some((f) => f.startsWith('positive-'))).toBe(true);
      expect(files.some((f) => f.startsWith('negative-'))).toBe(true);
    });
    for (const file of files) {
      it(`${rule.id}/${file}`, () => {
        const { findings } = run(rule.id, file);
        const mine = findings.filter((f) => f.rule === rule.id);
        if (file.startsWith('positive-')) {
          expect(mine.length, JSON.stringify(findings, null, 1)).toBeGreaterThan(0);
          for (const f of mine) {
            expect(f.message).not.toBe('');
            expect(f.fix).not.toBe('');
            expect(f.location).not.toBe('');
            expect(f.workload).not.toBe('');
          }
        } else {
          expect(mine, JSON.stringify(mine, null, 1)).toEqual([]);
        }
      });
    }
  }
});

describe('seed scenarios', () => {
  const files = readdirSync(join(root, 'seeds')).sort();
  for (const file of files) {
    it(file, () => {
      const { text, findings } = run('seeds', file);
      const expected = header(text, 'expect');
      expect(expected, 'fixture needs an # expect: header').toBeDefined();
      if (expected === 'none') {
        expect(findings, JSON.stringify(findings, null, 1)).toEqual([]);
      } else {
        const rules = new Set(findings.map((f) => f.rule));
        for (const r of expected!.split(/,\s*/)) expect([...rules], JSON.stringify(findings, null, 1)).toContain(r);
      }
    });
  }
  it('every hazard has a fix', () => {
    for (const f of files.filter((x) => x.endsWith('-hazard.yaml'))) expect(files).toContain(f.replace('-hazard', '-fixed'));
  });
});

describe('user manifests', () => {
  const files = readdirSync(join(root, 'user-manifests')).sort();
  it('holds cases', () => expect(files.length).toBeGreaterThanOrEqual(10));
  for (const file of files) {
    it(file, () => {
      const { text, findings } = run('user-manifests', file);
      const shown = JSON.stringify(findings, null, 1);
      const expected = header(text, 'expect');
      expect(expected, 'fixture needs an # expect: header').toBeDefined();
      const want = expected === 'none' ? [] : expected!.split(/,\s*/).sort();
      expect([...new Set(findings.map((f) => f.rule))].sort(), shown).toEqual(want);
      const fixes = findings.map((f) => f.fix);
      const messages = findings.map((f) => f.message);
      for (const t of headers(text, 'fix')) expect(fixes.some((x) => x.includes(t)), `a fix says "${t}"\n${shown}`).toBe(true);
      for (const t of headers(text, 'not-in-fix')) expect(fixes.filter((x) => x.includes(t)), `no fix says "${t}"`).toEqual([]);
      for (const t of headers(text, 'message')) expect(messages.some((x) => x.includes(t)), `a message says "${t}"\n${shown}`).toBe(true);
      for (const t of headers(text, 'not-in-message')) expect(messages.filter((x) => x.includes(t)), `no message says "${t}"`).toEqual([]);
    });
  }
});
