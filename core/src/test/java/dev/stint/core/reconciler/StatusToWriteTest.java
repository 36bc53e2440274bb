package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.Decision;
import dev.stint.core.decision.KueueGate;
import dev.stint.core.decision.Observed;
import dev.stint.core.kube.ActionApplier;
import dev.stint.core.kueue.KueueLink;
import dev.stint.core.model.Action;
import dev.stint.core.testing.TestJobs;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import dev.stint.testdoubles.TestJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** When a pass writes its status: before its children, after them, held back, or not at all. */
class StatusToWriteTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private final StatusPacing pacing = new StatusPacing();

  @Test
  void aNewJobWhosePodsTakeMoreThanOneWaveSaysItExistsFirst() {
    StatusToWrite write = StatusToWrite.of(pass(null), decision(created(), pods(ActionApplier.MAX_WAVE + 1)), pacing);
    assertThat(write.write()).isTrue();
    assertThat(write.first()).isTrue();
    assertThat(write.afterChildren()).isFalse();
  }

  @Test
  void aNewJobWhosePodsFitOneWaveIsWrittenAfterThem() {
    StatusToWrite write = StatusToWrite.of(pass(null), decision(created(), pods(ActionApplier.MAX_WAVE)), pacing);
    assertThat(write.first()).isFalse();
    assertThat(write.afterChildren()).isTrue();
  }

  @Test
  void aJobCreatedBeforeIsWrittenAfterItsPodsHoweverMany() {
    JobStatus next = created();
    next.setStartTime("2026-01-01T00:00:00Z");
    StatusToWrite write = StatusToWrite.of(pass(created()), decision(next, pods(500)), pacing);
    assertThat(write.first()).isFalse();
    assertThat(write.afterChildren()).isTrue();
  }

  @Test
  void anUnchangedStatusOrAJobDeletedInThePassIsNotWritten() {
    assertThat(StatusToWrite.of(pass(created()), decision(created(), List.of()), pacing).write()).isFalse();
    StatusToWrite deleted = StatusToWrite.of(pass(null), decision(created(), List.of(new Action.DeleteJob())), pacing);
    assertThat(deleted.write()).isFalse();
    assertThat(deleted.afterChildren()).isFalse();
  }

  @Test
  void aCountsOnlyChangeSoonAfterAWriteIsHeldAndLookedAtAgainJustAfter() {
    pacing.written("uid-j", NOW);
    StatusToWrite write = StatusToWrite.of(pass(active(1)), decision(active(2), List.of()), pacing);
    assertThat(write.write()).isFalse();
    assertThat(write.held()).contains(StatusPacing.WINDOW);
    assertThat(write.recheck()).isEqualTo(StatusPacing.WINDOW.plusMillis(50));
  }

  @Test
  void aWriteNotHeldNeedsNoRecheck() {
    assertThat(StatusToWrite.of(pass(null), decision(created(), List.of()), pacing).recheck()).isNull();
  }

  private static Pass<TestJob> pass(JobStatus current) {
    TestJob job = TestJobs.job("j").workers(2).status(current).build();
    return new Pass<>(job, new Observed(List.of(), List.of(), List.of(), List.of()),
        new KueueLink.Followed(false, null, KueueGate.NOT_QUEUED, false, null), NOW);
  }

  private static Decision decision(JobStatus status, List<Action> actions) {
    return new Decision(actions, status, List.of(), Optional.empty());
  }

  private static List<Action> pods(int count) {
    return new ArrayList<>(IntStream.range(0, count)
        .mapToObj(i -> (Action) new Action.CreatePod("j-worker-" + i, () -> null, false)).toList());
  }

  private static JobStatus created() {
    JobStatus status = new JobStatus();
    status.setConditions(new ArrayList<>(List.of(
        new JobCondition("Created", "True", "TestJobCreated", "created", "2026-01-01T00:00:00Z"))));
    return status;
  }

  private static JobStatus active(int active) {
    JobStatus status = created();
    ReplicaStatus worker = new ReplicaStatus();
    worker.setActive(active);
    status.setReplicaStatuses(Map.of("Worker", worker));
    return status;
  }
}
