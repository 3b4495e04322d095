// The playground's engine side in Node: the starting points tell the seed stories, the page's states give
// the pods the golden files hold, errors point at their pane and line, and a link's state comes back
// as it went in (and a hostile one is refused).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runPlayground, placeOf, setLines, injectorKind, setupOptions, shown, MAX_SHOWN_CHARS } from '../../src/playground/run.js';
import { renderRequest } from '../../src/output/render.js';
import { presets } from '../../src/playground/presets.js';
import { decodeState, defaultState, emptySetup, encodeState, stateOf, MAX_STATE_BYTES } from '../../src/playground/state.js';

const read = (f: string) => readFileSync(f, 'utf8');
const byId = new Map(presets(read).map((p) => [p.id, p]));
const run = (id: string) => runPlayground(byId.get(id)!.state);
const rules = (id: string) => run(id).findings.map((f) => `${f.severity} ${f.rule}`);

describe('the seed stories as starting points', () => {
  it('1.7: a custom lifecycle drops the hold; setup B brings the wait back', () => {
    const r = run('lifecycle-drops-hold');
    expect(r.workloads[0]!.order).toEqual(['init:istio-init', 'istio-proxy', 'reviews']);
    expect(r.merged).not.toMatch(/- pilot-agent\n\s+- wait/);
    expect(rules('lifecycle-drops-hold')).toEqual(['error hold-dropped-by-lifecycle']);
    expect(r.findings[0]!.at).toEqual({ pane: 'values', side: 'a', line: 24, col: 7 });
    expect(r.diff!.lifecycle).toEqual([{ workload: 'Deployment bookinfo/reviews', aspect: 'postStart', from: 'none', to: 'exec: pilot-agent wait' }]);
    expect(r.diff!.text).toContain('- finding (gone) error hold-dropped-by-lifecycle');
  });

  it('1.5: the preStop loop that waits for pilot-agent never ends', () => {
    const r = run('prestop-never-ends');
    expect(rules('prestop-never-ends')).toContain('error prestop-never-exits');
    expect(r.timelines[0]!.summary.join(' ')).toContain('istio-proxy killed at 47s (grace period 45s)');
    expect(r.timelines[0]!.svg).toMatch(/^<svg/);
    expect(r.diff!.text).toContain('- finding (gone) error prestop-never-exits');
  });

  it('1.8: hold from the mesh config for all, from the annotation for one', () => {
    const r = run('hold-mesh-annotation');
    expect(r.workloads.map((w) => [w.label, w.hold])).toEqual([['Deployment bookinfo/reviews', true], ['Deployment test/nginx', true]]);
    expect(r.findings).toEqual([]);
    expect(r.diff!.lifecycle.map((l) => `${l.workload} ${l.aspect}: ${l.from} -> ${l.to}`)).toEqual([
      'Deployment bookinfo/reviews proxy order: container 1 of 2 -> container 2 of 2',
      'Deployment bookinfo/reviews postStart: exec: pilot-agent wait -> none',
      'Deployment bookinfo/reviews hold application until proxy starts: yes -> no',
    ]);
    expect(r.diff!.text).toContain('Deployment test/nginx: unchanged');
  });

  it('native sidecars: the Job completes', () => {
    const r = run('native-sidecar-job');
    expect(r.workloads[0]).toMatchObject({ native: true, order: ['init:istio-init', 'init:istio-proxy', 'busybox'] });
    expect(r.timelines[0]!.summary).toContain('Completion: the pod completes when the work is done.');
  });

  it('hold puts the proxy first with a postStart wait', () => {
    const r = run('proxy-first-wait');
    expect(r.workloads[0]!.order).toEqual(['init:istio-init', 'istio-proxy', 'reviews']);
    expect(r.merged).toMatch(/postStart:\n\s+exec:\n\s+command:\n\s+- pilot-agent\n\s+- wait/);
    expect(r.timelines[0]!.summary[0]).toBe('First traffic: reviews starts after the proxy is ready.');
  });

  it('template mode renders a Go template with Sprig', () => {
    expect(run('go-template').templateOutput).toBe('\n- "A"\n- "B"\n');
  });
});

