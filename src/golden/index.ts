export { parseMatrix, loadMatrix, mergeSpecs, safeFileName, MatrixError, type MatrixOptions, type GoldenMatrix, type GoldenCase, type CaseSpec, type CompareMode } from './matrix.js';
export { checkMatrix, updateMatrix, type CaseRenderer, type CaseResult, type CheckReport, type UpdateReport, type RunOptions } from './run.js';
export { compareRendering, canonicalYaml, unifiedDiff, colorDiff, type Comparison } from './compare.js';
export { matchGolden, expectGolden, GoldenMismatchError, type GoldenOptions } from './assert.js';
export { istioCaseRenderer, renderRequestOf } from './istio.js';
