// What a cold `render` reads of an injector ConfigMap: the fast YAML reader takes the whole file, so
// the `yaml` package is never loaded (its depth check used to lex every template's text for the
// brackets in `{{`). Real exported ConfigMaps are used when SIDECAR_RENDER_ISTIO_CONFIGMAPS names a
// folder of them (they are not part of this repository; test/helpers/outside.ts); the bundled example always.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderRequest } from '../../src/output/render.js';
import { yamlLibLoaded } from '../../src/yaml/yamllib.js';
import { outside } from '../helpers/outside.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const deployment = join(root, 'examples/deployment.yaml');

const configMaps: Array<[string, string, string]> = [['the bundled example', join(root, 'examples/istio-sidecar-injector.yaml'), join(root, 'examples/istio-mesh.yaml')]];
const dir = outside('configmaps');
if (dir) {
  for (const v of readdirSync(dir).sort()) {
    const injector = join(dir, v, 'istio-sidecar-injector.yaml');
    const mesh = join(dir, v, 'istio-mesh.yaml');
    if (existsSync(injector) && existsSync(mesh)) configMaps.push([`Istio ${v}`, injector, mesh]);
  }
}

describe('a render reads injector ConfigMaps without the yaml package', () => {
  it('starts with it unloaded', () => {
    expect(yamlLibLoaded()).toBe(false);
  });
  it.each(configMaps)('%s', (_name, injectorConfigMap, mesh) => {
    const out = renderRequest({ injectorConfigMap, mesh, workloads: deployment });
    expect(out.messages).toEqual([]);
    expect(out.results[0]!.outputs[0]).toContain('istio-proxy');
    expect(yamlLibLoaded()).toBe(false);
  });
});
