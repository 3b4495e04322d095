package main

// Helm's template functions, written after the behaviour of Helm 3's pkg/engine (funcs.go, engine.go):
// Sprig's text functions without env/expandenv, plus the YAML/JSON helpers and the late-bound
// include/tpl/required. toToml/fromToml are left out (no TOML library here).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	yamlv3 "gopkg.in/yaml.v3"
	"sigs.k8s.io/yaml"
)

// Helm refuses an include nested deeper than this for one template name.
const helmIncludeMax = 1000

func helmFuncMap(t *template.Template, strict bool) template.FuncMap {
	f := sprig.TxtFuncMap()
	delete(f, "env")
	delete(f, "expandenv")

	f["toYaml"] = helmToYAML
	f["toYamlPretty"] = helmToYAMLPretty
	f["fromYaml"] = helmFromYAML
	f["fromYamlArray"] = helmFromYAMLArray
	f["toJson"] = helmToJSON
	f["fromJson"] = helmFromJSON
	f["fromJsonArray"] = helmFromJSONArray
	f["lookup"] = func(string, string, string, string) (map[string]interface{}, error) {
		return map[string]interface{}{}, nil
	}
	// Helm answers "" unless DNS lookups are enabled explicitly.
	f["getHostByName"] = func(string) string { return "" }
	// Helm wraps the message in markers for its own error cleanup; the text a user reads is the bare
	// message, so that is what we give.
	f["required"] = func(warn string, val interface{}) (interface{}, error) {
		if val == nil {
			return val, errors.New(warn)
		}
		if s, ok := val.(string); ok && s == "" {
			return val, errors.New(warn)
		}
		return val, nil
	}
	included := map[string]int{}
	f["include"] = helmInclude(t, included)
	f["tpl"] = helmTpl(t, included, strict)
	return f
}

func helmInclude(t *template.Template, included map[string]int) func(string, interface{}) (string, error) {
	return func(name string, data interface{}) (string, error) {
		if n, ok := included[name]; ok {
			if n > helmIncludeMax {
				return "", fmt.Errorf("rendering template has a nested reference name: %s: unable to execute template", name)
			}
			included[name]++
		} else {
			included[name] = 1
		}
		var buf strings.Builder
		err := t.ExecuteTemplate(&buf, name, data)
		included[name]--
		return buf.String(), err
	}
}

func helmTpl(parent *template.Template, included map[string]int, strict bool) func(string, interface{}) (string, error) {
	return func(text string, vals interface{}) (string, error) {
		t, err := parent.Clone()
		if err != nil {
			return "", fmt.Errorf("cannot clone template: %w", err)
		}
		// Clone does not carry the missingkey option over in every Go version; Helm sets it again.
		if strict {
			t.Option("missingkey=error")
		} else {
			t.Option("missingkey=zero")
		}
		t.Funcs(template.FuncMap{
			"include": helmInclude(t, included),
			"tpl":     helmTpl(t, included, strict),
		})
		t, err = t.New(parent.Name()).Parse(text)
		if err != nil {
			return "", fmt.Errorf("cannot parse template %q: %w", text, err)
		}
		var buf strings.Builder
		if err := t.Execute(&buf, vals); err != nil {
			return "", fmt.Errorf("error during tpl function execution for %q: %w", text, err)
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}
}

func helmToYAML(v interface{}) string {
	data, err := yaml.Marshal(v)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(data), "\n")
}

func helmToYAMLPretty(v interface{}) string {
	var data bytes.Buffer
	enc := yamlv3.NewEncoder(&data)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimSuffix(data.String(), "\n")
}

func helmFromYAML(s string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

func helmFromYAMLArray(s string) []interface{} {
	a := []interface{}{}
	if err := yaml.Unmarshal([]byte(s), &a); err != nil {
		a = []interface{}{err.Error()}
	}
	return a
}

func helmToJSON(v interface{}) string {
	data, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(data)
}

func helmFromJSON(s string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

func helmFromJSONArray(s string) []interface{} {
	a := []interface{}{}
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		a = []interface{}{err.Error()}
	}
	return a
}
