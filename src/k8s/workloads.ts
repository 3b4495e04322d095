// The workload kinds `istioctl kube-inject` decodes into typed Go structs (its injectScheme), with the
// json tags of the Kubernetes API, so that marshalling them back writes what istioctl writes: the
// zero values of fields without omitempty (`status: {}`, `strategy: {}`, `replicas: 0`,
// `creationTimestamp: null`) and none of the omitempty ones the input spelled out (`paused: false`).
// Parts no injection touches (volume claim templates, rollout parameters, conditions) are interface{}
// data: kept as given.
//
// Mirrors: k8s.io/api apps/v1/types.go, batch/v1/types.go, core/v1/types.go (Pod, ReplicationController);
//          github.com/openshift/api apps/v1/types.go (DeploymentConfig);
//          istio.io/istio pkg/kube/inject/inject.go (injectScheme)
// Proven by: test/istio/kube-inject.test.ts, test/istio/inject-conformance.test.ts

import { T, MAP_STRING_STRING, SLICE_STRING, ptrTo, sliceOf, type GoType, type StructField } from '../go/reflect/value.js';
import { decodeGo, field, structType } from '../go/encoding/json/structs.js';
import { IntOrString } from './intstr.js';
import { LabelSelector, ObjectMeta, TypeMeta } from './meta.js';
import { PodSpec, PodStatus, PodTemplateSpec, ResourceRequirements } from './core.js';

const i32 = T.int32;
const i64 = T.int64;
const iface = T.iface;
const pI32 = ptrTo(T.int32);
const pI64 = ptrTo(T.int64);
const pBool = ptrTo(T.bool);
const pStr = ptrTo(T.string);

const head = (): StructField[] => [field('TypeMeta', '', TypeMeta, { embedded: true }), field('ObjectMeta', 'metadata,omitempty', ObjectMeta, { embedded: true })];

function kind(name: string, spec: GoType, status: GoType, statusTag = 'status,omitempty'): GoType {
  return structType(name, [...head(), field('Spec', 'spec,omitempty', spec), field('Status', statusTag, status)]);
}

/** An all-omitempty status: `status: {}` whatever the input said. */
const emptyStatus = (name: string): GoType => structType(name, []);

const RollingUpdate = (name: string): GoType =>
  structType(name, [field('MaxUnavailable', 'maxUnavailable,omitempty', ptrTo(IntOrString)), field('MaxSurge', 'maxSurge,omitempty', ptrTo(IntOrString))]);

const DeploymentSpec = structType('v1.DeploymentSpec', [
  field('Replicas', 'replicas,omitempty', pI32),
  field('Selector', 'selector', ptrTo(LabelSelector)),
  field('Template', 'template', PodTemplateSpec),
  field('Strategy', 'strategy,omitempty', structType('v1.DeploymentStrategy', [field('Type', 'type,omitempty', T.string), field('RollingUpdate', 'rollingUpdate,omitempty', ptrTo(RollingUpdate('v1.RollingUpdateDeployment')))])),
  field('MinReadySeconds', 'minReadySeconds,omitempty', i32),
  field('RevisionHistoryLimit', 'revisionHistoryLimit,omitempty', pI32),
  field('Paused', 'paused,omitempty', T.bool),
  field('ProgressDeadlineSeconds', 'progressDeadlineSeconds,omitempty', pI32),
]);

