import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  parseMatrix,
  checkMatrix,
  updateMatrix,
  compareRendering,
  matchGolden,
  expectGolden,
  MatrixError,
  safeFileName,
  type GoldenCase,
} from '../../src/golden/index.js';

// The golden machinery is independent of what renders a case: these tests render a case as a
// description of its inputs, so that any change of input shows as a change of output.
const describeCase = (c: GoldenCase): string =>
  [`case: ${c.name}`, `workloads: ${path.basename(c.workloads ?? '-')}`, `set: [${(c.set ?? []).join(', ')}]`, ''].join('\n');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golden-test-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const matrixText = `
goldenDir: out
defaults:
  set: [global.a=1]
cases:
  - name: single
    workloads: w/pod.yaml
matrix:
  - name: "{istio}-{values}-{workload}"
    axes:
      istio:
        - { name: "1.20", injectorConfigMap: cm20.yaml }
        - { name: "1.24", injectorConfigMap: cm24.yaml }
      values:
        - { name: default }
        - { name: hold, set: [global.proxy.holdApplicationUntilProxyStarts=true] }
      workload:
        - { name: deploy, workloads: w/deploy.yaml }
`;

describe('matrix', () => {
  it('expands the cross product with readable names and merged lists', () => {
    const m = parseMatrix(matrixText, path.join(dir, 'golden.yaml'));
    expect(m.cases.map((c) => c.name)).toEqual(['single', '1.20-default-deploy', '1.20-hold-deploy', '1.24-default-deploy', '1.24-hold-deploy']);
    const hold = m.cases.find((c) => c.name === '1.24-hold-deploy')!;
    expect(hold.set).toEqual(['global.a=1', 'global.proxy.holdApplicationUntilProxyStarts=true']);
    expect(hold.injectorConfigmap).toBe(path.join(dir, 'cm24.yaml'));
    expect(hold.goldenPath).toBe(path.join(dir, 'out', '1.24-hold-deploy.yaml'));
    expect(hold.compare).toBe('exact');
  });

  it('joins entry names when the matrix has no name pattern', () => {
    const m = parseMatrix('matrix:\n  - axes:\n      a: [{name: x}, {name: y}]\n      b: [{name: p}]\n', path.join(dir, 'm.yaml'));
    expect(m.cases.map((c) => c.name)).toEqual(['x.p', 'y.p']);
  });

  const bad: [string, string, RegExp][] = [
    ['unknown field', 'cases:\n  - name: a\n    workload: x.yaml\n', /m\.yaml:3:5: unknown field "workload" in cases\.0/],
    ['wrong type', 'cases:\n  - name: a\n    set: yes\n', /m\.yaml:3:10: cases\.0\.set must be array/],
    ['missing name', 'cases:\n  - workloads: a.yaml\n', /m\.yaml:2:5: cases\.0 must have required property 'name'/],
    ['duplicate name', 'cases:\n  - name: a\n  - name: a\n', /m\.yaml:3:5: duplicate case name "a" \(first declared at .*m\.yaml:2:5\)/],
    ['golden outside', 'cases:\n  - name: a\n    golden: ../../etc/passwd\n', /m\.yaml:2:5: golden file "\.\.\/\.\.\/etc\/passwd" of case "a" is outside the golden directory/],
    ['bad yaml', 'cases: [\n', /m\.yaml:2:1: /],
    ['unknown axis', 'matrix:\n  - name: "{nope}"\n    axes:\n      a: [{name: x}]\n', /m\.yaml:2:11: name pattern names unknown axis "nope"/],
    ['shared golden file', 'cases:\n  - name: a\n    golden: x.yaml\n  - name: b\n    golden: x.yaml\n', /m\.yaml:4:5: golden file "x\.yaml" of case "b" is also case "a"'s/],
    ['inherited name as axis', 'matrix:\n  - name: "{constructor}"\n    axes:\n      a: [{name: x}]\n', /m\.yaml:2:11: name pattern names unknown axis "constructor"/],
    ['matrix inside the golden directory', 'goldenDir: .\ncases:\n  - name: a\n    workloads: w.yaml\n', /m\.yaml:1:12: the golden directory holds m\.yaml, which golden update --prune would remove/],
    ['input inside the golden directory', 'cases:\n  - name: a\n    workloads: golden/w.yaml\n', /m\.yaml: the golden directory holds golden\/w\.yaml, which golden update --prune would remove/],
  ];
  it.each(bad)('rejects %s with a position', (_label, text, re) => {
    let err: unknown;
    try {
      parseMatrix(text, 'm.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MatrixError);
    expect((err as Error).message).toMatch(re);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('check and update', () => {
  const setup = () => parseMatrix(matrixText, path.join(dir, 'golden.yaml'));

  it('reports every golden as missing, then update writes them and check passes', async () => {
    const m = setup();
    const first = await checkMatrix(m, describeCase);
    expect([first.passed, first.changed, first.missing, first.failed]).toEqual([0, 0, 5, 0]);
    const up = await updateMatrix(m, describeCase);
    expect(up.added).toHaveLength(5);
    expect(fs.readFileSync(path.join(dir, 'out', 'single.yaml'), 'utf8')).toBe(describeCase(m.cases[0]!));
    const again = await checkMatrix(m, describeCase);
    expect(again.passed).toBe(5);
    expect(again.stale).toEqual([]);
  });

  it('reads a golden file no further than the input limit (a 3 GiB sparse file fails its case at once)', async () => {
    const m = setup();
    await updateMatrix(m, describeCase);
    const huge = path.join(dir, 'out', 'single.yaml');
    fs.truncateSync(huge, 3 * 1024 ** 3);
    const r = await checkMatrix(m, describeCase);
    const single = r.results.find((x) => x.name === 'single')!;
    expect(single.status).toBe('failed');
    expect(single.error).toMatch(/single\.yaml.*more than the limit of 67108864/);
    expect(r.passed).toBe(4);
  });

  it('names exactly the case whose golden has a one-character change', async () => {
    const m = setup();
    await updateMatrix(m, describeCase);
    const victim = path.join(dir, 'out', '1.20-hold-deploy.yaml');
    fs.writeFileSync(victim, fs.readFileSync(victim, 'utf8').replace('hold', 'holt'));
    const r = await checkMatrix(m, describeCase);
    expect(r.results.filter((x) => x.status === 'changed').map((x) => x.name)).toEqual(['1.20-hold-deploy']);
    const diff = r.results.find((x) => x.status === 'changed')!.diff!;
    expect(diff).toContain('-case: 1.20-holt-deploy');
    expect(diff).toContain('+case: 1.20-hold-deploy');
  });

  it('keeps a failing case out of the passed count and its golden untouched', async () => {
    const m = setup();
    await updateMatrix(m, describeCase);
    const before = fs.readFileSync(path.join(dir, 'out', 'single.yaml'), 'utf8');
    const failing = (c: GoldenCase) => {
      if (c.name === 'single') throw new Error('w/pod.yaml:3:1: bad workload');
      return describeCase(c);
    };
    const r = await updateMatrix(m, failing);
    expect(r.failed).toBe(1);
    expect(r.results.find((x) => x.name === 'single')!.error).toBe('w/pod.yaml:3:1: bad workload');
    expect(fs.readFileSync(path.join(dir, 'out', 'single.yaml'), 'utf8')).toBe(before);
  });

  it('reports stale goldens; prunes only those an update of the matrix wrote, inside the golden directory', async () => {
    const m = setup();
    await updateMatrix(m, describeCase);
    // a file the matrix never wrote is reported, and left in place
    fs.writeFileSync(path.join(dir, 'out', 'old-case.yaml'), 'x\n');
    fs.writeFileSync(path.join(dir, 'outside.yaml'), 'keep\n');
    const r = await checkMatrix(m, describeCase);
    expect([r.stale, r.unrecorded]).toEqual([['old-case.yaml'], ['old-case.yaml']]);
    const up = await updateMatrix(m, describeCase, { prune: true });
    expect([up.removed, up.stale, up.unrecorded]).toEqual([[], ['old-case.yaml'], ['old-case.yaml']]);
    expect(fs.readFileSync(path.join(dir, 'out', 'old-case.yaml'), 'utf8')).toBe('x\n');
    // a golden the matrix wrote whose case is gone is removed
    const fewer = { ...m, cases: m.cases.filter((c) => c.name !== 'single') };
    const again = await checkMatrix(fewer, describeCase);
    expect([again.stale, again.unrecorded]).toEqual([['old-case.yaml', 'single.yaml'], ['old-case.yaml']]);
    const pruned = await updateMatrix(fewer, describeCase, { prune: true });
    expect(pruned.removed).toEqual(['single.yaml']);
    expect(fs.existsSync(path.join(dir, 'out', 'single.yaml'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'out', 'old-case.yaml'))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'outside.yaml'), 'utf8')).toBe('keep\n');
    expect(fs.readdirSync(path.join(dir, 'out')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a goldenDir outside the matrix folder is refused unless given on the command line; a long case name gets a file', async () => {
    const m = setup();
    const text = matrixText.replace(/^goldenDir: .*$/m, 'goldenDir: ../elsewhere');
    expect(() => parseMatrix(text, m.file)).toThrow(/goldenDir \.\.\/elsewhere is outside the matrix's folder; give it on the command line \(--golden-dir\) to use it$/);
    const given = parseMatrix(text, m.file, { goldenDir: path.join(dir, 'elsewhere') });
    expect(given.goldenDir).toBe(path.join(dir, 'elsewhere'));
    const long = 'n'.repeat(300);
    const named = { ...m, cases: [{ ...m.cases[0]!, name: long, goldenPath: path.join(m.goldenDir, safeFileName(long) + '.yaml') }] };
    const r = await updateMatrix(named, describeCase);
    expect([r.added.length, r.failed]).toEqual([1, 0]);
    expect(path.basename(r.added[0]!).length).toBeLessThanOrEqual(205);
  });

  it('reports progress for every case', async () => {
    const m = setup();
    const seen: string[] = [];
    await checkMatrix(m, describeCase, { onProgress: (d, t) => seen.push(`${d}/${t}`) });
    expect(seen).toEqual(['1/5', '2/5', '3/5', '4/5', '5/5']);
  });
});

describe('comparison modes', () => {
  const a = 'spec:\n  containers:\n  - name: app\n    image: x\n  - name: istio-proxy\n';
  const reordered = 'spec:\n  containers:\n    - image: x\n      name: app\n    - {name: istio-proxy}\n';
  it('exact mode sees formatting; semantic mode does not', () => {
    expect(compareRendering(a, reordered, 'exact', 'f').equal).toBe(false);
    expect(compareRendering(a, reordered, 'semantic', 'f').equal).toBe(true);
  });
  it('semantic mode still sees content and list order', () => {
    const swapped = 'spec:\n  containers:\n  - name: istio-proxy\n  - name: app\n    image: x\n';
    const r = compareRendering(a, swapped, 'semantic', 'f');
    expect(r.equal).toBe(false);
    expect(r.diff).toMatch(/^[-+] +- name: istio-proxy|^[-+]\s+- (image|name)/m);
  });
});

describe('test-suite helper', () => {
  it('passes on a match, throws a diff on a mismatch, and writes when updating', () => {
    const f = path.join(dir, 'g', 'x.yaml');
    expect(matchGolden('a: 1\n', f).equal).toBe(false);
    expect(matchGolden('a: 1\n', f, { update: true }).equal).toBe(true);
    expect(fs.readFileSync(f, 'utf8')).toBe('a: 1\n');
    expect(() => expectGolden('a: 1\n', f, { update: false })).not.toThrow();
    expect(() => expectGolden('a: 2\n', f, { update: false })).toThrow(/-a: 1\n\+a: 2/);
  });
});
