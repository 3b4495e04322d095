// k8s.io/api/core/v1 types that injection templates and Istio's template functions touch, with the Go
// field names, json tags and omitempty flags of the Kubernetes API (current releases). Package name "v1".
// Deeply nested, rarely templated parts (affinity terms, topology spread, most volume sources) are held
// as interface{} data: field access on them works like on maps, not on structs.
//
// Mirrors: k8s.io/api core/v1/types.go
// Proven by: test/vectors/istio/typed.jsonl, test/istio/pointers.test.ts

import { T, MAP_STRING_STRING, SLICE_STRING, ptrTo, sliceOf, type GoType } from '../go/reflect/value.js';
import { field, namedComposite, structType } from '../go/encoding/json/structs.js';
import { IntOrString } from './intstr.js';
import { ObjectMeta, TypeMeta, Time } from './meta.js';
import { Quantity } from './resource.js';

const str = T.string;
const i32 = T.int32;
const i64 = T.int64;
const pBool = ptrTo(T.bool);
const pI64 = ptrTo(T.int64);
const pI32 = ptrTo(T.int32);
const pStr = ptrTo(T.string);
const iface = T.iface;

export const ResourceList: GoType = namedComposite('map', 'v1.ResourceList', Quantity, T.string);

export const ContainerPort = structType('v1.ContainerPort', [
  field('Name', 'name,omitempty', str),
  field('HostPort', 'hostPort,omitempty', i32),
  field('ContainerPort', 'containerPort', i32),
  field('Protocol', 'protocol,omitempty', str),
  field('HostIP', 'hostIP,omitempty', str),
]);

export const LocalObjectReference = structType('v1.LocalObjectReference', [field('Name', 'name,omitempty', str)]);

export const ObjectFieldSelector = structType('v1.ObjectFieldSelector', [
  field('APIVersion', 'apiVersion,omitempty', str),
  field('FieldPath', 'fieldPath', str),
]);

export const ResourceFieldSelector = structType('v1.ResourceFieldSelector', [
  field('ContainerName', 'containerName,omitempty', str),
  field('Resource', 'resource', str),
  field('Divisor', 'divisor,omitempty', Quantity),
]);

export const ConfigMapKeySelector = structType('v1.ConfigMapKeySelector', [
  field('LocalObjectReference', '', LocalObjectReference, { embedded: true }),
  field('Key', 'key', str),
  field('Optional', 'optional,omitempty', pBool),
]);

export const SecretKeySelector = structType('v1.SecretKeySelector', [
  field('LocalObjectReference', '', LocalObjectReference, { embedded: true }),
  field('Key', 'key', str),
  field('Optional', 'optional,omitempty', pBool),
]);

export const EnvVarSource = structType('v1.EnvVarSource', [
  field('FieldRef', 'fieldRef,omitempty', ptrTo(ObjectFieldSelector)),
  field('ResourceFieldRef', 'resourceFieldRef,omitempty', ptrTo(ResourceFieldSelector)),
  field('ConfigMapKeyRef', 'configMapKeyRef,omitempty', ptrTo(ConfigMapKeySelector)),
  field('SecretKeyRef', 'secretKeyRef,omitempty', ptrTo(SecretKeySelector)),
]);

export const EnvVar = structType('v1.EnvVar', [
  field('Name', 'name', str),
  field('Value', 'value,omitempty', str),
  field('ValueFrom', 'valueFrom,omitempty', ptrTo(EnvVarSource)),
]);

export const ConfigMapEnvSource = structType('v1.ConfigMapEnvSource', [
  field('LocalObjectReference', '', LocalObjectReference, { embedded: true }),
  field('Optional', 'optional,omitempty', pBool),
]);

export const SecretEnvSource = structType('v1.SecretEnvSource', [
  field('LocalObjectReference', '', LocalObjectReference, { embedded: true }),
  field('Optional', 'optional,omitempty', pBool),
]);

