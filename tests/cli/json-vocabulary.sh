#!/bin/sh
# json-vocabulary.sh - one vocabulary for the JSON of every command
# (issue 23, item 16). Every command that writes JSON is run on real
# inputs (the fixtures of tests/data stored with counters, forwarding
# tables and cables; dumps; plans; under ibsim, a discovery) and each
# document is parsed and walked key by key against doc/json.md, the page
# script writers read, so that the page and the program cannot drift:
# - "schema_version" is the version the page says is current;
# - no key the page lists as retired appears anywhere, and no moved key
#   at its old path;
# - every key is in the page's vocabulary, its value of a type given
#   there (or null);
# - each command's top-level keys are those its section lists;
# - every command the page documents was walked, and nothing walked is
#   undocumented. Without ibsim and opensm, discover cannot run: the
#   rest is still checked, then the test reports SKIP.
# JSON_VOCAB_INVENTORY=FILE writes every key path seen, its types and
# commands, into FILE (to write the page's vocabulary from).
: "${IBTOPO:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"
python_require
tmp=$TESTDIR
test_env db
DOC=$top_srcdir/doc/json.md
[ -r "$DOC" ] || fail "no $DOC"
J=$tmp/json
mkdir -p "$J"
: >"$J/manifest"
n=0

# walk SECTION RC COMMAND...: run COMMAND, which must exit RC; its
# standard output is a document of SECTION (doc/json.md's heading).
walk() {
	section=$1 want=$2
	shift 2
	n=$((n + 1))
	run "$want" "$@" || return 1
	cp "$TESTDIR/out" "$J/$n.json"
	printf '%s\t%s\t%s\n' "$section" "$n.json" "$*" >>"$J/manifest"
}

# ---- a store: one fabric, two snapshots 10 s apart with counters,
# forwarding tables and cables (the inputs of health-ber.sh and
# routes-files.sh)
topo=$DATA/ck-cables.topo dump=$DATA/rt-ck-lfts.dump
copy_at "$DATA/hc-ber-1.txt" "$tmp/t1.txt" '2026-01-01 10:00:00 UTC'
copy_at "$DATA/hc-ber-2.txt" "$tmp/t2.txt" '2026-01-01 10:00:10 UTC'
for s in 1 2; do
	run 0 "$IBTOPO" import "$topo" --label "s$s" --counters "$tmp/t$s.txt" \
		--routes "$dump" --cables "$DATA/ck-cables.csv" ||
		fail "import $s"
done
# a black hole and a loop planted in the tables (routing findings)
sed 's/^0x000d 003 /0x000d 255 /' "$dump" >"$tmp/hole.dump"
sed 's/^0x000d 003 /0x000d 001 /' "$dump" >"$tmp/loop.dump"
"$IBTOPO" plan dragonfly-plus --groups 3 --leaves 2 --spines 2 \
	--hosts-per-leaf 2 -o "$tmp/dfp.topo" || fail "plan dragonfly-plus"

walk snapshots 0 "$IBTOPO" snapshots --format json
walk fabrics 0 "$IBTOPO" fabrics --format json
for list in nodes ports links cables switches; do
	walk "show $list" 0 "$IBTOPO" show s2 "$list" --format json
done
walk "show switches" 0 "$IBTOPO" show s2 switches --type ca --format json
walk "show ports" 0 "$IBTOPO" show "$DATA/tf-iblinkinfo.txt" ports --format json
walk diff 1 "$IBTOPO" diff "$DATA/dv-before.topo" "$DATA/dv-after.topo" \
	--lids --format json
walk diff 1 "$IBTOPO" diff s1 s2 --format json
walk diff 0 "$IBTOPO" diff s2 s2 --format json
# the tables changed: route-changed, route-load-changed
run 0 "$IBTOPO" import "$topo" --label s3 --routes "$tmp/hole.dump" ||
	fail "import 3"
walk diff 1 "$IBTOPO" diff s2 s3 --format json
walk validate 1 "$IBTOPO" validate "$DATA/rd-small-plan.topo" \
	"$DATA/rd-small.topo" --format json
