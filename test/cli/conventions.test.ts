// What users expect of a command-line tool: a version command that names the supported releases, shell
// completion, quiet exit when the reader goes away, and ways to silence an audit rule.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { KNOWN_RELEASES } from '../../src/istio/version.js';
import { RULES } from '../../src/audit/index.js';
import { VERSION } from '../../src/version.js';
import { cli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ex = (f: string) => join(root, 'examples', f);
const bin = join(root, 'bin', 'sidecar-render.cjs');
const dir = mkdtempSync(join(tmpdir(), 'sidecar-render-conv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('version', () => {
  it('prints the version, every modelled Istio release and the Helm chart follows', async () => {
    const r = await cli('version');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`sidecar-render ${VERSION}\nIstio releases: ${KNOWN_RELEASES.join(', ')}\nHelm: v3.17.1 (chart renders as its helm template)\n`);
  });
});

describe('completion', () => {
  it('bash: a script bash accepts, completing commands, subcommands, flags and shells', async () => {
    const r = await cli('completion', 'bash');
    expect(r.code).toBe(0);
    const script = join(dir, 'c.bash');
    writeFileSync(script, r.stdout);
    const complete = (...words: string[]) => {
      const line = `source ${JSON.stringify(script)}; COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=${words.length - 1}; _sidecar_render; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const out = spawnSync('bash', ['-c', line], { encoding: 'utf8', cwd: dir });
      expect(out.stderr).toBe('');
      return out.stdout.split('\n').filter(Boolean);
    };
    expect(complete('sidecar-render', 're')).toEqual(['render']);
    expect(complete('sidecar-render', 'render', '--injector-c')).toEqual(['--injector-configmap']);
    expect(complete('sidecar-render', 'audit', '--dis')).toEqual(['--disable']);
    expect(complete('sidecar-render', 'golden', 'up')).toEqual(['update']);
    expect(complete('sidecar-render', 'golden', 'check', '--set-s')).toEqual(['--set-string']);
    expect(complete('sidecar-render', 'completion', 'f')).toEqual(['fish']);
  });

  it("bash: an option's fixed values, per command (--mode, -o/--output, --fail-on, --funcs, --native-sidecars)", async () => {
    const r = await cli('completion', 'bash');
    const script = join(dir, 'values.bash');
    writeFileSync(script, r.stdout);
    // COMP_WORDS as bash splits the line (`--mode=k` is `--mode` `=` `k`), the cursor on the last word
    const complete = (...words: string[]) => {
      const line = `source ${JSON.stringify(script)}; COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=${words.length - 1}; _sidecar_render; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const out = spawnSync('bash', ['-c', line], { encoding: 'utf8', cwd: dir });
      expect(out.stderr).toBe('');
      return out.stdout.split('\n').filter(Boolean);
    };
    expect(complete('sidecar-render', 'render', '--mode', '')).toEqual(['webhook', 'kube-inject']);
    expect(complete('sidecar-render', 'render', '-f', 'x.yaml', '--mode', 'k')).toEqual(['kube-inject']);
    expect(complete('sidecar-render', 'render', '--mode', '=', 'w')).toEqual(['webhook']);
    expect(complete('sidecar-render', 'render', '--mode', '=')).toEqual(['webhook', 'kube-inject']);
    expect(complete('sidecar-render', 'diff', '--mode', '')).toEqual(['webhook', 'kube-inject']);
    // each command's own -o
    expect(complete('sidecar-render', 'render', '-o', '')).toEqual(['yaml', 'json']);
    expect(complete('sidecar-render', 'render', '--output', 'j')).toEqual(['json']);
    expect(complete('sidecar-render', 'audit', '-o', '')).toEqual(['text', 'json', 'sarif']);
    expect(complete('sidecar-render', 'diff', '-o', '')).toEqual(['text', 'json']);
    expect(complete('sidecar-render', 'golden', 'check', '--output', '')).toEqual(['text', 'json']);
    expect(complete('sidecar-render', 'golden', 'update', '-o', 't')).toEqual(['text']);
    expect(complete('sidecar-render', 'audit', '--fail-on', '')).toEqual(['info', 'warning', 'error']);
    expect(complete('sidecar-render', 'audit', '--fail-on', 'w')).toEqual(['warning']);
    expect(complete('sidecar-render', 'template', '--funcs', 's')).toEqual(['sprig']);
    expect(complete('sidecar-render', 'render', '--native-sidecars', '')).toEqual(['auto', 'true', 'false']);
    // not after an option without a list, nor where the next option starts
    expect(complete('sidecar-render', 'render', '--native-sidecars', '--mer')).toEqual(['--merged']);
    expect(complete('sidecar-render', 'render', '--merged', '--mo')).toEqual(['--mode']);
  });

  it('zsh (the bash function) and fish offer the same values', async () => {
    const zsh = (await cli('completion', 'zsh')).stdout;
    expect(zsh).toContain(`'render --mode') COMPREPLY=($(compgen -W 'webhook kube-inject' -- "$cur")); return ;;`);
    expect(zsh).toContain(`'audit --output'|'audit -o') COMPREPLY=($(compgen -W 'text json sarif' -- "$cur")); return ;;`);
    expect(zsh).toContain(`'audit --fail-on') COMPREPLY=($(compgen -W 'info warning error' -- "$cur")); return ;;`);
    const fish = (await cli('completion', 'fish')).stdout;
    expect(fish).toMatch(/-n '__fish_seen_subcommand_from render' -l mode -x -a 'webhook kube-inject' -d /);
    expect(fish).toMatch(/-n '__fish_seen_subcommand_from diff' -l mode -x -a 'webhook kube-inject' -d /);
    expect(fish).toMatch(/-n '__fish_seen_subcommand_from render' -l output -s o -x -a 'yaml json' -d /);
    expect(fish).toMatch(/-n '__fish_seen_subcommand_from check' -l output -s o -x -a 'text json' -d /);
    expect(fish).toMatch(/-n '__fish_seen_subcommand_from audit' -l fail-on -x -a 'info warning error' -d /);
  });

  it('zsh wraps the bash function; fish lists commands and options with descriptions', async () => {
    const zsh = await cli('completion', 'zsh');
    expect(zsh.stdout).toMatch(/^#compdef sidecar-render\n/);
    expect(zsh.stdout).toContain('bashcompinit');
    expect(zsh.stdout).toContain('complete -o filenames -F _sidecar_render sidecar-render');
    const fish = await cli('completion', 'fish');
    expect(fish.stdout).toContain("complete -c sidecar-render -n '__fish_use_subcommand' -a render -d");
    expect(fish.stdout).toMatch(/-n '__fish_seen_subcommand_from render' -l values-file -r -F -d '.+'/);
    expect(fish.stdout).toMatch(/-n '__fish_seen_subcommand_from audit' -l output -s o -x -a 'text json sarif'/);
    const bad = await cli('completion', 'tcsh');
    expect(bad.code).toBe(2);
  });
});

describe('a reader that goes away', () => {
  it('render | head exits quietly, with no EPIPE stack trace', async () => {
    const many = join(dir, 'many.yaml');
    const items = Array.from({ length: 2000 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `p${i}`, namespace: 'default' },
      spec: { containers: [{ name: 'app', image: 'app' }] },
    }));
    writeFileSync(many, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    const child = spawn(process.execPath, [bin, 'render', '-q', '--injector-configmap', ex('istio-sidecar-injector.yaml'), '-f', many, '--merged'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // read one chunk, then close the pipe as head does
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('silencing audit rules', () => {
  const job = (annotations: string) => `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  namespace: shop
${annotations}spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - {name: app, image: app}
`;
  const rules = async (file: string, ...args: string[]) => {
    const r = await cli('audit', '-q', '--model', '--native-sidecars', 'false', '-f', file, '-o', 'json', '--fail-on', 'info', ...args);
    return { ...r, rules: (JSON.parse(r.stdout) as { rule: string }[]).map((f) => f.rule) };
  };

  it('--disable RULE (repeatable or comma-separated) drops the rule; an unknown rule is an error listing them', async () => {
    const f = join(dir, 'job.yaml');
    writeFileSync(f, job(''));
    expect((await rules(f)).rules).toContain('job-never-completes');
    expect((await rules(f, '--disable', 'job-never-completes')).rules).not.toContain('job-never-completes');
    expect((await rules(f, '--disable', 'hold-not-enforced,job-never-completes')).rules).not.toContain('job-never-completes');
    const bad = await cli('audit', '-f', f, '--disable', 'job-never-complete');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`sidecar-render: unknown rule "job-never-complete"; the rules are ${RULES.map((r) => r.id).join(', ')}\n`);
  });

  it('a sidecar-render.io/ignore annotation with a reason silences that rule for that workload only', async () => {
    const f = join(dir, 'ignored.yaml');
    writeFileSync(f, job('  annotations:\n    sidecar-render.io/ignore: "job-never-completes: the job is killed by its CronJob deadline"\n') + '---\n' + job('').replace('name: migrate', 'name: other'));
    const r = await rules(f);
    expect(r.rules.filter((x) => x === 'job-never-completes')).toHaveLength(1);
    expect(JSON.parse(r.stdout).find((x: { rule: string }) => x.rule === 'job-never-completes').workload).toBe('Job/shop/other');
    const loud = await cli('audit', '--model', '--native-sidecars', 'false', '-f', f, '-o', 'json');
    expect(loud.stderr).toContain('audit: 1 finding ignored by sidecar-render.io/ignore annotations\n');
  });

  it('an ignore without a reason, or naming an unknown rule, silences nothing and says so at its line', async () => {
    const f = join(dir, 'noreason.yaml');
    writeFileSync(f, job('  annotations:\n    sidecar-render.io/ignore: "job-never-completes"\n'));
    const r = await rules(f);
    expect(r.rules).toContain('job-never-completes');
    expect(r.stderr).toBe(`${f}:7:5: warning: sidecar-render.io/ignore "job-never-completes" has no reason, so it silences nothing; write "RULE: why it does not apply"\n`);
    const g = join(dir, 'unknown.yaml');
    writeFileSync(g, job('  annotations:\n    sidecar-render.io/ignore: "job-never-complete: typo"\n'));
    const u = await rules(g);
    expect(u.rules).toContain('job-never-completes');
    expect(u.stderr).toMatch(/unknown\.yaml:7:5: warning: sidecar-render\.io\/ignore names unknown rule job-never-complete; the rules are /);
  });

  it('an ignore of many lines gives one warning of each kind, not one per line', async () => {
    const f = join(dir, 'many.yaml');
    const lines = Array.from({ length: 2000 }, (_, i) => `rule-${i}`).join('\\n');
    writeFileSync(f, job(`  annotations:\n    sidecar-render.io/ignore: "${lines}"\n`));
    const r = await rules(f);
    const warnings = r.stderr.trim().split('\n');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/names unknown rules rule-0, rule-1, rule-2, rule-3, rule-4 and 1995 more; the rules are /);
    expect(warnings[1]).toBe(`${f}:7:5: warning: sidecar-render.io/ignore has 2000 entries without a reason (the first "rule-0"), so they silence nothing; write "RULE: why it does not apply"`);
  });
});
