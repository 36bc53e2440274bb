package dev.stint.core.decision;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobEvent;
import dev.stint.spi.api.JobStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The result of deciding about one job: what to change, the status to write, the events to record and when to look
 * again even if nothing else happens.
 *
 * @param actions changes to make, in order
 * @param status the next status; null means "do not write status" (an externally managed job)
 * @param events events to record on the job
 * @param requeueAfter when to reconcile again at the latest (deadline, TTL)
 * @param waiting why some of the job's pods cannot run, one entry per cause (empty when none waits): the reconciler
 *     announces each new cause once
 */
public record Decision(List<Action> actions, JobStatus status, List<JobEvent> events,
                       Optional<Duration> requeueAfter, List<WaitingCause> waiting) {

  public Decision {
    waiting = waiting == null ? List.of() : List.copyOf(waiting);
  }

  /** A decision with no pod waiting. */
  public Decision(List<Action> actions, JobStatus status, List<JobEvent> events, Optional<Duration> requeueAfter) {
    this(actions, status, events, requeueAfter, List.of());
  }

  /** A decision that changes nothing and writes nothing. */
  public static Decision none() {
    return new Decision(List.of(), null, List.of(), Optional.empty());
  }
}
