package main

// Benchmark mode (-bench): times Go's own text/template on the cases bench/run.js sends, so each
// benchmark run shows the TypeScript engine and Go side by side on the same machine.
//
// Protocol (JSON Lines): each stdin line is a case
//
//	{"name","template","data","funcs","typed","mode":"exec"|"parse","seconds"}
//
// and each stdout line, in the same order, is
//
//	{"name","nsPerOp","cpuNsPerOp","n","allocsPerOp","bytesPerOp","output","error"}
//
// "typed": the data's ObjectMeta and Containers keys are decoded into the Istio stand-in types (the
// types the Istio functions take), the rest stays as encoding/json decoded it.
// "mode": exec times Execute of a template parsed once (warm); parse times New+Funcs+Parse.

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/template"
	"time"

	"github.com/Masterminds/sprig"
)

var benchMode = flag.Bool("bench", false, "benchmark mode: time each case (see bench.go)")

type benchCase struct {
	Name     string          `json:"name"`
	Template string          `json:"template"`
	Data     json.RawMessage `json:"data"`
	Funcs    string          `json:"funcs"`
	Typed    bool            `json:"typed"`
	Mode     string          `json:"mode"`
	Seconds  float64         `json:"seconds"`
}

type benchResult struct {
	Name        string  `json:"name"`
	NsPerOp     float64 `json:"nsPerOp"`
	CPUNsPerOp  float64 `json:"cpuNsPerOp"`
	N           int     `json:"n"`
	AllocsPerOp float64 `json:"allocsPerOp"`
	BytesPerOp  float64 `json:"bytesPerOp"`
	Output      string  `json:"output"`
	Error       *string `json:"error"`
}

func runBench() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var c benchCase
			var res benchResult
			if e := json.Unmarshal(line, &c); e != nil {
				res.Error = strp("bad case: " + e.Error())
			} else {
				res = benchOne(&c)
			}
			if e := enc.Encode(res); e != nil {
				fatalf("%v", e)
			}
			out.Flush()
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fatalf("%v", err)
		}
	}
}

func benchFuncs(name string) (template.FuncMap, error) {
	switch name {
	case "", "builtin":
		return template.FuncMap{}, nil
	case "sprig":
		return sprig.TxtFuncMap(), nil
	case "istio":
		if istioFuncs == nil {
			return nil, fmt.Errorf("istio function set is not built into this tool")
		}
		return istioFuncs(), nil
	}
	return nil, fmt.Errorf("function set %q cannot be benchmarked", name)
}

func benchData(c *benchCase) (interface{}, error) {
	if len(c.Data) == 0 {
		return nil, nil
	}
	var v interface{}
	if err := json.Unmarshal(c.Data, &v); err != nil {
		return nil, fmt.Errorf("bad data: %v", err)
	}
	if !c.Typed {
		return v, nil
	}
	m, ok := v.(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("typed data must be a map")
	}
	if raw, ok := m["ObjectMeta"]; ok {
		var meta IstioObjectMeta
		if err := recode(raw, &meta); err != nil {
			return nil, err
		}
		m["ObjectMeta"] = meta
	}
	if raw, ok := m["Containers"]; ok {
		var cs []IstioContainer
		if err := recode(raw, &cs); err != nil {
			return nil, err
		}
		m["Containers"] = cs
	}
	return m, nil
}

func recode(v interface{}, into interface{}) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, into)
}

func benchOne(c *benchCase) (res benchResult) {
	res.Name = c.Name
	fail := func(err error) benchResult {
		res.Error = strp(err.Error())
		return res
	}
	fm, err := benchFuncs(c.Funcs)
	if err != nil {
		return fail(err)
	}
	data, err := benchData(c)
	if err != nil {
		return fail(err)
	}
	t, err := template.New(c.Name).Funcs(fm).Parse(c.Template)
	if err != nil {
		return fail(err)
	}
	var buf strings.Builder
	if err := t.Execute(&buf, data); err != nil {
		return fail(err)
	}
	res.Output = buf.String()

	var op func() error
	switch c.Mode {
	case "", "exec":
		op = func() error {
			var b strings.Builder
			return t.Execute(&b, data)
		}
	case "parse":
		op = func() error {
			_, err := template.New(c.Name).Funcs(fm).Parse(c.Template)
			return err
		}
	default:
		return fail(fmt.Errorf("unknown mode %q", c.Mode))
	}
	seconds := c.Seconds
	if seconds <= 0 {
		seconds = 1
	}
	n, elapsed, cpu, allocs, bytes, err := benchLoop(op, time.Duration(seconds*float64(time.Second)))
	if err != nil {
		return fail(err)
	}
	res.N = n
	res.NsPerOp = float64(elapsed.Nanoseconds()) / float64(n)
	res.CPUNsPerOp = float64(cpu.Nanoseconds()) / float64(n)
	res.AllocsPerOp = float64(allocs) / float64(n)
	res.BytesPerOp = float64(bytes) / float64(n)
	return res
}
