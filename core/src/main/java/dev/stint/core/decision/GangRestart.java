package dev.stint.core.decision;

import dev.stint.core.model.Action;
import dev.stint.core.model.JobLabels;
import dev.stint.spi.KubeflowLabels;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.FailurePolicySpec;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The steps of a running job's pass that its {@code runPolicy.failurePolicy} adds: the whole gang restarts when one
 * member fails, because distributed training cannot take back one lost member. It reuses the suspension's machinery:
 * every pod is deleted with its grace period, counted in {@code terminating} and never as a success or failure, and
 * created again from the current templates. The attempt a pod belongs to is its label
 * {@link KubeflowLabels#RESTART_ATTEMPT}; the job's attempt is {@code status.restarts}. A pod of an earlier attempt is
 * deleted whatever it does, so a pass on a stale cache, or an operator restarted in the middle, finishes the restart
 * rather than mistaking an old pod for a member.
 *
 * <p>A failure the job's success rules tolerate (a replica that does not retry, while some rule can still hold) does
 * not restart the gang, and neither does any failure when the success policy already holds: it ends the job as
 * without a failure policy. Under {@code restartPolicy: ExitCode}, codes 1-127 stay permanent errors and are judged by
 * the success policy, as without a failure policy.
 */
final class GangRestart<J extends TrainingJob<?>> {
  /** An attempt that failed sooner than this after it started makes the next restart a quick one. */
  static final Duration QUICK = Duration.ofMinutes(10);
  /** The wait before the second quick restart's pods; it doubles with each quick restart after it. */
  static final Duration FIRST_BACKOFF = Duration.ofSeconds(10);
  static final Duration MAX_BACKOFF = Duration.ofMinutes(6);

  private final DecisionBuilder<J> out;
  private final FailurePolicySpec policy;
  private boolean oldPodsRemain;

  private GangRestart(DecisionBuilder<J> out, FailurePolicySpec policy) {
    this.out = out;
    this.policy = policy;
  }

  /** The step of this pass; it does nothing for a job without a failure policy. */
  static <J extends TrainingJob<?>> GangRestart<J> of(DecisionBuilder<J> out) {
    return new GangRestart<>(out, out.ctx().runPolicy().getFailurePolicy());
  }

  /** The attempt of a status: its gang restarts so far. */
  static int attempt(JobStatus status) {
    return status.getRestarts() == null ? 0 : status.getRestarts();
  }

  /** The attempt a pod belongs to: its label, 0 without one (made before the job had a failure policy). */
  static int attemptOf(Pod pod) {
    String value = Observed.label(pod, KubeflowLabels.RESTART_ATTEMPT);
    try {
      return value == null ? 0 : Integer.parseInt(value);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Deletes the pods of earlier attempts, and returns what the rest of the pass should see: those pods as
   * terminating, so they count as neither active nor finished and their indexes wait for them to go. Pods of a later
   * attempt than the status says (a status lost or overwritten after a restart) make their attempt the job's.
   */
  Observed sweepEarlierAttempts(Observed observed) {
    if (policy == null) {
      return observed;
    }
    int attempt = observed.pods().stream().mapToInt(GangRestart::attemptOf).max().orElse(0);
    if (attempt > attempt(out.status())) {
      out.status().setRestarts(attempt);
    }
    int current = attempt(out.status());
    List<Pod> view = new ArrayList<>();
    for (Pod pod : observed.pods()) {
      if (attemptOf(pod) == current) {
        view.add(pod);
        continue;
      }
      oldPodsRemain = true;
      if (pod.getMetadata().getDeletionTimestamp() == null) {
        out.act(new Action.DeletePod(pod.getMetadata().getName(), "earlier attempt"));
        view.add(new PodBuilder(pod).editMetadata().withDeletionTimestamp(out.ctx().nowString()).endMetadata()
            .build());
      } else {
        view.add(pod);
      }
    }
    return oldPodsRemain ? new Observed(view, observed.services(), observed.supporting()) : observed;
  }

  /**
   * The wait before the pods of an attempt that follows {@code quickRestarts} quick restarts in a row: none for the
   * first (a member lost once restarts at once, as JobSet's), then 10 s, 20 s, 40 s ... at most 6 minutes.
   */
  static Duration backoff(int quickRestarts) {
    if (quickRestarts < 2) {
      return Duration.ZERO;
    }
    long seconds = FIRST_BACKOFF.getSeconds() << Math.min(quickRestarts - 2, 16);
    return Duration.ofSeconds(Math.min(seconds, MAX_BACKOFF.getSeconds()));
  }

  /**
   * While the backoff of the last restart runs, no pod of the new attempt is created; the pass comes back when it
   * ends. A job whose pods fail as soon as they start thus restarts about ten times an hour, not thousands.
   */
  void holdDuringBackoff() {
    if (policy == null) {
      return;
    }
    JobStatus status = out.status();
    Duration wait = backoff(status.getQuickRestarts() == null ? 0 : status.getQuickRestarts());
    JobCondition restarting = status.condition(ConditionType.Restarting.name()).orElse(null);
    if (wait.isZero() || restarting == null || !restarting.isTrue() || !(out.ctx().kind() + "MemberFailed").equals(restarting.getReason())
        || restarting.getLastTransitionTime() == null) {
      return;
    }
    Instant due = Instant.parse(restarting.getLastTransitionTime()).plus(wait);
    if (out.ctx().now().isBefore(due)) {
      out.actions().removeIf(a -> a instanceof Action.CreatePod);
      out.requeueAfter(Duration.between(out.ctx().now(), due));
    }
  }

  /** With {@code BlockingRecreate}, no pod of the new attempt is created while a pod of an earlier one remains. */
  void holdWhileEarlierPodsRemain() {
    if (policy != null && policy.blocking() && oldPodsRemain) {
      out.actions().removeIf(a -> a instanceof Action.CreatePod);
    }
  }

  /**
   * Acts on the first member failure that the policy must judge (in the framework's order of replica types, then by
   * index): restarts the gang, or fails the job. Returns false when there is none, and the pass goes on as usual.
   */
  boolean onMemberFailure(ReplicaTally tally, Observed observed) {
    if (policy == null) {
      return false;
    }
    JobContext<J> ctx = out.ctx();
    SuccessRules rules = SuccessRules.of(ctx);
    SuccessPolicy success = rules != null ? rules : ctx.framework().successPolicy(ctx.job());
    var outcomes = tally.outcomes();
    if (success.holds(outcomes)) {
      return false;
    }
    // the member whose failure broke the rules names the restart: one the last status did not list yet, before the
    // failures the rules had tolerated until now (the framework's order among equals)
    MemberFailure failure = tally.memberFailures().stream()
        .filter(f -> !tolerated(f, tally, rules, outcomes))
        .min(java.util.Comparator.comparing((MemberFailure f) -> listedBefore(ctx, f))).orElse(null);
    if (failure == null) {
      return false;
    }
    int counted = out.status().getRestartsCountTowardsMax() == null ? 0 : out.status().getRestartsCountTowardsMax();
    FailureRules.Verdict verdict = FailureRules.judge(policy, failure, counted);
    if (verdict.restarts()) {
      restart(failure, verdict, observed);
    } else {
      fail(failure, verdict, counted, tally, observed);
    }
    return true;
  }

  /** The member's index is in the failed indexes of the status this pass started from. */
  private static boolean listedBefore(JobContext<?> ctx, MemberFailure f) {
    var status = ctx.job().getStatus();
    var before = status == null || status.getReplicaStatuses() == null ? null
        : status.getReplicaStatuses().get(f.replica().type());
    return before != null && IndexIntervals.parse(before.getFailedIndexes()).contains(f.replica().index());
  }

  /** A final failure (its restart policy does not retry it) that the job's success rules can still do without. */
  private static boolean tolerated(MemberFailure f, ReplicaTally tally, SuccessRules rules,
                                   dev.stint.spi.ReplicaOutcomes outcomes) {
    ReplicaTally.TypeTally t = tally.byType().get(f.replica().type());
    boolean isFinal = t != null && t.failedForGood.containsKey(f.replica().index());
    return isFinal && rules != null && rules.reachable(outcomes);
  }

  private void restart(MemberFailure failure, FailureRules.Verdict verdict, Observed observed) {
    JobContext<J> ctx = out.ctx();
    JobStatus status = out.status();
    out.actions().clear(); // this pass's creations and single-pod restarts: the whole gang goes instead
    for (Pod pod : observed.pods()) {
      if (pod.getMetadata().getDeletionTimestamp() == null) {
        out.act(new Action.DeletePod(pod.getMetadata().getName(), "gang restart"));
      }
    }
    int attempt = attempt(status) + 1;
    status.setRestarts(attempt);
    boolean counted = verdict.action() == FailureRules.Action.RESTART_COUNTED;
    int towardsMax = status.getRestartsCountTowardsMax() == null ? 0 : status.getRestartsCountTowardsMax();
    if (counted) {
      status.setRestartsCountTowardsMax(towardsMax + 1);
    }
    Duration wait = failure.disrupted() ? Duration.ZERO : countQuick(status);
    startAttempt(observed);
    String why = counted
        ? "restart " + (towardsMax + 1) + " of at most " + policy.maxRestartsOrDefault()
            + " (failurePolicy.maxRestarts)"
        : (verdict.rule() == null ? "a disruption, not counted toward failurePolicy.maxRestarts"
            : "not counted toward failurePolicy.maxRestarts");
    String rule = verdict.rule() == null ? "" : ", rule " + quoted(verdict.rule());
    String message = ctx.kind() + " " + ctx.name() + " is restarting every pod (attempt " + attempt + "): "
        + failure.describe() + "; " + why + rule + "."
        + (wait.isZero() ? "" : " Its new pods start in " + wait.getSeconds() + " s, at " + ctx.now().plus(wait)
            + ": restart " + status.getQuickRestarts() + " in a row of an attempt that lasted less than "
            + QUICK.toMinutes() + " minutes.");
    // a restart while the last one is still Restarting is a new transition: its own message and event
    Conditions.remove(status, ConditionType.Restarting);
    out.condition(ConditionType.Restarting, true, failure.disrupted() ? "MemberDisrupted" : "MemberFailed", message);
  }

  /**
   * Counts this restart in the quick streak (its failed attempt started less than {@link #QUICK} ago: at the last
   * restart while it never ran, else when it started running, else at the job's start) and returns the new
   * attempt's wait. Reads the conditions as they were before this restart's.
   */
  private Duration countQuick(JobStatus status) {
    String started = status.condition(ConditionType.Restarting.name()).map(JobCondition::getLastTransitionTime)
        .or(() -> status.condition(ConditionType.Running.name()).filter(JobCondition::isTrue)
            .map(JobCondition::getLastTransitionTime))
        .orElse(status.getStartTime());
    boolean quick = started != null && Duration.between(Instant.parse(started), out.ctx().now()).compareTo(QUICK) < 0;
    int streak = status.getQuickRestarts() == null ? 0 : status.getQuickRestarts();
    status.setQuickRestarts(quick ? streak + 1 : 1);
    return backoff(status.getQuickRestarts());
  }

  /** The replica counts of a new attempt: nothing active, succeeded or failed yet; every pod left terminating. */
  private void startAttempt(Observed observed) {
    JobContext<J> ctx = out.ctx();
    for (String type : ctx.replicaSpecs().keySet()) {
      String label = new ReplicaId(type, 0).typeLabel();
      ReplicaStatus rs = out.replicaStatus(type);
      rs.setActive(0);
      rs.setSucceeded(0);
      rs.setFailed(0);
      rs.setSucceededIndexes(null);
      rs.setFailedIndexes(null);
      rs.setTerminating((int) observed.pods().stream()
          .filter(p -> label.equals(Observed.label(p, JobLabels.REPLICA_TYPE))).count());
      rs.setSelector(JobLabels.selector(ctx.controllerName(), ctx.name(), type));
    }
  }

  private void fail(MemberFailure failure, FailureRules.Verdict verdict, int counted, ReplicaTally tally,
                    Observed observed) {
    JobContext<J> ctx = out.ctx();
    out.actions().clear();
    // the member that ended the job is its last attempt's failure, whatever its restart policy would have done
    tally.type(failure.replica().type(), ctx.replicas(failure.replica().type())).failedForGood
        .putIfAbsent(failure.replica().index(), failure.exitCode());
    StatusAggregator.writeCounts(out, tally);
    String message = verdict.action() == FailureRules.Action.FAIL_BY_RULE
        ? ctx.kind() + " " + ctx.name() + " failed: " + failure.describe() + ", and failurePolicy rule "
            + quoted(verdict.rule()) + " says FailJob."
        : ctx.kind() + " " + ctx.name() + " failed: " + failure.describe() + ", after " + counted + " restart"
            + (counted == 1 ? "" : "s") + " counted toward failurePolicy.maxRestarts (" + policy.maxRestartsOrDefault()
            + ").";
    JobDecider.fail(out, observed, verdict.action() == FailureRules.Action.FAIL_BY_RULE ? "FailedByFailurePolicy"
        : "ReachedMaxRestarts", message);
  }

  private static String quoted(String rule) {
    return "\"" + rule + "\"";
  }
}
