package main

// Istio's injection template functions (istiod's pkg/kube/inject/template.go), written again after
// their documented behaviour, on top of Sprig's text functions as istiod composes them:
// template.New("inject").Funcs(sprig.TxtFuncMap()).Funcs(injectionFuncs).
//
// Istio's own packages are not available here, so the Kubernetes and protobuf types the functions take
// are small local stand-ins with the same fields and JSON names (ObjectMeta, Container, ContainerPort,
// Duration). Only their Go type names differ (main.X instead of v1.X), which shows in type errors.

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/Masterminds/sprig"
	"sigs.k8s.io/yaml"
)

type IstioObjectMeta struct {
	Name              string            `json:"name,omitempty"`
	Namespace         string            `json:"namespace,omitempty"`
	CreationTimestamp IstioTime         `json:"creationTimestamp,omitempty"`
	Labels            map[string]string `json:"labels,omitempty"`
	Annotations       map[string]string `json:"annotations,omitempty"`
}

// IstioTime marshals like a zero metav1.Time: null (omitempty never drops a struct).
type IstioTime struct{}

func (IstioTime) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

type IstioContainerPort struct {
	Name          string `json:"name,omitempty"`
	HostPort      int32  `json:"hostPort,omitempty"`
	ContainerPort int32  `json:"containerPort"`
	Protocol      string `json:"protocol,omitempty"`
	HostIP        string `json:"hostIP,omitempty"`
}

type IstioContainer struct {
	Name  string               `json:"name"`
	Image string               `json:"image,omitempty"`
	Ports []IstioContainerPort `json:"ports,omitempty"`
}

// IstioDuration is shaped like google.protobuf.Duration.
type IstioDuration struct {
	Seconds int64
	Nanos   int32
}

func init() {
	istioFuncs = istioFuncMap
	fixtures["istio"] = istioFixture
}

func istioFuncMap() template.FuncMap {
	f := sprig.TxtFuncMap()
	for k, v := range (template.FuncMap{
		"formatDuration":         istioFormatDuration,
		"isset":                  istioIsset,
		"excludeInboundPort":     istioExcludeInboundPort,
		"includeInboundPorts":    istioIncludeInboundPorts,
		"kubevirtInterfaces":     func(s string) string { return s },
		"excludeInterfaces":      func(s string) string { return s },
		"applicationPorts":       istioApplicationPorts,
		"annotation":             istioAnnotation,
		"valueOrDefault":         istioValueOrDefault,
		"toJSON":                 istioToJSON,
		"fromJSON":               istioFromJSON,
		"structToJSON":           istioStructToJSON,
		"protoToJSON":            istioStructToJSON,
		"toYaml":                 istioToYaml,
		"indent":                 istioIndent,
		"directory":              istioDirectory,
		"contains":               func(needle, haystack string) bool { return strings.Contains(haystack, needle) },
		"toLower":                strings.ToLower,
		"appendMultusNetwork":    istioAppendMultusNetwork,
		"env":                    istioEnv,
		"omit":                   istioOmit,
		"strdict":                istioStrdict,
		"toJsonMap":              istioToJSONMap,
		"mergeMaps":              istioMergeMaps,
		"omitNil":                istioOmitNil,
		"otelResourceAttributes": istioOtelResourceAttributes,
	}) {
		f[k] = v
	}
	return f
}

func istioEnv(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func istioFormatDuration(d *IstioDuration) string {
	if d == nil {
		return time.Duration(0).String()
	}
	return (time.Duration(d.Seconds)*time.Second + time.Duration(d.Nanos)).String()
}

func istioIsset(m map[string]string, key string) bool {
	_, ok := m[key]
	return ok
}

func istioDirectory(p string) string {
	dir, _ := path.Split(p)
	return dir
}

func istioExcludeInboundPort(port interface{}, excluded string) string {
	portStr := strings.TrimSpace(fmt.Sprint(port))
	if len(portStr) == 0 || portStr == "0" {
		return excluded
	}
	parts := strings.Split(excluded, ",")
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p == portStr {
			return excluded
		}
		p = strings.TrimSpace(p)
		if len(p) > 0 {
			out = append(out, p)
		}
	}
	out = append(out, portStr)
	return strings.Join(out, ",")
}

func istioValueOrDefault(value interface{}, def interface{}) interface{} {
	if value == "" || value == nil {
		return def
	}
	return value
}

