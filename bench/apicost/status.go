package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"
)

var (
	crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1",
		Resource: "customresourcedefinitions"}
	pytorchJobs = schema.GroupVersionResource{Group: "kubeflow.org", Version: "v1", Resource: "pytorchjobs"}
)

// statusRounds measures the API server's CPU per status write of a PyTorchJob: by server-side apply, by JSON merge
// patch and by update (PUT with the resource version of the last write, as a controller writing from its cache
// does), under each CRD of crds (name=path of a PyTorchJob CRD), -rounds times alternately. No operator runs: the
// writes are all that happens.
func (b bench) statusRounds(crds []string, rounds, writesPerJob int) {
	cfg, err := clientcmd.BuildConfigFromFlags("", b.kubeconfig)
	must(err)
	cfg.QPS, cfg.Burst = 100000, 100000
	dyn := dynamic.NewForConfigOrDie(cfg)
	methods := []string{"apply", "merge", "update"}
	results := map[string][]float64{}
	for r := 1; r <= rounds; r++ {
		for _, c := range crds {
			name, path, _ := strings.Cut(c, "=")
			b.installCrd(dyn, path)
			for _, m := range methods {
				ms := b.statusRound(dyn, m, writesPerJob)
				key := name + "\t" + m
				results[key] = append(results[key], ms)
				fmt.Printf("round %d, CRD %s, %s: %.2f ms per status write\n", r, name, m, ms)
			}
		}
	}
	fmt.Printf("\nkube-apiserver CPU per status write of a PyTorchJob (ms), median of %d rounds; %d jobs x %d writes:\n\n",
		rounds, b.pods/4, writesPerJob)
	fmt.Println("| CRD | " + strings.Join(methods, " | ") + " |")
	fmt.Println("| --- |" + strings.Repeat(" --- |", len(methods)))
	for _, c := range crds {
		name, _, _ := strings.Cut(c, "=")
		row := "| " + name + " |"
		for _, m := range methods {
			row += fmt.Sprintf(" %.2f |", median(results[name+"\t"+m]))
		}
		fmt.Println(row)
	}
}

// installCrd applies the CRD at path (server-side, forced) and waits until the API server serves it.
func (b bench) installCrd(dyn dynamic.Interface, path string) {
	raw, err := os.ReadFile(path)
	must(err)
	body, err := yaml.YAMLToJSON(raw)
	must(err)
	force := true
	_, err = dyn.Resource(crdResource).Patch(b.ctx, "pytorchjobs.kubeflow.org", types.ApplyPatchType, body,
		metav1.PatchOptions{FieldManager: "apicost", Force: &force})
	must(err)
	for {
		crd, err := dyn.Resource(crdResource).Get(b.ctx, "pytorchjobs.kubeflow.org", metav1.GetOptions{})
		must(err)
		conditions, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
		if established(conditions) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(5 * time.Second) // the handler takes up the new schema a moment after the CRD is stored
}

func established(conditions []interface{}) bool {
	for _, c := range conditions {
		m, _ := c.(map[string]interface{})
		if m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// statusRound creates -n/4 PyTorchJobs (a Master and 3 Workers each), writes each one's status writesPerJob times by
// method, and returns the API server's CPU per write in milliseconds; the jobs are deleted after.
func (b bench) statusRound(dyn dynamic.Interface, method string, writesPerJob int) float64 {
	ns := fmt.Sprintf("apicost-%d", time.Now().UnixNano())
	b.namespace(ns)
	defer b.client("json").CoreV1().Namespaces().Delete(b.ctx, ns, metav1.DeleteOptions{})
	jobs := dyn.Resource(pytorchJobs).Namespace(ns)
	count := b.pods / 4
	last := make([]*unstructured.Unstructured, count)
	for i := 0; i < count; i++ {
		created, err := jobs.Create(b.ctx, pytorchJob(i), metav1.CreateOptions{})
		must(err)
		last[i] = created
	}
	before := b.cpuTicks()
	for w := 0; w < writesPerJob; w++ {
		b.eachOf(count, func(i int) { last[i] = writeStatus(b, jobs, last[i], method, w) })
	}
	spent := b.cpuTicks() - before
	return float64(spent) * 10 / float64(count*writesPerJob)
}

func writeStatus(b bench, jobs dynamic.ResourceInterface, job *unstructured.Unstructured, method string,
	w int) *unstructured.Unstructured {
	status := jobStatus(w)
	name := job.GetName()
	var out *unstructured.Unstructured
	var err error
	switch method {
	case "apply":
		body, _ := json.Marshal(map[string]interface{}{"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob",
			"metadata": map[string]interface{}{"name": name}, "status": status})
		force := true
		out, err = jobs.Patch(b.ctx, name, types.ApplyPatchType, body,
			metav1.PatchOptions{FieldManager: "bench-operator", Force: &force}, "status")
	case "merge":
		body, _ := json.Marshal(map[string]interface{}{"status": status})
		out, err = jobs.Patch(b.ctx, name, types.MergePatchType, body, metav1.PatchOptions{}, "status")
	default:
		next := job.DeepCopy()
		next.Object["status"] = status
		out, err = jobs.UpdateStatus(b.ctx, next, metav1.UpdateOptions{})
	}
	must(err)
	return out
}

func jobStatus(w int) map[string]interface{} {
	now := time.Now().UTC().Format(time.RFC3339)
	return map[string]interface{}{
		"conditions": []interface{}{
			map[string]interface{}{"type": "Created", "status": "True", "reason": "PyTorchJobCreated",
				"message": "PyTorchJob is created.", "lastUpdateTime": now, "lastTransitionTime": now},
			map[string]interface{}{"type": "Running", "status": fmt.Sprint(w%2 == 0), "reason": "PyTorchJobRunning",
				"message": fmt.Sprintf("PyTorchJob is running (write %d).", w), "lastUpdateTime": now,
				"lastTransitionTime": now},
		},
		"replicaStatuses": map[string]interface{}{
			"Master": map[string]interface{}{"active": int64(1)},
			"Worker": map[string]interface{}{"active": int64(w%3 + 1)},
		},
		"lastReconcileTime": now,
	}
}

func pytorchJob(i int) *unstructured.Unstructured {
	replica := func(count int64) map[string]interface{} {
		return map[string]interface{}{"replicas": count, "restartPolicy": "OnFailure",
			"template": map[string]interface{}{"spec": map[string]interface{}{"containers": []interface{}{
				map[string]interface{}{"name": "pytorch", "image": "docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727",
					"command":   []interface{}{"python3", "/opt/pytorch-mnist/mnist.py", "--epochs=1"},
					"resources": map[string]interface{}{"requests": map[string]interface{}{"cpu": "100m"}}}}}}}
	}
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob",
		"metadata": map[string]interface{}{"name": fmt.Sprintf("job-%04d", i)},
		"spec": map[string]interface{}{"pytorchReplicaSpecs": map[string]interface{}{
			"Master": replica(1), "Worker": replica(3)}},
	}}
}
