// A minimal streamed `render` (for the memory case only): the items of a block-style `kind: List` are
// cut out of the text one at a time and each is parsed, rendered and written before the next, so
// neither the parsed input nor the output of all workloads is held at once. The CLI streams too
// (src/output/render.ts); this is the floor its peak RSS is held against.
//
//   node bench/lib/stream-render.js INJECTOR_CONFIGMAP MESH LIST.yaml > out

import { readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = process.env.SIDECAR_RENDER_DIST ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const { Renderer } = await import(pathToFileURL(join(dist, 'istio', 'inject.js')).href);
const { renderInputs } = await import(pathToFileURL(join(dist, 'inputs', 'resolve.js')).href);
const { workloadsFromText } = await import(pathToFileURL(join(dist, 'istio', 'workload.js')).href);

/** The item texts of a top-level `items:` block sequence, dedented, with their first line numbers. */
function* listItems(text) {
  let at = text.indexOf('\nitems:\n');
  if (at < 0) throw new Error('not a block-style List');
  let line = text.slice(0, at + 1).split('\n').length + 1;
  at += '\nitems:\n'.length;
  let item = null;
  let dash = -1;
  while (at < text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const l = text.slice(at, nl);
    const m = /^(\s*)- /.exec(l);
    if (m && (dash < 0 || m[1].length === dash)) {
      if (item) yield item;
      dash = m[1].length;
      item = { line, lines: [l.slice(dash + 2)] };
    } else if (item) {
      item.lines.push(l.slice(dash + 2));
    }
    at = nl + 1;
    line++;
  }
  if (item) yield item;
}

const [configMap, mesh, file] = process.argv.slice(2);
const req = { injectorConfigMap: configMap, mesh, workloads: file };
const renderer = new Renderer(renderInputs(req), req);
const text = readFileSync(file, 'utf8');
let first = true;
for (const it of listItems(text)) {
  for (const w of workloadsFromText(it.lines.join('\n'), `${file}:${it.line}`)) {
    const r = renderer.renderWorkload(w, false);
    if (r.error !== undefined) {
      process.stderr.write(`error: ${r.label}: ${r.error}\n`);
      continue;
    }
    if (!r.decision.inject) continue;
    writeSync(1, `${first ? '' : '---\n'}# Source: ${r.label}\n${r.outputs.join('\n---\n')}`);
    first = false;
  }
}
