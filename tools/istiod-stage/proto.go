package main

// Hand-written mirrors of the istio.mesh.v1alpha1 messages the injection templates read, with the
// Go field names and getters of the generated code, and a small jsonpb: fields are written in proto
// declaration order with their lowerCamel JSON names, proto3 zero values are left out, enums print
// their names, wrappers their bare value and durations "<seconds>s".
//
// Struct tags: `pb:"jsonName,orig_name,since,until"` (since/until: Istio minor versions, inclusive;
// empty = always). A field outside the release's range does not exist for that release: it is never
// read from YAML and never written.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ---------- well-known types ----------

type Duration struct {
	Seconds int64
	Nanos   int32
}

func (d *Duration) AsDuration() time.Duration {
	if d == nil {
		return 0
	}
	return time.Duration(d.Seconds)*time.Second + time.Duration(d.Nanos)
}

type BoolValue struct{ Value bool }

func (x *BoolValue) GetValue() bool {
	if x == nil {
		return false
	}
	return x.Value
}

type Int32Value struct{ Value int32 }

func (x *Int32Value) GetValue() int32 {
	if x == nil {
		return 0
	}
	return x.Value
}

type Int64Value struct{ Value int64 }

func (x *Int64Value) GetValue() int64 {
	if x == nil {
		return 0
	}
	return x.Value
}

// ---------- enums ----------

type AuthenticationPolicy int32

var authenticationPolicyNames = map[int32]string{0: "NONE", 1: "MUTUAL_TLS", 1000: "INHERIT"}

func (x AuthenticationPolicy) String() string { return enumName(authenticationPolicyNames, int32(x)) }

type ProxyConfig_InboundInterceptionMode int32

var interceptionModeNames = map[int32]string{0: "REDIRECT", 1: "TPROXY", 2: "NONE"}

func (x ProxyConfig_InboundInterceptionMode) String() string {
	return enumName(interceptionModeNames, int32(x))
}

type ProxyConfig_TracingServiceName int32

var tracingServiceNames = map[int32]string{0: "APP_LABEL_AND_NAMESPACE", 1: "CANONICAL_NAME_ONLY", 2: "CANONICAL_NAME_AND_NAMESPACE"}

func (x ProxyConfig_TracingServiceName) String() string {
	return enumName(tracingServiceNames, int32(x))
}

type ClientTLSSettings_TLSmode int32

var tlsModeNames = map[int32]string{0: "DISABLE", 1: "SIMPLE", 2: "MUTUAL", 3: "ISTIO_MUTUAL"}

func (x ClientTLSSettings_TLSmode) String() string { return enumName(tlsModeNames, int32(x)) }

type MeshConfig_InboundTrafficPolicy_Mode int32

var inboundModeNames = map[int32]string{0: "PASSTHROUGH", 1: "LOCALHOST"}

func (x MeshConfig_InboundTrafficPolicy_Mode) String() string {
	return enumName(inboundModeNames, int32(x))
}

func enumName(names map[int32]string, v int32) string {
	if n, ok := names[v]; ok {
		return n
	}
	return strconv.Itoa(int(v))
}

type protoEnum interface {
	fmt.Stringer
}

var enumTables = map[reflect.Type]map[int32]string{
	reflect.TypeOf(AuthenticationPolicy(0)):                 authenticationPolicyNames,
	reflect.TypeOf(ProxyConfig_InboundInterceptionMode(0)):  interceptionModeNames,
	reflect.TypeOf(ProxyConfig_TracingServiceName(0)):       tracingServiceNames,
	reflect.TypeOf(ClientTLSSettings_TLSmode(0)):            tlsModeNames,
	reflect.TypeOf(MeshConfig_InboundTrafficPolicy_Mode(0)): inboundModeNames,
}

// ---------- messages ----------

type ClientTLSSettings struct {
	Mode               ClientTLSSettings_TLSmode `pb:"mode,mode"`
	ClientCertificate  string                    `pb:"clientCertificate,client_certificate"`
	PrivateKey         string                    `pb:"privateKey,private_key"`
	CaCertificates     string                    `pb:"caCertificates,ca_certificates"`
	CredentialName     string                    `pb:"credentialName,credential_name,8"`
	SubjectAltNames    []string                  `pb:"subjectAltNames,subject_alt_names"`
	Sni                string                    `pb:"sni,sni"`
	InsecureSkipVerify *BoolValue                `pb:"insecureSkipVerify,insecure_skip_verify,14"`
	CaCrl              string                    `pb:"caCrl,ca_crl,20"`
}

