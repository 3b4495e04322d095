#!/usr/bin/env node
// Template cases nested as deep as Go runs them, written compactly (test/hardening/deep-go.json) and
// expanded here into tools/gorender's JSON Lines: the generator (tools/gen-vectors.sh) feeds them to
// Go, and test/hardening/deep-go.test.ts to `sidecar-render template --batch`.
//
//   template: a string, or a list of parts: "text" or ["text", times]
//   data:     any JSON, or {"$list": depth, "leaf": v} / {"$map": depth, "key": k, "leaf": v} for values
//             nested depth levels deep

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

function text(t) {
  if (typeof t === 'string') return t;
  return t.map((p) => (typeof p === 'string' ? p : p[0].repeat(p[1]))).join('');
}

// JSON text built without recursion (JSON.stringify of a value 10,000 deep would need the stack)
function dataJson(d) {
  if (d && typeof d === 'object' && !Array.isArray(d) && ('$list' in d || '$map' in d)) {
    const leaf = JSON.stringify(d.leaf ?? null);
    if ('$list' in d) return '['.repeat(d.$list) + leaf + ']'.repeat(d.$list);
    const key = JSON.stringify(d.key ?? 'a');
    return `{${key}:`.repeat(d.$map) + leaf + '}'.repeat(d.$map);
  }
  return JSON.stringify(d ?? null);
}

/** One JSON Lines case per spec, in order. */
export function expandDeepCases(specs) {
  return specs.map((s) => {
    const fields = [`"name":${JSON.stringify(s.name)}`, `"template":${JSON.stringify(text(s.template))}`, `"data":${dataJson(s.data)}`];
    if (s.dataInt) fields.push('"dataInt":true');
    if (s.funcs) fields.push(`"funcs":${JSON.stringify(s.funcs)}`);
    return `{${fields.join(',')}}`;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? new URL('../test/hardening/deep-go.json', import.meta.url);
  for (const line of expandDeepCases(JSON.parse(readFileSync(file, 'utf8')))) process.stdout.write(line + '\n');
}
