// The 64 MiB input limit holds while reading: a device, an endless stdin or a large sparse file is
// refused after at most the limit is read (they used to be read whole first: 16 GB of /dev/zero, then
// an abort).

import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { here } from './helpers.js';
import { cleanError, runBin, BIN } from './spawn.js';
import { spawnSync } from 'node:child_process';
import { InputTooLarge, linesLimited, readBytesLimited } from '../../src/guard/fs.js';

const CM = here('../../examples/istio-sidecar-injector.yaml');
const DEPLOY = here('../../examples/deployment.yaml');
const LIMIT = /input is (\d+ bytes, )?more than the limit of 67108864( bytes)?$/;

let dir: string;
let sparse: string;
let tmpl: string;
let chart: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sidecar-render-size-'));
  sparse = join(dir, 'sparse.yaml');
  const fd = openSync(sparse, 'w');
  ftruncateSync(fd, 3 * 1024 ** 3);
  closeSync(fd);
  tmpl = join(dir, 't.tmpl');
  writeFileSync(tmpl, '{{ . }}');
  chart = join(dir, 'chart');
  mkdirSync(join(chart, 'templates'), { recursive: true });
  writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: c\nversion: 0.1.0\n');
  writeFileSync(join(chart, 'templates', 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: {{ .Values.a | quote }}\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reading stops at the limit', () => {
  it('a device is read only to the limit', () => {
    const fd = openSync('/dev/zero', 'r');
    try {
      expect(() => readBytesLimited(fd, 1000)).toThrow(InputTooLarge);
    } finally {
      closeSync(fd);
    }
    expect(() => readBytesLimited('/dev/zero', 4096)).toThrow(/more than the limit of 4096 bytes/);
  });
  it('a regular file larger than the limit is refused by its size, unread', () => {
    const t0 = Date.now();
    expect(() => readBytesLimited(sparse)).toThrow(/input is 3221225472 bytes, more than the limit of 67108864$/);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
  it('a file at the limit is read whole', () => {
    const f = join(dir, 'exact');
    writeFileSync(f, 'x'.repeat(5000));
    expect(readBytesLimited(f, 5000).length).toBe(5000);
    expect(() => readBytesLimited(f, 4999)).toThrow(InputTooLarge);
  });
  it('lines of a stream: a line longer than the limit is refused before it is whole', async () => {
    let produced = 0;
    const endless = Readable.from(
      (function* () {
        for (;;) {
          produced += 1024;
          yield Buffer.alloc(1024, 0x61);
        }
      })(),
    );
    const got: string[] = [];
    await expect(
      (async () => {
        for await (const l of linesLimited(endless, 100_000)) got.push(l);
      })(),
    ).rejects.toThrow(InputTooLarge);
    expect(produced).toBeLessThan(1_000_000);
    const lines: string[] = [];
    for await (const l of linesLimited(Readable.from([Buffer.from('a\r\nb'), Buffer.from('c\n\nd')]), 10)) lines.push(l);
    expect(lines).toEqual(['a', 'bc', '', 'd']);
  });
});

describe('every command refuses an endless or huge input with one line, quickly', () => {
  const cases: Array<[string, () => string[]]> = [
    ['template FILE', () => ['template', '/dev/zero']],
    ['template --data', () => ['template', tmpl, '--data', '/dev/urandom']],
    ['template --data sparse', () => ['template', tmpl, '--data', sparse]],
    ['render -f', () => ['render', '--injector-configmap', CM, '-f', '/dev/zero']],
    ['render --injector-configmap', () => ['render', '--injector-configmap', sparse, '-f', DEPLOY]],
    ['audit -f', () => ['audit', '-f', '/dev/zero']],
    ['golden check', () => ['golden', 'check', '/dev/zero']],
    ['chart -f', () => ['chart', chart, '-f', '/dev/zero']],
    ['chart -f sparse', () => ['chart', chart, '-f', sparse]],
    // read whole before (an abort: std::bad_alloc)
    ['diff --to', () => ['diff', '--from', CM, '--to', '/dev/zero', '-f', DEPLOY]],
    ['diff --from', () => ['diff', '--from', '/dev/zero', '--to', CM, '-f', DEPLOY]],
    ['render --chart --iop', () => ['render', '--chart', chart, '--iop', '/dev/zero', '-f', DEPLOY]],
  ];
  it.each(cases)('%s', (_what, args) => {
    const r = runBin(args(), { timeoutMs: 30_000 });
    expect(cleanError(r)).toBeUndefined();
    expect(r.stderr.trim()).toMatch(LIMIT);
  });
  it.each([
    ['audit -f -', ['audit', '-f', '-']],
    ['render -f -', ['render', '--injector-configmap', CM, '-f', '-']],
    ['template --batch', ['template', '--batch']],
    ['chart -f -', ['chart', 'CHART', '-f', '-']],
  ])('endless stdin: %s', (_what, args) => {
    args = args.map((a) => (a === 'CHART' ? chart : a));
    const r = spawnSync('/bin/sh', ['-c', `cat /dev/zero | "${process.execPath}" "${BIN}" ${args.join(' ')}`], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr.slice(0, 300)).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/more than the limit of 67108864 bytes/);
  });
});

describe('chart -f - reads the values from stdin, as Helm does', () => {
  it('between the other files, in their order', () => {
    const f = join(dir, 'first.yaml');
    writeFileSync(f, 'a: first\n');
    expect(runBin(['chart', chart, '-f', f, '-f', '-'], { input: 'a: from stdin\n' }).stdout).toContain('a: "from stdin"');
    expect(runBin(['chart', chart, '-f', '-', '-f', f], { input: 'a: from stdin\n' }).stdout).toContain('a: "first"');
  });
});

describe('a values.schema.json that refers to itself', () => {
  it('is one line naming the schema, at once, not a raw stack overflow', () => {
    const c = join(dir, 'selfref');
    mkdirSync(join(c, 'templates'), { recursive: true });
    writeFileSync(join(c, 'Chart.yaml'), 'apiVersion: v2\nname: s\nversion: 0.1.0\n');
    writeFileSync(join(c, 'values.yaml'), 'a: 1\n');
    writeFileSync(join(c, 'values.schema.json'), '{"$ref": "#"}');
    writeFileSync(join(c, 'templates', 'cm.yaml'), 'a: {{ .Values.a }}\n');
    const r = runBin(['chart', c], { timeoutMs: 30_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sidecar-render: ${join(c, 'values.schema.json')}: the schema recurses without end (a $ref that leads back to itself without reading deeper into the values)\n`);
  });
});
