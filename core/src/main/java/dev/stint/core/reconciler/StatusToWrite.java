package dev.stint.core.reconciler;

import dev.stint.core.decision.Decision;
import dev.stint.core.decision.RetryCondition;
import dev.stint.core.kube.ActionApplier;
import dev.stint.core.model.Action;
import dev.stint.spi.api.JobStatus;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether and when a pass writes the status it decided: now, held back by {@link StatusPacing} (a change that only
 * moves replica counts along), or not at all (unchanged, or the job is being deleted); and if now, before or after
 * the pass's children.
 *
 * <p>Children go first, then the status, then removals: the status reports on the pods (a suspension's
 * {@code active: 0} is what Kueue waits for), and need not wait for services or supporting objects to go. A new job
 * whose pods take more than one wave says it exists first, before they go out (a large job's take many waves and
 * passes).
 *
 * @param status the status decided, without a {@code ReplicaFailure} condition of an earlier refusal
 * @param write whether it is written in this pass
 * @param first whether it is written before the pass's children
 * @param held how long the write is held back, when it is
 */
record StatusToWrite(JobStatus status, boolean write, boolean first, Optional<Duration> held) {

  /** The write of the status {@code decision} holds for {@code pass}'s job (which has one). */
  static StatusToWrite of(Pass<?> pass, Decision decision, StatusPacing pacing) {
    JobStatus current = pass.job().getStatus();
    boolean deleted = decision.actions().stream().anyMatch(a -> a instanceof Action.DeleteJob);
    JobStatus status = RetryCondition.cleared(decision.status());
    boolean changed = !deleted && !Objects.equals(status, current);
    Optional<Duration> held = changed ? pacing.hold(pass.uid(), current, status, pass.now()) : Optional.empty();
    boolean write = changed && held.isEmpty();
    boolean first = write && (current == null || current.condition("Created").isEmpty())
        && decision.actions().stream().filter(a -> a instanceof Action.CreatePod).count() > ActionApplier.MAX_WAVE;
    return new StatusToWrite(status, write, first, held);
  }

  /** Whether it is written after the pass's children. */
  boolean afterChildren() {
    return write && !first;
  }

  /** When to look again for a held write, just after its hold ends. */
  Duration recheck() {
    return held.map(d -> d.plusMillis(50)).orElse(null);
  }
}
