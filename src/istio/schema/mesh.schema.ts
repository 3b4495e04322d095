// JSON Schema for the mesh config fields the model reads (the rest is checked by the protobuf parser in
// proto.ts: unknown fields warn, wrong types fail as jsonpb would).
//
// Upstream: none (the JSON Schema of the mesh config fields the model reads)

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const duration = { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]{1,9})?s$' };

export const proxyConfigSchema = {
  type: 'object',
  properties: {
    holdApplicationUntilProxyStarts: bool,
    proxyMetadata: { type: 'object', additionalProperties: str },
    concurrency: int,
    terminationDrainDuration: duration,
    drainDuration: duration,
    parentShutdownDuration: duration,
    discoveryAddress: str,
    statusPort: int,
    proxyAdminPort: int,
    interceptionMode: { enum: ['REDIRECT', 'TPROXY', 'NONE', 0, 1, 2] },
    image: { type: 'object', properties: { imageType: str } },
  },
} as const;

export const meshSchema = {
  $id: 'sidecar-render/mesh-config',
  type: 'object',
  properties: {
    defaultConfig: proxyConfigSchema,
    trustDomain: str,
    proxyListenPort: int,
    proxyInboundListenPort: int,
    inboundTrafficPolicy: { type: 'object', properties: { mode: { enum: ['PASSTHROUGH', 'LOCALHOST', 0, 1] } } },
    outboundTrafficPolicy: { type: 'object', properties: { mode: { enum: ['REGISTRY_ONLY', 'ALLOW_ANY', 0, 1] } } },
    enablePrometheusMerge: bool,
    enableTracing: bool,
  },
} as const;
