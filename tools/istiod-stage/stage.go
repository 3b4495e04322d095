// Command istiod-stage emulates istiod's injection template stage for one workload: it reads an
// injector ConfigMap (data.config, data.values), a mesh config and a workload, builds the
// SidecarTemplateData of the given Istio release the way istiod builds it, executes the selected
// templates with Go's text/template, Sprig and the Istio functions, and prints the output.
//
// Built together with tools/gorender/istio.go (the Istio function set) by tools/istiod-stage/build.sh.
//
//	istiod-stage -istio-version 1.12 -configmap CM.yaml -mesh MESH.yaml -f WORKLOAD.yaml
//
// With -bench-seconds S it times the template stage instead (bench/run.js, case (r)): the data is built
// and the templates parsed once, then their execution is timed with gorender's benchLoop, and one JSON
// line {"nsPerOp","cpuNsPerOp","n","output"} is printed.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/Masterminds/sprig"
	yaml2 "gopkg.in/yaml.v2"
	"sigs.k8s.io/yaml"
)

type release struct {
	minor  int
	master bool
}

func (r release) atLeast(minor int) bool { return r.master || r.minor >= minor }

func parseRelease(s string) (release, error) {
	if s == "master" || s == "latest" {
		return release{minor: 99, master: true}, nil
	}
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	if len(parts) < 2 || parts[0] != "1" {
		return release{}, fmt.Errorf("bad Istio version %q", s)
	}
	m, err := strconv.Atoi(parts[1])
	if err != nil {
		return release{}, fmt.Errorf("bad Istio version %q", s)
	}
	return release{minor: m}, nil
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "istiod-stage: "+format+"\n", args...)
	os.Exit(1)
}

func readYAML(file string) map[string]interface{} {
	b, err := os.ReadFile(file)
	if err != nil {
		fail("%v", err)
	}
	return yamlMap(b, file)
}

func yamlMap(b []byte, origin string) map[string]interface{} {
	var m map[string]interface{}
	if err := yaml.Unmarshal(b, &m); err != nil {
		fail("%s: %v", origin, err)
	}
	if m == nil {
		m = map[string]interface{}{}
	}
	return m
}

type injectorConfig struct {
	Policy           string              `json:"policy"`
	Template         string              `json:"template"`
	Templates        map[string]string   `json:"templates"`
	DefaultTemplates []string            `json:"defaultTemplates"`
	Aliases          map[string][]string `json:"aliases"`
}