func (x *ClientTLSSettings) GetCaCertificates() string {
	if x == nil {
		return ""
	}
	return x.CaCertificates
}

type Tracing_Zipkin struct {
	Address string `pb:"address,address"`
}

func (x *Tracing_Zipkin) GetAddress() string {
	if x == nil {
		return ""
	}
	return x.Address
}

type Tracing_Lightstep struct {
	Address     string `pb:"address,address"`
	AccessToken string `pb:"accessToken,access_token"`
	Secure      bool   `pb:"secure,secure,,7"`
	CacertPath  string `pb:"cacertPath,cacert_path,,7"`
}

func (x *Tracing_Lightstep) GetAddress() string {
	if x == nil {
		return ""
	}
	return x.Address
}
func (x *Tracing_Lightstep) GetAccessToken() string {
	if x == nil {
		return ""
	}
	return x.AccessToken
}
func (x *Tracing_Lightstep) GetSecure() bool {
	if x == nil {
		return false
	}
	return x.Secure
}
func (x *Tracing_Lightstep) GetCacertPath() string {
	if x == nil {
		return ""
	}
	return x.CacertPath
}

type Tracing_Datadog struct {
	Address string `pb:"address,address"`
}

func (x *Tracing_Datadog) GetAddress() string {
	if x == nil {
		return ""
	}
	return x.Address
}

type Tracing_Stackdriver struct {
	Debug                    bool        `pb:"debug,debug"`
	MaxNumberOfAttributes    *Int64Value `pb:"maxNumberOfAttributes,max_number_of_attributes"`
	MaxNumberOfAnnotations   *Int64Value `pb:"maxNumberOfAnnotations,max_number_of_annotations"`
	MaxNumberOfMessageEvents *Int64Value `pb:"maxNumberOfMessageEvents,max_number_of_message_events"`
}

func (x *Tracing_Stackdriver) GetDebug() bool {
	if x == nil {
		return false
	}
	return x.Debug
}
func (x *Tracing_Stackdriver) GetMaxNumberOfAttributes() *Int64Value {
	if x == nil {
		return nil
	}
	return x.MaxNumberOfAttributes
}
func (x *Tracing_Stackdriver) GetMaxNumberOfAnnotations() *Int64Value {
	if x == nil {
		return nil
	}
	return x.MaxNumberOfAnnotations
}
func (x *Tracing_Stackdriver) GetMaxNumberOfMessageEvents() *Int64Value {
	if x == nil {
		return nil
	}
	return x.MaxNumberOfMessageEvents
}

type Tracing_OpenCensusAgent struct {
	Address string   `pb:"address,address"`
	Context []string `pb:"context,context"`
}

// Tracing keeps its oneof members as separate pointers; at most one is set (oneof:"tracer").
type Tracing struct {
	Zipkin           *Tracing_Zipkin          `pb:"zipkin,zipkin" oneof:"tracer"`
	Lightstep        *Tracing_Lightstep       `pb:"lightstep,lightstep" oneof:"tracer"`
	Datadog          *Tracing_Datadog         `pb:"datadog,datadog" oneof:"tracer"`
	Stackdriver      *Tracing_Stackdriver     `pb:"stackdriver,stackdriver" oneof:"tracer"`
	OpenCensusAgent  *Tracing_OpenCensusAgent `pb:"openCensusAgent,open_census_agent,8" oneof:"tracer"`
	CustomTags       map[string]interface{}   `pb:"customTags,custom_tags,7"`
	MaxPathTagLength uint32                   `pb:"maxPathTagLength,max_path_tag_length,7"`
	Sampling         float64                  `pb:"sampling,sampling,7"`
	TlsSettings      *ClientTLSSettings       `pb:"tlsSettings,tls_settings,7"`
}

func (x *Tracing) GetZipkin() *Tracing_Zipkin {
	if x == nil {
		return nil
	}
	return x.Zipkin
}
func (x *Tracing) GetLightstep() *Tracing_Lightstep {
	if x == nil {
		return nil
	}
	return x.Lightstep
}
func (x *Tracing) GetDatadog() *Tracing_Datadog {
	if x == nil {
		return nil
	}
	return x.Datadog
}
func (x *Tracing) GetStackdriver() *Tracing_Stackdriver {
	if x == nil {
		return nil
	}
	return x.Stackdriver
}
func (x *Tracing) GetTlsSettings() *ClientTLSSettings {
	if x == nil {
		return nil
	}
	return x.TlsSettings
}

