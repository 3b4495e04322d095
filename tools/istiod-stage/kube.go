package main

// Minimal mirrors of the Kubernetes types the injection templates touch (k8s.io/api/core/v1 and
// apimachinery's meta/v1), with the Go field names and JSON tags of the real ones, the pod a controller
// creates from a workload, and the defaults the API server fills in before the webhook sees it.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

type ObjectMeta struct {
	Name            string            `json:"name,omitempty"`
	GenerateName    string            `json:"generateName,omitempty"`
	Namespace       string            `json:"namespace,omitempty"`
	UID             string            `json:"uid,omitempty"`
	Labels          map[string]string `json:"labels,omitempty"`
	Annotations     map[string]string `json:"annotations,omitempty"`
	OwnerReferences []OwnerReference  `json:"ownerReferences,omitempty"`
}

// NamespacedName is k8s.io/apimachinery/pkg/types.NamespacedName (DeploymentMeta from 1.23).
type NamespacedName struct {
	Namespace string
	Name      string
}

type ContainerPort struct {
	Name          string `json:"name,omitempty"`
	HostPort      int32  `json:"hostPort,omitempty"`
	ContainerPort int32  `json:"containerPort"`
	Protocol      string `json:"protocol,omitempty"`
	HostIP        string `json:"hostIP,omitempty"`
}

type Container struct {
	Name  string          `json:"name"`
	Image string          `json:"image,omitempty"`
	Ports []ContainerPort `json:"ports,omitempty"`
}

type PodSpec struct {
	InitContainers     []Container `json:"initContainers,omitempty"`
	Containers         []Container `json:"containers"`
	ServiceAccountName string      `json:"serviceAccountName,omitempty"`
	HostNetwork        bool        `json:"hostNetwork,omitempty"`
}

type Pod struct {
	TypeMeta   `json:",inline"`
	ObjectMeta ObjectMeta `json:"metadata,omitempty"`
	Spec       PodSpec    `json:"spec,omitempty"`
}

// ---------- from a workload to the pod istiod sees ----------

func asMap(v interface{}) map[string]interface{} {
	m, _ := v.(map[string]interface{})
	return m
}

func str(v interface{}) string {
	s, _ := v.(string)
	return s
}

// controllerPod builds the pod a workload's controller would create and submit: generateName and a
// controller owner reference (so istiod has to guess the workload from them), the request namespace.
func controllerPod(obj map[string]interface{}, requestNS string) (map[string]interface{}, error) {
	kind := str(obj["kind"])
	meta := asMap(obj["metadata"])
	name := str(meta["name"])
	ns := str(meta["namespace"])
	if ns == "" {
		ns = requestNS
	}
	spec := asMap(obj["spec"])
	var tmpl map[string]interface{}
	switch kind {
	case "Pod":
		p := deepCopy(obj).(map[string]interface{})
		pm := asMap(p["metadata"])
		if pm == nil {
			pm = map[string]interface{}{}
			p["metadata"] = pm
		}
		if str(pm["namespace"]) == "" {
			pm["namespace"] = ns
		}
		return p, nil
	case "CronJob":
		tmpl = asMap(asMap(asMap(spec["jobTemplate"])["spec"])["template"])
	default:
		tmpl = asMap(spec["template"])
	}
	if tmpl == nil {
		return nil, fmt.Errorf("%s %s has no pod template", kind, name)
	}
	t := deepCopy(tmpl).(map[string]interface{})
	pm := asMap(t["metadata"])
	if pm == nil {
		pm = map[string]interface{}{}
	}
	labels := asMap(pm["labels"])
	if labels == nil {
		labels = map[string]interface{}{}
	}
	owner := map[string]interface{}{"controller": true, "blockOwnerDeletion": true, "uid": "00000000-0000-0000-0000-000000000000"}
	const hash = "5d4f8b9c7"
	switch kind {
	case "Deployment":
		labels["pod-template-hash"] = hash
		owner["apiVersion"], owner["kind"], owner["name"] = "apps/v1", "ReplicaSet", name+"-"+hash
	case "ReplicaSet", "StatefulSet", "DaemonSet":
		owner["apiVersion"], owner["kind"], owner["name"] = "apps/v1", kind, name
	case "Job":
		labels["job-name"] = name
		owner["apiVersion"], owner["kind"], owner["name"] = "batch/v1", "Job", name
	case "CronJob":
		job := name + "-28000000"
		labels["job-name"] = job
		owner["apiVersion"], owner["kind"], owner["name"] = "batch/v1", "Job", job
	case "ReplicationController":
		owner["apiVersion"], owner["kind"], owner["name"] = "v1", kind, name
	default:
		owner["apiVersion"], owner["kind"], owner["name"] = str(obj["apiVersion"]), kind, name
	}
	genName := str(owner["name"]) + "-"
	delete(pm, "name")
	pm["generateName"] = genName
	pm["namespace"] = ns
	if len(labels) > 0 {
		pm["labels"] = labels
	}
	pm["ownerReferences"] = []interface{}{owner}
	t["metadata"] = pm
	t["apiVersion"], t["kind"] = "v1", "Pod"
	return t, nil
}