func main() {
	version := flag.String("istio-version", "master", "Istio release whose istiod is emulated (1.5 ... master)")
	cmFile := flag.String("configmap", "", "injector ConfigMap (data.config, data.values)")
	tmplFile := flag.String("template", "", "a single injection template (instead of the ConfigMap's)")
	valuesFile := flag.String("values", "", "injector values, JSON or YAML (instead of the ConfigMap's)")
	meshFile := flag.String("mesh", "", "mesh config: the istio ConfigMap or MeshConfig YAML")
	wlFile := flag.String("f", "", "workload (one object)")
	namespace := flag.String("namespace", "default", "namespace of the admission request")
	revision := flag.String("revision", "", "istiod revision")
	native := flag.Bool("native-sidecars", false, "istiod's ENABLE_NATIVE_SIDECARS")
	benchSeconds := flag.Float64("bench-seconds", 0, "time the template execution for about this long (see above)")
	flag.Parse()
	rel, err := parseRelease(*version)
	if err != nil {
		fail("%v", err)
	}
	if rel.atLeast(7) && !rel.atLeast(10) {
		// 1.7-1.9 were built with gopkg.in/yaml.v2 v2.3.0, which never folds long strings; v2.4.0's
		// FutureLineWrap is that behaviour
		yaml2.FutureLineWrap()
	}

	var cfg injectorConfig
	data := map[string]interface{}{}
	if *cmFile != "" {
		data = asMap(readYAML(*cmFile)["data"])
		if err := yaml.Unmarshal([]byte(str(data["config"])), &cfg); err != nil {
			fail("data.config: %v", err)
		}
	}
	if *tmplFile != "" {
		// istioctl kube-inject --injectConfigFile style: one template, values apart
		b, err := os.ReadFile(*tmplFile)
		if err != nil {
			fail("%v", err)
		}
		cfg.Template = string(b)
	}
	if *valuesFile != "" {
		b, err := os.ReadFile(*valuesFile)
		if err != nil {
			fail("%v", err)
		}
		data["values"] = string(b)
	}
	if cfg.Templates == nil {
		cfg.Templates = map[string]string{}
	}
	// inject.Config has no `template` from 1.10: beside `templates` it is the chart's tripwire, ignored
	if cfg.Template != "" && len(cfg.Templates) == 0 {
		cfg.Templates["sidecar"] = cfg.Template
	}
	if len(cfg.DefaultTemplates) == 0 {
		cfg.DefaultTemplates = []string{"sidecar"}
	}
	values := map[string]interface{}{}
	if err := json.Unmarshal([]byte(str(data["values"])), &values); err != nil {
		// istiod reads values as YAML too (sigs.k8s.io/yaml)
		values = yamlMap([]byte(str(data["values"])), "data.values")
	}

	meshDoc := map[string]interface{}{}
	if *meshFile != "" {
		meshDoc = readYAML(*meshFile)
		if str(meshDoc["kind"]) == "ConfigMap" {
			meshDoc = yamlMap([]byte(str(asMap(meshDoc["data"])["mesh"])), "data.mesh")
		}
	}
	mesh, err := applyMeshConfig(rel, meshDoc)
	if err != nil {
		fail("mesh config: %v", err)
	}

	wl := readYAML(*wlFile)
	podJSON, err := controllerPod(wl, *namespace)
	if err != nil {
		fail("%v", err)
	}
	applyPodDefaults(podJSON)
	pod, err := decodePod(podJSON)
	if err != nil {
		fail("%v", err)
	}

	if *benchSeconds > 0 {
		benchTemplates(rel, cfg, values, mesh, &pod, *revision, *native, *benchSeconds)
		return
	}
	out, err := runTemplates(rel, cfg, values, mesh, &pod, *revision, *native)
	os.Stdout.WriteString(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "istiod-stage: error:", err)
		os.Exit(2)
	}
}

// ---------- mesh and proxy config ----------

func dur(s int64) *Duration { return &Duration{Seconds: s} }

// defaultProxyConfig: mesh.DefaultProxyConfig() of the release.
func defaultProxyConfig(r release) *ProxyConfig {
	if !r.atLeast(6) {
		// 1.5's mesh.go: Pilot's plain-text address, no status port, Concurrency 0, no tracing, and
		// empty remote services
		return &ProxyConfig{
			ConfigPath:             "/etc/istio/proxy",
			BinaryPath:             "/usr/local/bin/envoy",
			ServiceCluster:         "istio-proxy",
			DrainDuration:          dur(45),
			ParentShutdownDuration: dur(60),
			DiscoveryAddress:       "istio-pilot:15010",
			ConnectTimeout:         dur(1),
			EnvoyMetricsService:    &RemoteService{},
			EnvoyAccessLogService:  &RemoteService{},
			ProxyAdminPort:         15000,
			ControlPlaneAuthPolicy: 0,
			Concurrency:            int32(0),
			StatNameLength:         189,
		}
	}
	pc := &ProxyConfig{
		ConfigPath:             "./etc/istio/proxy",
		BinaryPath:             "/usr/local/bin/envoy",
		ServiceCluster:         "istio-proxy",
		DrainDuration:          dur(45),
		DiscoveryAddress:       "istiod.istio-system.svc:15012",
		ProxyAdminPort:         15000,
		ControlPlaneAuthPolicy: 1,
		StatNameLength:         189,
		StatusPort:             15020,
		Concurrency:            (*Int32Value)(nil),
	}
	if !r.atLeast(7) {
		// 1.6: no control-plane mTLS by default
		pc.ControlPlaneAuthPolicy = 0
	}
	if !r.atLeast(9) {
		// to 1.8: the remote services are set, empty
		pc.EnvoyMetricsService = &RemoteService{}
		pc.EnvoyAccessLogService = &RemoteService{}
	}
	// DefaultProxyConfig (mesh.go): ParentShutdownDuration to 1.16, Concurrency 2 to 1.17, zipkin to 1.21.
	if !r.atLeast(17) {
		pc.ParentShutdownDuration = dur(60)
	}
	if r.atLeast(7) {
		pc.TerminationDrainDuration = dur(5)
	}
	switch {
	case !r.atLeast(7):
		// 1.6: concurrency is a plain int32
		pc.Concurrency = int32(2)
	case !r.atLeast(18):
		pc.Concurrency = &Int32Value{Value: 2}
	}
	if !r.atLeast(22) {
		pc.Tracing = &Tracing{Zipkin: &Tracing_Zipkin{Address: "zipkin.istio-system:9411"}}
	}
	return pc
}

