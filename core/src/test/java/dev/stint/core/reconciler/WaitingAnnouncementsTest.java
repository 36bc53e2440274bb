package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.WaitingCause;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One announcement per distinct cause of waiting pods, not one per pass. */
class WaitingAnnouncementsTest {
  static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
  static final WaitingCause PULL = new WaitingCause("ImagePullBackOff", "Worker 0: ImagePullBackOff: ...");
  static final WaitingCause ERR_PULL = new WaitingCause("ErrImagePull", "Worker 0: ErrImagePull: ...");
  static final WaitingCause LOOP = new WaitingCause("CrashLoopBackOff", "Worker 1: CrashLoopBackOff: back-off 10s");
  final WaitingAnnouncements announcements = new WaitingAnnouncements();

  @Test
  void eachCauseIsAnnouncedOnceWhileItLastsAndAcrossPassesThatAlternate() {
    assertThat(announcements.fresh("j", List.of(ERR_PULL), T0)).containsExactly(ERR_PULL);
    assertThat(announcements.fresh("j", List.of(PULL), T0.plusSeconds(5))).containsExactly(PULL);
    assertThat(announcements.fresh("j", List.of(ERR_PULL), T0.plusSeconds(20))).isEmpty();
    assertThat(announcements.fresh("j", List.of(PULL, LOOP), T0.plusSeconds(40))).containsExactly(LOOP);
  }

  @Test
  void aCauseGoneForTenMinutesIsAnnouncedAgainWhenItComesBack() {
    announcements.fresh("j", List.of(LOOP), T0);
    announcements.fresh("j", List.of(), T0.plusSeconds(30)); // runs for a moment between restarts
    assertThat(announcements.fresh("j", List.of(LOOP), T0.plusSeconds(60))).isEmpty();
    announcements.fresh("j", List.of(), T0.plusSeconds(90));
    assertThat(announcements.size()).isEqualTo(1);
    assertThat(announcements.fresh("j", List.of(), T0.plusSeconds(90 + 600))).isEmpty();
    assertThat(announcements.size()).as("nothing kept for a job whose pods run").isZero();
    assertThat(announcements.fresh("j", List.of(LOOP), T0.plusSeconds(700))).containsExactly(LOOP);
  }

  @Test
  void jobsAreKeptApartAndForgotten() {
    assertThat(announcements.fresh("a", List.of(PULL), T0)).containsExactly(PULL);
    assertThat(announcements.fresh("b", List.of(PULL), T0)).containsExactly(PULL);
    announcements.forget("a");
    assertThat(announcements.size()).isEqualTo(1);
    assertThat(announcements.fresh("c", List.of(), T0)).isEmpty();
    assertThat(announcements.size()).isEqualTo(1);
  }
}
