// The audit measured on a corpus written apart from the rule fixtures (test/audit/corpus/): each file
// holds workloads as teams write them or as kubectl prints them, with hazards planted in several
// disguises next to look-alikes that are fine. expected.yaml gives, per workload, the exact set of
// rule ids; the library and the CLI must both report exactly that set, nothing for clean workloads.
//
// SIDECAR_RENDER_ISTIO_CONFIGMAPS (a folder of <version>/{istio-sidecar-injector,istio-mesh}.yaml,
// not part of this repository; test/helpers/outside.ts) adds the same comparison with real injector ConfigMaps rendering the
// raw workloads of real-injectors.yaml (an input there may name only some of its workloads).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { auditDetailed, type AuditOptions, type Finding } from '../../src/audit/index.js';
import { cli } from '../helpers/cli.js';
import { outside } from '../helpers/outside.js';

const corpus = join(import.meta.dirname, 'corpus');

type Expect = Record<string, string[]>;
interface FileSpec {
  options: { kubeVersion?: string; nativeSidecars?: boolean; values?: string };
  workloads: Expect;
}

function readSpec(raw: Record<string, unknown>): FileSpec {
  const options = (raw['options'] ?? {}) as FileSpec['options'];
  const workloads: Expect = {};
  for (const [k, v] of Object.entries(raw)) if (k !== 'options') workloads[k] = [...(v as string[])].sort();
  return { options, workloads };
}

const expectations = parse(readFileSync(join(corpus, 'expected.yaml'), 'utf8')) as Record<string, Record<string, unknown>>;
const files = Object.keys(expectations).filter((f) => f.endsWith('.yaml'));

function bySet(findings: Pick<Finding, 'workload' | 'rule'>[]): Expect {
  const out: Expect = {};
  for (const f of findings) (out[f.workload] ??= []).includes(f.rule) || out[f.workload]!.push(f.rule);
  for (const k of Object.keys(out)) out[k]!.sort();
  return out;
}

/** Expected and actual side by side for every workload named by either (clean ones as []). */
function compare(want: Expect, got: Expect): { want: Expect; got: Expect } {
  const names = new Set([...Object.keys(want), ...Object.keys(got)]);
  const w: Expect = {};
  const g: Expect = {};
  for (const n of [...names].sort()) {
    w[n] = want[n] ?? [];
    g[n] = got[n] ?? [];
  }
  return { want: w, got: g };
}

function libOptions(o: FileSpec['options']): AuditOptions {
  const opts: AuditOptions = {};
  if (o.kubeVersion) opts.kubeVersion = o.kubeVersion;
  if (o.nativeSidecars !== undefined) opts.nativeSidecars = o.nativeSidecars;
  if (o.values) opts.values = { name: o.values, text: readFileSync(join(corpus, o.values), 'utf8') };
  return opts;
}

function cliArgs(o: FileSpec['options']): string[] {
  const a: string[] = [];
  if (o.kubeVersion) a.push('--kube-version', o.kubeVersion);
  if (o.nativeSidecars) a.push('--native-sidecars');
  if (o.values) a.push('--values', join(corpus, o.values));
  return a;
}

const auditCli = (...args: string[]) => cli('audit', '--quiet', ...args);

describe('audit corpus (library)', () => {
  it('has the size it claims', () => {
    const n = files.reduce((sum, f) => sum + Object.keys(readSpec(expectations[f]!).workloads).length, 0);
    expect(files.length).toBeGreaterThanOrEqual(15);
    expect(n).toBeGreaterThanOrEqual(60);
    // every file of the corpus is in the expectations, and the other way round
    const onDisk = readdirSync(corpus).filter((f) => /^c\d+.*\.yaml$/.test(f)).sort();
    expect(onDisk).toEqual([...files].sort());
  });

  for (const file of files) {
    it(file, () => {
      const spec = readSpec(expectations[file]!);
      const res = auditDetailed([{ name: file, text: readFileSync(join(corpus, file), 'utf8') }], libOptions(spec.options));
      // every workload the expectations name was judged (a misread input would otherwise look clean)
      const judged = new Set(res.subjects.map((s) => s.workload.id));
      expect(Object.keys(spec.workloads).filter((w) => !judged.has(w))).toEqual([]);
      const { want, got } = compare(spec.workloads, bySet(res.findings));
      expect(got).toEqual(want);
      for (const f of res.findings) {
        expect(f.message, f.rule).toMatch(/\S/);
        expect(f.fix, f.rule).toMatch(/\S/);
        expect(f.location, `${f.rule} ${f.workload}`).toMatch(new RegExp(`^${file.replace(/\./g, '\\.')}:\\d+:\\d+$`));
      }
    });
  }
});

