#!/bin/sh
# k8s-apimachinery.sh - `ibtopo export --format k8s` on every fabric the
# scheduler exports are tried on (tests/sched-fabrics.sh), its Node and
# Topology metadata checked by Kubernetes' own validation code:
# tests/k8s-meta-check.go, built against Debian trixie's
# golang-k8s-apimachinery-dev in a chroot (tools/debian-chroot.sh, kept
# in $IBTOPO_CHROOT_CACHE, default /var/cache/ibtopo-tests; the checker
# is rebuilt only when its source changes). It runs ValidateObjectMeta
# with the Node name rule and ValidateLabels on every object, and
# IsQualifiedName on every Topology level's nodeLabel. A Node with a
# 64-character label value must be refused, or the checker proves
# nothing. Skips where the chroot cannot be built (not root, no
# debootstrap, no archive).
. "${top_srcdir:-.}/tests/lib.sh"
python_require
"$PYTHON3" -c 'import yaml' 2>/dev/null || skip "python3-yaml not found"
. "$top_srcdir/tests/sched-fabrics.sh"
PATH=$PATH:/usr/sbin:/sbin
cache=${IBTOPO_CHROOT_CACHE:-/var/cache/ibtopo-tests}
{ mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ]; } || cache=$TESTDIR/chroots
sh "$top_srcdir/tools/debian-chroot.sh" trixie "$cache/trixie" \
	golang-go golang-k8s-apimachinery-dev
rc=$?
[ $rc -eq 77 ] && skip "no Debian trixie chroot here (said above)"
[ $rc -eq 0 ] || fail "tools/debian-chroot.sh trixie failed"
R=$cache/trixie

# the checker, built once per version of its source
sum=$(sha256sum "$top_srcdir/tests/k8s-meta-check.go" | cut -c1-16)
bin=$R/opt/ibtopo-k8s/check-$sum
if [ ! -x "$bin" ]; then
	mkdir -p "$R/opt/ibtopo-k8s" || fail "mkdir in the chroot"
	cp "$top_srcdir/tests/k8s-meta-check.go" "$R/opt/ibtopo-k8s/main.go"
	mount -t proc proc "$R/proc" || fail "mount proc in $R"
	chroot "$R" env GOPATH=/usr/share/gocode GO111MODULE=off \
		GOROOT=/usr/lib/go GOTELEMETRY=off GOTOOLCHAIN=local \
		GOCACHE=/opt/ibtopo-k8s/cache HOME=/opt/ibtopo-k8s CGO_ENABLED=0 \
		go build -o "/opt/ibtopo-k8s/check-$sum" /opt/ibtopo-k8s/main.go \
		>"$TESTDIR/build.log" 2>&1
	rc=$?
	umount "$R/proc"
	[ $rc -eq 0 ] || fail "go build: $(tail -5 "$TESTDIR/build.log")"
fi

# check YAML: the k8s stream as the checker's JSON, then the checker
check() {
	"$PYTHON3" -c '
import json, sys, yaml
out = []
for d in yaml.safe_load_all(open(sys.argv[1])):
    if not d:
        continue
    keys = [l["nodeLabel"] for l in d.get("spec", {}).get("levels", [])]
    out.append({"kind": d["kind"], "metadata": d["metadata"], "levelKeys": keys})
json.dump(out, sys.stdout)
' "$1" | "$bin"
}

# the checker refuses what Kubernetes refuses
cat >"$TESTDIR/bad.yaml" <<EOY
apiVersion: v1
kind: Node
metadata:
  name: "Bad_Name"
  labels:
    topology.ibtopo.io/leaf: "$(printf 'x%.0s' $(seq 1 64))"
EOY
check "$TESTDIR/bad.yaml" >"$TESTDIR/bad.out" 2>&1 &&
	fail "the checker passed a bad Node: $(cat "$TESTDIR/bad.out")"
grep -q '2 errors' "$TESTDIR/bad.out" ||
	fail "the bad Node: $(cat "$TESTDIR/bad.out")"

n=0
sched_fabrics "$TESTDIR" >"$TESTDIR/fabrics" || fail "sched_fabrics"
while read -r name file opts; do
	# shellcheck disable=SC2086 # opts are words
	"$IBTOPO" export "$file" --format k8s $opts -o "$TESTDIR/k.yaml" \
		2>"$TESTDIR/err" || {
		grep -q 'no server to list' "$TESTDIR/err" && continue
		flunk "$name: export: $(cat "$TESTDIR/err")"
		continue
	}
	check "$TESTDIR/k.yaml" >"$TESTDIR/check.out" 2>&1 ||
		flunk "$name: $(head -5 "$TESTDIR/check.out")"
	info "$name: $(tail -1 "$TESTDIR/check.out")"
	n=$((n + 1))
done <"$TESTDIR/fabrics"
[ "$n" -ge 10 ] || flunk "only $n fabrics checked"
# topograph's label keys too
"$IBTOPO" export "$top_srcdir/tests/data/real/qdr-hosts-fdr10-isls.topo" \
	--format k8s --label-prefix topograph -o "$TESTDIR/t.yaml" ||
	fail "export --label-prefix topograph"
check "$TESTDIR/t.yaml" >"$TESTDIR/check.out" 2>&1 ||
	flunk "topograph keys: $(head -5 "$TESTDIR/check.out")"
exit "$failed"