func minorOf(r release) int { return r.minor }

// mergeProxyConfig: mesh.MergeProxyConfig — the YAML's fields over base (jsonpb: each named field
// replaced whole), and from 1.11 ProxyMetadata as the union of both (before, mesh.ApplyProxyConfig's
// jsonpb replaced the map whole, as it reads any map).
func mergeProxyConfig(r release, base *ProxyConfig, doc map[string]interface{}) (*ProxyConfig, error) {
	pc := *base
	reader := protoReader{minor: minorOf(r)}
	if err := reader.apply(reflect.ValueOf(&pc).Elem(), doc, "proxyConfig"); err != nil {
		return nil, err
	}
	if r.atLeast(11) && len(base.ProxyMetadata) > 0 {
		u := map[string]string{}
		for k, v := range base.ProxyMetadata {
			u[k] = v
		}
		for k, v := range pc.ProxyMetadata {
			u[k] = v
		}
		pc.ProxyMetadata = u
	}
	return &pc, nil
}

func applyMeshConfig(r release, doc map[string]interface{}) (*MeshConfig, error) {
	m := &MeshConfig{ProxyListenPort: 15001, TrustDomain: "cluster.local", DefaultConfig: defaultProxyConfig(r)}
	if r.atLeast(18) {
		m.ProxyInboundListenPort = 15006
	}
	if r.atLeast(22) {
		m.InboundTrafficPolicy = &MeshConfig_InboundTrafficPolicy{}
	}
	rest := map[string]interface{}{}
	var pcDoc interface{}
	for k, v := range doc {
		if k == "defaultConfig" || k == "default_config" {
			pcDoc = v
			continue
		}
		rest[k] = v
	}
	reader := protoReader{minor: minorOf(r)}
	if err := reader.apply(reflect.ValueOf(m).Elem(), rest, "mesh"); err != nil {
		return nil, err
	}
	if pcm := asMap(pcDoc); pcm != nil {
		pc, err := mergeProxyConfig(r, m.DefaultConfig, pcm)
		if err != nil {
			return nil, err
		}
		m.DefaultConfig = pc
	}
	return m, nil
}

