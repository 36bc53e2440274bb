package dev.stint.core.metrics;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.micrometer.core.instrument.Counter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Turns each job's status transitions into metrics: outcomes, and the latencies of suspension (request → no active
 * replica, request → no pod left) and of resumption (request → every replica running). "Request" is when the
 * operator first acts on the new {@code suspend} value; the gap before that is the watch delay, which the API server
 * measures itself.
 */
public final class JobLifecycleMetrics {
  // Micrometer names; Prometheus shows them with underscores, counters with "_total" and timers with "_seconds"
  /** {@code stint_suspend_to_inactive_seconds}: a histogram. */
  public static final String SUSPEND_TO_INACTIVE = "stint.suspend.to.inactive";
  /** {@code stint_suspend_to_no_pods_seconds}: a histogram. */
  public static final String SUSPEND_TO_NO_PODS = "stint.suspend.to.no.pods";
  /** {@code stint_resume_to_running_seconds}: a histogram. */
  public static final String RESUME_TO_RUNNING = "stint.resume.to.running";
  /** {@code stint_jobs_partially_succeeded_total}. */
  public static final String PARTIALLY_SUCCEEDED = "stint.jobs.partially.succeeded";
  /** {@code stint_jobs_succeeded_total}. */
  public static final String SUCCEEDED = "stint.jobs.succeeded";
  /** {@code stint_jobs_failed_total}. */
  public static final String FAILED = "stint.jobs.failed";
  /** {@code stint_jobs_failed_create_total}. */
  public static final String FAILED_CREATE = "stint.jobs.failed.create";
  /** {@code stint_gang_restarts_total{kind, counted}}: gang restarts of failure policies. */
  public static final String GANG_RESTARTS = "stint.gang.restarts";
  /** {@code stint_refused_retries_total}. */
  public static final String RETRIES = "stint.refused.retries";

  private final StintMetrics metrics;
  private final Clock clock;
  private final Map<String, Instant> suspending = new ConcurrentHashMap<>();
  private final Map<String, Instant> resuming = new ConcurrentHashMap<>();
  private final JobsWaitingGauge waiting;
  private final JobFleetGauge fleet;

  /** For a single process that always leads (tests, the demo). */
  public JobLifecycleMetrics(StintMetrics metrics, Clock clock) {
    this(metrics, clock, () -> true);
  }

  /** @param leading whether this replica leads now: a standby counts no jobs in {@code stint_jobs} */
  public JobLifecycleMetrics(StintMetrics metrics, Clock clock, BooleanSupplier leading) {
    this.metrics = metrics;
    this.clock = clock;
    this.waiting = new JobsWaitingGauge(metrics.registry());
    this.fleet = new JobFleetGauge(metrics.registry(), leading);
  }

  /** {@code stint_jobs{kind, state}} counts the kind's jobs from its informer cache, as {@code jobs} lists them. */
  public void countJobs(String kind, Supplier<? extends Stream<? extends TrainingJob<?>>> jobs) {
    fleet.follow(kind, jobs);
  }

  /** A job ended because the API server refused one of its children for good. */
  public void failedToCreate(String kind) {
    count(FAILED_CREATE, "Jobs failed because the API server refused a child for good, or another object "
        + "held its name", kind);
  }

  /** A pass was refused for a reason that heals, and is retried. */
  public void retried(String kind) {
    count(RETRIES, "Passes retried because the API server refused a change for a reason that heals "
        + "(quota, throttling, server errors)", kind);
  }

  /** The job was deleted: nothing more is measured for it. */
  public void forget(String uid) {
    suspending.remove(uid);
    resuming.remove(uid);
    waiting.forget(uid);
  }

  /** Jobs whose suspension or resumption is being timed. */
  public int tracked() {
    return suspending.size() + resuming.size();
  }

  /**
   * Called after a decision's status was written.
   *
   * @param uid the job's uid
   * @param kind the job's kind
   * @param before the status the decision started from
   * @param after the status written
   * @param podsLeft pods of the job still observed (terminating ones included)
   * @param decidedAt when the decision was made (the start of the reconcile)
   */
  public void record(String uid, String kind, JobStatus before, JobStatus after, int podsLeft, Instant decidedAt) {
    Instant now = clock.instant();
    // a job created suspended (every job Kueue queues) stops nothing: timed, it would drown the real suspensions
    if (became(before, after, "Suspended") && before.getStartTime() != null) {
      time(SUSPEND_TO_INACTIVE, "Seconds from a suspension request to no active replica", kind, decidedAt, now);
      suspending.put(uid, decidedAt);
      resuming.remove(uid);
    }
    if (podsLeft == 0 && after.isTrue("Suspended")) {
      Instant start = suspending.remove(uid);
      if (start != null) {
        time(SUSPEND_TO_NO_PODS, "Seconds from a suspension request to no pod left", kind, start, now);
      }
    }
    if (before.isTrue("Suspended") && !after.isTrue("Suspended")) {
      resuming.put(uid, decidedAt);
      suspending.remove(uid);
    }
    if (became(before, after, "Running")) {
      Instant start = resuming.remove(uid);
      if (start != null) {
        time(RESUME_TO_RUNNING, "Seconds from a resume request to every replica running", kind, start, now);
      }
    }
    outcomes(kind, before, after);
    waiting.record(uid, kind, after);
    gangRestarts(kind, before, after);
  }

  /** A pass that restarted the gang raised {@code status.restarts}; a counted one also the count toward the limit. */
  private void gangRestarts(String kind, JobStatus before, JobStatus after) {
    int restarts = orZero(after.getRestarts()) - orZero(before.getRestarts());
    if (restarts != 1) {
      return; // unchanged, or a count taken back from the pods' labels after a lost status: no restart of ours
    }
    boolean counted = orZero(after.getRestartsCountTowardsMax()) > orZero(before.getRestartsCountTowardsMax());
    Counter.builder(GANG_RESTARTS).description("Gang restarts of failure policies: every pod of a job deleted and "
            + "created again after one member failed (counted: toward failurePolicy.maxRestarts)")
        .tag("kind", kind).tag("counted", Boolean.toString(counted)).register(metrics.registry()).increment();
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }

  private void outcomes(String kind, JobStatus before, JobStatus after) {
    if (became(before, after, "PartiallySucceeded")) {
      count(PARTIALLY_SUCCEEDED, "Jobs whose success policy held while some replicas failed", kind);
    }
    if (became(before, after, "Succeeded")) {
      count(SUCCEEDED, "Jobs that succeeded (partial successes included)", kind);
    }
    if (became(before, after, "Failed")) {
      count(FAILED, "Jobs that failed", kind);
    }
  }

  private static boolean became(JobStatus before, JobStatus after, String type) {
    return after.isTrue(type) && !before.isTrue(type);
  }

  private void count(String name, String description, String kind) {
    Counter.builder(name).description(description).tag("kind", kind).register(metrics.registry()).increment();
  }

  private void time(String name, String description, String kind, Instant from, Instant to) {
    Duration took = Duration.between(from, to);
    metrics.timer(name, description, kind, StintMetrics.LATENCY_BUCKETS_SECONDS)
        .record(took.isNegative() ? Duration.ZERO : took);
  }
}
