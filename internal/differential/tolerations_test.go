package differential

import (
	"testing"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	corev1 "k8s.io/component-helpers/scheduling/corev1"
)

const (
	tolerationsPackage = "data.dslint.lib.tolerations"
	toleratesQuery     = `x := data.dslint.lib.tolerations.tolerates_with_gate(input.toleration, input.taint, input.gate)`
	toleratedQuery     = `x := data.dslint.lib.tolerations.tolerated(input.tolerations, input.taint) with data.dslint.config as {"featureGates": {"TaintTolerationComparisonOperators": input.gate}}`
)

var (
	taintKeys    = []string{"k", "k2", "dedicated", "example.com/gpu", "node-role.kubernetes.io/control-plane", "node-role.kubernetes.io/master"}
	oddTaintKeys = []string{"", "K", "k ", " k", "example.com/gpu/", "node-role.kubernetes.io/Control-plane"}

	tolerationOperators    = []string{"", "Equal", "Exists", "Lt", "Gt"}
	oddTolerationOperators = []string{"equal", "exists", "EXISTS", "lt", "GT", "Foo", " Exists"}

	taintValues = []string{"", "v", "5", "7", "4", "6", "0", "-3", "10", "9223372036854775807", "9223372036854775806", "-9223372036854775808"}
	oddValues   = []string{
		"V", "v ", "-0", "007", "+5", "05", "abc", "1.5", "1e3", " 5", "0x10",
		"99999999999999999999", "9223372036854775808", "-9223372036854775809",
	}

	taintEffects    = []string{"", "NoSchedule", "PreferNoSchedule", "NoExecute"}
	oddTaintEffects = []string{"noschedule", "Bogus", "NoSchedule "}
)

// genToleration makes a toleration, biased toward the taint it will meet.
func genToleration(s *src, taint v1.Taint) v1.Toleration {
	tol := v1.Toleration{
		Key:      s.pickMostly(taintKeys, oddTaintKeys),
		Operator: v1.TolerationOperator(s.pickMostly(tolerationOperators, oddTolerationOperators)),
		Value:    s.pickMostly(taintValues, oddValues),
		Effect:   v1.TaintEffect(s.pickMostly(taintEffects, oddTaintEffects)),
	}
	if s.chance(2) {
		tol.Key = taint.Key
	}
	if s.chance(3) {
		tol.Value = taint.Value
	}
	if s.chance(2) {
		tol.Effect = taint.Effect
	}
	if s.chance(5) {
		secs := int64(s.intn(3)) - 1
		tol.TolerationSeconds = &secs
	}
	return tol
}

func genTaint(s *src) v1.Taint {
	return v1.Taint{
		Key:    s.pickMostly(taintKeys, oddTaintKeys),
		Value:  s.pickMostly(taintValues, oddValues),
		Effect: v1.TaintEffect(s.pickMostly(taintEffects, oddTaintEffects)),
	}
}

// tolerationCase is one toleration against one taint, as Rego reads it.
type tolerationCase struct {
	Toleration v1.Toleration `json:"toleration"`
	Taint      v1.Taint      `json:"taint"`
	Gate       bool          `json:"gate"`
}

func genTolerationCase(s *src) tolerationCase {
	taint := genTaint(s)
	return tolerationCase{Toleration: genToleration(s, taint), Taint: taint, Gate: s.chance(2)}
}

func (c tolerationCase) oracle() bool {
	return (&c.Toleration).ToleratesTaint(logr.Discard(), &c.Taint, c.Gate)
}

// tolerationListCase is a pod's toleration list against one taint.
type tolerationListCase struct {
	Tolerations []v1.Toleration `json:"tolerations,omitempty"`
	Taint       v1.Taint        `json:"taint"`
	Gate        bool            `json:"gate"`
}

func genTolerationListCase(s *src) tolerationListCase {
	c := tolerationListCase{Taint: genTaint(s), Gate: s.chance(2)}
	n := s.intn(5)
	if n == 0 && s.chance(2) {
		c.Tolerations = []v1.Toleration{}
	}
	for range n {
		c.Tolerations = append(c.Tolerations, genToleration(s, c.Taint))
	}
	return c
}

func (c tolerationListCase) oracle() bool {
	return corev1.TolerationsTolerateTaint(logr.Discard(), c.Tolerations, &c.Taint, c.Gate)
}

// TestTolerationDifferential: tolerates_with_gate against
// Toleration.ToleratesTaint.
func TestTolerationDifferential(t *testing.T) {
	differential(t, "tolerates_with_gate", toleratesQuery, tolerationsPackage, 1, genTolerationCase)
}

// TestTolerationListDifferential: tolerated (gate from settings) against
// TolerationsTolerateTaint.
func TestTolerationListDifferential(t *testing.T) {
	differential(t, "tolerated", toleratedQuery, tolerationsPackage, 2, genTolerationListCase)
}

// FuzzTolerationDifferential picks a toleration case from the fuzz bytes,
// with two fuzzer-chosen strings added to every pool, and compares both the
// single and the list functions.
func FuzzTolerationDifferential(f *testing.F) {
	f.Add([]byte{}, "", "")
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, "007", "Gt")
	f.Add([]byte{0, 0, 7, 6, 1, 1, 1, 1, 1, 1, 0, 1}, "9223372036854775807", "-1")
	f.Fuzz(func(t *testing.T, choices []byte, free1, free2 string) {
		one := prepare(t, toleratesQuery, tolerationsPackage)
		list := prepare(t, toleratedQuery, tolerationsPackage)
		s := fromBytes(t, choices, free1, free2)
		c := genTolerationCase(s)
		single := &tally{t: t, name: "tolerates_with_gate"}
		single.check(one, toInput(t, c), c.oracle())
		lc := tolerationListCase{Tolerations: []v1.Toleration{c.Toleration}, Taint: c.Taint, Gate: c.Gate}
		for range s.intn(3) {
			lc.Tolerations = append(lc.Tolerations, genToleration(s, c.Taint))
		}
		multi := &tally{t: t, name: "tolerated"}
		multi.check(list, toInput(t, lc), lc.oracle())
	})
}
