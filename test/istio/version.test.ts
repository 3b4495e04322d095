// One notion of a release: what --istio-version and a golden matrix accept, and what detection
// returns, agree; a detected release renders what the true release renders.

import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { matrixSchema } from '../../src/golden/schema.js';
import { loadInjectorConfigMap } from '../../src/istio/configmap.js';
import { renderRequest } from '../../src/output/render.js';
import { DETECTION_MARKS, describeRange, detectIstioVersion, formatIstioVersion, ISTIO_VERSION_PATTERN, KNOWN_RELEASES, parseIstioVersion } from '../../src/istio/version.js';
import { outside } from '../helpers/outside.js';

const matrixAccepts = (v: string): boolean =>
  new Ajv({ strict: false }).validate(matrixSchema, { cases: [{ name: 'c', workloads: 'w.yaml', istioVersion: v }] }) as boolean;

describe('Istio versions', () => {
  it('the CLI and the golden matrix accept the same spellings', () => {
    for (const v of [...KNOWN_RELEASES, '1.20.3', 'v1.24', '1.22.0-beta.1', 'latest', 'head']) {
      expect(() => parseIstioVersion(v), v).not.toThrow();
      expect(matrixAccepts(v), v).toBe(true);
    }
    for (const v of ['1', 'one.two', '1.x', '']) {
      expect(() => parseIstioVersion(v), v).toThrow(/invalid Istio version/);
      expect(matrixAccepts(v), v).toBe(false);
    }
    expect(new RegExp(ISTIO_VERSION_PATTERN).test('1.4')).toBe(true);
    expect(() => parseIstioVersion('1.4')).toThrow(/1.5 or later/);
  });

  it('detection returns releases both accept', () => {
    for (const text of ['{{ .ProxyInitImage }}', '{{ .NativeSidecars }}', '{{ .CompliancePolicy }}', '{{ .ProxyUID }}', '{{ .Revision }}', '{{ .ProxyConfig.Concurrency }}']) {
      const v = formatIstioVersion(detectIstioVersion(text)!.version);
      expect(formatIstioVersion(parseIstioVersion(v))).toBe(v);
      expect(matrixAccepts(v)).toBe(true);
    }
  });

  describe("the detection table of docs/commands.md's render section", () => {
    const readme = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');
    const render = readme.slice(readme.indexOf('\n## render\n'), readme.indexOf('\n## audit\n'));
    // `| `.Field` ... | release |`: the first code span of a row, as a template would use it
    const rows = [...render.matchAll(/^\| `([^`]+)`([^|]*)\| (master|\d+\.\d+(?: or later| to \d+\.\d+)?) \|$/gm)].map((m) => ({ marker: m[1]!, note: m[2]!, range: m[3]! }));
    // a row's field as a template would use it: a field, a function call, a value read, or config text
    const textUsing = (marker: string, note: string) =>
      marker.startsWith('.') ? `{{ ${marker} }}` : /function/.test(note) ? `{{ ${marker} }}` : `${marker}\n`;

    it('names for each field the releases that have it, and detection takes the oldest', () => {
      expect(rows.length).toBeGreaterThan(0);
      for (const { marker, note, range } of rows) {
        const d = detectIstioVersion(textUsing(marker, note))!;
        expect(describeRange(d.range), marker).toBe(range);
        expect(formatIstioVersion(d.version), marker).toBe(d.range.first);
      }
    });

    it('lists every field detection looks for', () => {
      const listed = new Set(rows.map(({ marker, note }) => detectIstioVersion(textUsing(marker, note))!.reason));
      for (const [, , reason] of DETECTION_MARKS) expect(listed, reason).toContain(reason);
    });
  });

  // real exported ConfigMaps, not part of this repository: SIDECAR_RENDER_ISTIO_CONFIGMAPS names their folder
  const releases = ['1.5.0', '1.7.0', '1.8.0', '1.12.0', '1.20.0', '1.24.0', '1.28.0', 'master'];
  const real = outside('configmaps', ...releases.flatMap((v) => [`${v}/istio-sidecar-injector.yaml`, `${v}/istio-mesh.yaml`]));
  it.skipIf(!real)('a real ConfigMap renders the same with the detected release as with its own', () => {
    for (const ver of releases) {
      const cm = `${real}/${ver}/istio-sidecar-injector.yaml`;
      const base = { injectorConfigMap: cm, mesh: `${real}/${ver}/istio-mesh.yaml`, workloads: 'examples/deployment.yaml' };
      const detected = loadInjectorConfigMap(readFileSync(cm, 'utf8'), cm).detected!.version;
      const own = parseIstioVersion(ver);
      expect(renderRequest(base).text, ver).toBe(renderRequest({ ...base, istioVersion: own }).text);
      expect(renderRequest({ ...base, istioVersion: detected }).text, ver).toBe(renderRequest({ ...base, istioVersion: own }).text);
    }
  });
});
