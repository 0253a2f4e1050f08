package admission

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dslint/dslint/internal/config"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// TestGolden pins the policy of testdata/pools.dslint.yaml.
func TestGolden(t *testing.T) {
	c, err := config.Load(filepath.Join("testdata", "pools.dslint.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Policy(c.Pools, c.FeatureGates, Options{})
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "pools.policy.yaml")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./internal/admission -update writes it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("the policy differs from %s (go test ./internal/admission -update rewrites it; review the diff):\n%s", golden, got)
	}
}

func TestCELString(t *testing.T) {
	for in, want := range map[string]string{
		``:          `""`,
		`gpu`:       `"gpu"`,
		`a"b`:       `"a\"b"`,
		`a\b`:       `"a\\b"`,
		"tab\there": `"tab\u0009here"`,
		"é🚀":        `"\u00e9\U0001f680"`,
	} {
		if got := celString(in); got != want {
			t.Errorf("celString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestGlobRegexp(t *testing.T) {
	for globs, want := range map[string]string{
		"ml":       `^(?:ml)$`,
		"ml,ml-*":  `^(?:ml|ml-.*)$`,
		"*-prod-*": `^(?:.*-prod-.*)$`,
		"*":        `^(?:.*)$`,
	} {
		if got := globRegexp(strings.Split(globs, ",")); got != want {
			t.Errorf("globRegexp(%s) = %s, want %s", globs, got, want)
		}
	}
}

func TestIdentifier(t *testing.T) {
	for name, want := range map[string]string{
		"gpu": "gpu", "gpu-a100": "gpu_a100", "a--b": "a_b", "-x-": "x", `" || true || "`: "true", "é🚀": "",
	} {
		if got := identifier(name); got != want {
			t.Errorf("identifier(%q) = %q, want %q", name, got, want)
		}
	}
	owned := ownedPools([]config.Pool{
		{Name: "a-b", Owners: &config.Owners{}}, {Name: "a.b", Owners: &config.Owners{}}, {Name: "🚀", Owners: &config.Owners{}}, {Name: "free"},
	}, nil)
	var ids []string
	for _, o := range owned {
		ids = append(ids, o.id)
	}
	if want := []string{"pool_a_b", "pool_a_b_2", "pool_3"}; !slices.Equal(ids, want) {
		t.Errorf("ids %v, want %v", ids, want)
	}
}

func TestOptions(t *testing.T) {
	pools := []config.Pool{{Name: "gpu", Labels: map[string]string{"pool": "gpu"}, Owners: &config.Owners{Namespaces: []string{"ml"}}}}
	for _, c := range []struct {
		opts Options
		err  string
	}{
		{Options{Actions: []string{"Warn", "Audit"}, Name: "team.pools"}, ""},
		{Options{Name: "Pools"}, `name "Pools"`},
		{Options{Actions: []string{"Block"}}, `unknown action "Block"`},
		{Options{Actions: []string{"Audit", "Audit"}}, `action "Audit" given twice`},
		{Options{Actions: []string{"Deny", "Warn"}}, `cannot be used together`},
	} {
		_, err := Policy(pools, nil, c.opts)
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%+v: error %v, want %q", c.opts, err, c.err)
		}
	}
	if _, err := Policy([]config.Pool{{Name: "free", Count: 2}}, nil, Options{}); !errors.Is(err, ErrNoOwners) {
		t.Errorf("pools without owners: error %v, want ErrNoOwners", err)
	}
}
