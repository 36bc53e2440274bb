package dev.stint.core.decision;

import static dev.stint.core.decision.JobDeciderTest.NOW;
import static dev.stint.core.decision.JobDeciderTest.actions;
import static dev.stint.core.decision.JobDeciderTest.conditions;
import static dev.stint.core.decision.JobDeciderTest.decide;
import static dev.stint.core.decision.JobDeciderTest.runningStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobEvent;
import dev.stint.core.testing.TestJobs;
import dev.stint.core.testing.TestPods;
import dev.stint.spi.api.FailurePolicyRule;
import dev.stint.spi.api.FailurePolicySpec;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import dev.stint.spi.api.SuccessPolicySpec;
import dev.stint.spi.api.SuccessRule;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** A failure policy's gang restart, as decisions: what one pass does with a member's failure and with old attempts. */
class GangRestartTest {
  static final String ATTEMPT = "training.kubeflow.org/restart-attempt";

  static FailurePolicySpec policy(int maxRestarts, String strategy, FailurePolicyRule... rules) {
    FailurePolicySpec p = new FailurePolicySpec();
    p.setMaxRestarts(maxRestarts);
    p.setRestartStrategy(strategy);
    p.setRules(rules.length == 0 ? null : List.of(rules));
    return p;
  }

  static TestJob job(FailurePolicySpec policy, JobStatus status, Consumer<TestJobs> more) {
    TestJobs jobs = TestJobs.job("j").workers(3).runPolicy(p -> p.setFailurePolicy(policy)).status(status);
    more.accept(jobs);
    return jobs.build();
  }

  static TestJob job(FailurePolicySpec policy, JobStatus status) {
    return job(policy, status, j -> { });
  }

  static Pod at(int attempt, Pod pod) {
    pod.getMetadata().getLabels().put(ATTEMPT, Integer.toString(attempt));
    return pod;
  }

  static Pod disrupted(Pod pod, String reason) {
    pod.getStatus().setConditions(new ArrayList<>(List.of(new PodConditionBuilder().withType("DisruptionTarget")
        .withStatus("True").withReason(reason).build())));
    return pod;
  }

  /** A running job at some attempt: status.restarts and restartsCountTowardsMax as given. */
  static JobStatus restarted(int restarts, int counted) {
    JobStatus s = runningStatus();
    s.setRestarts(restarts == 0 ? null : restarts);
    s.setRestartsCountTowardsMax(counted == 0 ? null : counted);
    return s;
  }

  static List<String> deleted(Decision d) {
    return actions(d, Action.DeletePod.class).stream().map(a -> a.name() + " (" + a.why() + ")").toList();
  }