describe('audit corpus (CLI, --output json)', () => {
  for (const file of files) {
    it(file, async () => {
      const spec = readSpec(expectations[file]!);
      const r = await auditCli('-f', join(corpus, file), '--output', 'json', '--fail-on', 'info', ...cliArgs(spec.options));
      expect(r.stderr).toBe('');
      // one row per cause, each naming the workloads it affects: together, every workload's findings
      const causes = JSON.parse(r.stdout) as (Finding & { affects: number; workloads: { workload: string }[] })[];
      for (const c of causes) expect(Object.keys(c)).toEqual(['rule', 'severity', 'workload', 'container', 'message', 'location', 'fix', 'affects', 'workloads']);
      const findings = causes.flatMap((c) => c.workloads.map((w) => ({ rule: c.rule, workload: w.workload })));
      const { want, got } = compare(spec.workloads, bySet(findings));
      expect(got).toEqual(want);
      expect(r.code).toBe(findings.length ? 1 : 0);
      const rows = JSON.parse((await auditCli('-f', join(corpus, file), '--output', 'json', '--per-workload', ...cliArgs(spec.options))).stdout) as Finding[];
      for (const f of rows) expect(Object.keys(f)).toEqual(['rule', 'severity', 'workload', 'container', 'message', 'location', 'fix']);
      expect(compare(spec.workloads, bySet(rows)).got).toEqual(want);
    });
  }
});

describe('audit corpus with real injector ConfigMaps', () => {
  const real = outside('configmaps');
  const spec = parse(readFileSync(join(corpus, 'real-injectors.yaml'), 'utf8')) as {
    inputs: { file: string; values?: string; kubeVersion?: string; expect: Record<string, Expect> }[];
  };
  it('names only corpus files', () => {
    for (const input of spec.inputs) {
      expect(existsSync(join(corpus, input.file))).toBe(true);
      if (input.values) expect(existsSync(join(corpus, input.values))).toBe(true);
    }
  });
  if (real) {
    for (const v of readdirSync(real).sort()) {
      const injector = join(real, v, 'istio-sidecar-injector.yaml');
      const mesh = join(real, v, 'istio-mesh.yaml');
      if (!existsSync(injector)) continue;
      for (const input of spec.inputs) {
        it(`Istio ${v}: ${input.file}${input.values ? ` with ${input.values}` : ''} on Kubernetes ${input.kubeVersion ?? '?'}`, () => {
          const want: Expect = {};
          for (const [w, byVersion] of Object.entries(input.expect)) want[w] = [...(byVersion[v] ?? byVersion['default'] ?? [])].sort();
          const res = auditDetailed([{ name: input.file, text: readFileSync(join(corpus, input.file), 'utf8') }], {
            injectorConfigMap: { name: injector, text: readFileSync(injector, 'utf8') },
            ...(existsSync(mesh) ? { mesh: { name: mesh, text: readFileSync(mesh, 'utf8') } } : {}),
            ...(input.values ? { valuesFiles: [{ name: input.values, text: readFileSync(join(corpus, input.values), 'utf8') }] } : {}),
            ...(input.kubeVersion ? { kubeVersion: input.kubeVersion } : {}),
          });
          for (const s of res.subjects) if (s.injection !== 'none') expect(s.injection, s.workload.id).toBe('rendered');
          const named = Object.fromEntries(Object.entries(bySet(res.findings)).filter(([k]) => k in want));
          const { want: w, got } = compare(want, named);
          expect(got).toEqual(w);
        });
      }
    }
  }
});

