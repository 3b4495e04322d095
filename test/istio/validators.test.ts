import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { valuesSchema } from '../../src/istio/schema/values.schema.js';
import { meshSchema, proxyConfigSchema } from '../../src/istio/schema/mesh.schema.js';
import { validateMeshSchema, validateProxyConfigSchema, validateValuesSchema } from '../../src/istio/schema/validators.generated.js';
// @ts-expect-error: a plain ESM script without types
import { AJV_OPTIONS, generateValidators } from '../../tools/gen-validators.mjs';

type Validate = ((x: unknown) => boolean) & { errors?: unknown[] | null };

describe('precompiled schema validators', () => {
  it('are up to date with the schemas (run tools/gen-validators.mjs after changing one)', () => {
    const want = (generateValidators as (s: object) => string)({ valuesSchema, meshSchema, proxyConfigSchema });
    const have = readFileSync(new URL('../../src/istio/schema/validators.generated.ts', import.meta.url), 'utf8');
    expect(have === want).toBe(true);
  });

  const inputs: unknown[] = [
    {},
    null,
    'text',
    [],
    { global: { hub: 1, tag: 1.5, proxy: { lifecycle: { preStop: { exec: { command: ['a', 2] } }, bogus: 1 }, resources: null, statusPort: 'x', holdApplicationUntilProxyStarts: 'yes', excludeIPRanges: '*', unknwn: 1 } } },
    { global: { proxy_init: { resources: 5, forceApplyIptables: true, image: 'x', extra: {} } }, sidecarInjectorWebhook: { defaultTemplates: ['a', 1] }, revision: 3 },
    { defaultConfig: { drainDuration: '5x', terminationDrainDuration: '1.5s', concurrency: 1.5, interceptionMode: 'BOGUS', proxyMetadata: { A: 1, B: 'b' }, image: { imageType: 4 } }, trustDomain: 1 },
    { inboundTrafficPolicy: { mode: 2 }, outboundTrafficPolicy: { mode: 'ALLOW_ANY' }, proxyListenPort: 15001, enableTracing: 'true' },
    { holdApplicationUntilProxyStarts: 1, statusPort: 15020, discoveryAddress: 'istiod:15012', interceptionMode: 2 },
  ];
  const cases: Array<[string, object, Validate]> = [
    ['values', valuesSchema, validateValuesSchema as Validate],
    ['mesh', meshSchema, validateMeshSchema as Validate],
    ['proxy config', proxyConfigSchema, validateProxyConfigSchema as Validate],
  ];
  for (const [name, schema, generated] of cases) {
    it(`${name}: the same verdicts and errors as ajv.compile`, () => {
      const compiled = new Ajv(AJV_OPTIONS as object).compile(schema) as Validate;
      let failures = 0;
      for (const x of inputs) {
        const ok = compiled(x);
        expect(generated(x)).toBe(ok);
        if (!ok) failures++;
        expect(JSON.parse(JSON.stringify(generated.errors ?? null))).toEqual(JSON.parse(JSON.stringify(compiled.errors ?? null)));
      }
      expect(failures).toBeGreaterThan(2);
    });
  }
});
