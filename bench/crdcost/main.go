// crdcost measures, inside one process, what the API server's validation of a PyTorchJob status write costs under a
// CRD: the status strategy's ValidateUpdate (the status schema, the object's metadata, list types, and the CRD's CEL
// rules over the whole object, which a status write evaluates too), and with -rules each CEL rule's share: the CRD
// with that rule only, less the CRD with none. No cluster: it builds the validators as kube-apiserver does from the
// CRD's YAML, with the apiextensions-apiserver version of the control plane the tests use.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

func main() {
	crdPaths := flag.String("crds", "", "name=path of a CRD, comma separated")
	objPath := flag.String("object", "", "the job as it is stored (JSON or YAML); its status is written again with one count changed")
	iters := flag.Int("n", 5000, "status validations per measurement")
	rounds := flag.Int("rounds", 5, "measurements; the median is printed")
	perRule := flag.Bool("rules", false, "also measure each CEL rule alone (the CRD with that rule only, less the CRD with none)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	if *cpuProfile != "" {
		out, err := os.Create(*cpuProfile)
		must(err)
		must(pprof.StartCPUProfile(out))
		defer pprof.StopCPUProfile()
	}
	old := readObject(*objPath)
	updated := old.DeepCopy()
	bumpStatus(updated)

	for _, entry := range strings.Split(*crdPaths, ",") {
		name, path, _ := strings.Cut(entry, "=")
		crd := readCRD(path)
		all := measure(crd, old, updated, *iters, *rounds)
		rules := collectRules(crd)
		none := measure(withoutRules(crd, rules), old, updated, *iters, *rounds)
		fmt.Printf("%s: %d CEL rules; a status write's validation %.1f µs, %.1f µs without the rules (they cost %.1f µs)\n",
			name, len(rules), all, none, all-none)
		if !*perRule {
			continue
		}
		type share struct {
			rule string
			cost float64
		}
		var shares []share
		for i, r := range rules {
			others := append(append([]ruleRef(nil), rules[:i]...), rules[i+1:]...)
			alone := measure(withoutRules(crd, others), old, updated, *iters, *rounds)
			shares = append(shares, share{r.String(), alone - none})
		}
		sort.Slice(shares, func(i, j int) bool { return shares[i].cost > shares[j].cost })
		for _, s := range shares {
			fmt.Printf("  %7.1f µs  %s\n", s.cost, s.rule)
		}
	}
}

// measure returns the median over rounds of the microseconds one status update's validation takes.
func measure(crd *apiextensionsv1.CustomResourceDefinition, old, updated *unstructured.Unstructured, iters, rounds int) float64 {
	strategy := statusStrategy(crd)
	ctx := context.Background()
	if errs := strategy.ValidateUpdate(ctx, updated, old); len(errs) > 0 {
		fail("the status write is refused: %v", errs.ToAggregate())
	}
	for i := 0; i < iters/10; i++ { // warm up
		strategy.ValidateUpdate(ctx, updated, old)
	}
	var results []float64
	for r := 0; r < rounds; r++ {
		start := time.Now()
		for i := 0; i < iters; i++ {
			strategy.ValidateUpdate(ctx, updated, old)
		}
		results = append(results, float64(time.Since(start).Microseconds())/float64(iters))
	}
	sort.Float64s(results)
	return results[len(results)/2]
}

type updateValidator interface {
	ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList
}

// statusStrategy builds what kube-apiserver's custom resource handler builds for the CRD's storage version.
func statusStrategy(crd *apiextensionsv1.CustomResourceDefinition) updateValidator {
	version := storageVersion(crd)
	internal := &apiextensions.JSONSchemaProps{}
	must(apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(version.Schema.OpenAPIV3Schema, internal, nil))
	structural, err := structuralschema.NewStructural(internal)
	must(err)
	validator, _, err := apiservervalidation.NewSchemaValidator(internal)
	must(err)
	statusProps := internal.Properties["status"]
	statusValidator, _, err := apiservervalidation.NewSchemaValidator(&statusProps)
	must(err)
	kind := schema.GroupVersionKind{Group: crd.Spec.Group, Version: version.Name, Kind: crd.Spec.Names.Kind}
	strategy := customresource.NewStrategy(unstructuredTyper{}, true, kind, validator, statusValidator, structural,
		&apiextensions.CustomResourceSubresourceStatus{}, nil, nil)
	return customresource.NewStatusStrategy(strategy)
}

