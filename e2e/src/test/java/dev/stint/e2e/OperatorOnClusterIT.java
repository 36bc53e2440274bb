package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.pytorch.PyTorchJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Stint run from its jar against the real API server with kwok nodes: the PyTorchJob life cycle, suspend and resume
 * with kubectl patch, garbage collection, and an operator killed mid-run.
 */
class OperatorOnClusterIT {
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("op");
  OperatorProcess operator;

  @BeforeEach
  void startOperator() {
    operator = OperatorProcess.start();
  }

  @AfterEach
  void stopOperator() throws InterruptedException {
    operator.close();
  }

  static void apply(String name, int workers) {
    MnistJob.apply(cluster.ns(), name, workers);
  }

  static JobStatus status(String name) {
    PyTorchJob job = cluster.resources(PyTorchJob.class).withName(name).get();
    return job == null || job.getStatus() == null ? new JobStatus() : job.getStatus();
  }

  static List<Pod> pods(String job) {
    return cluster.pods().withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  static Map<String, String> runningPodUids(String job) {
    return pods(job).stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));
  }

  static void exit(String pod, int code) {
    Kubectl.run("annotate", "pod", pod, "-n", cluster.ns(), "stint.dev/kwok-exit-code=" + code).assertOk();
  }

  static Map<String, String> env(Pod pod) {
    return pod.getSpec().getContainers().get(0).getEnv().stream()
        .collect(Collectors.toMap(e -> e.getName(), e -> e.getValue()));
  }

  @Test
  void pytorchJobRunsToSuccessWithUpstreamEnv() {
    apply("life", 2);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(pods("life")).hasSize(3)
        .allSatisfy(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Running")));
    Pod worker1 = cluster.pods().withName("life-worker-1").get();
    assertThat(env(worker1)).containsEntry("MASTER_ADDR", "life-master-0").containsEntry("WORLD_SIZE", "3")
        .containsEntry("RANK", "2").containsEntry("PET_NNODES", "3").containsEntry("MASTER_PORT", "23456");
    assertThat(worker1.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getKind()).isEqualTo("PyTorchJob"));
    // the pods can be seen running before the services made in the same pass are
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(cluster.services().withName("life-master-0")
        .get()).isNotNull().satisfies(svc -> assertThat(svc.getSpec().getClusterIP()).isEqualTo("None")));
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(status("life").isTrue("Running")).isTrue());

    exit("life-master-0", 0);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(status("life").isTrue("Succeeded")).isTrue());
    JobStatus done = status("life");
    assertThat(done.getCompletionTime()).isNotNull();
    assertThat(done.condition("Succeeded").orElseThrow().getReason()).isEqualTo("PyTorchJobSucceeded");
    assertThat(done.condition("Running").orElseThrow().getStatus()).isEqualTo("False");
    // workers still running when the master succeeded are stopped
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(pods("life"))
        .extracting(p -> p.getMetadata().getName()).containsExactly("life-master-0"));
  }

  @Test
  void suspendAndResumeWithKubectlPatch() {
    apply("pause", 2);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(status("pause").isTrue("Running")).isTrue());

    Kubectl.run("patch", "pytorchjob", "pause", "-n", cluster.ns(), "--type", "merge",
        "-p", "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}").assertOk();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      assertThat(pods("pause")).isEmpty();
      assertThat(cluster.services().withLabel("training.kubeflow.org/job-name", "pause").list()
          .getItems()).isEmpty();
      JobStatus s = status("pause");
      assertThat(s.condition("Suspended").orElseThrow().getStatus()).isEqualTo("True");
      assertThat(s.condition("Running").orElseThrow().getReason()).isEqualTo("PyTorchJobSuspended");
      assertThat(s.getReplicaStatuses().get("Worker").active()).isZero();
    });
    assertPrinterColumns("pause");

    Kubectl.run("patch", "pytorchjob", "pause", "-n", cluster.ns(), "--type", "merge",
        "-p", "{\"spec\":{\"runPolicy\":{\"suspend\":false}}}").assertOk();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      assertThat(pods("pause")).hasSize(3);
      JobStatus s = status("pause");
      assertThat(s.condition("Suspended").orElseThrow().getReason()).isEqualTo("PyTorchJobResumed");
      assertThat(s.isTrue("Running")).isTrue();
    });
  }

  @Test
  void deletingAJobGarbageCollectsItsPodsAndServices() {
    apply("gone", 1);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(pods("gone")).hasSize(2));
    Kubectl.run("delete", "pytorchjob", "gone", "-n", cluster.ns()).assertOk();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      assertThat(pods("gone")).isEmpty();
      assertThat(cluster.services().withLabel("training.kubeflow.org/job-name", "gone").list()
          .getItems()).isEmpty();
    });
  }

  @Test
  void killedAndRestartedOperatorConvergesWithoutDuplicatePods() throws Exception {
    apply("crash", 3);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(runningPodUids("crash")).hasSize(4));
    Map<String, String> before = runningPodUids("crash");
    operator.kill();
    exit("crash-worker-2", 1); // a retryable failure (OnFailure) while no operator runs
    operator = OperatorProcess.start();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      Map<String, String> after = runningPodUids("crash");
      assertThat(after).hasSize(4);
      assertThat(after.get("crash-worker-2")).isNotEqualTo(before.get("crash-worker-2"));
      assertThat(status("crash").getReplicaStatuses().get("Worker").restarts()).isEqualTo(1);
    });
    Map<String, String> after = runningPodUids("crash");
    for (String name : List.of("crash-master-0", "crash-worker-0", "crash-worker-1")) {
      assertThat(after.get(name)).as("%s was recreated", name).isEqualTo(before.get(name));
    }
    assertThat(operator.alive()).isTrue();
  }

  /**
   * {@code kubectl get} of a suspended job shows its gang restarts (none: it has no failure policy) and its one
   * suspension; {@code -o wide} adds the message of the condition that changed last.
   */
  private void assertPrinterColumns(String job) {
    List<String> table = List.of(Kubectl.run("get", "pytorchjob", job, "-n", cluster.ns()).assertOk().stdout()
        .strip().split("\n"));
    assertThat(table.get(0).split("\\s+")).containsExactly("NAME", "STATE", "OUTCOME", "RESTARTS", "SUSPENSIONS",
        "AGE");
    assertThat(cell(table, "NAME")).isEqualTo(job);
    assertThat(cell(table, "STATE")).isEqualTo("Suspended");
    assertThat(cell(table, "RESTARTS")).as("RESTARTS").isIn("", "<none>"); // no failure policy: never set
    assertThat(cell(table, "SUSPENSIONS")).as("SUSPENSIONS").isEqualTo("1");

    List<String> wide = List.of(Kubectl.run("get", "pytorchjob", job, "-n", cluster.ns(), "-o", "wide").assertOk()
        .stdout().strip().split("\n"));
    var conditions = status(job).getConditions();
    assertThat(cell(wide, "MESSAGE")).isEqualTo(conditions.get(conditions.size() - 1).getMessage());
  }

  /** The first row's cell under a column of kubectl's table: columns are aligned, and a cell may be empty. */
  private static String cell(List<String> table, String column) {
    String header = table.get(0);
    int start = header.indexOf(column);
    assertThat(start).as("column %s in %s", column, header).isNotNegative();
    int end = header.indexOf(' ', start);
    while (end >= 0 && end < header.length() && header.charAt(end) == ' ') {
      end++;
    }
    String row = table.get(1);
    boolean last = end < 0 || end >= header.length();
    return row.substring(Math.min(start, row.length()), last ? row.length() : Math.min(end, row.length())).strip();
  }
}
