package dev.stint.core.decision;

import dev.stint.spi.api.JobStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The {@code ReplicaFailure} condition of a job whose children the API server keeps refusing for a reason that heals:
 * {@code True}, reason {@code <Kind><cause>} ({@code PyTorchJobQuotaExceeded}), the API server's words as the
 * message. Set while the operator retries; removed on the first pass that goes through.
 */
public final class RetryCondition {

  private RetryCondition() { }

  /** The status with the condition set; a finished job's status is returned unchanged. */
  public static JobStatus with(JobStatus status, String kind, String cause, String message, Instant now) {
    JobStatus next = status == null ? new JobStatus() : status.copy();
    if (!Conditions.isFinished(next)) {
      Conditions.set(next, ConditionType.ReplicaFailure, true, kind + cause, message,
          now.truncatedTo(ChronoUnit.SECONDS).toString());
    }
    return next;
  }

  /** The status without the condition (the same object when it had none). */
  public static JobStatus cleared(JobStatus status) {
    if (status == null || status.condition(ConditionType.ReplicaFailure.name()).isEmpty()) {
      return status;
    }
    JobStatus next = status.copy();
    Conditions.remove(next, ConditionType.ReplicaFailure);
    return next;
  }
}