walk validate 0 "$IBTOPO" validate s2 s2 --format json
walk analyze 1 "$IBTOPO" analyze s2 --format json
walk analyze 1 "$IBTOPO" analyze "$topo" --routes "$tmp/hole.dump" --format json
walk analyze 1 "$IBTOPO" analyze "$topo" --routes "$tmp/loop.dump" --format json
walk analyze 0 "$IBTOPO" analyze "$REAL/ndr-superpod-rails.topo" --format json
walk analyze 0 "$IBTOPO" analyze "$tmp/dfp.topo" --format json
walk analyze 0 "$IBTOPO" analyze "$DATA/ck-ddr-info.topo" --format json
GEN=${top_builddir:-.}/tests/gen/gen-fabric
if [ -x "$GEN" ]; then
	"$GEN" --format ibnetdiscover --directors 2 --lines 4 --idle 1 \
		--spines 2 --leaves 4 --links 2 --hosts 2 director \
		>"$tmp/dir.topo" || fail "gen-fabric director"
	walk analyze 0 "$IBTOPO" analyze "$tmp/dir.topo" --format json
fi
# every real dump (each a key the fixtures may not reach: rails, chassis,
# DDR and QDR levels, iblinkinfo states), analyzed, listed and exported
for f in "$REAL"/*.topo "$REAL"/*.txt; do
	# small-ports-2: two nodes with one GUID (duplicate-node-guid)
	rc=0
	[ "${f##*/}" = small-ports-2.ports.txt ] && rc=1
	walk analyze "$rc" "$IBTOPO" analyze "$f" --format json
	walk "show ports" 0 "$IBTOPO" show "$f" ports --format json
	walk "show switches" 0 "$IBTOPO" show "$f" switches --format json
	walk "export --format json" 0 "$IBTOPO" export "$f" --format json
done
walk diff 1 "$IBTOPO" diff "$REAL/small-ports-1.ports.txt" \
	"$REAL/small-ports-2.ports.txt" --format json
walk health 1 "$IBTOPO" health s2 --since s1 --format json
walk health 0 "$IBTOPO" health s2 --format json
walk "health --history" 0 "$IBTOPO" health --history leaf01:39 --format json
walk routes 0 "$IBTOPO" routes s2 --format json
walk routes 1 "$IBTOPO" routes "$topo" --routes "$tmp/hole.dump" --format json
walk routes 1 "$IBTOPO" routes "$topo" --routes "$tmp/loop.dump" --format json
# multicast forwarding (issue 36): opensm.fdbs and opensm.mcfdbs
walk routes 0 "$IBTOPO" routes "$DATA/mc-ft.topo" --routes "$DATA/mc-opensm.fdbs" \
	--routes "$DATA/mc-opensm.mcfdbs" --format json
walk analyze 0 "$IBTOPO" analyze "$DATA/mc-ft.topo" \
	--routes "$DATA/mc-opensm.mcfdbs" --format json
walk whatif 0 "$IBTOPO" whatif "$topo" --fail spine01 --routes "$dump" \
	--format json
walk whatif 0 "$IBTOPO" whatif s2 --fail leaf01:39 --fail host01 --format json
walk whatif 0 "$IBTOPO" whatif "$topo" --each switch --format json
walk whatif 0 "$IBTOPO" whatif "$topo" --each cable --format json
walk job 0 "$IBTOPO" job 'host[01-03],nosuch' "$topo" --routes "$dump" \
	--format json
walk job 0 "$IBTOPO" job 'host[01-02]' s2 --format json
walk "export --format json" 0 "$IBTOPO" export s2 --format json
walk "export --format json" 0 "$IBTOPO" export "$DATA/tf-iblinkinfo.txt" --format json