type RemoteService struct {
	Address      string                 `pb:"address,address"`
	TlsSettings  *ClientTLSSettings     `pb:"tlsSettings,tls_settings"`
	TcpKeepalive map[string]interface{} `pb:"tcpKeepalive,tcp_keepalive"`
}

type SDS struct {
	Enabled      bool   `pb:"enabled,enabled"`
	K8SSaJwtPath string `pb:"k8sSaJwtPath,k8s_sa_jwt_path"`
}

type ProxyImage struct {
	ImageType string `pb:"imageType,image_type"`
}

// ProxyConfig: the union over releases. Concurrency is an int32 in 1.5 and a *Int32Value later; it is
// kept in an interface so each release sees its own type (a nil *Int32Value when unset).
type ProxyConfig struct {
	ConfigPath                      string                              `pb:"configPath,config_path"`
	BinaryPath                      string                              `pb:"binaryPath,binary_path"`
	ServiceCluster                  string                              `pb:"serviceCluster,service_cluster"`
	TracingServiceName              *ProxyConfig_TracingServiceName     `pb:"tracingServiceName,tracing_service_name,11"`
	DrainDuration                   *Duration                           `pb:"drainDuration,drain_duration"`
	ParentShutdownDuration          *Duration                           `pb:"parentShutdownDuration,parent_shutdown_duration"`
	DiscoveryAddress                string                              `pb:"discoveryAddress,discovery_address"`
	DiscoveryRefreshDelay           *Duration                           `pb:"discoveryRefreshDelay,discovery_refresh_delay"`
	ZipkinAddress                   string                              `pb:"zipkinAddress,zipkin_address"`
	ConnectTimeout                  *Duration                           `pb:"connectTimeout,connect_timeout,,6"`
	StatsdUdpAddress                string                              `pb:"statsdUdpAddress,statsd_udp_address"`
	EnvoyMetricsServiceAddress      string                              `pb:"envoyMetricsServiceAddress,envoy_metrics_service_address"`
	ProxyAdminPort                  int32                               `pb:"proxyAdminPort,proxy_admin_port"`
	AvailabilityZone                string                              `pb:"availabilityZone,availability_zone"`
	ControlPlaneAuthPolicy          AuthenticationPolicy                `pb:"controlPlaneAuthPolicy,control_plane_auth_policy"`
	CustomConfigFile                string                              `pb:"customConfigFile,custom_config_file"`
	StatNameLength                  int32                               `pb:"statNameLength,stat_name_length"`
	Concurrency                     interface{}                         `pb:"concurrency,concurrency"`
	ProxyBootstrapTemplatePath      string                              `pb:"proxyBootstrapTemplatePath,proxy_bootstrap_template_path"`
	InterceptionMode                ProxyConfig_InboundInterceptionMode `pb:"interceptionMode,interception_mode"`
	Tracing                         *Tracing                            `pb:"tracing,tracing"`
	Sds                             *SDS                                `pb:"sds,sds"`
	EnvoyAccessLogService           *RemoteService                      `pb:"envoyAccessLogService,envoy_access_log_service"`
	EnvoyMetricsService             *RemoteService                      `pb:"envoyMetricsService,envoy_metrics_service"`
	ProxyMetadata                   map[string]string                   `pb:"proxyMetadata,proxy_metadata"`
	RuntimeValues                   map[string]string                   `pb:"runtimeValues,runtime_values,12"`
	StatusPort                      int32                               `pb:"statusPort,status_port"`
	ExtraStatTags                   []string                            `pb:"extraStatTags,extra_stat_tags"`
	GatewayTopology                 map[string]interface{}              `pb:"gatewayTopology,gateway_topology,8"`
	TerminationDrainDuration        *Duration                           `pb:"terminationDrainDuration,termination_drain_duration,7"`
	MeshId                          string                              `pb:"meshId,mesh_id,8"`
	ReadinessProbe                  map[string]interface{}              `pb:"readinessProbe,readiness_probe,9"`
	ProxyStatsMatcher               map[string]interface{}              `pb:"proxyStatsMatcher,proxy_stats_matcher,9"`
	HoldApplicationUntilProxyStarts *BoolValue                          `pb:"holdApplicationUntilProxyStarts,hold_application_until_proxy_starts,8"`
	CaCertificatesPem               []string                            `pb:"caCertificatesPem,ca_certificates_pem,11"`
	Image                           *ProxyImage                         `pb:"image,image,12"`
	PrivateKeyProvider              map[string]interface{}              `pb:"privateKeyProvider,private_key_provider,14"`
	ProxyHeaders                    map[string]interface{}              `pb:"proxyHeaders,proxy_headers,18"`
}

