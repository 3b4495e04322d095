import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Inputs that are Istio's text, never part of this repository: each is a folder its variable names, or,
// when the variable is unset, the folder of that name beside the checkout (../shared/). Tests that read
// one say what they need when it is missing (test/helpers/outside.ts).
const outside: Record<string, string> = {
  // exported injector and mesh ConfigMaps, <version>/{istio-sidecar-injector,istio-mesh}.yaml
  SIDECAR_RENDER_ISTIO_CONFIGMAPS: 'istio-configmaps',
  // istiod's Helm charts, <version>/istio-discovery/
  SIDECAR_RENDER_ISTIO_CHARTS: 'istio-charts',
  // Istio's own injection test suites, <release>/inject_test.go and testdata/
  SIDECAR_RENDER_ISTIO_INJECT_TESTS: 'istio-inject-tests',
};
const env: Record<string, string> = {};
for (const [variable, folder] of Object.entries(outside)) {
  const beside = fileURLToPath(new URL(`../shared/${folder}`, import.meta.url));
  const dir = process.env[variable] ?? (existsSync(beside) ? beside : undefined);
  if (dir) env[variable] = dir;
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    env,
  },
});
