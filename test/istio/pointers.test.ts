// Kubernetes pointer fields (*int64, *bool) distinguish nil from zero: encoding/json's omitempty
// drops only nil, so a template's toJson/toYaml/structToJSON of a Kubernetes struct keeps
// `runAsUser: 0`. Expected bytes are from Go 1.19 (encoding/json and sigs.k8s.io/yaml over structs
// with the same field types and tags as k8s.io/api's PodSpec and PodSecurityContext).

import { describe, expect, it } from 'vitest';
import { decodeGo } from '../../src/go/encoding/json/structs.js';
import { PodSpec } from '../../src/k8s/core.js';
import { goJsonMarshal } from '../../src/go/encoding/json/json.js';
import { toYaml } from '../../src/yaml/emit.js';
import type { GoValue } from '../../src/go/reflect/value.js';

const spec = (json: object): GoValue => decodeGo(PodSpec, json) as GoValue;

describe('pointer scalars', () => {
  it('keep a zero or false value and drop only nil', () => {
    const s = spec({ terminationGracePeriodSeconds: 0, securityContext: { runAsUser: 0, runAsNonRoot: false } });
    // Go: {"terminationGracePeriodSeconds":0,"securityContext":{"runAsUser":0,"runAsNonRoot":false}} (plus
    // PodSpec's non-omitempty containers, null when unset)
    expect(goJsonMarshal(s)).toBe('{"containers":null,"terminationGracePeriodSeconds":0,"securityContext":{"runAsUser":0,"runAsNonRoot":false}}');
    expect(goJsonMarshal(spec({ securityContext: {} }))).toBe('{"containers":null,"securityContext":{}}');
  });
  it('marshal to YAML the same way', () => {
    const s = spec({ securityContext: { runAsUser: 0, runAsNonRoot: false }, terminationGracePeriodSeconds: 0 });
    expect(toYaml(s)).toBe('containers: null\nsecurityContext:\n  runAsNonRoot: false\n  runAsUser: 0\nterminationGracePeriodSeconds: 0\n');
  });
});
