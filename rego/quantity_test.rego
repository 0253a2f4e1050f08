# Quantities as ParseQuantity reads them and the scheduler counts them
# (MilliValue for cpu, Value for the rest); internal/differential compares
# the library with them on generated cases.
package dslint.lib.quantity_test

import data.dslint.lib.quantity

# _reads(q, m, v): q is a quantity of m thousandths and v units.
_reads(q, m, v) if {
	quantity.valid(q)
	quantity.milli(q) == m
	quantity.value(q) == v
}

test_plain_and_decimal_suffixes if {
	_reads("2", 2000, 2)
	_reads("500m", 500, 1)
	_reads("1.5", 1500, 2)
	_reads("1k", 1000000, 1000)
	_reads("1M", 1000000000, 1000000)
	_reads("128974848", 128974848000, 128974848)
	_reads("129e6", 129000000000, 129000000)
	_reads("1E3", 1000000, 1000)
	_reads("1E", 1000000000000000000000, 1000000000000000000)
}

test_binary_suffixes if {
	_reads("1Ki", 1024000, 1024)
	_reads("123Mi", 128974848000, 128974848)
	_reads("1.5Gi", 1610612736000, 1610612736)
	_reads("8Ei", 9223372036854775807000, 9223372036854775807) # capped at the largest int64
}

test_yaml_numbers_read_as_written if {
	_reads(2, 2000, 2)
	_reads(0.5, 500, 1)
	_reads(1e3, 1000000, 1000)
}

# Value and MilliValue round up: 0.1m of cpu is 1m, a nano is a whole unit.
test_rounding_up if {
	_reads("0.1m", 1, 1)
	_reads("1n", 1, 1)
	_reads("2024e-3", 2024, 3)
	_reads("0", 0, 0)
}

# ParseQuantity's edges: digits on either side of the point are optional, a
# sign alone is 0; "Pi" without digits is refused where "Ki" is 0.
test_edges if {
	_reads("+1", 1000, 1)
	_reads(".5", 500, 1)
	_reads("5.", 5000, 5)
	_reads("-", 0, 0)
	_reads("Ki", 0, 0)
	_reads("-0", 0, 0)
	not quantity.valid("Pi")
	not quantity.valid(".Pi")
}

test_not_quantities if {
	not quantity.valid("")
	not quantity.valid("1K")
	not quantity.valid("1ki")
	not quantity.valid("1 Gi")
	not quantity.valid("1Gi ")
	not quantity.valid("1e")
	not quantity.valid("1.5.5")
	not quantity.valid("two")
	not quantity.valid(true)
	not quantity.valid(null)
}

# Negative quantities are valid quantities but no request or allocatable,
# so they have no value.
test_negative_has_no_value if {
	quantity.valid("-1")
	not quantity.milli("-1")
	not quantity.value("-500m")
}

# A huge exponent is written as one (no string of zeros is built).
test_huge_exponent if {
	quantity.value("1e999999999") > 9223372036854775807
	quantity.value("1e-999999999") == 1
}
