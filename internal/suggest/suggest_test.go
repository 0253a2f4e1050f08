package suggest

import "testing"

func TestClosest(t *testing.T) {
	known := []string{"wildcard-toleration", "invalid-toleration", "soft-dedication"}
	for s, want := range map[string]string{
		"wildcard-tolerations": "wildcard-toleration",
		"invalid-tolerance":    "invalid-toleration",
		"soft":                 "",
		"hostport":             "",
	} {
		if got := Closest(s, known); got != want {
			t.Errorf("Closest(%q) = %q, want %q", s, got, want)
		}
	}
}
