import { hook, type HookName } from '../lifecycle.js';
import type { Rule } from './rule.js';

// A hook whose shell script does not parse fails as soon as it runs: whatever it was written to do
// (wait for connections to drain, wait for the proxy) never happens.
export const hookFailsAtOnce: Rule = {
  id: 'hook-fails-at-once',
  severity: 'error',
  summary: 'A postStart or preStop script the shell rejects (an unclosed quote, a loop without done, a line that begins with &&), so the hook fails as soon as it runs.',
  description:
    'The kubelet runs exec hooks as written; a shell script with a syntax error stops there with exit status 2 (dash and bash alike), so the hook fails. A failed preStop is only logged (FailedPreStopHook) and the container gets SIGTERM at once, without the wait the hook was meant to give; a failed postStart makes the kubelet kill the container.',
  check(s, report) {
    for (const c of [...s.initContainers, ...s.containers]) {
      for (const name of ['postStart', 'preStop'] as HookName[]) {
        const h = hook(c, name);
        const bad = h?.shell?.syntaxError;
        if (!h || !bad) continue;
        const then =
          name === 'preStop'
            ? `the kubelet logs FailedPreStopHook and sends SIGTERM at once, so the shutdown wait it was written for never happens`
            : `the kubelet kills ${c.name} as soon as it starts and restarts it according to the pod's restartPolicy`;
        report({
          container: c.name,
          message: `The ${name} of ${c.name} is a shell script with ${bad}: the shell stops there with a syntax error (exit 2; only lines before it run), so the hook fails; ${then}.`,
          evidence: s.at(c, ['lifecycle', name]),
          fix: `Fix the script (${bad}); \`sh -n -c '...'\` checks it without running it.`,
        });
      }
    }
  },
};
