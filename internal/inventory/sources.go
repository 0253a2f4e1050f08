package inventory

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/manifest"
	"github.com/dslint/dslint/internal/yamlvalue"
)

// IsNode is true for a core v1 Node object.
func IsNode(apiVersion, kind string) bool { return apiVersion == "v1" && kind == "Node" }

// FromManifest is the node a Node object of a manifest defines. Only what
// placement reads is kept (name, labels, taints, unschedulable, allocatable)
// with the positions of those fields, so the parsed document can be dropped: a
// kubectl get nodes dump of a large cluster is mostly status.
func FromManifest(file string, obj manifest.Object) (*Node, error) {
	n := &Node{Name: obj.Name, Pos: locate(file, obj.Node, nil)}
	at := map[string]manifest.Pos{}
	n.Locate = func(path []any) manifest.Pos {
		if p, ok := at[manifest.FormatPath(path)]; ok {
			return p
		}
		return n.Pos
	}
	field := func(path ...any) (*yaml.Node, any, error) {
		v := lookupPath(obj.Node, path)
		if v == nil {
			return nil, nil, nil
		}
		at[manifest.FormatPath(path)] = locate(file, obj.Node, path)
		data, err := yamlvalue.Plain(v)
		return v, data, err
	}
	labels, data, err := field("metadata", "labels")
	if err != nil {
		return nil, err
	}
	n.Labels, _ = data.(map[string]any)
	if labels != nil && labels.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(labels.Content); i += 2 {
			path := []any{"metadata", "labels", labels.Content[i].Value}
			at[manifest.FormatPath(path)] = locate(file, obj.Node, path)
		}
	}
	taints, data, err := field("spec", "taints")
	if err != nil {
		return nil, err
	}
	if ts, ok := data.([]any); ok {
		n.Taints = ts
		for i := range taints.Content {
			for _, f := range []any{nil, "key", "value", "effect"} {
				path := []any{"spec", "taints", i}
				if f != nil {
					path = append(path, f)
				}
				at[manifest.FormatPath(path)] = locate(file, obj.Node, path)
			}
		}
	} else if data != nil {
		n.Taints = []any{data} // not a list: validation reports it
	}
	if _, data, err = field("spec", "unschedulable"); err != nil {
		return nil, err
	}
	n.Unschedulable = data
	// The scheduler reads status.allocatable; a hand-written node may give
	// only its capacity.
	for _, from := range []string{"allocatable", "capacity"} {
		if _, data, err = field("status", from); err != nil {
			return nil, err
		}
		if m, ok := data.(map[string]any); ok {
			n.Allocatable = m
			break
		}
	}
	return n, nil
}

// locate is the position of the field at path in obj, of file.
func locate(file string, obj *yaml.Node, path []any) manifest.Pos {
	p := manifest.Locate(obj, path)
	p.File = file
	return p
}

func lookupPath(n *yaml.Node, path []any) *yaml.Node {
	for _, step := range path {
		if n = manifest.Lookup(n, step.(string)); n == nil {
			return nil
		}
	}
	return n
}

// PoolSpec is a pool of identical nodes declared in the config.
type PoolSpec struct {
	Name        string
	Count       int
	Labels      map[string]string
	Taints      []TaintSpec
	Allocatable map[string]string       // nil: not declared, resources not judged
	Pos         manifest.Pos            // the pool's item in the config
	LabelPos    map[string]manifest.Pos // where each label is written; Pos for those missing
}

// TaintSpec is one taint of a declared pool, with its position.
type TaintSpec struct {
	Key, Value, Effect string
	Pos                manifest.Pos
}

// FromConfig is the nodes of the config's pools with a count, which are
// inventory, and a probe node for each pool without one: a declaration
// has no nodes, but its labels and taints are checked as a node's are
// (lint.Options.Probes).
func FromConfig(c *config.Config) (nodes, probes []*Node) {
	for i, p := range c.Pools {
		spec := PoolSpec{Name: p.Name, Count: max(p.Count, 1), Labels: p.Labels, Allocatable: p.Allocatable, Pos: p.Pos, LabelPos: map[string]manifest.Pos{}}
		for _, t := range p.Taints {
			spec.Taints = append(spec.Taints, TaintSpec{Key: t.Key, Value: t.Value, Effect: t.Effect, Pos: t.Pos})
		}
		for key := range p.Labels {
			spec.LabelPos[key] = c.Pos([]any{"pools", i, "labels", key})
		}
		made := FromPool(spec)
		if p.Inventory() {
			nodes = append(nodes, made...)
			continue
		}
		made[0].Name, made[0].Declared = p.Name, true
		probes = append(probes, made[0])
	}
	return nodes, probes
}

// FromPool is the nodes of a declared pool: Count nodes named <name>-1 ...
// with the pool's labels, taints and allocatable resources, plus the labels
// the kubelet gives every node (kubernetes.io/hostname, and
// kubernetes.io/os: linux unless set). A declared allocatable without pods
// allocates the kubelet's default 110 (maxPods).
func FromPool(p PoolSpec) []*Node {
	var allocatable map[string]any
	if p.Allocatable != nil {
		allocatable = map[string]any{"pods": "110"}
		for k, v := range p.Allocatable {
			allocatable[k] = v
		}
	}
	var taints []any
	for _, t := range p.Taints {
		taint := map[string]any{"key": t.Key, "effect": t.Effect}
		if t.Value != "" {
			taint["value"] = t.Value
		}
		taints = append(taints, taint)
	}
	locate := func(path []any) manifest.Pos {
		if len(path) >= 3 && path[0] == "spec" && path[1] == "taints" {
			if i, ok := path[2].(int); ok && i < len(p.Taints) {
				return p.Taints[i].Pos
			}
		}
		if len(path) >= 3 && path[0] == "metadata" && path[1] == "labels" {
			if key, ok := path[2].(string); ok {
				if pos, ok := p.LabelPos[key]; ok {
					return pos
				}
			}
		}
		return p.Pos
	}
	nodes := make([]*Node, 0, p.Count)
	for i := 1; i <= p.Count; i++ {
		name := fmt.Sprintf("%s-%d", p.Name, i)
		labels := map[string]any{"kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}
		for k, v := range p.Labels {
			labels[k] = v
		}
		nodes = append(nodes, &Node{
			Name: name, Labels: labels, Taints: taints, Allocatable: allocatable,
			Pos: p.Pos, Locate: locate, Pool: p.Name,
		})
	}
	return nodes
}
