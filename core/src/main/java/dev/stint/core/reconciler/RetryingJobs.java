package dev.stint.core.reconciler;

import dev.stint.core.kube.ApiRefusal;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The jobs whose last pass was refused for a reason that heals (quota, throttling, server errors, a terminating
 * namespace): how often in a row, and for what cause. It sets the capped exponential backoff of the next attempt and
 * tells when a cause is new for a job, so that a job shows one Warning event and one log line per distinct cause,
 * not one per retry. A job leaves it on its first pass that goes through, or when it is deleted.
 */
final class RetryingJobs {
  static final Duration FIRST_DELAY = Duration.ofSeconds(1);
  /** Quota freed by another job is seen within this; batch Job's pod backoff stops at 10 minutes. */
  static final Duration MAX_DELAY = Duration.ofSeconds(60);

  private record Retrying(int attempts, String cause) { }

  private final Map<String, Retrying> byUid = new ConcurrentHashMap<>();

  /** What a refusal of a job means now. */
  record Attempt(Duration delay, boolean newCause, int attempts) { }

  Attempt refused(String uid, ApiRefusal refusal) {
    String cause = refusal.cause() + ": " + refusal.message();
    String[] previousCause = new String[1];
    Retrying next = byUid.compute(uid, (k, prev) -> {
      previousCause[0] = prev == null ? null : prev.cause();
      return new Retrying(prev == null ? 1 : prev.attempts() + 1, cause);
    });
    return new Attempt(delay(next.attempts()), !cause.equals(previousCause[0]), next.attempts());
  }

  /** The job's pass went through: whether it had been retrying. */
  boolean recovered(String uid) {
    return byUid.remove(uid) != null;
  }

  void forget(String uid) {
    byUid.remove(uid);
  }

  int size() {
    return byUid.size();
  }

  /** 1 s, 2 s, 4 s, ... up to {@link #MAX_DELAY}. */
  static Duration delay(int attempts) {
    long seconds = FIRST_DELAY.toSeconds() << Math.min(attempts - 1, 20);
    return seconds >= MAX_DELAY.toSeconds() ? MAX_DELAY : Duration.ofSeconds(seconds);
  }
}