// cleanProxyConfig (1.6+, inside protoToJSON): fields equal to DefaultProxyConfig are dropped.
func cleanProxyConfig(r release, in *ProxyConfig) *ProxyConfig {
	pc := *in
	d := defaultProxyConfig(r)
	if pc.ConfigPath == d.ConfigPath {
		pc.ConfigPath = ""
	}
	if pc.BinaryPath == d.BinaryPath {
		pc.BinaryPath = ""
	}
	if pc.ControlPlaneAuthPolicy == d.ControlPlaneAuthPolicy {
		pc.ControlPlaneAuthPolicy = 0
	}
	if pc.ServiceCluster == d.ServiceCluster {
		pc.ServiceCluster = ""
	}
	if reflect.DeepEqual(pc.DrainDuration, d.DrainDuration) {
		pc.DrainDuration = nil
	}
	if reflect.DeepEqual(pc.TerminationDrainDuration, d.TerminationDrainDuration) {
		pc.TerminationDrainDuration = nil
	}
	if reflect.DeepEqual(pc.ParentShutdownDuration, d.ParentShutdownDuration) {
		pc.ParentShutdownDuration = nil
	}
	if pc.DiscoveryAddress == d.DiscoveryAddress {
		pc.DiscoveryAddress = ""
	}
	if reflect.DeepEqual(pc.EnvoyMetricsService, d.EnvoyMetricsService) {
		pc.EnvoyMetricsService = nil
	}
	if reflect.DeepEqual(pc.EnvoyAccessLogService, d.EnvoyAccessLogService) {
		pc.EnvoyAccessLogService = nil
	}
	if reflect.DeepEqual(pc.Tracing, d.Tracing) {
		pc.Tracing = nil
	}
	if pc.ProxyAdminPort == d.ProxyAdminPort {
		pc.ProxyAdminPort = 0
	}
	if pc.StatNameLength == d.StatNameLength {
		pc.StatNameLength = 0
	}
	if pc.StatusPort == d.StatusPort {
		pc.StatusPort = 0
	}
	if reflect.DeepEqual(pc.Concurrency, d.Concurrency) {
		pc.Concurrency = nil
	}
	if len(pc.ProxyMetadata) == 0 {
		pc.ProxyMetadata = nil
	}
	return &pc
}

// ---------- SidecarTemplateData per release ----------

// templateDataType: inject.SidecarTemplateData of the release, its fields in the Go struct's order (Istio's
// pkg/kube/inject/inject.go at each release tag; tools/istio-source/check.mjs reads them).
func templateDataType(r release) reflect.Type {
	var fs []reflect.StructField
	add := func(name string, t reflect.Type) { fs = append(fs, reflect.StructField{Name: name, Type: t}) }
	typePtr := func(t reflect.Type) reflect.Type { // TypeMeta, DeploymentMeta: pointers to 1.10
		if !r.atLeast(11) {
			return reflect.PtrTo(t)
		}
		return t
	}
	objPtr := func(t reflect.Type) reflect.Type { // ObjectMeta, Spec: pointers to 1.8
		if !r.atLeast(9) {
			return reflect.PtrTo(t)
		}
		return t
	}
	add("TypeMeta", typePtr(reflect.TypeOf(TypeMeta{})))
	if r.atLeast(22) {
		add("DeploymentMeta", reflect.TypeOf(NamespacedName{}))
	} else {
		add("DeploymentMeta", typePtr(reflect.TypeOf(ObjectMeta{})))
	}
	add("ObjectMeta", objPtr(reflect.TypeOf(ObjectMeta{})))
	add("Spec", objPtr(reflect.TypeOf(PodSpec{})))
	add("ProxyConfig", reflect.TypeOf(&ProxyConfig{}))
	add("MeshConfig", reflect.TypeOf(&MeshConfig{}))
	add("Values", reflect.TypeOf(map[string]interface{}{}))
	if r.atLeast(9) {
		add("Revision", reflect.TypeOf(""))
	}
	if r.atLeast(27) {
		add("NativeSidecars", reflect.TypeOf(false))
	}
	if r.atLeast(11) && !r.atLeast(18) {
		add("EstimatedConcurrency", reflect.TypeOf(0))
	}
	if r.atLeast(13) {
		add("ProxyImage", reflect.TypeOf(""))
	}
	if r.master {
		add("ProxyInitImage", reflect.TypeOf(""))
	}
	if r.atLeast(20) {
		add("ProxyUID", reflect.TypeOf(int64(0)))
		add("ProxyGID", reflect.TypeOf(int64(0)))
	}
	if r.atLeast(22) {
		add("InboundTrafficPolicyMode", reflect.TypeOf(""))
	}
	if r.atLeast(21) {
		add("CompliancePolicy", reflect.TypeOf(""))
	}
	return reflect.StructOf(fs)
}