export const EnvFromSource = structType('v1.EnvFromSource', [
  field('Prefix', 'prefix,omitempty', str),
  field('ConfigMapRef', 'configMapRef,omitempty', ptrTo(ConfigMapEnvSource)),
  field('SecretRef', 'secretRef,omitempty', ptrTo(SecretEnvSource)),
]);

export const ResourceClaim = structType('v1.ResourceClaim', [
  field('Name', 'name', str),
  field('Request', 'request,omitempty', str),
]);

export const ResourceRequirements = structType('v1.ResourceRequirements', [
  field('Limits', 'limits,omitempty', ResourceList),
  field('Requests', 'requests,omitempty', ResourceList),
  field('Claims', 'claims,omitempty', sliceOf(ResourceClaim)),
]);

export const ContainerResizePolicy = structType('v1.ContainerResizePolicy', [
  field('ResourceName', 'resourceName', str),
  field('RestartPolicy', 'restartPolicy', str),
]);

export const VolumeMount = structType('v1.VolumeMount', [
  field('Name', 'name', str),
  field('ReadOnly', 'readOnly,omitempty', T.bool),
  field('RecursiveReadOnly', 'recursiveReadOnly,omitempty', pStr),
  field('MountPath', 'mountPath', str),
  field('SubPath', 'subPath,omitempty', str),
  field('MountPropagation', 'mountPropagation,omitempty', pStr),
  field('SubPathExpr', 'subPathExpr,omitempty', str),
]);

export const VolumeDevice = structType('v1.VolumeDevice', [
  field('Name', 'name', str),
  field('DevicePath', 'devicePath', str),
]);

export const ExecAction = structType('v1.ExecAction', [field('Command', 'command,omitempty', SLICE_STRING)]);

export const HTTPHeader = structType('v1.HTTPHeader', [field('Name', 'name', str), field('Value', 'value', str)]);

export const HTTPGetAction = structType('v1.HTTPGetAction', [
  field('Path', 'path,omitempty', str),
  field('Port', 'port', IntOrString),
  field('Host', 'host,omitempty', str),
  field('Scheme', 'scheme,omitempty', str),
  field('HTTPHeaders', 'httpHeaders,omitempty', sliceOf(HTTPHeader)),
]);

export const TCPSocketAction = structType('v1.TCPSocketAction', [
  field('Port', 'port', IntOrString),
  field('Host', 'host,omitempty', str),
]);

export const GRPCAction = structType('v1.GRPCAction', [
  field('Port', 'port', i32),
  field('Service', 'service', pStr),
]);

export const SleepAction = structType('v1.SleepAction', [field('Seconds', 'seconds', i64)]);

export const ProbeHandler = structType('v1.ProbeHandler', [
  field('Exec', 'exec,omitempty', ptrTo(ExecAction)),
  field('HTTPGet', 'httpGet,omitempty', ptrTo(HTTPGetAction)),
  field('TCPSocket', 'tcpSocket,omitempty', ptrTo(TCPSocketAction)),
  field('GRPC', 'grpc,omitempty', ptrTo(GRPCAction)),
]);

export const Probe = structType('v1.Probe', [
  field('ProbeHandler', '', ProbeHandler, { embedded: true }),
  field('InitialDelaySeconds', 'initialDelaySeconds,omitempty', i32),
  field('TimeoutSeconds', 'timeoutSeconds,omitempty', i32),
  field('PeriodSeconds', 'periodSeconds,omitempty', i32),
  field('SuccessThreshold', 'successThreshold,omitempty', i32),
  field('FailureThreshold', 'failureThreshold,omitempty', i32),
  field('TerminationGracePeriodSeconds', 'terminationGracePeriodSeconds,omitempty', pI64),
]);

export const LifecycleHandler = structType('v1.LifecycleHandler', [
  field('Exec', 'exec,omitempty', ptrTo(ExecAction)),
  field('HTTPGet', 'httpGet,omitempty', ptrTo(HTTPGetAction)),
  field('TCPSocket', 'tcpSocket,omitempty', ptrTo(TCPSocketAction)),
  field('Sleep', 'sleep,omitempty', ptrTo(SleepAction)),
]);

