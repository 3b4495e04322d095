// Inputs that are not part of this repository (Istio's exported ConfigMaps, its istiod charts, its
// injection test suites): a folder named by a variable, which vitest.config.ts fills in from ../shared/
// beside the checkout. A test that reads one asks for it here and is skipped without it, with one line
// on stderr saying what it needs; under CI (CI=true) a missing input is a failing test with that line
// instead, so that a pipeline never passes by skipping.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';

export const OUTSIDE_INPUTS = {
  configmaps: { variable: 'SIDECAR_RENDER_ISTIO_CONFIGMAPS', folder: 'istio-configmaps', what: "Istio's exported injector and mesh ConfigMaps" },
  charts: { variable: 'SIDECAR_RENDER_ISTIO_CHARTS', folder: 'istio-charts', what: "Istio's istiod charts" },
  injectTests: { variable: 'SIDECAR_RENDER_ISTIO_INJECT_TESTS', folder: 'istio-inject-tests', what: "Istio's injection tests" },
} as const;

export type OutsideInput = keyof typeof OUTSIDE_INPUTS;

/** CI=true, as CI systems set it (any value but empty, 0 or false). */
export function underCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = (env['CI'] ?? '').trim().toLowerCase();
  return v !== '' && v !== '0' && v !== 'false';
}

/** The one line a test without its input says: what, and the two ways to give it. */
export function needsLine(name: OutsideInput, paths: readonly string[] = []): string {
  const i = OUTSIDE_INPUTS[name];
  return `needs ${i.what}${paths.length ? ` (${paths.join(', ')})` : ''}: set ${i.variable} or put them at ../shared/${i.folder}`;
}

/**
 * The folder of an outside input when it holds every one of `paths`, else undefined: the caller skips
 * what reads it (describe.skipIf / it.skipIf). Call it where tests are declared (a file's top, or a
 * describe's body), as the failing test under CI is declared there.
 */
export function outside(name: OutsideInput, ...paths: string[]): string | undefined {
  const dir = process.env[OUTSIDE_INPUTS[name].variable];
  const there = dir !== undefined && dir !== '' && existsSync(dir);
  // a folder that is there but lacks a release names what it lacks
  const missing = there ? paths.filter((p) => !existsSync(join(dir, p))) : [];
  if (there && missing.length === 0) return dir;
  const line = needsLine(name, missing);
  if (underCI()) {
    it(line, () => {
      // the line is the whole story: no stack pointing into this helper
      throw Object.assign(new Error(line), { stack: '' });
    });
  } else {
    console.warn(line);
  }
  return undefined;
}
