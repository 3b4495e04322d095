package main

// The "sidecar" data shape of -bench: data decoded into a struct shaped like istiod's
// inject.SidecarTemplateData, so that a real injection template runs through text/template with the
// field paths, methods and types it meets in istiod (typed pod metadata and containers, ProxyConfig
// and MeshConfig as pointers to messages with getters, Values as a map).
//
// Istio's own packages are not available here: these are small stand-ins with the fields the
// injection templates of 1.12 to master read. bench/run.js fills them from the data sidecar-render
// builds for the same workload (bench/lib/real.js).

import (
	"encoding/json"
	"fmt"
)

type sidecarTypeMeta struct{ Kind, APIVersion string }

type sidecarNamespacedName struct{ Name, Namespace string }

type sidecarPodSpec struct {
	Containers         []IstioContainer
	InitContainers     []IstioContainer
	ServiceAccountName string
}

// sidecarBoolValue is shaped like google.protobuf.BoolValue.
type sidecarBoolValue struct{ Value bool }

func (b *sidecarBoolValue) GetValue() bool {
	if b == nil {
		return false
	}
	return b.Value
}

// sidecarInterceptionMode prints its name, as ProxyConfig_InboundInterceptionMode does.
type sidecarInterceptionMode int32

func (m sidecarInterceptionMode) String() string {
	names := []string{"REDIRECT", "TPROXY", "NONE"}
	if int(m) < 0 || int(m) >= len(names) {
		return fmt.Sprint(int32(m))
	}
	return names[m]
}

type sidecarTLSSettings struct{ CaCertificates string }

func (t *sidecarTLSSettings) GetCaCertificates() string {
	if t == nil {
		return ""
	}
	return t.CaCertificates
}

type sidecarTracing struct{ TlsSettings *sidecarTLSSettings }

func (t *sidecarTracing) GetTlsSettings() *sidecarTLSSettings {
	if t == nil {
		return nil
	}
	return t.TlsSettings
}

type sidecarProxyConfig struct {
	ConfigPath                      string                  `json:"configPath,omitempty"`
	BinaryPath                      string                  `json:"binaryPath,omitempty"`
	ServiceCluster                  string                  `json:"serviceCluster,omitempty"`
	DrainDuration                   *IstioDuration          `json:"drainDuration,omitempty"`
	DiscoveryAddress                string                  `json:"discoveryAddress,omitempty"`
	StatNameLength                  int32                   `json:"statNameLength,omitempty"`
	ProxyAdminPort                  int32                   `json:"proxyAdminPort,omitempty"`
	ControlPlaneAuthPolicy          int32                   `json:"controlPlaneAuthPolicy,omitempty"`
	StatusPort                      int32                   `json:"statusPort,omitempty"`
	Tracing                         *sidecarTracing         `json:"tracing,omitempty"`
	ProxyMetadata                   map[string]string       `json:"proxyMetadata,omitempty"`
	InterceptionMode                sidecarInterceptionMode `json:"interceptionMode,omitempty"`
	HoldApplicationUntilProxyStarts *sidecarBoolValue       `json:"holdApplicationUntilProxyStarts,omitempty"`
}

func (p *sidecarProxyConfig) GetTracing() *sidecarTracing {
	if p == nil {
		return nil
	}
	return p.Tracing
}

type sidecarMeshConfig struct {
	ProxyListenPort        int32
	ProxyInboundListenPort int32
	TrustDomain            string
	DefaultConfig          *sidecarProxyConfig
	EnableTracing          bool
	AccessLogFile          string
}

type sidecarTemplateData struct {
	TypeMeta                 sidecarTypeMeta
	DeploymentMeta           sidecarNamespacedName
	ObjectMeta               IstioObjectMeta
	Spec                     sidecarPodSpec
	ProxyConfig              *sidecarProxyConfig
	MeshConfig               *sidecarMeshConfig
	Values                   map[string]interface{}
	Revision                 string
	ProxyImage               string
	ProxyUID                 int64
	ProxyGID                 int64
	InboundTrafficPolicyMode string
	CompliancePolicy         string
	NativeSidecars           bool
	ProxyInitImage           string
	EstimatedConcurrency     int
}

func sidecarData(raw json.RawMessage) (interface{}, error) {
	var d sidecarTemplateData
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("bad sidecar data: %v", err)
	}
	return &d, nil
}
