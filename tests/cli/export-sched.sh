#!/bin/sh
# export-sched.sh - the scheduler formats follow their documented rules
# (issue 24) on every fabric of tests/sched-fabrics.sh; the suite has no
# Slurm newer than 22.05 nor a Kubernetes, so the rules are checked here:
#
# slurm-block, from topology.conf(5) and slurm.conf(5) of Slurm 23.11
# (topology/block): BlockName= lines with Nodes=, one BlockSizes= line;
# each size twice the one before; the base (first) size what at least
# half the blocks hold (the lower median; issue 35: one small leaf no
# longer sets it), and no size Slurm cannot form: base * 2^k needs 2^k
# blocks that hold the base; a node in one block only.
# slurm-yaml, from topology.yaml(5) of Slurm 25.05: a list of topologies,
# each a mapping with topology (a name), cluster_default (a boolean) and
# tree: {switches: [{switch, children | nodes}]}; every child a defined
# switch. Parsed with PyYAML.
# k8s: a YAML stream; a Kueue Topology (kueue.x-k8s.io/v1beta2) whose
# spec.levels are nodeLabel keys, the ibtopo ones under
# topology.ibtopo.io/, ending with kubernetes.io/hostname; then Node
# objects (apiVersion v1) with metadata.name and metadata.labels only;
# label values of Kubernetes' syntax (at most 63 characters,
# alphanumeric at both ends, [-_.A-Za-z0-9] inside). tests/kueue-check.py
# then validates it against Kueue's own CRD (tests/data/kueue) and checks
# that every Node carries every level label, nested.
# All four list the same hosts, each once: the servers `analyze` counts
# less those the warning leaves out. Then bad input: no server (exit 2),
# names that clash (exit 2, listed), a name too long (mapped, one
# warning), a server on no switch (a warning naming it).
. "$top_srcdir/tests/lib.sh"
python_require
"$PYTHON3" -c 'import yaml' 2>/dev/null || skip "python3-yaml not found"
T=$TESTDIR
cd "$T" || fail "cd $T"
"$PYTHON3" -c 'import jsonschema' 2>/dev/null ||
	skip "python3-jsonschema not found"
RULES="$PYTHON3 $T/rules.py $top_srcdir/tests/slurm-topology-check.py"
CRD=$top_srcdir/tests/data/kueue/kueue.x-k8s.io_topologies.yaml

cat >"$T/rules.py" <<'EOF'
import hashlib, importlib.util, re, sys
import yaml

spec = importlib.util.spec_from_file_location("chk", sys.argv[1])
chk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(chk)
what, path = sys.argv[2], sys.argv[3]
text = open(path).read()
bad = []
NAME = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
DNS = re.compile(r"^[a-z0-9]([-.a-z0-9]{0,251}[a-z0-9])?$")
LABEL = re.compile(r"^[A-Za-z0-9]([-_.A-Za-z0-9]{0,61}[A-Za-z0-9])?$")


def hosts_of(nodes):
    return chk.hostlist_expand(nodes)


if what == "tree":
    # slurmctld's own reading, as tests/slurm-topology-check.py has it
    problems, summary, notes = chk.check(text)
    bad += problems
    hosts = []
    for line in text.splitlines():
        m = re.search(r"\bNodes=(\S+)", line.split("#", 1)[0])
        if m:
            hosts += hosts_of(m.group(1))
