package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * {@code runPolicy.failurePolicy} on the real API server with kwok nodes, for PyTorchJob, TFJob (chief, PS and
 * workers), MPIJob (launcher and workers) and the JAX sample plugin, each from a manifest as a user writes it: one
 * worker's failure restarts the whole gang (every pod new, the attempt on each), a disruption restarts it without
 * counting, the job then succeeds on its last attempt; beyond the limit the job fails naming it. A suspension in the
 * middle of a restart converges, and the resume starts the next attempt cleanly.
 */
class GangRestartIT {
  static final Duration WAIT = Duration.ofSeconds(120);
  static final String ATTEMPT = "training.kubeflow.org/restart-attempt";
  static final List<RbacJobs.Kind> KINDS = List.of(
      kind(RbacJobs.PYTORCH, "Master", 1, "Worker", 2),
      kind(RbacJobs.TENSORFLOW, "Chief", 1, "PS", 1, "Worker", 2),
      kind(RbacJobs.MPI, "Launcher", 1, "Worker", 2),
      kind(RbacJobs.JAX, "Worker", 3));
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("gang").withJaxPlugin("gang-plugins-").withOperator();

  static RbacJobs.Kind kind(RbacJobs.Kind base, Object... typesAndCounts) {
    Map<String, Integer> replicas = new LinkedHashMap<>();
    for (int i = 0; i < typesAndCounts.length; i += 2) {
      replicas.put((String) typesAndCounts[i], (Integer) typesAndCounts[i + 1]);
    }
    return new RbacJobs.Kind(base.apiVersion(), base.kind(), base.plural(), base.specField(), base.container(),
        replicas);
  }

  static String manifest(RbacJobs.Kind kind, String name, String failurePolicy) {
    return kind.manifest(name, null, "OnFailure", "{failurePolicy: " + failurePolicy + "}", "");
  }

  static JobStatus status(RbacJobs.Kind kind, String name) {
    var job = RbacJobs.get(cluster.client(), kind, cluster.ns(), name);
    return job == null ? new JobStatus() : StatusHistory.statusOf(cluster.client(), job);
  }

  static List<Pod> live(String job) {
    return RbacJobs.pods(cluster.client(), cluster.ns(), job).stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
  }

  static int size(RbacJobs.Kind kind) {
    return kind.replicas().values().stream().mapToInt(Integer::intValue).sum();
  }

  static void exit(String pod, int code) {
    Kubectl.run("annotate", "pod", pod, "-n", cluster.ns(), "--overwrite", "stint.dev/kwok-exit-code=" + code)
        .assertOk();
  }

  /** What the pod garbage collector or an eviction leaves on a pod of a lost or drained node. */
  static void disrupt(String pod, String reason) {
    cluster.pods().withName(pod).editStatus(p -> {
      p.getStatus().setPhase("Failed");
      p.getStatus().getConditions().add(new PodConditionBuilder().withType("DisruptionTarget").withStatus("True")
          .withReason(reason).withMessage("test").build());
      return p;
    });
  }

  static long events(String job, String reason) {
    return cluster.client().v1().events().inNamespace(cluster.ns()).list().getItems().stream()
        .filter(e -> job.equals(e.getInvolvedObject().getName())).map(Event::getReason).filter(reason::equals)
        .count();
  }

