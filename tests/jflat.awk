# SPDX-License-Identifier: GPL-2.0
#
# The output of `tc -j qdisc show` (a JSON array of objects) as one line per
# field, "HANDLE<TAB>PATH<TAB>VALUE": PATH joins object keys with "." (and
# the index of an element of an array that holds objects or arrays); an
# array of scalars is one field, its values separated by spaces; a null is
# no field.  An object is listed under its "handle", or its "class", and
# the root qdisc again under "root".  Strings lose their quotes; escapes
# other than \" and \\ are kept as they are (tc prints none in the fields
# the tests read).
#
# awk, not jq or python: on the debug guest it starts in a fraction of
# their time, and the tests read hundreds of dumps.

function next_tok(   c) {
	while (pos <= len) {
		c = substr(src, pos, 1)
		if (c == " " || c == "\t" || c == "\n" || c == "\r") {
			pos++
			continue
		}
		if (index("[]{}:,", c)) {
			pos++
			return c
		}
		if (c == "\"")
			return str_tok()
		if (match(substr(src, pos), /^[^][{}:, \t\r\n]+/)) {
			pos += RLENGTH
			return substr(src, pos - RLENGTH, RLENGTH)
		}
		pos++
	}
	return ""
}

# A string token, returned with a leading quote so that it is never
# mistaken for punctuation or a literal.
function str_tok(   out, c) {
	out = "\""
	pos++
	while (pos <= len) {
		c = substr(src, pos, 1)
		pos++
		if (c == "\"")
			return out
		if (c == "\\") {
			c = substr(src, pos, 1)
			pos++
			if (c != "\"" && c != "\\")
				c = "\\" c
		}
		out = out c
	}
	return out
}

function scalar(t) {
	return substr(t, 1, 1) == "\"" ? substr(t, 2) : t
}

# value(T, PATH): the value that starts with token T
function value(t, path) {
	if (t == "{")
		object(path)
	else if (t == "[")
		array(path)
	else if (t != "null")
		put(path, scalar(t))
}

function object(path,   t, k) {
	for (t = next_tok(); t != "}" && t != ""; t = next_tok()) {
		if (t == ",")
			continue
		k = scalar(t)
		next_tok()		# ":"
		value(next_tok(), path == "" ? k : path "." k)
	}
}

# An array of scalars is one field; other arrays are indexed.
function array(path,   t, i, s, flat) {
	flat = 1
	s = ""
	i = 0
	for (t = next_tok(); t != "]" && t != ""; t = next_tok()) {
		if (t == ",")
			continue
		if (t == "{" || t == "[") {
			value(t, path "." i)
			flat = 0
		} else if (t != "null") {
			s = (s == "" ? "" : s " ") scalar(t)
		}
		i++
	}
	if (flat)
		put(path, s)
}

# A key given twice (tc prints some twice) keeps its last value, as jq does.
function put(path, v) {
	if (!(path in seen)) {
		seen[path] = ++nf
		fk[nf] = path
	}
	fv[seen[path]] = v
}

# The top level: an array of objects, each flushed under its names.
function top(   t, i, h, isroot) {
	if (next_tok() != "[")
		return
	for (t = next_tok(); t != "]" && t != ""; t = next_tok()) {
		if (t != "{")
			continue
		nf = 0
		split("", seen)
		object("")
		h = ""
		isroot = 0
		for (i = 1; i <= nf; i++) {
			if (fk[i] == "handle" || (fk[i] == "class" && h == ""))
				h = fv[i]
			if (fk[i] == "root" && fv[i] == "true")
				isroot = 1
		}
		for (i = 1; i <= nf; i++) {
			printf "%s\t%s\t%s\n", h, fk[i], fv[i]
			if (isroot)
				printf "root\t%s\t%s\n", fk[i], fv[i]
		}
	}
}

{ src = src $0 "\n" }

END {
	len = length(src)
	pos = 1
	top()
}