export const Lifecycle = structType('v1.Lifecycle', [
  field('PostStart', 'postStart,omitempty', ptrTo(LifecycleHandler)),
  field('PreStop', 'preStop,omitempty', ptrTo(LifecycleHandler)),
  field('StopSignal', 'stopSignal,omitempty', pStr),
]);

export const Capability: GoType = T.string; // v1.Capability, a named string
export const CapabilityList: GoType = namedComposite('slice', '[]v1.Capability', Capability);

export const Capabilities = structType('v1.Capabilities', [
  field('Add', 'add,omitempty', CapabilityList),
  field('Drop', 'drop,omitempty', CapabilityList),
]);

export const SELinuxOptions = structType('v1.SELinuxOptions', [
  field('User', 'user,omitempty', str),
  field('Role', 'role,omitempty', str),
  field('Type', 'type,omitempty', str),
  field('Level', 'level,omitempty', str),
]);

export const WindowsSecurityContextOptions = structType('v1.WindowsSecurityContextOptions', [
  field('GMSACredentialSpecName', 'gmsaCredentialSpecName,omitempty', pStr),
  field('GMSACredentialSpec', 'gmsaCredentialSpec,omitempty', pStr),
  field('RunAsUserName', 'runAsUserName,omitempty', pStr),
  field('HostProcess', 'hostProcess,omitempty', pBool),
]);

export const SeccompProfile = structType('v1.SeccompProfile', [
  field('Type', 'type', str),
  field('LocalhostProfile', 'localhostProfile,omitempty', pStr),
]);

export const AppArmorProfile = structType('v1.AppArmorProfile', [
  field('Type', 'type', str),
  field('LocalhostProfile', 'localhostProfile,omitempty', pStr),
]);

export const SecurityContext = structType('v1.SecurityContext', [
  field('Capabilities', 'capabilities,omitempty', ptrTo(Capabilities)),
  field('Privileged', 'privileged,omitempty', pBool),
  field('SELinuxOptions', 'seLinuxOptions,omitempty', ptrTo(SELinuxOptions)),
  field('WindowsOptions', 'windowsOptions,omitempty', ptrTo(WindowsSecurityContextOptions)),
  field('RunAsUser', 'runAsUser,omitempty', pI64),
  field('RunAsGroup', 'runAsGroup,omitempty', pI64),
  field('RunAsNonRoot', 'runAsNonRoot,omitempty', pBool),
  field('ReadOnlyRootFilesystem', 'readOnlyRootFilesystem,omitempty', pBool),
  field('AllowPrivilegeEscalation', 'allowPrivilegeEscalation,omitempty', pBool),
  field('ProcMount', 'procMount,omitempty', pStr),
  field('SeccompProfile', 'seccompProfile,omitempty', ptrTo(SeccompProfile)),
  field('AppArmorProfile', 'appArmorProfile,omitempty', ptrTo(AppArmorProfile)),
]);

export const Sysctl = structType('v1.Sysctl', [field('Name', 'name', str), field('Value', 'value', str)]);

export const PodSecurityContext = structType('v1.PodSecurityContext', [
  field('SELinuxOptions', 'seLinuxOptions,omitempty', ptrTo(SELinuxOptions)),
  field('WindowsOptions', 'windowsOptions,omitempty', ptrTo(WindowsSecurityContextOptions)),
  field('RunAsUser', 'runAsUser,omitempty', pI64),
  field('RunAsGroup', 'runAsGroup,omitempty', pI64),
  field('RunAsNonRoot', 'runAsNonRoot,omitempty', pBool),
  field('SupplementalGroups', 'supplementalGroups,omitempty', sliceOf(T.int64)),
  field('SupplementalGroupsPolicy', 'supplementalGroupsPolicy,omitempty', pStr),
  field('FSGroup', 'fsGroup,omitempty', pI64),
  field('Sysctls', 'sysctls,omitempty', sliceOf(Sysctl)),
  field('FSGroupChangePolicy', 'fsGroupChangePolicy,omitempty', pStr),
  field('SeccompProfile', 'seccompProfile,omitempty', ptrTo(SeccompProfile)),
  field('AppArmorProfile', 'appArmorProfile,omitempty', ptrTo(AppArmorProfile)),
  field('SELinuxChangePolicy', 'seLinuxChangePolicy,omitempty', pStr),
]);

