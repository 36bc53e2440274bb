package dev.stint.core.reconciler;

import dev.stint.core.decision.Decision;
import dev.stint.core.decision.RetryCondition;
import dev.stint.core.kube.ApiRefusal;
import dev.stint.core.kube.EventRecorder;
import dev.stint.core.metrics.JobLifecycleMetrics;
import dev.stint.core.model.JobEvent;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pass the API server refused for a reason that heals (quota, throttling, server errors, a terminating namespace):
 * retried with capped exponential backoff for as long as it lasts ({@link RetryingJobs}), while the job says so in a
 * {@code ReplicaFailure} condition ({@link RetryCondition}) and one Warning event per distinct cause. An update that
 * met a newer object (a conflict) is retried quietly a few times first. A refusal that comes from the operator
 * stopping is no refusal: it propagates.
 */
final class RefusalRetries<J extends TrainingJob<?>> {
  /** Logged under the reconciler's name, as operators filter it. */
  private static final Logger LOG = LoggerFactory.getLogger(TrainingJobReconciler.class);
  /**
   * Conflicts in a row retried without a word (after 1, 2 and 4 s): a write from a cache a moment behind the API
   * server meets a newer object now and then, and the next pass reads it.
   */
  static final int QUIET_CONFLICTS = 3;

  private final String kind;
  private final Class<J> jobType;
  private final RetryingJobs retrying;
  private final StatusWriter statusWriter;
  private final EventRecorder events;
  private final JobLifecycleMetrics lifecycle;

  RefusalRetries(Class<J> jobType, RetryingJobs retrying, StatusWriter statusWriter, EventRecorder events,
                 JobLifecycleMetrics lifecycle) {
    this.kind = HasMetadata.getKind(jobType);
    this.jobType = jobType;
    this.retrying = retrying;
    this.statusWriter = statusWriter;
    this.events = events;
    this.lifecycle = lifecycle;
  }

  /**
   * The pass of {@code decision} was refused: the job is looked at again after the backoff, its status (when the
   * decision has one) written with the refusal's {@code ReplicaFailure} condition, and the pass's own transitions
   * recorded with it.
   *
   * @throws KubernetesClientException {@code e}, when the operator is stopping: not the API server's refusal
   */
  UpdateControl<J> later(J job, Decision decision, KubernetesClientException e, Instant now) {
    if (stopping(e)) {
      throw e;
    }
    if (jobGone(job, e)) {
      // deleted while the pass ran (its pods and Workload go with it): nothing to retry, nothing to warn of
      LOG.debug("The job is gone: {}", e.getMessage());
      return UpdateControl.noUpdate();
    }
    ApiRefusal refusal = ApiRefusal.of(e);
    RetryingJobs.Attempt attempt = retrying.refused(job.getMetadata().getUid(), refusal);
    lifecycle.retried(kind);
    boolean staleWrite = staleWrite(e);
    if (staleWrite && attempt.attempts() <= QUIET_CONFLICTS) {
      // the object changed since the cache saw it (most often by this operator's own write a moment before): the
      // next pass reads it anew; only a conflict that lasts is worth a Warning and a condition
      LOG.debug("Attempt {} met a newer object ({}), next in {} s", attempt.attempts(), refusal.message(),
          attempt.delay().toSeconds());
      return UpdateControl.<J>noUpdate().rescheduleAfter(attempt.delay());
    }
    String message = "The API server refused a change (" + refusal.cause() + "); retrying until it goes through: "
        + refusal.message();
    if (attempt.newCause() || staleWrite && attempt.attempts() == QUIET_CONFLICTS + 1) {
      events.record(job, JobEvent.warning(kind + refusal.cause(), message)); // logged once, with the event
    } else {
      LOG.debug("Attempt {} refused again ({}), next in {} s", attempt.attempts(), refusal.cause(),
          attempt.delay().toSeconds());
    }
    if (decision.status() != null) {
      JobStatus status = RetryCondition.with(decision.status(), kind, refusal.cause(), message, now);
      if (!status.equals(job.getStatus())) {
        try {
          statusWriter.write(job, status, jobType);
          // the pass's own transitions (Created, ...) are in the status written: their events go with it
          decision.events().forEach(transition -> events.record(job, transition));
        } catch (KubernetesClientException again) {
          LOG.debug("Status not written either: {}", ApiRefusal.of(again).message());
        }
      }
    }
    return UpdateControl.<J>noUpdate().rescheduleAfter(attempt.delay());
  }

  /** The job's pass went through: it retries no more. */
  void wentThrough(String uid) {
    if (retrying.recovered(uid)) {
      LOG.info("The API server accepts the job's changes again");
    }
  }

  /** An update refused because the object changed since it was read (HTTP 409, reason Conflict). */
  private static boolean staleWrite(KubernetesClientException e) {
    return e.getCode() == 409 && e.getStatus() != null && "Conflict".equals(e.getStatus().getReason());
  }

  /** The refusal is the API server's NotFound for the job itself (its status write, its labels). */
  private boolean jobGone(J job, KubernetesClientException e) {
    var details = e.getCode() == 404 && e.getStatus() != null ? e.getStatus().getDetails() : null;
    return details != null && job.getMetadata().getName().equals(details.getName())
        && (HasMetadata.getPlural(jobType).equals(details.getKind()) || kind.equals(details.getKind()));
  }

  private static boolean stopping(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof InterruptedException) {
        return true;
      }
    }
    return Thread.currentThread().isInterrupted();
  }
}
