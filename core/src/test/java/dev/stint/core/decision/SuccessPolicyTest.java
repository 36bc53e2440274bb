package dev.stint.core.decision;

import static dev.stint.core.decision.JobDeciderTest.actions;
import static dev.stint.core.decision.JobDeciderTest.conditions;
import static dev.stint.core.decision.JobDeciderTest.decide;
import static dev.stint.core.decision.JobDeciderTest.runningStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobEvent;
import dev.stint.core.testing.TestJobs;
import dev.stint.core.testing.TestPods;
import dev.stint.spi.api.ReplicaStatus;
import dev.stint.spi.api.SuccessPolicySpec;
import dev.stint.spi.api.SuccessRule;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Success policies (defaults and rules) over pod outcomes, partial success, and what never counts as an outcome. */
class SuccessPolicyTest {

  static TestJobs fourWorkersNeedingThree() {
    SuccessRule rule = new SuccessRule();
    rule.setSucceeded(Map.of("Worker", 3));
    SuccessPolicySpec policy = new SuccessPolicySpec();
    policy.setRules(List.of(rule));
    return TestJobs.job("j").workers(4).restartPolicy("Never").runPolicy(p -> p.setSuccessPolicy(policy))
        .status(runningStatus());
  }

  /** Worker pods by index: R running, S succeeded, F failed (exit 1), K failed (exit 137), P pending. */
  static List<Pod> workers(TestJob job, String states) {
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < states.length(); i++) {
      TestPods p = TestPods.of(job, "Worker", i);
      pods.add(switch (states.charAt(i)) {
        case 'R' -> p.running();
        case 'S' -> p.succeeded();
        case 'F' -> p.failed(1);
        case 'K' -> p.failed(137);
        default -> p.pending();
      });
    }
    return pods;
  }

  static Stream<Arguments> ruleOutcomes() {
    return Stream.of(
        Arguments.of("RRRR", null, null),
        Arguments.of("SSRR", null, null),
        Arguments.of("SSSR", "Succeeded", "0-2"),
        Arguments.of("SSSS", "Succeeded", "0-3"),
        Arguments.of("SFSS", "PartiallySucceeded", "0,2-3"),
        Arguments.of("SFRR", null, null),
        Arguments.of("FFRR", "Failed", ""),
        Arguments.of("SKSS", "PartiallySucceeded", "0,2-3"));
  }

  @ParameterizedTest(name = "workers {0}")
  @MethodSource("ruleOutcomes")
  void rulesOfThreeWorkersOutOfFour(String states, String outcome, String succeededIndexes) {
    TestJob job = fourWorkersNeedingThree().build();
    Decision d = decide(job, workers(job, states));
    assertThat(d.status().getOutcome()).isEqualTo(outcome == null ? "Running" : outcome);
    if (outcome == null) {
      assertThat(d.status().getCompletionTime()).isNull();
      return;
    }
    assertThat(d.status().getCompletionTime()).isNotNull();
    ReplicaStatus workers = d.status().getReplicaStatuses().get("Worker");
    assertThat(workers.getSucceededIndexes()).isEqualTo(succeededIndexes.isEmpty() ? null : succeededIndexes);
    if (!"Failed".equals(outcome)) {
      // nothing is left running once the policy holds
      List<String> running = workers(job, states).stream().filter(p -> "Running".equals(p.getStatus().getPhase()))
          .map(p -> p.getMetadata().getName()).toList();
      assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name).containsExactlyElementsOf(running);
    }
  }

  @Test
  void partialSuccessSetsPartiallySucceededThenSucceededNamingTheFailedReplicas() {
    TestJob job = fourWorkersNeedingThree().build();
    List<Pod> pods = workers(job, "SFSK");
    pods.set(3, TestPods.of(job, "Worker", 3).succeeded());
    pods.set(1, TestPods.of(job, "Worker", 1).failed(1));
    Decision d = decide(job, workers(job, "SFSS"));
    String message = "TestJob j partially succeeded: Worker 1 failed (exit code 1)";
    assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated", "Running=False/TestJobRunning",
        "PartiallySucceeded=True/TestJobPartiallySucceeded", "Succeeded=True/TestJobPartiallySucceeded");
    assertThat(d.status().condition("PartiallySucceeded").orElseThrow().getMessage()).isEqualTo(message);
    assertThat(d.status().condition("Succeeded").orElseThrow().getMessage()).isEqualTo(message);
    assertThat(d.status().getReplicaStatuses().get("Worker").getFailedIndexes()).isEqualTo("1");
    assertThat(d.events()).extracting(JobEvent::reason).contains("TestJobPartiallySucceeded");
  }

  @Test
  void messageListsEveryFailedIndexAndExitCode() {
    SuccessRule rule = new SuccessRule();
    rule.setSucceeded(Map.of("Worker", 2));
    SuccessPolicySpec policy = new SuccessPolicySpec();
    policy.setRules(List.of(rule));
    TestJob job = TestJobs.job("j").workers(4).restartPolicy("Never").runPolicy(p -> p.setSuccessPolicy(policy))
        .status(runningStatus()).build();
    Decision d = decide(job, workers(job, "SFSK"));
    assertThat(d.status().condition("Succeeded").orElseThrow().getMessage())
        .isEqualTo("TestJob j partially succeeded: Worker 1,3 failed (exit codes 1, 137)");
    assertThat(d.status().getReplicaStatuses().get("Worker").getFailedIndexes()).isEqualTo("1,3");
  }

  @Test
  void leaderSucceededWhileAWorkerFailedIsAPartialSuccessNotAFailure() {
    TestJob job = TestJobs.job("j").leader(1).workers(2).restartPolicy("Never").status(runningStatus()).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Leader", 0).succeeded(), TestPods.of(job, "Worker", 0).failed(2),
        TestPods.of(job, "Worker", 1).running()));
    assertThat(d.status().getOutcome()).isEqualTo("PartiallySucceeded");
    assertThat(d.status().isTrue("Failed")).isFalse();
  }

  @Test
  void aReplicaThatFailedAndSucceededAfterARestartIsAFullSuccess() {
    ReplicaStatus restarted = new ReplicaStatus();
    restarted.setRestarts(1);
    var status = runningStatus();
    status.setReplicaStatuses(new java.util.LinkedHashMap<>(Map.of("Worker", restarted)));
    TestJob job = TestJobs.job("j").workers(2).status(status).build();
    Decision d = decide(job, workers(job, "SS"));
    assertThat(d.status().getOutcome()).isEqualTo("Succeeded");
    assertThat(d.status().condition("Succeeded").orElseThrow().getReason()).isEqualTo("TestJobSucceeded");
    assertThat(d.status().condition("PartiallySucceeded")).isEmpty();
  }

  @Test
  void aPodThatExitedZeroWhileBeingDeletedBySuspensionIsNotASuccess() {
    TestJob job = TestJobs.job("j").workers(2).status(runningStatus()).build();
    Pod sigtermedWorker = TestPods.of(job, "Worker", 1).succeeded();
    sigtermedWorker.getMetadata().setDeletionTimestamp("2026-11-29T11:59:59Z");
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).succeeded(), sigtermedWorker));
    assertThat(d.status().isTrue("Succeeded")).isFalse();
    assertThat(d.status().getReplicaStatuses().get("Worker").succeeded()).isEqualTo(1);
    assertThat(d.status().getReplicaStatuses().get("Worker").terminating()).isEqualTo(1);
    assertThat(actions(d, Action.CreatePod.class)).isEmpty();
  }

  @Test
  void disruptedPodIsReplacedWithoutCountingTowardBackoffOrFailure() {
    TestJob job = TestJobs.job("j").workers(2).restartPolicy("Never").runPolicy(p -> p.setBackoffLimit(0))
        .status(runningStatus()).build();
    Pod evicted = TestPods.of(job, "Worker", 1).failed(137);
    evicted.getStatus().setConditions(List.of(new PodConditionBuilder().withType("DisruptionTarget")
        .withStatus("True").withReason("PreemptionByScheduler").build()));
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(), evicted));
    assertThat(actions(d, Action.DeletePod.class)).extracting(Action.DeletePod::name).containsExactly("j-worker-1");
    assertThat(d.status().isTrue("Failed")).isFalse();
    assertThat(d.status().getReplicaStatuses().get("Worker").restarts()).isZero();
    assertThat(d.status().getReplicaStatuses().get("Worker").failed()).isZero();
  }

  @Test
  void indexesUseTheBatchJobIntervalFormat() {
    assertThat(IndexIntervals.format(new TreeSet<>(List.of(0, 2, 3, 4, 7)))).isEqualTo("0,2-4,7");
    assertThat(IndexIntervals.format(new TreeSet<>(List.of(5)))).isEqualTo("5");
    assertThat(IndexIntervals.format(new TreeSet<>())).isEmpty();
  }
}