export const Container = structType('v1.Container', [
  field('Name', 'name', str),
  field('Image', 'image,omitempty', str),
  field('Command', 'command,omitempty', SLICE_STRING),
  field('Args', 'args,omitempty', SLICE_STRING),
  field('WorkingDir', 'workingDir,omitempty', str),
  field('Ports', 'ports,omitempty', sliceOf(ContainerPort)),
  field('EnvFrom', 'envFrom,omitempty', sliceOf(EnvFromSource)),
  field('Env', 'env,omitempty', sliceOf(EnvVar)),
  field('Resources', 'resources,omitempty', ResourceRequirements),
  field('ResizePolicy', 'resizePolicy,omitempty', sliceOf(ContainerResizePolicy)),
  field('RestartPolicy', 'restartPolicy,omitempty', pStr),
  field('VolumeMounts', 'volumeMounts,omitempty', sliceOf(VolumeMount)),
  field('VolumeDevices', 'volumeDevices,omitempty', sliceOf(VolumeDevice)),
  field('LivenessProbe', 'livenessProbe,omitempty', ptrTo(Probe)),
  field('ReadinessProbe', 'readinessProbe,omitempty', ptrTo(Probe)),
  field('StartupProbe', 'startupProbe,omitempty', ptrTo(Probe)),
  field('Lifecycle', 'lifecycle,omitempty', ptrTo(Lifecycle)),
  field('TerminationMessagePath', 'terminationMessagePath,omitempty', str),
  field('TerminationMessagePolicy', 'terminationMessagePolicy,omitempty', str),
  field('ImagePullPolicy', 'imagePullPolicy,omitempty', str),
  field('SecurityContext', 'securityContext,omitempty', ptrTo(SecurityContext)),
  field('Stdin', 'stdin,omitempty', T.bool),
  field('StdinOnce', 'stdinOnce,omitempty', T.bool),
  field('TTY', 'tty,omitempty', T.bool),
]);

export const KeyToPath = structType('v1.KeyToPath', [
  field('Key', 'key', str),
  field('Path', 'path', str),
  field('Mode', 'mode,omitempty', pI32),
]);

export const HostPathVolumeSource = structType('v1.HostPathVolumeSource', [
  field('Path', 'path', str),
  field('Type', 'type,omitempty', pStr),
]);

export const EmptyDirVolumeSource = structType('v1.EmptyDirVolumeSource', [
  field('Medium', 'medium,omitempty', str),
  field('SizeLimit', 'sizeLimit,omitempty', ptrTo(Quantity)),
]);

export const SecretVolumeSource = structType('v1.SecretVolumeSource', [
  field('SecretName', 'secretName,omitempty', str),
  field('Items', 'items,omitempty', sliceOf(KeyToPath)),
  field('DefaultMode', 'defaultMode,omitempty', pI32),
  field('Optional', 'optional,omitempty', pBool),
]);

export const ConfigMapVolumeSource = structType('v1.ConfigMapVolumeSource', [
  field('LocalObjectReference', '', LocalObjectReference, { embedded: true }),
  field('Items', 'items,omitempty', sliceOf(KeyToPath)),
  field('DefaultMode', 'defaultMode,omitempty', pI32),
  field('Optional', 'optional,omitempty', pBool),
]);

export const PersistentVolumeClaimVolumeSource = structType('v1.PersistentVolumeClaimVolumeSource', [
  field('ClaimName', 'claimName', str),
  field('ReadOnly', 'readOnly,omitempty', T.bool),
]);

