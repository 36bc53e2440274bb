package dev.stint.e2e;

import static dev.stint.e2e.CrdVerdicts.replica;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The checked-in CRDs on a real API server: installed with kubectl, and invalid jobs refused naming the field. */
class CrdValidationIT extends CrdOnApiServer {
  /** The sample plugin's CRD too: the same limits hold for plugin kinds. */
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("crd").withCrdsFrom("examples/plugins/jax/crds");

  CrdValidationIT() {
    super(cluster::ns, "pytorch-simple.yaml");
  }

  static String job(String name, String master, String worker, String extraSpec) {
    return CrdVerdicts.job("PyTorchJob", "pytorchReplicaSpecs", name, extraSpec, master, worker);
  }

  static final String MASTER = replica("Master", 1, "pytorch", "busybox");
  static final String WORKER = replica("Worker", 2, "pytorch", "busybox");

  static Stream<Arguments> invalidJobs() {
    return Stream.of(
        Arguments.of("two masters", job("two-masters", replica("Master", 2, "pytorch", "busybox"), WORKER, ""),
            "spec.pytorchReplicaSpecs.Master.replicas: must be 1"),
        Arguments.of("no worker replicas", job("no-workers", MASTER, replica("Worker", 0, "pytorch", "busybox"), ""),
            "spec.pytorchReplicaSpecs.Worker.replicas: must be at least"),
        Arguments.of("no pytorch container", job("no-pytorch", replica("Master", 1, "main", "busybox"), WORKER, ""),
            "spec.pytorchReplicaSpecs: every replica type needs a container"),
        Arguments.of("empty image", job("no-image", replica("Master", 1, "pytorch", ""), WORKER, ""),
            "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].image"),
        Arguments.of("unknown replica type", job("chief", MASTER, replica("Chief", 1, "pytorch", "busybox"), ""),
            "spec.pytorchReplicaSpecs: replica types must be Master"),
        Arguments.of("managedBy not allowed", job("other-manager", MASTER, WORKER,
            "  runPolicy: {managedBy: example.com/other}\n"), "spec.runPolicy.managedBy: Unsupported value: "
            + "\"example.com/other\": supported values: \"kubeflow.org/training-operator\", \"kueue.x-k8s.io/multikueue\""),
        Arguments.of("cleanPodPolicy unknown", job("bad-clean", MASTER, WORKER,
            "  runPolicy: {cleanPodPolicy: Sometimes}\n"), "spec.runPolicy.cleanPodPolicy: Unsupported value: "
            + "\"Sometimes\": supported values: \"\", \"None\", \"Running\", \"All\""),
        Arguments.of("both nproc fields", job("both-nproc", "", WORKER,
            "  nprocPerNode: \"2\"\n  elasticPolicy: {nProcPerNode: 2}\n"), "spec.elasticPolicy.nProcPerNode"),
        Arguments.of("name not DNS-1035", job("9starts-with-digit", MASTER, WORKER, ""),
            "metadata.name: must be a DNS-1035 label"),
        // an int32 beyond its range was stored, then unreadable by the operator: every job of the kind unserved
        Arguments.of("backoffLimit beyond int32", job("big-backoff", MASTER, WORKER,
            "  runPolicy: {backoffLimit: 3000000000}\n"),
            "spec.runPolicy.backoffLimit in body should be less than or equal to 2147483647"),
        Arguments.of("pod template port beyond int32", job("big-port", MASTER.replace("image: \"busybox\"}",
            "image: \"busybox\", ports: [{containerPort: 3000000000}]}"), WORKER, ""),
            "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].ports[0].containerPort in body should be "
                + "less than or equal to 2147483647"),
        Arguments.of("probe port (int or string) beyond int32", job("big-probe", MASTER, WORKER.replace(
            "image: \"busybox\"}", "image: \"busybox\", readinessProbe: {httpGet: {port: -3000000000}}}"), ""),
            "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].readinessProbe.httpGet.port in body should "
                + "be greater than or equal to -2147483648"),
        Arguments.of("a resource that is not a quantity", job("lots-of-cpu", MASTER.replace("image: \"busybox\"}",
            "image: \"busybox\", resources: {limits: {cpu: lots}}}"), WORKER, ""),
            "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.cpu in body should match"),
        // the same outside the pod templates: the run policy, the elastic policy, the autoscaler's metrics
        Arguments.of("an exit code beyond int32", job("big-exit-code", MASTER, WORKER,
            "  runPolicy: {failurePolicy: {rules: [{action: FailJob, onExitCodes: [3000000000]}]}}\n"),
            "spec.runPolicy.failurePolicy.rules[0].onExitCodes[0] in body should be less than or equal to 2147483647"),
        Arguments.of("a gang's minimum below int32", job("small-min-available", MASTER, WORKER,
            "  runPolicy: {schedulingPolicy: {minAvailable: -3000000000}}\n"),
            "spec.runPolicy.schedulingPolicy.minAvailable in body should be greater than or equal to -2147483648"),
        Arguments.of("a gang's minResources not a quantity", job("lots-of-min-cpu", MASTER, WORKER,
            "  runPolicy: {schedulingPolicy: {minResources: {cpu: lots}}}\n"),
            "spec.runPolicy.schedulingPolicy.minResources.cpu in body should match"),
        Arguments.of("an elastic minimum below int32", job("small-min-replicas", "", WORKER,
            "  elasticPolicy: {minReplicas: -3000000000}\n"),
            "spec.elasticPolicy.minReplicas in body should be greater than or equal to 1"),
        // what torchrun and the autoscaler need is refused at admission, so an edit of a running job cannot fail it
        Arguments.of("elastic bounds the wrong way round", job("min-over-max", "", WORKER,
            "  elasticPolicy: {minReplicas: 8, maxReplicas: 6}\n"),
            "spec.elasticPolicy.maxReplicas: must not be less than minReplicas"),
        Arguments.of("a rendezvous port that is no port", job("big-rdzv-port", "", WORKER,
            "  elasticPolicy: {rdzvPort: 70000}\n"),
            "spec.elasticPolicy.rdzvPort in body should be less than or equal to 65535"),
        Arguments.of("nprocPerNode torchrun refuses", job("bad-nproc", MASTER, WORKER, "  nprocPerNode: \"0\"\n"),
            "spec.nprocPerNode in body should match '^([a-z][a-z0-9_]*|[1-9][0-9]*)$'"),
        Arguments.of("an autoscaler target beyond int32", job("big-utilization", "", WORKER,
            "  elasticPolicy: {metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, "
                + "averageUtilization: 3000000000}}}]}\n"),
            "spec.elasticPolicy.metrics[0].resource.target.averageUtilization in body should be less than or equal "
                + "to 2147483647"),
        Arguments.of("an autoscaler target not a quantity", job("lots-of-value", "", WORKER,
            "  elasticPolicy: {metrics: [{type: Pods, pods: {metric: {name: qps}, target: {type: AverageValue, "
                + "averageValue: lots}}}]}\n"),
            "spec.elasticPolicy.metrics[0].pods.target.averageValue in body should match"));
  }

