// The playground page's weight and speed (bench/run.js --only=playground, or alone:
// `node bench/lib/playground.js [RUNS]`): it builds the page into a temporary folder, reads the size of
// each file and its gzip, serves it on 127.0.0.1 and opens the README's first seed link RUNS times in
// fresh headless Chromium contexts, reading the time from navigation to the first result on the page
// (the merged pod; the audit and the diff follow) and to the whole result. Needs Debian's chromium
// (or SIDECAR_RENDER_CHROMIUM) and playwright-core.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function chromiumPath() {
  const given = process.env.SIDECAR_RENDER_CHROMIUM;
  return given ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** { files: {name: {bytes, gzip}}, total, firstRenderMs: [...], fullRenderMs: [...], median: {first, full} } */
export async function measurePlayground({ runs = 5 } = {}) {
  const exe = chromiumPath();
  if (!exe) throw new Error('needs Chromium (apt-get install chromium, or SIDECAR_RENDER_CHROMIUM)');
  const out = mkdtempSync(join(tmpdir(), 'playground-bench-'));
  try {
    const b = spawnSync(process.execPath, [join(root, 'playground', 'build.mjs'), join(out, 'playground')], { encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`playground build failed: ${b.stderr}`);
    const size = JSON.parse(readFileSync(join(out, 'playground', 'size.json'), 'utf8'));
    const link = /\]\((playground\/index\.html#s=[A-Za-z0-9_-]+)\)/.exec(readFileSync(join(root, 'README.md'), 'utf8'))?.[1];
    if (!link) throw new Error('README.md links no seed story');
    const { serve } = await import('../../playground/serve.mjs');
    const { chromium } = await import('playwright-core');
    const { server, port } = await serve(out, 0);
    const browser = await chromium.launch({ executablePath: exe, args: ARGS });
    const first = [];
    const full = [];
    try {
      for (let i = 0; i < runs; i++) {
        const ctx = await browser.newContext();
        const page = await ctx.newPage();
        await page.goto(`http://127.0.0.1:${port}/${link}`);
        await page.waitForFunction(() => document.body.dataset.renders, null, { timeout: 60_000 });
        const t = await page.evaluate(() => ({ first: Number(document.body.dataset.firstRenderMs), full: Number(document.body.dataset.fullRenderMs) }));
        first.push(t.first);
        full.push(t.full);
        await ctx.close();
      }
    } finally {
      await browser.close();
      server.close();
    }
    return { ...size, firstRenderMs: first, fullRenderMs: full, median: { first: median(first), full: median(full) } };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** One line for the report. */
export function playgroundLine(r) {
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  const files = Object.entries(r.files).map(([f, s]) => `${f} ${kib(s.gzip)}`).join(', ');
  return `playground: ${kib(r.total.bytes)} (${kib(r.total.gzip)} gzip: ${files}); first render ${r.median.first} ms, complete ${r.median.full} ms after navigation (median of ${r.firstRenderMs.length}: ${r.firstRenderMs.join(', ')} / ${r.fullRenderMs.join(', ')})`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(playgroundLine(await measurePlayground({ runs: Number(process.argv[2] ?? 5) })));
}