describe('audit corpus: the reports people and tools read', () => {
  // the inputs of one audit are one cluster: the dumps that carry Istio's ConfigMaps each carry their own,
  // so only the first of them goes with the rest
  const carries = (f: string) => /^\s*-?\s*kind: (ConfigMap|IstioOperator)$/m.test(readFileSync(join(corpus, f), 'utf8'));
  const firstDump = files.find(carries);
  const all = files.filter((f) => !readSpec(expectations[f]!).options.kubeVersion && (!carries(f) || f === firstDump)).flatMap((f) => ['-f', join(corpus, f)]);

  it('SARIF 2.1.0 with what code scanning requires on every result', async () => {
    const r = await auditCli(...all, '--output', 'sarif', '--per-workload');
    const sarif = JSON.parse(r.stdout) as {
      version: string;
      $schema: string;
      runs: { tool: { driver: { name: string; rules: { id: string; shortDescription: { text: string } }[] } }; results: Record<string, unknown>[] }[];
    };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.$schema).toMatch(/sarif-2\.1\.0/);
    expect(sarif.runs).toHaveLength(1);
    const run = sarif.runs[0]!;
    expect(run.tool.driver.name).toMatch(/\S/);
    const ids = run.tool.driver.rules.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(run.results.length).toBeGreaterThan(40);
    for (const res of run.results as {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[];
    }[]) {
      expect(ids[res.ruleIndex]).toBe(res.ruleId);
      expect(['error', 'warning', 'note']).toContain(res.level);
      expect(res.message.text).toMatch(/\S/);
      expect(res.locations.length).toBeGreaterThan(0);
      const pl = res.locations[0]!.physicalLocation;
      expect(pl.artifactLocation.uri, res.ruleId).toMatch(/^(file:\/\/\/|[^/:]+\/).*c\d+[-\w]*\.yaml$/);
      expect(Number.isInteger(pl.region.startLine) && pl.region.startLine >= 1).toBe(true);
      expect(pl.region.startColumn).toBeGreaterThanOrEqual(1);
    }
  });

  it('text --per-workload: one block per workload, each finding with message, file:line:col and fix', async () => {
    const r = await auditCli(...all, '--no-color', '--per-workload');
    const json = JSON.parse((await auditCli(...all, '--output', 'json', '--per-workload')).stdout) as Finding[];
    const blocks = r.stdout.trimEnd().split('\n\n');
    const summary = blocks.pop()!;
    expect(summary).toMatch(new RegExp(`^${json.length} findings in \\d+ workloads: \\d+ error, \\d+ warning, \\d+ info\\.$`));
    const headers = blocks.map((b) => b.split('\n')[0]!);
    expect(new Set(headers).size).toBe(headers.length);
    expect(headers).toEqual([...new Set(json.map((f) => f.workload))]);
    for (const b of blocks) {
      const lines = b.split('\n').slice(1);
      expect(lines.length % 4).toBe(0);
      for (let i = 0; i < lines.length; i += 4) {
        expect(lines[i]).toMatch(/^  (error|warning|info) +[a-z-]+( \[[\w-]+\])?$/);
        expect(lines[i + 1]).toMatch(/^ {10}\S/);
        expect(lines[i + 2]).toMatch(/^ {10}at \S+\.yaml:\d+:\d+( \(.+\))?$/);
        expect(lines[i + 3]).toMatch(/^ {10}fix \S/);
      }
    }
    expect(r.stdout).not.toContain('\x1b[');
  });
});

describe('audit corpus: one finding per cause', () => {
  // a dump whose injector values cause the same findings in two workloads
  const dump = join(corpus, 'c01-dump-injector-values-lifecycle.yaml');
  const shared = `${dump}:26:13`;

  it('JSON: one row for the cause, affecting both workloads, each with where it is', async () => {
    const rows = JSON.parse((await auditCli('-f', dump, '-o', 'json')).stdout) as { rule: string; location: string; affects: number; workloads: { workload: string; location: string }[] }[];
    expect(rows.map((x) => [x.rule, x.location, x.affects])).toEqual([['hold-dropped-by-lifecycle', shared, 2]]);
    expect(rows[0]!.workloads.map((w) => w.workload)).toEqual(['Deployment/shop/cart', 'StatefulSet/shop/redis']);
    for (const w of rows[0]!.workloads) expect(w.location).toMatch(new RegExp(`^${dump.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:1$`));
  });

  it('SARIF: one result at the cause, the workloads as related locations', async () => {
    const sarif = JSON.parse((await auditCli('-f', dump, '-o', 'sarif')).stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[]; relatedLocations: { id: number; physicalLocation: { region: { startLine: number } } }[]; message: { text: string } }[] }[] };
    const results = sarif.runs[0]!.results;
    expect(results).toHaveLength(1);
    expect(results[0]!.locations[0]!.physicalLocation.region.startLine).toBe(26);
    expect(results[0]!.relatedLocations.map((l) => [l.id, l.physicalLocation.region.startLine])).toEqual([[0, 37], [1, 65]]);
    expect(results[0]!.message.text).toMatch(/Affects 2 workloads: Deployment\/shop\/cart, StatefulSet\/shop\/redis\.$/);
  });

  it('text: a block for the workloads a cause affects; info hidden unless asked for', async () => {
    const r = await auditCli('-f', dump, '-f', join(corpus, 'c05-pods-payments.yaml'), '--no-color');
    const blocks = r.stdout.trimEnd().split('\n\n');
    expect(blocks[0]!.split('\n')[0]).toBe('affects 2 workloads: Deployment/shop/cart, StatefulSet/shop/redis');
    expect(blocks[0]).toContain(`at ${shared}`);
    expect(blocks.pop()).toBe('5 findings in 6 workloads (one per cause: 6 workload findings, 5 workloads affected): 5 error, 0 warning, 0 info; 1 info finding not shown (--info shows it).');
    expect(r.stdout).not.toContain('hook-option-ignored');
    expect((await auditCli('-f', dump, '-f', join(corpus, 'c05-pods-payments.yaml'), '--info')).stdout).toContain('hook-option-ignored');
  });
});
