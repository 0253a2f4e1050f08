// Package admission runs the ValidatingAdmissionPolicy that dslint
// export-policy writes with the API server's own admission code
// (k8s.io/apiserver): the policy's match constraints and binding through
// the plugin's matcher, its variables, validations and messages through
// the CEL compiler and validator the ValidatingAdmissionPolicy plugin
// builds. Its tests compare the verdicts with dslint's pool-ownership rule.
package admission

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/version"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"
)

// Oracle is a policy and its binding, compiled as the API server compiles
// them.
type Oracle struct {
	Policy    *admissionregistrationv1.ValidatingAdmissionPolicy
	Binding   *admissionregistrationv1.ValidatingAdmissionPolicyBinding
	validator validating.Validator
	matcher   generic.PolicyMatcher
	pools     []string // the pool each validation is about, by index
}

// Verdict is what the policy decides on one request.
type Verdict struct {
	Matched bool              // the policy and its binding apply to the request
	Denied  map[string]string // pool name -> the message of its denial
}

// New decodes the two documents of policy (strictly: a field the API does
// not know is an error), checks that every expression compiles in the
// environment of a new policy on the API server of Kubernetes minVersion,
// and compiles the policy as the plugin does.
func New(policy []byte, minVersion *version.Version) (*Oracle, error) {
	o := &Oracle{}
	docs := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(policy)))
	for _, into := range []any{&o.Policy, &o.Binding} {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			return nil, errors.New("want two documents: a ValidatingAdmissionPolicy and its binding")
		}
		if err != nil {
			return nil, err
		}
		if err := yaml.UnmarshalStrict(doc, into); err != nil {
			return nil, fmt.Errorf("decode: %w", err)
		}
	}
	setDefaults(o.Policy, o.Binding)
	if err := compileErrors(o.Policy, environment.MustBaseEnvSet(minVersion), environment.NewExpressions); err != nil {
		return nil, fmt.Errorf("as a new policy on Kubernetes %s: %w", minVersion, err)
	}
	if err := compileErrors(o.Policy, compositionEnv(), environment.StoredExpressions); err != nil {
		return nil, err
	}
	var err error
	if o.pools, err = poolsOf(o.Policy); err != nil {
		return nil, err
	}
	o.validator = compilePolicy(o.Policy)
	o.matcher = generic.NewPolicyMatcher(matching.NewMatcher(nil, nil))
	return o, nil
}

// setDefaults applies what the API server's defaulting gives a policy and
// binding that leave these fields out (SetDefaults_ValidatingAdmissionPolicySpec
// and SetDefaults_MatchResources of k8s.io/kubernetes
// pkg/apis/admissionregistration/v1/defaults.go, which this module does
// not import).
func setDefaults(p *admissionregistrationv1.ValidatingAdmissionPolicy, _ *admissionregistrationv1.ValidatingAdmissionPolicyBinding) {
	if p.Spec.FailurePolicy == nil {
		fail := admissionregistrationv1.Fail
		p.Spec.FailurePolicy = &fail
	}
	m := p.Spec.MatchConstraints
	if m == nil {
		return
	}
	if m.MatchPolicy == nil {
		equivalent := admissionregistrationv1.Equivalent
		m.MatchPolicy = &equivalent
	}
	if m.NamespaceSelector == nil {
		m.NamespaceSelector = &metav1.LabelSelector{}
	}
	if m.ObjectSelector == nil {
		m.ObjectSelector = &metav1.LabelSelector{}
	}
	for i := range m.ResourceRules {
		if m.ResourceRules[i].Scope == nil {
			all := admissionregistrationv1.AllScopes
			m.ResourceRules[i].Scope = &all
		}
	}
}

// compositionEnv is the environment the plugin compiles stored policies in
// (getCompositionEnvTemplateWithStrictCost, plugin.go).
func compositionEnv() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
}

// compileErrors compiles every variable, validation and message expression
// of the policy in env and mode, as the API server's validation of a policy
// does, and returns their errors.
func compileErrors(p *admissionregistrationv1.ValidatingAdmissionPolicy, env *environment.EnvSet, mode environment.Type) error {
	c, err := cel.NewCompositedCompiler(env)
	if err != nil {
		return err
	}
	withAuthz := cel.OptionalVariableDeclarations{HasAuthorizer: true}
	var errs []error
	for _, v := range p.Spec.Variables {
		if r := c.CompileAndStoreVariable(&validating.Variable{Name: v.Name, Expression: v.Expression}, withAuthz, mode); r.Error != nil {
			errs = append(errs, fmt.Errorf("variable %s: %w", v.Name, r.Error))
		}
	}
	for i, v := range p.Spec.Validations {
		if r := c.CompileCELExpression(&validating.ValidationCondition{Expression: v.Expression}, withAuthz, mode); r.Error != nil {
			errs = append(errs, fmt.Errorf("validation %d: %w", i, r.Error))
		}
		if r := c.CompileCELExpression(&validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}, cel.OptionalVariableDeclarations{}, mode); r.Error != nil {
			errs = append(errs, fmt.Errorf("messageExpression %d: %w", i, r.Error))
		}
	}
	return errors.Join(errs...)
}