function statefulSetSpec(kube: number): GoType {
  return structType('v1.StatefulSetSpec', [
    field('Replicas', 'replicas,omitempty', pI32),
    field('Selector', 'selector', ptrTo(LabelSelector)),
    field('Template', 'template', PodTemplateSpec),
    field('VolumeClaimTemplates', 'volumeClaimTemplates,omitempty', sliceOf(iface)),
    // optional (omitempty) from Kubernetes 1.32
    field('ServiceName', kube >= 32 ? 'serviceName,omitempty' : 'serviceName', T.string),
    field('PodManagementPolicy', 'podManagementPolicy,omitempty', T.string),
    field('UpdateStrategy', 'updateStrategy,omitempty', structType('v1.StatefulSetUpdateStrategy', [field('Type', 'type,omitempty', T.string), field('RollingUpdate', 'rollingUpdate,omitempty', ptrTo(iface))])),
    field('RevisionHistoryLimit', 'revisionHistoryLimit,omitempty', pI32),
    field('MinReadySeconds', 'minReadySeconds,omitempty', i32),
    field('PersistentVolumeClaimRetentionPolicy', 'persistentVolumeClaimRetentionPolicy,omitempty', ptrTo(iface)),
    field('Ordinals', 'ordinals,omitempty', ptrTo(iface)),
  ]);
}

function statefulSetStatus(kube: number): GoType {
  return structType('v1.StatefulSetStatus', [
    field('ObservedGeneration', 'observedGeneration,omitempty', i64),
    field('Replicas', 'replicas', i32),
    field('ReadyReplicas', 'readyReplicas,omitempty', i32),
    field('CurrentReplicas', 'currentReplicas,omitempty', i32),
    field('UpdatedReplicas', 'updatedReplicas,omitempty', i32),
    field('CurrentRevision', 'currentRevision,omitempty', T.string),
    field('UpdateRevision', 'updateRevision,omitempty', T.string),
    field('CollisionCount', 'collisionCount,omitempty', pI32),
    field('Conditions', 'conditions,omitempty', sliceOf(iface)),
    // a required field from Kubernetes 1.23 (omitempty when it came in 1.22)
    field('AvailableReplicas', kube >= 23 ? 'availableReplicas' : 'availableReplicas,omitempty', i32),
  ]);
}

const DaemonSetSpec = structType('v1.DaemonSetSpec', [
  field('Selector', 'selector', ptrTo(LabelSelector)),
  field('Template', 'template', PodTemplateSpec),
  field('UpdateStrategy', 'updateStrategy,omitempty', structType('v1.DaemonSetUpdateStrategy', [field('Type', 'type,omitempty', T.string), field('RollingUpdate', 'rollingUpdate,omitempty', ptrTo(RollingUpdate('v1.RollingUpdateDaemonSet')))])),
  field('MinReadySeconds', 'minReadySeconds,omitempty', i32),
  field('RevisionHistoryLimit', 'revisionHistoryLimit,omitempty', pI32),
]);

const DaemonSetStatus = structType('v1.DaemonSetStatus', [
  field('CurrentNumberScheduled', 'currentNumberScheduled', i32),
  field('NumberMisscheduled', 'numberMisscheduled', i32),
  field('DesiredNumberScheduled', 'desiredNumberScheduled', i32),
  field('NumberReady', 'numberReady', i32),
  field('ObservedGeneration', 'observedGeneration,omitempty', i64),
  field('UpdatedNumberScheduled', 'updatedNumberScheduled,omitempty', i32),
  field('NumberAvailable', 'numberAvailable,omitempty', i32),
  field('NumberUnavailable', 'numberUnavailable,omitempty', i32),
  field('CollisionCount', 'collisionCount,omitempty', pI32),
  field('Conditions', 'conditions,omitempty', sliceOf(iface)),
]);

const ReplicaSetSpec = structType('v1.ReplicaSetSpec', [
  field('Replicas', 'replicas,omitempty', pI32),
  field('MinReadySeconds', 'minReadySeconds,omitempty', i32),
  field('Selector', 'selector', ptrTo(LabelSelector)),
  field('Template', 'template,omitempty', PodTemplateSpec),
]);

const replicasStatus = (name: string): GoType =>
  structType(name, [
    field('Replicas', 'replicas', i32),
    field('FullyLabeledReplicas', 'fullyLabeledReplicas,omitempty', i32),
    field('ReadyReplicas', 'readyReplicas,omitempty', i32),
    field('AvailableReplicas', 'availableReplicas,omitempty', i32),
    field('ObservedGeneration', 'observedGeneration,omitempty', i64),
    field('Conditions', 'conditions,omitempty', sliceOf(iface)),
  ]);

