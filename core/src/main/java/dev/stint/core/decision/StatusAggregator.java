package dev.stint.core.decision;

import dev.stint.core.decision.ReplicaTally.TypeTally;
import dev.stint.core.model.JobLabels;
import dev.stint.spi.JobMessages;
import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Turns a pass's tally into status: replica counts, indexes and selectors, then the job's state. The success policy
 * (the job's rules, else the framework's default) is evaluated first, so a job whose policy holds is not failed by a
 * replica evaluated earlier (unlike upstream's map order); it is a partial success when some replica failed for good.
 * Then final failures; then {@code Running}, set only once every replica is up: Kueue reads it as "pods ready".
 */
final class StatusAggregator {

  private StatusAggregator() { }

  static <J extends TrainingJob<?>> void apply(DecisionBuilder<J> out, ReplicaTally tally) {
    writeCounts(out, tally);
    JobContext<J> ctx = out.ctx();
    JobMessages messages = ctx.framework().messages(ctx.job());
    ReplicaOutcomes outcomes = tally.outcomes();
    SuccessRules rules = SuccessRules.of(ctx);
    SuccessPolicy policy = rules != null ? rules : ctx.framework().successPolicy(ctx.job());
    if (policy.holds(outcomes)) {
      succeed(out, tally, messages);
    } else if (fails(ctx, tally, rules, outcomes)) {
      out.status().setCompletionTime(ctx.nowString());
      out.condition(ConditionType.Failed, true, "Failed", failureMessage(ctx, messages, tally));
    } else if (tally.allUp()) {
      out.condition(ConditionType.Running, true, "Running", messages.running());
    }
  }

  private static <J extends TrainingJob<?>> boolean fails(JobContext<J> ctx, ReplicaTally tally, SuccessRules rules,
                                                          ReplicaOutcomes outcomes) {
    if (!tally.anyFailedForGood()) {
      return false;
    }
    if (rules != null) {
      return !rules.reachable(outcomes);
    }
    return tally.typesFailedForGood().stream().anyMatch(t -> ctx.framework().failureIsFatal(ctx.job(), t));
  }

  private static <J extends TrainingJob<?>> void succeed(DecisionBuilder<J> out, ReplicaTally tally,
                                                         JobMessages messages) {
    JobContext<J> ctx = out.ctx();
    out.status().setCompletionTime(ctx.nowString());
    if (tally.anyFailedForGood()) {
      String message = ctx.kind() + " " + ctx.name() + " partially succeeded: " + failedReplicas(tally);
      out.condition(ConditionType.PartiallySucceeded, true, "PartiallySucceeded", message);
      out.condition(ConditionType.Succeeded, true, "PartiallySucceeded", message);
    } else {
      out.condition(ConditionType.Succeeded, true, "Succeeded", messages.succeeded());
    }
  }

  /** {@code Worker 1,3 failed (exit codes 1, 137)}, one part per replica type. */
  static String failedReplicas(ReplicaTally tally) {
    List<String> parts = new ArrayList<>();
    tally.byType().forEach((type, t) -> {
      if (!t.failedForGood.isEmpty()) {
        String indexes = t.failedForGood.keySet().stream().map(String::valueOf).collect(Collectors.joining(","));
        String codes = t.failedForGood.values().stream().map(String::valueOf).collect(Collectors.joining(", "));
        parts.add(type + " " + indexes + " failed (exit code" + (t.failedForGood.size() > 1 ? "s " : " ")
            + codes + ")");
      }
    });
    return String.join("; ", parts);
  }

  static <J extends TrainingJob<?>> void writeCounts(DecisionBuilder<J> out, ReplicaTally tally) {
    JobContext<J> ctx = out.ctx();
    for (Map.Entry<String, TypeTally> e : tally.byType().entrySet()) {
      TypeTally t = e.getValue();
      ReplicaStatus rs = out.replicaStatus(e.getKey());
      rs.setActive(t.active);
      rs.setSucceeded(t.succeeded);
      rs.setFailed(t.failed);
      rs.setTerminating(t.terminating);
      rs.setRestarts(rs.restarts() + t.newRestarts);
      rs.setSucceededIndexes(IndexIntervals.format(t.succeededIndexes));
      rs.setFailedIndexes(IndexIntervals.format(new TreeSet<>(t.failedForGood.keySet())));
      rs.setSelector(JobLabels.selector(ctx.controllerName(), ctx.name(), e.getKey()));
    }
  }

  /** The first replica type (in the framework's order) with final failures names the failure. */
  private static <J extends TrainingJob<?>> String failureMessage(JobContext<J> ctx, JobMessages messages,
                                                                  ReplicaTally tally) {
    for (Map.Entry<String, TypeTally> e : tally.byType().entrySet()) {
      int count = e.getValue().failedForGood.size();
      if (count == 0) {
        continue;
      }
      if (RestartPolicies.EXIT_CODE.equals(ctx.restartPolicy(e.getKey()))) {
        return "job \"" + ctx.name() + "\" is failing because \"" + e.getKey() + "\" replica(s) failed.";
      }
      return messages.failed(e.getKey(), count) + " " + failedReplicas(tally) + ".";
    }
    throw new IllegalStateException("no failed replica");
  }
}
