# Label syntax (apimachinery IsQualifiedName / IsValidLabelValue) and integer
# forms (IsDecimalInteger, strconv.ParseInt(s, 10, 64)).
package dslint.lib.labels_test

import data.dslint.lib.labels

_name_msg := "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

_prefix_msg := "prefix part must be a lowercase DNS subdomain: lowercase alphanumeric characters, '-' or '.', starting and ending with an alphanumeric character"

_value_msg := "must be empty or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

_a(n) := concat("", [x | some _ in numbers.range(1, n); x := "a"])

# A DNS subdomain of exactly n characters: labels of "a" separated by dots
# would be fine too, but one long label shows that labels are not capped at
# 63 inside a subdomain prefix.
_prefix(n) := _a(n)

# --- key_problem ----------------------------------------------------------------

test_valid_keys if {
	not labels.key_problem("a")
	not labels.key_problem("dedicated")
	not labels.key_problem("nvidia.com/gpu")
	not labels.key_problem("node-role.kubernetes.io/control-plane")
	not labels.key_problem("example.com/GPU_type.v-1")
	not labels.key_problem("9")
	not labels.key_problem("a.b-c_d")
}

test_key_name_of_63_characters_is_valid if {
	count(_a(63)) == 63
	not labels.key_problem(_a(63))
	not labels.key_problem(concat("/", ["example.com", _a(63)]))
}

test_key_name_of_64_characters_is_too_long if {
	labels.key_problem(_a(64)) == "name part must be no more than 63 characters"
	labels.key_problem(concat("/", ["example.com", _a(64)])) == "name part must be no more than 63 characters"
}

test_key_prefix_of_253_characters_is_valid if {
	count(_prefix(253)) == 253
	not labels.key_problem(concat("/", [_prefix(253), "name"]))
}

test_key_prefix_of_254_characters_is_too_long if {
	labels.key_problem(concat("/", [_prefix(254), "name"])) == "prefix part must be no more than 253 characters"
}

test_key_prefix_must_be_lowercase if {
	labels.key_problem("Example.com/gpu") == _prefix_msg
	labels.key_problem("EXAMPLE/gpu") == _prefix_msg
}

test_key_prefix_must_be_a_dns_subdomain if {
	labels.key_problem("example..com/gpu") == _prefix_msg
	labels.key_problem("-example.com/gpu") == _prefix_msg
	labels.key_problem("example.com-/gpu") == _prefix_msg
	labels.key_problem("ex_ample.com/gpu") == _prefix_msg
	labels.key_problem(".example.com/gpu") == _prefix_msg
}

test_key_with_two_slashes_is_invalid if {
	labels.key_problem("a/b/c") == "must not contain more than one \"/\""
	labels.key_problem("example.com/a/b") == "must not contain more than one \"/\""
}

test_key_with_empty_name_is_invalid if {
	labels.key_problem("") == "name part must be non-empty"
	labels.key_problem("example.com/") == "name part must be non-empty"
}

test_key_with_empty_prefix_is_invalid if {
	labels.key_problem("/gpu") == "prefix part must be non-empty"
}

test_key_name_must_start_and_end_alphanumeric if {
	labels.key_problem("-bad") == _name_msg
	labels.key_problem("bad-") == _name_msg
	labels.key_problem("_bad") == _name_msg
	labels.key_problem("bad.") == _name_msg
	labels.key_problem("has space") == _name_msg
	labels.key_problem("example.com/bad name") == _name_msg
	labels.key_problem("gpu=true") == _name_msg
}

# A bad prefix is reported before the name is looked at.
test_key_with_bad_prefix_and_bad_name_reports_the_prefix if {
	labels.key_problem("Bad/-name") == _prefix_msg
}

test_key_must_be_a_string if {
	labels.key_problem(5) == "must be a string"
	labels.key_problem(true) == "must be a string"
	labels.key_problem(null) == "must be a string"
	not labels.valid_key(5)
	labels.valid_key("ok")
}