  /** Waits until every replica of the attempt has a pod of that attempt, none of them one of {@code before}. */
  static Set<String> awaitAttempt(RbacJobs.Kind kind, String job, int attempt, Set<String> before) {
    await(kind.kind() + " " + job + " attempt " + attempt).atMost(WAIT).untilAsserted(() -> {
      List<Pod> pods = RbacJobs.pods(cluster.client(), cluster.ns(), job);
      assertThat(pods).hasSize(size(kind)).allSatisfy(p -> {
        assertThat(p.getMetadata().getLabels()).containsEntry(ATTEMPT, Integer.toString(attempt));
        assertThat(p.getMetadata().getUid()).isNotIn(before);
      });
    });
    await(kind.kind() + " " + job + " Running again").atMost(WAIT)
        .untilAsserted(() -> assertThat(status(kind, job).isTrue("Running")).isTrue());
    return RbacJobs.pods(cluster.client(), cluster.ns(), job).stream().map(p -> p.getMetadata().getUid())
        .collect(Collectors.toSet());
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("KINDS")
  void oneMemberFailingRestartsTheWholeGangUntilItSucceedsOrTheLimit(RbacJobs.Kind kind) {
    String gang = kind.kind().toLowerCase() + "-gang";
    String strict = kind.kind().toLowerCase() + "-strict";
    Kubectl.runWithInput(manifest(kind, gang, "{maxRestarts: 1}"), "create", "-n", cluster.ns(), "-f", "-")
        .assertOk();
    Kubectl.runWithInput(manifest(kind, strict, "{maxRestarts: 0, restartStrategy: BlockingRecreate}"),
        "create", "-n", cluster.ns(), "-f", "-").assertOk();
    await(gang + " Running").atMost(WAIT).untilAsserted(() -> assertThat(status(kind, gang).isTrue("Running")).isTrue());
    Set<String> first = RbacJobs.pods(cluster.client(), cluster.ns(), gang).stream()
        .map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
    assertThat(live(gang)).hasSize(size(kind)).allSatisfy(p -> {
      assertThat(p.getMetadata().getLabels()).containsEntry(ATTEMPT, "0");
      assertThat(p.getSpec().getContainers().get(0).getEnv())
          .anySatisfy(e -> assertThat(e.getName() + "=" + e.getValue()).isEqualTo("STINT_RESTART_ATTEMPT=0"));
    });

    exit(gang + "-worker-1", 137);
    Set<String> second = awaitAttempt(kind, gang, 1, first);
    JobStatus restarted = status(kind, gang);
    assertThat(restarted.getRestarts()).isEqualTo(1);
    assertThat(restarted.getRestartsCountTowardsMax()).isEqualTo(1);
    await().atMost(WAIT).until(() -> events(gang, kind.kind() + "MemberFailed") == 1);
    assertThat(live(gang)).allSatisfy(p -> assertThat(p.getSpec().getContainers().get(0).getEnv())
        .anySatisfy(e -> assertThat(e.getName() + "=" + e.getValue()).isEqualTo("STINT_RESTART_ATTEMPT=1")));

    disrupt(gang + "-worker-0", "EvictionByEvictionAPI");
    awaitAttempt(kind, gang, 2, second);
    assertThat(status(kind, gang).getRestarts()).isEqualTo(2);
    assertThat(status(kind, gang).getRestartsCountTowardsMax()).as("a drain is not counted").isEqualTo(1);
    await().atMost(WAIT).until(() -> events(gang, kind.kind() + "MemberDisrupted") == 1);

    await(gang + " Succeeded").atMost(WAIT).until(() -> {
      RbacJobs.finish(cluster.client(), cluster.ns(), gang, 0);
      return status(kind, gang).isTrue("Succeeded");
    });
    JobStatus done = status(kind, gang);
    assertThat(done.getReplicaStatuses().get("Worker").failed()).as("only the last attempt counts").isZero();
    assertThat(done.getRestarts()).isEqualTo(2);

    await(strict + " Running").atMost(WAIT)
        .untilAsserted(() -> assertThat(status(kind, strict).isTrue("Running")).isTrue());
    exit(strict + "-worker-1", 1);
    await(strict + " Failed").atMost(WAIT)
        .untilAsserted(() -> assertThat(status(kind, strict).isTrue("Failed")).isTrue());
    var failed = status(kind, strict).condition("Failed").orElseThrow();
    assertThat(failed.getReason()).isEqualTo(kind.kind() + "ReachedMaxRestarts");
    assertThat(failed.getMessage()).isEqualTo(kind.kind() + " " + strict + " failed: Worker 1 exited with code 1, "
        + "after 0 restarts counted toward failurePolicy.maxRestarts (0).");
  }

  /**
   * A poison job: every pod exits 1 as soon as it runs. The first restart is at once, the next attempts wait 10 s,
   * then 20 s (the Restarting message says until when), and no pod of an attempt exists before that moment.
   */
  @Test
  void aJobWhosePodsFailAtOnceBacksOffBetweenItsRestarts() {
    RbacJobs.Kind kind = KINDS.get(0);
    String name = "poison";
    // every pod made, seen by a watch (a pod of a poison job lives a moment: a poll could miss it)
    List<Pod> made = new java.util.concurrent.CopyOnWriteArrayList<>();
    var watch = cluster.pods().withLabel("training.kubeflow.org/job-name", name)
        .watch(new io.fabric8.kubernetes.client.Watcher<Pod>() {
          @Override
          public void eventReceived(Action action, Pod pod) {
            if (action == Action.ADDED) {
              made.add(pod);
            }
          }

          @Override
          public void onClose(io.fabric8.kubernetes.client.WatcherException cause) { }
        });
    Kubectl.runWithInput(kind.manifest(name, 1, "OnFailure", "{failurePolicy: {maxRestarts: 1000}}", ""),
        "create", "-n", cluster.ns(), "-f", "-").assertOk();
    for (int restarts = 2; restarts <= 3; restarts++) {
      int attempt = restarts;
      await(name + " restart " + attempt).atMost(WAIT).until(() -> {
        Integer r = status(kind, name).getRestarts();
        return r != null && r >= attempt;
      });
      JobStatus status = status(kind, name);
      assertThat(status.getRestarts()).as("no restart while the wait runs").isEqualTo(attempt);
      assertThat(status.getQuickRestarts()).isEqualTo(attempt);
      String message = status.condition("Restarting").orElseThrow().getMessage();
      long wait = 10L << (attempt - 2);
      assertThat(message).contains("Its new pods start in " + wait + " s, at ")
          .contains("restart " + attempt + " in a row of an attempt that lasted less than 10 minutes.");
      java.time.Instant due = java.time.Instant.parse(message.substring(message.indexOf(", at ") + 5,
          message.indexOf(": restart " + attempt + " in a row")));
      await(name + " attempt " + attempt + " created").atMost(WAIT).until(() -> made.stream()
          .anyMatch(p -> Integer.toString(attempt).equals(p.getMetadata().getLabels().get(ATTEMPT))));
      assertThat(made).filteredOn(p -> Integer.toString(attempt).equals(p.getMetadata().getLabels().get(ATTEMPT)))
          .allSatisfy(p -> assertThat(java.time.Instant.parse(p.getMetadata().getCreationTimestamp()))
              .as("created after the wait").isAfterOrEqualTo(due));
    }
    watch.close();
    cluster.client().genericKubernetesResources(kind.apiVersion(), kind.kind()).inNamespace(cluster.ns())
        .withName(name).delete();
  }

  @Test
  void aSuspensionDuringARestartConvergesAndTheResumeStartsTheNextAttempt() {
    RbacJobs.Kind kind = KINDS.get(0);
    String name = "pause";
    Kubectl.runWithInput(manifest(kind, name, "{maxRestarts: 3, restartStrategy: BlockingRecreate}"),
        "create", "-n", cluster.ns(), "-f", "-").assertOk();
    await().atMost(WAIT).untilAsserted(() -> assertThat(status(kind, name).isTrue("Running")).isTrue());
    Set<String> first = RbacJobs.pods(cluster.client(), cluster.ns(), name).stream()
        .map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());

    exit(name + "-worker-0", 137);
    await().atMost(WAIT).until(() -> status(kind, name).getRestarts() != null);
    RbacJobs.suspend(kind, cluster.ns(), name, true); // before the new attempt is Running
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(RbacJobs.pods(cluster.client(), cluster.ns(), name)).isEmpty();
      assertThat(status(kind, name).isTrue("Suspended")).isTrue();
      assertThat(status(kind, name).getReplicaStatuses().get("Worker").active()).isZero();
    });
    assertThat(status(kind, name).getRestarts()).isEqualTo(1);

    RbacJobs.suspend(kind, cluster.ns(), name, false);
    awaitAttempt(kind, name, 1, first);
    JobStatus resumed = status(kind, name);
    assertThat(resumed.getRestarts()).isEqualTo(1);
    assertThat(resumed.getSuspensions()).isEqualTo(1);
    assertThat(resumed.condition("Suspended").orElseThrow().getReason()).isEqualTo("PyTorchJobResumed");
  }
}
