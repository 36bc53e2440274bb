package dev.stint.core.reconciler;

import dev.stint.core.decision.Decision;
import dev.stint.core.kueue.KueueLink;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Duration;

/**
 * When to look at a job again though no event comes: the decision's own time (a deadline, a TTL), a prebuilt
 * Workload not adopted yet or a WorkloadPriorityClass that does not exist yet, and the pass's holds (a creation or a status write held back, a carrier Job's bound),
 * whichever comes first.
 */
final class NextPass {
  /**
   * The informer sees a prebuilt Workload once adopted, and a WorkloadPriorityClass appears, without an event on the
   * job.
   */
  static final Duration AWAITED_OBJECT_RETRY = Duration.ofSeconds(5);

  private NextPass() { }

  /** The control of a pass that went through; a null hold is none. */
  static <J extends HasMetadata> UpdateControl<J> after(Decision decision, KueueLink.Followed queueing,
                                                        Duration... holds) {
    Duration held = null;
    for (Duration hold : holds) {
      held = earliest(held, hold);
    }
    UpdateControl<J> control = UpdateControl.noUpdate();
    if (decision.requeueAfter().isPresent()) {
      control.rescheduleAfter(earliest(held, decision.requeueAfter().get().plusMillis(500)));
    } else if (queueing.awaitsWithoutEvent()) {
      control.rescheduleAfter(earliest(held, AWAITED_OBJECT_RETRY));
    } else if (held != null) {
      control.rescheduleAfter(held);
    }
    return control;
  }

  static Duration earliest(Duration a, Duration b) {
    return a == null ? b : b == null || a.compareTo(b) <= 0 ? a : b;
  }
}
