// Text from the input reaches a terminal escaped: a `fail` message or a workload name with ESC, BEL or a
// newline cannot recolour the screen or forge a line of output (-o json already escapes them).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { printable } from '../../src/output/escape.js';

const root = join(import.meta.dirname, '..', '..');
const CM = join(root, 'examples', 'istio-sidecar-injector.yaml');
const dir = mkdtempSync(join(tmpdir(), 'control-chars-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('control characters from the input are escaped where a terminal shows them', () => {
  it('printable escapes C0, DEL, C1 and the Unicode separators, keeps tabs', () => {
    expect(printable('a\u001b[31mb\u0007c\rd\u0085e\u2028f\tg\nh')).toBe('a\\u001b[31mb\\u0007c\\u000dd\\u0085e\\u2028f\tg\\nh');
    expect(printable('x\ny', true)).toBe('x\ny');
  });

  it("a template's fail message", async () => {
    const t = join(dir, 'fail.tmpl');
    writeFileSync(t, '{{ fail "bad\\x1b[31mred\\x07bell" }}');
    const r = await cli('template', '--funcs', 'sprig', t);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain('error calling fail: bad\\u001b[31mred\\u0007bell\n');
  });

  it("a workload's name in render's # Source: comments cannot write YAML of its own", async () => {
    const f = join(dir, 'pods.yaml');
    writeFileSync(f, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: "a\\nforged: key\\x1b[31m"\n  namespace: x\nspec:\n  containers:\n  - {name: c, image: i}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: two, namespace: x}\nspec:\n  containers:\n  - {name: c, image: i}\n');
    const r = await cli('render', '-q', '--injector-configmap', CM, '-f', f);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('# Source: Pod x/a\\nforged: key\\u001b[31m\n');
    expect(r.stdout).not.toMatch(/^forged: key/m);
  });
});