# ---- discover, under ibsim once a subnet manager gave LIDs
skipped=
if [ -n "$IBSIM" ] && [ -x "$IBSIM" ] && [ -n "$UMAD2SIM" ] &&
	[ -f "$UMAD2SIM" ] && [ -r /proc/net/unix ] && [ -n "$OPENSM" ] &&
	[ -x "$OPENSM" ] && have_discover; then
	sim_start_as "$DATA/sim-small.net" host02
	sim_opensm
	walk discover 0 sim_client "$IBTOPO" --db "$tmp/sim.db" discover \
		--counters --routes --format json
	walk "show ports" 0 "$IBTOPO" --db "$tmp/sim.db" show ports --format json
	walk "show switches" 0 "$IBTOPO" --db "$tmp/sim.db" show switches --format json
	sim_stop
	# OpenSM's engine before and after a failure, under ibsim of its own
	walk whatif 0 "$IBTOPO" whatif "$DATA/sim-small.net" --fail spine01 \
		--reroute minhop --format json
else
	skipped=discover
	info "no ibsim or opensm (or no discover in this build): discover not walked"
fi

cat >"$tmp/check.py" <<'PY'
import json, os, re, sys

doc_path, jdir, skipped = sys.argv[1], sys.argv[2], sys.argv[3].split()
doc = open(doc_path, encoding="utf-8").read()
failed = {}	# each message once (an array's items say the same)

def fail(msg):
    if msg not in failed and len(failed) < 60:
        print("FAIL: " + msg, file=sys.stderr)
    failed[msg] = True

def part(title):
    """The text of the '## title' part of the page."""
    m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(title), doc,
                  re.S | re.M)
    if not m:
        sys.exit("doc/json.md has no '## %s'" % title)
    return m.group(1)

def rows(text):
    """The cells of each table row of text (header and rule left out)."""
    out = []
    for line in text.splitlines():
        if not line.startswith("|") or re.match(r"^\|[-| :]+\|$", line):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0].startswith("`"):
            out.append(cells)
    return out

# the documented version
m = re.search(r"^The current `schema_version` is (\d+)\.", doc, re.M)
if not m:
    sys.exit("doc/json.md does not say 'The current `schema_version` is N.'")
version = int(m.group(1))

# the vocabulary: key -> JSON types (a key may have a row per meaning)
TYPES = {"string", "integer", "number", "boolean", "object", "array", "map"}
vocab = {}
for cells in rows(part("Vocabulary")):
    key = cells[0].strip("`")
    types = set(re.findall(r"[a-z]+", cells[1])) & TYPES
    if not types:
        fail("vocabulary: `%s` has no type in '%s'" % (key, cells[1]))
    vocab.setdefault(key, set()).update(types)

# each command's section: its top-level keys, required and optional (?)
sections = {}
for m in re.finditer(r"^### `ibtopo ([^`]+)`\n(.*?)(?=^##|\Z)",
                     part("Commands"), re.S | re.M):
    name, body = m.group(1), m.group(2)
    t = re.search(r"^Top-level keys: (.*)$", body, re.M)
    if not t:
        fail("section '%s' lists no top-level keys" % name)
        continue
    req = set(re.findall(r"`([a-z_]+)`(?!\?)", t.group(1)))
    opt = set(re.findall(r"`([a-z_]+)`\?", t.group(1)))
    sections[name] = (req, opt)

# retired spellings: a bare key of "Retired keys" anywhere; a path
# (a.b, a[].b) of either table at that place, from the root
changes = part("Changes in schema_version %d" % version)
retired, retired_paths = set(), []
for sub in re.finditer(r"^### ([^\n]*)\n(.*?)(?=^### |\Z)", changes,
                       re.S | re.M):
    for cells in rows(sub.group(2)):
        for old in re.findall(r"`([^`]+)`", cells[0]):
            if "." in old or "[]" in old:
                pat = re.escape(old).replace(r"\*", r"[^.\[]+")
                retired_paths.append((old, re.compile(pat + r"\Z")))
            elif sub.group(1).strip() == "Retired keys":
                retired.add(old)
if not retired or not retired_paths:
    fail("no retired keys or paths read from doc/json.md")

JTYPE = {str: "string", bool: "boolean", int: "integer", float: "number",
         dict: "object", list: "array"}

def fits(value, types):
    t = JTYPE[type(value)]
    return (t in types or (t == "integer" and "number" in types) or
            (t == "object" and "map" in types))

