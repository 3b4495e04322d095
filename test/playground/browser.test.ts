// The playground in a real browser: the page built as `npm run playground:build` builds it, served on
// 127.0.0.1, driven in Debian's chromium by playwright-core. A ConfigMap and a workload are pasted and
// the merged pod and the findings read from the page (and compared with the library's in Node); the
// shared link gives the same result in a fresh page; a template that never ends is stopped with a
// message; errors and findings point at their lines; the README's seed links each open their story.
// Nothing but the page's own server is ever asked for anything.
//
// UPDATE_SCREENSHOTS=1 writes the screenshots the README shows (docs/playground/*.png); otherwise
// they are taken into a temporary folder.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromium as chromiumPath } from '../helpers/browser.js';
import { presets } from '../../src/playground/presets.js';
import { runPlayground } from '../../src/playground/run.js';
import { decodeState, defaultState, emptySetup, encodeState, stateOf } from '../../src/playground/state.js';
// @ts-expect-error: a plain ES module of the page's tooling, without types
import { serve } from '../../playground/serve.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (f: string) => readFileSync(join(root, f), 'utf8');
const exe = chromiumPath();
const shots = process.env['UPDATE_SCREENSHOTS'] === '1' ? join(root, 'docs', 'playground') : mkdtempSync(join(tmpdir(), 'playground-shots-'));

/** Bounds the page must stay within (gzip of everything it loads; the first render on a cold page). */
const MAX_GZIP_KIB = 520;

