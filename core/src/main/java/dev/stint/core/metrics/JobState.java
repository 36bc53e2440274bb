package dev.stint.core.metrics;

import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import java.util.Locale;

/**
 * The one state a job is counted in by {@code stint_jobs{kind, state}}, from its status conditions: an ended job by
 * its outcome; then a suspended one, told apart by whether Kueue holds it (it waits for admission, or was evicted and
 * waits again) or someone else suspended it; then a gang restart in progress; then running; else created (its pods
 * not all running yet, or no status written yet).
 */
enum JobState {
  CREATED, RUNNING, RESTARTING, SUSPENDED, QUEUED, SUCCEEDED, FAILED;

  /** Its label value: {@code created}, {@code running}, ... */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  static JobState of(JobStatus status) {
    if (status == null) {
      return CREATED;
    }
    if (status.isTrue("Succeeded")) {
      return SUCCEEDED; // partial successes included, as stint_jobs_succeeded_total counts them
    }
    if (status.isTrue("Failed")) {
      return FAILED;
    }
    JobCondition suspended = status.condition("Suspended").filter(JobCondition::isTrue).orElse(null);
    if (suspended != null) {
      return heldByKueue(suspended.getReason()) ? QUEUED : SUSPENDED;
    }
    if (status.isTrue("Restarting")) {
      return RESTARTING;
    }
    return status.isTrue("Running") ? RUNNING : CREATED;
  }

  /** The reasons of a {@code Suspended} condition that Kueue's gate writes while a job waits for (re)admission. */
  private static boolean heldByKueue(String reason) {
    return reason != null && (reason.endsWith("WaitingForAdmission") || reason.endsWith("Evicted"));
  }
}
