package dev.stint.core.decision;

import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import java.util.List;
import java.util.Optional;

/**
 * The engine's decision for one job, as a pure function: (job, observed children, now) → (actions, next status,
 * events, requeue). It has no client and no clock. The order of the steps follows the Kubeflow training operator:
 * created → validated → finished → suspended → resumed → run limits → replicas → status.
 */
public final class JobDecider {

  private JobDecider() { }

  public static <J extends TrainingJob<?>> Decision decide(JobContext<J> ctx, Observed observed) {
    if (ctx.job().getMetadata().getDeletionTimestamp() != null || ctx.managedElsewhere()) {
      return Decision.none();
    }
    JobStatus status = ctx.job().getStatus() == null ? new JobStatus() : ctx.job().getStatus().copy();
    DecisionBuilder<J> out = new DecisionBuilder<>(ctx, status);
    out.condition(ConditionType.Created, true, "Created", ctx.kind() + " " + ctx.name() + " is created.");
    status.setObservedGeneration(ctx.job().getMetadata().getGeneration());
    if (Conditions.isFinished(status)) {
      FinishedJob.cleanup(out, observed);
      return out.build();
    }
    List<String> errors = JobValidator.validate(ctx);
    if (!errors.isEmpty()) {
      fail(out, observed, "FailedValidation", ctx.kind() + " " + ctx.name() + " is invalid: "
          + String.join("; ", errors));
      return out.build();
    }
    if (ctx.runPolicy().suspended()) {
      SuspendPolicy.suspend(out, observed);
      return out.build();
    }
    if (status.isTrue(ConditionType.Suspended.name())) {
      SuspendPolicy.resume(out);
    }
    if (status.getStartTime() == null) {
      status.setStartTime(ctx.nowString());
    }
    return running(out, observed);
  }

  private static <J extends TrainingJob<?>> Decision running(DecisionBuilder<J> out, Observed observed) {
    Optional<String> deadline = RunLimits.pastDeadline(out);
    if (deadline.isPresent()) {
      fail(out, observed, "Failed", deadline.get());
      return out.build();
    }
    ReplicaTally tally = new ReplicaSync<>(out, observed).run();
    if (!GangScheduling.podsMayStart(out.ctx(), observed)) {
      // Volcano has not admitted the gang yet: hold the pods back, as upstream does, and say when we looked
      out.actions().removeIf(a -> a instanceof Action.CreatePod);
      out.status().setLastReconcileTime(out.ctx().nowString());
    }
    Optional<String> backoff = RunLimits.pastBackoffLimit(out.ctx(), tally);
    if (backoff.isPresent()) {
      out.actions().clear();
      StatusAggregator.writeCounts(out, tally);
      fail(out, observed, "Failed", backoff.get());
      return out.build();
    }
    StatusAggregator.apply(out, tally);
    if (Conditions.isFinished(out.status())) {
      FinishedJob.cleanup(out, observed);
    } else {
      SupportingResources.sync(out, observed, tally.outcomes());
    }
    return out.build();
  }

  private static <J extends TrainingJob<?>> void fail(DecisionBuilder<J> out, Observed observed, String reason,
                                                      String message) {
    out.status().setCompletionTime(out.ctx().nowString());
    out.condition(ConditionType.Failed, true, reason, message);
    FinishedJob.cleanup(out, observed);
  }
}