const ReplicationControllerSpec = structType('v1.ReplicationControllerSpec', [
  field('Replicas', 'replicas,omitempty', pI32),
  field('MinReadySeconds', 'minReadySeconds,omitempty', i32),
  field('Selector', 'selector,omitempty', MAP_STRING_STRING),
  field('Template', 'template,omitempty', ptrTo(PodTemplateSpec)),
]);

const JobSpec = structType('v1.JobSpec', [
  field('Parallelism', 'parallelism,omitempty', pI32),
  field('Completions', 'completions,omitempty', pI32),
  field('ActiveDeadlineSeconds', 'activeDeadlineSeconds,omitempty', pI64),
  field('PodFailurePolicy', 'podFailurePolicy,omitempty', ptrTo(iface)),
  field('SuccessPolicy', 'successPolicy,omitempty', ptrTo(iface)),
  field('BackoffLimit', 'backoffLimit,omitempty', pI32),
  field('BackoffLimitPerIndex', 'backoffLimitPerIndex,omitempty', pI32),
  field('MaxFailedIndexes', 'maxFailedIndexes,omitempty', pI32),
  field('Selector', 'selector,omitempty', ptrTo(LabelSelector)),
  field('ManualSelector', 'manualSelector,omitempty', pBool),
  field('Template', 'template', PodTemplateSpec),
  field('TTLSecondsAfterFinished', 'ttlSecondsAfterFinished,omitempty', pI32),
  field('CompletionMode', 'completionMode,omitempty', pStr),
  field('Suspend', 'suspend,omitempty', pBool),
  field('PodReplacementPolicy', 'podReplacementPolicy,omitempty', pStr),
  field('ManagedBy', 'managedBy,omitempty', pStr),
]);

const CronJobSpec = structType('v1.CronJobSpec', [
  field('Schedule', 'schedule', T.string),
  field('TimeZone', 'timeZone,omitempty', pStr),
  field('StartingDeadlineSeconds', 'startingDeadlineSeconds,omitempty', pI64),
  field('ConcurrencyPolicy', 'concurrencyPolicy,omitempty', T.string),
  field('Suspend', 'suspend,omitempty', pBool),
  field('JobTemplate', 'jobTemplate', structType('v1.JobTemplateSpec', [field('ObjectMeta', 'metadata,omitempty', ObjectMeta, { embedded: true }), field('Spec', 'spec,omitempty', JobSpec)])),
  field('SuccessfulJobsHistoryLimit', 'successfulJobsHistoryLimit,omitempty', pI32),
  field('FailedJobsHistoryLimit', 'failedJobsHistoryLimit,omitempty', pI32),
]);

// github.com/openshift/api apps/v1
const ObjectReference = structType('v1.ObjectReference', [
  field('Kind', 'kind,omitempty', T.string),
  field('Namespace', 'namespace,omitempty', T.string),
  field('Name', 'name,omitempty', T.string),
  field('UID', 'uid,omitempty', T.string),
  field('APIVersion', 'apiVersion,omitempty', T.string),
  field('ResourceVersion', 'resourceVersion,omitempty', T.string),
  field('FieldPath', 'fieldPath,omitempty', T.string),
]);