elif what == "block":
    hosts, blocks, sizes = [], [], []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        kv = dict(t.split("=", 1) for t in line.split())
        if "BlockName" in kv:
            if not NAME.match(kv["BlockName"]):
                bad.append("bad block name %r" % kv["BlockName"])
            b = hosts_of(kv.get("Nodes", ""))
            if not b:
                bad.append("block %s has no nodes" % kv["BlockName"])
            blocks.append(b)
            hosts += b
        elif "BlockSizes" in kv:
            sizes.append([int(x) for x in kv["BlockSizes"].split(",")])
        else:
            bad.append("unknown line %r" % line)
    if len(sizes) != 1:
        bad.append("%d BlockSizes= lines, wanted 1" % len(sizes))
    else:
        s = sizes[0]
        for a, b in zip(s, s[1:]):
            if b != 2 * a:
                bad.append("BlockSizes %d after %d: not twice" % (b, a))
        held = sorted(len(b) for b in blocks)
        if held and s[0] != held[(len(held) - 1) // 2]:
            bad.append("base block size %d, not the lower median of the "
                       "blocks' sizes %s" % (s[0], held))
        full = sum(1 for n in held if n >= s[0])
        if held and 2 ** (len(s) - 1) > full:
            bad.append("BlockSizes %s: %d cannot form from %d blocks of "
                       "%d or more" % (s, s[-1], full, s[0]))
elif what == "yaml":
    doc = yaml.safe_load(text)
    hosts = []
    if not isinstance(doc, list) or len(doc) != 1:
        bad.append("not a list of one topology: %r" % type(doc))
        doc = [{}]
    t = doc[0]
    if set(t) != {"topology", "cluster_default", "tree"}:
        bad.append("topology keys %s" % sorted(t))
    if not isinstance(t.get("topology"), str) or \
            not isinstance(t.get("cluster_default"), bool):
        bad.append("topology name or cluster_default of the wrong type")
    elif not NAME.match(t["topology"]):
        bad.append("bad topology name %r" % t["topology"])
    sws = (t.get("tree") or {}).get("switches") or []
    names = set()
    for s in sws:
        if not isinstance(s, dict) or "switch" not in s or \
                len(set(s) & {"children", "nodes"}) != 1 or len(s) != 2:
            bad.append("bad switch %r" % (s,))
            continue
        if not NAME.match(s["switch"]):
            bad.append("bad switch name %r" % s["switch"])
        names.add(s["switch"])
    for s in sws:
        if "children" in s:
            for c in hosts_of(s["children"]):
                if c not in names:
                    bad.append("switch %s: child %s is no switch"
                               % (s["switch"], c))
        elif "nodes" in s:
            hosts += hosts_of(s["nodes"])
elif what == "k8s":
    docs = [d for d in yaml.safe_load_all(text) if d is not None]
    hosts = []
    topo = docs[0] if docs else {}
    levels = []
    if topo.get("kind") != "Topology" or \
            topo.get("apiVersion") != "kueue.x-k8s.io/v1beta2":
        bad.append("the first object is no Kueue v1beta2 Topology")
    elif not DNS.match(str((topo.get("metadata") or {}).get("name"))):
        bad.append("Topology name %r no RFC 1123 name"
                   % (topo.get("metadata") or {}).get("name"))
    else:
        levels = [lv.get("nodeLabel") for lv in topo["spec"]["levels"]]
        if not levels or levels[-1] != "kubernetes.io/hostname":
            bad.append("levels do not end with kubernetes.io/hostname")
        for k in levels[:-1]:
            if not k.startswith("topology.ibtopo.io/"):
                bad.append("label key %s outside topology.ibtopo.io/" % k)
    for d in docs[1:]:
        if d.get("apiVersion") != "v1" or d.get("kind") != "Node" or \
                set(d) != {"apiVersion", "kind", "metadata"} or \
                set(d["metadata"]) != {"name", "labels"}:
            bad.append("not a bare Node: %r" % (d,))
            continue
        name = d["metadata"]["name"]
        if not re.match(r"^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$", name):
            bad.append("node name %r" % name)
        hosts.append(name)
        for k, v in d["metadata"]["labels"].items():
            if k not in levels[:-1]:
                bad.append("%s: label %s is no level" % (name, k))
            if not isinstance(v, str) or not LABEL.match(v):
                bad.append("%s: label value %r" % (name, v))
dups = sorted({h for h in hosts if hosts.count(h) > 1})
if dups:
    bad.append("hosts listed twice: %s" % ",".join(dups[:5]))
for b in bad[:10]:
    print("bad: " + b)
# Kubernetes names are lowercase, '_' as '-'
same = sorted({h.lower().replace("_", "-") for h in hosts})
print("hosts %d %s" % (len(hosts),
      hashlib.sha1(",".join(same).encode()).hexdigest()[:12]))
sys.exit(1 if bad else 0)
EOF

# export_rules NAME FABRIC [OPTIONS]: the four formats follow their
# rules and list the same hosts, as many as analyze counts servers less
# the unnamed ones left out
checked=0
export_rules() {
	name=$1
	fabric=$2
	shift 2
	servers=$("$IBTOPO" analyze --format json "$@" "$fabric" 2>/dev/null |
		"$PYTHON3" -c 'import json, sys
print(json.load(sys.stdin)["topology"]["servers"])') ||
		fail "$name: analyze --format json"
	if ! "$IBTOPO" export --format slurm "$@" "$fabric" >/dev/null \
		2>"$T/err"; then
		grep -q 'no server to list' "$T/err" ||
			fail "$name: $(cat "$T/err")"
		set -- "$@" --host-names guid
	fi
	want=
	for fmt in slurm slurm-block slurm-yaml k8s; do
		"$IBTOPO" export --format "$fmt" "$@" "$fabric" >"$T/out" \
			2>"$T/err" || {
			flunk "$name: export --format $fmt: $(cat "$T/err")"
			continue
		}
		unnamed=$(sed -n 's/.*warning: \([0-9]*\) hosts without a name.*/\1/p' \
			"$T/err")
		case $fmt in
		slurm) what=tree ;;
		slurm-block) what=block ;;
		slurm-yaml) what=yaml ;;
		k8s) what=k8s ;;
		esac
		$RULES "$what" "$T/out" >"$T/rules.out" 2>&1 || {
			flunk "$name: --format $fmt: $(cat "$T/rules.out")"
			continue
		}
		if [ "$fmt" = k8s ] && ! "$PYTHON3" "$top_srcdir/tests/kueue-check.py" \
			"$CRD" "$T/out" >"$T/kueue.out" 2>&1; then
			flunk "$name: Kueue: $(cat "$T/kueue.out")"
			continue
		fi
		got=$(sed -n 's/^hosts //p' "$T/rules.out")
		[ "${got%% *}" = $((servers - ${unnamed:-0})) ] ||
			flunk "$name: --format $fmt lists ${got%% *} hosts, wanted $servers servers less ${unnamed:-0} unnamed"
		[ -z "$want" ] || [ "$got" = "$want" ] ||
			flunk "$name: --format $fmt lists other hosts ($got, $want)"
		want=$got
	done
	checked=$((checked + 1))
}

