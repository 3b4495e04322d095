// sidecar-render's library: everything the CLI does, a program can do, with the same inputs: the
// options are the command line's flags in camelCase (INPUT_OPTIONS, docs/options.md).
//   sidecar-render/template  the Go text/template engine and the Go value model
//   sidecar-render/funcs     function sets: builtin, sprig, helm, istio
//   sidecar-render/golden    golden matrices and test helpers
//   sidecar-render/audit     lifecycle hazard rules and timelines
//   sidecar-render/helm      Helm charts rendered as `helm template` renders them

export { Template, TemplateError, ParseError, ExecError, GoPanic, def, funcMap } from './go/text/template/template.js';
export { funcSet, sprigFuncs, helmFuncs, istioFuncs, type FuncSetName, type FuncSetOptions } from './funcs/index.js';
export { Renderer, RenderInputError, type RenderEvent, type WorkloadResult } from './istio/inject.js';
export { renderInputs, resolveInputs, type RenderRequest, type ResolvedInputs, type InputSources } from './inputs/resolve.js';
export { INPUT_OPTIONS, type InjectorOptions, type InputFile } from './inputs/options.js';
export { workloadFiles } from './inputs/files.js';
export { renderRequest, renderStream, describeAssumptions, type RenderOutcome } from './output/render.js';
export { manifestStream, workloadStream, workloadsFromText, type ManifestPiece } from './istio/workload.js';
export { parseIstioVersion, type IstioVersion } from './istio/version.js';
export * as golden from './golden/index.js';
export * as audit from './audit/index.js';
export { renderChart, loadChart, type Chart, type ChartRenderOptions, type ChartRender } from './helm/index.js';
export { chartConfigMaps, injectorInputsFromChart, type ChartSource } from './istio/fromchart.js';
export { iopValues } from './istio/iop.js';
export { diffInjection, failures, formatDiffText, FAIL_ON, type DiffSide, type DiffReport, type WorkloadDiff, type FailOn } from './diff/diff.js';
export { main } from './cli/index.js';
export { VERSION } from './version.js';
