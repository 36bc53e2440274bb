package dev.stint.core.decision;

import static dev.stint.core.decision.JobDeciderTest.FRAMEWORK;
import static dev.stint.core.decision.JobDeciderTest.NOW;
import static dev.stint.core.decision.JobDeciderTest.actions;
import static dev.stint.core.decision.JobDeciderTest.conditions;
import static dev.stint.core.decision.JobDeciderTest.runningStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.core.testing.TestJobs;
import dev.stint.core.testing.TestPods;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The Kueue gate in the engine's decision (--kueue=native): no pod before admission, admitted pods as Kueue says. */
class KueueGateDecisionTest {
  static final KueueGate.Held WAITING = new KueueGate.Held("WaitingForAdmission",
      "TestJob j is waiting for admission by LocalQueue q.");
  static final Toleration SPOT = new Toleration("NoSchedule", "spot", "Equal", null, "true");

  static Decision decide(TestJob job, KueueGate gate, List<Pod> pods) {
    return JobDecider.decide(new JobContext<>(job, FRAMEWORK, NOW, EngineSettings.defaults(), gate),
        new Observed(pods, List.of(), List.of()));
  }

  static KueueGate.Admitted admitted(Integer workers) {
    return new KueueGate.Admitted(Map.of("worker", new PodSetInfo("worker", workers,
        Map.of("pool", "spot"), List.of(SPOT), Map.of("kueue.x-k8s.io/podset", "worker"),
        Map.of("kueue.x-k8s.io/workload", "w"), List.of())));
  }