  @Test
  void serviceModeCannotBeAddedWithARunPolicyTheJobDidNotHave() {
    String name = "no-run-policy";
    Kubectl.runWithInput(job(name, MASTER, WORKER, ""), "apply", "-n", cluster.ns(), "-f", "-").assertOk();
    try {
      Kubectl.Result added = Kubectl.run("patch", "pytorchjob", name, "-n", cluster.ns(), "--type=merge", "-p",
          "{\"spec\":{\"runPolicy\":{\"serviceMode\":\"PerJob\"}}}");
      assertThat(added.exitCode()).as("a rule on runPolicy never sees it added").isNotZero();
      assertThat(added.stderr()).contains("spec.runPolicy.serviceMode is immutable");
      // the same meaning, spelt out, is no change
      Kubectl.run("patch", "pytorchjob", name, "-n", cluster.ns(), "--type=merge", "-p",
          "{\"spec\":{\"runPolicy\":{\"serviceMode\":\"PerReplica\"}}}").assertOk();
    } finally {
      Kubectl.run("delete", "pytorchjob", name, "-n", cluster.ns(), "--wait=false");
    }
  }

  @Test
  void anMpiJobsServiceModeMaySpellOutWhatUnsetMeans() {
    String name = "mpi-mode";
    Kubectl.runWithInput(mpi(name, "Launcher", 1, "Worker", 1), "apply", "-n", cluster.ns(), "-f", "-").assertOk();
    try {
      // an MPIJob's only mode is PerJob, the same as unset: nothing changes, nothing to refuse
      Kubectl.run("patch", "mpijob", name, "-n", cluster.ns(), "--type=merge", "-p",
          "{\"spec\":{\"runPolicy\":{\"serviceMode\":\"PerJob\"}}}").assertOk();
    } finally {
      Kubectl.run("delete", "mpijob", name, "-n", cluster.ns(), "--wait=false");
    }
  }

