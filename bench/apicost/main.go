// apicost measures the API server's CPU for the same pod traffic sent and watched in JSON or in protobuf: does the
// encoding a client speaks change what the API server spends on it? (docs/benchmarks.md, "JSON or protobuf").
//
// Each round creates -n pods in a fresh namespace (4 labels, one container with 5 env vars, a scheduler nobody runs,
// so no other controller touches them), writes a status to each, lists them 10 times and deletes them, with
// -watchers open watches of the namespace's pods that must see every event. The CPU is the kube-apiserver process's
// (utime + stime of /proc/<pid>/stat) over each phase. The variants run alternately, -rounds times, and the table gives
// the median of each; every round is printed too.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

const protobuf = "application/vnd.kubernetes.protobuf"

var phases = []string{"create", "status", "list x10", "delete"}

type variant struct{ requests, watches string }

func (v variant) String() string { return "requests " + v.requests + ", watches " + v.watches }

type bench struct {
	kubeconfig     string
	pid            int
	pods, watchers int
	parallel       int
	ctx            context.Context
}

func main() {
	b := bench{ctx: context.Background()}
	flag.StringVar(&b.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig of the cluster")
	flag.IntVar(&b.pid, "pid", 0, "pid of its kube-apiserver (required)")
	flag.IntVar(&b.pods, "n", 2000, "pods per round")
	flag.IntVar(&b.watchers, "watchers", 1, "watches of the pods open during each round")
	flag.IntVar(&b.parallel, "parallel", 8, "concurrent requests")
	rounds := flag.Int("rounds", 3, "rounds of each variant")
	mode := flag.String("mode", "pods", "pods: pod traffic in JSON and protobuf; status: PyTorchJob status writes")
	crds := flag.String("crds", "", "status mode: name=path of a PyTorchJob CRD, comma separated")
	writes := flag.Int("writes", 5, "status mode: status writes per job")
	flag.Parse()
	if b.pid == 0 {
		fmt.Fprintln(os.Stderr, "apicost: -pid is required")
		os.Exit(2)
	}
	if *mode == "status" {
		b.statusRounds(strings.Split(*crds, ","), *rounds, *writes)
		return
	}
	variants := []variant{{"json", "json"}, {"protobuf", "protobuf"}, {"protobuf", "json"}}
	results := map[variant]map[string][]float64{}
	for r := 1; r <= *rounds; r++ {
		for _, v := range variants {
			ms := b.round(v)
			if results[v] == nil {
				results[v] = map[string][]float64{}
			}
			for _, p := range phases {
				results[v][p] = append(results[v][p], ms[p])
				fmt.Printf("round %d, %s: %s %.2f ms per pod\n", r, v, p, ms[p])
			}
			time.Sleep(5 * time.Second)
		}
	}
	fmt.Printf("\nkube-apiserver CPU per pod (ms), median of %d rounds; %d pods, %d watch(es):\n\n", *rounds, b.pods, b.watchers)
	fmt.Println("| variant | " + strings.Join(phases, " | ") + " |")
	fmt.Println("| --- |" + strings.Repeat(" --- |", len(phases)))
	for _, v := range variants {
		row := "| " + v.String() + " |"
		for _, p := range phases {
			row += fmt.Sprintf(" %.2f |", median(results[v][p]))
		}
		fmt.Println(row)
	}
}

func (b bench) client(encoding string) *kubernetes.Clientset {
	cfg, err := clientcmd.BuildConfigFromFlags("", b.kubeconfig)
	must(err)
	cfg.QPS, cfg.Burst = 100000, 100000
	if encoding == "protobuf" {
		cfg.ContentType = protobuf
		cfg.AcceptContentTypes = protobuf + ",application/json"
	}
	return kubernetes.NewForConfigOrDie(cfg)
}

// round runs the four phases once and returns the API server's CPU per pod of each, in milliseconds.
func (b bench) round(v variant) map[string]float64 {
	c := b.client(v.requests)
	ns := fmt.Sprintf("apicost-%d", time.Now().UnixNano())
	b.namespace(ns)
	defer c.CoreV1().Namespaces().Delete(b.ctx, ns, metav1.DeleteOptions{})
	var added, modified, deleted atomic.Int64
	ctx, stop := context.WithCancel(b.ctx)
	defer stop()
	for i := 0; i < b.watchers; i++ {
		w, err := b.client(v.watches).CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{})
		must(err)
		go func() {
			for ev := range w.ResultChan() {
				switch ev.Type {
				case watch.Added:
					added.Add(1)
				case watch.Modified:
					modified.Add(1)
				case watch.Deleted:
					deleted.Add(1)
				}
			}
		}()
	}
	time.Sleep(time.Second)
	every := int64(b.pods * b.watchers)
	out := map[string]float64{}
	measure := func(phase string, work func()) {
		before := b.cpuTicks()
		work()
		out[phase] = float64(b.cpuTicks()-before) * 10 / float64(b.pods) // 100 ticks a second
	}
	pods := c.CoreV1().Pods(ns)
	measure("create", func() {
		b.each(func(i int) { _, err := pods.Create(b.ctx, pod(i), metav1.CreateOptions{}); must(err) })
		waitFor(&added, every)
	})
	measure("status", func() {
		patch := []byte(`{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}`)
		b.each(func(i int) {
			_, err := pods.Patch(b.ctx, podName(i), types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status")
			must(err)
		})
		waitFor(&modified, every)
	})
	measure("list x10", func() {
		for i := 0; i < 10; i++ {
			_, err := pods.List(b.ctx, metav1.ListOptions{})
			must(err)
		}
	})
	zero := int64(0)
	measure("delete", func() {
		b.each(func(i int) { must(pods.Delete(b.ctx, podName(i), metav1.DeleteOptions{GracePeriodSeconds: &zero})) })
		waitFor(&deleted, every)
	})
	return out
}

func (b bench) namespace(name string) {
	_, err := b.client("json").CoreV1().Namespaces().Create(b.ctx,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	must(err)
}

// each calls work for every pod index on -parallel goroutines.
func (b bench) each(work func(i int)) { b.eachOf(b.pods, work) }

// eachOf calls work for 0 to count - 1 on -parallel goroutines.
func (b bench) eachOf(count int, work func(i int)) {
	var wg sync.WaitGroup
	indexes := make(chan int)
	for p := 0; p < b.parallel; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range indexes {
				work(i)
			}
		}()
	}
	for i := 0; i < count; i++ {
		indexes <- i
	}
	close(indexes)
	wg.Wait()
}

