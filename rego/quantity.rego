# METADATA
# description: |
#   Kubernetes resource quantities (apimachinery resource.ParseQuantity,
#   reference §10.4): "500m", "1Gi", "1e3", "2", or a YAML number, which
#   Kubernetes reads from its text. A quantity is a signed decimal number
#   (digits on either side of the point optional) and one suffix: binary
#   (Ki … Ei), decimal (n u m k M G T P E) or an exponent (e3, E-2). The
#   scheduler reads cpu in thousandths and everything else in units, rounded
#   up (Quantity's MilliValue and Value); binary and decimal quantities are
#   capped at the largest int64 (which no request or allocatable nears). Everything is worked out on the digits, in
#   whole numbers, so a value is exact at any size. internal/differential
#   compares this file with ParseQuantity, MilliValue and Value.
package dslint.lib.quantity

# valid(q) is true when Kubernetes accepts q as a quantity.
valid(q) if _parsed(q)

# milli(q) is the quantity q in thousandths, rounded up (how the scheduler
# counts cpu); undefined when q is no quantity or is negative, which no
# request or allocatable may be.
milli(q) := _rounded(_parsed(q), 3)

# value(q) is the quantity q rounded up to a whole number (how the
# scheduler counts memory, ephemeral-storage, pods, hugepages and extended
# resources); undefined when q is no quantity or is negative.
value(q) := _rounded(_parsed(q), 0)

# nano(q) is the quantity q in billionths, rounded up. ParseQuantity keeps
# every quantity in whole billionths, so that sums of quantities (a pod's
# containers) are exact in them; from_nano gives what the scheduler reads.
nano(q) := n if {
	n := _plain_nano(q)
} else := _rounded(_parsed(q), 9)

# _plain_nano is nano for whole digits with no suffix or a common one, as
# manifests and kubectl write nearly every quantity ("500m", "2", "16Gi",
# 110): one match and one product rather than the grammar's dozen steps.
# make bench's placement scenario (2,000 workloads, each pod's requests
# read): 5.9 s with the grammar alone, 5.1 s with this.
_plain_nano(q) := min([to_number(m[1]) * _nanos[m[2]], _max_nano]) if {
	is_string(q)
	[m] := regex.find_all_string_submatch_n(`^([0-9]{1,15})(|m|k|M|G|Ki|Mi|Gi|Ti)$`, q, 1)
}

_plain_nano(q) := q * 1000000000 if {
	is_number(q)
	q == floor(q)
	q >= 0
	q < 1000000000000000
}

# _nanos are the plain suffixes in billionths; a product beyond the int64
# cap (in billionths, _max_nano) is capped, as ParseQuantity caps it.
_nanos := {
	"": 1000000000,
	"m": 1000000,
	"k": 1000000000000,
	"M": 1000000000000000,
	"G": 1000000000000000000,
	"Ki": 1024000000000,
	"Mi": 1048576000000000,
	"Gi": 1073741824000000000,
	"Ti": 1099511627776000000000,
}

# from_nano(n, places) is the amount of n billionths in units of
# 10^-places, rounded up: 3 gives thousandths (cpu), 0 units.
from_nano(n, places) := _ceil_scaled(n, places - 9) if n >= 0

# _parsed(q) is q as {"negative", "digits": its digits without the point,
# "exponent": the power of ten they are scaled by, "binary": the power of
# 1024 of a binary suffix, "capped": whether the int64 cap applies}.
_parsed(q) := p if {
	text := _text(q)
	text != ""
	[[_, sign, whole, point, suffix]] := regex.find_all_string_submatch_n(_syntax, text, 1)
	fraction := trim_prefix(point, ".")
	p := {
		"negative": _negative(sign, concat("", [whole, fraction])),
		"digits": concat("", [whole, fraction]),
		"exponent": _power_of_ten(suffix) - count(fraction),
		"binary": object.get(_binary, suffix, 0),
		"capped": _capped(suffix),
	}
	_readable(whole, point, suffix)
}

# A quantity is negative when it has a "-" and a digit other than 0.
_negative(sign, digits) if {
	sign == "-"
	regex.match(`[1-9]`, digits)
} else := false

_text(q) := q if is_string(q)

_text(q) := json.marshal(q) if is_number(q)

