package manifest

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Object is one Kubernetes object: a document, or an item of a List.
type Object struct {
	Node       *yaml.Node // the object's mapping node
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
}

// Objects returns the Kubernetes objects of a document, looking inside
// `kind: List` and `*List` objects, and how many documents or list items were
// not Kubernetes objects (no apiVersion/kind, a top-level sequence, ...).
func Objects(doc *yaml.Node) (objs []Object, other int) {
	objs, others := Entries(doc)
	return objs, len(others)
}

// Entries returns the Kubernetes objects of a document as Objects does, and
// the document or list items that are not objects.
func Entries(doc *yaml.Node) (objs []Object, others []*yaml.Node) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	obj, ok := asObject(root)
	if !ok {
		return nil, []*yaml.Node{root}
	}
	items := Lookup(obj.Node, "items")
	if !strings.HasSuffix(obj.Kind, "List") || items == nil || items.Kind != yaml.SequenceNode {
		return []Object{obj}, nil
	}
	for _, it := range items.Content {
		if o, ok := asObject(resolve(it)); ok {
			objs = append(objs, o)
		} else {
			others = append(others, it)
		}
	}
	return objs, others
}

func asObject(n *yaml.Node) (Object, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return Object{}, false
	}
	o := Object{
		Node:       n,
		APIVersion: scalar(Lookup(n, "apiVersion")),
		Kind:       scalar(Lookup(n, "kind")),
	}
	if o.APIVersion == "" || o.Kind == "" {
		return Object{}, false
	}
	if md := Lookup(n, "metadata"); md != nil {
		o.Name = scalar(Lookup(md, "name"))
		o.Namespace = scalar(Lookup(md, "namespace"))
	}
	return o, true
}

// Lookup returns the value of key in a mapping node, or nil. When a key is
// repeated the last one wins, as in the value the rules see.
func Lookup(m *yaml.Node, key string) *yaml.Node {
	k, v := lookupPair(m, key)
	if k == nil {
		return nil
	}
	return v
}

func lookupPair(m *yaml.Node, key string) (k, v *yaml.Node) {
	m = resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := len(m.Content) - 2; i >= 0; i -= 2 {
		if m.Content[i].Value == key && m.Content[i].Kind == yaml.ScalarNode {
			return m.Content[i], resolve(m.Content[i+1])
		}
	}
	return nil, nil
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return ""
	}
	return n.Value
}
