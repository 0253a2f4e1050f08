package admission

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate/content"

	"github.com/dslint/dslint/internal/config"
)

// expression is a named CEL expression of the policy: a variable, with the
// comment that says what it holds.
type expression struct {
	name, comment, cel string
}

// podVariables extract what every pool's predicates read of the object:
// the pod as the object describes it, normalized so that the predicates
// need not test for absent fields. The API server hands the policy the
// object as stored, where empty fields are left out.
func podVariables(gates map[string]bool) []expression {
	vars := []expression{
		{"podTemplate", "the pod as the object describes it: the Pod itself, or the pod template of a workload", `request.kind.kind == "Pod" ? object :
request.kind.kind == "CronJob" ? object.?spec.?jobTemplate.?spec.?template.orValue({}) :
object.?spec.?template.orValue({})`},
		{"podSpec", "", `variables.podTemplate.?spec.orValue({})`},
		{"podLabels", "", `variables.podTemplate.?metadata.?labels.orValue({})`},
		{"exempt", "DaemonSets and their pods, and pods bound to a node by nodeName, are never judged", `request.kind.kind == "DaemonSet" ||
request.kind.kind == "Pod" && object.metadata.?ownerReferences.orValue([]).exists(r,
  r.kind == "DaemonSet" && r.?controller.orValue(false) == true) ||
variables.podSpec.?nodeName.orValue("") != ""`},
		{"tolerations", "the pod's tolerations, every field present (\"\" when left out)", `variables.podSpec.?tolerations.orValue([]).map(t, {
  "key": t.?key.orValue(""),
  "operator": t.?operator.orValue(""),
  "value": t.?value.orValue(""),
  "effect": t.?effect.orValue("")
})`},
	}
	if gates[comparisonGate] {
		vars = append(vars, expression{"integerTolerations", "the Lt and Gt tolerations whose value is a 64-bit decimal integer, as the scheduler reads it (TaintTolerationComparisonOperators)", `variables.tolerations.filter(t, t.operator in ["Lt", "Gt"] &&
  t.value.matches("^(0|-?[1-9][0-9]{0,18})$") &&
  (t.value.startsWith("-") ?
    size(t.value) < 20 || t.value <= "-9223372036854775808" :
    size(t.value) < 19 || t.value <= "9223372036854775807"))`})
	}
	return append(vars,
		expression{"nodeSelector", "", `variables.podSpec.?nodeSelector.orValue({})`},
		expression{"requiredAffinity", "the required node affinity; null when there is none", `variables.podSpec.?affinity.?nodeAffinity.?requiredDuringSchedulingIgnoredDuringExecution.orValue(null)`},
		expression{"requiredTerms", "its node selector terms that have a requirement (an empty term matches no node), each as its matchExpressions, every field present", `variables.requiredAffinity == null ||
variables.requiredAffinity.?nodeSelectorTerms.orValue(null) == null ? [] :
variables.requiredAffinity.nodeSelectorTerms.filter(term,
  size(term.?matchExpressions.orValue([])) + size(term.?matchFields.orValue([])) > 0
).map(term, term.?matchExpressions.orValue([]).map(e, {
  "key": e.key,
  "operator": e.operator,
  "values": e.?values.orValue([])
}))`},
	)
}

// comparisonGate is the feature gate that makes Lt and Gt tolerations match.
const comparisonGate = "TaintTolerationComparisonOperators"

// ownedPool is the CEL of one pool with owners: its variables, prefixed
// with its id, and the validation that denies the workloads it keeps out.
type ownedPool struct {
	pool    config.Pool
	id      string         // pool_NAME, the prefix of its variables
	keepOut []config.Taint // the NoSchedule and NoExecute taints
	gates   map[string]bool
}

func newOwnedPool(p config.Pool, id string, gates map[string]bool) ownedPool {
	o := ownedPool{pool: p, id: id, gates: gates}
	for _, t := range p.Taints {
		if t.Effect == "NoSchedule" || t.Effect == "NoExecute" {
			o.keepOut = append(o.keepOut, t)
		}
	}
	return o
}

// v is the reference to the pool's variable named suffix.
func (o ownedPool) v(suffix string) string { return "variables." + o.id + "_" + suffix }

func (o ownedPool) variables() []expression {
	vars := []expression{
		{o.id + "_labels", "", celStringMap(o.pool.Labels)},
		{o.id + "_owner", "", o.owner()},
		{o.id + "_terms", "the required node affinity's terms that the pool's labels meet", o.terms()},
		{o.id + "_admits", "the pod may land on the pool's nodes, as far as their labels go", o.admits()},
		{o.id + "_asks", "the pod selects the pool's nodes by one of their labels", o.asks()},
	}
	if len(o.keepOut) > 0 {
		vars = append(vars, expression{o.id + "_tolerates", "the pod tolerates every taint that keeps other pods off the pool", o.tolerates()})
	}
	return vars
}

