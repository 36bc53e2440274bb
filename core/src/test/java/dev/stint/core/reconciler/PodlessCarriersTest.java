package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodlessCarriersTest {
  private static final Instant T0 = Instant.parse("2026-12-03T00:00:00Z");
  private static final Job LAUNCHER = carrier("pi-launcher", "uid-1");

  @ParameterizedTest(name = "counted for {0} s -> lost track: {1}")
  @CsvSource({"0, false", "15, false", "29, false", "30, true", "300, true"})
  void aJobHasLostTrackOnceItCountedAGonePodForTheBound(long seconds, boolean lost) {
    PodlessCarriers podless = new PodlessCarriers();
    assertThat(podless.lostTrack("job", List.of(LAUNCHER), T0)).isEmpty();

    Set<String> lostTrack = podless.lostTrack("job", List.of(LAUNCHER), T0.plusSeconds(seconds));

    assertThat(lostTrack).isEqualTo(lost ? Set.of("pi-launcher") : Set.of());
  }

  @Test
  void theNextCheckIsWhenTheFirstJobReachesTheBound() {
    PodlessCarriers podless = new PodlessCarriers();
    podless.lostTrack("job", List.of(LAUNCHER), T0);
    Job second = carrier("pi-other", "uid-2");
    podless.lostTrack("job", List.of(LAUNCHER, second), T0.plusSeconds(20));

    assertThat(podless.untilNext("job", T0.plusSeconds(25))).contains(Duration.ofSeconds(5));
    assertThat(podless.untilNext("other-job", T0)).isEmpty();
  }

  @Test
  void aJobThatHasItsPodAgainStartsTheCountAnew() {
    PodlessCarriers podless = new PodlessCarriers();
    podless.lostTrack("job", List.of(LAUNCHER), T0);
    podless.lostTrack("job", List.of(), T0.plusSeconds(20)); // its pod came

    assertThat(podless.lostTrack("job", List.of(LAUNCHER), T0.plusSeconds(40))).as("counted again from 40 s")
        .isEmpty();
    assertThat(podless.lostTrack("job", List.of(LAUNCHER), T0.plusSeconds(70))).containsExactly("pi-launcher");
  }

  @Test
  void aJobThatNoLongerCountsOrIsDeletedIsForgotten() {
    PodlessCarriers podless = new PodlessCarriers();
    podless.lostTrack("a", List.of(LAUNCHER), T0);
    podless.lostTrack("b", List.of(LAUNCHER), T0);
    assertThat(podless.size()).isEqualTo(2);

    podless.lostTrack("a", List.of(), T0.plusSeconds(1));
    podless.forget("b");

    assertThat(podless.size()).isZero();
    assertThat(podless.untilNext("a", T0)).isEmpty();
  }

  private static Job carrier(String name, String uid) {
    return new JobBuilder().withNewMetadata().withName(name).withUid(uid).endMetadata().build();
  }
}
