// Istio's own injection tests (inject_test.go's table, its inputs and kube-inject goldens) through
// `render --merged --mode kube-inject`: each release folder of SIDECAR_RENDER_ISTIO_INJECT_TESTS (or
// ../shared/istio-inject-tests beside the checkout) is run case by case and the agreement, parsed and
// byte for byte, must not fall below what it has reached.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatReport, readInjectCases, runInjectSuite } from './inject-suite.js';
import { outside } from '../helpers/outside.js';

const dir = outside('injectTests');

// Percent of expressible cases that agree, per release reached so far; any other release's suite must
// reach the goal (95% parsed) and most byte for byte.
const FLOORS: Record<string, { parsed: number; bytes: number }> = {
  '1.24.0': { parsed: 100, bytes: 100 },
};
const DEFAULT_FLOOR = { parsed: 95, bytes: 90 };

describe.skipIf(!dir)('Istio injection test suites', () => {
  const releases = dir ? readdirSync(dir).filter((v) => existsSync(join(dir, v, 'inject_test.go'))).sort() : [];
  it('hold at least one release (<release>/inject_test.go)', () => {
    expect(releases.length).toBeGreaterThan(0);
  });
  for (const v of releases) {
    const suite = join(dir!, v);
    it(`${v}: the case table is read`, () => {
      const cases = readInjectCases(suite);
      expect(cases.length).toBeGreaterThan(50);
      // the table's own cases come first and name their golden; the rest are the folder's other inputs
      expect(cases.some((c) => c.expectedError !== undefined)).toBe(true);
      expect(new Set(cases.map((c) => c.index)).size).toBe(cases.length);
    });
    it(`${v}: render --merged --mode kube-inject agrees with kube-inject's goldens`, () => {
      const report = runInjectSuite(suite);
      console.log(formatReport(v, report));
      const floor = FLOORS[v] ?? DEFAULT_FLOOR;
      expect(report.expressible).toBeGreaterThan(0);
      expect((100 * report.agreeParsed) / report.expressible).toBeGreaterThanOrEqual(floor.parsed);
      expect((100 * report.agreeBytes) / report.expressible).toBeGreaterThanOrEqual(floor.bytes);
      for (const r of report.results) if (r.status === 'unexpressible') expect(r.detail, r.c.want).toBeTruthy();
    }, 300_000);
  }
});
