package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.e2e.LocalKueue.FlavorQuota;
import dev.stint.pytorch.PyTorchJob;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Stint with {@code --kueue=native} against the real Kueue (see {@link KueueNativeCase}): admission and queueing.
 * Stint creates each PyTorchJob's Workload, runs no pod before admission, builds the pods on the admitted flavor and
 * reports PodsReady and Finished; a queue and priority by default; preemption by priority and re-admission elsewhere;
 * a pods-ready timeout; partial admission of an elastic job; a job shrunk or made urgent while it waits.
 */
class KueueNativeIT extends KueueNativeCase {
  @Test
  void queuedUntilAdmittedRunsOnTheFlavorReportsPodsReadyAndFinishes() {
    jobs.create(job("big", LocalKueue.LOW, 3, null)); // 4 CPU: more than the queue's 2
    String big = workloadOf("big");
    KueueWorkload pending = kueue.awaitCondition(big, "QuotaReserved", "False", null);
    assertThat(pending.podSetCounts()).containsExactly(java.util.Map.entry("master", 1),
        java.util.Map.entry("worker", 3));
    assertThat(pending.priority()).isEqualTo(LocalKueue.LOW_VALUE);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("big").condition("Suspended").orElseThrow().getReason())
        .isEqualTo("PyTorchJobWaitingForAdmission"));
    assertThat(status("big").condition("Suspended").orElseThrow().getMessage()).contains("LocalQueue user-queue");
    assertThat(jobs.pods("big")).as("no pod before admission, although suspend is false").isEmpty();

    Instant created = Instant.now();
    String fits = runningOnAdmission("fits");
    System.out.printf("KUEUE-LATENCY creation to Running: %d ms%n",
        Duration.between(created, Instant.now()).toMillis());
    assertThat(jobs.pods("fits")).hasSize(2).allSatisfy(p -> {
      assertThat(p.getSpec().getNodeSelector()).containsEntry(LocalKueue.POOL_LABEL, "a");
      assertThat(p.getMetadata().getLabels()).containsEntry("kueue.x-k8s.io/local-queue-name", "user-queue")
          .containsEntry("kueue.x-k8s.io/cluster-queue-name", kueue.clusterQueue())
          .containsKey("kueue.x-k8s.io/podset");
      assertThat(p.getMetadata().getAnnotations()).containsEntry("kueue.x-k8s.io/workload", fits);
    });
    kueue.awaitCondition(fits, "PodsReady", "True", "Started");

    jobs.exitAll("fits", 0);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("fits").isTrue("Succeeded")).isTrue());
    KueueWorkload finished = kueue.awaitCondition(fits, "Finished", "True", "Succeeded");
    kueue.awaitWorkload(fits, "finalizer removed", w -> w.finalizers().isEmpty());
    assertThat(finished.name()).isEqualTo(fits);
    assertThat(jobs.pods("big")).isEmpty();
  }

  /**
   * Kueue's defaults for a job of its own integrations, as Stint applies them: an unlabelled job, in a namespace with a
   * LocalQueue named {@code default}, while a WorkloadPriorityClass named {@code default} exists, is labelled with
   * both on its first pass and queued there: no pod before admission, its Workload in queue {@code default} with that
   * class's priority. A job that labels its own queue keeps it.
   */
  @Test
  void anUnlabelledJobIsQueuedInTheNamespacesDefaultLocalQueueWithTheDefaultPriority() {
    kueue.createLocalQueue("default");
    kueue.createPriorityClass("default", 7);

    jobs.create(unlabelled("big", 3)); // 4 CPU: more than the queue's 2, so it waits
    await().atMost(WAIT).untilAsserted(() -> assertThat(pytorchJob("big").getMetadata().getLabels())
        .containsEntry(LocalKueue.QUEUE_LABEL, "default").containsEntry(LocalKueue.PRIORITY_CLASS_LABEL, "default"));
    KueueWorkload big = kueue.awaitCondition(workloadOf("big"), "QuotaReserved", "False", null);
    assertThat(big.queueName()).isEqualTo("default");
    assertThat(big.priorityClassName()).isEqualTo("default");
    assertThat(big.priority()).isEqualTo(7);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("big").condition("Suspended").orElseThrow().getReason())
        .isEqualTo("PyTorchJobWaitingForAdmission"));
    assertThat(jobs.pods("big")).as("never outside quota: no pod before admission").isEmpty();

    jobs.create(job("own", LocalKueue.LOW, 1, null)); // its own queue and class: kept
    String own = workloadOf("own");
    kueue.awaitAdmitted(own);
    assertThat(kueue.workload(own).queueName()).isEqualTo(LocalKueue.LOCAL_QUEUE);
    assertThat(kueue.workload(own).priority()).isEqualTo(LocalKueue.LOW_VALUE);
    assertThat(pytorchJob("own").getMetadata().getLabels()).containsEntry(LocalKueue.QUEUE_LABEL,
        LocalKueue.LOCAL_QUEUE).containsEntry(LocalKueue.PRIORITY_CLASS_LABEL, LocalKueue.LOW);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("own").isTrue("Running")).isTrue());
  }

  /**
   * Without a LocalQueue named {@code default} an unlabelled job runs as before, with no Workload and no label; a
   * {@code default} LocalQueue made afterwards does not move it into a queue, as Kueue's webhook would not.
   */
  @Test
  void withoutADefaultLocalQueueAnUnlabelledJobRunsAsBeforeAndALaterOneLeavesItAlone() {
    jobs.create(unlabelled("free", 1));
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("free").isTrue("Running")).isTrue());
    String uid = pytorchJob("free").getMetadata().getUid();
    assertThat(kueue.workloadOfJob(uid)).isEmpty();

    kueue.createLocalQueue("default");
    jobs.exitAll("free", 0); // passes over the job, now that the default LocalQueue exists
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("free").isTrue("Succeeded")).isTrue());
    assertThat(pytorchJob("free").getMetadata().getLabels()).doesNotContainKey(LocalKueue.QUEUE_LABEL);
    assertThat(kueue.workloadOfJob(uid)).isEmpty();
  }

  @Test
  void preemptedByPriorityReleasedAndReadmittedOnTheOtherFlavor() {
    String low = runningOnAdmission("low");
    kueue.awaitCondition(low, "PodsReady", "True", "Started");

    Instant highCreated = Instant.now();
    jobs.create(job("high", LocalKueue.HIGH, 1, null));
    kueue.awaitCondition(low, "Evicted", "True", "Preempted");
    Instant evicted = Instant.now();
    KueueWorkload released = kueue.awaitWorkload(low, "released", w -> w.admission().isEmpty());
    Instant releasedAt = Instant.now();
    assertThat(released.reason("Requeued")).isEqualTo("Preempted");
    assertThat(released.isTrue("QuotaReserved")).isFalse();
    assertThat(released.isTrue("PodsReady")).isFalse();
    assertThat(jobs.pods("low")).allSatisfy(p -> assertThat(p.getMetadata().getDeletionTimestamp()).isNotNull());
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("high").isTrue("Running")).isTrue());
    System.out.printf("KUEUE-LATENCY eviction seen to quota released: %d ms; preemptor created to Running: %d ms%n",
        Duration.between(evicted, releasedAt).toMillis(), Duration.between(highCreated, Instant.now()).toMillis());
    assertThat(status("low").condition("Suspended").orElseThrow().getReason()).isEqualTo("PyTorchJobEvicted");

    // room on pool-b: the low job comes back there, its pods built with the other flavor's node labels
    kueue.setQuotas(FlavorQuota.of(LocalKueue.FLAVOR_A, "2"), FlavorQuota.of(LocalKueue.FLAVOR_B, "2"));
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("low").isTrue("Running")).isTrue());
    assertThat(jobs.pods("low")).hasSize(2).allSatisfy(p ->
        assertThat(p.getSpec().getNodeSelector()).containsEntry(LocalKueue.POOL_LABEL, "b"));
    assertThat(status("low").getSuspensions()).isEqualTo(1);
  }

  @Test
  void aPodsReadyTimeoutEvictsReleasesAndTheJobWaitsAgain() {
    // a node selector no node has: the pods stay Pending, so PodsReady never comes (timeout 20 s on this cluster)
    jobs.create(job("stuck", LocalKueue.LOW, 1, "stint.dev/nowhere: \"true\""));
    String stuck = workloadOf("stuck");
    kueue.awaitAdmitted(stuck);
    await().atMost(WAIT).untilAsserted(() -> assertThat(jobs.pods("stuck")).hasSize(2));

    kueue.awaitCondition(stuck, "Evicted", "True", "PodsReadyTimeout");
    KueueWorkload released = kueue.awaitWorkload(stuck, "released", w -> w.admission().isEmpty()
        && "PodsReadyTimeout".equals(w.reason("Requeued")));
    assertThat(released.isTrue("Requeued")).isFalse();
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("stuck").condition("Suspended").orElseThrow()
        .getReason()).isIn("PyTorchJobEvicted", "PyTorchJobResumed"));
  }

  @Test
  void anElasticJobIsAdmittedPartiallyAndRunsTheAdmittedWorkers() {
    String yaml = job("elastic", LocalKueue.LOW, 4, null)
        .replace("  pytorchReplicaSpecs:", "  elasticPolicy: {minReplicas: 2, maxReplicas: 4}\n  pytorchReplicaSpecs:");
    yaml = yaml.substring(0, yaml.indexOf("    Master:")) + yaml.substring(yaml.indexOf("    Worker:"));
    jobs.create(yaml); // 4 workers of 1 CPU, at least 2; the queue has 2 CPU

    String elastic = workloadOf("elastic");
    KueueWorkload admitted = kueue.awaitAdmitted(elastic);
    assertThat(admitted.admission().orElseThrow().podSet("worker").count()).isEqualTo(2);
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("elastic").isTrue("Running")).isTrue());
    assertThat(jobs.pods("elastic")).extracting(p -> p.getMetadata().getName())
        .containsExactlyInAnyOrder("elastic-worker-0", "elastic-worker-1");
    kueue.awaitCondition(elastic, "PodsReady", "True", "Started");
  }

  @Test
  void aJobShrunkWhileQueuedGetsItsWorkloadUpdatedAndIsAdmitted() {
    jobs.create(job("shrunk", LocalKueue.LOW, 3, null)); // 4 CPU: more than the queue's 2
    String shrunk = workloadOf("shrunk");
    kueue.awaitCondition(shrunk, "QuotaReserved", "False", null);

    client.resources(PyTorchJob.class).inNamespace(ns).withName("shrunk").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"pytorchReplicaSpecs\":{\"Worker\":{\"replicas\":1}}}}");

    KueueWorkload admitted = kueue.awaitAdmitted(shrunk);
    assertThat(admitted.name()).as("the same Workload, updated in place").isEqualTo(shrunk);
    assertThat(admitted.podSetCounts()).containsExactly(java.util.Map.entry("master", 1),
        java.util.Map.entry("worker", 1));
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("shrunk").isTrue("Running")).isTrue());
    assertThat(jobs.pods("shrunk")).hasSize(2);
  }

  /**
   * A waiting job made urgent by its {@code kueue.x-k8s.io/priority-class} label: its Workload takes the new
   * WorkloadPriorityClass and value, and Kueue preempts the running job of lower priority for it.
   */
  @Test
  void aWaitingJobMadeUrgentByItsLabelPreemptsALowerOne() {
    String first = runningOnAdmission("first");
    jobs.create(job("urgent", LocalKueue.LOW, 1, null));
    String urgent = workloadOf("urgent");
    kueue.awaitCondition(urgent, "QuotaReserved", "False", null);

    Kubectl.run("label", "-n", ns, "--overwrite", "pytorchjob/urgent",
        "kueue.x-k8s.io/priority-class=" + LocalKueue.HIGH).assertOk();

    assertThat(kueue.awaitWorkload(urgent, "priority raised", w -> Integer.valueOf(LocalKueue.HIGH_VALUE).equals(w.priority()))
        .priority()).isEqualTo(LocalKueue.HIGH_VALUE);
    kueue.awaitCondition(first, "Evicted", "True", "Preempted");
    await().atMost(WAIT).untilAsserted(() -> assertThat(status("urgent").isTrue("Running")).isTrue());
    assertThat(status("first").condition("Suspended").orElseThrow().getReason()).isEqualTo("PyTorchJobEvicted");
  }
}
