// The "istio" fixture of tools/gorender/istio.go, built from sidecar-render's Kubernetes and protobuf
// types (src/istio): the same field values, so the typed vectors in typed.jsonl compare the two.
// (Go's stand-in types are named main.Istio*; only type errors would show the difference.)

import { GoNil, MAP_STRING_STRING, newMap, ptrTo, sliceOf, withType, type GoValue } from '../../../src/go/reflect/value.js';
import { decodeGo } from '../../../src/go/encoding/json/structs.js';
import { ObjectMeta } from '../../../src/k8s/meta.js';
import { Container } from '../../../src/k8s/core.js';
import { duration, v2Types } from '../../../src/istio/proto.js';

function stringMap(o: Record<string, string>): GoValue {
  const m = newMap();
  for (const [k, v] of Object.entries(o)) m[k] = v;
  return withType(m, MAP_STRING_STRING);
}

export function istioFixture(): GoValue {
  const m = newMap();
  m.ObjectMeta = decodeGo(ObjectMeta, {
    name: 'reviews-v1',
    namespace: 'bookinfo',
    labels: { app: 'reviews', version: 'v1' },
    annotations: {
      'sidecar.istio.io/interceptionMode': 'TPROXY',
      'traffic.sidecar.istio.io/excludeInboundPorts': '8080, 9090',
      'status.sidecar.istio.io/port': '15021',
    },
  });
  m.EmptyMeta = decodeGo(ObjectMeta, {});
  m.Containers = decodeGo(sliceOf(Container), [
    {
      name: 'reviews',
      image: 'docker.io/istio/reviews:1.17.0',
      ports: [
        { name: 'http', containerPort: 9080, protocol: 'TCP' },
        { name: 'dns', containerPort: 53, protocol: 'UDP' },
        { name: 'metrics', containerPort: 9090 },
      ],
    },
    { name: 'istio-proxy', image: 'proxyv2', ports: [{ name: 'http-envoy-prom', containerPort: 15090, protocol: 'TCP' }] },
    { name: 'sctp', ports: [{ containerPort: 7000, protocol: 'SCTP' }] },
  ]);
  m.NoContainers = decodeGo(sliceOf(Container), []);
  m.DrainDuration = duration(v2Types, 45);
  m.ShortDuration = duration(v2Types, 1, 500000000);
  m.NilDuration = new GoNil(ptrTo(v2Types.Duration.goType));
  m.Annotations = stringMap({ b: '2', a: '<1>', c: '&' });
  m.NilAnnotations = new GoNil(MAP_STRING_STRING);
  return m;
}

export const istioFixtures: Record<string, () => GoValue> = { istio: istioFixture };
