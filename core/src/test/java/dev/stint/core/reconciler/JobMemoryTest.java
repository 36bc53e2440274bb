package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.WaitingCause;
import dev.stint.core.kube.ApiRefusal;
import dev.stint.core.kueue.KueueLink;
import dev.stint.core.metrics.JobLifecycleMetrics;
import dev.stint.core.metrics.StintMetrics;
import dev.stint.core.testing.TestFramework;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the reconciler keeps about a job is counted in one number and dropped in one call. */
class JobMemoryTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
  private final JobMemory memory = new JobMemory(clock, new StatusWriter(null, false, "stint"),
      new JobLifecycleMetrics(new StintMetrics(), clock), KueueLink.off(new TestFramework()),
      new UnreadableJobs("TestJob", null));

  @Test
  void forgettingAJobDropsWhatEveryStoreKeepsAboutIt() {
    remember("a");
    remember("b");
    assertThat(memory.size()).as("retrying, waiting and podless, per job").isEqualTo(6);

    memory.forget("a");

    assertThat(memory.size()).isEqualTo(3);
    assertThat(memory.retrying().recovered("a")).as("no retry left").isFalse();
    assertThat(memory.podless().untilNext("a", NOW)).isEmpty();
    assertThat(memory.pacing().hold("a", counts(1), counts(2), NOW)).as("no last write left to pace from").isEmpty();
    assertThat(memory.pacing().hold("b", counts(1), counts(2), NOW)).isPresent();

    memory.forget("b");
    assertThat(memory.size()).isZero();
  }

  private void remember(String uid) {
    memory.retrying().refused(uid, new ApiRefusal(false, "QuotaExceeded", "exceeded quota"));
    memory.waiting().fresh(uid, List.of(new WaitingCause("ImagePullBackOff", "Worker 0: ...")), NOW);
    memory.podless().lostTrack(uid, List.of(carrier(uid)), NOW);
    memory.pacing().written(uid, NOW);
  }

  private static Job carrier(String uid) {
    return new JobBuilder().withNewMetadata().withName("launcher-" + uid).withUid("job-" + uid).endMetadata().build();
  }

  private static JobStatus counts(int active) {
    JobStatus status = new JobStatus();
    ReplicaStatus worker = new ReplicaStatus();
    worker.setActive(active);
    status.setReplicaStatuses(Map.of("Worker", worker));
    return status;
  }
}
