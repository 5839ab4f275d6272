# SPDX-License-Identifier: GPL-2.0
#
# The text of `tc -s class show` for ddl classes (tc 6.1 prints classes as
# text only, even with -j) as one line per field, "CLASS<TAB>NAME<TAB>VALUE",
# the form of tests/jflat.awk: bytes, packets, drops, qlen, options.weight,
# green_ns (from green_time), keyed (true when the class has a key),
# burst_hist (the 24 bucket counts, separated by spaces) and every
# "NAME NUMBER" pair of the ddl statistics.  tests/tcclass.py reads the
# same text for the python tools.

# put(NAME, VALUE): a field of the current class c, the first one of a name
function put(k, v) {
	if (!((c, k) in seen)) {
		seen[c, k] = 1
		printf "%s\t%s\t%s\n", c, k, v
	}
}

# keyed(): closes class c
function keyed() {
	if (c != "")
		put("keyed", ((c, "key") in seen) ? "true" : "false")
}

BEGIN { u["ns"] = 1; u["us"] = 1e3; u["ms"] = 1e6; u["s"] = 1e9 }

$1 == "class" {
	keyed()
	c = $3
	for (i = 4; i < NF; i++)
		if ($i == "weight")
			put("options.weight", $(i + 1))
	next
}
c == "" { next }
$1 == "Sent" {
	put("bytes", $2)
	put("packets", $4)
	d = 0
	for (i = 5; i < NF; i++)
		if ($i == "(dropped")
			d = $(i + 1) + 0
	put("drops", d)
	next
}
$1 == "backlog" { q = $3; sub(/p$/, "", q); put("qlen", q); next }
# "LOus:COUNT" for the non-empty buckets; bucket b holds [2^(b-1), 2^b) us
$1 == "burst_hist" {
	for (b = 0; b < 24; b++)
		h[b] = 0
	for (i = 2; i <= NF; i++) {
		split($i, a, ":")
		lo = a[1] + 0
		for (b = 0; lo > 0; b++)
			lo = int(lo / 2)
		h[b] = a[2]
	}
	s = h[0]
	for (b = 1; b < 24; b++)
		s = s " " h[b]
	put("burst_hist", s)
	next
}
{
	for (i = 1; i < NF; i += 2) {
		v = $(i + 1)
		unit = ""
		if ($i == "green_time" && match(v, /^[0-9.e+]+/))
			unit = substr(v, RLENGTH + 1)
		if (unit in u)
			put("green_ns", sprintf("%.0f", substr(v, 1, RLENGTH) * u[unit]))
		else if (v ~ /^[0-9]+$/)
			put($i, v)
	}
}
END { keyed() }
