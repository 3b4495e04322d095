// A real browser for the playground's tests: Debian's chromium (`.ci/run` installs it), driven by
// playwright-core. Without it a test is skipped with one line saying what it needs; under CI (CI=true)
// that line is a failing test instead, as for the outside inputs (outside.ts).

import { existsSync } from 'node:fs';
import { it } from 'vitest';
import { underCI } from './outside.js';

/** Headless, offline: no background networking, updates or sync (the machine may have no network). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export const CHROMIUM_LINE = 'needs Chromium for the browser tests: apt-get install chromium, or set SIDECAR_RENDER_CHROMIUM to its path';

/** The chromium to drive, or undefined (then the caller skips; under CI a failing test says why). */
export function chromium(): string | undefined {
  const given = process.env['SIDECAR_RENDER_CHROMIUM'];
  const path = given ? (existsSync(given) ? given : undefined) : ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  if (path) return path;
  if (underCI()) {
    it(CHROMIUM_LINE, () => {
      throw Object.assign(new Error(CHROMIUM_LINE), { stack: '' });
    });
  } else console.warn(CHROMIUM_LINE);
  return undefined;
}
