package dev.stint.core.reconciler;

import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Holds back a status write that would only move replica counts along, for at most {@link #WINDOW} after the change
 * was first seen or the job's last write, so that the pods of one wave coming up or going away make one write instead
 * of one each.
 *
 * <p>Why: every status write of a job costs the API server 4 to 5 ms of CPU (the object's schema, its rules, the
 * merge; docs/benchmarks.md), and a suspension or a resume of a job of four pods wrote three or four counts-only
 * statuses as the pods went or came, against one or two for the Kubeflow operator. The batch Job controller does the
 * same for the same reason (a one-second batch period for pod events).
 *
 * <p>Only a change that nothing waits for is held: every condition, outcome, time, restart and failed field as it
 * was, and no type's {@code active} count lower than written unless as many more of its pods succeeded (a
 * suspension's {@code active} 0 is what Kueue waits for, and a drop without a success may be a failure's first sign).
 * Rising {@code active}, any change of {@code terminating}, and pods that succeeded while the job runs on (workers
 * ending before their master: {@code succeeded} and its indexes rising, {@code active} falling by as many) wait; the
 * write that follows carries the latest counts, and a condition that changes meanwhile goes out at once with them, so
 * the job's {@code Succeeded} does not queue behind a write per worker (at N = 500 each status write waited 0.3 to 0.4
 * s on the API server, and a completion wrote four: docs/benchmarks.md). The change that takes the last active pod
 * away is never held. Fewer pods still going away wait longer ({@link #GOING_WINDOW}): what is waited for is that
 * none is left.
 */
final class StatusPacing {
  static final Duration WINDOW = Duration.ofSeconds(1);
  /**
   * The hold of a change that only says fewer pods are still going away (a suspension's or restart's pods leaving
   * one by one): the count that matters is the last, 0, which goes out a {@link #WINDOW} after the last write. A
   * suspension of a job of four wrote three statuses (suspended, some gone, all gone) against the Kubeflow
   * operator's one, which reports no terminating count (docs/benchmarks.md). Thirty seconds, a pod's default grace
   * period: with five, the pods of 500 suspended jobs, leaving over 20 to 40 s, still made 2.75 writes per job, each a
   * write, a validation and a watch event of the whole job for the API server when it is busiest. A terminating count
   * on its way down may be that old; the last one, every condition and {@code active} are not held by it.
   */
  static final Duration GOING_WINDOW = Duration.ofSeconds(30);

  private final Map<String, Instant> lastWrite = new ConcurrentHashMap<>();
  /**
   * When a counts-only change still unwritten was first held back, per job; cleared by the write. Left behind by a
   * change that undid itself before it was written, it only lets the job's next change out without a hold.
   */
  private final Map<String, Instant> heldSince = new ConcurrentHashMap<>();

  /**
   * How long to hold the write of {@code next} over {@code current}, empty to write it now: a {@link #WINDOW} from
   * when such a change was first seen or from the last write, whichever is later (as the batch Job controller holds
   * each pod event for its batch period, so that the first pod of a wave does not make a write of its own), or a
   * {@link #GOING_WINDOW} from the last write for pods still going away.
   *
   * @param now the pass's time, from the reconciler's clock
   */
  Optional<Duration> hold(String uid, JobStatus current, JobStatus next, Instant now) {
    Instant last = lastWrite.get(uid);
    if (last == null || !onlyCountsMoveOn(current, next)) {
      return Optional.empty();
    }
    boolean going = stillGoing(current, next);
    Duration window = going ? GOING_WINDOW : WINDOW;
    Instant seen = heldSince.computeIfAbsent(uid, k -> now);
    Instant from = going || last.isAfter(seen) ? last : seen;
    Duration since = Duration.between(from, now);
    // a clock set back since the last write holds nothing: the hold is never longer than the window
    return since.isNegative() || since.compareTo(window) >= 0 ? Optional.empty() : Optional.of(window.minus(since));
  }

  /**
   * Whether {@code next} only has fewer pods terminating than {@code current}, some still: no type's {@code active}
   * moved and no {@code terminating} rose. Called on a counts-only change ({@link #onlyCountsMoveOn}).
   */
  static boolean stillGoing(JobStatus current, JobStatus next) {
    int going = 0;
    for (Map.Entry<String, ReplicaStatus> e : next.getReplicaStatuses().entrySet()) {
      ReplicaStatus was = current.getReplicaStatuses().get(e.getKey());
      ReplicaStatus will = e.getValue();
      if (was == null || will == null || will.active() != was.active() || will.terminating() > was.terminating()) {
        return false;
      }
      going += will.terminating();
    }
    return going > 0;
  }

  /** The job's status was written at {@code now}. */
  void written(String uid, Instant now) {
    lastWrite.put(uid, now);
    heldSince.remove(uid);
  }

  void forget(String uid) {
    lastWrite.remove(uid);
    heldSince.remove(uid);
  }

  /**
   * Whether {@code next} differs from {@code current} only in counts that nothing waits for: rising {@code active},
   * any {@code terminating}, pods that succeeded (with {@code active} down by no more than {@code succeeded} rose);
   * every other field equal, and not the change that leaves no pod active. A pure function, table-tested.
   */
  static boolean onlyCountsMoveOn(JobStatus current, JobStatus next) {
    if (current == null || next == null || current.getReplicaStatuses() == null
        || next.getReplicaStatuses() == null
        || !current.getReplicaStatuses().keySet().equals(next.getReplicaStatuses().keySet())) {
      return false;
    }
    JobStatus levelled = next.copy();
    int activeBefore = 0;
    int activeLeft = 0;
    for (Map.Entry<String, ReplicaStatus> e : levelled.getReplicaStatuses().entrySet()) {
      ReplicaStatus was = current.getReplicaStatuses().get(e.getKey());
      ReplicaStatus will = e.getValue();
      if (was == null || will == null || !onlyMovesOn(was, will)) {
        return false;
      }
      activeBefore += was.active();
      activeLeft += will.active();
      will.setActive(was.getActive());
      will.setTerminating(was.getTerminating());
      will.setSucceeded(was.getSucceeded());
      will.setSucceededIndexes(was.getSucceededIndexes());
    }
    boolean lastPodsLeft = activeBefore > 0 && activeLeft == 0;
    return !lastPodsLeft && levelled.equals(current) && !next.equals(current);
  }

  /** Whether a type's counts only move on: succeeded not lower, active not lower than the successes explain. */
  private static boolean onlyMovesOn(ReplicaStatus was, ReplicaStatus will) {
    int succeededMore = will.succeeded() - was.succeeded();
    return succeededMore >= 0 && will.active() >= was.active() - succeededMore;
  }
}
