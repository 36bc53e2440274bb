package dev.stint.core.decision;

import dev.stint.spi.api.FailurePolicyRule;
import dev.stint.spi.api.FailurePolicySpec;
import java.util.List;

/**
 * What a job's failure policy does with one member's failure, as a pure function of the policy, the failure and the
 * restarts counted so far. The rules are read in order and the first that matches decides, as JobSet's. A failure no
 * rule matches restarts the gang and counts toward {@code maxRestarts}; a disruption ({@code DisruptionTarget}) is
 * matched only by a rule that names one of its reasons, and otherwise restarts the gang without counting: it is not
 * the training's fault. A counted restart beyond {@code maxRestarts} fails the job instead.
 */
final class FailureRules {

  /** What the policy does. */
  enum Action {
    /** Restart the gang, counted toward {@code maxRestarts}. */
    RESTART_COUNTED,
    /** Restart the gang without counting (a disruption, or {@code RestartJobAndIgnoreMaxRestarts}). */
    RESTART_FREE,
    /** Fail the job: a rule says {@code FailJob}. */
    FAIL_BY_RULE,
    /** Fail the job: a counted restart would go beyond {@code maxRestarts}. */
    FAIL_AT_LIMIT
  }

  /**
   * The policy's judgement.
   *
   * @param action what to do
   * @param rule the name of the rule that matched ({@code rule 2} when unnamed), or null when none did
   */
  record Verdict(Action action, String rule) {
    boolean restarts() {
      return action == Action.RESTART_COUNTED || action == Action.RESTART_FREE;
    }
  }

  private FailureRules() { }

  /**
   * @param counted restarts that counted toward {@code maxRestarts} so far
   */
  static Verdict judge(FailurePolicySpec policy, MemberFailure failure, int counted) {
    List<FailurePolicyRule> rules = policy.rulesOrEmpty();
    for (int i = 0; i < rules.size(); i++) {
      FailurePolicyRule rule = rules.get(i);
      if (matches(rule, failure)) {
        return byAction(rule.getAction(), name(rule, i), policy, counted);
      }
    }
    if (failure.disrupted()) {
      return new Verdict(Action.RESTART_FREE, null);
    }
    return byAction(FailurePolicyRule.RESTART_JOB, null, policy, counted);
  }

  private static Verdict byAction(String action, String rule, FailurePolicySpec policy, int counted) {
    if (FailurePolicyRule.FAIL_JOB.equals(action)) {
      return new Verdict(Action.FAIL_BY_RULE, rule);
    }
    if (FailurePolicyRule.RESTART_JOB_AND_IGNORE_MAX_RESTARTS.equals(action)) {
      return new Verdict(Action.RESTART_FREE, rule);
    }
    return new Verdict(counted >= policy.maxRestartsOrDefault() ? Action.FAIL_AT_LIMIT : Action.RESTART_COUNTED,
        rule);
  }

  /** Every condition the rule gives holds; a disruption needs a rule that names one of its reasons. */
  static boolean matches(FailurePolicyRule rule, MemberFailure failure) {
    List<String> types = rule.getTargetReplicaTypes();
    if (types != null && !types.isEmpty() && !types.contains(failure.replica().type())) {
      return false;
    }
    List<Integer> codes = rule.getOnExitCodes();
    if (codes != null && !codes.isEmpty() && !codes.contains(failure.exitCode())) {
      return false;
    }
    List<String> reasons = rule.getOnPodFailureReasons();
    if (reasons == null || reasons.isEmpty()) {
      return !failure.disrupted();
    }
    return reasons.stream().anyMatch(failure.reasons()::contains);
  }

  /** A rule's name as conditions give it: its own, else {@code rule <position from 1>}. */
  static String name(FailurePolicyRule rule, int index) {
    return rule.getName() == null || rule.getName().isEmpty() ? "rule " + (index + 1) : rule.getName();
  }
}
