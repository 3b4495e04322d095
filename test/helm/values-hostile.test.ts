// Charts and values built to make rendering explode, with what Helm 3.17.1 (`helm template DIR`) answers
// written down: a subchart listed twice under two aliases at every level of a deep chart, `tpl` that
// runs a value which runs itself, tens of thousands of --set flags, and --set keys nested past Helm's
// limits.

import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeMaps, renderChart } from '../../src/helm/index.js';
import { mergeMapsInto, readValuesText } from '../../src/helm/values.js';
import { parseInto } from '../../src/helm/strvals.js';
import { collect, csvList } from '../../src/cli/options.js';
import { helmFuncs } from '../../src/helm/funcs.js';
import { ExecError, LimitError, Template } from '../../src/go/text/template/template.js';
import { MAP_STRING_STRING, newMap, withType, type GoMap, type GoValue } from '../../src/go/reflect/value.js';
import { cli } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'sidecar-render-values-hostile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

interface Nested {
  /** Levels of subcharts under the top chart. */
  depth: number;
  /** The aliases each level lists its one subchart `sub` under. */
  aliases: string[];
  /** Each listing has `condition: ALIAS.enabled`. */
  conditions?: boolean;
  /** More lines of every chart's values.yaml. */
  values?: string;
  /** The template of every chart. */
  template?: string;
}

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Chart.Name }}-{{ .Values.level }}\ndata:\n  subcharts: {{ keys .Subcharts | sortAlpha | join "," | quote }}\n';
const CM_VALUES = CM + '  values: {{ toJson .Values | quote }}\n  path: {{ .Template.BasePath }}\n';

let charts = 0;
/** top/ with charts/sub/, whose charts/sub/ ... `depth` levels down; every chart but the last lists
 *  `sub` once per alias. */