const DeploymentConfigSpec = structType('v1.DeploymentConfigSpec', [
  field(
    'Strategy',
    'strategy',
    structType('v1.DeploymentStrategy', [
      field('Type', 'type,omitempty', T.string),
      field('CustomParams', 'customParams,omitempty', ptrTo(iface)),
      field('RecreateParams', 'recreateParams,omitempty', ptrTo(iface)),
      field('RollingParams', 'rollingParams,omitempty', ptrTo(iface)),
      field('Resources', 'resources,omitempty', ResourceRequirements),
      field('Labels', 'labels,omitempty', MAP_STRING_STRING),
      field('Annotations', 'annotations,omitempty', MAP_STRING_STRING),
      field('ActiveDeadlineSeconds', 'activeDeadlineSeconds,omitempty', pI64),
    ]),
  ),
  field('MinReadySeconds', 'minReadySeconds,omitempty', i32),
  field(
    'Triggers',
    'triggers',
    sliceOf(
      structType('v1.DeploymentTriggerPolicy', [
        field('Type', 'type,omitempty', T.string),
        field(
          'ImageChangeParams',
          'imageChangeParams,omitempty',
          ptrTo(
            structType('v1.DeploymentTriggerImageChangeParams', [
              field('Automatic', 'automatic,omitempty', T.bool),
              field('ContainerNames', 'containerNames,omitempty', SLICE_STRING),
              field('From', 'from', ObjectReference),
              field('LastTriggeredImage', 'lastTriggeredImage,omitempty', T.string),
            ]),
          ),
        ),
      ]),
    ),
  ),
  field('Replicas', 'replicas', i32),
  field('RevisionHistoryLimit', 'revisionHistoryLimit,omitempty', pI32),
  field('Test', 'test', T.bool),
  field('Paused', 'paused,omitempty', T.bool),
  field('Selector', 'selector,omitempty', MAP_STRING_STRING),
  field('Template', 'template,omitempty', ptrTo(PodTemplateSpec)),
]);

const DeploymentConfigStatus = structType('v1.DeploymentConfigStatus', [
  field('LatestVersion', 'latestVersion', i64),
  field('ObservedGeneration', 'observedGeneration', i64),
  field('Replicas', 'replicas', i32),
  field('UpdatedReplicas', 'updatedReplicas', i32),
  field('AvailableReplicas', 'availableReplicas', i32),
  field('UnavailableReplicas', 'unavailableReplicas', i32),
  field('Details', 'details,omitempty', ptrTo(iface)),
  field('Conditions', 'conditions,omitempty', sliceOf(iface)),
  field('ReadyReplicas', 'readyReplicas,omitempty', i32),
]);

/** The kinds of istioctl's injectScheme, by kind alone: it registers them unversioned, so any apiVersion decodes. */
export const KUBE_INJECT_KINDS = ['ReplicationController', 'Pod', 'Deployment', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob', 'StatefulSet', 'List', 'DeploymentConfig'] as const;

const byKube = new Map<number, Record<string, GoType>>();

/** The Go types of the workload kinds as a release built against Kubernetes 1.`kube` declares them. */
export function workloadTypes(kube: number): Record<string, GoType> {
  let t = byKube.get(kube);
  if (t) return t;
  t = {
    Pod: structType('v1.Pod', [...head(), field('Spec', 'spec,omitempty', PodSpec), field('Status', 'status,omitempty', PodStatus)]),
    Deployment: kind('v1.Deployment', DeploymentSpec, emptyStatus('v1.DeploymentStatus')),
    StatefulSet: kind('v1.StatefulSet', statefulSetSpec(kube), statefulSetStatus(kube)),
    DaemonSet: kind('v1.DaemonSet', DaemonSetSpec, DaemonSetStatus),
    ReplicaSet: kind('v1.ReplicaSet', ReplicaSetSpec, replicasStatus('v1.ReplicaSetStatus')),
    ReplicationController: kind('v1.ReplicationController', ReplicationControllerSpec, replicasStatus('v1.ReplicationControllerStatus')),
    Job: kind('v1.Job', JobSpec, emptyStatus('v1.JobStatus')),
    CronJob: kind('v1.CronJob', CronJobSpec, emptyStatus('v1.CronJobStatus')),
    DeploymentConfig: kind('v1.DeploymentConfig', DeploymentConfigSpec, DeploymentConfigStatus),
  };
  byKube.set(kube, t);
  return t;
}

/** Decode JSON into the kind's Go type (GoJsonError where Go's Unmarshal fails); undefined for other kinds. */
export function decodeWorkload(kindName: string, raw: unknown, kube: number): ReturnType<typeof decodeGo> | undefined {
  const t = workloadTypes(kube)[kindName];
  return t ? decodeGo(t, raw) : undefined;
}
