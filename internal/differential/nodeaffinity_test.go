package differential

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
)

const (
	nodeAffinityPackage  = "data.dslint.lib.nodeaffinity"
	requirementParsesQ   = `x := data.dslint.lib.nodeaffinity.requirement_parses(input.requirement)`
	requirementMatchesQ  = `x := data.dslint.lib.nodeaffinity.requirement_matches(input.requirement, input.labels)`
	nodeSelectorMatchesQ = `x := data.dslint.lib.nodeaffinity.node_selector_matches(input.nodeSelector, input.node)`
	podMatchesNodeQ      = `x := data.dslint.lib.nodeaffinity.pod_matches_node(input.spec, input.node)`
)

var (
	labelKeys    = []string{"role", "size", "n", "zone", "example.com/role", "kubernetes.io/hostname", "a_b.c-d"}
	oddLabelKeys = []string{
		"Role", "role ", "", "-bad", "a/b/c", "Example.com/x", "example.com/", "/x", "a..b/c", "_a",
		strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("b", 253) + "/x", strings.Repeat("b", 254) + "/x",
	}
	labelValues    = []string{"gpu", "cpu", "", "5", "6", "4", "0", "010", "007", "abc", "9223372036854775807", "9223372036854775806"}
	oddLabelValues = []string{
		"GPU", "00", "-0", "+5", "-1", "1.5", " 5", "9223372036854775808", "0009223372036854775807",
		"-9223372036854775808", "99999999999999999999", "has space", "a_", "_a", "a.", "é",
		strings.Repeat("1", 63), strings.Repeat("1", 64),
	}
	selectorOperators    = []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"}
	oddSelectorOperators = []string{"in", "notin", "exists", "gt", "LT", "", "Foo", "=", "==", "!=", "!", "In "}

	nodeNames   = []string{"", "n1", "n2", "node-a", "N1"}
	fieldKeys   = []string{"metadata.name", "metadata.name", "metadata.name", "metadata.labels", "", "spec.unschedulable"}
	fieldValues = []string{"n1", "n2", "node-a", "", "N1", "n1,n2"}
	fieldOps    = []string{"In", "NotIn", "In", "NotIn", "Exists", "in", "Foo", ""}
)

func (s *src) labelKey() string   { return s.pickMostly(labelKeys, oddLabelKeys) }
func (s *src) labelValue() string { return s.pickMostly(labelValues, oddLabelValues) }

// genNode makes a node with a name and labels from the pools (nil labels
// now and then; node labels are not validated, so odd keys appear too).
func genNode(s *src) *v1.Node {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: s.pick(nodeNames)}}
	n := s.intn(5)
	if n > 0 || s.chance(2) {
		node.Labels = map[string]string{}
	}
	for range n {
		node.Labels[s.labelKey()] = s.labelValue()
	}
	return node
}

