import type { ContainerView, Subject } from '../subject.js';
import { fixFor, holdAvailable, holdDoesNotFit, holdRemedy, nativePossible, nativeRemedy, readinessUrl } from '../remedies.js';
import { get, isObject, kubeAtLeast, type PathSeg } from '../types.js';
import type { RawFinding, Rule } from './rule.js';

// Field names of the core/v1 types through Kubernetes 1.34; anything else is dropped by the API
// server (or rejected with strict validation), so whatever it was meant to do never happens.
const CONTAINER = new Set([
  'name', 'image', 'command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'resources', 'resizePolicy',
  'restartPolicy', 'restartPolicyRules', 'volumeMounts', 'volumeDevices', 'livenessProbe', 'readinessProbe',
  'startupProbe', 'lifecycle', 'terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy',
  'securityContext', 'stdin', 'stdinOnce', 'tty', 'targetContainerName',
]);
const LIFECYCLE = new Set(['postStart', 'preStop', 'stopSignal']);
const HANDLER = new Set(['exec', 'httpGet', 'tcpSocket', 'sleep']);
const PROBE = new Set([
  'exec', 'httpGet', 'tcpSocket', 'grpc', 'initialDelaySeconds', 'timeoutSeconds', 'periodSeconds',
  'successThreshold', 'failureThreshold', 'terminationGracePeriodSeconds',
]);
const POD_SPEC = new Set([
  'volumes', 'initContainers', 'containers', 'ephemeralContainers', 'restartPolicy', 'terminationGracePeriodSeconds',
  'activeDeadlineSeconds', 'dnsPolicy', 'nodeSelector', 'serviceAccountName', 'serviceAccount',
  'automountServiceAccountToken', 'nodeName', 'hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace',
  'securityContext', 'imagePullSecrets', 'hostname', 'subdomain', 'affinity', 'schedulerName', 'tolerations',
  'hostAliases', 'priorityClassName', 'priority', 'dnsConfig', 'readinessGates', 'runtimeClassName',
  'enableServiceLinks', 'preemptionPolicy', 'overhead', 'topologySpreadConstraints', 'setHostnameAsFQDN', 'os',
  'hostUsers', 'schedulingGates', 'resourceClaims', 'resources', 'hostnameOverride',
]);

/** `lifecycle.type: Sidecar` never shipped: what does order start-up on this pod's release. */
function sidecarTypeFix(s: Subject): string {
  const ways: string[] = [];
  if (nativePossible(s)) ways.push(nativeRemedy(s));
  if (holdAvailable(s) && !holdDoesNotFit(s)) ways.push(holdRemedy(s));
  if (ways.length) return fixFor(s, `remove \`lifecycle.type\`; to start the proxy before the app, ${ways.join('; or ')}`);
  return fixFor(s, `remove \`lifecycle.type\`; nothing here starts the proxy first (the hold came in Istio 1.7, native sidecars in 1.19 on Kubernetes 1.29+): upgrade, or have the application wait for ${readinessUrl(s)} with a bounded loop`);
}

function unknownKeys(o: unknown, known: Set<string>): string[] {
  return isObject(o) ? Object.keys(o).filter((k) => !known.has(k)) : [];
}

export const unknownField: Rule = {
  id: 'unknown-field',
  severity: 'error',
  summary: 'A field that does not exist in Kubernetes, such as the never-shipped lifecycle.type: Sidecar.',
  description:
    'Fields Kubernetes does not know are dropped by the API server (or rejected under strict validation). `lifecycle.type: Sidecar` was proposed for 1.18 but never shipped; writing it changes nothing about start or stop order.',
  check(s, report) {
    const emit = (c: ContainerView | undefined, rel: PathSeg[], key: string, value: unknown): void => {
      const where = [...rel, key].join('.');
      const f: RawFinding = {
        container: c?.name ?? null,
        message: `\`${where}\` is not a Kubernetes field${c ? ` (container ${c.name})` : ''}; it is dropped and does nothing.`,
        evidence: s.at(c, [...rel, key]),
        fix: `Remove \`${key}\` or correct its name.`,
      };
      if (key === 'type' && rel[rel.length - 1] === 'lifecycle') {
        f.message = `\`lifecycle.type: ${String(value)}\` on ${c?.name ?? 'a container'} was proposed for Kubernetes 1.18 but never shipped: the field is dropped and the container is started and stopped like any other.`;
        f.fix = sidecarTypeFix(s);
      }
      report(f);
    };
    for (const k of unknownKeys(s.spec, POD_SPEC)) emit(undefined, [], k, s.spec[k]);
    for (const c of [...s.initContainers, ...s.containers]) {
      for (const k of unknownKeys(c.spec, CONTAINER)) emit(c, [], k, c.spec[k]);
      const lc = get(c.spec, 'lifecycle');
      for (const k of unknownKeys(lc, LIFECYCLE)) emit(c, ['lifecycle'], k, get(lc, k));
      for (const hookName of ['postStart', 'preStop']) {
        const h = get(lc, hookName);
        for (const k of unknownKeys(h, HANDLER)) emit(c, ['lifecycle', hookName], k, get(h, k));
        if (isObject(get(h, 'sleep')) && s.kubeVersion && !kubeAtLeast(s.kubeVersion, 1, 29)) {
          report({
            container: c.name,
            message: `The \`sleep\` ${hookName} handler of ${c.name} exists only since Kubernetes 1.29; on ${s.kubeVersion.join('.')} it is dropped and the hook does nothing.`,
            evidence: s.at(c, ['lifecycle', hookName, 'sleep']),
            fix: `Use \`exec: {command: [sleep, "${String(get(get(h, 'sleep'), 'seconds') ?? 5)}"]}\` until the cluster runs 1.29+.`,
          });
        }
      }
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
        for (const k of unknownKeys(get(c.spec, probe), PROBE)) emit(c, [probe], k, get(get(c.spec, probe), k));
      }
    }
    // values.global.proxy.lifecycle is copied into the proxy as written
    const lc = s.proxy ? undefined : get(get(get(s.settings.values, 'global'), 'proxy'), 'lifecycle');
    for (const k of unknownKeys(lc, LIFECYCLE)) {
      report({
        container: null,
        message: `values global.proxy.lifecycle.${k} is not a Kubernetes field; the injected proxy ignores it.`,
        evidence: s.settings.valueEvidence(['global', 'proxy', 'lifecycle', k]) ?? { path: `values global.proxy.lifecycle.${k}` },
        fix: k === 'type' ? sidecarTypeFix(s) : `Remove \`${k}\`.`,
      });
    }
  },
};
