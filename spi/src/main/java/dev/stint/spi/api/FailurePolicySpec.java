package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * {@code spec.runPolicy.failurePolicy} (a Stint addition, in JobSet's vocabulary): what a failure of one member does.
 * Distributed training cannot take back one lost member, so the engine restarts the whole gang: every pod deleted as
 * in a suspension, then created again from the current templates with the attempt number as the label
 * {@link dev.stint.spi.KubeflowLabels#RESTART_ATTEMPT} and the variable {@code STINT_RESTART_ATTEMPT}. The rules are
 * read in order, the first that matches a failure decides; a failure no rule matches restarts the gang and counts
 * toward {@link #getMaxRestarts maxRestarts}; a disruption ({@code DisruptionTarget}) that no rule names restarts it
 * without counting. Absent, a failed pod is restarted alone, as the Kubeflow training operator does.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FailurePolicySpec {
  /** Delete every pod, and create each again as soon as its old pod is gone (the default). */
  public static final String RECREATE = "Recreate";
  /** Delete every pod, and create none again until every old one is gone. */
  public static final String BLOCKING_RECREATE = "BlockingRecreate";

  @JsonPropertyDescription("Gang restarts that count (rules with action RestartJob, and failures no rule matches) "
      + "before the job fails. Default 0: the first counted failure fails the job, as JobSet's maxRestarts.")
  @Min(0)
  @Max(10000)
  private Integer maxRestarts;

  @JsonPropertyDescription("Recreate (default): each pod is created again as soon as its old pod is gone. "
      + "BlockingRecreate: no pod is created again until every old pod is gone.")
  @ValidationRule(value = "self in ['Recreate', 'BlockingRecreate']",
      message = "spec.runPolicy.failurePolicy.restartStrategy must be Recreate or BlockingRecreate")
  private String restartStrategy;

  @JsonPropertyDescription("Rules read in order; the first that matches a member's failure decides what it does. "
      + "No match: the gang restarts, counted toward maxRestarts (a disruption: not counted).")
  @Size(min = 1, max = 16)
  private List<FailurePolicyRule> rules;

  public Integer getMaxRestarts() { return maxRestarts; }
  public void setMaxRestarts(Integer maxRestarts) { this.maxRestarts = maxRestarts; }
  public String getRestartStrategy() { return restartStrategy; }
  public void setRestartStrategy(String restartStrategy) { this.restartStrategy = restartStrategy; }
  public List<FailurePolicyRule> getRules() { return rules; }
  public void setRules(List<FailurePolicyRule> rules) { this.rules = rules; }

  /** {@code maxRestarts}, 0 when unset. */
  public int maxRestartsOrDefault() { return maxRestarts == null ? 0 : maxRestarts; }

  /** The rules, empty when unset. */
  public List<FailurePolicyRule> rulesOrEmpty() { return rules == null ? List.of() : rules; }

  /** True when no pod of a new attempt may be created before every old pod is gone. */
  @JsonIgnore
  public boolean blocking() { return BLOCKING_RECREATE.equals(restartStrategy); }
}
