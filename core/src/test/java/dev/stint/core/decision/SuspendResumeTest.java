package dev.stint.core.decision;

import static dev.stint.core.decision.JobDeciderTest.NOW;
import static dev.stint.core.decision.JobDeciderTest.actions;
import static dev.stint.core.decision.JobDeciderTest.conditions;
import static dev.stint.core.decision.JobDeciderTest.decide;
import static dev.stint.core.decision.JobDeciderTest.runningStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.core.testing.TestJobs;
import dev.stint.core.testing.TestPods;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The hard cases of suspend and resume, as decisions (DESIGN §2, issue #4). */
class SuspendResumeTest {

  static JobStatus suspendedStatus() {
    JobStatus s = runningStatus();
    Conditions.set(s, ConditionType.Running, false, "TestJobSuspended", "s", "2026-11-29T11:30:00Z");
    Conditions.set(s, ConditionType.Suspended, true, "TestJobSuspended", "s", "2026-11-29T11:30:00Z");
    s.setSuspensions(1);
    return s;
  }

  @Test
  void suspendingPendingAndRestartingPodsDeletesThemWithoutCountingARetry() {
    JobStatus restarting = runningStatus();
    ReplicaStatus workers = new ReplicaStatus();
    workers.setRestarts(1);
    restarting.setReplicaStatuses(new LinkedHashMap<>(Map.of("Worker", workers)));
    TestJob job = TestJobs.job("j").workers(3).suspend(true).runPolicy(p -> p.setBackoffLimit(1))
        .status(restarting).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).pending(), TestPods.of(job, "Worker", 1).failed(137),
        TestPods.of(job, "Worker", 2).running()));
    assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name)
        .containsExactly("j-worker-0", "j-worker-1", "j-worker-2");
    assertThat(d.status().isTrue("Failed")).isFalse();
    assertThat(d.status().getReplicaStatuses().get("Worker").restarts()).isEqualTo(1);
    assertThat(d.status().getReplicaStatuses().get("Worker").active()).isZero();
    assertThat(d.status().getOutcome()).isEqualTo("Suspended");
  }

  @Test
  void suspendedJobWithTtlAndNoCompletionTimeConverges() {
    TestJob job = TestJobs.job("j").workers(1).suspend(true).runPolicy(p -> p.setTtlSecondsAfterFinished(10))
        .status(runningStatus()).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running()));
    assertThat(d.status().isTrue("Suspended")).isTrue();
    assertThat(d.actions()).doesNotContain(new Action.DeleteJob());
    assertThat(d.status().getReplicaStatuses().get("Worker").active()).isZero();
  }

  @Test
  void deadlineNeverFiresWhileSuspendedAndCountsFromTheResume() {
    TestJob suspended = TestJobs.job("j").workers(1).suspend(true).runPolicy(p -> p.setActiveDeadlineSeconds(5L))
        .status(suspendedStatus()).build();
    Decision d = decide(suspended, List.of());
    assertThat(d.status().isTrue("Failed")).isFalse();
    assertThat(d.requeueAfter()).isEmpty();

    TestJob resumed = TestJobs.job("j").workers(1).runPolicy(p -> p.setActiveDeadlineSeconds(5L))
        .status(suspendedStatus()).build();
    Decision r = decide(resumed, List.of());
    assertThat(r.status().isTrue("Failed")).isFalse();
    assertThat(r.status().getStartTime()).isEqualTo(NOW.toString());
    assertThat(r.requeueAfter()).contains(java.time.Duration.ofSeconds(5));
  }

  @Test
  void resumeBeforeOldPodsFinishedTerminatingWaitsForThemIndexByIndex() {
    TestJob job = TestJobs.job("j").workers(3).status(suspendedStatus()).build();
    Pod stillTerminating = TestPods.of(job, "Worker", 1).terminating();
    Decision d = decide(job, List.of(stillTerminating), List.of());
    assertThat(actions(d, Action.CreatePod.class)).extracting(a -> a.pod().getMetadata().getName())
        .containsExactly("j-worker-0", "j-worker-2");
    assertThat(d.status().getReplicaStatuses().get("Worker").terminating()).isEqualTo(1);
    assertThat(d.status().isTrue("Running")).isFalse();
  }

  @Test
  void resumedPodsCarrySchedulingDirectivesEditedWhileSuspended() {
    TestJob job = TestJobs.job("j").workers(1).status(suspendedStatus()).edit(j -> {
      var template = j.getSpec().getTestReplicaSpecs().get("Worker").getTemplate();
      template.getMetadata().getLabels().put("kueue.x-k8s.io/podset", "worker");
      template.getMetadata().setAnnotations(Map.of("kueue.x-k8s.io/workload", "w1"));
      template.getSpec().setNodeSelector(Map.of("cloud.example.com/pool", "spot"));
      template.getSpec().setTolerations(List.of(new io.fabric8.kubernetes.api.model.TolerationBuilder()
          .withKey("spot").withOperator("Exists").withEffect("NoSchedule").build()));
      template.getSpec().setSchedulingGates(List.of(new io.fabric8.kubernetes.api.model.PodSchedulingGate(
          "kueue.x-k8s.io/topology")));
    }).build();
    Pod pod = actions(decide(job, List.of()), Action.CreatePod.class).get(0).pod();
    assertThat(pod.getMetadata().getLabels()).containsEntry("kueue.x-k8s.io/podset", "worker");
    assertThat(pod.getMetadata().getAnnotations()).containsEntry("kueue.x-k8s.io/workload", "w1");
    assertThat(pod.getSpec().getNodeSelector()).containsEntry("cloud.example.com/pool", "spot");
    assertThat(pod.getSpec().getTolerations()).singleElement().satisfies(t -> assertThat(t.getKey()).isEqualTo("spot"));
    assertThat(pod.getSpec().getSchedulingGates()).singleElement()
        .satisfies(g -> assertThat(g.getName()).isEqualTo("kueue.x-k8s.io/topology"));
  }

  @Test
  void repeatedSuspensionsAreCountedOncePerCycle() {
    TestJob again = TestJobs.job("j").workers(1).suspend(true).status(suspendedStatus()).build();
    Decision still = decide(again, List.of());
    assertThat(still.status().getSuspensions()).isEqualTo(1);
    assertThat(still.events()).isEmpty();

    JobStatus resumedAndRunning = suspendedStatus();
    Conditions.set(resumedAndRunning, ConditionType.Suspended, false, "TestJobResumed", "r", "2026-11-29T11:40:00Z");
    Conditions.set(resumedAndRunning, ConditionType.Running, true, "TestJobRunning", "m", "2026-11-29T11:41:00Z");
    TestJob second = TestJobs.job("j").workers(1).suspend(true).status(resumedAndRunning).build();
    Decision d = decide(second, List.of(TestPods.of(second, "Worker", 0).running()));
    assertThat(d.status().getSuspensions()).isEqualTo(2);
    assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated", "Running=False/TestJobSuspended",
        "Suspended=True/TestJobSuspended");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void aJobWhosePodsSucceededBeforeTheStopWasSeenEndsSucceeded(String name, KueueGate gate) {
    // the operator saw both at once: every worker had succeeded, and the job was then suspended (or preempted)
    TestJob job = TestJobs.job("j").workers(2).suspend(gate == null).status(runningStatus()).build();
    List<Pod> pods = List.of(TestPods.of(job, "Worker", 0).succeeded(), TestPods.of(job, "Worker", 1).succeeded());

    Decision d = KueueGateDecisionTest.decide(job, gate == null ? KueueGate.NOT_QUEUED : gate, pods);

    assertThat(d.status().isTrue("Succeeded")).isTrue();
    assertThat(d.status().isTrue("Suspended")).isFalse();
    assertThat(d.status().getSuspensions()).isNull();
    assertThat(d.status().getReplicaStatuses().get("Worker").succeeded()).isEqualTo(2);
    assertThat(actions(d, Action.DeletePod.class)).as("cleanPodPolicy None keeps finished pods").isEmpty();
    assertThat(actions(d, Action.CreatePod.class)).isEmpty();
  }

  static Stream<Arguments> aJobWhosePodsSucceededBeforeTheStopWasSeenEndsSucceeded() {
    return Stream.of(Arguments.of("suspended", null),
        Arguments.of("preempted by Kueue", new KueueGate.Held("Evicted", "TestJob j was evicted by Kueue", false)));
  }

  @Test
  void aStopMeetingPodsThatHaveNotAllSucceededStillSuspends() {
    TestJob job = TestJobs.job("j").workers(2).suspend(true).status(runningStatus()).build();
    Decision partly = decide(job, List.of(TestPods.of(job, "Worker", 0).succeeded(),
        TestPods.of(job, "Worker", 1).running()));
    assertThat(partly.status().isTrue("Suspended")).isTrue();
    assertThat(partly.status().isTrue("Succeeded")).isFalse();

    // pods the suspension itself is deleting are no success of the job's
    Pod deleting = TestPods.of(job, "Worker", 1).succeeded();
    deleting.getMetadata().setDeletionTimestamp("2026-11-29T11:59:00Z");
    Decision stopping = decide(job, List.of(TestPods.of(job, "Worker", 0).succeeded(), deleting));
    assertThat(stopping.status().isTrue("Suspended")).isTrue();
    assertThat(stopping.status().isTrue("Succeeded")).isFalse();

    // a job never started is suspended as before
    TestJob fresh = TestJobs.job("j").workers(1).suspend(true).build();
    assertThat(decide(fresh, List.of()).status().isTrue("Suspended")).isTrue();
  }

  @Test
  void aSuspensionDuringARestartsWaitTurnsRestartingFalseWithOneEvent() {
    JobStatus restarting = runningStatus();
    Conditions.set(restarting, ConditionType.Restarting, true, "TestJobMemberFailed",
        "Worker 1 failed. Its new pods start in 10 s, at 2026-11-29T12:00:10Z.", "2026-11-29T12:00:00Z");
    TestJob job = TestJobs.job("j").workers(2).suspend(true).status(restarting).build();

    Decision d = decide(job, List.of());

    assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated",
        "Restarting=False/TestJobSuspended", "Suspended=True/TestJobSuspended");
    assertThat(d.status().getOutcome()).isEqualTo("Suspended");
    assertThat(d.events()).extracting(e -> e.type() + "/" + e.reason()).containsExactly("Normal/TestJobSuspended");
  }
}
