// Command yamlcheck reads each file named on the command line as sigs.k8s.io/yaml does (Unmarshal into
// interface{}, and UnmarshalStrict as kubectl reads manifests), and as encoding/json does when the
// file is JSON, and prints one JSON line per file:
//
//	{"file","value","error","strictError","json","jsonError"}
//
// so the TypeScript loader can be held to Go's reading of raw bytes: encodings, line breaks,
// directives, escapes, tags and duplicate keys.
//
// With -pod-overlay each file is an injection template's output read as istiod reads it: into
// map[string]interface{} with sigs.k8s.io/yaml, written out by encoding/json, and decoded into a Pod
// (overlay.go mirrors the Kubernetes types these cases use); one line {"file","error"} per file.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/ioutil"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

type result struct {
	File        string          `json:"file"`
	Value       json.RawMessage `json:"value,omitempty"`
	Error       *string         `json:"error"`
	StrictError *string         `json:"strictError"`
	// encoding/json.Unmarshal into interface{}, for files that are valid JSON
	JSON      json.RawMessage `json:"json,omitempty"`
	JSONError *string         `json:"jsonError,omitempty"`
}

func main() {
	podOverlay := flag.Bool("pod-overlay", false, "read each file as istiod reads a template's output")
	flag.Parse()
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if *podOverlay {
		checkOverlays(enc, flag.Args())
		return
	}
	for _, f := range flag.Args() {
		b, err := ioutil.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "yamlcheck:", err)
			os.Exit(1)
		}
		r := result{File: filepath.Base(f)}
		var v interface{}
		if err := yaml.Unmarshal(b, &v); err != nil {
			s := err.Error()
			r.Error = &s
		} else {
			r.Value, _ = json.Marshal(v)
		}
		var strict interface{}
		if err := yaml.UnmarshalStrict(b, &strict); err != nil {
			s := err.Error()
			r.StrictError = &s
		}
		if json.Valid(b) {
			var j interface{}
			if err := json.Unmarshal(b, &j); err != nil {
				s := err.Error()
				r.JSONError = &s
			} else {
				r.JSON, _ = json.Marshal(j)
			}
		}
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, "yamlcheck:", err)
			os.Exit(1)
		}
	}
}