// someLabel is a key (and its value) of the node's labels, or one from the
// pool, so requirements often name labels the node has.
func someLabel(s *src, node *v1.Node) (string, string) {
	if len(node.Labels) > 0 && !s.chance(3) {
		i := s.intn(len(node.Labels))
		for _, k := range sortedKeys(node.Labels) {
			if i == 0 {
				return k, node.Labels[k]
			}
			i--
		}
	}
	return s.labelKey(), s.labelValue()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// insertion sort: maps here hold at most a handful of keys
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// genRequirement makes a matchExpression, mostly with a value count that
// suits its operator.
func genRequirement(s *src, node *v1.Node) v1.NodeSelectorRequirement {
	key, nodeValue := someLabel(s, node)
	op := s.pickMostly(selectorOperators, oddSelectorOperators)
	var n int
	switch {
	case s.chance(4):
		n = s.intn(4)
	case op == "Exists" || op == "DoesNotExist":
		n = 0
	case op == "Gt" || op == "Lt":
		n = 1
	default:
		n = 1 + s.intn(2)
	}
	req := v1.NodeSelectorRequirement{Key: key, Operator: v1.NodeSelectorOperator(op)}
	if n == 0 && s.chance(3) {
		req.Values = []string{}
	}
	for range n {
		if s.chance(3) {
			req.Values = append(req.Values, nodeValue)
		} else {
			req.Values = append(req.Values, s.labelValue())
		}
	}
	return req
}

func genFieldRequirement(s *src, node *v1.Node) v1.NodeSelectorRequirement {
	req := v1.NodeSelectorRequirement{Key: s.pick(fieldKeys), Operator: v1.NodeSelectorOperator(s.pick(fieldOps))}
	n := 1
	if s.chance(4) {
		n = s.intn(3)
	}
	for range n {
		if s.chance(2) {
			req.Values = append(req.Values, node.Name)
		} else {
			req.Values = append(req.Values, s.pick(fieldValues))
		}
	}
	return req
}

func genTerm(s *src, node *v1.Node) v1.NodeSelectorTerm {
	var term v1.NodeSelectorTerm
	n := s.intn(4)
	if n == 0 && s.chance(3) {
		term.MatchExpressions = []v1.NodeSelectorRequirement{}
	}
	for range n {
		term.MatchExpressions = append(term.MatchExpressions, genRequirement(s, node))
	}
	if s.chance(3) {
		term.MatchFields = append(term.MatchFields, genFieldRequirement(s, node))
		if s.chance(8) {
			term.MatchFields = append(term.MatchFields, genFieldRequirement(s, node))
		}
	}
	return term
}

func genNodeSelector(s *src, node *v1.Node) *v1.NodeSelector {
	ns := &v1.NodeSelector{}
	n := s.intn(4)
	if n == 0 && s.chance(2) {
		ns.NodeSelectorTerms = []v1.NodeSelectorTerm{}
	}
	for range n {
		ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, genTerm(s, node))
	}
	return ns
}

// genPodSpec makes a pod spec with a nodeSelector and node affinity in
// every shape: absent, empty, set; affinity nil at each level.
func genPodSpec(s *src, node *v1.Node) v1.PodSpec {
	var spec v1.PodSpec
	switch s.intn(4) {
	case 0:
	case 1:
		spec.NodeSelector = map[string]string{}
	default:
		spec.NodeSelector = map[string]string{}
		for range 1 + s.intn(2) {
			key, value := someLabel(s, node)
			if s.chance(4) {
				value = s.labelValue()
			}
			spec.NodeSelector[key] = value
		}
	}
	switch s.intn(5) {
	case 0:
	case 1:
		spec.Affinity = &v1.Affinity{}
	case 2:
		spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{}}
	default:
		spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: genNodeSelector(s, node),
		}}
		if s.chance(4) {
			spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution = []v1.PreferredSchedulingTerm{
				{Weight: 1, Preference: genTerm(s, node)},
			}
		}
	}
	return spec
}

// selectionOperator maps a node selector operator the way nodeaffinity
// does (nodeSelectorRequirementsAsSelector); false for any other string.
func selectionOperator(op v1.NodeSelectorOperator) (selection.Operator, bool) {
	switch op {
	case v1.NodeSelectorOpIn:
		return selection.In, true
	case v1.NodeSelectorOpNotIn:
		return selection.NotIn, true
	case v1.NodeSelectorOpExists:
		return selection.Exists, true
	case v1.NodeSelectorOpDoesNotExist:
		return selection.DoesNotExist, true
	case v1.NodeSelectorOpGt:
		return selection.GreaterThan, true
	case v1.NodeSelectorOpLt:
		return selection.LessThan, true
	}
	return "", false
}

type requirementCase struct {
	Requirement v1.NodeSelectorRequirement `json:"requirement"`
	Labels      map[string]string          `json:"labels"`
}

// parses is whether the strict node selector accepts a term holding only
// this requirement: exactly labels.NewRequirement after operator mapping.
func (c requirementCase) parses() bool {
	ns := &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{c.Requirement}}}}
	_, err := nodeaffinity.NewNodeSelector(ns)
	return err == nil
}

// matches is Requirement.Matches; NewRequirement returns the requirement
// even when it reports errors, so this holds for requirements that do not
// parse too. An operator nodeaffinity does not map matches nothing.
func (c requirementCase) matches() bool {
	op, ok := selectionOperator(c.Requirement.Operator)
	if !ok {
		return false
	}
	r, _ := labels.NewRequirement(c.Requirement.Key, op, c.Requirement.Values)
	return r.Matches(labels.Set(c.Labels))
}

