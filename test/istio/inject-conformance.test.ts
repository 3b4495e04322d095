// Istio's own injection tests (inject_test.go's table, its inputs and kube-inject goldens) through
// `render --merged --mode kube-inject`: each release folder of SIDECAR_RENDER_ISTIO_INJECT_TESTS (or
// ../shared/istio-inject-tests beside the checkout) is run case by case by the harness of
// tools/inject-tests, with the release given (--istio-version, the folder's name) and detected, and every
// expressible case must agree byte for byte. tools/inject-tests/run.mjs runs the same harness on any tag
// of istio/istio.

import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderChart } from '../../src/helm/index.js';
import { renderRequest } from '../../src/output/render.js';
import { formatReport, readInjectCases, runInjectSuite, suiteFolders } from '../../tools/inject-tests/suite.mjs';
import { outside } from '../helpers/outside.js';

const dir = outside('injectTests');

describe.skipIf(!dir)('Istio injection test suites', () => {
  const releases = dir ? readdirSync(dir).filter((v) => existsSync(join(dir, v, 'inject_test.go')) || existsSync(join(dir, v, 'pkg/kube/inject/inject_test.go'))).sort() : [];
  it('hold at least one release (<release>/inject_test.go)', () => {
    expect(releases.length).toBeGreaterThan(0);
  });
  for (const v of releases) {
    const suite = join(dir!, v);
    it(`${v}: the case table is read`, () => {
      const cases = readInjectCases(suiteFolders(suite).inject);
      expect(cases.length).toBeGreaterThan(50);
      // the table's own cases come first and name their golden; the rest are the folder's other inputs
      expect(cases.some((c) => c.expectedError !== undefined)).toBe(true);
      expect(new Set(cases.map((c) => c.index)).size).toBe(cases.length);
    });
    for (const how of ['given', 'detected'] as const) {
      it(`${v}, the release ${how}: render --merged --mode kube-inject agrees with kube-inject's goldens byte for byte`, () => {
        const scratch = mkdtempSync(join(tmpdir(), 'inject-suite-'));
        const report = runInjectSuite(suite, { renderRequest, renderChart, scratch, ...(how === 'given' ? { istioVersion: v } : {}) });
        const failing = report.results.filter((r) => r.status !== 'bytes' && r.status !== 'error-ok' && r.status !== 'unexpressible');
        if (failing.length) console.log(formatReport(`${v} (${how})`, report));
        expect(report.expressible).toBeGreaterThan(0);
        expect(failing.map((r) => `${r.c.want}: ${r.detail ?? r.status}`)).toEqual([]);
        for (const r of report.results) if (r.status === 'unexpressible') expect(r.detail, r.c.want).toBeTruthy();
      }, 300_000);
    }
  }
});
