package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.WaitingCause;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
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
  void aCauseTheStoredConditionShowsIsNotAnnouncedAgainByANewProcess() {
    JobStatus stored = waiting("3 of 8 Workers: ImagePullBackOff: Back-off pulling image \"x\"; "
        + "Master 0: CrashLoopBackOff: back-off 40s");

    assertThat(announcements.fresh("j", List.of(PULL, LOOP), T0, stored)).isEmpty();
    assertThat(announcements.fresh("j", List.of(PULL, LOOP), T0.plusSeconds(5), stored)).isEmpty();
  }

  @Test
  void aCauseTheStoredConditionDoesNotShowIsAnnounced() {
    JobStatus stored = waiting("Worker 0: ImagePullBackOff: Back-off pulling image \"x\"");

    assertThat(announcements.fresh("j", List.of(PULL, LOOP), T0, stored)).containsExactly(LOOP);
  }

  @Test
  void aConditionNoLongerTrueOrAJobThisProcessKnowsAnnouncesAsBefore() {
    JobStatus gone = waiting("Worker 0: ImagePullBackOff: ...");
    gone.getConditions().get(0).setStatus("False");
    assertThat(announcements.fresh("a", List.of(PULL), T0, gone)).containsExactly(PULL);
    assertThat(announcements.fresh("b", List.of(PULL), T0, null)).containsExactly(PULL);

    announcements.fresh("c", List.of(PULL), T0);
    announcements.fresh("c", List.of(), T0.plusSeconds(1));
    announcements.fresh("c", List.of(), T0.plusSeconds(700)); // forgotten: ten minutes gone
    assertThat(announcements.fresh("c", List.of(LOOP), T0.plusSeconds(800), waiting("Worker 1: CrashLoopBackOff")))
        .as("a job that left the memory is new to this process again: the stored condition counts")
        .isEmpty();
  }

  private static JobStatus waiting(String message) {
    JobStatus status = new JobStatus();
    JobCondition condition = new JobCondition();
    condition.setType("PodsWaiting");
    condition.setStatus("True");
    condition.setReason("PyTorchJobImagePullBackOff");
    condition.setMessage(message);
    status.setConditions(new java.util.ArrayList<>(List.of(condition)));
    return status;
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