// owner is true for the workloads the pool is dedicated to.
func (o ownedPool) owner() string {
	var conds []string
	if ns := o.pool.Owners.Namespaces; ns != nil {
		conds = append(conds, "request.namespace.matches("+celString(globRegexp(ns))+")")
	}
	if s := o.pool.Owners.Selector; s != nil {
		conds = append(conds, selectorCEL(s, "variables.podLabels")...)
	}
	if len(conds) == 0 {
		return "true"
	}
	return strings.Join(conds, " &&\n")
}

// selectorCEL is a label selector as CEL conditions on the labels map,
// with Kubernetes' LabelSelector semantics.
func selectorCEL(s *config.Selector, labels string) []string {
	var conds []string
	for _, k := range slices.Sorted(maps.Keys(s.MatchLabels)) {
		key := celString(k)
		conds = append(conds, fmt.Sprintf("%s in %s && %s[%s] == %s", key, labels, labels, key, celString(s.MatchLabels[k])))
	}
	for _, r := range s.MatchExpressions {
		key := celString(r.Key)
		switch r.Operator {
		case "In":
			conds = append(conds, fmt.Sprintf("%s in %s && %s[%s] in %s", key, labels, labels, key, celStringList(r.Values)))
		case "NotIn":
			conds = append(conds, fmt.Sprintf("!(%s in %s && %s[%s] in %s)", key, labels, labels, key, celStringList(r.Values)))
		case "Exists":
			conds = append(conds, fmt.Sprintf("%s in %s", key, labels))
		case "DoesNotExist":
			conds = append(conds, fmt.Sprintf("!(%s in %s)", key, labels))
		default:
			conds = append(conds, "false") // the config refuses other operators
		}
	}
	return conds
}

// terms are the required node affinity's terms (with a requirement) that
// hold on the pool's labels: every matchExpressions entry on a pool label
// holds for the label's value; entries on other keys, and matchFields, are
// taken as met by some node of the pool.
func (o ownedPool) terms() string {
	labels := o.v("labels")
	ops := []string{
		fmt.Sprintf(`e.operator == "In" && %s[e.key] in e.values`, labels),
		fmt.Sprintf(`e.operator == "NotIn" && !(%s[e.key] in e.values)`, labels),
		`e.operator == "Exists"`,
	}
	if ints := integerLabels(o.pool.Labels); len(ints) > 0 {
		// Only the labels whose value is an integer take Gt and Lt.
		ops = append(ops, fmt.Sprintf(`e.operator in ["Gt", "Lt"] && e.key in %[1]s && size(e.values) == 1 && (%[2]s) &&
    (e.operator == "Gt" ? %[1]s[e.key] > int(e.values[0]) : %[1]s[e.key] < int(e.values[0]))`, ints, integerString("e.values[0]")))
	}
	return fmt.Sprintf(`variables.requiredTerms.filter(term, term.all(e, !(e.key in %s) ||
  %s))`, labels, strings.Join(ops, " ||\n  "))
}

// integerLabels is the CEL map of the pool's labels whose value is an
// integer, as node affinity's Gt and Lt read a node label; "" for none.
func integerLabels(labels map[string]string) string {
	var entries []string
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if n, err := strconv.ParseInt(labels[k], 10, 64); err == nil {
			entries = append(entries, fmt.Sprintf("%s: %d", celString(k), n))
		}
	}
	if len(entries) == 0 {
		return ""
	}
	return "{" + strings.Join(entries, ", ") + "}"
}

// integerString is a CEL condition that s, a string, is an integer that
// int() converts without error: what strconv.ParseInt takes (a sign,
// leading zeros), within 64 bits. The last 19 digits of a 19-digit number
// are compared as strings with the limits.
func integerString(s string) string {
	return fmt.Sprintf(`%[1]s.matches("^[+-]?0*[0-9]{1,18}$") ||
      %[1]s.matches("^[+-]?0*[1-9][0-9]{18}$") &&
      %[1]s.substring(size(%[1]s) - 19) <= (%[1]s.startsWith("-") ? "9223372036854775808" : "9223372036854775807")`, s)
}

// admits is true when neither the node selector nor the required node
// affinity keeps the pod off the pool's nodes.
func (o ownedPool) admits() string {
	return fmt.Sprintf(`%[1]s.all(k, !(k in variables.nodeSelector) || variables.nodeSelector[k] == %[1]s[k]) &&
(variables.requiredAffinity == null || size(%[2]s) > 0)`, o.v("labels"), o.v("terms"))
}

// asks is true when the pod is admitted and selects the pool by one of its
// labels: a node selector entry, or an In or Exists entry of a term that
// holds.
func (o ownedPool) asks() string {
	return fmt.Sprintf(`%[1]s && (
  %[2]s.exists(k, k in variables.nodeSelector && variables.nodeSelector[k] == %[2]s[k]) ||
  %[3]s.exists(term, term.exists(e, e.key in %[2]s &&
    (e.operator == "Exists" || e.operator == "In" && %[2]s[e.key] in e.values))))`, o.v("admits"), o.v("labels"), o.v("terms"))
}

