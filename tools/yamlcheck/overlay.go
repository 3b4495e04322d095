package main

import (
	"encoding/json"
	"fmt"
	"io/ioutil"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// Mirrors of k8s.io/api/core/v1 and apimachinery's meta/v1, with the real Go names and JSON tags, for
// the fields the overlay cases write: encoding/json names the innermost struct and the JSON path in its
// errors, so these give its exact words.

type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

type ObjectMeta struct {
	Name        string            `json:"name,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

type ExecAction struct {
	Command []string `json:"command,omitempty"`
}

type LifecycleHandler struct {
	Exec *ExecAction `json:"exec,omitempty"`
}

type Lifecycle struct {
	PostStart *LifecycleHandler `json:"postStart,omitempty"`
	PreStop   *LifecycleHandler `json:"preStop,omitempty"`
}

type ContainerPort struct {
	Name          string `json:"name,omitempty"`
	ContainerPort int32  `json:"containerPort"`
}

type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

type SecurityContext struct {
	RunAsUser    *int64 `json:"runAsUser,omitempty"`
	RunAsNonRoot *bool  `json:"runAsNonRoot,omitempty"`
}

type Container struct {
	Name            string           `json:"name"`
	Image           string           `json:"image,omitempty"`
	Command         []string         `json:"command,omitempty"`
	Args            []string         `json:"args,omitempty"`
	Ports           []ContainerPort  `json:"ports,omitempty"`
	Env             []EnvVar         `json:"env,omitempty"`
	Lifecycle       *Lifecycle       `json:"lifecycle,omitempty"`
	SecurityContext *SecurityContext `json:"securityContext,omitempty"`
}

type PodSpec struct {
	InitContainers                []Container `json:"initContainers,omitempty"`
	Containers                    []Container `json:"containers"`
	TerminationGracePeriodSeconds *int64      `json:"terminationGracePeriodSeconds,omitempty"`
}

type Pod struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PodSpec `json:"spec,omitempty"`
}

func checkOverlays(enc *json.Encoder, files []string) {
	type result struct {
		File  string  `json:"file"`
		Error *string `json:"error"`
	}
	for _, f := range files {
		b, err := ioutil.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "yamlcheck:", err)
			os.Exit(1)
		}
		r := result{File: filepath.Base(f)}
		if err := readOverlay(b); err != nil {
			s := err.Error()
			r.Error = &s
		}
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, "yamlcheck:", err)
			os.Exit(1)
		}
	}
}

func readOverlay(b []byte) error {
	m := map[string]interface{}{}
	if err := yaml.Unmarshal(b, &m); err != nil {
		return err
	}
	j, err := json.Marshal(m)
	if err != nil {
		return err
	}
	var pod Pod
	return json.Unmarshal(j, &pod)
}
