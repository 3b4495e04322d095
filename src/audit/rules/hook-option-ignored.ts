import { hook, type HookName } from '../lifecycle.js';
import type { Rule } from './rule.js';

// Style notes about hooks that work: an option that changes nothing. Not a hazard, but a sign that
// the script does not do what its author read into it.
export const hookOptionIgnored: Rule = {
  id: 'hook-option-ignored',
  severity: 'info',
  summary: 'A hook command option whose effect the rest of the script throws away, such as `netstat -u` filtered by `grep tcp`.',
  description:
    'Copied drain scripts often list UDP sockets (`netstat -plunt`) and then keep only `grep tcp` lines: the option does nothing. The hook still works; the note helps keep the script honest.',
  check(s, report) {
    for (const c of [...s.initContainers.filter((x) => x.native), ...s.containers]) {
      for (const name of ['postStart', 'preStop'] as HookName[]) {
        const h = hook(c, name);
        if (!h?.shell?.netstatUdpGrepTcp) continue;
        report({
          container: c.name,
          message: `The ${name} of ${c.name} runs \`netstat -u\` (UDP sockets) and then keeps only \`grep tcp\` lines, so the -u option does nothing.`,
          evidence: s.at(c, ['lifecycle', name]),
          fix: 'Drop -u: `netstat -plnt`.',
        });
      }
    }
  },
};
