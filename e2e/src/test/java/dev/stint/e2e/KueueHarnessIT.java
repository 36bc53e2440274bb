package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.e2e.LocalKueue.FlavorQuota;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Kueue harness against the real Kueue v0.17.0, with no Stint code: hand-made v1beta2 Workloads play the part of a
 * job's Workload, and the test plays the job controller's writes (kueue-native.md §9). This is the protocol Stint's
 * native mode speaks: admission, preemption by priority, the release patch, re-admission, a second flavor, and a
 * pods-ready timeout. Each test has its own namespace and ClusterQueue.
 */
class KueueHarnessIT {
  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.clientOnly();
  String ns;
  LocalKueue kueue;

  @BeforeEach
  void setUp() {
    ns = LocalCluster.namespace(cluster.client(), "kueue-harness");
    // pool-a fits one Workload of 2 x 1 CPU; pool-b only 1 CPU
    kueue = LocalKueue.start(cluster.client(), ns, FlavorQuota.of(LocalKueue.FLAVOR_A, "2"),
        FlavorQuota.of(LocalKueue.FLAVOR_B, "1"));
  }

  @AfterEach
  void tearDown() {
    if (kueue != null) {
      kueue.close();
    }
    cluster.client().namespaces().withName(ns).delete();
  }

  @Test
  void nodesOfBothPoolsExistForTheFlavors() {
    assertThat(cluster.client().nodes().withLabel(LocalKueue.POOL_LABEL, "a").list().getItems()).isNotEmpty();
    assertThat(cluster.client().nodes().withLabel(LocalKueue.POOL_LABEL, "b").list().getItems()).isNotEmpty();
  }

  @Test
  void admitsPreemptsByPriorityReleasesAndReadmits() {
    kueue.createWorkload("low", LocalKueue.LOW, 2, "1");
    KueueWorkload low = kueue.awaitAdmitted("low");
    kueue.markPodsReady("low");
    assertThat(low.reason("QuotaReserved")).isEqualTo("QuotaReserved");
    assertThat(low.reason("Admitted")).isEqualTo("Admitted");
    KueueWorkload.Admission admission = low.admission().orElseThrow();
    assertThat(admission.clusterQueue()).isEqualTo(kueue.clusterQueue());
    assertThat(admission.podSet("worker").flavors()).containsEntry("cpu", LocalKueue.FLAVOR_A);
    assertThat(admission.podSet("worker").count()).isEqualTo(2);
    assertThat(low.priority()).isEqualTo(LocalKueue.LOW_VALUE);

    // the high one fits nowhere without the low one's quota: Kueue evicts the low one and waits for its release
    kueue.createWorkload("high", LocalKueue.HIGH, 2, "1");
    low = kueue.awaitCondition("low", "Evicted", "True", "Preempted");
    assertThat(low.condition("Preempted")).hasValueSatisfying(c -> {
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo("InClusterQueue");
    });
    assertThat(low.admission()).as("the quota stays held until the controller releases it").isPresent();
    assertThat(kueue.workload("high").isTrue("QuotaReserved")).isFalse();

    KueueWorkload released = kueue.releaseQuota("low");
    assertThat(released.admission()).isEmpty();
    assertThat(released.reason("Requeued")).isEqualTo("Preempted");
    assertThat(released.isTrue("Requeued")).isTrue();
    assertThat(released.isTrue("QuotaReserved")).isFalse();
    assertThat(released.isTrue("Admitted")).isFalse();
    assertThat(released.isTrue("PodsReady")).isFalse();

    KueueWorkload high = kueue.awaitAdmitted("high");
    kueue.markPodsReady("high");
    assertThat(high.admission().orElseThrow().podSet("worker").flavors()).containsEntry("cpu", LocalKueue.FLAVOR_A);
    assertThat(high.priority()).isEqualTo(LocalKueue.HIGH_VALUE);
    low = kueue.awaitCondition("low", "QuotaReserved", "False", null);
    assertThat(low.admission()).as("requeued, no quota left for it").isEmpty();

    // the high one finishes: its quota goes back and the low one is admitted again
    kueue.finish("high");
    low = kueue.awaitAdmitted("low");
    kueue.markPodsReady("low");
    assertThat(low.admission().orElseThrow().podSet("worker").flavors()).containsEntry("cpu", LocalKueue.FLAVOR_A);

    // pool-a is full: a small Workload gets the second flavor
    kueue.createWorkload("small", LocalKueue.LOW, 1, "1");
    KueueWorkload small = kueue.awaitAdmitted("small");
    assertThat(small.admission().orElseThrow().podSet("worker").flavors()).containsEntry("cpu", LocalKueue.FLAVOR_B);
  }

  @Test
  void podsReadyTimeoutEvictsAndTheReleaseRequeuesAfterBackoff() {
    kueue.createWorkload("slow", LocalKueue.LOW, 1, "1");
    kueue.awaitAdmitted("slow");

    // no PodsReady=True within waitForPodsReady.timeout (20 s here): evicted, but the quota stays held
    KueueWorkload slow = kueue.awaitCondition("slow", "Evicted", "True", "PodsReadyTimeout");
    assertThat(slow.admission()).isPresent();
    assertThat(slow.requeueCount()).isEqualTo(1);

    KueueWorkload released = kueue.releaseQuota("slow");
    assertThat(released.admission()).isEmpty();
    assertThat(released.isTrue("Requeued")).isFalse();
    assertThat(released.reason("Requeued")).isEqualTo("PodsReadyTimeout");

    // after the backoff Kueue requeues it itself, and admits it again
    kueue.awaitCondition("slow", "Requeued", "True", "BackoffFinished");
    slow = kueue.awaitAdmitted("slow");
    kueue.markPodsReady("slow");
    assertThat(slow.requeueCount()).isEqualTo(1);
  }
}