. "$top_srcdir/tests/sched-fabrics.sh"
sched_fabrics "$T" >"$T/fabrics" || fail "sched_fabrics"
# shellcheck disable=SC2086 # the export options are words
while read -r name fabric opts <&3; do
	export_rules "$name" "$fabric" $opts
done 3<"$T/fabrics"
[ "$checked" -ge 19 ] || fail "only $checked fabrics checked"

# block sizes of the rails plan: 3 units of 8 servers
"$IBTOPO" export --format slurm-block "$T/rails.topo" >"$T/block" ||
	fail "slurm-block of the rails plan"
grep -q '^BlockName=su01 Nodes=dgx\[001-008\]$' "$T/block" &&
	grep -q '^BlockSizes=8,16$' "$T/block" ||
	fail "rails plan blocks: $(cat "$T/block")"
# Dragonfly+: a label per group, the Kueue levels top first
"$IBTOPO" export --format k8s "$T/dfp.topo" >"$T/k8s" || fail "k8s dfp"
grep -q 'topology.ibtopo.io/group: "g01"' "$T/k8s" ||
	fail "no group label: $(head -30 "$T/k8s")"
[ "$(grep nodeLabel "$T/k8s" | tr -d ' "' | tr '\n' ' ')" = \
	"-nodeLabel:topology.ibtopo.io/top -nodeLabel:topology.ibtopo.io/group -nodeLabel:kubernetes.io/hostname " ] ||
	fail "k8s levels: $(grep nodeLabel "$T/k8s")"

# a leaf far smaller than the rest does not set the base block (issue
# 35): qdr-hosts-fdr10-isls has 5 leaves of 24 hosts, one of 22 and a
# switch with 2; slurmctld 26.05 forms 24, 48 and 96 from it
"$IBTOPO" export --format slurm-block "$top_srcdir/tests/data/real/qdr-hosts-fdr10-isls.topo" \
	>"$T/block" 2>"$T/err" || fail "slurm-block of qdr: $(cat "$T/err")"
grep -q '^BlockSizes=24,48,96$' "$T/block" ||
	fail "qdr block sizes: $(grep BlockSizes "$T/block")"
grep -q 'base block of 24 hosts (5 of 7 blocks hold as many or more); 2 smaller blocks' "$T/err" ||
	fail "no warning about the small blocks: $(cat "$T/err")"
# for a Slurm before 26.05 the base is the smallest block: slurmctld
# 24.11 refuses a smaller one (tests/integration/slurm-24.11.sh)
"$IBTOPO" export --format slurm-block --slurm-version 24.11 \
	"$top_srcdir/tests/data/real/qdr-hosts-fdr10-isls.topo" >"$T/block" ||
	fail "slurm-block --slurm-version 24.11"
grep -q '^BlockSizes=2,4,8$' "$T/block" ||
	fail "qdr block sizes for 24.11: $(grep BlockSizes "$T/block")"
"$IBTOPO" export --format slurm-block --slurm-version 26.05.5 \
	"$top_srcdir/tests/data/real/qdr-hosts-fdr10-isls.topo" 2>/dev/null |
	grep -q '^BlockSizes=24,48,96$' || fail "--slurm-version 26.05.5"
for v in 24 24.13 x.y 24.11a -1.05 "24. 11" 24.1 24.11. 123.05; do
	"$IBTOPO" export --format slurm-block --slurm-version "$v" \
		"$top_srcdir/tests/data/real/qdr-hosts-fdr10-isls.topo" \
		>/dev/null 2>"$T/err" && fail "--slurm-version $v accepted"
	grep -q "bad --slurm-version '$v' (X.Y, as 24.11)" "$T/err" ||
		fail "--slurm-version $v: $(cat "$T/err")"
done

# k8s: --kueue-api v1beta1, --label-prefix (topograph's keys, a prefix of
# one's own, a bad one refused), --hosts (members only, the absent named)
Q=$top_srcdir/tests/data/real/qdr-hosts-fdr10-isls.topo
"$IBTOPO" export --format k8s --kueue-api v1beta1 "$Q" >"$T/k1" ||
	fail "--kueue-api v1beta1"
grep -q '^apiVersion: kueue.x-k8s.io/v1beta1$' "$T/k1" &&
	"$PYTHON3" "$top_srcdir/tests/kueue-check.py" "$CRD" "$T/k1" >/dev/null ||
	fail "v1beta1 Topology: $(sed -n 1,12p "$T/k1")"
"$IBTOPO" export --format k8s --kueue-api v1alpha1 "$Q" >/dev/null 2>"$T/err" &&
	fail "--kueue-api v1alpha1 accepted"
grep -q "unknown --kueue-api 'v1alpha1' (v1beta2, v1beta1)" "$T/err" ||
	fail "--kueue-api v1alpha1: $(cat "$T/err")"
"$IBTOPO" export --format k8s --label-prefix topograph "$Q" >"$T/kt" ||
	fail "--label-prefix topograph"
[ "$(grep nodeLabel "$T/kt" | tr -d ' "' | tr '\n' ' ')" = \
	"-nodeLabel:network.topology.nvidia.com/spine -nodeLabel:network.topology.nvidia.com/leaf -nodeLabel:kubernetes.io/hostname " ] ||
	fail "topograph levels: $(grep nodeLabel "$T/kt")"
"$PYTHON3" "$top_srcdir/tests/kueue-check.py" "$CRD" "$T/kt" >"$T/kueue.out" ||
	fail "topograph labels: $(cat "$T/kueue.out")"
"$IBTOPO" export --format k8s --label-prefix fabric.example.org/ "$Q" |
	grep -q '^    fabric.example.org/leaf: ' || fail "--label-prefix of one's own"
for p in Bad/ example.org -x.org/ a..b/; do
	"$IBTOPO" export --format k8s --label-prefix "$p" "$Q" >/dev/null \
		2>"$T/err" && fail "--label-prefix '$p' accepted"
	grep -q "bad label prefix" "$T/err" || fail "--label-prefix '$p': $(cat "$T/err")"
done
"$IBTOPO" export --format slurm --label-prefix topograph "$Q" >/dev/null 2>&1 &&
	fail "--label-prefix accepted for slurm"
printf 'node/stage1\nnode/Stage2\n# a comment\n\nnode/ghost01\ntank1\n' >"$T/members"
"$IBTOPO" export --format k8s --hosts "$T/members" "$Q" >"$T/km" 2>"$T/err" ||
	fail "--hosts: $(cat "$T/err")"
[ "$(sed -n '/^kind: Node$/,+2s/^  name: "\(.*\)"$/\1/p' "$T/km" | sort | tr '\n' ' ')" = \
	"stage1 stage2 tank1 " ] ||
	fail "--hosts Nodes: $(grep '  name:' "$T/km")"
grep -q '1 of 4 --hosts members are not on the fabric: ghost01' "$T/err" &&
	grep -q '141 hosts of the fabric are not --hosts members: left out' "$T/err" ||
	fail "--hosts warnings: $(cat "$T/err")"
"$PYTHON3" "$top_srcdir/tests/kueue-check.py" "$CRD" "$T/km" >/dev/null ||
	fail "--hosts output no longer valid"
printf 'ghost01\n' >"$T/ghosts"
"$IBTOPO" export --format k8s --hosts "$T/ghosts" "$Q" >/dev/null 2>"$T/err" &&
	fail "--hosts with no member on the fabric exits 0"
grep -q 'no --hosts member is on the fabric' "$T/err" || fail "no member: $(cat "$T/err")"
"$IBTOPO" export --format k8s --hosts "$T/nonexistent" "$Q" >/dev/null 2>"$T/err" &&
	fail "--hosts of a missing file exits 0"
grep -q -- "--hosts $T/nonexistent: No such file" "$T/err" || fail "missing file: $(cat "$T/err")"

# ---- bad input
# no server: exit 2 in every format
printf 'Switch 4 "lonely"\n' >"$T/none.topo"
for fmt in slurm slurm-block slurm-yaml k8s; do
	"$IBTOPO" export --format "$fmt" "$T/none.topo" >"$T/out" 2>"$T/err"
	[ $? -eq 2 ] || fail "$fmt of a fabric without servers: wanted exit 2"
	grep -q 'no server to list' "$T/err" || fail "$fmt: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "$fmt wrote output for a fabric without servers"
done
# names that clash: a host named like a Dragonfly+ group
sed 's/"host001"/"g02"/g' "$T/dfp.topo" >"$T/clash.topo"
"$IBTOPO" export --format slurm "$T/clash.topo" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "clashing names: wanted exit 2 ($(cat "$T/err"))"
grep -q "names clash .*'g02'" "$T/err" || fail "clash message: $(cat "$T/err")"
# a name of 70 characters: at most 64, one warning; a server on no switch
long=sw-$(printf '%067d' 0)
cat >"$T/odd.topo" <<EOF
Switch 8 "$long"
[1] "node01"[1]
[2] "node02"[1]

Ca 1 "node01"
[1] "$long"[1]

Ca 1 "node02"
[1] "$long"[2]

Ca 1 "island01"
[1] "island02"[1]

Ca 1 "island02"
[1] "island01"[1]
EOF
"$IBTOPO" export --format slurm "$T/odd.topo" >"$T/out" 2>"$T/err" ||
	fail "odd.topo: $(cat "$T/err")"
grep -q '^SwitchName=sw-0\{52\}-[0-9a-f]\{8\} Nodes=node\[01-02\]$' "$T/out" ||
	fail "the long name, shortened: $(cat "$T/out")"
[ "$(grep -c 'warning: ' "$T/err")" = 2 ] &&
	grep -q "warning: 1 names changed to at most 64 characters" "$T/err" &&
	grep -q "warning: 2 hosts on no switch left out: 'island01'" "$T/err" ||
	fail "warnings: $(cat "$T/err")"
"$IBTOPO" export --format slurm --host-names nope "$T/odd.topo" \
	>/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "--host-names nope: wanted exit 2"
# ---- named after the fabric (issue 25): a stored snapshot's fabric
# names the topology, the Kueue Topology (as an RFC 1123 name) and every
# header; a file gets the name the store would give it, so the files of
# two fabrics concatenate to one topology.yaml of two topologies
IBTOPO_DB=$T/fabrics.db
export IBTOPO_DB
"$IBTOPO" --fabric Storage_A import "$T/dfp.topo" >/dev/null 2>"$T/err" ||
	fail "import into Storage_A: $(cat "$T/err")"
"$IBTOPO" import "$T/rails.topo" >/dev/null 2>"$T/err" ||
	fail "import rails: $(cat "$T/err")"
rails=$("$IBTOPO" fabrics --format csv | tr -d '\r' | sed 1d | cut -d, -f1 |
	grep -v '^Storage_A$')
case $rails in
fabric-[0-9a-f]*) ;;
*) fail "the rails plan's fabric: '$rails'" ;;
esac
for fmt in slurm slurm-block slurm-yaml k8s; do
	"$IBTOPO" --fabric Storage_A export --format "$fmt" latest >"$T/a.$fmt" \
		2>"$T/err" || fail "$fmt of Storage_A: $(cat "$T/err")"
	grep -q '^# fabric: Storage_A$' "$T/a.$fmt" ||
		flunk "$fmt header: $(head -3 "$T/a.$fmt")"
	"$IBTOPO" export --format "$fmt" "$T/rails.topo" >"$T/b.$fmt" \
		2>"$T/err" || fail "$fmt of the rails file: $(cat "$T/err")"
	grep -q "^# fabric: $rails\$" "$T/b.$fmt" ||
		flunk "$fmt header of a file: $(head -3 "$T/b.$fmt")"
