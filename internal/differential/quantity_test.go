package differential

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/api/resource"
)

const (
	quantityPackage    = "data.dslint.lib.quantity"
	quantityValidQuery = `x := data.dslint.lib.quantity.valid(input.q)`
	quantityValueQuery = `x := [data.dslint.lib.quantity.milli(input.q), data.dslint.lib.quantity.value(input.q)] == input.want`
)

var (
	quantitySigns       = []string{"", "", "", "+", "-"}
	quantitySuffixes    = []string{"", "m", "Ki", "Mi", "Gi", "Ti", "k", "M", "G", "n", "u", "T", "P", "E", "Pi", "Ei", "e3", "E2", "e-3", "e+2", "E-9", "e0"}
	oddQuantitySuffixes = []string{"K", "ki", "mi", "KB", "e", "E+", "e1.5", "i", "b", " ", "Kie3", "mm", "g", "Gi ", "e-", "%"}
)

// quantityString writes a quantity from its parts: a sign, up to 20 digits
// (leading zeros now and then), a fraction, a suffix; now and then a
// random string instead.
func quantityString(s *src) string {
	if s.chance(25) {
		return s.randomString()
	}
	var b strings.Builder
	b.WriteString(s.pick(quantitySigns))
	if s.chance(6) {
		b.WriteString(strings.Repeat("0", 1+s.intn(3)))
	}
	digits := s.intn(5)
	if s.chance(8) {
		digits = 5 + s.intn(16)
	}
	for range digits {
		b.WriteByte(byte('0' + s.intn(10)))
	}
	if s.chance(4) {
		b.WriteByte('.')
		for range s.intn(12) {
			b.WriteByte(byte('0' + s.intn(10)))
		}
	}
	b.WriteString(s.pickMostly(quantitySuffixes, oddQuantitySuffixes))
	return b.String()
}

// quantityCase is one quantity as Rego reads it: a string, or now and then
// a JSON number (a YAML `cpu: 0.5`), which Quantity's UnmarshalJSON parses
// from its text.
type quantityCase struct {
	Q any `json:"q"`
}

func genQuantityCase(s *src) quantityCase {
	q := quantityString(s)
	if s.chance(6) && json.Valid([]byte(q)) && !strings.HasPrefix(q, "\"") {
		var n json.Number
		if json.Unmarshal([]byte(q), &n) == nil {
			return quantityCase{Q: n}
		}
	}
	return quantityCase{Q: q}
}

func (c quantityCase) text() string {
	if n, ok := c.Q.(json.Number); ok {
		return string(n)
	}
	return c.Q.(string)
}

func (c quantityCase) oracle() bool {
	_, err := resource.ParseQuantity(c.text())
	return err == nil
}

// quantityValueCase is a valid quantity and what the scheduler reads of it:
// [MilliValue, Value].
type quantityValueCase struct {
	Q    any      `json:"q"`
	Want [2]int64 `json:"want"`
}

func (quantityValueCase) oracle() bool { return true }

// genQuantityValueCase draws quantities until one parses to a value that
// is not negative and whose MilliValue fits in an int64, as requests and
// allocatable are (the API server refuses negative ones; the library
// leaves them undefined rather than round them as Quantity does).
func genQuantityValueCase(s *src) quantityValueCase {
	for {
		c := genQuantityCase(s)
		q, err := resource.ParseQuantity(c.text())
		if err != nil || q.Sign() < 0 || q.CmpInt64(9_000_000_000_000_000/1000) > 0 {
			continue
		}
		return quantityValueCase{Q: c.Q, Want: [2]int64{q.MilliValue(), q.Value()}}
	}
}

// TestQuantityDifferential: quantity.valid against resource.ParseQuantity.
func TestQuantityDifferential(t *testing.T) {
	differential(t, "quantity.valid", quantityValidQuery, quantityPackage, 41, genQuantityCase)
}

// TestQuantityValueDifferential: quantity.milli and quantity.value against
// Quantity.MilliValue and Value, which the scheduler reads (reference
// §10.4).
func TestQuantityValueDifferential(t *testing.T) {
	differential(t, "quantity.milli/value", quantityValueQuery, quantityPackage, 42, genQuantityValueCase)
}

// FuzzQuantityDifferential compares validity and, for a valid quantity
// that is no more than a request can be, the values, on the fuzzer's
// strings.
func FuzzQuantityDifferential(f *testing.F) {
	for _, q := range []string{"500m", "1.5Gi", "-", ".Pi", "1e-3", "0.1m", "8Ei"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if !utf8.ValidString(q) {
			t.Skip("not valid UTF-8")
		}
		valid := &tally{t: t, name: "quantity.valid"}
		c := quantityCase{Q: q}
		valid.check(prepare(t, quantityValidQuery, quantityPackage), toInput(t, c), c.oracle())
		parsed, err := resource.ParseQuantity(q)
		if err != nil || parsed.Sign() < 0 || parsed.CmpInt64(9_000_000_000_000_000/1000) > 0 {
			return
		}
		values := &tally{t: t, name: "quantity.milli/value"}
		vc := quantityValueCase{Q: q, Want: [2]int64{parsed.MilliValue(), parsed.Value()}}
		values.check(prepare(t, quantityValueQuery, quantityPackage), toInput(t, vc), true)
	})
}

// TestQuantityNanoDifferential: quantity.nano, whose plain forms take a
// shorter way, against the billionths ParseQuantity keeps.
func TestQuantityNanoDifferential(t *testing.T) {
	differential(t, "quantity.nano", `x := data.dslint.lib.quantity.nano(input.q) == input.want`, quantityPackage, 44, genQuantityNanoCase)
}

// quantityNanoCase is a valid quantity and its billionths as a decimal
// string (they pass int64). Quantities beyond the int64 cap are left out:
// ParseQuantity caps them on one of its paths only, and no request or
// allocatable comes near.
type quantityNanoCase struct {
	Q    any         `json:"q"`
	Want json.Number `json:"want"`
}

func (quantityNanoCase) oracle() bool { return true }

func genQuantityNanoCase(s *src) quantityNanoCase {
	for {
		c := genQuantityCase(s)
		q, err := resource.ParseQuantity(c.text())
		if err != nil || q.Sign() < 0 || q.CmpInt64(math.MaxInt64) > 0 {
			continue
		}
		d := q.AsDec()
		d.SetScale(d.Scale() - 9) // times 10^9
		return quantityNanoCase{Q: c.Q, Want: json.Number(d.String())}
	}
}
