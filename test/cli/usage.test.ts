// Usage errors of every command: one line on stderr naming what is wrong and the command's --help,
// nothing on stdout, exit code 2. Help and version still print and exit 0.
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const cases: [args: string[], help: string, says: RegExp][] = [
  [[], 'sidecar-render', /^give a command: template, render, audit, chart, diff, golden, completion, version;/],
  [['bogus'], 'sidecar-render', /^unknown command 'bogus';/],
  [['--bogus'], 'sidecar-render', /^unknown option '--bogus';/],
  [['render', '--bogus'], 'sidecar-render render', /^unknown option '--bogus';/],
  [['render', '--merge'], 'sidecar-render render', /^unknown option '--merge' \(did you mean --merged\?\);/],
  [['render', '--mode'], 'sidecar-render render', /^option '--mode <mode>' argument missing;/],
  [['render', 'extra'], 'sidecar-render render', /^too many arguments for 'render'\. Expected 0 arguments but got 1;/],
  [['audit', '--bogus'], 'sidecar-render audit', /^unknown option '--bogus';/],
  [['audit', '-o', 'xml'], 'sidecar-render audit', /^option '-o, --output <format>' argument 'xml' is invalid\. Allowed choices are text, json, sarif;/],
  [['golden'], 'sidecar-render golden', /^golden needs a subcommand: check, update;/],
  [['golden', 'chek'], 'sidecar-render golden', /^unknown command 'chek' \(did you mean check\?\);/],
  [['golden', 'check', '--bogus'], 'sidecar-render golden check', /^unknown option '--bogus';/],
  [['golden', 'update', '--bogus'], 'sidecar-render golden update', /^unknown option '--bogus';/],
  [['template', '--bogus'], 'sidecar-render template', /^unknown option '--bogus';/],
  [['template', '--funcs'], 'sidecar-render template', /^option '--funcs <set>' argument missing;/],
  [['chart'], 'sidecar-render chart', /^missing required argument 'chart';/],
  [['chart', 'x', '--bogus'], 'sidecar-render chart', /^unknown option '--bogus';/],
  [['diff'], 'sidecar-render diff', /^required option '--from <source>' not specified;/],
  [['diff', '--from', 'a', '--to', 'b', '--bogus'], 'sidecar-render diff', /^unknown option '--bogus';/],
  [['version', '--bogus'], 'sidecar-render version', /^unknown option '--bogus';/],
  [['version', 'extra'], 'sidecar-render version', /^too many arguments for 'version'/],
  [['completion'], 'sidecar-render completion', /^missing required argument 'shell';/],
  [['completion', 'tcsh'], 'sidecar-render completion', /^command-argument value 'tcsh' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish;/],
];

describe('usage errors', () => {
  for (const [args, help, says] of cases) {
    it(`sidecar-render ${args.join(' ')}`, async () => {
      const r = await cli(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      // one line: the program's name, what is wrong, the --help to read
      expect(r.stderr).toMatch(/^sidecar-render: [^\n]+\n$/);
      expect(r.stderr.slice('sidecar-render: '.length)).toMatch(says);
      expect(r.stderr.endsWith(`; see '${help} --help'\n`)).toBe(true);
    });
  }

  it('help and version still print, on stdout, and exit 0', async () => {
    for (const args of [['--help'], ['render', '--help'], ['golden', 'check', '--help'], ['help', 'audit']]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^Usage: sidecar-render/);
      expect(r.stderr).toBe('');
    }
    const v = await cli('--version');
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