func (x *ProxyConfig) GetTracing() *Tracing {
	if x == nil {
		return nil
	}
	return x.Tracing
}

type MeshConfig_InboundTrafficPolicy struct {
	Mode MeshConfig_InboundTrafficPolicy_Mode `pb:"mode,mode"`
}

// MeshConfig: only what templates and istiod's data building read; every other field of the mesh
// YAML is accepted and dropped.
type MeshConfig struct {
	ProxyListenPort        int32                            `pb:"proxyListenPort,proxy_listen_port"`
	ProxyInboundListenPort int32                            `pb:"proxyInboundListenPort,proxy_inbound_listen_port,13"`
	TrustDomain            string                           `pb:"trustDomain,trust_domain"`
	DefaultConfig          *ProxyConfig                     `pb:"defaultConfig,default_config"`
	InboundTrafficPolicy   *MeshConfig_InboundTrafficPolicy `pb:"inboundTrafficPolicy,inbound_traffic_policy,20"`
	ExtensionProviders     []interface{}                    `pb:"extensionProviders,extension_providers,8"`
}

func (x *MeshConfig) GetDefaultConfig() *ProxyConfig {
	if x == nil {
		return nil
	}
	return x.DefaultConfig
}

// ---------- field metadata ----------

type pbField struct {
	index        int
	json, orig   string
	since, until int
	oneof        string
}

func pbFields(t reflect.Type, minor int) []pbField {
	var out []pbField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("pb")
		if tag == "" {
			continue
		}
		parts := strings.Split(tag, ",")
		pf := pbField{index: i, json: parts[0], orig: parts[1], oneof: f.Tag.Get("oneof")}
		if len(parts) > 2 && parts[2] != "" {
			pf.since, _ = strconv.Atoi(parts[2])
		}
		if len(parts) > 3 && parts[3] != "" {
			pf.until, _ = strconv.Atoi(parts[3])
		}
		if pf.since != 0 && minor < pf.since {
			continue
		}
		if pf.until != 0 && minor > pf.until {
			continue
		}
		out = append(out, pf)
	}
	return out
}

// ---------- reading (jsonpb unmarshal of YAML turned into JSON) ----------

// protoReader applies JSON over an existing message the way jsonpb's Unmarshal does, gogo's (≤ 1.8)
// and golang/protobuf's alike: the top-level message keeps the fields the input does not name, and a
// named field is replaced as a whole (message fields are freshly allocated, not merged); a JSON null
// leaves the field as it was.
type protoReader struct {
	minor int
}

func (r protoReader) apply(dst reflect.Value, src map[string]interface{}, path string) error {
	t := dst.Type()
	for _, f := range pbFields(t, r.minor) {
		raw, ok := src[f.json]
		if !ok {
			raw, ok = src[f.orig]
		}
		if !ok {
			continue
		}
		if raw == nil {
			continue
		}
		fv := dst.Field(f.index)
		if f.oneof != "" {
			for _, g := range pbFields(t, r.minor) {
				if g.oneof == f.oneof {
					dv := dst.Field(g.index)
					dv.Set(reflect.Zero(dv.Type()))
				}
			}
		}
		if err := r.setValue(fv, raw, path+"."+f.json, t.Name(), f); err != nil {
			return err
		}
	}
	return nil
}

