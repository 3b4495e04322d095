// Helm's coalescing warnings print the value they skip as Go's %v does (fmt), whatever it holds: a list
// of maps printed as text made a TypeError before ("Cannot convert object to primitive value", found by
// test/fuzz/charts.test.ts), and a map printed only its keys. The expected lines are Helm 3.17.1's.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderChart } from '../../src/helm/index.js';

const tmp = mkdtempSync(join(tmpdir(), 'sidecar-render-coalesce-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function chart(values: string): string {
  const dir = join(tmp, 'hd');
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: hd\nversion: 0.1.0\n');
  writeFileSync(join(dir, 'templates', 'cm.yaml'), 'v: {{ toJson .Values | quote }}\n');
  writeFileSync(join(dir, 'values.yaml'), values);
  return dir;
}

function warnings(values: string, set: string[]): string[] {
  const out: string[] = [];
  renderChart(chart(values), { set, warn: (m: string) => out.push(m) });
  return out;
}

describe('coalescing warnings', () => {
  it('print a list of maps the chart has where --set puts a table', () => {
    expect(warnings('enabled: {toString: [{}]}\n', ['enabled.toString.a[0]={a,b}'])).toEqual([
      'warning: destination for hd.enabled.toString is a table. Ignoring non-table value ([map[]])',
    ]);
  });

  it('print a whole map, keys sorted, where --set puts a scalar', () => {
    expect(warnings('enabled: {x: {b: [1, "s"], a: 1}}\n', ['enabled.x=5'])).toEqual(['warning: cannot overwrite table with non table for hd.enabled.x (map[a:1 b:[1 s]])']);
  });
});
