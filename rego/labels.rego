# METADATA
# description: |
#   Label syntax as the API server checks it (apimachinery
#   IsQualifiedName / IsValidLabelValue) and canonical decimal integers
#   (IsDecimalInteger with an int64 range check). Each check returns the
#   reason a string is invalid, so messages can say what was expected.
package dslint.lib.labels

_name_re := `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`

_value_re := `^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`

_dns1123_label_re := `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`

# key_problem(k) is why k is not a valid label key (qualified name); it is
# undefined for a valid key.
key_problem(k) := "must be a string" if not is_string(k)

key_problem(k) := "must not contain more than one \"/\"" if {
	is_string(k)
	count(split(k, "/")) > 2
}

key_problem(k) := msg if {
	is_string(k)
	parts := split(k, "/")
	count(parts) <= 2
	msg := _qualified_problem(parts)
}

_qualified_problem(parts) := _name_problem(parts[0]) if count(parts) == 1

_qualified_problem(parts) := _prefix_problem(parts[0]) if count(parts) == 2

_qualified_problem(parts) := _name_problem(parts[1]) if {
	count(parts) == 2
	not _prefix_problem(parts[0])
}

_name_problem("") := "name part must be non-empty"

_name_problem(n) := "name part must be no more than 63 characters" if count(n) > 63

_name_problem(n) := "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character" if {
	n != ""
	count(n) <= 63
	not regex.match(_name_re, n)
}

_prefix_problem("") := "prefix part must be non-empty"

_prefix_problem(p) := "prefix part must be no more than 253 characters" if count(p) > 253

_prefix_problem(p) := "prefix part must be a lowercase DNS subdomain: lowercase alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character" if {
	p != ""
	count(p) <= 253
	not _dns1123_subdomain(p)
}

_dns1123_subdomain(p) if {
	every label in split(p, ".") {
		regex.match(_dns1123_label_re, label)
	}
}

# valid_key(k) is true for a valid label key. It is one regular expression
# (DNS-1123 subdomain prefix, qualified name), so the common case of a valid
# key is cheap; key_problem explains an invalid one.
valid_key(k) if {
	is_string(k)
	regex.match(`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$`, k)
	_prefix_fits(k)
}

# The prefix is what comes before "/": at most 253 characters (indexof is -1
# without a prefix).
_prefix_fits(k) if indexof(k, "/") <= 253

# value_problem(v) is why v is not a valid label value; undefined when valid.
value_problem(v) := "must be a string" if not is_string(v)

value_problem(v) := "must be no more than 63 characters" if {
	is_string(v)
	count(v) > 63
}

value_problem(v) := "must be empty or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character" if {
	is_string(v)
	count(v) <= 63
	not regex.match(_value_re, v)
}

valid_value(v) if {
	is_string(v)
	regex.match(_value_re, v)
	count(v) <= 63
}

# canonical_int(s) is true when s is a decimal integer in canonical form (no
# leading zeros, no "+", "0" but not "-0") that fits in an int64.
canonical_int(s) if {
	is_string(s)
	regex.match(`^(0|-?[1-9][0-9]*)$`, s)
	_fits_int64(s)
}

# parses_int64(s) is true when strconv.ParseInt(s, 10, 64) succeeds: an
# optional sign, decimal digits (leading zeros allowed), within int64.
parses_int64(s) if {
	is_string(s)
	regex.match(`^[+-]?[0-9]+$`, s)
	_fits_int64(_strip_zeros(trim_left(s, "+")))
}

_strip_zeros(s) := concat("", ["-", _trim_zeros(substring(s, 1, -1))]) if startswith(s, "-")

_strip_zeros(s) := _trim_zeros(s) if not startswith(s, "-")

_trim_zeros(s) := t if {
	t0 := trim_left(s, "0")
	t := _zero_if_empty(t0)
}

_zero_if_empty("") := "0"

_zero_if_empty(s) := s if s != ""

# _fits_int64 compares digit strings, so no float rounding can creep in.
_fits_int64(s) if {
	not startswith(s, "-")
	_digits_at_most(s, "9223372036854775807")
}

_fits_int64(s) if {
	startswith(s, "-")
	_digits_at_most(substring(s, 1, -1), "9223372036854775808")
}

_digits_at_most(d, limit) if count(d) < count(limit)

_digits_at_most(d, limit) if {
	count(d) == count(limit)
	d <= limit
}

# int_value(s) is the integer a string that parses_int64 accepts stands for.
int_value(s) := to_number(_strip_zeros(trim_left(s, "+")))
