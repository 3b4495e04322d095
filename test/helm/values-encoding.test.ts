// The bytes of values files as Helm's YAML reader (yaml.v2) decodes them: UTF-16 after a byte order mark
// is read (Helm 3.17.1 renders it), invalid UTF-8 is refused at its line and column instead of being
// read as U+FFFD, and --set-file reads no further than the input limit.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'sidecar-render-values-encoding-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function chart(name: string, values?: Buffer): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`);
  writeFileSync(join(dir, 'templates', 'cm.yaml'), 'v: {{ toJson .Values | quote }}\n');
  if (values) writeFileSync(join(dir, 'values.yaml'), values);
  return dir;
}

const utf16le = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
const utf16be = (s: string) => Buffer.from([0xfe, 0xff, ...Buffer.from(s, 'utf16le').swap16()]);
// what Helm prints for a chart whose values are {"a":1,"b":"é"}
const rendered = (name: string) => `---\n# Source: ${name}/templates/cm.yaml\nv: "{\\"a\\":1,\\"b\\":\\"é\\"}"\n`;

describe('values files in UTF-16 and invalid UTF-8', () => {
  it("reads a chart's own values.yaml in UTF-16 (little and big endian) after its byte order mark", async () => {
    for (const [name, enc] of [['le', utf16le], ['be', utf16be]] as const) {
      const dir = chart(`own-${name}`, enc('a: 1\nb: é\n'));
      const r = await cli('chart', dir);
      expect(r).toEqual({ code: 0, stdout: rendered(`own-${name}`), stderr: '' });
    }
  });

  it('reads a -f values file in UTF-16', async () => {
    const dir = chart('user');
    const f = join(tmp, 'user-values.yaml');
    writeFileSync(f, utf16be('a: 1\nb: é\n'));
    expect(await cli('chart', dir, '-f', f)).toEqual({ code: 0, stdout: rendered('user'), stderr: '' });
  });

  it('refuses invalid UTF-8 in a -f file and in values.yaml, naming the file, line and column', async () => {
    const f = join(tmp, 'bad.yaml');
    writeFileSync(f, Buffer.from('x: 1\na: \xffb\n', 'latin1'));
    const r = await cli('chart', chart('plain'), '-f', f);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `sidecar-render: ${f}:2:4: invalid leading UTF-8 octet (is this a binary file?)\n` });
    const own = chart('bad-own', Buffer.from('a: \xc3\n', 'latin1'));
    const r2 = await cli('chart', own);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toBe(`sidecar-render: ${own}/values.yaml:1:5: invalid trailing UTF-8 octet (is this a binary file?)\n`);
  });

  it('--set-file of an endless device stops at the input limit', async () => {
    const r = await cli('chart', chart('setfile'), '--set-file', 'a=/dev/zero');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sidecar-render: failed parsing --set-file data: read /dev/zero: input is more than the limit of 67108864 bytes\n');
  });
});
