package dev.stint.core.decision;

import static dev.stint.core.decision.GangRestartTest.at;
import static dev.stint.core.decision.GangRestartTest.job;
import static dev.stint.core.decision.GangRestartTest.policy;
import static dev.stint.core.decision.JobDeciderTest.NOW;
import static dev.stint.core.decision.JobDeciderTest.actions;
import static dev.stint.core.decision.JobDeciderTest.decide;
import static dev.stint.core.decision.JobDeciderTest.runningStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.model.Action;
import dev.stint.testdoubles.TestJob;
import dev.stint.core.testing.TestPods;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The wait between quick gang restarts: a job whose pods fail as soon as they start restarts its gang about ten times
 * an hour (10 s doubling to 6 minutes, as a batch Job's pod backoff), not once a second.
 */
class GangRestartBackoffTest {

  /** Attempt {@code restarts}, restarted {@code secondsAgo} (its Restarting condition), after {@code quick} quick ones. */
  static JobStatus restartedAgo(int restarts, int quick, long secondsAgo) {
    JobStatus s = new JobStatus();
    s.setStartTime(NOW.minusSeconds(3600).toString());
    s.setRestarts(restarts);
    s.setQuickRestarts(quick);
    s.setConditions(new ArrayList<>(List.of(
        new JobCondition("Created", "True", "TestJobCreated", "TestJob j is created.", "2026-11-29T11:00:00Z"),
        new JobCondition("Restarting", "True", "TestJobMemberFailed", "TestJob j is restarting every pod.",
            NOW.minusSeconds(secondsAgo).toString()))));
    return s;
  }

  @ParameterizedTest(name = "{0} quick restarts: {1} s")
  @CsvSource({"0, 0", "1, 0", "2, 10", "3, 20", "4, 40", "7, 320", "8, 360", "40, 360"})
  void theWaitDoublesFromTheSecondQuickRestartUpToSixMinutes(int quick, long seconds) {
    assertThat(GangRestart.backoff(quick)).isEqualTo(Duration.ofSeconds(seconds));
  }

  @Test
  void anAttemptThatFailedSoonAfterItsRestartMakesTheNextWaitAndSaysUntilWhen() {
    TestJob job = job(policy(100, null), restartedAgo(1, 1, 3));
    Decision d = decide(job, List.of(at(1, TestPods.of(job, "Worker", 0).running()),
        at(1, TestPods.of(job, "Worker", 1).failed(1)), at(1, TestPods.of(job, "Worker", 2).running())));

    assertThat(d.status().getRestarts()).isEqualTo(2);
    assertThat(d.status().getQuickRestarts()).isEqualTo(2);
    assertThat(d.status().condition("Restarting").orElseThrow().getMessage()).endsWith(
        " Its new pods start in 10 s, at 2026-11-29T12:00:10Z: restart 2 in a row of an attempt that lasted less "
            + "than 10 minutes.");
  }

  @Test
  void noPodOfTheNewAttemptIsMadeBeforeItsWaitEndsAndThenAll() {
    TestJob waiting = job(policy(100, null), restartedAgo(2, 3, 15));
    Decision held = decide(waiting, List.of());
    assertThat(actions(held, Action.CreatePod.class)).isEmpty();
    assertThat(held.requeueAfter()).contains(Duration.ofSeconds(5));

    TestJob due = job(policy(100, null), restartedAgo(2, 3, 20));
    assertThat(actions(decide(due, List.of()), Action.CreatePod.class)).hasSize(3);
  }

  @Test
  void anAttemptThatRanLongerThanTenMinutesStartsTheCountAgainAndRestartsAtOnce() {
    JobStatus status = runningStatus(); // Running since an hour
    status.setRestarts(4);
    status.setQuickRestarts(6);
    TestJob job = job(policy(100, null), status);
    Decision d = decide(job, List.of(at(4, TestPods.of(job, "Worker", 0).running()),
        at(4, TestPods.of(job, "Worker", 1).failed(1)), at(4, TestPods.of(job, "Worker", 2).running())));

    assertThat(d.status().getQuickRestarts()).isEqualTo(1);
    assertThat(d.status().condition("Restarting").orElseThrow().getMessage()).doesNotContain("new pods start in");
    TestJob next = job(policy(100, null), d.status());
    assertThat(actions(decide(next, List.of()), Action.CreatePod.class)).as("no wait").hasSize(3);
  }

  @Test
  void aDisruptionNeitherWaitsNorCounts() {
    TestJob job = job(policy(100, null), restartedAgo(1, 3, 3));
    Decision d = decide(job, List.of(at(1, TestPods.of(job, "Worker", 0).running()),
        at(1, GangRestartTest.disrupted(TestPods.of(job, "Worker", 1).failed(137), "PreemptionByScheduler")),
        at(1, TestPods.of(job, "Worker", 2).running())));

    assertThat(d.status().getRestarts()).isEqualTo(2);
    assertThat(d.status().getQuickRestarts()).isEqualTo(3);
    assertThat(d.status().condition("Restarting").orElseThrow().getReason()).isEqualTo("TestJobMemberDisrupted");
    assertThat(actions(decide(job(policy(100, null), d.status()), List.of()), Action.CreatePod.class)).hasSize(3);
  }
}
