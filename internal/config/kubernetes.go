package config

import (
	"fmt"
	"regexp"
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The Kubernetes minor versions (1.x) whose semantics dslint models. The
// newest is the default target: reference/ describes its source.
const (
	OldestKubernetesMinor = 20
	NewestKubernetesMinor = 36
)

// DefaultKubernetesVersion is the target when neither the config nor a flag
// names one: the newest supported.
var DefaultKubernetesVersion = fmt.Sprintf("1.%d", NewestKubernetesMinor)

// errUnsupported names the supported range, for versions outside it.
var errUnsupported = fmt.Errorf("dslint supports Kubernetes 1.%d to 1.%d", OldestKubernetesMinor, NewestKubernetesMinor)

// kubernetesVersion is MAJOR.MINOR with an optional "v" and an optional
// patch, which may carry a pre-release or build suffix as kubectl version
// prints it (v1.30.2-eks-1234).
var kubernetesVersion = regexp.MustCompile(`^v?(\d{1,4})\.(\d{1,4})(?:\.\d{1,4}(?:[-+][0-9A-Za-z.+-]*)?)?$`)

// KubernetesVersion reads a target Kubernetes version: "1.30", "v1.30" or
// "1.30.2" (the patch is ignored), as "1.30". A version outside the
// supported range, or not a version, is an error naming the range.
func KubernetesVersion(s string) (string, error) {
	m := kubernetesVersion.FindStringSubmatch(s)
	if m == nil {
		return "", fmt.Errorf("not a Kubernetes version: write MAJOR.MINOR, such as %s (%w)", DefaultKubernetesVersion, errUnsupported)
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	if major != 1 || minor < OldestKubernetesMinor || minor > NewestKubernetesMinor {
		return "", errUnsupported
	}
	return fmt.Sprintf("1.%d", minor), nil
}

// kubernetesVersion decodes kubernetesVersion. YAML reads an unquoted 1.30
// as the number 1.3, so a number is taken only when it reads as written
// (1.36); otherwise the message says to quote it.
func (d *decoder) kubernetesVersion(n *yaml.Node, path []any) string {
	text := n.Value
	switch tag := n.ShortTag(); {
	case n.Kind == yaml.ScalarNode && tag == "!!float":
		var f float64
		if err := n.Decode(&f); err == nil && strconv.FormatFloat(f, 'f', -1, 64) != n.Value {
			d.errorf(n, path, "YAML reads the number %s as %s: quote the version (%s: %q)", short(n.Value), strconv.FormatFloat(f, 'f', -1, 64), path[len(path)-1], short(n.Value))
			return ""
		}
	case n.Kind == yaml.ScalarNode && tag == "!!int":
	default:
		var ok bool
		if text, ok = d.str(n, path); !ok {
			return ""
		}
	}
	v, err := KubernetesVersion(text)
	if err != nil {
		d.errorf(n, path, "%s: %v", quote(text), err)
	}
	return v
}
