// A 60 MiB value through toYaml in a chart: its code points are held in a typed array of the text's
// size, so the render fits in a heap of 400 MiB (438 MB RSS; Helm 3.17.1 peaks at 971 MB on the same chart;
// the array of numbers before took 1.9 GB and fails in 450 MiB). Runs the built CLI in a process of its own with that heap.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { here } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'sidecar-render-big-value-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a 60 MiB value', () => {
  it('renders through toYaml within a 400 MiB heap', () => {
    const chart = join(tmp, 'big');
    mkdirSync(join(chart, 'templates'), { recursive: true });
    writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: big\nversion: 0.1.0\n');
    writeFileSync(join(chart, 'values.yaml'), `big: ${'x'.repeat(60 * 1024 * 1024)}\n`);
    writeFileSync(join(chart, 'templates', 'a.yaml'), 'v: {{ toYaml .Values | len }}\n');
    const r = spawnSync(process.execPath, ['--max-old-space-size=400', here('../../bin/sidecar-render.cjs'), 'chart', chart], { encoding: 'utf8', maxBuffer: 1 << 20 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // "big: " + the value + yaml.v2's final line break, which helmToYaml takes off
    expect(r.stdout).toBe(`---\n# Source: big/templates/a.yaml\nv: ${5 + 60 * 1024 * 1024}\n`);
  }, 120_000);
});
