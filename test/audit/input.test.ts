// Reading inputs: List dumps are unwrapped, and positions point at the right line in YAML, JSON and
// embedded documents.

import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadObjects, parseEmbedded } from '../../src/audit/input.js';
import { audit } from '../../src/audit/index.js';

describe('positions', () => {
  const list = {
    apiVersion: 'v1',
    kind: 'List',
    items: Array.from({ length: 50 }, (_, i) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `d${i}`, namespace: 'ns' },
      spec: { template: { spec: { containers: [{ name: 'app', image: 'x', lifecycle: i === 37 ? { type: 'Sidecar' } : undefined }] } } },
    })),
  };

  it('finds List items in a YAML dump', () => {
    const text = stringify(list);
    const line = text.split('\n').findIndex((l) => l.includes('type: Sidecar')) + 1;
    const f = audit([{ name: 'dump.yaml', text }], { inject: null }).find((x) => x.rule === 'unknown-field');
    expect(f?.workload).toBe('Deployment/ns/d37');
    expect(f?.location).toMatch(new RegExp(`^dump\\.yaml:${line}:\\d+$`));
  });

  it('finds List items in a JSON dump', () => {
    const text = JSON.stringify(list, null, 2);
    const line = text.split('\n').findIndex((l) => l.includes('"Sidecar"')) + 1;
    const f = audit([{ name: 'dump.json', text }], { inject: null }).find((x) => x.rule === 'unknown-field');
    expect(f?.location).toMatch(new RegExp(`^dump\\.json:${line}:\\d+$`));
  });

  it('maps embedded ConfigMap documents onto the file', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: istio\ndata:\n  mesh: |-\n    defaultConfig:\n      holdApplicationUntilProxyStarts: true\n';
    const [cm] = loadObjects([{ name: 'mesh.yaml', text }]);
    const doc = parseEmbedded(cm!, ['data', 'mesh'], 'mesh')!;
    expect(doc.locator.pos(['defaultConfig', 'holdApplicationUntilProxyStarts'])).toEqual({ line: 8, col: 7 });
  });

  it('unwraps Lists and keeps documents apart', () => {
    const text = `${stringify(list)}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n`;
    expect(loadObjects([{ name: 'x', text }])).toHaveLength(51);
  });
});