done
grep -q '^- topology: "Storage_A"$' "$T/a.slurm-yaml" ||
	flunk "topology name: $(grep topology: "$T/a.slurm-yaml")"
grep -q '^kind: Topology$' "$T/a.k8s" &&
	sed -n '/^kind: Topology$/,/^spec:/p' "$T/a.k8s" |
	grep -q '^  name: "storage-a"$' ||
	flunk "k8s Topology name: $(sed -n 1,12p "$T/a.k8s")"
# a file's fabric: --fabric NAME names it, as in metrics
"$IBTOPO" --fabric lab1 export --format slurm-yaml "$T/rails.topo" \
	>"$T/out" 2>"$T/err" || fail "--fabric lab1 export: $(cat "$T/err")"
grep -q '^- topology: "lab1"$' "$T/out" ||
	flunk "--fabric names a file's topology: $(grep topology: "$T/out")"
IBTOPO_FABRIC='a b' "$IBTOPO" --db "$T/none.db" export --format slurm-yaml \
	"$T/rails.topo" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "bad fabric name 'a b'" "$T/err" ||
	flunk "a bad IBTOPO_FABRIC: $(cat "$T/err")"
cat "$T/a.slurm-yaml" "$T/b.slurm-yaml" >"$T/both.yaml"
got=$("$PYTHON3" -c 'import sys, yaml
print(" ".join(t["topology"] for t in yaml.safe_load(open(sys.argv[1]))))' \
	"$T/both.yaml") || fail "two fabrics' topology.yaml"
[ "$got" = "Storage_A $rails" ] || flunk "two fabrics' topologies: $got"
unset IBTOPO_DB
exit "$failed"
