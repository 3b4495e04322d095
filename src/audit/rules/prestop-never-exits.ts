import { fmtSeconds, hook } from '../lifecycle.js';
import type { Rule } from './rule.js';

export const prestopNeverExits: Rule = {
  id: 'prestop-never-exits',
  severity: 'error',
  summary: 'A preStop hook that can never finish, so every shutdown waits the full grace period.',
  description:
    'The kubelet sends SIGTERM only after the preStop hook returns (or the grace period runs out). A loop nothing can end, such as counting listeners other than envoy while pilot-agent also listens, makes every pod wait terminationGracePeriodSeconds before it is killed.',
  check(s, report) {
    for (const c of [...s.initContainers.filter((x) => x.native), ...s.containers]) {
      const pre = hook(c, 'preStop');
      if (!pre?.shell) continue;
      const at = s.at(c, ['lifecycle', 'preStop']);
      const loop = pre.shell.unboundedLoops[0];
      if (pre.shell.neverEnds) {
        const why = loop?.reason ?? `\`${pre.shell.neverEnds}\` never returns`;
        const listener = /pilot-agent also listens/.test(why);
        const ownCount = /the proxy's own listeners keep/.test(why);
        report({
          container: c.name,
          message: `The preStop of ${c.name} never exits: ${why}; the pod always waits its full terminationGracePeriodSeconds (${fmtSeconds(s.grace.seconds)}) and is then killed.`,
          evidence: at,
          fix: listener
            ? "Exclude pilot-agent as well: `while [ $(netstat -plnt | grep tcp | egrep -v 'envoy|pilot-agent' | wc -l) -ne 0 ]; do sleep 1; done`."
            : ownCount
              ? "Leave out every listener of the proxy and the header lines, e.g. `while [ $(ss -Hltnp | grep -v -E 'envoy|pilot-agent' | wc -l) -ne 0 ]; do sleep 1; done`, and bound the loop below the grace period."
              : 'Give the loop an end: a condition that can become false, or a counter (`i=0; while [ $i -lt 30 ]; do ...; i=$((i+1)); done`) or `timeout 25 ...` below the grace period.',
        });
      }
    }
  },
};