  static final String MPI_NAME_TOO_LONG = "metadata.name: too long for its replica names: pod and host names "
      + "(<name>-launcher, <name>-worker-<index>) must be no more than 63 characters";

  /** A DNS-1035 name of this length. */
  static String name(int length) {
    return "n" + "x".repeat(length - 1);
  }

  /** A job of any kind with these replica types and replicas (null: unset), valid apart from them and its name. */
  static String anyJob(String apiVersion, String kind, String field, String container, String name,
                       Object... typesAndCounts) {
    Map<String, Integer> replicas = new LinkedHashMap<>();
    for (int i = 0; i < typesAndCounts.length; i += 2) {
      replicas.put((String) typesAndCounts[i], (Integer) typesAndCounts[i + 1]);
    }
    StringBuilder specs = new StringBuilder();
    replicas.forEach((type, count) -> specs.append("    ").append(type).append(":\n")
        .append(count == null ? "" : "      replicas: " + count + "\n")
        .append("      template: {spec: {containers: [{name: ").append(container).append(", image: busybox}]}}\n"));
    return "apiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata: {name: " + name + "}\nspec:\n  "
        + field + ":\n" + specs;
  }

  static String pytorch(String name, Object... typesAndCounts) {
    return anyJob("kubeflow.org/v1", "PyTorchJob", "pytorchReplicaSpecs", "pytorch", name, typesAndCounts);
  }

  static String mpi(String name, Object... typesAndCounts) {
    return anyJob("kubeflow.org/v2beta1", "MPIJob", "mpiReplicaSpecs", "mpi", name, typesAndCounts);
  }

  static String jax(String name, Object... typesAndCounts) {
    return anyJob("kubeflow.org/v1", "JAXJob", "jaxReplicaSpecs", "jax", name, typesAndCounts);
  }

