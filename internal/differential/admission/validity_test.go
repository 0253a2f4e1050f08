package admission

import (
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation"
)

// apiRejects says why the API server's validation of the pod spec
// rejects it, "" when it does not, for the fields the policy reads:
// tolerations, nodeSelector and required node affinity (ValidateTolerations,
// ValidateLabels and ValidateNodeSelector of k8s.io/kubernetes
// pkg/apis/core/validation, as reference §4.1 and §4.2 transcribe them).
// Validation runs before validating admission, so a rejected object never
// reaches the policy: there is no verdict of the policy to compare.
func apiRejects(spec *corev1.PodSpec, comparisonGate bool) string {
	for i, t := range spec.Tolerations {
		if why := tolerationRejected(t, comparisonGate); why != "" {
			return fmt.Sprintf("tolerations[%d]: %s", i, why)
		}
	}
	for k, v := range spec.NodeSelector {
		if len(validation.IsQualifiedName(k)) > 0 || len(validation.IsValidLabelValue(v)) > 0 {
			return fmt.Sprintf("nodeSelector %q: %q is no label", k, v)
		}
	}
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		return nodeSelectorRejected(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
	}
	return ""
}

func tolerationRejected(t corev1.Toleration, comparisonGate bool) string {
	switch {
	case t.Key != "" && len(validation.IsQualifiedName(t.Key)) > 0:
		return "key is no qualified name"
	case t.Key == "" && t.Operator != corev1.TolerationOpExists:
		return "operator must be Exists when key is empty"
	case t.TolerationSeconds != nil && t.Effect != corev1.TaintEffectNoExecute:
		return "tolerationSeconds needs effect NoExecute"
	case t.Effect != "" && t.Effect != corev1.TaintEffectNoSchedule && t.Effect != corev1.TaintEffectPreferNoSchedule && t.Effect != corev1.TaintEffectNoExecute:
		return "unknown effect"
	}
	switch t.Operator {
	case "", corev1.TolerationOpEqual:
		if len(validation.IsValidLabelValue(t.Value)) > 0 {
			return "value is no label value"
		}
	case corev1.TolerationOpExists:
		if t.Value != "" {
			return "value must be empty with Exists"
		}
	case corev1.TolerationOpLt, corev1.TolerationOpGt:
		if !comparisonGate {
			return "Lt and Gt need TaintTolerationComparisonOperators"
		}
		if _, err := strconv.ParseInt(t.Value, 10, 64); len(content.IsDecimalInteger(t.Value)) > 0 || err != nil {
			return "value is no canonical 64-bit integer"
		}
	default:
		return "unknown operator"
	}
	return ""
}

func nodeSelectorRejected(ns *corev1.NodeSelector) string {
	if len(ns.NodeSelectorTerms) == 0 {
		return "required node affinity without terms"
	}
	for _, term := range ns.NodeSelectorTerms {
		for _, r := range term.MatchExpressions {
			if why := requirementRejected(r); why != "" {
				return fmt.Sprintf("matchExpressions %s: %s", r.Key, why)
			}
		}
		for _, r := range term.MatchFields {
			if r.Key != "metadata.name" || (r.Operator != corev1.NodeSelectorOpIn && r.Operator != corev1.NodeSelectorOpNotIn) ||
				len(r.Values) != 1 || len(validation.IsDNS1123Subdomain(r.Values[0])) > 0 {
				return "matchFields other than metadata.name In or NotIn one node name"
			}
		}
	}
	return ""
}

func requirementRejected(r corev1.NodeSelectorRequirement) string {
	if len(validation.IsQualifiedName(r.Key)) > 0 {
		return "key is no qualified name"
	}
	switch r.Operator {
	case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
		if len(r.Values) == 0 {
			return "In and NotIn need values"
		}
	case corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
		if len(r.Values) > 0 {
			return "Exists and DoesNotExist take no values"
		}
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if len(r.Values) != 1 {
			return "Gt and Lt take one value"
		}
	default:
		return "unknown operator"
	}
	for _, v := range r.Values {
		if len(validation.IsValidLabelValue(v)) > 0 {
			return fmt.Sprintf("value %q is no label value", v)
		}
	}
	return ""
}
