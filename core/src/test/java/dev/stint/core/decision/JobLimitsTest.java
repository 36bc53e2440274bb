package dev.stint.core.decision;

import static dev.stint.core.decision.JobDeciderTest.actions;
import static dev.stint.core.decision.JobDeciderTest.decide;
import static dev.stint.core.decision.JobDeciderTest.runningStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.core.testing.TestJobs;
import dev.stint.core.testing.TestPods;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Limits checked before anything is created, large jobs in parts, and a finished job's final counts. */
class JobLimitsTest {

  static String name(int length) {
    return "j" + "a".repeat(length - 1);
  }

  @ParameterizedTest(name = "name of {0} with {1} workers: invalid={2}")
  @CsvSource({
      // <name>-worker-<index>: 8 characters plus the digits of the last index
      "54, 1, false",      // <54>-worker-0 is 63
      "55, 1, true",       // 64
      "53, 10, false",     // <53>-worker-9 is 62
      "53, 11, false",     // <53>-worker-10 is 63
      "54, 11, true",      // 64
      "63, 0, false",      // no replica, no pod
  })
  void theLongestPodNameMustFitADnsLabel(int length, int workers, boolean invalid) {
    TestJob job = TestJobs.job(name(length)).workers(workers).build();
    JobStatus status = decide(job, List.of()).status();
    assertThat(status.isTrue("Failed")).isEqualTo(invalid);
    if (invalid) {
      JobCondition failed = status.condition("Failed").orElseThrow();
      assertThat(failed.getReason()).isEqualTo("TestJobFailedValidation");
      assertThat(failed.getMessage()).contains("metadata.name: must be no more than "
          + (63 - (length + 8 + String.valueOf(workers - 1).length() - length)) + " characters for this job")
          .contains("would be " + (length + 8 + String.valueOf(workers - 1).length()) + " characters");
      assertThat(actions(decide(job, List.of()), Action.CreatePod.class)).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0} leaders and {1} workers: {2}")
  @CsvSource(delimiter = '|', textBlock = """
      1    | 4999    |
      0    | 5000    |
      0    | 5001    | spec.testReplicaSpecs.Worker.replicas: must be no more than 5000
      1    | 5000    | spec.testReplicaSpecs: at most 5000 replicas in all, not 5001
      0    | 1000000 | spec.testReplicaSpecs.Worker.replicas: must be no more than 5000
      """)
  void replicasAreBoundedPerTypeAndPerJob(int leaders, int workers, String error) {
    TestJobs builder = TestJobs.job("big").workers(workers);
    if (leaders > 0) {
      builder.leader(leaders);
    }
    Decision d = decide(builder.build(), List.of());
    if (error == null) {
      assertThat(d.status().isTrue("Failed")).isFalse();
    } else {
      assertThat(d.status().condition("Failed").orElseThrow().getMessage()).contains(error);
      assertThat(d.actions()).isEmpty();
    }
  }

  @Test
  void aLargeJobIsCreatedInPartsAndAsksToBeCalledAgain() {
    TestJob job = TestJobs.job("big").workers(1200).build();
    Decision first = decide(job, List.of());
    assertThat(actions(first, Action.CreatePod.class)).hasSize(ReplicaSync.MAX_CREATES_PER_PASS);
    assertThat(first.requeueAfter()).isPresent();

    List<Pod> existing = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      existing.add(TestPods.of(job, "Worker", i).pending());
    }
    Decision last = decide(job, existing);
    assertThat(actions(last, Action.CreatePod.class)).extracting(Action.CreatePod::name)
        .hasSize(200).first().isEqualTo("big-worker-1000");
    assertThat(last.requeueAfter()).isEmpty();
  }

  @Test
  void aFinishedJobStopsRunningPodsOnlyAsObserved() {
    TestJob job = TestJobs.job("j").leader(1).workers(1).status(runningStatus()).build();
    Pod worker = TestPods.of(job, "Worker", 0).running();
    worker.getMetadata().setResourceVersion("41");
    Decision d = decide(job, List.of(TestPods.of(job, "Leader", 0).succeeded(), worker));
    assertThat(d.status().isTrue("Succeeded")).isTrue();
    assertThat(actions(d, Action.DeletePod.class)).containsExactly(
        new Action.DeletePod("j-worker-0", "job finished", "41"));
  }

  @Test
  void aReplicaThatEndedWhileTheJobFinishedCountsAsWhatItDid() {
    TestJob running = TestJobs.job("j").leader(1).workers(2).status(runningStatus()).build();
    Decision ending = decide(running, List.of(TestPods.of(running, "Leader", 0).succeeded(),
        TestPods.of(running, "Worker", 0).running(), TestPods.of(running, "Worker", 1).running()));
    assertThat(ending.status().isTrue("Succeeded")).isTrue();
    assertThat(ending.status().getReplicaStatuses().get("Worker").succeeded()).isZero();

    // worker 0 had succeeded just before (the delete found it changed and left it); worker 1 was stopped
    TestJob finished = TestJobs.job("j").leader(1).workers(2).status(ending.status()).build();
    Pod stopped = TestPods.of(finished, "Worker", 1).terminating();
    Decision after = decide(finished, List.of(TestPods.of(finished, "Leader", 0).succeeded(),
        TestPods.of(finished, "Worker", 0).succeeded(), stopped));
    var workers = after.status().getReplicaStatuses().get("Worker");
    assertThat(workers.succeeded()).isEqualTo(1);
    assertThat(workers.getSucceededIndexes()).isEqualTo("0");
    assertThat(workers.failed()).isZero();
    assertThat(workers.active()).isZero();

    // idempotent: the next pass counts nothing twice
    TestJob again = TestJobs.job("j").leader(1).workers(2).status(after.status()).build();
    assertThat(decide(again, List.of(TestPods.of(again, "Worker", 0).succeeded())).status()
        .getReplicaStatuses().get("Worker").succeeded()).isEqualTo(1);
  }

  @Test
  void theDeadlineMessageNamesTheField() {
    TestJob job = TestJobs.job("j").workers(1).runPolicy(p -> p.setActiveDeadlineSeconds(0L)).build();
    Decision d = decide(job, List.of());
    assertThat(d.status().condition("Failed").orElseThrow().getMessage())
        .endsWith("(spec.runPolicy.activeDeadlineSeconds: 0)");
  }
}