type nodeSelectorCase struct {
	NodeSelector *v1.NodeSelector `json:"nodeSelector"`
	Node         *v1.Node         `json:"node"`
}

func genNodeSelectorCase(s *src) nodeSelectorCase {
	node := genNode(s)
	return nodeSelectorCase{NodeSelector: genNodeSelector(s, node), Node: node}
}

func (c nodeSelectorCase) oracle() bool {
	ok, _ := nodeaffinity.NewLazyErrorNodeSelector(c.NodeSelector).Match(c.Node)
	return ok
}

type podCase struct {
	Spec v1.PodSpec `json:"spec"`
	Node *v1.Node   `json:"node"`
}

func genPodCase(s *src) podCase {
	node := genNode(s)
	return podCase{Spec: genPodSpec(s, node), Node: node}
}

func (c podCase) oracle() bool {
	ok, _ := nodeaffinity.GetRequiredNodeAffinity(&v1.Pod{Spec: c.Spec}).Match(c.Node)
	return ok
}

// TestRequirementDifferential: requirement_parses against NewRequirement
// (through NewNodeSelector) and requirement_matches against
// Requirement.Matches.
func TestRequirementDifferential(t *testing.T) {
	t.Parallel()
	parses := prepare(t, requirementParsesQ, nodeAffinityPackage)
	matches := prepare(t, requirementMatchesQ, nodeAffinityPackage)
	tp := &tally{t: t, name: "requirement_parses"}
	tm := &tally{t: t, name: "requirement_matches"}
	s := seeded(3)
	for range cases() {
		node := genNode(s)
		c := requirementCase{Requirement: genRequirement(s, node), Labels: node.Labels}
		input := toInput(t, c)
		tp.check(parses, input, c.parses())
		tm.check(matches, input, c.matches())
	}
	tp.done()
	tm.done()
}

// TestNodeSelectorDifferential: node_selector_matches against
// NewLazyErrorNodeSelector(ns).Match(node), the error ignored.
func TestNodeSelectorDifferential(t *testing.T) {
	differential(t, "node_selector_matches", nodeSelectorMatchesQ, nodeAffinityPackage, 4, genNodeSelectorCase)
}

// TestPodMatchesNodeDifferential: pod_matches_node against
// GetRequiredNodeAffinity(pod).Match(node), the error ignored.
func TestPodMatchesNodeDifferential(t *testing.T) {
	differential(t, "pod_matches_node", podMatchesNodeQ, nodeAffinityPackage, 5, genPodCase)
}

// FuzzNodeSelectorDifferential picks a node, a node selector and a pod spec
// from the fuzz bytes, with two fuzzer-chosen strings added to every pool
// (keys, values, operators, names), and compares node_selector_matches and
// pod_matches_node.
func FuzzNodeSelectorDifferential(f *testing.F) {
	f.Add([]byte{}, "", "")
	f.Add([]byte{2, 1, 3, 9, 0, 1, 4, 1, 10, 0, 2, 1, 1, 0, 4, 1}, "010", "Gt")
	f.Add([]byte{1, 3, 0, 5, 7, 1, 2, 0, 1, 3, 0, 2, 2, 5, 1, 0, 0, 6}, "metadata.name", "n1")
	f.Fuzz(func(t *testing.T, choices []byte, free1, free2 string) {
		nsq := prepare(t, nodeSelectorMatchesQ, nodeAffinityPackage)
		podq := prepare(t, podMatchesNodeQ, nodeAffinityPackage)
		s := fromBytes(t, choices, free1, free2)
		c := genNodeSelectorCase(s)
		tn := &tally{t: t, name: "node_selector_matches"}
		tn.check(nsq, toInput(t, c), c.oracle())
		pc := podCase{Spec: genPodSpec(s, c.Node), Node: c.Node}
		tp := &tally{t: t, name: "pod_matches_node"}
		tp.check(podq, toInput(t, pc), pc.oracle())
	})
}
