// The rule table: adding a rule is adding a file and a line here.

import type { Rule } from './rule.js';
import { holdDroppedByLifecycle } from './hold-dropped-by-lifecycle.js';
import { holdNotEnforced } from './hold-not-enforced.js';
import { prestopNeverExits } from './prestop-never-exits.js';
import { drainExceedsGrace } from './drain-exceeds-grace.js';
import { nativeSidecarUnordered } from './native-sidecar-unordered.js';
import { jobNeverCompletes } from './job-never-completes.js';
import { holdWithNativeSidecar } from './hold-with-native-sidecar.js';
import { appWaitsForProxy } from './app-waits-for-proxy.js';
import { holdWithRestartNever } from './hold-with-restart-never.js';
import { unknownField } from './unknown-field.js';
import { restartPolicyOnContainer } from './restart-policy-on-container.js';
import { istioInitRestartAlways } from './istio-init-restart-always.js';
import { hookFailsAtOnce } from './hook-fails-at-once.js';
import { hookOptionIgnored } from './hook-option-ignored.js';
import { injectionFails } from './injection-fails.js';
import type { Subject } from '../subject.js';

export type { Rule, RawFinding } from './rule.js';

export const RULES: readonly Rule[] = [
  injectionFails,
  holdDroppedByLifecycle,
  holdNotEnforced,
  prestopNeverExits,
  drainExceedsGrace,
  nativeSidecarUnordered,
  jobNeverCompletes,
  holdWithNativeSidecar,
  appWaitsForProxy,
  holdWithRestartNever,
  unknownField,
  restartPolicyOnContainer,
  istioInitRestartAlways,
  hookFailsAtOnce,
  hookOptionIgnored,
];

/** Whether a rule judges this workload: one the injector fails on never runs, so only injection-fails does. */
export function applies(rule: Rule, s: Subject): boolean {
  return s.injectionError === undefined || rule === injectionFails;
}