describe('the page renders what the command line renders', () => {
  // the cases of test/golden/seeds/matrix.yaml, as the page's panes hold them (with the release each names)
  const seeds = 'test/golden/seeds/';
  const cases: [string, Partial<ReturnType<typeof defaultState>>][] = [
    ['hold-1.8-mesh-merged', { a: { ...emptySetup(), injector: read('templates/hold-1.8.tmpl'), values: read('values/defaults.json'), mesh: read('values/mesh-hold.yaml'), istioVersion: '1.8' } }],
    ['native-sidecar-job-merged', { a: { ...emptySetup(), injector: read('templates/native-sidecar.tmpl'), values: read('values/defaults.json'), istioVersion: '1.28' }, workloads: read(`${seeds}workloads/job.yaml`), kubeVersion: '1.33' }],
  ];
  for (const [name, s] of cases) {
    it(name, () => {
      const r = runPlayground({ ...defaultState(), workloads: read(`${seeds}workloads/deployment.yaml`), ...s });
      expect(r.error).toBeUndefined();
      expect(r.merged).toBe(read(`${seeds}golden/${name}.yaml`));
    });
  }
  it('values merged from the values pane and --set lines as the golden matrix merges its files', () => {
    const lifecycle = JSON.parse(read('values/lifecycle-drain.json'));
    const defaults = JSON.parse(read('values/defaults.json'));
    defaults.global.proxy.lifecycle = lifecycle.global.proxy.lifecycle;
    const full = runPlayground({
      ...defaultState(),
      a: { ...emptySetup(), injector: read('templates/hold-1.7.tmpl'), values: JSON.stringify(defaults), set: 'global.proxy.holdApplicationUntilProxyStarts=true', istioVersion: '1.7' },
      workloads: read(`${seeds}workloads/deployment.yaml`),
    });
    expect(full.merged).toBe(read(`${seeds}golden/hold-1.7-lifecycle-bug-merged.yaml`));
  });
});

describe('the template output is what render prints', () => {
  for (const p of presets(read).filter((x) => x.state.mode === 'inject')) {
    it(p.id, () => {
      const a = setupOptions(p.state.a, 'a', p.state);
      expect(runPlayground(p.state).templateOutput).toBe(renderRequest({ ...a, filename: { name: 'workloads.yaml', text: p.state.workloads } }).text);
    });
  }
});