# _syntax is the quantity grammar: sign, digits, point and fraction, suffix.
_syntax := `^([+-]?)([0-9]*)(\.[0-9]*)?(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$`

# _readable holds for the quantities ParseQuantity reads, of those the
# grammar admits. It reads most of them with whole numbers; the others it
# reads with a decimal library, which needs a digit: "Pi" and ".Pi" are
# refused where "Ki" and ".Ki" are 0. A sign followed by zeros or nothing
# is 0, read before anything else.
_readable(whole, "", "") if regex.match(`^0*$`, whole)

_readable(whole, point, _) if regex.match(`[0-9]`, concat("", [whole, point]))

_readable(whole, point, suffix) if _whole_numbers(trim_left(whole, "0"), trim_prefix(point, "."), suffix)

# _whole_numbers: ParseQuantity's fast path, with at most 18 significant
# digits and a scale of at least nano for decimal quantities, and a small
# whole number before a binary suffix.
_whole_numbers(whole, fraction, suffix) if {
	not _binary[suffix]
	count(_or_zero(whole)) + count(fraction) <= 18
	_power_of_ten(suffix) - count(fraction) >= -9
}

_whole_numbers(whole, "", suffix) if {
	count(_or_zero(whole)) <= 14 - (3 * _binary[suffix])
}

_or_zero("") := "0"

_or_zero(s) := s if s != ""

_binary := {"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6}

_is_exponent(suffix) if regex.match(`^[eE][+-]?[0-9]`, suffix)

# _capped(suffix): ParseQuantity caps binary and decimal quantities, not
# those written with an exponent.
_capped(suffix) := false if _is_exponent(suffix)

_capped(suffix) if not _is_exponent(suffix)

# _power_of_ten is the power of ten a decimal suffix or an exponent scales by.
_power_of_ten(suffix) := _decimal[suffix]

_power_of_ten(suffix) := to_number(trim_prefix(substring(suffix, 1, -1), "+")) if _is_exponent(suffix)

_power_of_ten(suffix) := 0 if _binary[suffix]

_decimal := {"": 0, "n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}

# _rounded(p, places) is the quantity p times 10^places, rounded up, capped
# like upstream at the largest int64 (times 10^places).
_rounded(p, places) := min([_ceil_scaled(_whole(p), p.exponent + places), _cap(places)]) if {
	not p.negative
	p.capped
}

_rounded(p, places) := _ceil_scaled(_whole(p), p.exponent + places) if {
	not p.negative
	not p.capped
}

# _whole is the quantity's digits as a whole number, times its binary suffix.
_whole(p) := to_number(_or_zero(trim_left(p.digits, "0"))) * _factor[p.binary]

# _factor[k] is 1024 to the power k.
_factor := [1, 1024, 1048576, 1073741824, 1099511627776, 1125899906842624, 1152921504606846976]

# _ceil_scaled(n, e) is n times 10^e, rounded up: zeros added, or digits cut
# off with one more when any of them is not 0.
_ceil_scaled(n, e) := to_number(concat("", [format_int(n, 10), _zeros(e)])) if {
	e >= 0
	e <= 40
}

# Past 40 zeros a number is more than any node has: 1e999999999 (whose
# zeros would not fit in memory) reads as 10^60.
_ceil_scaled(n, e) := 1000000000000000000000000000000000000000000000000000000000000 if {
	e > 40
	n > 0
}

_ceil_scaled(0, e) := 0 if e > 40

_ceil_scaled(n, e) := to_number(_or_zero(kept)) + _carry(cut) if {
	e < 0
	digits := format_int(n, 10)
	keep := count(digits) + e
	kept := substring(digits, 0, max([keep, 0]))
	cut := substring(digits, max([keep, 0]), -1)
}

_carry(cut) := 1 if regex.match(`[1-9]`, cut)

_carry(cut) := 0 if not regex.match(`[1-9]`, cut)

_zeros(0) := ""

_zeros(e) := concat("", ["0" | some _ in numbers.range(1, e)]) if e > 0

_cap(places) := to_number(concat("", ["9223372036854775807", _zeros(places)]))

# _max_nano is the int64 cap, in billionths.
_max_nano := 9223372036854775807000000000
