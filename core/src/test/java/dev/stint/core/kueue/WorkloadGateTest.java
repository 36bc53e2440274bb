package dev.stint.core.kueue;

import static dev.stint.core.kueue.KueueWorkloads.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.KueueGate;
import dev.stint.core.decision.PodSetInfo;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WorkloadGateTest {
  static final Toleration SPOT = new Toleration("NoSchedule", "spot", "Equal", null, "true");
  static final Map<String, Flavor> FLAVORS = Map.of(
      "on-demand", new Flavor("on-demand", Map.of("pool", "on-demand"), List.of()),
      "spot", new Flavor("spot", Map.of("pool", "spot", "zone", "a"), List.of(SPOT)));

  static KueueGate gate(KueueWorkloads workload) {
    return WorkloadGate.of("TestJob", "train", "team-q", workload == null ? null : workload.view(), FLAVORS);
  }

  static Stream<Arguments> held() {
    KueueWorkloads admitted = workload("w").queue("team-q").admitted("cq", "worker", Map.of("cpu", "spot"), null);
    return Stream.of(
        Arguments.of("no Workload yet", null, "WaitingForAdmission",
            "TestJob train is waiting for admission by LocalQueue team-q."),
        Arguments.of("pending", workload("w").queue("team-q").condition("QuotaReserved", "False", "Pending"),
            "WaitingForAdmission", "TestJob train is waiting for admission by LocalQueue team-q."),
        Arguments.of("quota reserved, admission checks not ready", workload("w").queue("team-q")
                .admitted("cq", "worker", Map.of("cpu", "spot"), null)
                .condition("Admitted", "False", "UnsatisfiedAdmissionChecks"),
            "WaitingForAdmission", "TestJob train is waiting for admission by LocalQueue team-q."),
        Arguments.of("preempted", admitted.evicted("Preempted"), "Evicted",
            "TestJob train was evicted by Kueue (Preempted): Evicted Preempted"),
        Arguments.of("pods-ready timeout after release", workload("w").queue("team-q")
                .condition("QuotaReserved", "False", "Pending").evicted("PodsReadyTimeout"),
            "Evicted", "TestJob train was evicted by Kueue (PodsReadyTimeout): Evicted PodsReadyTimeout"),
        Arguments.of("deactivated", workload("w").queue("team-q").active(false), "Deactivated",
            "Workload w of TestJob train is deactivated."),
        Arguments.of("deactivated by Kueue, still evicted", workload("w").queue("team-q").active(false)
                .evicted("Deactivated"), "Evicted",
            "TestJob train was evicted by Kueue (Deactivated): Evicted Deactivated"),
        // Kueue keeps Evicted=True (Deactivated) on a reactivated Workload until it is admitted again
        Arguments.of("active again after the user's suspend", workload("w").queue("team-q").active(true)
                .evicted("Deactivated").condition("Requeued", "True", "Reactivated"), "WaitingForAdmission",
            "TestJob train is waiting for admission by LocalQueue team-q."),
        Arguments.of("the pass that sees the user's resume (Stint's deactivation, undone after it)",
            workload("w").queue("team-q").active(false).annotation(KueueApi.DEACTIVATED_BY_SUSPEND, "true")
                .evicted("Deactivated"), "WaitingForAdmission",
            "TestJob train is waiting for admission by LocalQueue team-q."),
        Arguments.of("created suspended, then resumed", workload("w").queue("team-q").active(true)
                .evicted("Deactivated").condition("QuotaReserved", "False", "Pending", "couldn't assign flavors"),
            "WaitingForAdmission", "TestJob train is waiting for admission by LocalQueue team-q."),
        Arguments.of("inadmissible: Kueue's words", workload("w").queue("nosuch")
                .condition("QuotaReserved", "False", "Inadmissible", "LocalQueue nosuch doesn't exist"),
            "WaitingForAdmission", "TestJob train is waiting for admission by LocalQueue nosuch: LocalQueue nosuch "
                + "doesn't exist."),
        Arguments.of("the Workload's queue, not the label's", workload("w").queue("moved-from"),
            "WaitingForAdmission", "TestJob train is waiting for admission by LocalQueue moved-from."),
        Arguments.of("being deleted", workload("w").queue("team-q")
                .admitted("cq", "worker", Map.of("cpu", "spot"), null).deleting(), "WorkloadDeleted",
            "Workload w of TestJob train is being deleted."),
        Arguments.of("finished by Kueue before the job ended", workload("w").queue("team-q")
                .condition("Finished", "True", "OutOfSync"), "WorkloadFinished",
            "Workload w of TestJob train is finished (OutOfSync): Finished OutOfSync"),
        Arguments.of("an unknown flavor", workload("w").queue("team-q")
                .admitted("cq", "worker", Map.of("cpu", "gpu-a100"), null), "AdmissionNotApplicable",
            "TestJob train is admitted but its pods cannot start: ResourceFlavor gpu-a100 not found."),
        Arguments.of("an admission check contradicting the flavor", workload("w").queue("team-q")
                .admitted("cq", "worker", Map.of("cpu", "spot"), null)
                .podSetUpdate("worker", Map.of("nodeSelector", Map.of("zone", "b"))), "AdmissionNotApplicable",
            "TestJob train is admitted but its pods cannot start: nodeSelector zone: a and b."));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void held(String name, KueueWorkloads workload, String reason, String message) {
    assertThat(gate(workload)).isEqualTo(new KueueGate.Held(reason, message));
  }

  /** Queued because Kueue manages jobs without a queue name: Kueue's message names an empty LocalQueue (a review). */
  @Test
  void aJobThatNamesNoLocalQueueIsToldWhatItLacks() {
    KueueGate gate = WorkloadGate.of("TestJob", "train", null, workload("w")
        .condition("QuotaReserved", "False", "Inadmissible", "LocalQueue  doesn't exist").view(), FLAVORS);

    assertThat(gate).isEqualTo(new KueueGate.Held("WaitingForAdmission", "TestJob train is waiting for admission, "
        + "but names no LocalQueue (label kueue.x-k8s.io/queue-name) and its namespace had no LocalQueue named "
        + "default when it was created: Kueue admits it once it has one (set the label while the job is suspended)."));
  }

  @Test
  void admittedPodsCarryFlavorsChecksAndKueuesLabels() {
    KueueGate gate = gate(workload("w").queue("team-q")
        .admitted("team-cq", "leader", Map.of("cpu", "on-demand"), null)
        .assignment("worker", Map.of("cpu", "spot", "memory", "spot"), 2)
        .podSetUpdate("worker", Map.of("labels", Map.of("checked", "yes"), "annotations", Map.of("a", "b"),
            "nodeSelector", Map.of("rack", "r1"),
            "tolerations", List.of(Map.of("key", "gpu", "operator", "Exists", "effect", "NoSchedule")))));

    assertThat(gate.holds()).isFalse();
    PodSetInfo leader = gate.podSet("Leader").orElseThrow();
    assertThat(leader.count()).isNull();
    assertThat(leader.nodeSelector()).isEqualTo(Map.of("pool", "on-demand"));
    assertThat(leader.tolerations()).isEmpty();
    assertThat(leader.labels()).isEqualTo(Map.of("kueue.x-k8s.io/podset", "leader",
        "kueue.x-k8s.io/local-queue-name", "team-q", "kueue.x-k8s.io/cluster-queue-name", "team-cq"));
    assertThat(leader.annotations()).isEqualTo(Map.of("kueue.x-k8s.io/workload", "w"));
    PodSetInfo worker = gate.podSet("Worker").orElseThrow();
    assertThat(worker.count()).isEqualTo(2);
    assertThat(worker.nodeSelector()).isEqualTo(Map.of("pool", "spot", "zone", "a", "rack", "r1"));
    assertThat(worker.tolerations()).containsExactly(SPOT,
        new Toleration("NoSchedule", "gpu", "Exists", null, null));
    assertThat(worker.labels()).containsEntry("kueue.x-k8s.io/podset", "worker").containsEntry("checked", "yes");
    assertThat(worker.annotations()).containsEntry("a", "b");
  }

  @Test
  void aClusterQueueNameThatIsNoLabelValueIsLeftOut() {
    KueueGate gate = gate(workload("w").queue("team-q").admitted("Team.CQ", "worker", Map.of("cpu", "spot"), null));
    assertThat(gate.podSet("Worker").orElseThrow().labels()).doesNotContainKey("kueue.x-k8s.io/cluster-queue-name");
  }

  @Test
  void aPodSetPlacedByTopologyIsGatedAndOneThatAskedForNothingIsMarkedUnconstrained() {
    KueueGate gate = gate(workload("w").queue("team-q")
        .podSet("leader", 1, Map.of("podIndexLabel", "training.kubeflow.org/replica-index"))
        .podSet("worker", 2, Map.of("required", "rack", "podIndexLabel", "training.kubeflow.org/replica-index"))
        .admitted("cq", "leader", Map.of("cpu", "spot"), null).byTopology()
        .assignment("worker", Map.of("cpu", "spot"), null).byTopology());

    PodSetInfo leader = gate.podSet("Leader").orElseThrow();
    PodSetInfo worker = gate.podSet("Worker").orElseThrow();
    assertThat(leader.schedulingGates()).containsExactly("kueue.x-k8s.io/topology");
    assertThat(worker.schedulingGates()).containsExactly("kueue.x-k8s.io/topology");
    assertThat(leader.annotations()).containsEntry("kueue.x-k8s.io/podset-unconstrained-topology", "true")
        .containsEntry("kueue.x-k8s.io/workload", "w");
    assertThat(worker.annotations()).doesNotContainKey("kueue.x-k8s.io/podset-unconstrained-topology")
        .containsEntry("kueue.x-k8s.io/workload", "w");
  }

  @Test
  void aPodSetAdmittedWithoutTopologyIsNotGated() {
    KueueGate gate = gate(workload("w").queue("team-q")
        .podSet("worker", 2, Map.of("required", "rack", "podIndexLabel", "training.kubeflow.org/replica-index"))
        .admitted("cq", "worker", Map.of("cpu", "spot"), null));

    PodSetInfo worker = gate.podSet("Worker").orElseThrow();
    assertThat(worker.schedulingGates()).isEmpty();
    assertThat(worker.annotations()).containsOnlyKeys("kueue.x-k8s.io/workload");
  }

  @Test
  void inAGroupTheLargerPodSetsRanksStartAfterItsPartnersSoItsPodsSayAnOffsetOfMinusOne() {
    Map<String, Object> rack = Map.of("required", "rack", "podSetGroupName", "job",
        "podIndexLabel", "training.kubeflow.org/replica-index");
    KueueGate gate = gate(workload("w").queue("team-q").podSet("launcher", 1, rack).podSet("worker", 3, rack)
        .admitted("cq", "launcher", Map.of("cpu", "spot"), 1).byTopology()
        .assignment("worker", Map.of("cpu", "spot"), 3).byTopology());

    assertThat(gate.podSet("Launcher").orElseThrow().annotations())
        .doesNotContainKey("kueue.x-k8s.io/pod-index-offset");
    assertThat(gate.podSet("Worker").orElseThrow().annotations())
        .containsEntry("kueue.x-k8s.io/pod-index-offset", "-1");
  }
}