func istioToJSON(m map[string]string) string {
	if m == nil {
		return "{}"
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "{}"
	}
	return string(b)
}

func istioFromJSON(j string) interface{} {
	var m interface{}
	if err := json.Unmarshal([]byte(j), &m); err != nil {
		return "{}"
	}
	return m
}

func istioStructToJSON(v interface{}) string {
	if v == nil {
		return "{}"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "{}"
	}
	return string(b)
}

func istioIndent(spaces int, source string) string {
	lines := strings.Split(source, "\n")
	for i, l := range lines {
		if i > 0 {
			lines[i] = fmt.Sprintf(fmt.Sprintf("%% %ds%%s", spaces), "", l)
		}
	}
	return strings.Join(lines, "\n")
}

func istioToYaml(v interface{}) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

func istioAnnotation(meta IstioObjectMeta, name string, def interface{}) string {
	v, ok := meta.Annotations[name]
	if !ok {
		v = fmt.Sprint(def)
	}
	return v
}

func istioAppendMultusNetwork(existing, network string) string {
	if existing == "" {
		return network
	}
	i := strings.LastIndex(existing, "]")
	if i != -1 {
		var nets []map[string]interface{}
		if err := json.Unmarshal([]byte(existing), &nets); err != nil {
			return existing
		}
		ns, name := "", network
		if parts := strings.SplitN(network, "/", 2); len(parts) == 2 {
			ns, name = parts[0], parts[1]
		}
		for _, n := range nets {
			if n["name"] == name {
				nns := n["namespace"]
				if nns == nil {
					nns = ""
				}
				if nns == ns {
					return existing
				}
			}
		}
		add := fmt.Sprintf(`, {"name": "%s"}`, name)
		if ns != "" {
			add = fmt.Sprintf(`, {"name": "%s", "namespace": "%s"}`, name, ns)
		}
		return existing[:i] + add + existing[i:]
	}
	for _, n := range strings.Split(existing, ",") {
		if strings.TrimSpace(n) == network {
			return existing
		}
	}
	return existing + ", " + network
}