function nestedChart(o: Nested): string {
  const root = join(tmp, `nested-${charts++}`);
  let dir = root;
  for (let i = 0; i <= o.depth; i++) {
    mkdirSync(join(dir, 'templates'), { recursive: true });
    const deps =
      i === o.depth
        ? ''
        : 'dependencies:\n' + o.aliases.map((a) => `- name: sub\n  version: "1.0.0"\n  alias: ${a}\n` + (o.conditions ? `  condition: ${a}.enabled\n` : '')).join('');
    writeFileSync(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${i === 0 ? 'top' : 'sub'}\nversion: 1.0.0\n${deps}`);
    writeFileSync(join(dir, 'values.yaml'), `level: ${i}\n${o.values ?? ''}`);
    writeFileSync(join(dir, 'templates', 'cm.yaml'), o.template ?? CM);
    dir = join(dir, 'charts', 'sub');
  }
  return root;
}

const sources = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('# Source: ')).map((l) => l.slice('# Source: '.length));

describe('a subchart listed under two aliases at every level', () => {
  // Helm's getAliasDependency copies a subchart shallowly: every alias of it shares its subcharts and
  // its Chart.yaml entries. Processing the first alias renames the shared entries to their aliases, so
  // the second alias finds no entry naming its subchart and keeps it as it is: only the first alias's
  // subtree is aliased again, and the chart grows by two documents a level instead of doubling.
  it('depth 2: what Helm prints, byte for byte', () => {
    const text = renderChart(nestedChart({ depth: 2, aliases: ['a', 'b'] })).text;
    const doc = (source: string, name: string, subcharts: string): string =>
      `---\n# Source: ${source}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  subcharts: "${subcharts}"\n`;
    expect(text).toBe(
      doc('top/charts/a/charts/a/templates/cm.yaml', 'a-2', '') +
        doc('top/charts/a/charts/b/templates/cm.yaml', 'b-2', '') +
        doc('top/charts/a/templates/cm.yaml', 'a-1', 'a,b') +
        doc('top/charts/b/charts/sub/templates/cm.yaml', 'sub-2', '') +
        doc('top/charts/b/templates/cm.yaml', 'b-1', 'sub') +
        doc('top/templates/cm.yaml', 'top-0', 'a,b'),
    );
  });

  it('depth 2, values shown: each copy gets the values of the name it ends up with', () => {
    const text = renderChart(nestedChart({ depth: 2, aliases: ['a', 'b'], template: CM_VALUES })).text;
    const values = text.split('\n').filter((l) => l.startsWith('  values: '));
    expect(values).toEqual([
      '  values: "{\\"global\\":{},\\"level\\":2}"',
      '  values: "{\\"global\\":{},\\"level\\":2}"',
      '  values: "{\\"a\\":{\\"global\\":{},\\"level\\":2},\\"b\\":{\\"global\\":{},\\"level\\":2},\\"global\\":{},\\"level\\":1}"',
      '  values: "{\\"global\\":{},\\"level\\":2}"',
      '  values: "{\\"global\\":{},\\"level\\":1,\\"sub\\":{\\"global\\":{},\\"level\\":2}}"',
      '  values: "{\\"a\\":{\\"a\\":{\\"global\\":{},\\"level\\":2},\\"b\\":{\\"global\\":{},\\"level\\":2},\\"global\\":{},\\"level\\":1},\\"b\\":{\\"global\\":{},\\"level\\":1,\\"sub\\":{\\"global\\":{},\\"level\\":2}},\\"level\\":0}"',
    ]);
  });

  it('three aliases with conditions, depth 3: the documents Helm prints, and its text', () => {
    const chart = nestedChart({ depth: 3, aliases: ['a', 'b', 'c'], conditions: true, values: 'a:\n  enabled: false\nc:\n  enabled: true\nsub:\n  level: 42\n', template: CM_VALUES });
    const text = renderChart(chart).text;
    expect(sources(text)).toEqual([
      'top/charts/b/charts/b/charts/a/templates/cm.yaml',
      'top/charts/b/charts/b/charts/b/templates/cm.yaml',
      'top/charts/b/charts/b/charts/c/templates/cm.yaml',
      'top/charts/b/charts/b/templates/cm.yaml',
      'top/charts/b/charts/c/templates/cm.yaml',
      'top/charts/b/templates/cm.yaml',
      'top/charts/c/charts/sub/charts/sub/templates/cm.yaml',
      'top/charts/c/charts/sub/templates/cm.yaml',
      'top/charts/c/templates/cm.yaml',
      'top/templates/cm.yaml',
    ]);
    // Helm's 5,179 bytes
    expect(text.length).toBe(5179);
    expect(sha256(text)).toBe('61fbcdfb389b5ed7a707ea1642ae3036108225f692989f2d9cbbc7b3582d881d');
  });

  it('depth 16 (2^16 charts if every alias were aliased again): Helm\'s 48 documents, 9,419 bytes', () => {
    const text = renderChart(nestedChart({ depth: 16, aliases: ['a', 'b'] })).text;
    const docs = sources(text);
    expect(docs).toHaveLength(48);
    expect(docs[0]).toBe(`top/${'charts/a/'.repeat(16)}templates/cm.yaml`);
    expect(docs[1]).toBe(`top/${'charts/a/'.repeat(15)}charts/b/templates/cm.yaml`);
    expect(docs[31]).toBe(`top/charts/b/${'charts/sub/'.repeat(15)}templates/cm.yaml`);
    expect(docs[47]).toBe('top/templates/cm.yaml');
    expect(text.length).toBe(9419);
    expect(sha256(text)).toBe('151daa6520f4981f79a87cea8fa4e68b0c0f0b9f76f60725f0d92771e13fc8c9');
  });
});

