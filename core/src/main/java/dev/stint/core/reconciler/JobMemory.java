package dev.stint.core.reconciler;

import dev.stint.core.kueue.KueueLink;
import dev.stint.core.metrics.JobLifecycleMetrics;
import java.time.Clock;

/**
 * What the reconciler of one kind keeps about each job between passes, outside the informer caches, keyed by the
 * job's uid: the last status it wrote ({@link StatusWriter}), a retry in progress ({@link RetryingJobs}), the causes
 * of waiting pods announced ({@link WaitingAnnouncements}), carrier Jobs that lost track of their pod
 * ({@link PodlessCarriers}), the status writes held back ({@link StatusPacing}), the deletions and creations sent
 * that the caches do not show yet ({@link DeletionsInFlight}, {@link CreationsInFlight}) and the jobs read only in
 * part ({@link UnreadableJobs}); and, kept elsewhere but
 * forgotten with the rest, the job's lifecycle metrics and its Kueue state.
 *
 * <p>A job is forgotten in one call ({@link #forget}), when the job cache drops it or a pass finds it gone, so that
 * memory does not grow with deleted jobs; {@link #size} counts what is kept. Each store keeps its own map and its own
 * rules (some are also changed from the informers' threads, such as {@link CreationsInFlight#removed}): they are
 * grouped here behind one owner, not merged.
 */
final class JobMemory {
  private final StatusWriter statuses;
  private final RetryingJobs retrying = new RetryingJobs();
  private final WaitingAnnouncements waiting = new WaitingAnnouncements();
  private final PodlessCarriers podless = new PodlessCarriers();
  private final StatusPacing pacing = new StatusPacing();
  private final DeletionsInFlight deletions = new DeletionsInFlight();
  private final CreationsInFlight creations;
  private final JobLifecycleMetrics lifecycle;
  private final KueueLink<?> kueue;
  private final UnreadableJobs unreadable;

  /**
   * @param statuses the writer of the kind's statuses, which remembers each job's last one
   * @param lifecycle the engine's lifecycle metrics, told when a job is forgotten (they count their jobs themselves)
   * @param kueue the kind's Workloads, told when a job is forgotten
   * @param unreadable the jobs of the kind read only in part, and what was said of them
   */
  JobMemory(Clock clock, StatusWriter statuses, JobLifecycleMetrics lifecycle, KueueLink<?> kueue,
            UnreadableJobs unreadable) {
    this.statuses = statuses;
    this.unreadable = unreadable;
    this.creations = new CreationsInFlight(clock);
    this.lifecycle = lifecycle;
    this.kueue = kueue;
  }

  RetryingJobs retrying() {
    return retrying;
  }

  WaitingAnnouncements waiting() {
    return waiting;
  }

  PodlessCarriers podless() {
    return podless;
  }

  StatusPacing pacing() {
    return pacing;
  }

  DeletionsInFlight deletions() {
    return deletions;
  }

  CreationsInFlight creations() {
    return creations;
  }

  UnreadableJobs unreadable() {
    return unreadable;
  }

  /** The job's uid left the cluster: drops everything kept about it. */
  void forget(String uid) {
    statuses.forget(uid);
    retrying.forget(uid);
    waiting.forget(uid);
    podless.forget(uid);
    pacing.forget(uid);
    deletions.forget(uid);
    creations.forget(uid);
    unreadable.forget(uid);
    lifecycle.forget(uid);
    kueue.jobGone(uid);
  }

  /**
   * Entries kept, one per job in each store that counts its jobs (statuses written, retries, deletions and creations
   * in flight, announcements, podless carriers); the lifecycle metrics count theirs apart, as they serve every kind.
   */
  int size() {
    return statuses.remembered() + retrying.size() + deletions.size() + creations.size() + waiting.size()
        + podless.size() + unreadable.size();
  }
}
