// Large injector values files, for the `values` case of bench/run.js and for measuring by hand: several
// shapes of about the same size, built at run time (never committed as data).
//
//   node bench/lib/bigvalues.js SHAPE [MB] > values.yaml
//   node bench/lib/bigvalues.js SHAPE MB CONFIGMAP > cm.yaml   the values as that ConfigMap's data.values
//
// Shapes:
//   maps          block maps, many keys (services, each a map of scalars and small maps)
//   lists         long block lists of small maps
//   flow          block keys whose values are one-line flow maps and lists
//   flowlines     one flow map over many lines (YAML, unquoted keys; what the fast reader declines)
//   scalars       long scalars: plain, double-quoted, and literal block scalars
//   json          the `maps` values as indented JSON (as a chart writes data.values)
//   syntaxerror   `maps` with a syntax error near the end
//   typeerror     `maps` with a value of the wrong type near the end (global.hub a number)
//
// Every shape starts with a few values the templates read (global.hub, global.tag), so a render uses them.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHAPES = ['maps', 'lists', 'flow', 'flowlines', 'scalars', 'json', 'syntaxerror', 'typeerror'];

const HEAD = 'global:\n  hub: docker.io/istio\n  tag: 1.24.0\n  proxy:\n    holdApplicationUntilProxyStarts: true\n';

/** Lines from `item(i)` until the text reaches `bytes`. */
function fill(head, bytes, item, tail = '') {
  const parts = [head];
  let n = head.length + tail.length;
  for (let i = 0; n < bytes; i++) {
    const s = item(i);
    parts.push(s);
    n += s.length;
  }
  parts.push(tail);
  return parts.join('');
}

const word = (i) => `w${(i * 2654435761) >>> 0}`;

function mapsItem(i) {
  return (
    `  svc-${i}:\n` +
    `    enabled: ${i % 3 !== 0}\n` +
    `    replicas: ${1 + (i % 5)}\n` +
    `    weight: ${(i % 10) / 4}\n` +
    `    image:\n      repository: registry.example.com/team-${i % 9}/svc-${i}\n      tag: "1.${i % 50}.0"\n      pullPolicy: ${i % 2 ? 'IfNotPresent' : 'Always'}\n` +
    `    labels:\n      app: svc-${i}\n      tier: ${i % 2 ? 'backend' : 'frontend'}\n      on-off: ${i % 4 ? 'on' : 'off'}\n` +
    `    resources:\n      requests:\n        cpu: ${(i % 8) * 50 + 50}m\n        memory: ${64 << i % 4}Mi\n      limits:\n        memory: 1Gi\n` +
    `    note: ${i % 6 ? word(i) : 'null'}\n`
  );
}

function listsItem(i) {
  return `  - name: item-${i}\n    port: ${8000 + (i % 1000)}\n    protocol: ${i % 2 ? 'TCP' : 'UDP'}\n    weight: ${(i % 7) / 2}\n    enabled: ${i % 3 === 0}\n    tags:\n      - ${word(i)}\n      - t${i % 13}\n`;
}

function flowItem(i) {
  return `  svc-${i}: {name: svc-${i}, port: ${8000 + (i % 1000)}, enabled: ${i % 2 === 0}, tags: [${word(i)}, t${i % 13}, "q ${i}"], limits: {cpu: ${i % 8}00m, memory: 1Gi}}\n`;
}

function flowLinesItem(i) {
  return `  svc-${i}: {name: svc-${i}, port: ${8000 + (i % 1000)}, enabled: ${i % 2 === 0}, tags: [${word(i)}, t${i % 13}]},\n`;
}

function scalarsItem(i) {
  const long = (n) => Array.from({ length: n }, (_, k) => word(i * 31 + k)).join(' ');
  switch (i % 3) {
    case 0:
      return `  plain-${i}: ${long(400)}\n`;
    case 1:
      return `  quoted-${i}: "${long(300)} \\t \\u00e9 end"\n`;
    default:
      return `  block-${i}: |\n${Array.from({ length: 40 }, (_, k) => `    line ${k} ${long(10)}\n`).join('')}`;
  }
}

/** The `maps` values as a plain object, for JSON. */
function mapsObject(bytes) {
  const services = {};
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const s = {
      enabled: i % 3 !== 0,
      replicas: 1 + (i % 5),
      weight: (i % 10) / 4,
      image: { repository: `registry.example.com/team-${i % 9}/svc-${i}`, tag: `1.${i % 50}.0`, pullPolicy: i % 2 ? 'IfNotPresent' : 'Always' },
      labels: { app: `svc-${i}`, tier: i % 2 ? 'backend' : 'frontend', 'on-off': i % 4 ? 'on' : 'off' },
      resources: { requests: { cpu: `${(i % 8) * 50 + 50}m`, memory: `${64 << i % 4}Mi` }, limits: { memory: '1Gi' } },
      note: i % 6 ? word(i) : null,
    };
    services[`svc-${i}`] = s;
    n += 560; // about what one service takes, indented
  }
  return { global: { hub: 'docker.io/istio', tag: '1.24.0', proxy: { holdApplicationUntilProxyStarts: true } }, services };
}

/** Values text of a shape, about `bytes` long. */
export function bigValues(shape, bytes = 50e6) {
  switch (shape) {
    case 'maps':
      return fill(`${HEAD}services:\n`, bytes, mapsItem);
    case 'lists':
      return fill(`${HEAD}items:\n`, bytes, listsItem);
    case 'flow':
      return fill(`${HEAD}services:\n`, bytes, flowItem);
    case 'flowlines':
      return fill(`${HEAD}services: {\n`, bytes, flowLinesItem, '  last: {}\n}\n');
    case 'scalars':
      return fill(`${HEAD}texts:\n`, bytes, scalarsItem);
    case 'json':
      return JSON.stringify(mapsObject(bytes), null, 2) + '\n';
    case 'syntaxerror':
      // a key and a value followed by more text on the line: yaml.v2 stops there
      return fill(`${HEAD}services:\n`, bytes, mapsItem, '  broken: a: b\n');
    case 'typeerror':
      return fill(`${HEAD}services:\n`, bytes, mapsItem, 'revision: 5\n');
    default:
      throw new Error(`unknown shape ${shape}; one of ${SHAPES.join(', ')}`);
  }
}

/** A ConfigMap's text with its data.values (a block scalar at the end of data) replaced by `values`. */
export function withDataValues(configMap, values) {
  const m = /^ {2}values: \|-?\n(?: {4}.*\n|\n)*/m.exec(configMap);
  if (!m) throw new Error('no data.values block scalar found in the ConfigMap');
  const body = values.replace(/^(?=.)/gm, '    ');
  return configMap.slice(0, m.index) + `  values: |-\n${body.endsWith('\n') ? body : body + '\n'}` + configMap.slice(m.index + m[0].length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [shape = 'maps', mb = '50', cm] = process.argv.slice(2);
  const text = bigValues(shape, Number(mb) * 1e6);
  process.stdout.write(cm ? withDataValues(readFileSync(cm, 'utf8'), text) : text);
}
