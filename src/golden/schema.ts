// JSON Schema of a golden matrix file (validated with ajv; errors are mapped back to file:line:col). A
// case's inputs are the table of inputs every command takes (src/inputs/options.ts).

import { INPUT_OPTIONS, LEGACY_NAMES, type InputOption } from '../inputs/options.js';

const stringList = { type: 'array', items: { type: 'string' } } as const;

/** A case's input, as the one table of inputs says what it takes (a case renders one workloads file). */
function inputSchema(o: InputOption): object {
  if (o.key === 'filename') return { type: 'string', minLength: 1 };
  switch (o.value) {
    case 'file':
      return { type: 'string', minLength: 1 };
    case 'files':
    case 'strings':
      return stringList;
    case 'boolean':
      return { type: 'boolean' };
    case 'map':
      return { type: 'object', additionalProperties: { type: 'string' } };
    case 'string':
      return o.choices ? { enum: [...o.choices] } : o.pattern ? { type: 'string', pattern: o.pattern } : { type: 'string' };
  }
}

const inputProperties: Record<string, object> = {};
for (const o of INPUT_OPTIONS) inputProperties[o.key] = inputSchema(o);
for (const [legacy, key] of Object.entries(LEGACY_NAMES)) if (key !== 'mesh') inputProperties[legacy] = inputProperties[key]!;

/** The inputs of render (its flags in camelCase, earlier names too), then how a case prints and compares. */
const caseProperties = {
  ...inputProperties,
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
