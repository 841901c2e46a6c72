"""kueue-check.py CRD FILE - `ibtopo export --format k8s` output as
Kubernetes and Kueue take it (issue 35), for tests/cli/export-sched.sh.

- The Topology object validates against the openAPIV3Schema that Kueue's
  CRD (tests/data/kueue, vendored with its licence) gives for the
  apiVersion written, which must be one the CRD serves; with unknown
  fields refused, as `kubectl apply` with strict field validation does.
- The CRD's x-kubernetes-validations (CEL) on spec.levels, checked here
  as they read: "must be unique" (no level twice) and "the
  kubernetes.io/hostname label can only be used at the lowest level of
  topology".
- Node label keys are qualified names (prefix a DNS subdomain of at most
  253 characters, name at most 63 of [-_.A-Za-z0-9], alphanumeric at
  both ends), values at most 63 such characters (Kubernetes'
  apimachinery validation IsQualifiedName, IsValidLabelValue).
- Kueue's topology-aware scheduling ignores a Node that lacks one of the
  Topology's levels: every Node carries every level label but the
  hostname, and the levels nest (two Nodes that agree at a level agree
  at every level above it).
Prints "nodes N" and exits 0, or prints "bad: ..." lines and exits 1.
"""
import re
import sys

import jsonschema
import yaml

NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$")
DNS1123 = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
HOSTNAME = "kubernetes.io/hostname"


def strict(schema):
    """The schema with unknown fields refused where it lists them."""
    if isinstance(schema, dict):
        out = {k: strict(v) for k, v in schema.items()
               if not k.startswith("x-kubernetes-")}
        if "properties" in out and \
                not schema.get("x-kubernetes-preserve-unknown-fields"):
            out.setdefault("additionalProperties", False)
        return out
    if isinstance(schema, list):
        return [strict(v) for v in schema]
    return schema


def qualified(key):
    prefix, _, name = key.rpartition("/")
    if prefix and (len(prefix) > 253 or not DNS1123.match(prefix)):
        return False
    return bool(NAME.match(name))


def check(crd, docs):
    bad = []
    topo = docs[0] if docs else {}
    group = crd["spec"]["group"]
    served = {v["name"]: v for v in crd["spec"]["versions"] if v["served"]}
    api = str(topo.get("apiVersion", ""))
    version = api.split("/", 1)[1] if api.startswith(group + "/") else None
    if topo.get("kind") != crd["spec"]["names"]["kind"] or version not in served:
        return ["the first object is no Topology of a served version "
                "(%s; served %s)" % (api, ",".join(sorted(served)))], 0
    schema = strict(served[version]["schema"]["openAPIV3Schema"])
    for e in jsonschema.Draft7Validator(schema).iter_errors(topo):
        bad.append("Topology: %s at %s" % (e.message, list(e.path)))
    name = str((topo.get("metadata") or {}).get("name", ""))
    if len(name) > 253 or not DNS1123.match(name):
        bad.append("Topology name %r no RFC 1123 subdomain" % name)
    levels = [lv.get("nodeLabel") for lv in topo.get("spec", {}).get("levels", [])]
    # x-kubernetes-validations of spec.levels, as the CRD words them
    if len(set(levels)) != len(levels):
        bad.append("levels: must be unique")
    if HOSTNAME in levels and levels[-1] != HOSTNAME:
        bad.append("levels: kubernetes.io/hostname not the lowest level")
    keys = [k for k in levels if k != HOSTNAME]
    above = {}  # (level index, value) -> values of the levels above
    nodes = 0
    for d in docs[1:]:
        nodes += 1
        meta = d.get("metadata") or {}
        node = meta.get("name")
        labels = meta.get("labels") or {}
        for k, v in labels.items():
            if not qualified(k):
                bad.append("%s: label key %r" % (node, k))
            if not isinstance(v, str) or (v and not NAME.match(v)):
                bad.append("%s: label value %r" % (node, v))
        missing = [k for k in keys if k not in labels]
        if missing:
            bad.append("%s: no label %s (Kueue ignores the Node)"
                       % (node, ",".join(missing)))
            continue
        for i, k in enumerate(keys):
            up = tuple(labels[x] for x in keys[:i])
            if above.setdefault((i, labels[k]), up) != up:
                bad.append("%s: %s=%s under %s, elsewhere under %s"
                           % (node, k, labels[k], up, above[(i, labels[k])]))
    return bad, nodes


def main():
    crd = yaml.safe_load(open(sys.argv[1]))
    docs = [d for d in yaml.safe_load_all(open(sys.argv[2])) if d is not None]
    bad, nodes = check(crd, docs)
    for b in bad[:10]:
        print("bad: " + b)
    print("nodes %d" % nodes)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
