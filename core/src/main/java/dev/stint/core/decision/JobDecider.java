package dev.stint.core.decision;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobEvent;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The engine's decision for one job, as a pure function: (job, observed children, now) → (actions, next status,
 * events, requeue). It has no client and no clock. The order of the steps follows the Kubeflow training operator:
 * created → validated → finished → suspended → resumed → run limits → replicas → failure policy
 * → status; but a job whose pods succeeded before a suspension was seen ends, as a finished job ignores suspend.
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
    if (ctx.facts().suspended() || ctx.gate() instanceof KueueGate.Held) {
      Optional<Decision> ended = endedBeforeStopped(ctx, status, observed);
      if (ended.isPresent()) {
        return ended.get();
      }
    }
    if (ctx.facts().suspended()) {
      SuspendPolicy.suspend(out, observed);
      return out.build();
    }
    if (ctx.gate() instanceof KueueGate.Held held) {
      // queued by Kueue: no pod until the Workload is admitted, whatever suspend says
      SuspendPolicy.hold(out, observed, held);
      return out.build();
    }
    if (status.isTrue(ConditionType.Suspended.name())) {
      SuspendPolicy.resume(out);
    }
    if (status.getStartTime() == null) {
      status.setStartTime(ctx.nowString());
    }
    return running(out, observed, true);
  }

  /**
   * The decision of a running job that is asked to stop (suspended, or held by Kueue) when its pods had already
   * succeeded it: it ends {@code Succeeded} (partly, if so), not suspended. The operator can see the end and the
   * suspension in one pass (it was busy or restarting; a wave of preemptions came), and a finished training suspended
   * would run again from scratch on resume. Only pods that ended by themselves count (not those being deleted), and
   * the run limits (deadline, pods waiting) play no part. A failure the suspension meets stays what a suspension makes
   * of it: not counted, and tried again on resume (its retry never happened).
   */
  private static <J extends TrainingJob<?>> Optional<Decision> endedBeforeStopped(JobContext<J> ctx,
                                                                                JobStatus status, Observed observed) {
    if (status.isTrue(ConditionType.Suspended.name()) || status.getStartTime() == null
        || observed.pods().stream().noneMatch(p -> p.getMetadata().getDeletionTimestamp() == null
            && PodState.of(p) == PodState.SUCCEEDED)) {
      return Optional.empty();
    }
    Observed settled = new Observed(observed.pods().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList(), observed.services(),
        observed.supporting(), observed.carriers());
    DecisionBuilder<J> trial = new DecisionBuilder<>(ctx, status.copy());
    Decision decision = running(trial, settled, false);
    return decision.status().isTrue(ConditionType.Succeeded.name()) ? Optional.of(decision) : Optional.empty();
  }

  /** @param limitsApply whether the run limits (deadline, pods waiting too long) may end the job in this pass */
  private static <J extends TrainingJob<?>> Decision running(DecisionBuilder<J> out, Observed observed,
                                                             boolean limitsApply) {
    Optional<String> deadline = limitsApply ? RunLimits.pastDeadline(out) : Optional.empty();
    if (deadline.isPresent()) {
      fail(out, observed, "Failed", deadline.get());
      return out.build();
    }
    GangRestart<J> gang = GangRestart.of(out);
    Observed current = gang.sweepEarlierAttempts(observed);
    ReplicaTally tally = new ReplicaSync<>(out, current).run();
    WaitingPods waiting = WaitingPods.of(out.ctx(), current, out.status().getStartTime());
    tally.podsWaiting = waiting.any();
    if (!GangScheduling.podsMayStart(out.ctx(), observed)) {
      // Volcano has not admitted the gang yet: hold the pods back, as upstream does, and say when we looked
      out.actions().removeIf(a -> a instanceof Action.CreatePod);
      out.status().setLastReconcileTime(out.ctx().nowString());
    }
    gang.holdWhileEarlierPodsRemain();
    gang.holdDuringBackoff();
    Optional<String> backoff = RunLimits.pastBackoffLimit(out.ctx(), tally);
    if (backoff.isPresent()) {
      out.actions().clear();
      StatusAggregator.writeCounts(out, tally);
      fail(out, observed, "Failed", backoff.get());
      return out.build();
    }
    if (gang.onMemberFailure(tally, current)) {
      return out.build();
    }
    StatusAggregator.apply(out, tally);
    if (limitsApply && !Conditions.isFinished(out.status())) {
      Optional<PodsWaitingPolicy.TimedOut> timedOut = PodsWaitingPolicy.apply(out, waiting);
      if (timedOut.isPresent()) {
        fail(out, observed, timedOut.get().cause(), timedOut.get().message());
        return out.build();
      }
    }
    if (Conditions.isFinished(out.status())) {
      FinishedJob.cleanup(out, observed);
    } else {
      SupportingResources.sync(out, observed, tally.outcomes());
    }
    return out.build();
  }

  /**
   * The decision for a job whose framework threw while it was decided: {@code Failed=True} with reason
   * {@code <Kind>Failed} and the failure as the message (after {@code Created}, if the job never got it), and no
   * actions. It calls no framework code, so it cannot fail the same way. The job stays failed ({@code Failed} is
   * absorbing); deciding again on the failed job gives the clean-up of any failed job (running pods stopped), which
   * the reconciler adds when the framework lets it.
   *
   * @param job the job, whose kind comes from its own class
   * @param message the failure, naming the framework and what it threw
   */
  public static Decision failedByFramework(TrainingJob<?> job, String message, Instant now) {
    return failedWith(job, "Failed", message, now);
  }

  /**
   * The decision for a job one of whose children the API server refused for good, or whose child's name another
   * object holds: as {@link #failedByFramework}, with reason {@code <Kind>FailedCreate} and a message naming the job,
   * the child and the refusal. The same for every kind.
   *
   * @param refusal what was refused and why, in the API server's words
   */
  public static Decision failedToCreate(TrainingJob<?> job, String refusal, Instant now) {
    String kind = HasMetadata.getKind(job.getClass());
    return failedWith(job, "FailedCreate", kind + " " + job.getMetadata().getName() + " failed: " + refusal, now);
  }

  private static Decision failedWith(TrainingJob<?> job, String reasonSuffix, String message, Instant now) {
    String kind = HasMetadata.getKind(job.getClass());
    String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
    JobStatus status = job.getStatus() == null ? new JobStatus() : job.getStatus().copy();
    List<JobEvent> events = new ArrayList<>();
    String created = kind + " " + job.getMetadata().getName() + " is created.";
    if (Conditions.set(status, ConditionType.Created, true, kind + "Created", created, time)) {
      events.add(JobEvent.normal(kind + "Created", created));
    }
    Conditions.remove(status, ConditionType.ReplicaFailure);
    PodsWaitingPolicy.clear(status);
    if (Conditions.set(status, ConditionType.Failed, true, kind + reasonSuffix, message, time)) {
      events.add(JobEvent.warning(kind + reasonSuffix, message));
      if (status.getCompletionTime() == null) {
        status.setCompletionTime(time);
      }
    }
    status.setObservedGeneration(job.getMetadata().getGeneration());
    status.setOutcome(DecisionBuilder.outcome(status));
    return new Decision(List.of(), status, List.copyOf(events), Optional.empty());
  }

  static <J extends TrainingJob<?>> void fail(DecisionBuilder<J> out, Observed observed, String reason,
                                                      String message) {
    out.status().setCompletionTime(out.ctx().nowString());
    out.condition(ConditionType.Failed, true, reason, message);
    FinishedJob.cleanup(out, observed);
  }
}
