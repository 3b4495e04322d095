// Command gorender renders template cases with Go's own text/template, so the TypeScript engine can be
// compared with the real thing byte for byte.
//
// Protocol (JSON Lines): each stdin line is a case
//
//	{"name","template","data","dataInt","funcs","defs":{name:text},"option":string|[string],"fixture","delims":[l,r]}
//
// and each stdout line, in the same order, is
//
//	{"name","output","error","phase":"parse"|"exec"|null}
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
)

type batchCase struct {
	Name     string            `json:"name"`
	Template string            `json:"template"`
	Data     json.RawMessage   `json:"data"`
	DataInt  bool              `json:"dataInt"`
	Funcs    string            `json:"funcs"`
	Defs     map[string]string `json:"defs"`
	Option   json.RawMessage   `json:"option"`
	Fixture  string            `json:"fixture"`
	Delims   []string          `json:"delims"`
	// Vector files only: a case for a Go newer than this toolchain carries its expected result.
	GoVersion string       `json:"goVersion"`
	Expect    *batchResult `json:"expect"`
}

type batchResult struct {
	Name   string  `json:"name"`
	Output string  `json:"output"`
	Error  *string `json:"error"`
	Phase  *string `json:"phase"`
}

// istioFuncs is set by istio.go (in init) when the Istio function set is compiled in.
var istioFuncs func() template.FuncMap

func strp(s string) *string { return &s }

func main() {
	vectors := flag.Bool("vectors", false, "vector-file mode: copy the \"expect\" of cases for a newer Go, reject duplicate names")
	flag.Parse()
	if *benchMode {
		runBench()
		return
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	// Keep '<', '>' and '&' readable in the vector files.
	enc.SetEscapeHTML(false)
	seen := map[string]bool{}
	lineNo := 0
	for {
		line, err := in.ReadBytes('\n')
		lineNo++
		if len(bytes.TrimSpace(line)) > 0 {
			var res batchResult
			if *vectors {
				res = vectorLine(line, seen, lineNo)
			} else {
				res = runLine(line)
			}
			if e := enc.Encode(res); e != nil {
				fmt.Fprintln(os.Stderr, "gorender:", e)
				os.Exit(1)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "gorender:", err)
			os.Exit(1)
		}
	}
}

func runLine(line []byte) (res batchResult) {
	var c batchCase
	if err := json.Unmarshal(line, &c); err != nil {
		// a field of the wrong type: encoding/json decodes the rest, so the case keeps its name
		return batchResult{Name: c.Name, Error: strp("bad case: " + err.Error())}
	}
	res.Name = c.Name
	// A panic inside text/template (outside function calls, which it recovers itself) must not
	// lose the rest of the batch.
	defer func() {
		if r := recover(); r != nil {
			res.Error = strp(fmt.Sprint("panic: ", r))
			res.Phase = strp("exec")
		}
	}()
	return runCase(&c)
}

func runCase(c *batchCase) batchResult {
	res := batchResult{Name: c.Name}
	fail := func(phase string, err error) batchResult {
		res.Error = strp(err.Error())
		if phase != "" {
			res.Phase = strp(phase)
		}
		return res
	}

	data, err := caseData(c)
	if err != nil {
		return fail("", err)
	}
	opts, err := caseOptions(c.Option)
	if err != nil {
		return fail("", err)
	}

	t := template.New(c.Name)
	if len(c.Delims) == 2 {
		t.Delims(c.Delims[0], c.Delims[1])
	}
	if err := setOptions(t, opts); err != nil {
		return fail("", err)
	}
	switch c.Funcs {
	case "", "builtin":
	case "sprig":
		t.Funcs(sprig.TxtFuncMap())
	case "helm":
		t.Funcs(helmFuncMap(t, hasOption(opts, "missingkey=error")))
	case "istio":
		if istioFuncs == nil {
			return fail("", fmt.Errorf("istio function set is not built into this tool"))
		}
		t.Funcs(istioFuncs())
	default:
		return fail("", fmt.Errorf("unknown function set %q", c.Funcs))
	}

	if _, err := t.Parse(c.Template); err != nil {
		return fail("parse", err)
	}
	names := make([]string, 0, len(c.Defs))
	for n := range c.Defs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, err := t.New(n).Parse(c.Defs[n]); err != nil {
			return fail("parse", err)
		}
	}

	var buf strings.Builder
	err = t.Execute(&buf, data)
	res.Output = buf.String()
	if err != nil {
		return fail("exec", err)
	}
	return res
}

// setOptions applies Option, turning its panic on an unknown option into an error.
func setOptions(t *template.Template, opts []string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	if len(opts) > 0 {
		t.Option(opts...)
	}
	return nil
}

func hasOption(opts []string, o string) bool {
	for _, x := range opts {
		if x == o {
			return true
		}
	}
	return false
}

func caseOptions(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, fmt.Errorf("bad option: %v", err)
	}
	return many, nil
}

func caseData(c *batchCase) (interface{}, error) {
	if c.Fixture != "" {
		f, ok := fixtures[c.Fixture]
		if !ok {
			return nil, fmt.Errorf("unknown fixture %q", c.Fixture)
		}
		return f(), nil
	}
	if len(c.Data) == 0 {
		return nil, nil
	}
	var v interface{}
	dec := json.NewDecoder(bytes.NewReader(c.Data))
	// With dataInt the literal is read, not a float64 rounded from it: 9007199254740993 stays exact.
	if c.DataInt {
		dec.UseNumber()
	}
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("bad data: %v", err)
	}
	if c.DataInt {
		v = intify(v)
	}
	return v, nil
}

// intify turns integral numbers into int, as a YAML or Go-literal source would have typed them: a
// literal int64 holds exactly, another integral one (1e3, 2.0) through float64.
func intify(v interface{}) interface{} {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		if f == math.Trunc(f) && f >= -9223372036854775808 && f < 9223372036854775808 {
			return int(f)
		}
		return f
	case []interface{}:
		for i := range x {
			x[i] = intify(x[i])
		}
		return x
	case map[string]interface{}:
		for k := range x {
			x[k] = intify(x[k])
		}
		return x
	}
	return v
}

// vectorLine runs one case of a vector file, or copies its expectation when it needs a newer Go.
func vectorLine(line []byte, seen map[string]bool, lineNo int) batchResult {
	var c batchCase
	if err := json.Unmarshal(line, &c); err != nil {
		fatalf("line %d: %v", lineNo, err)
	}
	if c.Name == "" || seen[c.Name] {
		fatalf("line %d: case name %q is empty or repeated", lineNo, c.Name)
	}
	seen[c.Name] = true
	if c.GoVersion != "" && newerGo(c.GoVersion) {
		if c.Expect == nil {
			fatalf("line %d: case %q needs Go %s and has no \"expect\"", lineNo, c.Name, c.GoVersion)
		}
		r := *c.Expect
		r.Name = c.Name
		return r
	}
	return runLine(line)
}

func fatalf(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "gorender: "+format+"\n", args...)
	os.Exit(2)
}

// newerGo reports whether version ("1.23") is newer than the Go this tool was built with.
func newerGo(version string) bool {
	have := strings.TrimPrefix(runtime.Version(), "go")
	return compareVersions(version, have) > 0
}

func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < 2; i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}
