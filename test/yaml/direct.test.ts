// The yaml vectors (test/vectors/yaml), checked directly against the functions of src/yaml and
// src/helm/funcs.ts without the template engine: each template shape used there maps to a call.
// test/vectors.test.ts runs the same cases through the engine.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isMap, mapGet, mapHas, type GoValue } from '../../src/go/reflect/value.js';
import { goJsonMarshal, goJsonUnmarshal } from '../../src/go/encoding/json/json.js';
import { helmToYaml } from '../../src/yaml/emit.js';
import { helmFromJson, helmFromJsonArray, helmFromYaml, helmFromYamlArray } from '../../src/yaml/decode.js';

const dir = fileURLToPath(new URL('../vectors/yaml/', import.meta.url));

interface Case {
  name: string;
  template: string;
  data: Record<string, unknown>;
  dataInt?: boolean;
}
interface Result {
  name: string;
  output: string;
  error: string | null;
}

function intify(v: GoValue): GoValue {
  if (typeof v === 'number') {
    return Number.isInteger(v) && v >= -9223372036854775808 && v < 9223372036854775808 ? BigInt(v) : v;
  }
  if (Array.isArray(v)) return v.map(intify);
  if (isMap(v)) {
    for (const k of Object.keys(v)) v[k] = intify(v[k]);
  }
  return v;
}

const toJson = (v: GoValue): string => {
  try {
    return goJsonMarshal(v);
  } catch {
    return '';
  }
};

/** Go's default printing of a value read from a map ("<no value>" when missing). */
function show(m: GoValue, key: string): string {
  if (isMap(m) && mapHas(m, key)) return String(mapGet(m, key));
  return '<no value>';
}

const shapes: Record<string, (d: Record<string, GoValue>) => string> = {
  '{{ toYaml .v }}': (d) => helmToYaml(d.v),
  '[{{ toYaml .v }}]': (d) => '[' + helmToYaml(d.v) + ']',
  '{{ toJson (fromYaml .s) }}': (d) => toJson(helmFromYaml(d.s as string)),
  '{{ toYaml (fromYaml .s) }}': (d) => helmToYaml(helmFromYaml(d.s as string)),
  '{{ (fromYaml .s).Error }}': (d) => show(helmFromYaml(d.s as string), 'Error'),
  '{{ toJson (fromYamlArray .s) }}': (d) => toJson(helmFromYamlArray(d.s as string)),
  '{{ toJson (fromJson .s) }}': (d) => toJson(helmFromJson(d.s as string)),
  '{{ (fromJson .s).Error }}': (d) => show(helmFromJson(d.s as string), 'Error'),
  '{{ toJson (fromJsonArray .s) }}': (d) => toJson(helmFromJsonArray(d.s as string)),
  '{{ $y := toYaml (dict "k" .v) }}{{ $m := fromYaml $y }}{{ toJson $m }}|{{ toYaml $m }}': (d) => {
    const k = Object.create(null);
    k.k = d.v;
    const m = helmFromYaml(helmToYaml(k));
    return toJson(m) + '|' + helmToYaml(m);
  },
  '{{ $m := fromYaml (toYaml (dict "k" .v)) }}{{ toJson $m }}|{{ toYaml $m }}': (d) => {
    const k = Object.create(null);
    k.k = d.v;
    const m = helmFromYaml(helmToYaml(k));
    return toJson(m) + '|' + helmToYaml(m);
  },
};

for (const file of ['toyaml', 'fromyaml', 'roundtrip', 'fromjson']) {
  const input = dir + file + '.jsonl';
  const expectedFile = dir + file + '.expected.jsonl';
  if (!existsSync(input) || !existsSync(expectedFile)) continue;
  const cases = readFileSync(input, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Case);
  const expected = readFileSync(expectedFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Result);
  describe(`yaml direct: ${file}`, () => {
    cases.forEach((c, i) => {
      const shape = shapes[c.template];
      const want = expected[i]!;
      if (!shape || want.error !== null) return;
      it(c.name, () => {
        let data = goJsonUnmarshal(JSON.stringify(c.data)) as Record<string, GoValue>;
        if (c.dataInt) data = intify(data) as Record<string, GoValue>;
        expect(shape(data)).toBe(want.output);
      });
    });
  });
}