describe('tpl that runs a value which runs itself through tpl', () => {
  // Helm 3.17.1 has no bound: it clones the template set at every level until Go's stack overflows
  // (a fatal error after 58 s and 11 GB). Here nested tpl calls stop at 1,000, with one line.
  const chart = (values: string, template: string): string => {
    const dir = join(tmp, `tpl-${charts++}`);
    mkdirSync(join(dir, 'templates'), { recursive: true });
    writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: tp\nversion: 1.0.0\n');
    writeFileSync(join(dir, 'values.yaml'), values);
    writeFileSync(join(dir, 'templates', 'a.yaml'), template);
    return dir;
  };

  it('x: "{{ tpl .Values.x . }}" ends at 1,000 nested tpl calls, one line naming the template', async () => {
    const dir = chart('x: "{{ tpl .Values.x . }}"\n', 'a: {{ tpl .Values.x . }}\n');
    const r = await cli('chart', dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`sidecar-render: ${dir}/templates/a.yaml:1:3: executing "gotpl" at <tpl .Values.x .>: error calling tpl: exceeded maximum tpl depth (1000)\n`);
  });

  it('tpl nested 999 deep renders what Helm renders', async () => {
    // each level of y runs the next: y0 -> y1 -> ... -> y998, which is text
    const levels = 999;
    const values = Array.from({ length: levels }, (_, i) => (i === levels - 1 ? `y${i}: end\n` : `y${i}: "{{ tpl .Values.y${i + 1} . }}"\n`)).join('');
    const dir = chart(values, 'a: {{ tpl .Values.y0 . }}\n');
    const r = await cli('chart', dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('---\n# Source: tp/templates/a.yaml\na: end\n');
  });

  /** A template with Helm's functions run on data; the error it ends with. */
  const failure = (src: string, data: GoValue, tplMax?: number): ExecError => {
    const t = new Template('t');
    t.funcs(helmFuncs({ template: () => t, ...(tplMax === undefined ? {} : { tplMax }) }));
    t.parse(src);
    try {
      t.execute(data);
    } catch (e) {
      if (e instanceof ExecError) return e;
      throw e;
    }
    throw new Error('no error');
  };

  it('the bound is an option of helmFuncs; past it a LimitError where the last tpl was called', () => {
    const data = newMap();
    data['t'] = '{{ tpl .t . }}';
    const e = failure('{{ tpl .t . }}', data, 5);
    expect(e).toBeInstanceOf(LimitError);
    expect(e.message).toBe('template: t:1:3: executing "t" at <tpl .t .>: error calling tpl: exceeded maximum tpl depth (5)');
  });

  it('an error deep in tpl calls of a long text: wrapped as Helm wraps it up to 1 MiB, then one bounded line', () => {
    // each level quotes its 300,000-character text in front of the error of the level inside it
    const data = newMap();
    data['n'] = 0;
    data['t'] = '{{ $_ := set . "n" (add1 .n) }}{{ if lt .n 8 }}{{ tpl .t . }}{{ else }}{{ fail "boom" }}{{ end }}' + 'p'.repeat(300_000);
    const e = failure('{{ tpl .t . }}', data);
    expect(e).toBeInstanceOf(LimitError);
    expect(e.message).toMatch(/^template: t:1:\d+: executing "t" at <tpl \.t \.>: error calling tpl: the error of nested tpl calls passes 1048576 characters; it ends: .*error calling fail: boom$/);
    expect(e.message.length).toBeLessThan(2_000);
    // three levels, 900,000 characters of quoted text: Helm's words
    data['n'] = 5;
    const three = failure('{{ tpl .t . }}', data);
    expect(three).not.toBeInstanceOf(LimitError);
    expect(three.message.split('error during tpl function execution for ').length).toBe(4);
    expect(three.message).toMatch(/error calling fail: boom$/);
  });
});

describe('tens of thousands of values flags', () => {
  // Helm 3.17.1 takes 0.3 s for 20,000 --set flags; each flag here once copied every value given before
  // it (the option's list, a map's keys, a list at each new index, the merged -f files)
  const chart = (template: string): string => {
    const dir = join(tmp, `flags-${charts++}`);
    mkdirSync(join(dir, 'templates'), { recursive: true });
    writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: s\nversion: 1.0.0\n');
    writeFileSync(join(dir, 'templates', 'a.yaml'), template);
    return dir;
  };
  const N = 20_000;
  const flags = (flag: string, arg: (i: number) => string): string[] => Array.from({ length: N }, (_, i) => [flag, arg(i)]).flat();

  it('a repeatable option grows one list: each use adds to it in place, the default stays empty', () => {
    const none: string[] = [];
    const one = collect('a=1', none);
    const two = collect('b=2', one);
    expect(two).toBe(one);
    expect(two).toEqual(['a=1', 'b=2']);
    expect(none).toEqual([]);
    const files = csvList('--values');
    const f = files('x.yaml,y.yaml', none);
    expect(files('z.yaml', f)).toBe(f);
    expect(f).toEqual(['x.yaml', 'y.yaml', 'z.yaml']);
    expect(none).toEqual([]);
  });

  it('a map that 1,000 flags fill is never listed to learn whether it is empty', () => {
    let listed = 0;
    const a = new Proxy(newMap(), {
      ownKeys(target) {
        listed++;
        return Reflect.ownKeys(target);
      },
    });
    const values = newMap();
    values['a'] = a;
    for (let i = 0; i < 1000; i++) parseInto(values, `a.k${i}=${i}`, 'set');
    expect(Object.keys(a)).toHaveLength(1000);
    expect(listed).toBeLessThanOrEqual(2);
  });

  it('a list set index by index grows in place', () => {
    const values = newMap();
    parseInto(values, 'a[0]=0', 'set');
    const list = values['a'];
    for (let i = 1; i < 1000; i++) parseInto(values, `a[${i}]=${i}`, 'set');
    expect(values['a']).toBe(list);
    expect((list as GoValue[]).length).toBe(1000);
    parseInto(values, 'a[1002]=x', 'set');
    expect((list as GoValue[]).slice(998)).toEqual([expect.anything(), expect.anything(), null, null, 'x']);
  });

  it.each([
    ['--set', (i: number) => `k${i}=${i}`],
    ['--set-string', (i: number) => `k${i}=${i}`],
    ['--set-json', (i: number) => `k${i}=${i}`],
    ['--set-literal', (i: number) => `k${i}=${i}`],
  ])('20,000 %s flags: all 20,000 values', async (flag, arg) => {
    const r = await cli('chart', chart('n: {{ len .Values }}\nlast: {{ .Values.k19999 }}\n'), ...flags(flag, arg));
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('---\n# Source: s/templates/a.yaml\nn: 20000\nlast: 19999\n');
  });

  it('20,000 --set flags into one map six levels down, and into one list', async () => {
    const r = await cli('chart', chart('n: {{ len .Values.a.b.c.d.e.f }}\nlist: {{ len .Values.l }}\n'), ...flags('--set', (i) => `a.b.c.d.e.f.k${i}=${i}`), ...flags('--set', (i) => `l[${i}]=${i}`));
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('---\n# Source: s/templates/a.yaml\nn: 20000\nlist: 20000\n');
  });

  it('20,000 -f files, merged one over the other', async () => {
    const dir = join(tmp, 'many-files');
    mkdirSync(dir);
    const files: string[] = [];
    for (let i = 0; i < N; i++) {
      const f = join(dir, `${i}.yaml`);
      writeFileSync(f, `a:\n  k${i}: ${i}\n  last: ${i}\n`);
      files.push('-f', f);
    }
    const r = await cli('chart', chart('n: {{ len .Values.a }}\nlast: {{ .Values.a.last }}\n'), ...files);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('---\n# Source: s/templates/a.yaml\nn: 20001\nlast: 19999\n');
  });

  it('mergeMapsInto merges as mergeMaps does, into the map given', () => {
    const go = (yaml: string): GoMap => readValuesText(yaml, 'values.yaml');
    const typed = withType(newMap(), MAP_STRING_STRING);
    typed['x'] = 'a';
    const dst = go('a: {b: 1, c: {d: 2}}\ne: [1]\nn: 3\n');
    dst['t'] = typed;
    const src = go('a: {c: {f: 3}, g: null}\ne: {h: 1}\nn: null\nt: {y: b}\n');
    const want = mergeMaps(dst, src);
    mergeMapsInto(dst, src);
    expect(dst).toEqual(want);
    expect(dst).toEqual(go('a: {b: 1, c: {d: 2, f: 3}, g: null}\ne: {h: 1}\nn: null\nt: {x: a, y: b}\n'));
    // a map of another Go type becomes a plain map when it changes, as mergeMaps copies it
    expect(Object.getOwnPropertySymbols(dst['t'] as object)).toEqual([]);
    expect(Object.keys(typed)).toEqual(['x']);
  });
});

describe('--set keys nested past Helm\'s limits (Helm 3.17.1 answers)', () => {
  const dir = (): string => {
    const d = join(tmp, `nest-${charts++}`);
    mkdirSync(join(d, 'templates'), { recursive: true });
    writeFileSync(join(d, 'Chart.yaml'), 'apiVersion: v2\nname: s\nversion: 1.0.0\n');
    writeFileSync(join(d, 'templates', 'a.yaml'), 'n: {{ len .Values }}\n');
    return d;
  };
  const keys = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}`).join('.');
  const ok = '---\n# Source: s/templates/a.yaml\nn: 1\n';

  it.each(['--set', '--set-string', '--set-file', '--set-literal'])('%s: 31 dots are refused, 30 are not', async (flag) => {
    const file = join(tmp, 'one.txt');
    writeFileSync(file, '1');
    const value = flag === '--set-file' ? file : '1';
    const deep = await cli('chart', dir(), flag, `${keys(32)}=${value}`);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toBe(`sidecar-render: failed parsing ${flag} data: value name nested level is greater than maximum supported nested level of 30\n`);
    const fine = await cli('chart', dir(), flag, `${keys(31)}=${value}`);
    expect(fine.stderr).toBe('');
    expect(fine.stdout).toBe(ok);
  });

  it('--set-json: Helm\'s message names the whole text', async () => {
    const deep = await cli('chart', dir(), '--set-json', `${keys(32)}=1`);
    expect(deep.stderr).toBe(`sidecar-render: failed parsing --set-json data ${keys(32)}=1\n`);
    expect((await cli('chart', dir(), '--set-json', `${keys(31)}=1`)).stdout).toBe(ok);
  });

  it('lists nest without a bound, in Helm too: a[0] 1,000 deep, k[0].k[0]... 20,000 deep', async () => {
    expect((await cli('chart', dir(), '--set', `a${'[0]'.repeat(1000)}=1`)).stdout).toBe(ok);
    const mixed = await cli('chart', dir(), '--set', `${Array.from({ length: 20_000 }, () => 'k[0]').join('.')}=1`);
    expect(mixed.stderr).toBe('');
    expect(mixed.stdout).toBe(ok);
  });

  it.each([
    ['--set', 'a[65537]=1', 'failed parsing --set data: index of 65537 is greater than maximum supported index of 65536'],
    ['--set', 'a[0][65537]=1', 'failed parsing --set data: index of 65537 is greater than maximum supported index of 65536'],
    ['--set-literal', 'a[65537]=1', 'failed parsing --set-literal data: index of 65537 is greater than maximum supported index of 65536'],
    ['--set-json', 'a[65537]=1', 'failed parsing --set-json data a[65537]=1'],
    ['--set', 'a[-1]=1', 'failed parsing --set data: negative -1 index not allowed'],
  ])('%s %s: %s', async (flag, arg, message) => {
    const r = await cli('chart', dir(), flag, arg);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sidecar-render: ${message}\n`);
  });

  it('a[65536] is the last index there is', async () => {
    expect((await cli('chart', dir(), '--set', 'a[65536]=1')).stdout).toBe(ok);
  });
});
