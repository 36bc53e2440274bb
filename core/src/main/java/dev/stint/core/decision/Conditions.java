package dev.stint.core.decision;

import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The Kubeflow v1 condition algorithm ({@code UpdateJobConditions}), reproduced exactly so that clients that read
 * upstream conditions read ours the same way: {@code Failed=True} is absorbing; re-setting a condition with the same
 * status and reason changes nothing; {@code Running} and {@code Restarting} exclude each other; a terminal condition
 * turns {@code Running} to False (and {@code Restarting}, which upstream leaves); a changed condition moves to the end
 * of the list.
 */
final class Conditions {

  private Conditions() { }

  /** Sets a condition; returns true when the list changed. */
  static boolean set(JobStatus status, ConditionType type, boolean value, String reason, String message,
                     String now) {
    if (status.isTrue(ConditionType.Failed.name())) {
      return false;
    }
    String statusValue = value ? "True" : "False";
    JobCondition current = status.condition(type.name()).orElse(null);
    if (current != null && statusValue.equals(current.getStatus()) && reason.equals(current.getReason())) {
      return false;
    }
    JobCondition next = new JobCondition(type.name(), statusValue, reason, message, now);
    if (current != null && statusValue.equals(current.getStatus())) {
      next.setLastTransitionTime(current.getLastTransitionTime());
    }
    List<JobCondition> kept = new ArrayList<>();
    for (JobCondition c : status.getConditions() == null ? List.<JobCondition>of() : status.getConditions()) {
      if (excludes(type, c)) {
        continue;
      }
      // a finished job neither runs nor restarts (upstream leaves Restarting as it was: a failed job then said its
      // new pods would start at a time that never comes)
      if ((type == ConditionType.Failed || type == ConditionType.Succeeded)
          && (ConditionType.Running.name().equals(c.getType()) || ConditionType.Restarting.name().equals(c.getType()))) {
        c.setStatus("False");
      }
      kept.add(c);
    }
    kept.add(next);
    status.setConditions(kept);
    return true;
  }

  /** Replaces the message of the condition when it has that status and reason and another message. */
  static boolean refreshMessage(JobStatus status, ConditionType type, boolean value, String reason, String message) {
    JobCondition current = status.condition(type.name()).orElse(null);
    if (current == null || !(value ? "True" : "False").equals(current.getStatus())
        || !reason.equals(current.getReason()) || java.util.Objects.equals(message, current.getMessage())) {
      return false;
    }
    current.setMessage(message);
    return true;
  }

  /** Removes a condition; returns true when it was there. */
  static boolean remove(JobStatus status, ConditionType type) {
    return status.getConditions() != null && status.getConditions().removeIf(c -> type.name().equals(c.getType()));
  }

  private static boolean excludes(ConditionType adding, JobCondition existing) {
    String t = existing.getType();
    return adding.name().equals(t)
        || (adding == ConditionType.Restarting && ConditionType.Running.name().equals(t))
        || (adding == ConditionType.Running && ConditionType.Restarting.name().equals(t));
  }

  static boolean isFinished(JobStatus status) {
    return status.isTrue(ConditionType.Succeeded.name()) || status.isTrue(ConditionType.Failed.name());
  }
}