// tolerates is true when every keep-out taint is tolerated by one of the
// pod's tolerations (an empty effect matches every effect; an empty key
// only with operator Exists).
func (o ownedPool) tolerates() string {
	clauses := make([]string, len(o.keepOut))
	for i, t := range o.keepOut {
		key, value, effect := celString(t.Key), celString(t.Value), celString(t.Effect)
		clauses[i] = fmt.Sprintf(`variables.tolerations.exists(t, t.effect in ["", %s] &&
  (t.key == "" ? t.operator == "Exists" : t.key == %s) &&
  (t.operator == "Exists" || t.operator in ["", "Equal"] && t.value == %s))`, effect, key, value)
		if n, ok := comparable(t.Value); ok && o.gates[comparisonGate] {
			clauses[i] = fmt.Sprintf(`(%s ||
variables.integerTolerations.exists(t, t.effect in ["", %s] && t.key == %s &&
  (t.operator == "Lt" ? %d < int(t.value) : %d > int(t.value))))`, clauses[i], effect, key, n, n)
		}
	}
	return strings.Join(clauses, " &&\n")
}

// comparable is a taint value as Lt and Gt tolerations compare it: a
// canonical decimal integer within 64 bits.
func comparable(value string) (int64, bool) {
	if len(content.IsDecimalInteger(value)) > 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(value, 10, 64)
	return n, err == nil
}

// validation is the pool's validation: a workload that is not exempt and
// not an owner may neither select the pool nor tolerate its keep-out
// taints while its nodes admit it.
func (o ownedPool) validation() string {
	uses := o.v("asks")
	if len(o.keepOut) > 0 {
		uses = fmt.Sprintf("%s || %s && %s", o.v("asks"), o.v("tolerates"), o.v("admits"))
	}
	return fmt.Sprintf("variables.exempt || %s ||\n!(%s)", o.v("owner"), uses)
}

// message is the validation's messageExpression: the workload, its
// namespace, the pool and who owns it.
func (o ownedPool) message() string {
	pool := fmt.Sprintf("pool %q, which is dedicated to %s", o.pool.Name, ownersText(o.pool.Owners))
	return fmt.Sprintf(`request.kind.kind.lowerAscii() + " \"" +
  object.metadata.?name.orValue(object.metadata.?generateName.orValue("") + "*") +
  "\" in namespace \"" + request.namespace + "\"" +
  (%[1]s ? " selects the nodes of " : " tolerates the taints of ") + %[2]s +
  (%[1]s ? ": remove its node selector and affinity for the pool" : ": remove its tolerations of the pool's taints") +
  ", or run it as one of the owners"`, o.v("asks"), celString(pool))
}

// ownersText names the owners of a pool in a message.
func ownersText(ow *config.Owners) string {
	var parts []string
	if ow.Namespaces != nil {
		quoted := make([]string, len(ow.Namespaces))
		for i, g := range ow.Namespaces {
			quoted[i] = strconv.Quote(g)
		}
		parts = append(parts, "namespaces "+strings.Join(quoted, ", "))
	}
	if ow.Selector != nil {
		parts = append(parts, "pods labelled "+selectorText(ow.Selector))
	}
	return strings.Join(parts, " and ")
}

// selectorText is a label selector as kubectl writes one (-l).
func selectorText(s *config.Selector) string {
	var reqs []string
	for _, k := range slices.Sorted(maps.Keys(s.MatchLabels)) {
		reqs = append(reqs, k+"="+s.MatchLabels[k])
	}
	for _, r := range s.MatchExpressions {
		switch r.Operator {
		case "In":
			reqs = append(reqs, fmt.Sprintf("%s in (%s)", r.Key, strings.Join(r.Values, ",")))
		case "NotIn":
			reqs = append(reqs, fmt.Sprintf("%s notin (%s)", r.Key, strings.Join(r.Values, ",")))
		case "Exists":
			reqs = append(reqs, r.Key)
		case "DoesNotExist":
			reqs = append(reqs, "!"+r.Key)
		}
	}
	if len(reqs) == 0 {
		return "(any labels)"
	}
	return strings.Join(reqs, ",")
}

// globRegexp is the namespace globs as one anchored RE2 pattern: "*"
// stands for any run of characters, everything else for itself.
func globRegexp(globs []string) string {
	alts := make([]string, len(globs))
	for i, g := range globs {
		parts := strings.Split(g, "*")
		for j, p := range parts {
			parts[j] = regexp.QuoteMeta(p)
		}
		alts[i] = strings.Join(parts, ".*")
	}
	return "^(?:" + strings.Join(alts, "|") + ")$"
}

// celString is s as a CEL string literal: double-quoted, with backslash,
// quote and every character outside printable ASCII escaped, so that no
// value of the config can end the literal or change the expression.
func celString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func celStringList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = celString(v)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// celStringMap is a CEL map literal of string keys and values, in key
// order.
func celStringMap(m map[string]string) string {
	entries := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		entries = append(entries, celString(k)+": "+celString(m[k]))
	}
	return "{" + strings.Join(entries, ", ") + "}"
}
