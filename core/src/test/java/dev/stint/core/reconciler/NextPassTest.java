package dev.stint.core.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.core.decision.Decision;
import dev.stint.core.decision.KueueGate;
import dev.stint.core.kueue.KueueLink;
import dev.stint.testdoubles.TestJob;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When JOSDK is asked to look at a job again: the earliest of the decision's time and the pass's holds. */
class NextPassTest {
  private static final KueueLink.Followed NOT_QUEUED =
      new KueueLink.Followed(false, null, KueueGate.NOT_QUEUED, false, null);
  private static final KueueLink.Followed PREBUILT =
      new KueueLink.Followed(true, null, KueueGate.NOT_QUEUED, false, "prebuilt");

  @Test
  void nothingToWaitForAsksNoReschedule() {
    assertThat(NextPass.<TestJob>after(Decision.none(), NOT_QUEUED, null, null).getScheduleDelay()).isEmpty();
  }

  @Test
  void theEarliestHoldWins() {
    UpdateControl<TestJob> control = NextPass.after(Decision.none(), NOT_QUEUED, Duration.ofSeconds(31), null,
        Duration.ofMillis(1050));
    assertThat(control.getScheduleDelay()).contains(1050L);
  }

  @Test
  void theDecisionsTimeComesHalfASecondLateUnlessAHoldIsEarlier() {
    Decision deadline = new Decision(List.of(), null, List.of(), Optional.of(Duration.ofSeconds(10)));
    assertThat(NextPass.<TestJob>after(deadline, NOT_QUEUED).getScheduleDelay()).contains(10_500L);
    assertThat(NextPass.<TestJob>after(deadline, NOT_QUEUED, Duration.ofSeconds(5)).getScheduleDelay())
        .contains(5_000L);
  }

  @Test
  void aPrebuiltWorkloadNotAdoptedYetIsLookedForAgain() {
    assertThat(NextPass.<TestJob>after(Decision.none(), PREBUILT).getScheduleDelay())
        .contains(NextPass.AWAITED_OBJECT_RETRY.toMillis());
    assertThat(NextPass.<TestJob>after(Decision.none(), PREBUILT, Duration.ofSeconds(1)).getScheduleDelay())
        .contains(1_000L);
  }
}
