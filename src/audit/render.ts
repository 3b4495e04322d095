// The audit's link to the real injector (src/istio): an InjectFn that renders the workload with the
// injector ConfigMap's template and values, merges the result into the pod and orders its containers
// the way istiod does. Undefined until the renderer's API is available; the audit then uses its model.

import type { InjectFn } from './inject.js';

export const defaultInject: InjectFn | undefined = undefined;
