package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StatusPacingTest {
  private static final Instant T0 = Instant.parse("2026-12-03T00:00:00Z");

  /** A running job of a Master and 3 Workers: 1 and 2 active, 1 Worker terminating. */
  private static JobStatus written() {
    JobStatus s = new JobStatus();
    JobCondition running = new JobCondition();
    running.setType("Running");
    running.setStatus("True");
    s.setConditions(new ArrayList<>(List.of(running)));
    s.setReplicaStatuses(new LinkedHashMap<>());
    s.getReplicaStatuses().put("Master", replica(1, 0));
    s.getReplicaStatuses().put("Worker", replica(2, 1));
    return s;
  }

  private static ReplicaStatus replica(int active, int terminating) {
    ReplicaStatus r = new ReplicaStatus();
    r.setActive(active);
    r.setTerminating(terminating);
    return r;
  }

  private static JobStatus with(Consumer<JobStatus> change) {
    JobStatus s = written();
    change.accept(s);
    return s;
  }

  private static void succeeded(ReplicaStatus r, int active, int succeeded, String indexes) {
    r.setActive(active);
    r.setSucceeded(succeeded);
    r.setSucceededIndexes(indexes);
  }

  private static ReplicaStatus worker(JobStatus s) {
    return s.getReplicaStatuses().get("Worker");
  }

  @ParameterizedTest(name = "{0}: held {1}")
  @CsvSource({
      "Worker active 2 -> 3, true",
      "Worker terminating 1 -> 0, true",
      "Worker terminating 1 -> 3, true",
      "Worker active 2 -> 1, false",
      "Worker succeeded 0 -> 1, true",
      "Worker active 2 -> 1 and succeeded 0 -> 1 (index 1), true",
      "Worker active 2 -> 0 and succeeded 0 -> 2 (indexes 0-1), true",
      "Worker active 2 -> 0 and succeeded 0 -> 1, false",
      "every pod active succeeded, false",
      "Worker failed 0 -> 1, false",
      "a new condition, false",
      "restarts 0 -> 1, false",
      "a replica type more, false",
      "nothing, false",
  })
  void onlyCountsThatNothingWaitsForAreHeld(String change, boolean held) {
    JobStatus next = switch (change) {
      case "Worker active 2 -> 3" -> with(s -> worker(s).setActive(3));
      case "Worker terminating 1 -> 0" -> with(s -> worker(s).setTerminating(0));
      case "Worker terminating 1 -> 3" -> with(s -> worker(s).setTerminating(3));
      case "Worker active 2 -> 1" -> with(s -> worker(s).setActive(1));
      case "Worker succeeded 0 -> 1" -> with(s -> worker(s).setSucceeded(1));
      case "Worker active 2 -> 1 and succeeded 0 -> 1 (index 1)" -> with(s -> succeeded(worker(s), 1, 1, "1"));
      case "Worker active 2 -> 0 and succeeded 0 -> 2 (indexes 0-1)" -> with(s -> succeeded(worker(s), 0, 2, "0-1"));
      case "Worker active 2 -> 0 and succeeded 0 -> 1" -> with(s -> succeeded(worker(s), 0, 1, "1"));
      case "every pod active succeeded" -> with(s -> {
        succeeded(worker(s), 0, 2, "0-1");
        succeeded(s.getReplicaStatuses().get("Master"), 0, 1, "0");
      });
      case "Worker failed 0 -> 1" -> with(s -> worker(s).setFailed(1));
      case "a new condition" -> with(s -> {
        JobCondition c = new JobCondition();
        c.setType("Suspended");
        c.setStatus("True");
        s.getConditions().add(c);
        worker(s).setTerminating(3);
      });
      case "restarts 0 -> 1" -> with(s -> {
        s.setRestarts(1);
        worker(s).setActive(3);
      });
      case "a replica type more" -> with(s -> s.getReplicaStatuses().put("Chief", replica(1, 0)));
      default -> written();
    };
    assertThat(StatusPacing.onlyCountsMoveOn(written(), next)).isEqualTo(held);
  }

  @Test
  void fewerSucceededIsNeverHeld() {
    JobStatus current = with(s -> succeeded(worker(s), 1, 1, "1"));
    JobStatus next = with(s -> succeeded(worker(s), 2, 0, null)); // a restart of the gang starts the counts again
    assertThat(StatusPacing.onlyCountsMoveOn(current, next)).isFalse();
  }

  @Test
  void aSuspensionsPodsLeavingAreHeldThoughNoneIsActive() {
    JobStatus current = with(s -> {
      s.getReplicaStatuses().put("Master", replica(0, 1));
      s.getReplicaStatuses().put("Worker", replica(0, 3));
    });
    JobStatus next = with(s -> {
      s.getReplicaStatuses().put("Master", replica(0, 1));
      s.getReplicaStatuses().put("Worker", replica(0, 1));
    });
    assertThat(StatusPacing.onlyCountsMoveOn(current, next)).isTrue();
  }

  @Test
  void aFirstStatusOrANullOneIsNeverHeld() {
    assertThat(StatusPacing.onlyCountsMoveOn(null, written())).isFalse();
    assertThat(StatusPacing.onlyCountsMoveOn(new JobStatus(), written())).isFalse();
  }

  @ParameterizedTest(name = "first seen {0} ms after the last write: held for {1} ms")
  @CsvSource({"0, 1000", "300, 1000", "999, 1000", "5000, 1000", "-60000, -1"})
  void aCountsOnlyChangeWaitsASecondFromWhenItWasFirstSeen(long sinceMillis, long heldMillis) {
    StatusPacing pacing = new StatusPacing();
    pacing.written("job", T0);
    JobStatus next = with(s -> worker(s).setActive(3));

    var hold = pacing.hold("job", written(), next, T0.plusMillis(sinceMillis));

    assertThat(hold).isEqualTo(heldMillis < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(heldMillis)));
  }

  @Test
  void laterPassesHoldTheSameChangeOnlyUntilASecondAfterItWasFirstSeen() {
    StatusPacing pacing = new StatusPacing();
    pacing.written("job", T0);
    JobStatus one = with(s -> worker(s).setActive(3));
    JobStatus two = with(s -> succeeded(worker(s), 1, 1, "1"));

    assertThat(pacing.hold("job", written(), one, T0.plusSeconds(30))).contains(Duration.ofSeconds(1));
    // the next pod's change joins the one held: it waits for the same write
    assertThat(pacing.hold("job", written(), two, T0.plusSeconds(30).plusMillis(700)))
        .contains(Duration.ofMillis(300));
    assertThat(pacing.hold("job", written(), two, T0.plusSeconds(31))).isEmpty();

    pacing.written("job", T0.plusSeconds(31));
    assertThat(pacing.hold("job", two, with(s -> succeeded(worker(s), 0, 2, "0-1")), T0.plusSeconds(40)))
        .as("a write ends the hold; the next change starts its own")
        .contains(Duration.ofSeconds(1));
  }

  /**
   * Fewer pods still going away wait thirty seconds from the last write; any other change of the counts a second from
   * when it was first seen (here half a second after the last write).
   */
  @ParameterizedTest(name = "Worker terminating 3 -> {0}, active {1}: held {2} ms, out at {3} ms")
  @CsvSource({"2, 2, 29500, 30000", "1, 2, 29500, 30000", "0, 2, 1000, 1500", "4, 2, 1000, 1500", "2, 3, 1000, 1500"})
  void fewerPodsStillGoingAwayWaitLongerThanTheirLastLeaving(int terminating, int active, long heldMillis,
                                                             long outAtMillis) {
    StatusPacing pacing = new StatusPacing();
    pacing.written("job", T0);
    JobStatus current = with(s -> worker(s).setTerminating(3));
    JobStatus next = with(s -> {
      worker(s).setTerminating(terminating);
      worker(s).setActive(active);
    });

    assertThat(pacing.hold("job", current, next, T0.plusMillis(500))).contains(Duration.ofMillis(heldMillis));
    assertThat(pacing.hold("job", current, next, T0.plusMillis(outAtMillis))).isEmpty();
  }

  @Test
  void withoutAWriteOnRecordTheStatusGoesOutAtOnce() {
    StatusPacing pacing = new StatusPacing();
    JobStatus next = with(s -> worker(s).setActive(3));
    assertThat(pacing.hold("job", written(), next, T0)).isEmpty();
    pacing.written("job", T0);
    pacing.forget("job");
    assertThat(pacing.hold("job", written(), next, T0)).isEmpty();
  }
}
