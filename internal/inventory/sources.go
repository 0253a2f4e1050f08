package inventory

import (
	"fmt"
)

// IsNode is true for a core v1 Node object.
func IsNode(apiVersion, kind string) bool { return apiVersion == "v1" && kind == "Node" }

// FromObject is the node a Node object defines; obj is the object as Rego
// reads it (decoded the way the engine decodes input).
func FromObject(file string, obj map[string]any, line, column int, locate func([]any) (int, int)) *Node {
	meta, _ := obj["metadata"].(map[string]any)
	spec, _ := obj["spec"].(map[string]any)
	n := &Node{File: file, Line: line, Column: column, Locate: locate}
	n.Name, _ = meta["name"].(string)
	n.Labels, _ = meta["labels"].(map[string]any)
	if ts, ok := spec["taints"].([]any); ok {
		n.Taints = ts
	} else if spec["taints"] != nil {
		n.Taints = []any{spec["taints"]} // not a list: validation reports it
	}
	n.Unschedulable = spec["unschedulable"]
	return n
}

// PoolSpec is a pool of identical nodes declared in the config.
type PoolSpec struct {
	Name         string
	Count        int
	Labels       map[string]string
	Taints       []TaintSpec
	File         string
	Line, Column int
}

// TaintSpec is one taint of a declared pool, with its position.
type TaintSpec struct {
	Key, Value, Effect string
	Line, Column       int
}

// FromPool is the nodes of a declared pool: Count nodes named <name>-1 ...
// with the pool's labels and taints, plus the labels the kubelet gives every
// node (kubernetes.io/hostname, and kubernetes.io/os: linux unless set).
func FromPool(p PoolSpec) []*Node {
	var taints []any
	for _, t := range p.Taints {
		taint := map[string]any{"key": t.Key, "effect": t.Effect}
		if t.Value != "" {
			taint["value"] = t.Value
		}
		taints = append(taints, taint)
	}
	locate := func(path []any) (int, int) {
		if len(path) >= 3 && path[0] == "spec" && path[1] == "taints" {
			if i, ok := path[2].(int); ok && i < len(p.Taints) {
				return p.Taints[i].Line, p.Taints[i].Column
			}
		}
		return p.Line, p.Column
	}
	nodes := make([]*Node, 0, p.Count)
	for i := 1; i <= p.Count; i++ {
		name := fmt.Sprintf("%s-%d", p.Name, i)
		labels := map[string]any{"kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}
		for k, v := range p.Labels {
			labels[k] = v
		}
		nodes = append(nodes, &Node{
			Name: name, Labels: labels, Taints: taints,
			File: p.File, Line: p.Line, Column: p.Column, Locate: locate, Pool: p.Name,
		})
	}
	return nodes
}
