import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Real exported injector and mesh ConfigMaps, when the workplace keeps them beside the checkout, are
// rendered and audited too; SIDECAR_RENDER_ISTIO_CONFIGMAPS names another folder of them.
const beside = fileURLToPath(new URL('../shared/istio-configmaps', import.meta.url));
const configmaps = process.env.SIDECAR_RENDER_ISTIO_CONFIGMAPS ?? (existsSync(beside) ? beside : undefined);
// Istio's own injection test suites (<release>/inject_test.go and testdata/), run by inject-conformance.
const suitesBeside = fileURLToPath(new URL('../shared/istio-inject-tests', import.meta.url));
const injectTests = process.env.SIDECAR_RENDER_ISTIO_INJECT_TESTS ?? (existsSync(suitesBeside) ? suitesBeside : undefined);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    env: { ...(configmaps ? { SIDECAR_RENDER_ISTIO_CONFIGMAPS: configmaps } : {}), ...(injectTests ? { SIDECAR_RENDER_ISTIO_INJECT_TESTS: injectTests } : {}) },
  },
});
