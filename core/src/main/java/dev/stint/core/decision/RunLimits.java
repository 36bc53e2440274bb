package dev.stint.core.decision;

import dev.stint.spi.TrainingJob;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code activeDeadlineSeconds} and {@code backoffLimit}. The deadline fires on time: the decision asks to be called
 * again at {@code startTime + activeDeadlineSeconds} (upstream waits for an unrelated event).
 */
final class RunLimits {

  private RunLimits() { }

  /**
   * {@code seconds} after {@code from}, or the end of time when that is past it: a limit of any size the CRD accepts
   * (up to 2^63 - 1 seconds) is a time that never comes, not an exception on every pass.
   */
  static Instant after(Instant from, long seconds) {
    return seconds >= Duration.between(from, Instant.MAX).getSeconds() ? Instant.MAX : from.plusSeconds(seconds);
  }

  /** The deadline message when the job has run past it, else empty (and a requeue at the deadline). */
  static <J extends TrainingJob<?>> Optional<String> pastDeadline(DecisionBuilder<J> out) {
    JobContext<J> ctx = out.ctx();
    Long seconds = ctx.runPolicy().getActiveDeadlineSeconds();
    String start = out.status().getStartTime();
    if (seconds == null || start == null) {
      return Optional.empty();
    }
    Instant deadline = after(Instant.parse(start), seconds);
    if (!ctx.now().isBefore(deadline)) {
      // upstream's words, then the field, which upstream's message does not name
      return Optional.of("Job " + ctx.name() + " has failed because it was active longer than specified deadline"
          + " (spec.runPolicy.activeDeadlineSeconds: " + seconds + ")");
    }
    out.requeueAfter(Duration.between(ctx.now(), deadline));
    return Optional.empty();
  }

  /**
   * Whether retries are used up: a failed pod needed a restart beyond {@code backoffLimit} (pod recreations count,
   * unlike upstream), or the kubelet's container restarts in running pods reached it (upstream's rule).
   */
  static <J extends TrainingJob<?>> Optional<String> pastBackoffLimit(JobContext<J> ctx, ReplicaTally tally) {
    Integer limit = ctx.runPolicy().getBackoffLimit();
    if (limit == null) {
      return Optional.empty();
    }
    boolean restartsExceeded = limit == 0 ? tally.containerRestarts > 0 : tally.containerRestarts >= limit;
    if (tally.backoffExceeded || restartsExceeded) {
      return Optional.of("Job " + ctx.name() + " has failed because it has reached the specified backoff limit");
    }
    return Optional.empty();
  }
}