describe.skipIf(!exe)('the playground in Chromium', { timeout: 90_000 }, () => {
  let out: string;
  let server: { close(): void };
  let base: string;
  let browser: Browser;
  const requests: string[] = [];

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'playground-'));
    const b = spawnSync(process.execPath, [join(root, 'playground', 'build.mjs'), join(out, 'playground')], { encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`playground build failed:\n${b.stderr}`);
    const s = (await serve(out, 0)) as { server: { close(): void }; port: number };
    server = s.server;
    base = `http://127.0.0.1:${s.port}/playground/`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: exe!, args: CHROMIUM_ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  /** A fresh page (its own context: no storage shared with another), every request it makes noted. */
  async function open(url: string): Promise<Page> {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await ctx.newPage();
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => requests.push(`pageerror: ${e.message}`));
    await page.goto(url);
    await settled(page);
    return page;
  }

  /** Wait until the page has rendered its inputs as they now are (no edit waiting, no render running). */
  async function settled(page: Page, after = 0): Promise<void> {
    for (let i = 0; i < 3; i++) {
      await page.waitForFunction((n) => Number(document.body.dataset['renders'] ?? 0) > n && !document.querySelector('#status')!.classList.contains('busy'), after, { timeout: 30_000 });
      await page.waitForTimeout(400);
      if (!(await page.locator('#status.busy').count())) return;
    }
  }

  const renders = async (page: Page) => Number(await page.evaluate(() => document.body.dataset['renders'] ?? 0));

  /** Paste text into a pane as a person does: click, select all, paste (an empty text deletes). */
  async function paste(page: Page, pane: string, text: string): Promise<void> {
    const content = page.locator(`.pane[data-pane="${pane}"] .cm-content`);
    // its first line: a long line makes the content wider than its pane
    await content.click({ position: { x: 24, y: 8 } });
    await page.keyboard.press('Control+A');
    if (text === '') {
      await page.keyboard.press('Delete');
      return;
    }
    await content.evaluate((el, t) => {
      const data = new DataTransfer();
      data.setData('text/plain', t);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
  }

  const text = (page: Page, sel: string) => page.locator(sel).evaluate((e) => e.textContent ?? '');
  const rules = (page: Page) => page.locator('#out-findings li.finding').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset['rule']));
  const tab = (page: Page, name: string) => page.click(`[data-tab="${name}"]`);

  it('builds small enough, and renders its first case fast', async () => {
    const size = JSON.parse(readFileSync(join(out, 'playground', 'size.json'), 'utf8')) as { total: { gzip: number } };
    expect(size.total.gzip / 1024).toBeLessThan(MAX_GZIP_KIB);
    const page = await open(base);
    const ms = Number(await page.evaluate(() => document.body.dataset['firstRenderMs']));
    console.log(`playground: ${(size.total.gzip / 1024).toFixed(0)} KiB gzip, first render ${ms} ms after navigation`);
    expect(ms).toBeGreaterThan(0);
    await page.context().close();
  });

  it('renders a pasted ConfigMap and workload: the merged pod and the findings as the library gives them', async () => {
    const page = await open(base);
    const before = await renders(page);
    const inputs = { injector: read('examples/istio-sidecar-injector.yaml'), values: '', set: '', mesh: read('examples/istio-mesh.yaml'), workloads: read('examples/deployment.yaml') };
    if (await page.locator('#drop-b').isVisible()) await page.click('#drop-b');
    for (const [pane, t] of Object.entries(inputs)) await paste(page, pane, t);
    // the first starting point names Istio 1.7; the pasted ConfigMap's release is detected
    await page.selectOption('#istio-version', '');
    await settled(page, before);
    await tab(page, 'merged');
    const merged = await text(page, '#out-merged');
    const node = runPlayground({ ...defaultState(), a: { ...emptySetup(), injector: inputs.injector, mesh: inputs.mesh }, workloads: inputs.workloads });
    expect(merged).toBe(node.merged);
    expect(merged).toContain('name: istio-proxy');
    expect(await text(page, '#order')).toContain('start order init:istio-init → istio-proxy → reviews');
    await tab(page, 'findings');
    expect(await rules(page)).toEqual(node.findings.map((f) => f.rule));
    expect(await rules(page)).toEqual(['hold-not-enforced']);

    // the link, in a fresh page: the same pod and findings
    const link = page.url();
    expect(link).toMatch(/#s=[A-Za-z0-9_-]+$/);
    const again = await open(link);
    await tab(again, 'merged');
    expect(await text(again, '#out-merged')).toBe(merged);
    await tab(again, 'findings');
    expect(await rules(again)).toEqual(['hold-not-enforced']);
    await page.context().close();
    await again.context().close();
  });

  it('shows an error at its line, and a finding opens the line it names', async () => {
    const page = await open(base);
    // the first starting point: the 1.7 lifecycle bug, its finding in the values
    await tab(page, 'findings');
    await page.locator('#out-findings li[data-rule="hold-dropped-by-lifecycle"] button.loc').click();
    const values = page.locator('.pane[data-pane="values"]');
    await expect.poll(() => values.locator('.cm-activeLineGutter').first().textContent()).toBe('24');
    expect(await values.locator('.cm-focused').count()).toBe(1);
    expect(await values.locator('.cm-lint-marker-error, .cm-lint-marker-warning').count()).toBeGreaterThan(0);

    const before = await renders(page);
    await paste(page, 'workloads', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: [\n');
    await settled(page, before);
    const problem = await text(page, '#problem');
    expect(problem).toMatch(/^workloads\.yaml:\d+:\d+: /);
    expect(await page.locator('.pane[data-pane="workloads"] .cm-lint-marker-error').count()).toBe(1);
    await page.context().close();
  });

  it('takes dropped files: each to the pane its text belongs in', async () => {
    const page = await open(base);
    const before = await renders(page);
    const dropped = [
      { name: 'injector.yaml', text: read('examples/istio-sidecar-injector.yaml') },
      { name: 'mesh.yaml', text: read('examples/istio-mesh.yaml') },
      { name: 'job.yaml', text: read('examples/job.yaml') },
    ];
    await page.locator('#outputs').evaluate((target, list) => {
      const data = new DataTransfer();
      for (const f of list) data.items.add(new File([f.text], f.name, { type: 'text/yaml' }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, dropped);
    await settled(page, before);
    expect(await text(page, '#status')).toContain('finding');
    const pane = (name: string) => page.locator(`.pane[data-pane="${name}"] .cm-content`).evaluate((e) => e.textContent ?? '');
    expect(await pane('injector')).toContain('istio-sidecar-injector');
    expect(await pane('mesh')).toContain('defaultConfig');
    expect(await pane('workloads')).toContain('native-sidecar-test');
    expect(await text(page, '#order')).toContain('Job default/native-sidecar-test');
    await page.context().close();
  });

  it('stops a template that never ends, with a message, and renders again after', async () => {
    const page = await open(base);
    await page.click('#mode-template');
    await settled(page);
    // a long render whose inputs change again is ended, not waited for (the time limit is 10 s)
    const first = await renders(page);
    const t1 = Date.now();
    await paste(page, 'template', '{{ range $i := until 1000000 }}{{ range $j := until 1000000 }}{{ end }}{{ end }}');
    await page.waitForTimeout(2500);
    await paste(page, 'template', '{{ "quick" }}');
    await settled(page, first);
    expect(await text(page, '#out-template')).toBe('quick');
    expect(Date.now() - t1).toBeLessThan(9_000);
    await page.fill('#time-limit-t', '2');
    await page.dispatchEvent('#time-limit-t', 'change');
    const before = await renders(page);
    const t0 = Date.now();
    await paste(page, 'template', '{{ range $i := until 1000000 }}{{ range $j := until 1000000 }}{{ end }}{{ end }}');
    await settled(page, before);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(await text(page, '#problem')).toMatch(/time|stopped/i);
    const next = await renders(page);
    await paste(page, 'template', '{{ "still here" | upper }}');
    await settled(page, next);
    expect(await page.locator('#problem').isHidden()).toBe(true);
    await tab(page, 'template');
    expect(await text(page, '#out-template')).toBe('STILL HERE');
    // an output of 11 MB: the page is sent its first 1 MiB, and told how much more there is
    const big = await renders(page);
    await paste(page, 'template', '{{ range until 1000 }}{{ range until 1000 }}0123456789{{ "\\n" }}{{ end }}{{ end }}');
    await settled(page, big);
    const shownText = await text(page, '#out-template');
    expect(shownText.length).toBeLessThan(1.1 * 2 ** 20);
    expect(shownText).toMatch(/\n… 9,951,425 more characters not shown \(the page shows the first 1 MiB of an output\)\n$/);
    await page.context().close();
  });

  it('ends a worker that does not answer within the time limit, says so, and renders again with a fresh one', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // a worker that never answers: the page's own guard, not the engine's time limit, must stop it
    await ctx.route('**/playground/worker.js', (route) => route.fulfill({ contentType: 'text/javascript', body: 'self.onmessage = () => { for (;;) {} };' }));
    const page = await ctx.newPage();
    const d = defaultState();
    const link = `${base}#${await encodeState({ ...d, mode: 'template', timeLimit: 1, tab: 'template', template: { ...d.template, text: 'never answered' } })}`;
    const t0 = Date.now();
    await page.goto(link);
    await page.waitForFunction(() => document.querySelector('#problem')?.textContent?.startsWith('stopped'), null, { timeout: 20_000 });
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(await text(page, '#problem')).toContain('stopped: the render did not finish within the time limit of 1 s, so its worker was ended');
    await ctx.unroute('**/playground/worker.js');
    const before = await renders(page);
    await paste(page, 'template', '{{ "fresh" | upper }}');
    await settled(page, before);
    expect(await page.locator('#problem').isHidden()).toBe(true);
    expect(await text(page, '#out-template')).toBe('FRESH');
    await ctx.close();
  });

  // the README's links to the seed stories: each is its preset's state, and opens to its story
  const links = [...read('README.md').matchAll(/\]\((playground\/index\.html#s=[A-Za-z0-9_-]+)\)/g)].map((m) => m[1]!);
  const seeds = presets(read).slice(0, 5);
  const expected: Record<string, (page: Page) => Promise<void>> = {
    'lifecycle-drops-hold': async (page) => {
      await tab(page, 'findings');
      expect(await rules(page)).toEqual(['hold-dropped-by-lifecycle']);
      expect(await text(page, '#order')).toContain('init:istio-init → istio-proxy → reviews; hold on');
      expect(await text(page, '#out-merged')).not.toMatch(/- pilot-agent\n\s+- wait/);
      await tab(page, 'diff');
      expect(await text(page, 'table.lifecycle')).toContain('postStartnoneexec: pilot-agent wait');
    },
    'prestop-never-ends': async (page) => {
      await tab(page, 'findings');
      expect(await rules(page)).toContain('prestop-never-exits');
      await tab(page, 'timeline');
      expect(await text(page, '#out-timeline')).toContain('Shutdown: istio-proxy killed at 47s (grace period 45s).');
    },
    'hold-mesh-annotation': async (page) => {
      await tab(page, 'diff');
      const d = await text(page, '#out-diff');
      expect(d).toContain('Deployment bookinfo/reviewshold application until proxy startsyesno');
      expect(d).toContain('Deployment test/nginx: unchanged');
    },
    'native-sidecar-job': async (page) => {
      expect(await text(page, '#order')).toContain('start order init:istio-init → init:istio-proxy → busybox; hold off; native sidecar yes');
      await tab(page, 'timeline');
      expect(await text(page, '#out-timeline')).toContain('Completion: the pod completes when the work is done.');
    },
    'proxy-first-wait': async (page) => {
      expect(await text(page, '#order')).toContain('init:istio-init → istio-proxy → reviews; hold on');
      expect(await text(page, '#out-merged')).toMatch(/postStart:\n\s+exec:\n\s+command:\n\s+- pilot-agent\n\s+- wait/);
      await tab(page, 'findings');
      expect(await rules(page)).toEqual([]);
    },
  };
  const views: Record<string, string> = { 'lifecycle-drops-hold': 'findings', 'prestop-never-ends': 'timeline', 'hold-mesh-annotation': 'diff', 'native-sidecar-job': 'merged', 'proxy-first-wait': 'merged' };

  it('the README links each seed story, its state as its preset holds it', async () => {
    expect(links.length).toBe(seeds.length);
    for (const [i, p] of seeds.entries()) {
      const got = await decodeState(links[i]!.slice(links[i]!.indexOf('#')));
      // `node tools/playground-links.mjs` prints the links anew
      expect(got, `README link ${i + 1} is not the state of preset ${p.id}`).toEqual(stateOf(JSON.parse(JSON.stringify(p.state))));
    }
  });

  for (const [i, p] of seeds.entries()) {
    it(`the README's link to "${p.title}" reproduces it`, async () => {
      const page = await open(new URL(links[i] ?? 'playground/index.html', new URL('..', base)).href);
      expect(await page.locator('#problem').isHidden()).toBe(true);
      expect(await text(page, '#story')).toBe(`${p.title}: ${p.story}`);
      await expected[p.id]!(page);
      await tab(page, views[p.id]!);
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, `${p.id}.png`) });
      await page.context().close();
    });
  }

  it('template mode renders any Go template, and asked nothing of any server but its own', async () => {
    const page = await open(base);
    await page.selectOption('#preset', 'go-template');
    await settled(page);
    await tab(page, 'template');
    expect(await text(page, '#out-template')).toBe('\n- "A"\n- "B"\n');
    await page.screenshot({ path: join(shots, 'go-template.png') });
    await page.context().close();
    const foreign = requests.filter((u) => !u.startsWith(new URL('/', base).href) && !u.startsWith('data:'));
    expect(foreign).toEqual([]);
  });
});
