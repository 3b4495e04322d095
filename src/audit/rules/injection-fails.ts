import { podEvidence } from '../settings.js';
import type { Subject } from '../subject.js';
import type { Evidence } from '../types.js';
import type { Rule } from './rule.js';

const TEMPLATES_ANNOTATION = 'inject.istio.io/templates';

/** Where the cause is: the annotation istiod names, the template line, else the workload. */
function evidenceOf(s: Subject, error: string): Evidence {
  const w = s.workload;
  const annotation = (name: string): Evidence => podEvidence(w, ['metadata', 'annotations', name], `metadata.annotations[${name}]`);
  if (/^requested template "/.test(error) && w.annotations[TEMPLATES_ANNOTATION] !== undefined) return annotation(TEMPLATES_ANNOTATION);
  const named = /^invalid value '.*' for annotation '([^']+)'/.exec(error)?.[1] ?? /annotation (proxy\.istio\.io\/config)/.exec(error)?.[1];
  if (named && w.annotations[named] !== undefined) return annotation(named);
  // a template that fails as it runs: its line in the injector config, the same for every pod it fails on
  const at = /^(.+):(\d+):(\d+): template: /.exec(error);
  if (at) return { file: at[1]!, line: Number(at[2]), col: Number(at[3]), path: 'the injector template' };
  return s.at(undefined, []);
}

function fixOf(error: string): string {
  const missing = /^requested template "([^"]+)" not found; have (.*)$/.exec(error);
  if (missing) return `Name templates the injector has (${missing[2]}) in ${TEMPLATES_ANNOTATION}, or add template "${missing[1]}" to the injector config (data.config templates).`;
  if (/for annotation '/.test(error)) return 'Correct or remove the annotation istiod refuses.';
  return 'Fix what istiod\'s error names (the injector config, its values, or the pod); until then the workload gets no pods. To judge the rest of the workload meanwhile, run the audit with --model.';
}

// The webhook Istio installs fails closed (failurePolicy: Fail): when the injector cannot render a pod,
// the API server refuses to create it. Every other rule would judge a pod that never exists.
export const injectionFails: Rule = {
  id: 'injection-fails',
  severity: 'error',
  summary: 'The injector fails on the workload (a requested template it lacks, an annotation it refuses), so istiod rejects its pods.',
  description:
    "istiod's sidecar injector returns an error for this pod: a template named in inject.istio.io/templates that its config lacks, an annotation value it refuses, a template that fails on the pod's data. Istio's webhook fails closed (failurePolicy: Fail), so the API server rejects the pod and the workload never runs; nothing else about it is judged.",
  check(s, report) {
    if (s.injectionError === undefined) return;
    report({
      container: null,
      message: `istiod's injector fails on this pod: ${s.injectionError}. The sidecar injector webhook fails closed (failurePolicy: Fail), so the API server rejects every pod of ${s.workload.id} and it never runs; no other rule is applied to it.`,
      evidence: evidenceOf(s, s.injectionError),
      fix: fixOf(s.injectionError),
    });
  },
};