  static Stream<Arguments> held() {
    return Stream.of(
        Arguments.of("new, unsuspended, queued", TestJobs.job("j").workers(2).build(), WAITING,
            List.of("Created=True/TestJobCreated", "Suspended=True/TestJobWaitingForAdmission"), 0),
        Arguments.of("running, then preempted", TestJobs.job("j").workers(2).status(runningStatus()).build(),
            new KueueGate.Held("Evicted", "TestJob j was evicted by Kueue (Preempted): preempted"),
            List.of("Created=True/TestJobCreated", "Running=False/TestJobEvicted", "Suspended=True/TestJobEvicted"),
            1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void held(String name, TestJob job, KueueGate gate, List<String> expected, int suspensions) {
    Decision d = decide(job, gate, List.of(TestPods.of(job, "Worker", 0).running()));

    assertThat(actions(d, Action.CreatePod.class)).isEmpty();
    assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name).containsExactly("j-worker-0");
    assertThat(conditions(d.status())).containsExactlyElementsOf(expected);
    assertThat(d.status().condition("Suspended").orElseThrow().getMessage())
        .isEqualTo(((KueueGate.Held) gate).message());
    assertThat(d.status().getSuspensions() == null ? 0 : d.status().getSuspensions()).isEqualTo(suspensions);
  }

  @Test
  void aWaitThatChangesItsCauseSaysSoWithoutCountingASuspension() {
    TestJob job = TestJobs.job("j").workers(1).build();
    Decision waiting = decide(job, WAITING, List.of());
    job.setStatus(waiting.status());

    Decision evicted = decide(job, new KueueGate.Held("Deactivated", "deactivated"), List.of());

    assertThat(conditions(evicted.status())).contains("Suspended=True/TestJobDeactivated");
    assertThat(evicted.status().getSuspensions()).isNull();
  }

  @Test
  void aWaitWhoseWordsChangeSaysTheNewWordsInPlaceWithoutAnEvent() {
    TestJob job = TestJobs.job("j").workers(1).build();
    job.setStatus(decide(job, WAITING, List.of()).status());
    String since = job.getStatus().condition("Suspended").orElseThrow().getLastTransitionTime();

    Decision moved = decide(job, new KueueGate.Held("WaitingForAdmission",
        "TestJob j is waiting for admission by LocalQueue other: LocalQueue other doesn't exist."), List.of());

    assertThat(moved.status().condition("Suspended").orElseThrow().getMessage())
        .isEqualTo("TestJob j is waiting for admission by LocalQueue other: LocalQueue other doesn't exist.");
    assertThat(moved.status().condition("Suspended").orElseThrow().getLastTransitionTime()).isEqualTo(since);
    assertThat(conditions(moved.status())).isEqualTo(conditions(job.getStatus())); // same order, same reasons
    assertThat(moved.events()).isEmpty();
    assertThat(moved.status()).isNotEqualTo(job.getStatus()); // written: the message is news
  }

  @Test
  void aWaitThatNeedsTheUserIsAWarning() {
    TestJob job = TestJobs.job("j").workers(1).build();

    Decision d = decide(job, new KueueGate.Held("WorkloadPriorityClassNotFound", "no such class", true), List.of());

    assertThat(d.events()).contains(dev.stint.core.model.JobEvent.warning("TestJobWorkloadPriorityClassNotFound",
        "no such class"));
  }

  @Test
  void admittedPodsCarryTheAdmissionAndTheAdmittedCount() {
    TestJob job = TestJobs.job("j").workers(4).build();

    Decision d = decide(job, admitted(2), List.of());

    List<Pod> pods = actions(d, Action.CreatePod.class).stream().map(Action.CreatePod::pod).toList();
    assertThat(pods).extracting(p -> p.getMetadata().getName()).containsExactly("j-worker-0", "j-worker-1");
    assertThat(pods).allSatisfy(p -> {
      assertThat(p.getSpec().getNodeSelector()).isEqualTo(Map.of("pool", "spot"));
      assertThat(p.getSpec().getTolerations()).containsExactly(SPOT);
      assertThat(p.getMetadata().getLabels()).containsEntry("kueue.x-k8s.io/podset", "worker")
          .containsEntry("team", "ml").containsEntry("training.kubeflow.org/replica-type", "worker");
      assertThat(p.getMetadata().getAnnotations()).containsEntry("kueue.x-k8s.io/workload", "w");
    });
    assertThat(d.status().isTrue("Suspended")).isFalse();
  }

  @Test
  void admissionResumesAJobThatWaited() {
    TestJob job = TestJobs.job("j").workers(1).build();
    job.setStatus(decide(job, WAITING, List.of()).status());

    Decision d = decide(job, admitted(null), List.of());

    assertThat(conditions(d.status())).contains("Suspended=False/TestJobResumed");
    assertThat(d.status().getStartTime()).isEqualTo(NOW.toString());
    assertThat(actions(d, Action.CreatePod.class)).hasSize(1);
  }

  @Test
  void theUsersSuspendWinsOverAnAdmission() {
    TestJob job = TestJobs.job("j").workers(1).suspend(true).build();

    Decision d = decide(job, admitted(null), List.of());

    assertThat(actions(d, Action.CreatePod.class)).isEmpty();
    assertThat(conditions(d.status())).contains("Suspended=True/TestJobSuspended");
  }

  @Test
  void podsPlacedByTopologyAreCreatedGatedBesideTheirOwnGatesAndCarryTheirIndex() {
    TestJob job = TestJobs.job("j").workers(2).edit(j -> j.getSpec().getTestReplicaSpecs().get("Worker")
        .getTemplate().getSpec().setSchedulingGates(List.of(new io.fabric8.kubernetes.api.model.PodSchedulingGate(
            "example.com/quota")))).build();
    KueueGate gate = new KueueGate.Admitted(Map.of("worker", new PodSetInfo("worker", null, Map.of(), List.of(),
        Map.of("kueue.x-k8s.io/podset", "worker"), Map.of("kueue.x-k8s.io/workload", "w",
            "kueue.x-k8s.io/podset-unconstrained-topology", "true"), List.of(PodSetInfo.TOPOLOGY_GATE))));

    Decision d = decide(job, gate, List.of());

    List<Pod> pods = actions(d, Action.CreatePod.class).stream().map(Action.CreatePod::pod).toList();
    assertThat(pods).hasSize(2).allSatisfy(p -> {
      assertThat(p.getSpec().getSchedulingGates()).extracting(g -> g.getName())
          .containsExactly("example.com/quota", "kueue.x-k8s.io/topology");
      assertThat(p.getMetadata().getAnnotations())
          .containsEntry("kueue.x-k8s.io/podset-unconstrained-topology", "true");
    });
    assertThat(pods).extracting(p -> p.getMetadata().getLabels().get(TopologyRequest.POD_INDEX_LABEL))
        .containsExactly("0", "1");
  }

  static Stream<Arguments> topologyAnnotations() {
    String field = "spec.testReplicaSpecs.Worker.template.metadata.annotations";
    return Stream.of(
        Arguments.of(Map.of(TopologyRequest.REQUIRED, "rack", TopologyRequest.PREFERRED, "block"),
            field + ": must not hold more than one of"),
        Arguments.of(Map.of(TopologyRequest.SLICE_REQUIRED, "rack"),
            field + "[kueue.x-k8s.io/podset-slice-size]: must be set with"),
        Arguments.of(Map.of(TopologyRequest.UNCONSTRAINED, "yes"),
            field + "[kueue.x-k8s.io/podset-unconstrained-topology]: must be a boolean value"),
        Arguments.of(Map.of(TopologyRequest.REQUIRED, "rack", TopologyRequest.GROUP_NAME, "g"),
            "group g must hold exactly 2 replica types, not 1"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource
  void topologyAnnotations(Map<String, String> annotations, String message) {
    TestJobs jobs = TestJobs.job("j").workers(2).edit(j -> j.getSpec().getTestReplicaSpecs().get("Worker")
        .getTemplate().getMetadata().setAnnotations(annotations));

    Decision queued = decide(jobs.build(), WAITING, List.of());
    Decision notQueued = decide(jobs.build(), KueueGate.NOT_QUEUED, List.of());

    assertThat(queued.status().getConditions()).filteredOn(c -> "Failed".equals(c.getType())).singleElement()
        .satisfies(c -> {
          assertThat(c.getReason()).isEqualTo("TestJobFailedValidation");
          assertThat(c.getMessage()).contains(message);
        });
    assertThat(notQueued.status().isTrue("Failed")).as("Kueue's annotations mean nothing to a job it does not queue")
        .isFalse();
  }
}