  @Test
  void oneWorkerFailingRestartsTheWholeGangAndSaysWhy() {
    TestJob job = job(policy(3, null), runningStatus());
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(),
        TestPods.of(job, "Worker", 1).failed(137), TestPods.of(job, "Worker", 2).running()));

    assertThat(deleted(d)).containsExactly("j-worker-0 (gang restart)", "j-worker-1 (gang restart)",
        "j-worker-2 (gang restart)");
    assertThat(actions(d, Action.CreatePod.class)).isEmpty();
    assertThat(d.status().getRestarts()).isEqualTo(1);
    assertThat(d.status().getRestartsCountTowardsMax()).isEqualTo(1);
    assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated",
        "Restarting=True/TestJobMemberFailed");
    assertThat(d.status().condition("Restarting").orElseThrow().getMessage()).isEqualTo("TestJob j is restarting "
        + "every pod (attempt 1): Worker 1 exited with code 137; restart 1 of at most 3 "
        + "(failurePolicy.maxRestarts).");
    assertThat(d.events()).singleElement().satisfies(e -> {
      assertThat(e.type()).isEqualTo(JobEvent.Type.Warning);
      assertThat(e.reason()).isEqualTo("TestJobMemberFailed");
    });
    ReplicaStatus workers = d.status().getReplicaStatuses().get("Worker");
    assertThat(workers.active()).isZero();
    assertThat(workers.failed()).isZero();
    assertThat(workers.terminating()).isEqualTo(3);
    assertThat(workers.restarts()).as("pod restarts, which count toward backoffLimit").isZero();
    assertThat(d.status().getOutcome()).isEqualTo("Restarting");
  }

  @Test
  void theNextAttemptIsCreatedFromTheCurrentTemplatesWithItsNumber() {
    TestJob job = job(policy(3, null), restarted(1, 1), j -> j.edit(x -> x.getSpec().getTestReplicaSpecs()
        .get("Worker").getTemplate().getSpec().setNodeSelector(Map.of("pool", "spare"))));
    Decision d = decide(job, List.of());
    List<Pod> pods = actions(d, Action.CreatePod.class).stream().map(Action.CreatePod::pod).toList();
    assertThat(pods).extracting(p -> p.getMetadata().getName()).containsExactly("j-worker-0", "j-worker-1",
        "j-worker-2");
    assertThat(pods).allSatisfy(p -> {
      assertThat(p.getMetadata().getLabels()).containsEntry(ATTEMPT, "1");
      assertThat(p.getMetadata().getAnnotations()).containsEntry(ATTEMPT, "1");
      assertThat(p.getSpec().getContainers().get(0).getEnv()).extracting(EnvVar::getName, EnvVar::getValue)
          .endsWith(org.assertj.core.groups.Tuple.tuple("STINT_RESTART_ATTEMPT", "1"));
      assertThat(p.getSpec().getRestartPolicy()).as("a crash ends the pod; the gang restarts").isEqualTo("Never");
      assertThat(p.getSpec().getNodeSelector()).containsEntry("pool", "spare");
    });
  }

  @Test
  void withoutAFailurePolicyPodsCarryNoAttemptAndKeepTheirRestartPolicy() {
    TestJob job = TestJobs.job("j").workers(1).build();
    Pod pod = actions(decide(job, List.of()), Action.CreatePod.class).get(0).pod();
    assertThat(pod.getMetadata().getLabels()).doesNotContainKey(ATTEMPT);
    assertThat(pod.getSpec().getContainers().get(0).getEnv()).extracting(EnvVar::getName)
        .doesNotContain("STINT_RESTART_ATTEMPT");
    assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("OnFailure");
  }

  @Test
  void recreateStartsEachIndexOnceItsOldPodIsGone() {
    TestJob job = job(policy(3, "Recreate"), restarted(1, 1));
    Decision d = decide(job, List.of(at(0, TestPods.of(job, "Worker", 1).terminating())));
    assertThat(actions(d, Action.CreatePod.class)).extracting(Action.CreatePod::name)
        .containsExactly("j-worker-0", "j-worker-2");
    assertThat(d.status().getReplicaStatuses().get("Worker").terminating()).isEqualTo(1);
  }

  @Test
  void blockingRecreateStartsNothingUntilEveryOldPodIsGone() {
    TestJob job = job(policy(3, "BlockingRecreate"), restarted(1, 1));
    Decision waiting = decide(job, List.of(at(0, TestPods.of(job, "Worker", 1).terminating())));
    assertThat(actions(waiting, Action.CreatePod.class)).isEmpty();
    assertThat(waiting.status().getReplicaStatuses().get("Worker").terminating()).isEqualTo(1);

    Decision gone = decide(job, List.of());
    assertThat(actions(gone, Action.CreatePod.class)).hasSize(3);
  }

  @Test
  void anOldAttemptsPodStillThereIsDeletedAndNeverCounted() {
    TestJob job = job(policy(3, null), restarted(1, 1));
    Decision d = decide(job, List.of(at(0, TestPods.of(job, "Worker", 0).succeeded()),
        at(0, TestPods.of(job, "Worker", 1).failed(1)), at(1, TestPods.of(job, "Worker", 2).running())));
    assertThat(deleted(d)).containsExactly("j-worker-0 (earlier attempt)", "j-worker-1 (earlier attempt)");
    assertThat(d.status().getRestarts()).as("no new restart for an old attempt's failure").isEqualTo(1);
    ReplicaStatus workers = d.status().getReplicaStatuses().get("Worker");
    assertThat(workers.succeeded()).isZero();
    assertThat(workers.failed()).isZero();
    assertThat(workers.terminating()).isEqualTo(2);
    assertThat(workers.active()).isEqualTo(1);
  }

  @Test
  void theDisruptedPodThatCausedARestartDoesNotCauseAnother() {
    TestJob job = job(policy(3, null), restarted(2, 1));
    Decision d = decide(job, List.of(at(1, disrupted(TestPods.of(job, "Worker", 0).failed(137),
        "EvictionByEvictionAPI")), at(1, disrupted(TestPods.of(job, "Worker", 1).terminating(), "DeletionByPodGC")),
        at(2, TestPods.of(job, "Worker", 2).pending())));
    assertThat(d.status().getRestarts()).isEqualTo(2);
    assertThat(deleted(d)).containsExactly("j-worker-0 (earlier attempt)");
    assertThat(d.events()).isEmpty();
  }

  @Test
  void theNewAttemptRunningSetsRunningAgain() {
    TestJob job = job(policy(3, null), restarted(1, 1));
    JobStatus restarting = job.getStatus();
    Conditions.set(restarting, ConditionType.Restarting, true, "TestJobMemberFailed", "m", "2026-11-29T11:59:00Z");
    Decision d = decide(job, List.of(at(1, TestPods.of(job, "Worker", 0).running()),
        at(1, TestPods.of(job, "Worker", 1).running()), at(1, TestPods.of(job, "Worker", 2).running())));
    assertThat(conditions(d.status())).containsExactly("Created=True/TestJobCreated", "Running=True/TestJobRunning");
    assertThat(d.status().getRestarts()).isEqualTo(1);
  }

  @Test
  void aDrainedNodeRestartsTheGangWithoutCounting() {
    TestJob job = job(policy(0, null), runningStatus());
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(),
        disrupted(TestPods.of(job, "Worker", 1).terminating(), "EvictionByEvictionAPI"),
        TestPods.of(job, "Worker", 2).running()));
    assertThat(deleted(d)).containsExactly("j-worker-0 (gang restart)", "j-worker-2 (gang restart)");
    assertThat(d.status().getRestarts()).isEqualTo(1);
    assertThat(d.status().getRestartsCountTowardsMax()).isNull();
    assertThat(conditions(d.status())).contains("Restarting=True/TestJobMemberDisrupted");
    assertThat(d.status().condition("Restarting").orElseThrow().getMessage()).isEqualTo("TestJob j is restarting "
        + "every pod (attempt 1): Worker 1 was evicted (its node was drained, or the Eviction API was called); a "
        + "disruption, not counted toward failurePolicy.maxRestarts.");
  }

  @Test
  void aRunningPodMarkedForEvictionIsLostAlready() {
    TestJob job = job(policy(0, null), runningStatus());
    Decision d = decide(job, List.of(disrupted(TestPods.of(job, "Worker", 0).running(), "PreemptionByScheduler"),
        TestPods.of(job, "Worker", 1).running(), TestPods.of(job, "Worker", 2).running()));
    assertThat(d.status().getRestarts()).isEqualTo(1);
    assertThat(d.status().condition("Restarting").orElseThrow().getMessage())
        .contains("Worker 0 was preempted by a pod of higher priority");
  }

  @Test
  void aLostNodeFailedPodRestartsFreeAndARuleCanCountIt() {
    FailurePolicyRule counted = new FailurePolicyRule();
    counted.setName("count-lost-nodes");
    counted.setAction("RestartJob");
    counted.setOnPodFailureReasons(List.of("DeletionByPodGC"));
    TestJob job = job(policy(1, null, counted), runningStatus());
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(),
        disrupted(TestPods.of(job, "Worker", 1).failed(137), "DeletionByPodGC"),
        TestPods.of(job, "Worker", 2).running()));
    assertThat(d.status().getRestartsCountTowardsMax()).isEqualTo(1);
    assertThat(d.status().condition("Restarting").orElseThrow().getMessage()).isEqualTo("TestJob j is restarting "
        + "every pod (attempt 1): Worker 1's node was lost; restart 1 of at most 1 (failurePolicy.maxRestarts), "
        + "rule \"count-lost-nodes\".");
  }

  @Test
  void beyondTheLimitTheJobFailsNamingItAndTheLastFailure() {
    TestJob job = job(policy(2, null), restarted(3, 2));
    Decision d = decide(job, List.of(at(3, TestPods.of(job, "Worker", 0).running()),
        at(3, TestPods.of(job, "Worker", 1).failed(137)), at(3, TestPods.of(job, "Worker", 2).running())));
    assertThat(d.status().isTrue("Failed")).isTrue();
    assertThat(d.status().condition("Failed").orElseThrow().getReason()).isEqualTo("TestJobReachedMaxRestarts");
    assertThat(d.status().condition("Failed").orElseThrow().getMessage()).isEqualTo("TestJob j failed: Worker 1 "
        + "exited with code 137, after 2 restarts counted toward failurePolicy.maxRestarts (2).");
    assertThat(d.status().getCompletionTime()).isEqualTo(NOW.toString());
    assertThat(d.status().getRestarts()).isEqualTo(3);
    assertThat(d.status().getReplicaStatuses().get("Worker").getFailedIndexes()).isEqualTo("1");
    assertThat(deleted(d)).containsExactly("j-worker-0 (job finished)", "j-worker-2 (job finished)");
  }

  @Test
  void membersThatFailedWithTheLastFailureCountInTheFinalStatus() {
    TestJob job = job(policy(0, null), runningStatus());
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).failed(1), TestPods.of(job, "Worker", 1).failed(1),
        TestPods.of(job, "Worker", 2).running()));
    assertThat(d.status().condition("Failed").orElseThrow().getReason()).isEqualTo("TestJobReachedMaxRestarts");
    ReplicaStatus workers = d.status().getReplicaStatuses().get("Worker");
    assertThat(workers.getFailedIndexes()).isEqualTo("0-1");
    assertThat(workers.failed()).isEqualTo(2);
  }

  @Test
  void aMemberSeenFailedOnlyAfterTheJobFailedCountsToo() {
    TestJob job = job(policy(0, null), runningStatus());
    Decision failing = decide(job, List.of(TestPods.of(job, "Worker", 0).failed(1),
        TestPods.of(job, "Worker", 1).running(), TestPods.of(job, "Worker", 2).running()));
    assertThat(failing.status().isTrue("Failed")).isTrue();

    // worker 1 had failed too, which the cache showed only later (the job's deletion of it found it ended)
    TestJob failed = job(policy(0, null), failing.status());
    Decision after = decide(failed, List.of(TestPods.of(failed, "Worker", 0).failed(1),
        TestPods.of(failed, "Worker", 1).failed(1)));
    ReplicaStatus workers = after.status().getReplicaStatuses().get("Worker");
    assertThat(workers.getFailedIndexes()).isEqualTo("0-1");
    assertThat(workers.failed()).isEqualTo(2);
    // idempotent
    TestJob again = job(policy(0, null), after.status());
    assertThat(decide(again, List.of(TestPods.of(again, "Worker", 0).failed(1), TestPods.of(again, "Worker", 1)
        .failed(1))).status().getReplicaStatuses().get("Worker").failed()).isEqualTo(2);
  }

  @Test
  void aFailJobRuleEndsTheJobAtOnce() {
    FailurePolicyRule rule = new FailurePolicyRule();
    rule.setName("bad-input");
    rule.setAction("FailJob");
    rule.setOnExitCodes(List.of(2));
    TestJob job = job(policy(5, null, rule), runningStatus());
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 1).failed(2),
        TestPods.of(job, "Worker", 2).running()));
    assertThat(d.status().condition("Failed").orElseThrow().getReason()).isEqualTo("TestJobFailedByFailurePolicy");
    assertThat(d.status().condition("Failed").orElseThrow().getMessage()).isEqualTo("TestJob j failed: Worker 1 "
        + "exited with code 2, and failurePolicy rule \"bad-input\" says FailJob.");
    assertThat(d.status().getRestarts()).isNull();
  }

  @Test
  void aFailureTheSuccessRulesTolerateDoesNotRestartTheGang() {
    SuccessPolicySpec success = new SuccessPolicySpec();
    SuccessRule threeOfFour = new SuccessRule();
    threeOfFour.setSucceeded(Map.of("Worker", 3));
    success.setRules(List.of(threeOfFour));
    TestJob job = TestJobs.job("j").workers(4).restartPolicy("Never").status(runningStatus())
        .runPolicy(p -> {
          p.setFailurePolicy(policy(3, null));
          p.setSuccessPolicy(success);
        }).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 1).failed(1),
        TestPods.of(job, "Worker", 2).running(), TestPods.of(job, "Worker", 3).running()));
    assertThat(d.status().getRestarts()).isNull();
    assertThat(actions(d, Action.DeletePod.class)).isEmpty();
    assertThat(d.status().getReplicaStatuses().get("Worker").getFailedIndexes()).isEqualTo("1");

    job.setStatus(d.status());
    Decision second = decide(job, List.of(TestPods.of(job, "Worker", 0).running(),
        TestPods.of(job, "Worker", 1).failed(1), TestPods.of(job, "Worker", 2).failed(2),
        TestPods.of(job, "Worker", 3).running()));
    assertThat(second.status().getRestarts()).as("no rule can hold any more: the gang restarts").isEqualTo(1);
    assertThat(second.status().condition("Restarting").orElseThrow().getMessage())
        .as("named by the failure that broke the rules, not the one they tolerated")
        .contains("Worker 2 exited with code 2");
  }

  @Test
  void aJobWhoseSuccessPolicyHoldsSucceedsRatherThanRestart() {
    TestJob job = TestJobs.job("j").leader(1).workers(2).status(runningStatus())
        .runPolicy(p -> p.setFailurePolicy(policy(3, null))).build();
    Decision d = decide(job, List.of(TestPods.of(job, "Leader", 0).succeeded(),
        TestPods.of(job, "Worker", 0).failed(137), TestPods.of(job, "Worker", 1).running()));
    assertThat(d.status().isTrue("Succeeded")).isTrue();
    assertThat(d.status().getRestarts()).isNull();
  }

  @Test
  void exitCodePolicysPermanentCodesFailTheJobAsWithoutAPolicy() {
    TestJob job = job(policy(3, null), runningStatus(), j -> j.restartPolicy("ExitCode"));
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 1).failed(1),
        TestPods.of(job, "Worker", 2).running()));
    assertThat(d.status().isTrue("Failed")).isTrue();
    assertThat(d.status().condition("Failed").orElseThrow().getReason()).isEqualTo("TestJobFailed");

    Decision retryable = decide(job, List.of(TestPods.of(job, "Worker", 0).running(),
        TestPods.of(job, "Worker", 1).failed(137), TestPods.of(job, "Worker", 2).running()));
    assertThat(retryable.status().getRestarts()).isEqualTo(1);
  }

  @Test
  void backoffLimitKeepsCountingOnlySinglePodRestarts() {
    TestJob job = job(policy(3, null), runningStatus(), j -> j.runPolicy(p -> p.setBackoffLimit(0)));
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 1).failed(137),
        TestPods.of(job, "Worker", 2).running()));
    assertThat(d.status().isTrue("Failed")).isFalse();
    assertThat(d.status().getRestarts()).isEqualTo(1);
  }

  @Test
  void activeDeadlineSecondsKeepsCountingAcrossRestarts() {
    JobStatus status = restarted(1, 1);
    status.setStartTime(NOW.minusSeconds(100).toString());
    TestJob job = job(policy(3, null), status, j -> j.runPolicy(p -> p.setActiveDeadlineSeconds(60L)));
    Decision d = decide(job, List.of());
    assertThat(d.status().isTrue("Failed")).isTrue();
    assertThat(d.status().condition("Failed").orElseThrow().getMessage()).contains("activeDeadlineSeconds: 60");

    JobStatus early = restarted(1, 1);
    early.setStartTime(NOW.minusSeconds(10).toString());
    Decision running = decide(job(policy(3, null), early, j -> j.runPolicy(p -> p.setActiveDeadlineSeconds(60L))),
        List.of());
    assertThat(running.status().getStartTime()).as("a restart is no resume").isEqualTo(NOW.minusSeconds(10).toString());
    assertThat(running.requeueAfter()).contains(java.time.Duration.ofSeconds(50));
  }

  @Test
  void suspendedInTheMiddleOfARestartConvergesAndResumesTheNextAttempt() {
    JobStatus restarting = restarted(1, 1);
    Conditions.set(restarting, ConditionType.Restarting, true, "TestJobMemberFailed", "m", "2026-11-29T11:59:00Z");
    TestJob suspended = job(policy(3, null), restarting, j -> j.suspend(true));
    Decision d = decide(suspended, List.of(at(0, TestPods.of(suspended, "Worker", 0).terminating()),
        at(1, TestPods.of(suspended, "Worker", 1).pending())));
    assertThat(deleted(d)).containsExactly("j-worker-1 (job suspended)");
    assertThat(d.status().getOutcome()).isEqualTo("Suspended");
    assertThat(d.status().getRestarts()).isEqualTo(1);
    assertThat(d.status().getReplicaStatuses().get("Worker").terminating()).isEqualTo(2);

    TestJob resumed = job(policy(3, null), d.status(), j -> { });
    Decision r = decide(resumed, List.of());
    assertThat(actions(r, Action.CreatePod.class)).hasSize(3)
        .allSatisfy(a -> assertThat(a.pod().getMetadata().getLabels()).containsEntry(ATTEMPT, "1"));
    assertThat(r.status().getRestarts()).isEqualTo(1);
    assertThat(r.status().getRestartsCountTowardsMax()).isEqualTo(1);
  }

  @Test
  void aSecondRestartBeforeTheGangCameUpIsItsOwnTransition() {
    JobStatus restarting = restarted(1, 1);
    Conditions.set(restarting, ConditionType.Restarting, true, "TestJobMemberFailed", "first", "2026-11-29T11:59:00Z");
    TestJob job = job(policy(3, null), restarting);
    Decision d = decide(job, List.of(at(1, TestPods.of(job, "Worker", 0).failed(137)),
        at(1, TestPods.of(job, "Worker", 1).pending())));
    assertThat(d.status().getRestarts()).isEqualTo(2);
    assertThat(d.status().condition("Restarting").orElseThrow().getMessage()).contains("(attempt 2): Worker 0");
    assertThat(d.events()).extracting(JobEvent::reason).containsExactly("TestJobMemberFailed");
  }

  @Test
  void podsOfALaterAttemptThanTheStatusSaysMakeItTheJobsAttempt() {
    TestJob job = job(policy(3, null), runningStatus());
    Decision d = decide(job, List.of(at(2, TestPods.of(job, "Worker", 0).running()),
        at(2, TestPods.of(job, "Worker", 1).running()), at(2, TestPods.of(job, "Worker", 2).running())));
    assertThat(d.status().getRestarts()).isEqualTo(2);
    assertThat(actions(d, Action.DeletePod.class)).isEmpty();
  }

  @Test
  void scalingDownIsNoFailure() {
    TestJob job = job(policy(3, null), runningStatus(), j -> j.workers(2));
    Decision d = decide(job, List.of(TestPods.of(job, "Worker", 0).running(), TestPods.of(job, "Worker", 1).running(),
        TestPods.of(job, "Worker", 2).running()));
    assertThat(deleted(d)).containsExactly("j-worker-2 (scaled down)");
    assertThat(d.status().getRestarts()).isNull();
  }

  static Map<String, ReplicaStatus> counts(Decision d) {
    return new LinkedHashMap<>(d.status().getReplicaStatuses());
  }
}
