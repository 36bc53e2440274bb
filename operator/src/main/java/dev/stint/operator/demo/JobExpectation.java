package dev.stint.operator.demo;

import dev.stint.operator.CommandFailure;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the demo expects of one example job, read from the job's annotations (which a real cluster ignores): the
 * outcome it ends with ({@value #EXPECTED_OUTCOME}, Succeeded by default), whether the demo suspends and resumes it
 * on the way ({@value #SUSPEND_SECONDS}), and how many gang restarts its failure policy makes
 * ({@value #EXPECTED_RESTARTS}). The demo exits 0 only when every job met its expectation.
 */
final class JobExpectation {
  /** On a job: the {@code status.outcome} it must end with: Succeeded (the default), PartiallySucceeded or Failed. */
  static final String EXPECTED_OUTCOME = "stint.dev/demo-expected-outcome";
  /** On a job: suspend it once it runs, and resume it this many seconds (decimals allowed) after its pods are gone. */
  static final String SUSPEND_SECONDS = "stint.dev/demo-suspend-seconds";
  /** On a job with a failure policy: the gang restarts ({@code status.restarts}) it must end with. */
  static final String EXPECTED_RESTARTS = "stint.dev/demo-expected-restarts";

  private static final List<String> OUTCOMES = List.of("Succeeded", "PartiallySucceeded", "Failed");
  private static final Duration MAX_PAUSE = Duration.ofHours(1);

  private final String outcome;
  private final Duration suspendFor;
  private final Integer restarts;

  /** Whether a job met its expectation, and a line that says so to a reader. */
  record Verdict(boolean met, String line) { }

  private JobExpectation(String outcome, Duration suspendFor, Integer restarts) {
    this.outcome = outcome;
    this.suspendFor = suspendFor;
    this.restarts = restarts;
  }

  /**
   * The expectation of a job's annotations.
   *
   * @throws CommandFailure when an annotation has a value the demo cannot use, naming the annotation
   */
  static JobExpectation of(TrainingJob<?> job) {
    Map<String, String> annotations = job.getMetadata().getAnnotations() == null ? Map.of()
        : job.getMetadata().getAnnotations();
    String where = job.getKind() + " " + job.getMetadata().getName() + ": ";
    String outcome = annotations.getOrDefault(EXPECTED_OUTCOME, "Succeeded").trim();
    if (!OUTCOMES.contains(outcome)) {
      throw new CommandFailure(where + EXPECTED_OUTCOME + " must be one of " + String.join(", ", OUTCOMES)
          + ", not '" + outcome + "'");
    }
    String seconds = annotations.get(SUSPEND_SECONDS);
    return new JobExpectation(outcome, seconds == null ? null : pause(where, seconds),
        restarts(where, annotations.get(EXPECTED_RESTARTS)));
  }

  private static Integer restarts(String where, String value) {
    if (value == null) {
      return null;
    }
    if (!value.trim().matches("\\d{1,4}")) {
      throw new CommandFailure(where + EXPECTED_RESTARTS + " must be a whole number, not '" + value + "'");
    }
    return Integer.parseInt(value.trim());
  }

  private static Duration pause(String where, String value) {
    try {
      double seconds = Double.parseDouble(value.trim());
      if (seconds >= 0 && seconds <= MAX_PAUSE.toSeconds()) {
        return Duration.ofMillis(Math.round(seconds * 1000));
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new CommandFailure(where + SUSPEND_SECONDS + " must be a number of seconds from 0 to "
        + MAX_PAUSE.toSeconds() + ", not '" + value + "'");
  }

  /** How long the demo keeps the job suspended, when it suspends it at all. */
  Optional<Duration> suspendFor() {
    return Optional.ofNullable(suspendFor);
  }

  /**
   * Judges a job by its last seen status.
   *
   * @param script the demo's suspension of the job, when it has one
   */
  Verdict judge(TrainingJob<?> job, Optional<SuspendResumeStep> script) {
    JobStatus status = job.getStatus();
    String name = job.getMetadata().getName();
    String actual = outcome(status);
    boolean outcomeMet = outcome.equals(actual);
    StringBuilder line = new StringBuilder(name + ": " + actual);
    line.append(outcomeMet ? ", as expected" : ", but the demo expects " + outcome);
    explanation(status, actual).ifPresent(message -> line.append(": ").append(message));
    boolean met = outcomeMet;
    if (status != null && status.getRestarts() != null) {
      // a failure policy restarted the gang: say how often, and whether the example expected it
      line.append("; gang restarts ").append(status.getRestarts());
      if (restarts != null && restarts != status.getRestarts().intValue()) {
        line.append(" (the demo expects ").append(restarts).append(")");
        met = false;
      }
    } else if (restarts != null && restarts != 0) {
      line.append("; no gang restart (the demo expects ").append(restarts).append(")");
      met = false;
    }
    if (script.isPresent()) {
      int suspensions = status == null || status.getSuspensions() == null ? 0 : status.getSuspensions();
      boolean storyMet = script.get().done() && suspensions == 1;
      line.append("; suspensions ").append(suspensions).append(storyMet ? ": " : " (the demo expects 1): ")
          .append(script.get().story());
      met = met && storyMet;
    }
    return new Verdict(met, (met ? "  ok   " : "  FAIL ") + line);
  }

  /** {@code status.outcome}, or, without one, the end its conditions say. */
  private static String outcome(JobStatus status) {
    if (status != null && status.getOutcome() != null) {
      return status.getOutcome();
    }
    if (status != null) {
      for (String end : List.of("Failed", "PartiallySucceeded", "Succeeded")) {
        if (status.isTrue(end)) {
          return end;
        }
      }
    }
    return "not finished";
  }

  /** The message of the condition behind an outcome other than plain success (which failed replicas, and why). */
  private static Optional<String> explanation(JobStatus status, String outcome) {
    if (status == null || "Succeeded".equals(outcome)) {
      return Optional.empty();
    }
    return status.condition(outcome).filter(JobCondition::isTrue).map(JobCondition::getMessage);
  }
}
