// JSON Schema of a golden matrix file (validated with ajv; errors are mapped back to file:line:col).

import { ISTIO_VERSION_PATTERN } from '../istio/version.js';

const stringList = { type: 'array', items: { type: 'string' } } as const;

const caseProperties = {
  injectorConfigMap: { type: 'string', minLength: 1 },
  injectConfig: { type: 'string', minLength: 1 },
  chart: { type: 'string', minLength: 1 },
  chartValues: stringList,
  chartSet: stringList,
  chartSetString: stringList,
  template: { type: 'string', minLength: 1 },
  values: { type: 'string', minLength: 1 },
  valuesFiles: stringList,
  iop: stringList,
  set: stringList,
  setString: stringList,
  mesh: { type: 'string', minLength: 1 },
  workloads: { type: 'string', minLength: 1 },
  istioVersion: { type: 'string', pattern: ISTIO_VERSION_PATTERN },
  revision: { type: 'string' },
  nativeSidecars: { enum: ['auto', 'true', 'false'] },
  mode: { enum: ['webhook', 'kube-inject'] },
  kubeVersion: { type: 'string', pattern: '^v?\\d+\\.\\d+(\\.\\d+)?$' },
  env: { type: 'object', additionalProperties: { type: 'string' } },
  merged: { type: 'boolean' },
  output: { enum: ['yaml', 'json'] },
  golden: { type: 'string', minLength: 1 },
  compare: { enum: ['exact', 'semantic'] },
} as const;

const caseSpec = { type: 'object', additionalProperties: false, properties: caseProperties } as const;

const namedCase = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 }, ...caseProperties },
} as const;

export const matrixSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    goldenDir: { type: 'string', minLength: 1 },
    compare: { enum: ['exact', 'semantic'] },
    defaults: caseSpec,
    cases: { type: 'array', items: namedCase },
    matrix: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['axes'],
        properties: {
          name: { type: 'string', minLength: 1 },
          defaults: caseSpec,
          axes: {
            type: 'object',
            minProperties: 1,
            additionalProperties: { type: 'array', minItems: 1, items: namedCase },
          },
        },
      },
    },
  },
} as const;
