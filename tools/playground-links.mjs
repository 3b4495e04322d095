// The README's links to the playground's seed stories: one Markdown list item per starting point of
// src/playground/presets.ts, the state in the fragment. Run after `npx tsc -p .` when a preset or a file
// it reads changes, and paste the lines into README.md; test/playground/browser.test.ts opens each
// link in the page and fails while a link's state is not its preset's.
//
//   node tools/playground-links.mjs [--all]     (the seed stories, or every starting point)

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { presets } = await import(pathToFileURL(join(root, 'dist/playground/presets.js')).href);
const { encodeState } = await import(pathToFileURL(join(root, 'dist/playground/state.js')).href);

const all = presets((p) => readFileSync(join(root, p), 'utf8'));
const chosen = process.argv.includes('--all') ? all : all.slice(0, 5);
for (const p of chosen) console.log(`- [${p.title}](playground/index.html#${await encodeState(p.state)}): ${p.story}`);
