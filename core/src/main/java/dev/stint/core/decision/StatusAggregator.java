package dev.stint.core.decision;

import dev.stint.core.decision.ReplicaTally.TypeTally;
import dev.stint.spi.JobMessages;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaStatus;
import java.util.Map;

/**
 * Turns a pass's tally into status: replica counts and selectors, then the job's state. The success policy is
 * evaluated first (so a job whose policy holds is not failed by a replica evaluated earlier, unlike upstream's map
 * order), then failures for good, then {@code Running}, which is set only once every replica is up: Kueue reads it as
 * "pods ready".
 */
final class StatusAggregator {

  private StatusAggregator() { }

  static <J extends TrainingJob<?>> void apply(DecisionBuilder<J> out, ReplicaTally tally) {
    writeCounts(out, tally);
    JobContext<J> ctx = out.ctx();
    JobMessages messages = ctx.framework().messages(ctx.job());
    if (ctx.framework().successPolicy(ctx.job()).holds(tally.outcomes())) {
      out.status().setCompletionTime(ctx.nowString());
      out.condition(ConditionType.Succeeded, true, "Succeeded", messages.succeeded());
    } else if (tally.anyFailedForGood()) {
      out.status().setCompletionTime(ctx.nowString());
      out.condition(ConditionType.Failed, true, "Failed", failureMessage(ctx, messages, tally));
    } else if (tally.allUp()) {
      out.condition(ConditionType.Running, true, "Running", messages.running());
    }
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
      return messages.failed(e.getKey(), count);
    }
    throw new IllegalStateException("no failed replica");
  }
}
