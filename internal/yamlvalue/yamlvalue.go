// Package yamlvalue converts YAML nodes to the values kubectl would send to
// the API server: as Rego values for the rules (the object a rule reads as
// input), or as plain Go values (the labels and taints of inventory nodes).
// One conversion serves both, so that rules and the inventory read a YAML
// 1.1 boolean or an anchor alike.
package yamlvalue

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/dslint/dslint/internal/manifest"
)

// Rego converts a YAML node to the Rego value kubectl would send to the
// API server: scalars typed as YAML 1.1 types them (sigs.k8s.io/yaml reads
// plain yes/no/on/off as booleans), merge keys applied, aliases expanded.
//
// An anchored node is converted once and its value shared by every alias
// to it (values are never modified once built), so a document that aliases
// expand exponentially costs no more than its size. manifest.Parse refuses
// documents nested deeper than manifest.MaxDepth or expanding beyond
// manifest.MaxAliasNodes; the depth is checked again here, so that no node
// from elsewhere (a cycle of aliases) can recurse without end.
//
// Keys in skip are left out wherever they occur, with everything under them.
func Rego(n *yaml.Node, skip map[string]bool) (ast.Value, error) {
	c := converter{skip: skip}
	return c.value(n, 0)
}

// Plain is a YAML node as rules read it, as plain Go values (maps, slices,
// strings, json.Number, bools, nil), with every field kept.
func Plain(n *yaml.Node) (any, error) {
	v, err := Rego(n, nil)
	if err != nil {
		return nil, err
	}
	return ast.JSON(v)
}

type converter struct {
	skip     map[string]bool
	anchored map[*yaml.Node]ast.Value // anchored nodes converted
}

func (c *converter) value(n *yaml.Node, depth int) (ast.Value, error) {
	if depth > manifest.MaxDepth {
		return nil, fmt.Errorf("object is nested more than %d levels deep", manifest.MaxDepth)
	}
	if v, ok := c.anchored[n]; ok {
		return v, nil
	}
	v, err := c.convert(n, depth)
	if err == nil && n.Anchor != "" {
		if c.anchored == nil {
			c.anchored = map[*yaml.Node]ast.Value{}
		}
		c.anchored[n] = v
	}
	return v, err
}

func (c *converter) convert(n *yaml.Node, depth int) (ast.Value, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return ast.Null{}, nil
		}
		return c.value(n.Content[0], depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			return ast.Null{}, nil
		}
		return c.value(n.Alias, depth)
	case yaml.SequenceNode:
		terms := make([]*ast.Term, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := c.value(item, depth+1)
			if err != nil {
				return nil, err
			}
			terms = append(terms, ast.NewTerm(v))
		}
		return ast.NewArray(terms...), nil
	case yaml.MappingNode:
		return c.mapping(n, depth)
	}
	return scalarValue(n), nil
}

func (c *converter) mapping(n *yaml.Node, depth int) (ast.Value, error) {
	pairs := make([][2]*ast.Term, 0, len(n.Content)/2)
	merged := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Tag == "!!merge" {
			merged = true
			continue
		}
		if c.skip[k.Value] {
			continue
		}
		v, err := c.value(n.Content[i+1], depth+1)
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, [2]*ast.Term{keyTerm(keyString(k)), ast.NewTerm(v)})
	}
	obj := ast.NewObject(pairs...)
	if !merged {
		return obj, nil
	}
	// Merged entries (<<: *base) only fill keys the mapping lacks.
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Tag == "!!merge" {
			if err := c.merge(obj, n.Content[i+1], depth); err != nil {
				return nil, err
			}
		}
	}
	return obj, nil
}

func (c *converter) merge(into ast.Object, src *yaml.Node, depth int) error {
	sources := []*yaml.Node{src}
	if src.Kind == yaml.SequenceNode {
		sources = src.Content
	}
	for _, s := range sources {
		v, err := c.value(s, depth+1)
		if err != nil {
			return err
		}
		if o, ok := v.(ast.Object); ok {
			o.Foreach(func(k, v *ast.Term) {
				if into.Get(k) == nil {
					into.Insert(k, v)
				}
			})
		}
	}
	return nil
}

// commonKeys are the mapping keys of Kubernetes objects, as shared terms:
// most keys of every object are among them, and sharing them saves an
// allocation each. Terms are never modified once built, so sharing is safe.
var commonKeys = func() map[string]*ast.Term {
	m := map[string]*ast.Term{}
	for _, k := range strings.Fields(`apiVersion kind metadata name namespace labels annotations spec
		template selector matchLabels matchExpressions key operator values value effect tolerationSeconds
		tolerations nodeSelector affinity nodeAffinity requiredDuringSchedulingIgnoredDuringExecution
		preferredDuringSchedulingIgnoredDuringExecution nodeSelectorTerms matchFields weight preference
		nodeName hostNetwork containers initContainers image imagePullPolicy command args env valueFrom
		ports containerPort hostPort protocol hostIP resources limits requests cpu memory volumeMounts
		mountPath readOnly volumes configMap secret secretName emptyDir hostPath path type livenessProbe
		readinessProbe startupProbe httpGet port initialDelaySeconds periodSeconds timeoutSeconds
		securityContext serviceAccountName restartPolicy replicas strategy jobTemplate schedule
		updateStrategy rollingUpdate maxUnavailable maxSurge priorityClassName terminationGracePeriodSeconds
		fieldRef fieldPath configMapKeyRef secretKeyRef dnsPolicy subPath items`) {
		m[k] = ast.StringTerm(k)
	}
	return m
}()

func keyTerm(k string) *ast.Term {
	if t, ok := commonKeys[k]; ok {
		return t
	}
	return ast.StringTerm(k)
}

// keyString is a mapping key as JSON has it: a string, whatever its YAML type.
func keyString(k *yaml.Node) string {
	if k.Kind == yaml.ScalarNode {
		return k.Value
	}
	return fmt.Sprintf("<%s key at line %d>", kindName(k.Kind), k.Line)
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	}
	return "node"
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// yaml11Bools are the plain scalars YAML 1.1 (and so kubectl) reads as
// booleans beyond true and false.
var yaml11Bools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true,
	"n": false, "N": false, "no": false, "No": false, "NO": false, "off": false, "Off": false, "OFF": false,
}

func scalarValue(n *yaml.Node) ast.Value {
	v := n.Value
	switch n.ShortTag() {
	case "!!null":
		return ast.Null{}
	case "!!bool":
		b, err := strconv.ParseBool(strings.ToLower(v))
		if err != nil {
			return ast.String(v)
		}
		return ast.Boolean(b)
	case "!!int", "!!float":
		return numberValue(v)
	case "!!str":
		if b, ok := yaml11Bools[v]; ok && n.Style == 0 {
			return ast.Boolean(b)
		}
	}
	return ast.String(v)
}

func numberValue(v string) ast.Value {
	if jsonNumber.MatchString(v) {
		return ast.Number(v)
	}
	clean := strings.ReplaceAll(v, "_", "")
	if i, err := strconv.ParseInt(clean, 0, 64); err == nil {
		return ast.Number(strconv.FormatInt(i, 10))
	}
	if f, err := strconv.ParseFloat(strings.TrimPrefix(clean, "+"), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return ast.Number(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return ast.String(v) // .inf, .nan: no JSON number for them
}