// compilePolicy is the plugin's compilePolicy (validating/plugin.go, which
// does not export it) for a policy without params or matchConditions.
func compilePolicy(p *admissionregistrationv1.ValidatingAdmissionPolicy) validating.Validator {
	withAuthz := cel.OptionalVariableDeclarations{HasAuthorizer: true}
	c, err := cel.NewCompositedCompiler(compositionEnv())
	if err != nil {
		return validating.NewValidator(nil, nil, nil, nil, p.Spec.FailurePolicy, err)
	}
	vars := make([]cel.NamedExpressionAccessor, len(p.Spec.Variables))
	for i, v := range p.Spec.Variables {
		vars[i] = &validating.Variable{Name: v.Name, Expression: v.Expression}
	}
	c.CompileAndStoreVariables(vars, withAuthz, environment.StoredExpressions)
	validations := make([]cel.ExpressionAccessor, len(p.Spec.Validations))
	messages := make([]cel.ExpressionAccessor, len(p.Spec.Validations))
	for i, v := range p.Spec.Validations {
		validations[i] = &validating.ValidationCondition{Expression: v.Expression, Message: v.Message, Reason: v.Reason}
		if v.MessageExpression != "" {
			messages[i] = &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}
		}
	}
	return validating.NewValidator(
		c.CompileCondition(validations, withAuthz, environment.StoredExpressions),
		nil,
		c.CompileCondition(nil, withAuthz, environment.StoredExpressions),
		c.CompileCondition(messages, cel.OptionalVariableDeclarations{}, environment.StoredExpressions),
		p.Spec.FailurePolicy,
		nil,
	)
}

// poolOfMessage reads the pool a validation is about from its message.
var poolOfMessage = regexp.MustCompile(`^pool ("(?:[^"\\]|\\.)*") is dedicated to `)

func poolsOf(p *admissionregistrationv1.ValidatingAdmissionPolicy) ([]string, error) {
	pools := make([]string, len(p.Spec.Validations))
	for i, v := range p.Spec.Validations {
		m := poolOfMessage.FindStringSubmatch(v.Message)
		if m == nil {
			return nil, fmt.Errorf("validation %d: message %q names no pool", i, v.Message)
		}
		name, err := strconv.Unquote(m[1])
		if err != nil {
			return nil, fmt.Errorf("validation %d: %w", i, err)
		}
		pools[i] = name
	}
	return pools, nil
}

// Admit runs the policy on a CREATE of obj in namespace, as the plugin's
// dispatcher does: obj is a typed object of client-go's scheme with its
// kind set (CEL reads it by reflection, as Kubernetes 1.37 does), or its
// unstructured form (CEL reads the map, as Kubernetes 1.30 to 1.36 do).
// It takes the policy's match constraints, the binding's, then the
// validations.
// A validation that fails to evaluate is an error: with failurePolicy Fail
// it would deny the request for a reason other than a pool's.
func (o *Oracle) Admit(ctx context.Context, obj runtime.Object, namespace string) (Verdict, error) {
	gvk := obj.GetObjectKind().GroupVersionKind()
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	name, err := meta.NewAccessor().Name(obj)
	if err != nil {
		return Verdict{}, err
	}
	attr := admission.NewAttributesRecord(obj, nil, gvk, namespace, name, gvr, "", admission.Create,
		&metav1.CreateOptions{}, false, &user.DefaultInfo{Name: "dslint-differential"})
	interfaces := admission.NewObjectInterfacesFromScheme(scheme.Scheme)
	matches, matchedGVR, matchedGVK, err := o.matcher.DefinitionMatches(attr, interfaces, validating.NewValidatingAdmissionPolicyAccessor(o.Policy))
	if err != nil || !matches {
		return Verdict{}, err
	}
	if matches, err = o.matcher.BindingMatches(attr, interfaces, validating.NewValidatingAdmissionPolicyBindingAccessor(o.Binding)); err != nil || !matches {
		return Verdict{}, err
	}
	versioned, err := admission.NewVersionedAttributes(attr, matchedGVK, interfaces)
	if err != nil {
		return Verdict{}, err
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}
	result := o.validator.Validate(ctx, matchedGVR, versioned, nil, ns, celconfig.RuntimeCELCostBudget, nil)
	v := Verdict{Matched: true, Denied: map[string]string{}}
	for i, d := range result.Decisions {
		switch {
		case d.Evaluation == validating.EvalError:
			return v, fmt.Errorf("validation %d (pool %q): %s", i, o.pools[i], d.Message)
		case d.Action == validating.ActionDeny:
			if d.Reason != metav1.StatusReasonForbidden {
				return v, fmt.Errorf("validation %d (pool %q): reason %q, want Forbidden", i, o.pools[i], d.Reason)
			}
			v.Denied[o.pools[i]] = d.Message
		}
	}
	return v, nil
}

// Decode reads one object of client-go's scheme from YAML as the API
// server would: into its typed form, fields it does not know dropped.
func Decode(doc []byte) (runtime.Object, *schema.GroupVersionKind, error) {
	return scheme.Codecs.UniversalDeserializer().Decode(doc, nil, nil)
}