func (r protoReader) setValue(fv reflect.Value, raw interface{}, path, owner string, f pbField) error {
	// Concurrency: the release decides its type.
	if fv.Kind() == reflect.Interface && owner == "ProxyConfig" && f.json == "concurrency" {
		n, err := toInt(raw, path)
		if err != nil {
			return err
		}
		if r.minor <= 5 {
			fv.Set(reflect.ValueOf(int32(n)))
		} else {
			fv.Set(reflect.ValueOf(&Int32Value{Value: int32(n)}))
		}
		return nil
	}
	switch fv.Type() {
	case reflect.TypeOf(&Duration{}):
		s, ok := raw.(string)
		if !ok {
			return fmt.Errorf("%s: duration must be a string", path)
		}
		d, err := parseDuration(s)
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		fv.Set(reflect.ValueOf(d))
		return nil
	case reflect.TypeOf(&BoolValue{}):
		b, ok := raw.(bool)
		if !ok {
			return fmt.Errorf("%s: expected a bool", path)
		}
		fv.Set(reflect.ValueOf(&BoolValue{Value: b}))
		return nil
	case reflect.TypeOf(&Int64Value{}):
		n, err := toInt(raw, path)
		if err != nil {
			return err
		}
		fv.Set(reflect.ValueOf(&Int64Value{Value: n}))
		return nil
	case reflect.TypeOf(&Int32Value{}):
		n, err := toInt(raw, path)
		if err != nil {
			return err
		}
		fv.Set(reflect.ValueOf(&Int32Value{Value: int32(n)}))
		return nil
	}
	if names, ok := enumTables[fv.Type()]; ok {
		n, err := enumValue(names, raw, path)
		if err != nil {
			return err
		}
		fv.SetInt(int64(n))
		return nil
	}
	if fv.Kind() == reflect.Ptr && fv.Type().Elem().Kind() == reflect.Int32 {
		if names, ok := enumTables[fv.Type().Elem()]; ok {
			n, err := enumValue(names, raw, path)
			if err != nil {
				return err
			}
			p := reflect.New(fv.Type().Elem())
			p.Elem().SetInt(int64(n))
			fv.Set(p)
			return nil
		}
	}
	switch fv.Kind() {
	case reflect.String:
		s, ok := raw.(string)
		if !ok {
			return fmt.Errorf("%s: expected a string", path)
		}
		fv.SetString(s)
	case reflect.Bool:
		b, ok := raw.(bool)
		if !ok {
			return fmt.Errorf("%s: expected a bool", path)
		}
		fv.SetBool(b)
	case reflect.Int32, reflect.Int64:
		n, err := toInt(raw, path)
		if err != nil {
			return err
		}
		fv.SetInt(n)
	case reflect.Uint32:
		n, err := toInt(raw, path)
		if err != nil {
			return err
		}
		fv.SetUint(uint64(n))
	case reflect.Float64:
		switch x := raw.(type) {
		case float64:
			fv.SetFloat(x)
		case string:
			v, err := strconv.ParseFloat(x, 64)
			if err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
			fv.SetFloat(v)
		default:
			return fmt.Errorf("%s: expected a number", path)
		}
	case reflect.Slice:
		list, ok := raw.([]interface{})
		if !ok {
			return fmt.Errorf("%s: expected a list", path)
		}
		if fv.Type().Elem().Kind() == reflect.Interface {
			fv.Set(reflect.ValueOf(list))
			return nil
		}
		s := reflect.MakeSlice(fv.Type(), 0, len(list))
		for _, e := range list {
			str, ok := e.(string)
			if !ok {
				return fmt.Errorf("%s: expected strings", path)
			}
			s = reflect.Append(s, reflect.ValueOf(str))
		}
		fv.Set(s)
	case reflect.Map:
		m, ok := raw.(map[string]interface{})
		if !ok {
			return fmt.Errorf("%s: expected a map", path)
		}
		if fv.Type().Elem().Kind() == reflect.Interface {
			fv.Set(reflect.ValueOf(m))
			return nil
		}
		out := map[string]string{}
		for k, v := range m {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("%s.%s: expected a string", path, k)
			}
			out[k] = s
		}
		fv.Set(reflect.ValueOf(out))
	case reflect.Ptr:
		m, ok := raw.(map[string]interface{})
		if !ok {
			return fmt.Errorf("%s: expected a map", path)
		}
		nv := reflect.New(fv.Type().Elem())
		if err := r.apply(nv.Elem(), m, path); err != nil {
			return err
		}
		fv.Set(nv)
	default:
		return fmt.Errorf("%s: unsupported field kind %s", path, fv.Kind())
	}
	return nil
}

func toInt(raw interface{}, path string) (int64, error) {
	switch x := raw.(type) {
	case float64:
		if x != math.Trunc(x) {
			return 0, fmt.Errorf("%s: not an integer", path)
		}
		return int64(x), nil
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", path, err)
		}
		return n, nil
	}
	return 0, fmt.Errorf("%s: expected a number", path)
}

func enumValue(names map[int32]string, raw interface{}, path string) (int32, error) {
	switch x := raw.(type) {
	case string:
		for k, v := range names {
			if v == x {
				return k, nil
			}
		}
		return 0, fmt.Errorf("%s: unknown enum value %q", path, x)
	case float64:
		return int32(x), nil
	}
	return 0, fmt.Errorf("%s: bad enum value", path)
}