inventory = {}

def walk(value, path, section, where):
    """Check every key under value (at path) of a document of section."""
    if isinstance(value, list):
        for v in value:
            walk(v, path + "[]", section, where)
        return
    if not isinstance(value, dict):
        return
    for key, v in value.items():
        p = path + "." + key if path else key
        if key in retired:
            fail("%s: retired key `%s` at %s" % (where, key, p))
        for old, pat in retired_paths:
            if pat.match(p):
                fail("%s: %s, a schema 1 spelling (`%s`)" % (where, p, old))
        inv = inventory.setdefault(p, [set(), set()])
        inv[0].add("null" if v is None else JTYPE[type(v)])
        inv[1].add(section)
        types = vocab.get(key)
        if types is None:
            fail("%s: `%s` (at %s) is not in the vocabulary" % (where, key, p))
        elif v is not None and not fits(v, types):
            fail("%s: %s is a JSON %s, the vocabulary says %s" %
                 (where, p, JTYPE[type(v)], " or ".join(sorted(types))))
        # the keys of a map are data (counter names, hop counts)
        if (isinstance(v, dict) and types and "map" in types and
                "object" not in types):
            continue
        walk(v, p, section, where)

walked = set()
docs = 0
for line in open(os.path.join(jdir, "manifest")):
    section, name, cmd = line.rstrip("\n").split("\t")
    where = "'%s'" % cmd.split("ibtopo ", 1)[-1]
    try:
        text = open(os.path.join(jdir, name)).read()
        d = json.loads(text)
    except ValueError as e:
        fail("%s: not one JSON document: %s" % (where, e))
        continue
    if not isinstance(d, dict):
        fail("%s: not a JSON object" % where)
        continue
    # "one JSON object on one line" (doc/json.md): a line ends in \n
    if text.count("\n") != 1 or not text.endswith("\n"):
        fail("%s: not one line ending in a newline (%d newlines)" %
             (where, text.count("\n")))
    docs += 1
    if d.get("schema_version") != version:
        fail("%s: schema_version %r, doc/json.md says %d" %
             (where, d.get("schema_version"), version))
    if section not in sections:
        fail("%s: doc/json.md has no section `ibtopo %s`" % (where, section))
    else:
        req, opt = sections[section]
        keys = set(d)
        if req - keys:
            fail("%s: top-level keys missing: %s" % (where, sorted(req - keys)))
        if keys - req - opt:
            fail("%s: top-level keys not documented for `ibtopo %s`: %s" %
                 (where, section, sorted(keys - req - opt)))
    walked.add(section)
    walk(d, "", section, where)

for s in sorted(walked - set(sections)):
    fail("walked `ibtopo %s`, which doc/json.md does not document" % s)
missing = set(sections) - walked
print("# walked %d of the %d commands doc/json.md documents (%d documents)"
      % (len(walked & set(sections)), len(sections), docs), file=sys.stderr)
if len(sections) < 10:
    fail("doc/json.md documents only %d commands" % len(sections))

inv = os.environ.get("JSON_VOCAB_INVENTORY")
if inv:
    with open(inv, "w") as f:
        for p in sorted(inventory):
            types, secs = inventory[p]
            f.write("%s\t%s\t%s\n" % (p, "/".join(sorted(types)),
                                      ", ".join(sorted(secs))))
if failed:
    if len(failed) > 60:
        print("FAIL: ... and %d more" % (len(failed) - 60), file=sys.stderr)
    sys.exit(1)
if missing - set(skipped):
    print("FAIL: documented, not walked: %s" % sorted(missing - set(skipped)),
          file=sys.stderr)
    sys.exit(1)
sys.exit(77 if missing else 0)
PY
"$PYTHON3" "$tmp/check.py" "$DOC" "$J" "$skipped"
rc=$?
[ "$rc" -eq 77 ] && [ "$failed" -eq 0 ] && skip "discover not walked (no ibsim or opensm)"
[ "$rc" -eq 0 ] || failed=1
exit "$failed"