export const DownwardAPIVolumeFile = structType('v1.DownwardAPIVolumeFile', [
  field('Path', 'path', str),
  field('FieldRef', 'fieldRef,omitempty', ptrTo(ObjectFieldSelector)),
  field('ResourceFieldRef', 'resourceFieldRef,omitempty', ptrTo(ResourceFieldSelector)),
  field('Mode', 'mode,omitempty', pI32),
]);

export const DownwardAPIVolumeSource = structType('v1.DownwardAPIVolumeSource', [
  field('Items', 'items,omitempty', sliceOf(DownwardAPIVolumeFile)),
  field('DefaultMode', 'defaultMode,omitempty', pI32),
]);

export const ServiceAccountTokenProjection = structType('v1.ServiceAccountTokenProjection', [
  field('Audience', 'audience,omitempty', str),
  field('ExpirationSeconds', 'expirationSeconds,omitempty', pI64),
  field('Path', 'path', str),
]);

export const VolumeProjection = structType('v1.VolumeProjection', [
  field('Secret', 'secret,omitempty', iface),
  field('DownwardAPI', 'downwardAPI,omitempty', iface),
  field('ConfigMap', 'configMap,omitempty', iface),
  field('ServiceAccountToken', 'serviceAccountToken,omitempty', ptrTo(ServiceAccountTokenProjection)),
  field('ClusterTrustBundle', 'clusterTrustBundle,omitempty', iface),
  field('PodCertificate', 'podCertificate,omitempty', iface),
]);

export const ProjectedVolumeSource = structType('v1.ProjectedVolumeSource', [
  field('Sources', 'sources', sliceOf(VolumeProjection)),
  field('DefaultMode', 'defaultMode,omitempty', pI32),
]);

export const CSIVolumeSource = structType('v1.CSIVolumeSource', [
  field('Driver', 'driver', str),
  field('ReadOnly', 'readOnly,omitempty', pBool),
  field('FSType', 'fsType,omitempty', pStr),
  field('VolumeAttributes', 'volumeAttributes,omitempty', MAP_STRING_STRING),
  field('NodePublishSecretRef', 'nodePublishSecretRef,omitempty', ptrTo(LocalObjectReference)),
]);

// The remaining sources keep their json names; their contents are plain data.
const OTHER_SOURCES: [string, string][] = [
  ['GCEPersistentDisk', 'gcePersistentDisk'], ['AWSElasticBlockStore', 'awsElasticBlockStore'], ['GitRepo', 'gitRepo'],
  ['NFS', 'nfs'], ['ISCSI', 'iscsi'], ['Glusterfs', 'glusterfs'], ['RBD', 'rbd'], ['FlexVolume', 'flexVolume'],
  ['Cinder', 'cinder'], ['CephFS', 'cephfs'], ['Flocker', 'flocker'], ['FC', 'fc'], ['AzureFile', 'azureFile'],
  ['VsphereVolume', 'vsphereVolume'], ['Quobyte', 'quobyte'], ['AzureDisk', 'azureDisk'],
  ['PhotonPersistentDisk', 'photonPersistentDisk'], ['PortworxVolume', 'portworxVolume'], ['ScaleIO', 'scaleIO'],
  ['StorageOS', 'storageos'], ['Ephemeral', 'ephemeral'], ['Image', 'image'],
];

export const VolumeSource = structType('v1.VolumeSource', [
  field('HostPath', 'hostPath,omitempty', ptrTo(HostPathVolumeSource)),
  field('EmptyDir', 'emptyDir,omitempty', ptrTo(EmptyDirVolumeSource)),
  field('Secret', 'secret,omitempty', ptrTo(SecretVolumeSource)),
  field('PersistentVolumeClaim', 'persistentVolumeClaim,omitempty', ptrTo(PersistentVolumeClaimVolumeSource)),
  field('DownwardAPI', 'downwardAPI,omitempty', ptrTo(DownwardAPIVolumeSource)),
  field('ConfigMap', 'configMap,omitempty', ptrTo(ConfigMapVolumeSource)),
  field('Projected', 'projected,omitempty', ptrTo(ProjectedVolumeSource)),
  field('CSI', 'csi,omitempty', ptrTo(CSIVolumeSource)),
  ...OTHER_SOURCES.map(([g, j]) => field(g, `${j},omitempty`, iface)),
]);

