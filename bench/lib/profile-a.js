// Case (a) of bench/run.js alone, in a loop, for `node --cpu-prof bench/lib/profile-a.js [SECONDS]`.
// `bench/lib/profile-a.js SECONDS forced-gc` runs a forced full collection (gc() of --expose-gc) first,
// before the template and its data are built: every render after it is slower (bench/README.md).
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.SIDECAR_RENDER_DIST ?? join(here, '..', '..', 'dist');
const imp = (p) => import(pathToFileURL(join(dist, p)).href);
const { Template } = await imp('go/text/template/template.js');
const { sliceOf } = await imp('go/reflect/value.js');
const { funcSet } = await imp('funcs/index.js');
const { decodeGo, plainToGo } = await imp('go/encoding/json/structs.js');
const { ObjectMeta } = await imp('k8s/meta.js');
const { Container } = await imp('k8s/core.js');

if (process.argv[3] === 'forced-gc') {
  setFlagsFromString('--expose-gc');
  runInNewContext('gc')();
}

const text = readFileSync(join(here, '..', 'templates', 'injection.tmpl'), 'utf8');
const json = JSON.parse(readFileSync(join(here, '..', 'data', 'injection.json'), 'utf8'));
const data = plainToGo(json);
data.ObjectMeta = decodeGo(ObjectMeta, json.ObjectMeta);
data.Containers = decodeGo(sliceOf(Container), json.Containers);
const t = new Template('inject').funcs(funcSet('istio')).parse(text);

const seconds = Number(process.argv[2] ?? 3);
let n = 0;
const start = performance.now();
let best = Infinity;
while (performance.now() - start < seconds * 1000) {
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++) t.execute(data);
  best = Math.min(best, (performance.now() - t0) / 1000);
  n += 1000;
}
console.log(`${n} renders, best batch ${(best * 1000).toFixed(1)} µs/render, mean ${(((performance.now() - start) * 1000) / n).toFixed(1)} µs`);
