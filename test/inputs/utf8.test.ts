// Invalid UTF-8 in a YAML input is refused as yaml.v2 refuses it, naming the file, line and column: in a
// workloads file, through stdin, in a values file, for render and audit alike. Read as text, it would
// have been replaced with U+FFFD and rendered (or audited) quietly.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const root = join(import.meta.dirname, '..', '..');
const CM = join(root, 'examples', 'istio-sidecar-injector.yaml');
const DEPLOY = join(root, 'examples', 'deployment.yaml');
const dir = mkdtempSync(join(tmpdir(), 'utf8-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pod = Buffer.concat([Buffer.from('apiVersion: v1\nkind: Pod\nmetadata: {name: p'), Buffer.from([0xff]), Buffer.from(', namespace: x}\nspec:\n  containers:\n  - {name: c, image: i}\n')]);
const POD = join(dir, 'pod.yaml');
writeFileSync(POD, pod);
const VALUES = join(dir, 'values.yaml');
writeFileSync(VALUES, Buffer.concat([Buffer.from('global:\n  tag: "1'), Buffer.from([0xc3, 0x28]), Buffer.from('"\n')]));

describe('invalid UTF-8 in a YAML input', () => {
  it('a workloads file: render and audit refuse it at its place', async () => {
    for (const args of [['render', '-q', '--injector-configmap', CM, '-f', POD], ['audit', '-q', '--injector-configmap', CM, '-f', POD]]) {
      const r = await cli(...args);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toBe(`sidecar-render: ${POD}:3:19: invalid leading UTF-8 octet (is this a binary file?)\n`);
    }
  });

  it('a values file', async () => {
    const r = await cli('render', '-q', '--injector-configmap', CM, '--values-file', VALUES, '-f', DEPLOY);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sidecar-render: ${VALUES}:2:11: invalid trailing UTF-8 octet (is this a binary file?)\n`);
  });

  it('stdin', () => {
    const bin = join(root, 'bin', 'sidecar-render.cjs');
    for (const cmd of ['render', 'audit']) {
      const r = spawnSync(process.execPath, [bin, cmd, '-q', '--injector-configmap', CM, '-f', '-'], { input: readFileSync(POD), encoding: 'utf8' });
      expect(r.status, cmd).toBe(2);
      expect(r.stderr, cmd).toBe('sidecar-render: <stdin>:3:19: invalid leading UTF-8 octet (is this a binary file?)\n');
    }
  });
});
