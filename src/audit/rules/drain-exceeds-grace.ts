import { envIndex, fmtSeconds, hook, proxyDrain } from '../lifecycle.js';
import type { Rule } from './rule.js';

export const drainExceedsGrace: Rule = {
  id: 'drain-exceeds-grace',
  severity: 'warning',
  summary: 'A preStop sleep or proxy drain longer than terminationGracePeriodSeconds.',
  description:
    'Everything a container does at shutdown (preStop, then the proxy drain after SIGTERM) must fit in terminationGracePeriodSeconds (30 s by default); what does not fit is cut off by SIGKILL. Native sidecars are terminated after the main containers, inside the same grace period. With EXIT_ON_ZERO_ACTIVE_CONNECTIONS=true only MINIMUM_DRAIN_DURATION is timed (terminationDrainDuration is not used); the wait for connections after it has no bound but the grace period.',
  check(s, report) {
    const grace = s.grace.seconds;
    const graceText = `terminationGracePeriodSeconds ${fmtSeconds(grace)}${s.grace.explicit ? '' : ' (the default)'}`;
    let appPreStop = 0;
    let appName = '';
    for (const c of [...s.initContainers.filter((x) => x.native), ...s.containers]) {
      const pre = hook(c, 'preStop');
      if (!pre || pre.seconds === Infinity) continue; // prestop-never-exits covers those
      if (!c.isProxy && !c.native && pre.seconds > appPreStop) {
        appPreStop = pre.seconds;
        appName = c.name;
      }
      if (pre.seconds > grace) {
        report({
          container: c.name,
          message: `The preStop of ${c.name} takes at least ${fmtSeconds(pre.seconds)} (\`${pre.text}\`), longer than ${graceText}: it is killed before it finishes.`,
          evidence: s.at(c, ['lifecycle', 'preStop']),
          fix: `Raise terminationGracePeriodSeconds above ${fmtSeconds(pre.seconds)} (e.g. ${Math.ceil(pre.seconds) + 10}) or shorten the preStop.`,
        });
      }
    }
    const proxy = s.proxy;
    if (!proxy) return;
    const drain = proxyDrain(s);
    const drainAt =
      'env' in drain.source
        ? envIndex(proxy, drain.source.env) >= 0
          ? s.at(proxy, ['env', envIndex(proxy, drain.source.env)])
          : (s.settings.proxyConfigEvidence('proxyMetadata') ?? s.at(proxy, []))
        : (s.settings.proxyConfigEvidence(drain.source.proxyConfig) ?? s.at(proxy, []));
    // with exit-on-zero the minimum is what can be compared: the wait for connections after it ends
    // when they do, or at SIGKILL
    const drainText = drain.exitOnZero
      ? `at least ${fmtSeconds(drain.seconds)} (${drain.what}: after it pilot-agent waits for zero active connections with no bound but SIGKILL, and terminationDrainDuration is not used)`
      : `${fmtSeconds(drain.seconds)} (${drain.what})`;
    if (drain.seconds > grace) {
      report({
        container: proxy.name,
        message: `The proxy drains for ${drainText} after SIGTERM, longer than ${graceText}: Envoy is killed mid-drain.`,
        evidence: drainAt,
        fix: `Set terminationGracePeriodSeconds above ${fmtSeconds(drain.seconds)} (e.g. ${Math.ceil(drain.seconds) + 10}) or shorten ${drain.exitOnZero ? 'MINIMUM_DRAIN_DURATION' : 'env' in drain.source ? drain.source.env : 'terminationDrainDuration'}.`,
      });
      return;
    }
    if (proxy.native && appPreStop > 0 && appPreStop <= grace && appPreStop + drain.seconds > grace) {
      report({
        container: proxy.name,
        message: `The native sidecar is stopped only after the main containers, in the same grace period: ${appName}'s preStop (${fmtSeconds(appPreStop)}) plus the proxy drain (${drain.exitOnZero ? drainText : fmtSeconds(drain.seconds)}) exceed ${graceText}.`,
        evidence: s.grace.explicit ? s.grace.evidence : s.at(proxy, []),
        fix: `Set terminationGracePeriodSeconds to at least ${Math.ceil(appPreStop + drain.seconds) + 5}.`,
      });
    }
  },
};
