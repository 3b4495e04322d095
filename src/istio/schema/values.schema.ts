// JSON Schema for the injector values the model and the injection templates read. Objects that are
// listed with `additionalProperties: false` report unknown keys (as warnings: Istio ignores them); a
// wrong type is an error (the template would render something istiod never would).
//
// Upstream: none (the JSON Schema of the injector values the model and templates read)

const str = { type: 'string' };
const bool = { type: 'boolean' };
const num = { type: 'number' };
const obj = { type: 'object' };
const strOrNum = { type: ['string', 'number'] };
const nullable = (s: object): object => ({ anyOf: [s, { type: 'null' }] });

const handler = {
  type: 'object',
  properties: {
    exec: { type: 'object', properties: { command: { type: 'array', items: str } } },
    httpGet: obj,
    tcpSocket: obj,
    sleep: { type: 'object', properties: { seconds: num } },
  },
  additionalProperties: false,
};

export const valuesSchema = {
  $id: 'sidecar-render/injector-values',
  type: 'object',
  properties: {
    global: {
      type: 'object',
      properties: {
        hub: str,
        tag: strOrNum,
        variant: str,
        imagePullPolicy: str,
        imagePullSecrets: { type: 'array' },
        network: str,
        meshID: str,
        trustDomain: str,
        caAddress: str,
        jwtPolicy: str,
        pilotCertProvider: str,
        logAsJson: bool,
        logging: obj,
        multiCluster: { type: 'object', properties: { clusterName: str, enabled: bool } },
        proxy: {
          type: 'object',
          properties: {
            image: str,
            autoInject: str,
            clusterDomain: str,
            componentLogLevel: str,
            enableCoreDump: bool,
            excludeIPRanges: str,
            excludeInboundPorts: str,
            excludeOutboundPorts: str,
            includeIPRanges: str,
            includeInboundPorts: str,
            includeOutboundPorts: str,
            holdApplicationUntilProxyStarts: bool,
            lifecycle: nullable({ type: 'object', properties: { preStop: handler, postStart: handler }, additionalProperties: false }),
            logLevel: str,
            outlierLogPath: str,
            privileged: bool,
            readinessFailureThreshold: num,
            readinessInitialDelaySeconds: num,
            readinessPeriodSeconds: num,
            resources: nullable({ type: 'object', properties: { limits: obj, requests: obj }, additionalProperties: false }),
            startupProbe: { type: 'object', properties: { enabled: bool, failureThreshold: num }, additionalProperties: false },
            statusPort: num,
            tracer: str,
            envoyStatsd: obj,
            envoyMetricsService: obj,
            envoyAccessLogService: obj,
            kubevirtInterfaces: str,
            controlPlaneSecurityEnabled: bool,
            accessLogFile: str,
            accessLogFormat: str,
            accessLogEncoding: str,
            dnsRefreshRate: str,
            protocolDetectionTimeout: str,
            concurrency: num,
            istioNodeAgentSds: obj,
            sds: obj,
            podDNSSearchNamespaces: { type: 'array' },
            drainDuration: str,
            parentShutdownDuration: str,
            connectTimeout: str,
            discoveryDomain: str,
            envoyMetricsServiceAddress: str,
            enableCoreDumpImage: str,
            seccompProfile: obj,
          },
          additionalProperties: false,
        },
        proxy_init: {
          type: 'object',
          properties: { image: str, resources: nullable(obj), forceApplyIptables: bool },
          additionalProperties: false,
        },
        sds: obj,
        tracer: obj,
      },
    },
    sidecarInjectorWebhook: {
      type: 'object',
      properties: {
        rewriteAppHTTPProbe: bool,
        injectedAnnotations: obj,
        neverInjectSelector: { type: 'array' },
        alwaysInjectSelector: { type: 'array' },
        defaultTemplates: { type: 'array', items: str },
        templates: obj,
        enableNamespacesByDefault: bool,
      },
    },
    istio_cni: { type: 'object', properties: { enabled: bool, chained: bool, provider: str } },
    pilot: { type: 'object', properties: { cni: { type: 'object', properties: { enabled: bool } } } },
    revision: str,
  },
} as const;