func valuesPath(values map[string]interface{}, keys ...string) interface{} {
	var cur interface{} = values
	for _, k := range keys {
		m, ok := cur.(map[string]interface{})
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

// proxyImage: inject.ProxyImage (and, for "proxy_init", the init image of later releases).
func proxyImage(values map[string]interface{}, pc *ProxyConfig, annotations map[string]string, which string) string {
	hub := fmt.Sprintf("%v", valuesPath(values, "global", "hub"))
	if valuesPath(values, "global", "hub") == nil {
		hub = ""
	}
	tag := ""
	if t := valuesPath(values, "global", "tag"); t != nil {
		tag = fmt.Sprintf("%v", t)
	}
	imageType, _ := valuesPath(values, "global", "variant").(string)
	if pc.Image != nil {
		imageType = pc.Image.ImageType
	}
	image := "proxyv2"
	if s, ok := valuesPath(values, "global", which, "image").(string); ok && s != "" {
		image = s
	}
	if it, ok := annotations["sidecar.istio.io/proxyImageType"]; ok {
		imageType = it
	}
	if imageType != "" {
		for _, known := range []string{"distroless", "debug"} {
			if strings.HasSuffix(tag, "-"+known) {
				tag = strings.TrimSuffix(tag, "-"+known)
				break
			}
		}
		if imageType != "default" {
			tag += "-" + imageType
		}
	}
	return hub + "/" + image + ":" + tag
}

// milliCores parses a CPU quantity into millicores, rounding up.
func milliCores(q string) (int64, bool) {
	q = strings.TrimSpace(q)
	if q == "" {
		return 0, false
	}
	mult := 1000.0
	switch {
	case strings.HasSuffix(q, "m"):
		mult, q = 1, strings.TrimSuffix(q, "m")
	case strings.HasSuffix(q, "k"):
		mult, q = 1e6, strings.TrimSuffix(q, "k")
	}
	f, err := strconv.ParseFloat(q, 64)
	if err != nil {
		return 0, false
	}
	return int64(math.Ceil(f * mult)), true
}

// estimateConcurrency (1.12-1.19): a positive ProxyConfig.Concurrency as it is; an explicit 0 reads the
// CPU (the limit annotation, else the request annotation, else the values' resources); otherwise 2.
func estimateConcurrency(pc *ProxyConfig, annotations map[string]string, values map[string]interface{}) int {
	c, ok := pc.Concurrency.(*Int32Value)
	if !ok || c == nil {
		return 2
	}
	if c.Value > 0 {
		return int(c.Value)
	}
	cores := func(q string) (int, bool) {
		m, ok := milliCores(q)
		if !ok {
			return 0, false
		}
		return int(math.Ceil(float64(m) / 1000)), true
	}
	if v, ok := annotations["sidecar.istio.io/proxyCPULimit"]; ok {
		if n, ok := cores(v); ok {
			return n
		}
	} else if v, ok := annotations["sidecar.istio.io/proxyCPU"]; ok {
		if n, ok := cores(v); ok {
			return n
		}
	} else {
		for _, kind := range []string{"limits", "requests"} {
			if v := valuesPath(values, "global", "proxy", "resources", kind, "cpu"); v != nil {
				if n, ok := cores(fmt.Sprint(v)); ok {
					return n
				}
			}
		}
	}
	return 2
}

func buildData(r release, values map[string]interface{}, mesh *MeshConfig, pod *Pod, revision string, native bool) (interface{}, *ProxyConfig, error) {
	pc := mesh.DefaultConfig
	// The proxy.istio.io/config annotation is read from 1.7 on.
	if a, ok := pod.ObjectMeta.Annotations["proxy.istio.io/config"]; ok && r.atLeast(7) {
		var doc map[string]interface{}
		if err := yaml.Unmarshal([]byte(a), &doc); err != nil {
			return nil, nil, fmt.Errorf("could not parse proxy config: %v", err)
		}
		merged, err := mergeProxyConfig(r, pc, doc)
		if err != nil {
			return nil, nil, fmt.Errorf("could not parse proxy config: %v", err)
		}
		pc = merged
	}
	dm, tm := getDeployMetaFromPod(pod)
	// Before 1.22 DeploymentMeta is a copy of the pod's ObjectMeta with the owner's name.
	om := pod.ObjectMeta
	om.OwnerReferences = nil
	om.Name = dm.Name
	itp := "passthrough"
	if mesh.InboundTrafficPolicy != nil && mesh.InboundTrafficPolicy.Mode == 1 {
		itp = "localhost"
	}
	fields := map[string]interface{}{
		"TypeMeta":                 tm,
		"DeploymentMeta":           om,
		"ObjectMeta":               pod.ObjectMeta,
		"Spec":                     pod.Spec,
		"ProxyConfig":              pc,
		"MeshConfig":               mesh,
		"Values":                   values,
		"Revision":                 revision,
		"NativeSidecars":           native,
		"ProxyImage":               proxyImage(values, pc, pod.ObjectMeta.Annotations, "proxy"),
		"ProxyInitImage":           proxyImage(values, pc, pod.ObjectMeta.Annotations, "proxy_init"),
		"ProxyUID":                 int64(1337),
		"ProxyGID":                 int64(1337),
		"InboundTrafficPolicyMode": itp,
		"CompliancePolicy":         "",
	}
	if r.atLeast(22) {
		fields["DeploymentMeta"] = dm
	}
	t := templateDataType(r)
	data := reflect.New(t)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		var v interface{}
		if f.Name == "EstimatedConcurrency" {
			v = estimateConcurrency(pc, pod.ObjectMeta.Annotations, values)
		} else {
			v = fields[f.Name]
		}
		rv := reflect.ValueOf(v)
		if f.Type.Kind() == reflect.Ptr && rv.Kind() != reflect.Ptr {
			p := reflect.New(rv.Type())
			p.Elem().Set(rv)
			rv = p
		}
		data.Elem().Field(i).Set(rv)
	}
	return data.Interface(), pc, nil
}

// ---------- functions ----------

func stageFuncs(r release, data interface{}) template.FuncMap {
	f := istioFuncMap()
	// the Istio functions each release's FuncMap has (template.go or inject.go at its tag)
	since := map[string]int{"appendMultusNetwork": 8, "excludeInterfaces": 15, "omit": 18, "strdict": 18, "toJsonMap": 18, "mergeMaps": 21, "omitNil": 99, "otelResourceAttributes": 99}
	for name, first := range since {
		if r.atLeast(first) {
			continue
		}
		if sf, ok := sprig.TxtFuncMap()[name]; ok {
			f[name] = sf // omit: Sprig's before Istio's own
		} else {
			delete(f, name)
		}
	}
	f["annotation"] = func(meta ObjectMeta, name string, def interface{}) string {
		if v, ok := meta.Annotations[name]; ok {
			return v
		}
		return fmt.Sprint(def)
	}
	ports := func(cs []Container, include func(Container) bool) string {
		parts := []string{}
		for _, c := range cs {
			if !include(c) {
				continue
			}
			for _, p := range c.Ports {
				if p.Protocol == "UDP" || p.Protocol == "SCTP" {
					continue
				}
				parts = append(parts, strconv.Itoa(int(p.ContainerPort)))
			}
		}
		return strings.Join(parts, ",")
	}
	f["includeInboundPorts"] = func(cs []Container) string { return ports(cs, func(Container) bool { return true }) }
	f["applicationPorts"] = func(cs []Container) string {
		return ports(cs, func(c Container) bool { return c.Name != "istio-proxy" })
	}
	if r.atLeast(14) {
		f["formatDuration"] = func(d *Duration) string { return d.AsDuration().String() }
	} else {
		// gogo types.DurationFromProto (to 1.13) fails on nil; the old function fell back to "1s"
		f["formatDuration"] = func(d *Duration) string {
			if d == nil {
				return "1s"
			}
			return d.AsDuration().String()
		}
	}
	f["protoToJSON"] = func(v interface{}) string {
		if pc, ok := v.(*ProxyConfig); ok && pc != nil && r.atLeast(6) {
			v = cleanProxyConfig(r, pc)
		}
		rv := reflect.ValueOf(v)
		if v == nil || (rv.Kind() == reflect.Ptr && rv.IsNil()) {
			return "{}"
		}
		return protoJSON(v, minorOf(r))
	}
	f["otelResourceAttributes"] = func(mesh *MeshConfig, annotations, labels map[string]string, namespace string, containers []Container) string {
		var providers []interface{}
		if mesh != nil {
			providers = mesh.ExtensionProviders
		}
		cs := make([]IstioContainer, 0, len(containers))
		for _, c := range containers {
			cs = append(cs, IstioContainer{Name: c.Name, Image: c.Image})
		}
		return istioOtelResourceAttributes(map[string]interface{}{"extensionProviders": providers}, annotations, labels, namespace, cs)
	}
	if !r.atLeast(14) {
		// 1.5-1.13: render executes a template text over the same data
		f["render"] = func(text string) string {
			t, err := template.New("inject").Funcs(stageFuncs(r, data)).Parse(text)
			if err != nil {
				return ""
			}
			var b bytes.Buffer
			if err := t.Execute(&b, data); err != nil {
				return ""
			}
			return b.String()
		}
	}
	return f
}

// templateNames: the pod's inject.istio.io/templates or the config's defaults, aliases resolved.
func templateNames(cfg injectorConfig, pod *Pod) []string {
	names := cfg.DefaultTemplates
	if a, ok := pod.ObjectMeta.Annotations["inject.istio.io/templates"]; ok {
		names = nil
		for _, n := range strings.Split(a, ",") {
			names = append(names, strings.TrimSpace(n))
		}
	}
	var resolved []string
	for _, n := range names {
		if al, ok := cfg.Aliases[n]; ok {
			resolved = append(resolved, al...)
		} else {
			resolved = append(resolved, n)
		}
	}
	return resolved
}

// benchTemplates prints the timing of the selected templates' execution (parsed once, over data built
// once), as one JSON line.
func benchTemplates(r release, cfg injectorConfig, values map[string]interface{}, mesh *MeshConfig, pod *Pod, revision string, native bool, seconds float64) {
	data, _, err := buildData(r, values, mesh, pod, revision, native)
	if err != nil {
		fail("%v", err)
	}
	var ts []*template.Template
	for _, n := range templateNames(cfg, pod) {
		text, ok := cfg.Templates[n]
		if !ok {
			fail("requested template %q not found", n)
		}
		t, err := template.New("inject").Funcs(stageFuncs(r, data)).Parse(text)
		if err != nil {
			fail("%v", err)
		}
		ts = append(ts, t)
	}
	exec := func() (string, error) {
		outs := make([]string, 0, len(ts))
		for _, t := range ts {
			var b bytes.Buffer
			if err := t.Execute(&b, data); err != nil {
				return "", err
			}
			outs = append(outs, b.String())
		}
		return strings.Join(outs, "\n---\n"), nil
	}
	out, err := exec()
	if err != nil {
		fail("%v", err)
	}
	n, elapsed, cpu, _, _, err := benchLoop(func() error { _, err := exec(); return err }, time.Duration(seconds*float64(time.Second)))
	if err != nil {
		fail("%v", err)
	}
	b, _ := json.Marshal(map[string]interface{}{
		"n": n, "nsPerOp": float64(elapsed.Nanoseconds()) / float64(n), "cpuNsPerOp": float64(cpu.Nanoseconds()) / float64(n), "output": out,
	})
	os.Stdout.Write(append(b, '\n'))
}

func runTemplates(r release, cfg injectorConfig, values map[string]interface{}, mesh *MeshConfig, pod *Pod, revision string, native bool) (string, error) {
	data, _, err := buildData(r, values, mesh, pod, revision, native)
	if err != nil {
		return "", err
	}
	resolved := templateNames(cfg, pod)
	outs := []string{}
	for _, n := range resolved {
		text, ok := cfg.Templates[n]
		if !ok {
			return strings.Join(outs, "\n---\n"), fmt.Errorf("requested template %q not found", n)
		}
		t, err := template.New("inject").Funcs(stageFuncs(r, data)).Parse(text)
		if err != nil {
			return strings.Join(outs, "\n---\n"), err
		}
		var b bytes.Buffer
		err = t.Execute(&b, data)
		outs = append(outs, b.String())
		if err != nil {
			return strings.Join(outs, "\n---\n"), err
		}
	}
	return strings.Join(outs, "\n---\n"), nil
}
