package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.pytorch.PyTorchJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Stint driven the way Kueue drives a job (kueue-jobs-and-peers.md §1.7, §1.9), on the real API server: created
 * suspended with a queue name; admitted by one patch that edits the scheduling directives and unsuspends; preempted
 * by suspending it again; re-admitted with other directives. Also the partial-success contract on the real server.
 */
class KueueStyleIT {
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("kueue").withOperator();

  static JobStatus status(String name) {
    PyTorchJob job = cluster.resources(PyTorchJob.class).withName(name).get();
    return job == null || job.getStatus() == null ? new JobStatus() : job.getStatus();
  }

  static List<Pod> pods(String job) {
    return cluster.pods().withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  static final String QUEUED_JOB = """
      apiVersion: kubeflow.org/v1
      kind: PyTorchJob
      metadata:
        name: queued
        labels: {kueue.x-k8s.io/queue-name: user-queue}
      spec:
        runPolicy: {suspend: true}
        pytorchReplicaSpecs:
          Master:
            replicas: 1
            template:
              spec:
                containers: [{name: pytorch, image: busybox}]
          Worker:
            replicas: 2
            template:
              spec:
                containers: [{name: pytorch, image: busybox}]
      """;

  /** What Kueue's admission does in one patch: inject the flavor's scheduling directives and unsuspend. */
  static String admit(String pool) {
    String podSet = """
        {"metadata":{"labels":{"kueue.x-k8s.io/podset":"%1$s"},"annotations":{"kueue.x-k8s.io/workload":"w-queued"}},
         "spec":{"nodeSelector":{"type":"kwok","pool":"%2$s"},
                 "tolerations":[{"key":"kwok.x-k8s.io/node","operator":"Exists","effect":"NoSchedule"}]}}""";
    return "{\"spec\":{\"runPolicy\":{\"suspend\":false},\"pytorchReplicaSpecs\":{"
        + "\"Master\":{\"template\":" + podSet.formatted("master", pool) + "},"
        + "\"Worker\":{\"template\":" + podSet.formatted("worker", pool) + "}}}}";
  }

  @Test
  void admitPreemptAndReadmitLikeKueue() {
    Kubectl.runWithInput(QUEUED_JOB, "apply", "-n", cluster.ns(), "-f", "-").assertOk();
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(status("queued").isTrue("Suspended")).isTrue());
    assertThat(status("queued").getStartTime()).isNull();
    assertThat(pods("queued")).isEmpty();
    assertThat(cluster.services().list().getItems()).isEmpty();

    // label the fake nodes so that the injected nodeSelector can schedule
    Kubectl.run("label", "nodes", "--all", "pool=a", "--overwrite").assertOk();
    Kubectl.run("patch", "pytorchjob", "queued", "-n", cluster.ns(), "--type", "merge", "-p", admit("a")).assertOk();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      assertThat(pods("queued")).hasSize(3).allSatisfy(p -> {
        assertThat(p.getSpec().getNodeSelector()).containsEntry("pool", "a");
        assertThat(p.getMetadata().getAnnotations()).containsEntry("kueue.x-k8s.io/workload", "w-queued");
        assertThat(p.getSpec().getTolerations()).anySatisfy(t -> assertThat(t.getKey()).isEqualTo("kwok.x-k8s.io/node"));
      });
      assertThat(status("queued").isTrue("Running")).isTrue();
    });
    assertThat(cluster.pods().withName("queued-worker-1").get().getMetadata().getLabels())
        .containsEntry("kueue.x-k8s.io/podset", "worker");
    String firstStart = status("queued").getStartTime();

    // preemption: Kueue suspends and waits for active 0
    Kubectl.run("patch", "pytorchjob", "queued", "-n", cluster.ns(), "--type", "merge",
        "-p", "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}").assertOk();
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      JobStatus s = status("queued");
      assertThat(s.isTrue("Suspended")).isTrue();
      assertThat(s.isTrue("Running")).isFalse();
      assertThat(s.getReplicaStatuses().values()).allSatisfy(r -> assertThat(r.active()).isZero());
    });
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(pods("queued")).isEmpty());

    // re-admitted on another flavor; startTime is in whole seconds, so it is compared with the moment of the
    // resume (truncated alike), not with the first start, which may fall in the same second
    Instant resumed = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Kubectl.run("label", "nodes", "--all", "pool=b", "--overwrite").assertOk();
    Kubectl.run("patch", "pytorchjob", "queued", "-n", cluster.ns(), "--type", "merge", "-p", admit("b")).assertOk();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      assertThat(pods("queued")).hasSize(3)
          .allSatisfy(p -> assertThat(p.getSpec().getNodeSelector()).containsEntry("pool", "b"));
      assertThat(status("queued").isTrue("Running")).isTrue();
    });
    JobStatus s = status("queued");
    assertThat(s.getSuspensions()).isEqualTo(1);
    assertThat(Instant.parse(s.getStartTime())).isAfterOrEqualTo(resumed)
        .isAfterOrEqualTo(Instant.parse(firstStart));
    assertThat(s.condition("Suspended").orElseThrow().getReason()).isEqualTo("PyTorchJobResumed");
  }

  @Test
  void threeOfFourWorkersEndsPartiallySucceededWithNothingLeftRunning() {
    String manifest = """
        apiVersion: kubeflow.org/v1
        kind: PyTorchJob
        metadata: {name: partial}
        spec:
          runPolicy:
            successPolicy:
              rules:
              - succeeded: {Worker: 3}
          pytorchReplicaSpecs:
            Worker:
              replicas: 4
              restartPolicy: Never
              template:
                spec:
                  containers: [{name: pytorch, image: busybox}]
        """;
    Kubectl.runWithInput(manifest, "apply", "-n", cluster.ns(), "-f", "-").assertOk();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(status("partial").isTrue("Running")).isTrue());
    Kubectl.run("annotate", "pod", "partial-worker-1", "-n", cluster.ns(), "stint.dev/kwok-exit-code=1").assertOk();
    for (String pod : List.of("partial-worker-0", "partial-worker-2", "partial-worker-3")) {
      Kubectl.run("annotate", "pod", pod, "-n", cluster.ns(), "stint.dev/kwok-exit-code=0").assertOk();
    }
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      JobStatus s = status("partial");
      assertThat(s.isTrue("PartiallySucceeded")).isTrue();
      assertThat(s.isTrue("Succeeded")).isTrue();
      assertThat(s.getReplicaStatuses().get("Worker").getFailedIndexes()).isEqualTo("1");
      assertThat(s.condition("Succeeded").orElseThrow().getMessage())
          .isEqualTo("PyTorchJob partial partially succeeded: Worker 1 failed (exit code 1)");
    });
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(pods("partial"))
        .noneSatisfy(p -> assertThat(p.getStatus().getPhase()).isIn("Running", "Pending")));
    Kubectl.Result column = Kubectl.run("get", "pytorchjob", "partial", "-n", cluster.ns(), "--no-headers");
    assertThat(column.assertOk().stdout()).contains("PartiallySucceeded");
  }
}