export const Volume = structType('v1.Volume', [
  field('Name', 'name', str),
  field('VolumeSource', '', VolumeSource, { embedded: true }),
]);

export const Toleration = structType('v1.Toleration', [
  field('Key', 'key,omitempty', str),
  field('Operator', 'operator,omitempty', str),
  field('Value', 'value,omitempty', str),
  field('Effect', 'effect,omitempty', str),
  field('TolerationSeconds', 'tolerationSeconds,omitempty', pI64),
]);

export const Affinity = structType('v1.Affinity', [
  field('NodeAffinity', 'nodeAffinity,omitempty', iface),
  field('PodAffinity', 'podAffinity,omitempty', iface),
  field('PodAntiAffinity', 'podAntiAffinity,omitempty', iface),
]);

export const HostAlias = structType('v1.HostAlias', [
  field('IP', 'ip', str),
  field('Hostnames', 'hostnames,omitempty', SLICE_STRING),
]);

export const PodDNSConfigOption = structType('v1.PodDNSConfigOption', [
  field('Name', 'name,omitempty', str),
  field('Value', 'value,omitempty', pStr),
]);

export const PodDNSConfig = structType('v1.PodDNSConfig', [
  field('Nameservers', 'nameservers,omitempty', SLICE_STRING),
  field('Searches', 'searches,omitempty', SLICE_STRING),
  field('Options', 'options,omitempty', sliceOf(PodDNSConfigOption)),
]);

export const PodReadinessGate = structType('v1.PodReadinessGate', [field('ConditionType', 'conditionType', str)]);
export const PodOS = structType('v1.PodOS', [field('Name', 'name', str)]);
export const PodSchedulingGate = structType('v1.PodSchedulingGate', [field('Name', 'name', str)]);

// EphemeralContainer embeds EphemeralContainerCommon (same fields as Container) inline.
export const EphemeralContainer = structType('v1.EphemeralContainer', [
  field('EphemeralContainerCommon', '', structType('v1.EphemeralContainerCommon', Container.fields!), { embedded: true }),
  field('TargetContainerName', 'targetContainerName,omitempty', str),
]);

