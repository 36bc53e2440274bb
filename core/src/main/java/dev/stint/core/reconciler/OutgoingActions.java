package dev.stint.core.reconciler;

import dev.stint.core.decision.CarrierJobs;
import dev.stint.core.decision.Observed;
import dev.stint.core.heap.HeapGuard;
import dev.stint.core.kube.ActionApplier;
import dev.stint.core.model.Action;
import dev.stint.spi.api.JobStatus;
import java.time.Duration;
import java.util.List;

/**
 * Which of a decision's actions a pass sends, and when: the decision's actions with the carrier Jobs to replace
 * ({@link PodlessCarriers}), less the deletions and creations still in flight ({@link DeletionsInFlight},
 * {@link CreationsInFlight}), less the creations of a job that never had pods while the heap is short
 * ({@link HeapGuard#admitsNewJobs}); split into those sent before the status (pods, new children) and after it
 * (removals, the job's own deletion).
 */
final class OutgoingActions {
  private final JobMemory memory;
  private final HeapGuard heap;

  OutgoingActions(JobMemory memory, HeapGuard heap) {
    this.memory = memory;
    this.heap = heap;
  }

  /**
   * The actions of one pass.
   *
   * @param beforeStatus sent before the status (and remembered as in flight once sent, {@link #sent})
   * @param afterStatus sent after the status
   * @param accepted whether the API server accepted the job's pods before (some are there, a gang restart replaced
   *     them all, or the job ran before it was suspended): its creations skip the slow start
   * @param heldBack when to look again for creations held back, if some were
   */
  record Selected(List<Action> beforeStatus, List<Action> afterStatus, boolean accepted, Duration heldBack) { }

  /** The actions {@code pass} sends of {@code decided}, the decision's, whose status is {@code status}. */
  Selected select(Pass<?> pass, List<Action> decided, JobStatus status) {
    String uid = pass.uid();
    Observed observed = pass.observed();
    List<Action> actions = CarrierJobs.withCarriers(decided, observed,
        memory.podless().lostTrack(uid, CarrierJobs.countingAGonePod(observed), pass.now()));
    List<Action> notInFlight = memory.deletions().unsent(uid, ActionApplier.beforeStatus(actions), observed.pods());
    List<Action> unsent = memory.creations().unsent(uid, notInFlight, observed);
    // the API server accepted this job's pods before when some are there, or when a gang restart replaced them all
    boolean accepted = !observed.pods().isEmpty() || status.getRestarts() != null && status.getRestarts() > 0;
    // a short heap holds back jobs that never had pods; those that have some get the rest, so none is left half up
    boolean heldForHeap = !accepted && ActionApplier.createsChildren(unsent) && !heap.admitsNewJobs();
    List<Action> before = heldForHeap ? ActionApplier.withoutCreations(unsent) : unsent;
    // a creation held back, its child not in the cache yet: normally the child's arrival wakes the job first
    Duration heldBack = heldForHeap ? HeapGuard.RETRY
        : before.size() < notInFlight.size() ? CreationsInFlight.EXPIRY.plusSeconds(1) : null;
    // a job that ran before (resumed) had its pods accepted too
    boolean ranBefore = accepted || status.condition("Running").isPresent();
    return new Selected(before, ActionApplier.afterStatus(actions), ranBefore, heldBack);
  }

  /** Remembers the deletions and creations among the actions sent before the status, which went through. */
  void sent(Pass<?> pass, Selected selected) {
    memory.deletions().sent(pass.uid(), selected.beforeStatus(), pass.observed().pods());
    memory.creations().sent(pass.uid(), selected.beforeStatus());
  }

  /** When to look again for a carrier Job that counts a gone pod: it sends no event when its bound passes. */
  Duration carrierCheck(Pass<?> pass) {
    return memory.podless().untilNext(pass.uid(), pass.now()).map(d -> d.plusMillis(500)).orElse(null);
  }
}