describe('errors point at their pane and line', () => {
  it('a template that does not parse, inside a ConfigMap', () => {
    const cm = read('examples/istio-sidecar-injector.yaml').replace('{{ toYaml .Values.global.proxy.lifecycle', '{{ toYaml (.Values.global.proxy.lifecycle');
    const r = runPlayground({ ...defaultState(), a: { ...emptySetup(), injector: cm }, workloads: read('examples/deployment.yaml') });
    expect(r.error!.message).toMatch(/^injector\.yaml:81:\d+: template: .*unclosed left paren/);
    expect(r.error!.at).toMatchObject({ pane: 'injector', side: 'a', line: 81 });
  });
  it('bad YAML in a workload, and in setup B', () => {
    const r = runPlayground({ ...defaultState(), a: { ...emptySetup(), injector: read('templates/hold-1.8.tmpl'), values: read('values/defaults.json') }, workloads: 'kind: Pod\nmetadata: [\n' });
    expect(r.error!.at).toMatchObject({ pane: 'workloads', side: 'a' });
    expect(placeOf('b/mesh.yaml:3:4: bad')).toEqual({ pane: 'mesh', side: 'b', line: 3, col: 4 });
    expect(placeOf('--set global.x: cannot', { a: 'a=1\nglobal.x=[\n' })).toEqual({ pane: 'set', side: 'a', line: 2, col: 1 });
  });
  it('template mode: a parse error at its line; a function of another set named', () => {
    const s = { ...defaultState(), mode: 'template' as const };
    const r = runPlayground({ ...s, template: { ...s.template, text: 'a\n{{ if }}', funcs: 'builtin' } });
    expect(r.error!.at).toEqual({ pane: 'template', side: 'a', line: 2, col: expect.any(Number) });
    const f = runPlayground({ ...s, template: { ...s.template, text: '{{ "x" | upper }}', funcs: 'builtin' } });
    expect(f.error!.message).toContain('(it is in the sprig set)');
  });
  it('a template that never ends is stopped by the time limit', () => {
    const s = { ...defaultState(), mode: 'template' as const, timeLimit: 1 };
    const r = runPlayground({ ...s, template: { ...s.template, text: '{{ range until 1000000 }}{{ range until 1000000 }}{{ end }}{{ end }}' } });
    expect(r.error!.message).toMatch(/time|timeout/i);
    expect(r.ms).toBeLessThan(5000);
  });
  it('sends the page at most 1 MiB of an output, and says how much is left out', () => {
    const s = { ...defaultState(), mode: 'template' as const };
    const r = runPlayground({ ...s, template: { ...s.template, text: '{{ range until 300000 }}0123456789\n{{ end }}' } });
    expect(r.error).toBeUndefined();
    expect(r.templateOutput.length).toBeLessThan(MAX_SHOWN_CHARS + 200);
    expect(r.templateOutput).toMatch(/^0123456789\n[\s\S]*0123456789\n… 2,251,425 more characters not shown \(the page shows the first 1 MiB of an output\)\n$/);
    expect(shown('short')).toBe('short');
  });
  it('reads the panes as the flags', () => {
    expect(setLines('a=1\n# no\n--set b=2\n--set-string c=3\n\n')).toEqual({ set: ['a=1', 'b=2'], setString: ['c=3'] });
    expect(['', 'kind: ConfigMap\n', 'policy: enabled\ntemplates:\n', 'containers:\n- name: x'].map(injectorKind)).toEqual(['none', 'configmap', 'config', 'template']);
  });
});

describe('the link', () => {
  it('gives the state back, and stays short', async () => {
    const s = byId.get('lifecycle-drops-hold')!.state;
    const f = await encodeState(s);
    expect(f).toMatch(/^s=[A-Za-z0-9_-]+$/);
    expect(await decodeState(`#${f}`)).toEqual(stateOf(JSON.parse(JSON.stringify(s))));
    expect(f.length).toBeLessThan(JSON.stringify(s).length / 2);
  });
  it('refuses what is not a state, and reads only what it knows', async () => {
    await expect(decodeState('#x=1')).rejects.toThrow('holds no playground state');
    await expect(decodeState('#s=%%%')).rejects.toThrow('base64url');
    await expect(decodeState('#s=AAAA')).rejects.toThrow("cannot be read");
    const odd = stateOf({ mode: 'evil', a: { injector: 7, values: 'v: 1' }, timeLimit: 1e9, tab: '__proto__', template: { funcs: 'exec' } });
    expect(odd).toMatchObject({ mode: 'inject', a: { injector: '', values: 'v: 1' }, timeLimit: 60, tab: 'merged', template: { funcs: 'sprig' } });
  });
  it('refuses a state that inflates past the bound', async () => {
    const big = { ...defaultState(), workloads: 'x'.repeat(MAX_STATE_BYTES + 10) };
    await expect(decodeState(await encodeState(big))).rejects.toThrow('larger than 4 MiB');
  });
});

describe('a cluster-sized input', () => {
  it('draws the timelines of the first workloads only, and counts the others', () => {
    const one = read('examples/job.yaml').trimEnd();
    const many = Array.from({ length: 30 }, (_, i) => one.replace('name: native-sidecar-test', `name: job-${i}`)).join('\n---\n');
    const p = byId.get('native-sidecar-job')!;
    const r = runPlayground({ ...p.state, workloads: many });
    expect(r.workloads).toHaveLength(30);
    expect(r.timelines.map((t) => t.workload)).toEqual(Array.from({ length: 25 }, (_, i) => `Job/default/job-${i}`));
    expect(r.timelinesLeftOut).toBe(5);
  });
});
