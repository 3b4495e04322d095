// A golden matrix whose axes multiply to millions of cases is refused with its count before any case
// is built (a 19 KB file of three 300-entry axes used to exhaust the heap).

import { describe, expect, it } from 'vitest';
import { MAX_CASES, parseMatrix } from '../../src/golden/matrix.js';

function matrix(axes: number[], cases = 1): string {
  const lines = cases > 0 ? ['cases:'] : [];
  for (let i = 0; i < cases; i++) lines.push(`  - { name: c${i}, workloads: w.yaml }`);
  lines.push('matrix:', '  - axes:');
  axes.forEach((n, a) => {
    lines.push(`      x${a}:`);
    for (let i = 0; i < n; i++) lines.push(`        - { name: e${i}, workloads: w.yaml }`);
  });
  return lines.join('\n') + '\n';
}

describe('golden matrix case count', () => {
  it('27 million cases are refused at once, with the count and the limit', () => {
    const t0 = Date.now();
    expect(() => parseMatrix(matrix([300, 300, 300]), 'm.yaml')).toThrow(/^m\.yaml:\d+:\d+: the matrix makes 27000001 cases, more than the limit of 100000; split it into several files$/);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });
  it('axes whose product overflows are refused too', () => {
    expect(() => parseMatrix(matrix(Array(60).fill(3), 0), 'm.yaml')).toThrow(/makes 4\.239e\+28 cases, more than the limit/);
  });
  it('the limit itself is allowed', () => {
    expect(MAX_CASES).toBe(100_000);
    expect(parseMatrix(matrix([10, 10], 5), 'm.yaml').cases).toHaveLength(105);
  });
});