func istioContainerPorts(cs []IstioContainer, include func(IstioContainer) bool) string {
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

func istioApplicationPorts(cs []IstioContainer) string {
	return istioContainerPorts(cs, func(c IstioContainer) bool { return c.Name != "istio-proxy" })
}

func istioIncludeInboundPorts(cs []IstioContainer) string {
	return istioContainerPorts(cs, func(IstioContainer) bool { return true })
}

func istioOmit(dict map[string]string, keys ...string) map[string]string {
	drop := map[string]bool{}
	for _, k := range keys {
		drop[k] = true
	}
	res := map[string]string{}
	for k, v := range dict {
		if !drop[k] {
			res[k] = v
		}
	}
	return res
}

func istioStrdict(v ...string) map[string]string {
	d := map[string]string{}
	for i := 0; i < len(v); i += 2 {
		if i+1 >= len(v) {
			d[v[i]] = ""
			continue
		}
		d[v[i]] = v[i+1]
	}
	return d
}

func istioMergeMaps(maps ...map[string]string) map[string]string {
	if len(maps) == 0 {
		return nil
	}
	res := make(map[string]string, len(maps[0]))
	for _, m := range maps {
		for k, v := range m {
			res[k] = v
		}
	}
	return res
}

func istioToJSONMap(maps ...map[string]string) string {
	b, err := json.Marshal(istioMergeMaps(maps...))
	if err != nil {
		return ""
	}
	return string(b)
}

// istioOmitNil drops nil values from maps and slices, recursively; a container left empty by that
// becomes nil itself. Containers without nils are returned as they are.
func istioOmitNil(v interface{}) interface{} {
	r, _ := istioOmitNilInternal(v)
	return r
}

func istioOmitNilInternal(v interface{}) (interface{}, bool) {
	if v == nil {
		return nil, true
	}
	switch x := v.(type) {
	case map[string]interface{}:
		for _, e := range x {
			if _, changed := istioOmitNilInternal(e); changed {
				out := make(map[string]interface{}, len(x))
				for k, e2 := range x {
					if f := istioOmitNil(e2); f != nil {
						out[k] = f
					}
				}
				if len(out) == 0 {
					return nil, true
				}
				return out, true
			}
		}
		return x, false
	case []interface{}:
		for i, e := range x {
			if _, changed := istioOmitNilInternal(e); changed {
				out := make([]interface{}, 0, len(x))
				out = append(out, x[:i]...)
				for _, e2 := range x[i:] {
					if f := istioOmitNil(e2); f != nil {
						out = append(out, f)
					}
				}
				if len(out) == 0 {
					return nil, true
				}
				return out, true
			}
		}
		return x, false
	}
	return v, false
}

// istioOtelResourceAttributes follows the OpenTelemetry Kubernetes service-attribute conventions
// that istiod applies when the mesh's OpenTelemetry tracing provider asks for
// serviceAttributeEnrichment: OTEL_SEMANTIC_CONVENTIONS; with any other mesh it answers "".
func istioOtelResourceAttributes(mesh interface{}, annotations, labels map[string]string, namespace string, containers []IstioContainer) string {
	if !istioOtelEnrichment(mesh) {
		return ""
	}
	attrs := []string{}
	add := func(k, v string) {
		if v != "" {
			attrs = append(attrs, k+"="+v)
		}
	}
	first := func(vs ...string) string {
		for _, v := range vs {
			if v != "" {
				return v
			}
		}
		return ""
	}
	add("service.namespace", first(annotations["resource.opentelemetry.io/service.namespace"], namespace))
	version := first(annotations["resource.opentelemetry.io/service.version"], labels["app.kubernetes.io/version"])
	if version == "" && len(containers) == 1 {
		version = istioImageVersion(containers[0].Image)
	}
	add("service.version", version)
	if v := annotations["resource.opentelemetry.io/service.instance.id"]; v != "" {
		add("service.instance.id", v)
	} else if len(containers) > 0 {
		attrs = append(attrs, "service.instance.id="+namespace+".$(POD_NAME)."+containers[0].Name)
	}
	return strings.Join(attrs, ",")
}

func istioOtelEnrichment(mesh interface{}) bool {
	m, ok := mesh.(map[string]interface{})
	if !ok {
		return false
	}
	providers, _ := m["extensionProviders"].([]interface{})
	for _, p := range providers {
		pm, _ := p.(map[string]interface{})
		otel, _ := pm["opentelemetry"].(map[string]interface{})
		if otel != nil && otel["serviceAttributeEnrichment"] == "OTEL_SEMANTIC_CONVENTIONS" {
			return true
		}
	}
	return false
}

func istioImageVersion(image string) string {
	digest := ""
	if i := strings.Index(image, "@"); i >= 0 {
		image, digest = image[:i], image[i+1:]
	}
	tag := ""
	if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		tag = image[i+1:]
	}
	switch {
	case tag != "" && digest != "":
		return tag + "@" + digest
	case digest != "":
		return digest
	}
	return tag
}

func istioFixture() interface{} {
	drain := &IstioDuration{Seconds: 45}
	return map[string]interface{}{
		"ObjectMeta": IstioObjectMeta{
			Name:      "reviews-v1",
			Namespace: "bookinfo",
			Labels:    map[string]string{"app": "reviews", "version": "v1"},
			Annotations: map[string]string{
				"sidecar.istio.io/interceptionMode":            "TPROXY",
				"traffic.sidecar.istio.io/excludeInboundPorts": "8080, 9090",
				"status.sidecar.istio.io/port":                 "15021",
			},
		},
		"EmptyMeta": IstioObjectMeta{},
		"Containers": []IstioContainer{
			{Name: "reviews", Image: "docker.io/istio/reviews:1.17.0", Ports: []IstioContainerPort{
				{Name: "http", ContainerPort: 9080, Protocol: "TCP"},
				{Name: "dns", ContainerPort: 53, Protocol: "UDP"},
				{Name: "metrics", ContainerPort: 9090},
			}},
			{Name: "istio-proxy", Image: "proxyv2", Ports: []IstioContainerPort{{Name: "http-envoy-prom", ContainerPort: 15090, Protocol: "TCP"}}},
			{Name: "sctp", Ports: []IstioContainerPort{{ContainerPort: 7000, Protocol: "SCTP"}}},
		},
		"NoContainers":   []IstioContainer{},
		"DrainDuration":  drain,
		"ShortDuration":  &IstioDuration{Seconds: 1, Nanos: 500000000},
		"NilDuration":    (*IstioDuration)(nil),
		"Annotations":    map[string]string{"b": "2", "a": "<1>", "c": "&"},
		"NilAnnotations": map[string]string(nil),
	}
}
