package main

// Typed fixtures: Go values that JSON data cannot express (structs, typed numbers, typed maps and
// slices, nil pointers, methods). test/vectors/fixtures.ts builds the same values for the TypeScript
// engine; the two files must change together.
//
// Nothing here may print a pointer or a func with %v: their addresses differ from run to run.

import (
	"errors"
	"strings"
)

type Meta struct {
	Name        string
	Namespace   string
	Labels      map[string]string
	Annotations map[string]string
}

// QualifiedName is promoted to every struct embedding Meta.
func (m Meta) QualifiedName() string { return m.Namespace + "/" + m.Name }

// BoolValue is shaped like a protobuf wrapper: GetValue answers the zero value on a nil pointer.
type BoolValue struct{ Value bool }

func (b *BoolValue) GetValue() bool {
	if b == nil {
		return false
	}
	return b.Value
}

type UInt32Value struct{ Value uint32 }

func (u *UInt32Value) GetValue() uint32 {
	if u == nil {
		return 0
	}
	return u.Value
}

// Phase is a Stringer: fmt prints its name, %d its number.
type Phase int

func (p Phase) String() string {
	switch p {
	case 0:
		return "Pending"
	case 1:
		return "Running"
	}
	return "Unknown"
}

type Port struct {
	Name          string
	ContainerPort int32
	Protocol      string
}

type Probe struct {
	Path string
	Port int
}

type Container struct {
	Name      string
	Image     string
	Args      []string
	Ports     []Port
	Readiness *Probe
	Liveness  *Probe
}

type Owner struct {
	Kind string
	Ref  *Owner
}

type Pod struct {
	Meta
	Phase       Phase
	Containers  []Container
	Replicas    int
	Ratio       float64
	Weight      float32
	Priority    int64
	Small       int8
	Port        uint16
	Ready       bool
	Hold        *BoolValue
	Rewrite     *BoolValue
	Concurrency *UInt32Value
	Limits      map[string]int
	Tags        []string
	Empty       []string
	NoLabels    map[string]string
	Extra       interface{}
	Detail      interface{}
	Owner       *Owner
	Greet       func(string) string
	Sum         func(...int) int
	Check       func(int) (int, error)
	secret      string
}

func (p Pod) Hello() string                   { return "hello " + p.Name }
func (p Pod) Label(key string) string         { return p.Labels[key] }
func (p Pod) Add(a, b int) int                { return a + b }
func (p Pod) Scale(f float64) float64         { return f * float64(p.Replicas) }
func (p Pod) Fail(msg string) (string, error) { return "", errors.New(msg) }
func (p Pod) Ok(b bool) (string, error) {
	if b {
		return "ok", nil
	}
	return "", errors.New("not ok")
}
func (p Pod) Join(sep string, parts ...string) string { return strings.Join(parts, sep) }

// ContainerNamed returns a pointer, nil when there is none.
func (p Pod) ContainerNamed(name string) *Container {
	for i := range p.Containers {
		if p.Containers[i].Name == name {
			return &p.Containers[i]
		}
	}
	return nil
}

type Node struct {
	Name     string
	Value    int
	Children []*Node
}

func podFixture() interface{} {
	return &Pod{
		Meta: Meta{
			Name:        "web-0",
			Namespace:   "prod",
			Labels:      map[string]string{"app": "web", "tier": "front", "version": "v1"},
			Annotations: map[string]string{"sidecar.istio.io/inject": "true"},
		},
		Phase: Phase(1),
		Containers: []Container{
			{
				Name:      "app",
				Image:     "nginx:1.25",
				Args:      []string{"--port", "8080"},
				Ports:     []Port{{Name: "http", ContainerPort: 8080, Protocol: "TCP"}, {Name: "metrics", ContainerPort: 9090, Protocol: "TCP"}},
				Readiness: &Probe{Path: "/ready", Port: 8080},
			},
			{Name: "sidecar", Image: "proxy:1.0"},
		},
		Replicas:    3,
		Ratio:       0.25,
		Weight:      1.5,
		Priority:    -7,
		Small:       -3,
		Port:        15001,
		Ready:       true,
		Hold:        &BoolValue{Value: true},
		Concurrency: &UInt32Value{Value: 2},
		Limits:      map[string]int{"cpu": 2, "memory": 512},
		Tags:        []string{"b", "a", "c"},
		Detail:      map[string]interface{}{"k": "v", "n": 1.5},
		Owner:       &Owner{Kind: "ReplicaSet", Ref: &Owner{Kind: "Deployment"}},
		Greet:       func(s string) string { return "hi " + s },
		Sum: func(xs ...int) int {
			t := 0
			for _, x := range xs {
				t += x
			}
			return t
		},
		Check: func(n int) (int, error) {
			if n < 0 {
				return 0, errors.New("negative")
			}
			return n * 2, nil
		},
		secret: "hidden",
	}
}

func valuesFixture() interface{} {
	return map[string]interface{}{
		"i":        42,
		"i8":       int8(-8),
		"i64":      int64(1 << 40),
		"u8":       uint8(200),
		"u64":      uint64(18446744073709551615),
		"f32":      float32(0.1),
		"f64":      2.5,
		"s":        "str",
		"b":        true,
		"strs":     []string{"b", "a", "c"},
		"ints":     []int{3, 1, 2},
		"empty":    []string{},
		"nilslice": []string(nil),
		"ss":       map[string]string{"x": "1", "y": "2"},
		"si":       map[string]int{"one": 1, "two": 2},
		"nilmap":   map[string]int(nil),
		"ptr":      &Meta{Name: "m", Namespace: "ns"},
		"nilptr":   (*Meta)(nil),
		"meta":     Meta{Name: "v", Namespace: "vs", Labels: map[string]string{"a": "1"}},
		"phase":    Phase(0),
		"wrap":     &BoolValue{Value: true},
		"nilwrap":  (*BoolValue)(nil),
		"iface":    nil,
		"bytes":    []byte("hi"),
		"fn":       func(a, b string) string { return a + "+" + b },
		"fnerr": func(s string) (string, error) {
			if s == "" {
				return "", errors.New("empty input")
			}
			return strings.ToUpper(s), nil
		},
		"nested": map[string]interface{}{
			"a": map[string]interface{}{"b": []interface{}{1.0, "two", 3.5, nil, true}},
		},
	}
}

func treeFixture() interface{} {
	return &Node{Name: "root", Value: 1, Children: []*Node{
		{Name: "a", Value: 2, Children: []*Node{{Name: "a1", Value: 3}, {Name: "a2", Value: 4}}},
		{Name: "b", Value: 5},
	}}
}

var fixtures = map[string]func() interface{}{
	"pod":    podFixture,
	"values": valuesFixture,
	"tree":   treeFixture,
}