func (b bench) cpuTicks() int64 {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", b.pid))
	must(err)
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndex(s, ")")+2:]) // from field 3 (state) on
	user, _ := strconv.ParseInt(fields[11], 10, 64)
	system, _ := strconv.ParseInt(fields[12], 10, 64)
	return user + system
}

func podName(i int) string { return fmt.Sprintf("p-%05d", i) }

// pod is the size of a PyTorchJob worker's pod: its labels, one container, its env.
func pod(i int) *corev1.Pod {
	job := fmt.Sprintf("job-%d", i/4)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: podName(i), Labels: map[string]string{
			"training.kubeflow.org/job-name": job, "training.kubeflow.org/replica-type": "worker",
			"training.kubeflow.org/replica-index": strconv.Itoa(i % 4),
			"training.kubeflow.org/operator-name": "pytorchjob-controller"}},
		Spec: corev1.PodSpec{SchedulerName: "nobody", Containers: []corev1.Container{{
			Name: "pytorch", Image: "docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727",
			Command: []string{"python3", "/opt/pytorch-mnist/mnist.py", "--epochs=1"},
			Env: []corev1.EnvVar{{Name: "MASTER_PORT", Value: "23456"}, {Name: "MASTER_ADDR", Value: job + "-master-0"},
				{Name: "WORLD_SIZE", Value: "4"}, {Name: "RANK", Value: strconv.Itoa(i % 4)},
				{Name: "PYTHONUNBUFFERED", Value: "1"}}}}},
	}
}

func waitFor(counter *atomic.Int64, want int64) {
	for counter.Load() < want {
		time.Sleep(10 * time.Millisecond)
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