type unstructuredTyper struct{}

func (unstructuredTyper) ObjectKinds(obj runtime.Object) ([]schema.GroupVersionKind, bool, error) {
	return []schema.GroupVersionKind{obj.GetObjectKind().GroupVersionKind()}, false, nil
}
func (unstructuredTyper) Recognizes(schema.GroupVersionKind) bool { return true }

// ruleRef names one x-kubernetes-validations entry by the schema path it sits on and its index there.
type ruleRef struct {
	path  []string
	index int
	rule  string
}

func (r ruleRef) key() string { return fmt.Sprintf("/%s[%d]", strings.Join(r.path, "/"), r.index) }

func (r ruleRef) String() string {
	rule := r.rule
	if len(rule) > 90 {
		rule = rule[:87] + "..."
	}
	return r.key() + " " + rule
}

func collectRules(crd *apiextensionsv1.CustomResourceDefinition) []ruleRef {
	var out []ruleRef
	walk(storageSchema(crd), nil, func(path []string, s *apiextensionsv1.JSONSchemaProps) {
		for i, v := range s.XValidations {
			out = append(out, ruleRef{append([]string(nil), path...), i, v.Rule})
		}
	})
	return out
}

func withoutRules(crd *apiextensionsv1.CustomResourceDefinition, drop []ruleRef) *apiextensionsv1.CustomResourceDefinition {
	dropped := map[string]bool{}
	for _, d := range drop {
		dropped[d.key()] = true
	}
	copied := crd.DeepCopy()
	walk(storageSchema(copied), nil, func(path []string, s *apiextensionsv1.JSONSchemaProps) {
		var kept apiextensionsv1.ValidationRules
		for i, v := range s.XValidations {
			if !dropped[ruleRef{path: path, index: i}.key()] {
				kept = append(kept, v)
			}
		}
		s.XValidations = kept
	})
	return copied
}

// storageVersion is the version the API server stores, whose schema validates what is written.
func storageVersion(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinitionVersion {
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Storage {
			return &crd.Spec.Versions[i]
		}
	}
	return &crd.Spec.Versions[0]
}

func storageSchema(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.JSONSchemaProps {
	return storageVersion(crd).Schema.OpenAPIV3Schema
}

func walk(s *apiextensionsv1.JSONSchemaProps, path []string, visit func([]string, *apiextensionsv1.JSONSchemaProps)) {
	if s == nil {
		return
	}
	visit(path, s)
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := s.Properties[name]
		walk(&p, append(path, name), visit)
		s.Properties[name] = p
	}
	if s.Items != nil && s.Items.Schema != nil {
		walk(s.Items.Schema, append(path, "[]"), visit)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		walk(s.AdditionalProperties.Schema, append(path, "{}"), visit)
	}
}

// bumpStatus changes one count of the status, as a status write does.
func bumpStatus(obj *unstructured.Unstructured) {
	statuses, _, _ := unstructured.NestedMap(obj.Object, "status", "replicaStatuses")
	for name := range statuses {
		active, _, _ := unstructured.NestedInt64(statuses, name, "active")
		must(unstructured.SetNestedField(statuses, active+1, name, "active"))
	}
	must(unstructured.SetNestedMap(obj.Object, statuses, "status", "replicaStatuses"))
	obj.SetResourceVersion("2")
}

func readObject(path string) *unstructured.Unstructured {
	data, err := os.ReadFile(path)
	must(err)
	jsonData, err := yaml.YAMLToJSON(data)
	must(err)
	obj := &unstructured.Unstructured{}
	must(obj.UnmarshalJSON(jsonData)) // integers as int64, as the API server decodes them
	return obj
}

func readCRD(path string) *apiextensionsv1.CustomResourceDefinition {
	data, err := os.ReadFile(path)
	must(err)
	crd := &apiextensionsv1.CustomResourceDefinition{}
	must(yaml.Unmarshal(data, crd))
	return crd
}

func must(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "crdcost: "+format+"\n", args...)
	os.Exit(1)
}
