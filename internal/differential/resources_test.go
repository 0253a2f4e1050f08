package differential

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/dslint/dslint/internal/differential/oracle"
)

const (
	resourcesPackage = "data.dslint.lib.resources"
	requestsQuery    = `x := data.dslint.lib.resources.requests(input.spec) == input.want`
)

// resourceNames are the names the generated pods ask for: the native ones,
// extended and hugepages ones the scheduler counts, a kubernetes.io/ one
// (counted too) and an unprefixed unknown one (dropped).
var resourceNames = []string{"cpu", "cpu", "memory", "memory", "ephemeral-storage", "nvidia.com/gpu", "example.com/foo", "hugepages-2Mi", "hugepages-1Gi", "kubernetes.io/batteries", "foo"}

// genQuantity is a valid quantity that is not negative and small enough
// for sums of a few of them to fit the scheduler's int64s.
func genQuantity(s *src) resource.Quantity {
	for {
		q, err := resource.ParseQuantity(quantityString(s))
		if err == nil && q.Sign() >= 0 && q.CmpInt64(1<<40) <= 0 {
			return q
		}
	}
}

func genResourceList(s *src) v1.ResourceList {
	if s.chance(3) {
		return nil
	}
	l := v1.ResourceList{}
	for range 1 + s.intn(3) {
		l[v1.ResourceName(s.pick(resourceNames))] = genQuantity(s)
	}
	return l
}

func genContainer(s *src) v1.Container {
	return v1.Container{Name: "c", Resources: v1.ResourceRequirements{Requests: genResourceList(s), Limits: genResourceList(s)}}
}

// requestsCase is a pod spec and what the scheduler counts of its
// requests: cpu in millicores, the rest in units, zeros left out.
type requestsCase struct {
	Spec v1.PodSpec       `json:"spec"`
	Want map[string]int64 `json:"want"`
}

func (requestsCase) oracle() bool { return true }

func genRequestsCase(s *src) requestsCase {
	var spec v1.PodSpec
	for range 1 + s.intn(3) {
		spec.Containers = append(spec.Containers, genContainer(s))
	}
	for range s.intn(4) {
		c := genContainer(s)
		if s.chance(2) {
			always := v1.ContainerRestartPolicyAlways
			c.RestartPolicy = &always
		}
		spec.InitContainers = append(spec.InitContainers, c)
	}
	if s.chance(4) {
		spec.Resources = &v1.ResourceRequirements{Requests: genResourceList(s)}
	}
	if s.chance(5) {
		spec.Overhead = genResourceList(s)
	}
	return requestsCase{Spec: spec, Want: schedulerRequests(spec)}
}

// schedulerRequests is what NodeResourcesFit reads of a pod with spec
// (oracle.PodRequests: the API server's defaulting, then PodRequests), in
// the scheduler's units (Resource.Add: MilliValue for cpu, Value for the
// rest, names it does not count dropped).
func schedulerRequests(spec v1.PodSpec) map[string]int64 {
	want := map[string]int64{}
	for name, q := range oracle.PodRequests(&spec) {
		if n, _ := oracle.SchedulerUnits(name, q); n != 0 {
			want[string(name)] = n
		}
	}
	return want
}

// TestRequestsDifferential: resources.requests against PodRequests, as the
// scheduler reads it.
func TestRequestsDifferential(t *testing.T) {
	differential(t, "resources.requests", requestsQuery, resourcesPackage, 43, genRequestsCase)
}
