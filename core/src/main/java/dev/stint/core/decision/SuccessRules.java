package dev.stint.core.decision;

import dev.stint.spi.ReplicaOutcomes;
import dev.stint.spi.SuccessPolicy;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.SuccessPolicySpec;
import dev.stint.spi.api.SuccessRule;
import java.util.List;
import java.util.Map;

/**
 * A job's {@code runPolicy.successPolicy.rules}, which override the kind's default policy: the job succeeds when
 * any rule holds (every listed type has at least that many succeeded replicas), and fails only once no rule can hold.
 */
final class SuccessRules implements SuccessPolicy {
  private final List<SuccessRule> rules;

  private SuccessRules(List<SuccessRule> rules) {
    this.rules = rules;
  }

  /** The job's rules, or null when it has none (the framework's default policy applies). */
  static <J extends TrainingJob<?>> SuccessRules of(JobContext<J> ctx) {
    SuccessPolicySpec spec = ctx.runPolicy().getSuccessPolicy();
    if (spec == null || spec.getRules() == null || spec.getRules().isEmpty()) {
      return null;
    }
    return new SuccessRules(spec.getRules());
  }

  @Override
  public boolean holds(ReplicaOutcomes outcomes) {
    return rules.stream().anyMatch(rule -> counts(rule).entrySet().stream()
        .allMatch(e -> outcomes.of(e.getKey()).succeeded().size() >= e.getValue()));
  }

  /** Whether some rule can still hold: for each of its types, enough replicas have not failed for good. */
  boolean reachable(ReplicaOutcomes outcomes) {
    return rules.stream().anyMatch(rule -> counts(rule).entrySet().stream().allMatch(e -> {
      var t = outcomes.of(e.getKey());
      return t.replicas() - t.failed().size() >= e.getValue();
    }));
  }

  private static Map<String, Integer> counts(SuccessRule rule) {
    return rule.getSucceeded() == null ? Map.of() : rule.getSucceeded();
  }
}