# --- value_problem ----------------------------------------------------------

test_valid_values if {
	not labels.value_problem("")
	not labels.value_problem("gpu")
	not labels.value_problem("a.b-c_d")
	not labels.value_problem("0")
	not labels.value_problem("007")
	not labels.value_problem(_a(63))
	labels.valid_value("true")
}

test_value_of_64_characters_is_too_long if {
	labels.value_problem(_a(64)) == "must be no more than 63 characters"
}

test_value_must_start_and_end_alphanumeric if {
	labels.value_problem("has space") == _value_msg
	labels.value_problem("-5") == _value_msg
	labels.value_problem("+5") == _value_msg
	labels.value_problem("a-") == _value_msg
	labels.value_problem("a/b") == _value_msg
}

test_value_must_be_a_string if {
	labels.value_problem(true) == "must be a string"
	labels.value_problem(5) == "must be a string"
	not labels.valid_value(true)
}

# --- canonical_int (IsDecimalInteger + int64 range) ------------------------

test_canonical_ints if {
	labels.canonical_int("0")
	labels.canonical_int("5")
	labels.canonical_int("-5")
	labels.canonical_int("10")
	labels.canonical_int("9223372036854775807")
	labels.canonical_int("-9223372036854775808")
}

test_non_canonical_ints if {
	not labels.canonical_int("-0")
	not labels.canonical_int("007")
	not labels.canonical_int("00")
	not labels.canonical_int("-07")
	not labels.canonical_int("+5")
	not labels.canonical_int("")
	not labels.canonical_int("-")
	not labels.canonical_int(" 5")
	not labels.canonical_int("5 ")
	not labels.canonical_int("1e3")
	not labels.canonical_int("5.0")
	not labels.canonical_int("0x10")
	not labels.canonical_int("1_000")
}

test_canonical_int_int64_bounds if {
	not labels.canonical_int("9223372036854775808")
	not labels.canonical_int("-9223372036854775809")
	not labels.canonical_int("99999999999999999999")
	not labels.canonical_int("10000000000000000000")
}

test_canonical_int_needs_a_string if {
	not labels.canonical_int(5)
	not labels.canonical_int(null)
}

# --- parses_int64 (strconv.ParseInt(s, 10, 64)) ---------------------------

test_parses_int64_accepts_what_parseint_accepts if {
	labels.parses_int64("0")
	labels.parses_int64("-0")
	labels.parses_int64("007")
	labels.parses_int64("-007")
	labels.parses_int64("+5")
	labels.parses_int64("+0")
	labels.parses_int64("9223372036854775807")
	labels.parses_int64("+9223372036854775807")
	labels.parses_int64("-9223372036854775808")
	labels.parses_int64("0009223372036854775807")
	labels.parses_int64("-0009223372036854775808")
}

test_parses_int64_range if {
	not labels.parses_int64("9223372036854775808")
	not labels.parses_int64("+9223372036854775808")
	not labels.parses_int64("-9223372036854775809")
	not labels.parses_int64("99999999999999999999")
	not labels.parses_int64("00099999999999999999999")
}

test_parses_int64_rejects_non_integers if {
	not labels.parses_int64("")
	not labels.parses_int64("+")
	not labels.parses_int64("-")
	not labels.parses_int64("++5")
	not labels.parses_int64("+-5")
	not labels.parses_int64("--5")
	not labels.parses_int64("1_000")
	not labels.parses_int64("0x10")
	not labels.parses_int64("5.0")
	not labels.parses_int64("1e3")
	not labels.parses_int64(" 5")
	not labels.parses_int64(5)
}

test_int_value if {
	labels.int_value("007") == 7
	labels.int_value("+5") == 5
	labels.int_value("-0") == 0
	labels.int_value("-007") == -7
	labels.int_value("0") == 0
}
