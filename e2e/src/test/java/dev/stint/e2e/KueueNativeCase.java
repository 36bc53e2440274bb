package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.LocalKueue.FlavorQuota;
import dev.stint.pytorch.PyTorchJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What {@link KueueNativeIT} and {@link KueueNativeLifecycleIT} share: Stint with {@code --kueue=native} against the
 * real Kueue v0.17.0, configured with {@code externalFrameworks} only (no webhook, no Kueue integration for Stint's
 * kinds). Each test has its own namespace and ClusterQueue (pool-a with 2 CPU, pool-b with none), a Stint process
 * watching that namespace, and the PyTorchJobs it creates, of a master and workers of 1 CPU each.
 */
abstract class KueueNativeCase {
  static final Duration WAIT = Duration.ofSeconds(90);
  OperatorInNamespace cluster;
  KubernetesClient client;
  String ns;
  LocalKueue kueue;
  KueueScenario jobs;

  @BeforeEach
  void setUp() {
    KubernetesClient probe = LocalCluster.client();
    LocalCluster.installCrds();
    ns = LocalCluster.namespace(probe, "kueue-native");
    kueue = LocalKueue.start(probe, ns, FlavorQuota.of(LocalKueue.FLAVOR_A, "2"),
        FlavorQuota.of(LocalKueue.FLAVOR_B, "0"));
    cluster = new OperatorInNamespace(probe, ns, OperatorProcess.start("--kueue=native"));
    client = probe;
    jobs = new KueueScenario(client, ns, kueue);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    if (client != null) {
      client.resources(PyTorchJob.class).inNamespace(ns).delete(); // Stint lets their Workloads go
    }
    if (kueue != null) {
      kueue.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A PyTorchJob created unsuspended in the test's LocalQueue: a master and {@code workers} workers of 1 CPU each. */
  static String job(String name, String priorityClass, int workers, String extraNodeSelector) {
    String template = String.join("\n",
        "      template:",
        "        spec:",
        extraNodeSelector == null ? "" : "          nodeSelector: {" + extraNodeSelector + "}",
        "          containers:",
        "          - name: pytorch",
        "            image: busybox",
        "            resources: {requests: {cpu: \"1\"}}");
    return String.join("\n",
        "apiVersion: kubeflow.org/v1",
        "kind: PyTorchJob",
        "metadata:",
        "  name: " + name,
        "  labels: {kueue.x-k8s.io/queue-name: " + LocalKueue.LOCAL_QUEUE + ", kueue.x-k8s.io/priority-class: "
            + priorityClass + "}",
        "spec:",
        "  runPolicy: {suspend: false}",
        "  pytorchReplicaSpecs:",
        "    Master:",
        "      replicas: 1",
        template,
        "    Worker:",
        "      replicas: " + workers,
        template, "");
  }

  PyTorchJob pytorchJob(String name) {
    return client.resources(PyTorchJob.class).inNamespace(ns).withName(name).get();
  }

  JobStatus status(String name) {
    PyTorchJob job = pytorchJob(name);
    return job == null || job.getStatus() == null ? new JobStatus() : job.getStatus();
  }

  /** A job of a master and a worker on the low priority, admitted and then Running; returns its Workload's name. */
  String runningOnAdmission(String name) {
    jobs.create(job(name, LocalKueue.LOW, 1, null));
    String workload = workloadOf(name);
    kueue.awaitAdmitted(workload);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status(name).isTrue("Running")).isTrue());
    return workload;
  }

  String workloadOf(String job) {
    return kueue.awaitWorkloadOfJob(pytorchJob(job).getMetadata().getUid()).name();
  }

  /** How many events of that reason the job has. */
  long events(String job, String reason) {
    return client.v1().events().inNamespace(ns).list().getItems().stream()
        .filter(e -> job.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason())).count();
  }

  /** {@link #job} without Kueue's labels. */
  static String unlabelled(String name, int workers) {
    return job(name, LocalKueue.LOW, workers, null).replaceFirst("(?m)^  labels: .*\\n", "");
  }
}