var pullAlways = regexp.MustCompile(`:latest$`)

// applyPodDefaults: what SetDefaults_Pod & co. and the ServiceAccount admission plugin fill in.
func applyPodDefaults(pod map[string]interface{}) {
	spec := asMap(pod["spec"])
	if spec == nil {
		spec = map[string]interface{}{}
		pod["spec"] = spec
	}
	probe := func(p map[string]interface{}) {
		for k, v := range map[string]float64{"timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3} {
			if _, ok := p[k]; !ok {
				p[k] = v
			}
		}
		if hg := asMap(p["httpGet"]); hg != nil {
			if _, ok := hg["scheme"]; !ok {
				hg["scheme"] = "HTTP"
			}
			if _, ok := hg["path"]; !ok {
				hg["path"] = "/"
			}
		}
	}
	container := func(c map[string]interface{}) {
		if _, ok := c["terminationMessagePath"]; !ok {
			c["terminationMessagePath"] = "/dev/termination-log"
		}
		if _, ok := c["terminationMessagePolicy"]; !ok {
			c["terminationMessagePolicy"] = "File"
		}
		if _, ok := c["imagePullPolicy"]; !ok {
			img := str(c["image"])
			if img != "" {
				ref := img
				if i := strings.IndexByte(ref, '@'); i >= 0 {
					c["imagePullPolicy"] = "IfNotPresent"
				} else {
					last := ref[strings.LastIndex(ref, "/")+1:]
					if !strings.Contains(last, ":") || pullAlways.MatchString(ref) {
						c["imagePullPolicy"] = "Always"
					} else {
						c["imagePullPolicy"] = "IfNotPresent"
					}
				}
			}
		}
		if ports, ok := c["ports"].([]interface{}); ok {
			for _, p := range ports {
				if pm := asMap(p); pm != nil {
					if _, ok := pm["protocol"]; !ok {
						pm["protocol"] = "TCP"
					}
				}
			}
		}
		for _, k := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
			if p := asMap(c[k]); p != nil {
				probe(p)
			}
		}
		if _, ok := c["resources"]; !ok {
			c["resources"] = map[string]interface{}{}
		}
	}
	for _, k := range []string{"containers", "initContainers"} {
		if list, ok := spec[k].([]interface{}); ok {
			for _, c := range list {
				if cm := asMap(c); cm != nil {
					container(cm)
				}
			}
		}
	}
	defaults := map[string]interface{}{
		"restartPolicy":                 "Always",
		"terminationGracePeriodSeconds": float64(30),
		"dnsPolicy":                     "ClusterFirst",
		"securityContext":               map[string]interface{}{},
		"schedulerName":                 "default-scheduler",
		"serviceAccountName":            "default",
		"enableServiceLinks":            true,
	}
	for k, v := range defaults {
		if _, ok := spec[k]; !ok {
			spec[k] = v
		}
	}
	if _, ok := spec["serviceAccount"]; !ok {
		spec["serviceAccount"] = spec["serviceAccountName"]
	}
}

func decodePod(podJSON map[string]interface{}) (Pod, error) {
	var p Pod
	b, err := json.Marshal(podJSON)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("pod: %v", err)
	}
	return p, nil
}

var cronJobName = regexp.MustCompile(`^(.+)-\d{8,10}$`)

// getDeployMetaFromPod: istiod's heuristics (kube.GetDeployMetaFromPod) for the owning workload.
func getDeployMetaFromPod(pod *Pod) (NamespacedName, TypeMeta) {
	dm := NamespacedName{Name: pod.ObjectMeta.Name, Namespace: pod.ObjectMeta.Namespace}
	tm := TypeMeta{Kind: "Pod", APIVersion: "v1"}
	if pod.ObjectMeta.GenerateName != "" {
		var ref *OwnerReference
		for i, r := range pod.ObjectMeta.OwnerReferences {
			if r.Controller != nil && *r.Controller {
				ref = &pod.ObjectMeta.OwnerReferences[i]
				break
			}
		}
		if ref != nil {
			tm.APIVersion, tm.Kind = ref.APIVersion, ref.Kind
			dm.Name = ref.Name
			hash := pod.ObjectMeta.Labels["pod-template-hash"]
			switch {
			case tm.Kind == "ReplicaSet" && hash != "" && strings.HasSuffix(ref.Name, hash):
				dm.Name = strings.TrimSuffix(ref.Name, "-"+hash)
				tm.Kind = "Deployment"
			case tm.Kind == "ReplicationController" && pod.ObjectMeta.Labels["deploymentconfig"] != "":
				dm.Name = pod.ObjectMeta.Labels["deploymentconfig"]
				tm.Kind = "DeploymentConfig"
			case tm.Kind == "Job":
				if m := cronJobName.FindStringSubmatch(ref.Name); len(m) == 2 {
					dm.Name = m[1]
					tm.Kind = "CronJob"
					tm.APIVersion = "batch/v1"
				}
			}
		}
	}
	if dm.Name == "" {
		dm.Name = pod.ObjectMeta.Name
	}
	return dm, tm
}

func deepCopy(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		m := make(map[string]interface{}, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []interface{}:
		l := make([]interface{}, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}
