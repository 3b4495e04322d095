import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Real exported injector and mesh ConfigMaps, when the workplace keeps them beside the checkout, are
// rendered and audited too; SIDECAR_RENDER_ISTIO_CONFIGMAPS names another folder of them.
const beside = fileURLToPath(new URL('../shared/istio-configmaps', import.meta.url));
const configmaps = process.env.SIDECAR_RENDER_ISTIO_CONFIGMAPS ?? (existsSync(beside) ? beside : undefined);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    env: configmaps ? { SIDECAR_RENDER_ISTIO_CONFIGMAPS: configmaps } : {},
  },
});
