#!/bin/sh
# tools/layers.sh [BUILDDIR]: the calls between lib/ files that break the
# layer rule (HACKING.md), read from the built objects with nm: a file
# that calls a function of a module above its own ("up"), and two files
# that call each other ("circle"). Registration tables name data, not
# functions: they are not calls. Prints nothing and exits 0 when the
# house holds. BUILDDIR is the build folder (default: .).
set -eu
build=${1:-.}
# from the ground up; a comma joins modules of one floor
order="model base out findings cables,discover,read,store analysis report,export diagram,compare"
tab=$(mktemp)
trap 'rm -f "$tab"' EXIT
for m in $order; do
	for o in "$build"/lib/"$m"/libibtopo_core_la-*.o; do
		[ -e "$o" ] || continue
		f=${o##*/libibtopo_core_la-}
		f=$m/${f%.o}.c
		nm "$o" | awk -v f="$f" '$1 == "U" { print "U", f, $2; next }
			$2 == "T" { print "D", f, $3 }'
	done
done >"$tab"
awk -v order="$order" '
BEGIN {
	n = split(order, o, " ")
	for (i = 1; i <= n; i++) {
		k = split(o[i], same, ",")
		for (j = 1; j <= k; j++)
			rank[same[j]] = i
	}
}
function mod(f) { sub(/\/.*/, "", f); return f }
$1 == "D" { def[$3] = $2; next }
{ use[NR] = $2 " " $3 }
END {
	for (i in use) {
		split(use[i], u, " ")
		if (!(u[2] in def) || def[u[2]] == u[1])
			continue
		from = u[1]; to = def[u[2]]
		calls[from " " to] = calls[from " " to] " " u[2]
	}
	bad = 0
	for (k in calls) {
		split(k, p, " ")
		rf = rank[mod(p[1])]; rt = rank[mod(p[2])]
		if (rt > rf) {
			print "up: " p[1] " -> " p[2] ":" calls[k]; bad = 1
		}
		if ((p[2] " " p[1]) in calls && p[1] < p[2]) {
			print "circle: " p[1] " <-> " p[2]; bad = 1
		}
	}
	exit bad
}' "$tab"