// parseDuration reads the proto JSON form: a decimal number of seconds followed by "s".
func parseDuration(s string) (*Duration, error) {
	if !strings.HasSuffix(s, "s") {
		// Go duration syntax ("1m", "500ms") is what users write in YAML; jsonpb only takes "Ns".
		d, err := time.ParseDuration(s)
		if err != nil {
			return nil, fmt.Errorf("bad duration %q", s)
		}
		return &Duration{Seconds: int64(d / time.Second), Nanos: int32(d % time.Second)}, nil
	}
	body := strings.TrimSuffix(s, "s")
	neg := strings.HasPrefix(body, "-")
	body = strings.TrimPrefix(body, "-")
	whole, frac := body, ""
	if i := strings.IndexByte(body, '.'); i >= 0 {
		whole, frac = body[:i], body[i+1:]
	}
	secs, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("bad duration %q", s)
	}
	var nanos int64
	if frac != "" {
		if len(frac) > 9 {
			return nil, fmt.Errorf("bad duration %q", s)
		}
		nanos, err = strconv.ParseInt((frac + "000000000")[:9], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad duration %q", s)
		}
	}
	if neg {
		secs, nanos = -secs, -nanos
	}
	return &Duration{Seconds: secs, Nanos: int32(nanos)}, nil
}

// ---------- writing (jsonpb marshal, compact, no defaults) ----------

func protoJSON(v interface{}, minor int) string {
	var b bytes.Buffer
	writeMessage(&b, reflect.ValueOf(v), minor)
	return b.String()
}

func writeMessage(b *bytes.Buffer, v reflect.Value, minor int) {
	for v.Kind() == reflect.Ptr {
		if v.IsNil() {
			b.WriteString("{}")
			return
		}
		v = v.Elem()
	}
	b.WriteByte('{')
	first := true
	for _, f := range pbFields(v.Type(), minor) {
		fv := v.Field(f.index)
		if isProtoZero(fv, f.oneof != "") {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(f.json)
		b.Write(k)
		b.WriteByte(':')
		writeValue(b, fv, minor)
	}
	b.WriteByte('}')
}

func isProtoZero(v reflect.Value, oneof bool) bool {
	switch v.Kind() {
	case reflect.Ptr, reflect.Interface:
		return v.IsNil()
	case reflect.Map, reflect.Slice:
		return v.Len() == 0
	case reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint32:
		return v.Uint() == 0
	case reflect.Float64:
		return v.Float() == 0
	}
	return false
}

func writeValue(b *bytes.Buffer, v reflect.Value, minor int) {
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	switch x := v.Interface().(type) {
	case *Duration:
		b.WriteString(strconv.Quote(durationJSON(x)))
		return
	case *BoolValue:
		b.WriteString(strconv.FormatBool(x.Value))
		return
	case *Int32Value:
		b.WriteString(strconv.FormatInt(int64(x.Value), 10))
		return
	case *Int64Value:
		// jsonpb writes 64-bit integers as strings
		b.WriteString(strconv.Quote(strconv.FormatInt(x.Value, 10)))
		return
	case protoEnum:
		if v.Kind() == reflect.Int32 {
			b.WriteString(strconv.Quote(x.String()))
			return
		}
	}
	if v.Kind() == reflect.Ptr && v.Elem().Kind() == reflect.Int32 {
		b.WriteString(strconv.Quote(v.Interface().(fmt.Stringer).String()))
		return
	}
	switch v.Kind() {
	case reflect.Ptr, reflect.Struct:
		writeMessage(b, v, minor)
	case reflect.Map:
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			e := v.MapIndex(reflect.ValueOf(k))
			eb, _ := json.Marshal(e.Interface())
			b.Write(eb)
		}
		b.WriteByte('}')
	case reflect.Int64:
		b.WriteString(strconv.Quote(strconv.FormatInt(v.Int(), 10)))
	default:
		eb, _ := json.Marshal(v.Interface())
		b.Write(eb)
	}
}

// durationJSON: seconds with 0, 3, 6 or 9 fractional digits, then "s".
func durationJSON(d *Duration) string {
	s, n := d.Seconds, int64(d.Nanos)
	sign := ""
	if s < 0 || n < 0 {
		sign = "-"
		if s < 0 {
			s = -s
		}
		if n < 0 {
			n = -n
		}
	}
	out := sign + strconv.FormatInt(s, 10)
	if n != 0 {
		frac := fmt.Sprintf("%09d", n)
		switch {
		case strings.HasSuffix(frac, "000000"):
			frac = frac[:3]
		case strings.HasSuffix(frac, "000"):
			frac = frac[:6]
		}
		out += "." + frac
	}
	return out + "s"
}
