// k8s-meta-check.go - the metadata of ibtopo's Kubernetes objects,
// checked by Kubernetes' own validation code (k8s.io/apimachinery, as
// Debian packages it): every object's metadata with ValidateObjectMeta
// and the node name rule (a DNS-1123 subdomain, what the API server
// applies to Node names), which checks the labels too (ValidateLabels:
// qualified keys, values of at most 63 characters), and each Topology level's
// nodeLabel as a qualified name. Built and run by
// tests/integration/k8s-apimachinery.sh in a Debian trixie chroot.
//
// Input on stdin: a JSON array of {"kind", "metadata", "levelKeys"},
// the YAML stream `ibtopo export --format k8s` writes, turned into JSON
// by the test. Output: one line per error, then "N objects, M errors";
// exit 1 when there is an error, 2 on bad input.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

type object struct {
	Kind      string            `json:"kind"`
	Metadata  metav1.ObjectMeta `json:"metadata"`
	LevelKeys []string          `json:"levelKeys"`
}

func main() {
	var objs []object
	if err := json.NewDecoder(os.Stdin).Decode(&objs); err != nil {
		fmt.Fprintf(os.Stderr, "k8s-meta-check: bad input: %v\n", err)
		os.Exit(2)
	}
	bad := 0
	for _, o := range objs {
		meta := field.NewPath("metadata")
		errs := validation.ValidateObjectMeta(&o.Metadata, false,
			validation.NameIsDNSSubdomain, meta)
		for i, k := range o.LevelKeys {
			for _, m := range utilvalidation.IsQualifiedName(k) {
				errs = append(errs, field.Invalid(field.NewPath(
					"spec", "levels").Index(i).Child("nodeLabel"),
					k, m))
			}
		}
		for _, e := range errs {
			fmt.Printf("%s %q: %s\n", o.Kind, o.Metadata.Name, e.Error())
			bad++
		}
	}
	fmt.Printf("%d objects, %d errors\n", len(objs), bad)
	if bad > 0 {
		os.Exit(1)
	}
}