export const PodSpec = structType('v1.PodSpec', [
  field('Volumes', 'volumes,omitempty', sliceOf(Volume)),
  field('InitContainers', 'initContainers,omitempty', sliceOf(Container)),
  field('Containers', 'containers', sliceOf(Container)),
  field('EphemeralContainers', 'ephemeralContainers,omitempty', sliceOf(EphemeralContainer)),
  field('RestartPolicy', 'restartPolicy,omitempty', str),
  field('TerminationGracePeriodSeconds', 'terminationGracePeriodSeconds,omitempty', pI64),
  field('ActiveDeadlineSeconds', 'activeDeadlineSeconds,omitempty', pI64),
  field('DNSPolicy', 'dnsPolicy,omitempty', str),
  field('NodeSelector', 'nodeSelector,omitempty', MAP_STRING_STRING),
  field('ServiceAccountName', 'serviceAccountName,omitempty', str),
  field('DeprecatedServiceAccount', 'serviceAccount,omitempty', str),
  field('AutomountServiceAccountToken', 'automountServiceAccountToken,omitempty', pBool),
  field('NodeName', 'nodeName,omitempty', str),
  field('HostNetwork', 'hostNetwork,omitempty', T.bool),
  field('HostPID', 'hostPID,omitempty', T.bool),
  field('HostIPC', 'hostIPC,omitempty', T.bool),
  field('ShareProcessNamespace', 'shareProcessNamespace,omitempty', pBool),
  field('SecurityContext', 'securityContext,omitempty', ptrTo(PodSecurityContext)),
  field('ImagePullSecrets', 'imagePullSecrets,omitempty', sliceOf(LocalObjectReference)),
  field('Hostname', 'hostname,omitempty', str),
  field('Subdomain', 'subdomain,omitempty', str),
  field('Affinity', 'affinity,omitempty', ptrTo(Affinity)),
  field('SchedulerName', 'schedulerName,omitempty', str),
  field('Tolerations', 'tolerations,omitempty', sliceOf(Toleration)),
  field('HostAliases', 'hostAliases,omitempty', sliceOf(HostAlias)),
  field('PriorityClassName', 'priorityClassName,omitempty', str),
  field('Priority', 'priority,omitempty', pI32),
  field('DNSConfig', 'dnsConfig,omitempty', ptrTo(PodDNSConfig)),
  field('ReadinessGates', 'readinessGates,omitempty', sliceOf(PodReadinessGate)),
  field('RuntimeClassName', 'runtimeClassName,omitempty', pStr),
  field('EnableServiceLinks', 'enableServiceLinks,omitempty', pBool),
  field('PreemptionPolicy', 'preemptionPolicy,omitempty', pStr),
  field('Overhead', 'overhead,omitempty', ResourceList),
  field('TopologySpreadConstraints', 'topologySpreadConstraints,omitempty', sliceOf(iface)),
  field('SetHostnameAsFQDN', 'setHostnameAsFQDN,omitempty', pBool),
  field('OS', 'os,omitempty', ptrTo(PodOS)),
  field('HostUsers', 'hostUsers,omitempty', pBool),
  field('SchedulingGates', 'schedulingGates,omitempty', sliceOf(PodSchedulingGate)),
  field('ResourceClaims', 'resourceClaims,omitempty', sliceOf(iface)),
  field('Resources', 'resources,omitempty', ptrTo(ResourceRequirements)),
  field('HostnameOverride', 'hostnameOverride,omitempty', pStr),
]);

export const PodStatus = structType('v1.PodStatus', [
  field('ObservedGeneration', 'observedGeneration,omitempty', i64),
  field('Phase', 'phase,omitempty', str),
  field('Conditions', 'conditions,omitempty', sliceOf(iface)),
  field('Message', 'message,omitempty', str),
  field('Reason', 'reason,omitempty', str),
  field('NominatedNodeName', 'nominatedNodeName,omitempty', str),
  field('HostIP', 'hostIP,omitempty', str),
  field('HostIPs', 'hostIPs,omitempty', sliceOf(iface)),
  field('PodIP', 'podIP,omitempty', str),
  field('PodIPs', 'podIPs,omitempty', sliceOf(iface)),
  field('StartTime', 'startTime,omitempty', ptrTo(Time)),
  field('InitContainerStatuses', 'initContainerStatuses,omitempty', sliceOf(iface)),
  field('ContainerStatuses', 'containerStatuses,omitempty', sliceOf(iface)),
  field('QOSClass', 'qosClass,omitempty', str),
  field('EphemeralContainerStatuses', 'ephemeralContainerStatuses,omitempty', sliceOf(iface)),
  field('Resize', 'resize,omitempty', str),
  field('ResourceClaimStatuses', 'resourceClaimStatuses,omitempty', sliceOf(iface)),
]);

export const Pod = structType('v1.Pod', [
  field('TypeMeta', '', TypeMeta, { embedded: true }),
  field('ObjectMeta', 'metadata,omitempty', ObjectMeta, { embedded: true }),
  field('Spec', 'spec,omitempty', PodSpec),
  field('Status', 'status,omitempty', PodStatus),
]);

export const PodTemplateSpec = structType('v1.PodTemplateSpec', [
  field('ObjectMeta', 'metadata,omitempty', ObjectMeta, { embedded: true }),
  field('Spec', 'spec,omitempty', PodSpec),
]);

export const Namespace = structType('v1.Namespace', [
  field('TypeMeta', '', TypeMeta, { embedded: true }),
  field('ObjectMeta', 'metadata,omitempty', ObjectMeta, { embedded: true }),
  field('Spec', 'spec,omitempty', iface),
  field('Status', 'status,omitempty', iface),
]);