  /**
   * The known limits (63-character child names, 5000 replicas per type and per job) on the real API server, for
   * PyTorchJob, MPIJob and the JAXJob sample: what is refused names the field in the API server's words; what is at
   * the limit is accepted ({@code --dry-run=server}: the same validation, nothing stored).
   */
  static Stream<Arguments> limits() {
    return Stream.of(
        Arguments.of("PyTorchJob: 10 workers, name of 54 (worker-9 at 63)",
            pytorch(name(54), "Master", 1, "Worker", 10), List.of()),
        Arguments.of("PyTorchJob: 10 workers, name of 55",
            pytorch(name(55), "Master", 1, "Worker", 10), List.of("metadata.name: Invalid value", NAME_TOO_LONG)),
        Arguments.of("PyTorchJob: 5000 workers, name of 51 (worker-4999 at 63)",
            pytorch(name(51), "Worker", 5000), List.of()),
        Arguments.of("PyTorchJob: 5000 workers, name of 52",
            pytorch(name(52), "Worker", 5000), List.of("metadata.name: Invalid value", NAME_TOO_LONG)),
        Arguments.of("PyTorchJob: 5001 workers", pytorch("big", "Worker", 5001),
            List.of("spec.pytorchReplicaSpecs.Worker.replicas", "less than or equal to 5000")),
        Arguments.of("PyTorchJob: negative workers", pytorch("negative", "Worker", -1),
            List.of("spec.pytorchReplicaSpecs.Worker.replicas", "greater than or equal to 0")),
        Arguments.of("PyTorchJob: 1 master + 4999 workers", pytorch("sum", "Master", 1, "Worker", 4999), List.of()),
        Arguments.of("PyTorchJob: 1 master + 5000 workers", pytorch("sum", "Master", null, "Worker", 5000),
            List.of("spec.pytorchReplicaSpecs: Invalid value",
                "spec.pytorchReplicaSpecs: at most 5000 replicas in all")),
        Arguments.of("MPIJob: launcher only, name of 54 (launcher at 63)", mpi(name(54), "Launcher", 1), List.of()),
        Arguments.of("MPIJob: launcher only, name of 55", mpi(name(55), "Launcher", 1),
            List.of("metadata.name: Invalid value", MPI_NAME_TOO_LONG)),
        Arguments.of("MPIJob: 11 workers, name of 54 (worker-10 at 64)", mpi(name(54), "Launcher", 1, "Worker", 11),
            List.of("metadata.name: Invalid value", MPI_NAME_TOO_LONG)),
        Arguments.of("MPIJob: launcher + 4999 workers", mpi("sum", "Launcher", 1, "Worker", 4999), List.of()),
        Arguments.of("MPIJob: launcher + 5000 workers", mpi("sum", "Launcher", 1, "Worker", 5000),
            List.of("spec.mpiReplicaSpecs: Invalid value", "spec.mpiReplicaSpecs: at most 5000 replicas in all")),
        Arguments.of("JAXJob: 10 workers, name of 54 (worker-9 at 63)", jax(name(54), "Worker", 10), List.of()),
        Arguments.of("JAXJob: 11 workers, name of 54", jax(name(54), "Worker", 11),
            List.of("metadata.name: Invalid value", NAME_TOO_LONG)),
        Arguments.of("JAXJob: 5001 workers", jax("big", "Worker", 5001),
            List.of("spec.jaxReplicaSpecs.Worker.replicas", "less than or equal to 5000")));
  }


  /** The demo's jobs (every kind, the suspend/resume and partial-success stories) are valid on a real API server. */
  @Test
  void everyExampleJobIsAcceptedByTheCrds() throws Exception {
    try (Stream<java.nio.file.Path> files = Files.list(LocalCluster.ROOT.resolve("examples"))) {
      List<java.nio.file.Path> examples = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
      assertThat(examples).hasSizeGreaterThanOrEqualTo(5);
      for (java.nio.file.Path example : examples) {
        Kubectl.Result result = Kubectl.runWithInput(Files.readString(example), "apply", "--dry-run=server",
            "-n", cluster.ns(), "-f", "-");
        assertThat(result.exitCode()).as("%s: %s", example.getFileName(), result.stderr()).isZero();
      }
    }
  }

  @Test
  void managedByIsImmutable() {
    Kubectl.runWithInput(job("managed", MASTER, WORKER, "  runPolicy: {managedBy: kueue.x-k8s.io/multikueue}\n"),
        "apply", "-n", cluster.ns(), "-f", "-").assertOk();
    Kubectl.Result patch = Kubectl.run("patch", "pytorchjob", "managed", "-n", cluster.ns(), "--type", "merge", "-p",
        "{\"spec\":{\"runPolicy\":{\"managedBy\":\"kubeflow.org/training-operator\"}}}");
    assertThat(patch.exitCode()).isNotZero();
    assertThat(patch.stderr()).contains("spec.runPolicy.managedBy is immutable");
  }
}
