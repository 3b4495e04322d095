// Patterns a chart brings (.helmignore rules, .Files.Glob) against Helm 3.17.1 and against time: each
// expected result is what Helm answered for the same chart. A pattern that backtracks in a JavaScript
// RegExp (`*a*a*a*a*a*a*a*a*b` against sixty `a`s) and a .helmignore of 5,000 rules over 5,000 files
// run in a process of their own (they need the build), so a hang is a failed test, not a stuck run.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { cleanError, runBin } from '../hardening/spawn.js';
import { FilepathPattern, compileGlob, filepathMatch } from '../../src/helm/match.js';

const tmp = mkdtempSync(join(tmpdir(), 'sidecar-render-glob-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A chart folder: Chart.yaml, then each path with its text. */
function chart(name: string, files: Record<string, string>): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

const LIST_FILES = 'files:\n{{- range $k, $_ := .Files }}\n  - {{ $k | quote }}\n{{- end }}\n';
const listed = (stdout: string): string[] => [...stdout.matchAll(/^  - "(.*)"$/gm)].map((m) => m[1]!);

const HOSTILE = '*a*a*a*a*a*a*a*a*b';
const SIXTY = 'a'.repeat(60);

describe('a hostile pattern is no hang', () => {
  it('filepath.Match and gobwas/glob answer at once for *a*a*a*a*a*a*a*a*b against sixty a', () => {
    expect(new FilepathPattern(HOSTILE).test(SIXTY)).toBe(false);
    expect(new FilepathPattern(HOSTILE).test(SIXTY + 'b')).toBe(true);
    expect(compileGlob(HOSTILE)!.test(SIXTY)).toBe(false);
    expect(compileGlob(HOSTILE)!.test(SIXTY + 'b')).toBe(true);
    expect(compileGlob('{' + '*a,'.repeat(50) + '*b}' + '*a'.repeat(20) + '*b')!.test(SIXTY.repeat(3))).toBe(false);
  });

  it('as a .Files.Glob pattern and as a .helmignore rule (Helm: no file matches, both are kept)', () => {
    const glob = chart('hostile-glob', { [SIXTY]: '', 'templates/cm.yaml': `n: {{ len (.Files.Glob "${HOSTILE}") }}\n` });
    const ignore = chart('hostile-ignore', { [SIXTY]: '', '.helmignore': `${HOSTILE}\n`, 'templates/cm.yaml': LIST_FILES });
    const a = runBin(['chart', glob], { timeoutMs: 20_000 });
    expect(a.stderr).toBe('');
    expect(a.stdout).toContain('n: 0');
    const b = runBin(['chart', ignore], { timeoutMs: 20_000 });
    expect(b.stderr).toBe('');
    expect(listed(b.stdout)).toEqual(['.helmignore', SIXTY]);
  }, 45_000);
});

describe('.helmignore of many rules', () => {
  it('5,000 rules over 5,000 files render (each rule compiled once for the chart)', () => {
    const files: Record<string, string> = { 'templates/cm.yaml': 'n: {{ len .Files }}\n' };
    for (let i = 1; i <= 5000; i++) files[`files/f${i}.txt`] = '';
    files['.helmignore'] = Array.from({ length: 5000 }, (_, i) => `r${i + 1}-*.txt`).join('\n') + '\n';
    const r = runBin(['chart', chart('many-rules', files)], { timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('n: 5001');
  }, 90_000);

  it('more than 10,000 rules is one line naming the .helmignore and the line', async () => {
    const dir = chart('too-many', { '.helmignore': Array.from({ length: 10_001 }, (_, i) => `x${i}`).join('\n'), 'templates/cm.yaml': 'a: 1\n' });
    const r = await cli('chart', dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sidecar-render: ${join(dir, '.helmignore')}:10001:1: more than 10000 rules: a .helmignore is read to 10000 rules\n`);
  });

  it('rules that would take too long to match are one line, not a hang', () => {
    const rule = '*' + '[a]'.repeat(30) + '[b]';
    const files: Record<string, string> = { 'templates/cm.yaml': 'a: 1\n', '.helmignore': Array.from({ length: 10_000 }, () => rule).join('\n') };
    for (let i = 0; i < 40; i++) files[`${'a'.repeat(200)}${i}`] = '';
    const r = runBin(['chart', chart('slow-rules', files)], { timeoutMs: 60_000 });
    expect(cleanError(r)).toBeUndefined();
    expect(r.stderr).toContain('.helmignore: matching the rules takes more than 500,000,000 steps');
  }, 90_000);
});

/** A chart of awkward names: brackets, braces, a comma, a caret, '!', a non-ASCII letter, two depths. */
const AWKWARD = ['conf/a.conf', 'conf/b.txt', 'conf/deep/c.conf', 'conf/x[1].txt', 'conf/a,b', 'conf/{a}', 'conf/é.txt', 'conf/^a', 'conf/!b', 'sub/x.txt', 'x.txt'];
const awkward = (name: string, extra: Record<string, string>): string => chart(name, { ...Object.fromEntries(AWKWARD.map((f) => [f, 'x'])), ...extra });

// What Helm 3.17.1's .Files.Glob gives for each pattern on the awkward chart (gobwas/glob with '/' as
// separator; a pattern it cannot compile, such as an unclosed '[', matches every file).
const GLOB_HELM: Record<string, string> = {
  "conf/[": "conf/!b conf/^a conf/a,b conf/a.conf conf/b.txt conf/deep/c.conf conf/x[1].txt conf/{a} conf/é.txt sub/x.txt x.txt",
  "conf/[a": "conf/!b conf/^a conf/a,b conf/a.conf conf/b.txt conf/deep/c.conf conf/x[1].txt conf/{a} conf/é.txt sub/x.txt x.txt",
  "conf/\\[x]*": "",
  "conf/x\\[1\\].txt": "conf/x[1].txt",
  "conf/x[1].txt": "",
  "**/": "",
  "**/*.conf": "conf/a.conf conf/deep/c.conf",
  "conf/**/*.conf": "conf/deep/c.conf",
  "conf/**": "conf/!b conf/^a conf/a,b conf/a.conf conf/b.txt conf/deep/c.conf conf/x[1].txt conf/{a} conf/é.txt",
  "conf/**.conf": "conf/a.conf conf/deep/c.conf",
  "conf/*.{conf,txt}": "conf/a.conf conf/b.txt conf/x[1].txt conf/é.txt",
  "conf/{a,b}.*": "conf/a.conf conf/b.txt",
  "conf/{a,b": "",
  "conf/{a\\,b}": "conf/a,b",
  "conf/\\{a\\}": "conf/{a}",
  "conf/{a}": "",
  "conf/[!a-c]*": "conf/!b conf/^a conf/x[1].txt conf/{a} conf/é.txt",
  "conf/?.conf": "conf/a.conf",
  "conf?a.conf": "",
  "conf/*": "conf/!b conf/^a conf/a,b conf/a.conf conf/b.txt conf/x[1].txt conf/{a} conf/é.txt",
  "*": "x.txt",
  "**": "conf/!b conf/^a conf/a,b conf/a.conf conf/b.txt conf/deep/c.conf conf/x[1].txt conf/{a} conf/é.txt sub/x.txt x.txt",
  "*/*": "conf/!b conf/^a conf/a,b conf/a.conf conf/b.txt conf/x[1].txt conf/{a} conf/é.txt sub/x.txt",
  "conf/[a-c].conf": "conf/a.conf",
  "conf/[ab].txt": "conf/b.txt",
  "conf/[^a]*": "conf/^a conf/a,b conf/a.conf",
  "conf/[!^]*": "conf/!b conf/a,b conf/a.conf conf/b.txt conf/x[1].txt conf/{a} conf/é.txt",
  "conf/a\\": "",
  "conf/[a-cx]*": "conf/!b conf/^a conf/a,b conf/a.conf conf/b.txt conf/deep/c.conf conf/x[1].txt conf/{a} conf/é.txt sub/x.txt x.txt",
  "conf/[]": "conf/!b conf/^a conf/a,b conf/a.conf conf/b.txt conf/deep/c.conf conf/x[1].txt conf/{a} conf/é.txt sub/x.txt x.txt",
  "conf/[!]": "conf/!b conf/^a conf/a,b conf/a.conf conf/b.txt conf/deep/c.conf conf/x[1].txt conf/{a} conf/é.txt sub/x.txt x.txt",
  "conf/]*": "",
  "conf/a,b": "conf/a,b",
  "conf/*/*": "conf/deep/c.conf",
  "c*/d*/*": "conf/deep/c.conf",
  "{conf,sub}/*.txt": "conf/b.txt conf/x[1].txt conf/é.txt sub/x.txt",
  "{conf/deep,sub}/*": "conf/deep/c.conf sub/x.txt",
  "conf/[z-a]*": "conf/!b conf/^a conf/a,b conf/a.conf conf/b.txt conf/deep/c.conf conf/x[1].txt conf/{a} conf/é.txt sub/x.txt x.txt",
  "conf[/]a.conf": "conf/a.conf",
  "conf[!x]a.conf": "conf/a.conf",
  "conf/a.conf": "conf/a.conf",
  "": "",
};

describe('.Files.Glob as Helm answers it', () => {
  it('unclosed [, \\ escapes, **/, {a,b}, [!a-c], ?, names with /', async () => {
    const patterns = Object.keys(GLOB_HELM);
    const dir = awkward('globs', {
      'values.yaml': `patterns: ${JSON.stringify(patterns)}\n`,
      'templates/cm.yaml': 'data:\n{{- range $i, $p := .Values.patterns }}\n  {{ $p | quote }}: "{{ range $k, $_ := $.Files.Glob $p }}{{ $k }} {{ end }}"\n{{- end }}\n',
    });
    const r = await cli('chart', dir);
    expect(r.stderr).toBe('');
    const got: Record<string, string> = {};
    for (const m of r.stdout.matchAll(/^ {2}(".*"): "(.*)"$/gm)) got[JSON.parse(m[1]!) as string] = m[2]!.trim();
    expect(got).toEqual(GLOB_HELM);
  });
});

describe('.helmignore as Helm reads it', () => {
  const all = ['.helmignore', ...[...AWKWARD].sort()];
  const but = (...gone: string[]) => all.filter((f) => !gone.includes(f));
  const cases: [string, string, string[] | RegExp][] = [
    ['a match ignores; a later ! rule ignores every path it does not match', '*.txt\n!keep.txt\n', /: Chart\.yaml file is missing\n$/],
    ['a ! rule alone keeps only what it matches', '!Chart.yaml\n', []],
    ['a ! rule for a directory ignores every file', '!conf/\n', /: Chart\.yaml file is missing\n$/],
    ['* ignores Chart.yaml too', '*\n', /: Chart\.yaml file is missing\n$/],
    ['** is refused', 'a**b\n', /\.helmignore:1:1: double-star \(\*\*\) syntax is not supported\n$/],
    ['a malformed rule is refused', '# fine\na[\n', /\.helmignore:2:1: syntax error in pattern\n$/],
    ['a trailing / matches the directory', 'conf/\n', ['.helmignore', 'sub/x.txt', 'x.txt']],
    ['a leading / anchors at the root', '/x.txt\n', but('x.txt')],
    ['two leading slashes: Helm cuts one each time the rule is tried', '//x.txt\n', but('x.txt')],
    ['a rule with / matches the whole path', 'sub/*\n', but('sub/x.txt')],
    ['a rule without / matches base names at any depth', '*.txt\n', but('conf/b.txt', 'conf/x[1].txt', 'conf/é.txt', 'sub/x.txt', 'x.txt')],
    ['spaces, tabs, CR and comments', '  # c\n\t*.txt \r\nconf/deep/\n', but('conf/b.txt', 'conf/x[1].txt', 'conf/é.txt', 'sub/x.txt', 'x.txt', 'conf/deep/c.conf')],
    ['[!x] is a class of ! and x in Go', '[!x].txt\n', but('sub/x.txt', 'x.txt')],
    ['[^a] negates in Go', 'conf/[^a]*\n', ['.helmignore', 'conf/a,b', 'conf/a.conf', 'sub/x.txt', 'x.txt']],
    ['an escaped [ is a letter', 'conf/\\[x]*\n', all],
    ['a rule that is malformed once its / is cut matches nothing', 'conf/a\\/\n', all],
  ];
  for (const [what, rules, want] of cases) {
    it(what, async () => {
      const dir = awkward(`ignore-${cases.findIndex((c) => c[0] === what)}`, { '.helmignore': rules, 'templates/cm.yaml': LIST_FILES });
      const r = await cli('chart', dir);
      if (want instanceof RegExp) {
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(want);
        expect(r.stderr.split('\n')).toHaveLength(2);
      } else {
        expect(r.stderr).toBe('');
        expect(listed(r.stdout)).toEqual(want);
      }
    });
  }
});

describe("filepath.Match as go1.19 answers it", () => {
  // [pattern, name, Go's answer]; a malformed pattern is false
  const cases: [string, string, boolean][] = [
    ['*??', '€', true], // a star may stop inside a rune; ? then takes single bytes
    ['*??', 'é', false],
    ['a[^x]b', 'a/b', true], // a class may match '/'
    ['a?b', 'a/b', false],
    ['[z-a]', 'm', false],
    ['[^z-a]', 'm', true],
    ['[]a]', 'a', false],
    ['[\\]a]', ']', true],
    ['a\\', 'a', false],
    ['*', 'a/b', false],
    ['*/b', 'a/b', true],
    ['a*b*c', 'abxbc', true],
    ['[a-', 'a', false],
    ['x*[', 'xyz', false],
    ['', '', true],
  ];
  it.each(cases)('%s against %s', (p, n, want) => {
    expect(filepathMatch(p, n)).toBe(want);
  });
});
