// End to end over injector ConfigMaps: the bundled example always; real exported ConfigMaps when
// SIDECAR_RENDER_ISTIO_CONFIGMAPS names a folder of <version>/{istio-sidecar-injector,istio-mesh}.yaml
// (they are not part of this repository; test/helpers/outside.ts).

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderRequest } from '../../src/output/render.js';
import { parseTemplateOutput } from '../../src/istio/webhook.js';
import { outside } from '../helpers/outside.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const workloads = [join(root, 'examples/deployment.yaml'), join(root, 'test/golden/seeds/workloads/job.yaml'), join(root, 'test/golden/seeds/workloads/deployment-hold-annotation.yaml')];

function check(injector: string, mesh: string | undefined) {
  for (const w of workloads) {
    for (const merged of [false, true]) {
      const out = renderRequest({ injectorConfigMap: injector, ...(mesh ? { mesh } : {}), workloads: w, merged, kubeVersion: '1.33' });
      expect(out.messages, `${injector} ${w}`).toEqual([]);
      const r = out.results[0]!;
      expect(r.outputs.length).toBeGreaterThan(0);
      for (let i = 0; i < r.outputs.length; i++) parseTemplateOutput(r.outputs[i]!, r.templates[i]!);
      if (merged) {
        const obj = parse(out.text);
        const pod = obj.kind === 'Pod' ? obj : obj.spec.template;
        const all = [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])].map((c: { name: string }) => c.name);
        expect(all).toContain('istio-proxy');
      }
    }
  }
}

describe('injector ConfigMaps end to end', () => {
  it('the bundled example', () => {
    check(join(root, 'examples/istio-sidecar-injector.yaml'), join(root, 'examples/istio-mesh.yaml'));
  });

  const dir = outside('configmaps');
  if (dir) {
    for (const v of readdirSync(dir).sort()) {
      const injector = join(dir, v, 'istio-sidecar-injector.yaml');
      if (!existsSync(injector)) continue;
      const mesh = join(dir, v, 'istio-mesh.yaml');
      it(`Istio ${v}`, () => check(injector, existsSync(mesh) ? mesh : undefined));
    }
  }
});
