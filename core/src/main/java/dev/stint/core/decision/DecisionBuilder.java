package dev.stint.core.decision;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobEvent;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;

/**
 * Collects the parts of a {@link Decision} while the steps of {@link JobDecider} run: actions, the next status,
 * events (one for every condition that changes) and the earliest requeue.
 */
final class DecisionBuilder<J extends TrainingJob<?>> {
  private final JobContext<J> ctx;
  private final JobStatus status;
  private final List<Action> actions = new ArrayList<>();
  private final List<JobEvent> events = new ArrayList<>();
  static final Duration LONGEST_WAIT = Duration.ofDays(1);

  private Duration requeueAfter;
  private List<WaitingCause> waiting = List.of();

  DecisionBuilder(JobContext<J> ctx, JobStatus status) {
    this.ctx = ctx;
    this.status = status;
    if (status.getReplicaStatuses() == null) {
      status.setReplicaStatuses(new LinkedHashMap<>());
    }
  }

  JobContext<J> ctx() { return ctx; }

  JobStatus status() { return status; }

  ReplicaStatus replicaStatus(String type) {
    return status.getReplicaStatuses().computeIfAbsent(type, t -> new ReplicaStatus());
  }

  void act(Action action) {
    actions.add(action);
  }

  List<Action> actions() { return actions; }

  void event(JobEvent event) {
    events.add(event);
  }

  /** Sets a condition; records an event with the condition's reason when it changed. */
  boolean condition(ConditionType type, boolean value, String reasonSuffix, String message) {
    return condition(type, value, reasonSuffix, message, false);
  }

  /**
   * Sets a condition; records an event with the condition's reason when it changed, a Warning when asked, or for a
   * failure or a restart.
   */
  boolean condition(ConditionType type, boolean value, String reasonSuffix, String message, boolean warn) {
    String reason = ctx.kind() + reasonSuffix;
    boolean changed = Conditions.set(status, type, value, reason, message, ctx.nowString());
    boolean warning = warn || type == ConditionType.Failed || type == ConditionType.Restarting;
    JobEvent event = warning ? JobEvent.warning(reason, message) : JobEvent.normal(reason, message);
    // one transition can change two conditions with the same reason (Running=False and Suspended=True): one event
    if (changed && !events.contains(event)) {
      events.add(event);
    }
    return changed;
  }

  /**
   * The message of a condition that keeps its status and reason, made current (the upstream algorithm keeps the
   * first message; a wait's words change while it lasts). In place: no move in the list, no new transition time, no
   * event.
   */
  void refreshMessage(ConditionType type, boolean value, String reasonSuffix, String message) {
    Conditions.refreshMessage(status, type, value, ctx.kind() + reasonSuffix, message);
  }

  /** One word for where the job stands (status.outcome): the most telling true condition. */
  static String outcome(JobStatus status) {
    for (ConditionType type : new ConditionType[] {ConditionType.Failed, ConditionType.PartiallySucceeded,
        ConditionType.Succeeded, ConditionType.Suspended, ConditionType.Restarting, ConditionType.PodsWaiting,
        ConditionType.Running}) {
      if (status.isTrue(type.name())) {
        return type.name();
      }
    }
    return status.isTrue(ConditionType.Created.name()) ? ConditionType.Created.name() : null;
  }

  void requeueAfter(Duration after) {
    // a far deadline is looked at again within a day (and computed anew): a scheduler counts in milliseconds
    Duration positive = after.isNegative() ? Duration.ZERO : after.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : after;
    if (requeueAfter == null || positive.compareTo(requeueAfter) < 0) {
      requeueAfter = positive;
    }
  }

  /** Why some of the job's pods cannot run, for the reconciler's announcements. */
  void waiting(List<WaitingCause> causes) {
    waiting = causes;
  }

  Decision build() {
    status.setOutcome(outcome(status));
    return new Decision(List.copyOf(actions), status, List.copyOf(events), Optional.ofNullable(requeueAfter),
        waiting);
  }
}
