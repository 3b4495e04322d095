// Command yamlcheck reads each file named on the command line as sigs.k8s.io/yaml does (Unmarshal into
// interface{}, and UnmarshalStrict as kubectl reads manifests), and as encoding/json does when the
// file is JSON, and prints one JSON line per file:
//
//	{"file","value","error","strictError","json","jsonError"}
//
// so the TypeScript loader can be held to Go's reading of raw bytes: encodings, line breaks,
// directives, escapes, tags and duplicate keys.
package main

import (
	"encoding/json"
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
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	for _, f := range os.Args[1:] {
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
