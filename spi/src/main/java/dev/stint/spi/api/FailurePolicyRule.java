package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * One rule of {@code spec.runPolicy.failurePolicy.rules}: which member failures it matches (every condition given must
 * hold; a condition left out matches any failure) and the action it takes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("One rule: the failures it matches (every condition given must hold) and what it does.")
public class FailurePolicyRule {
  /** End the job {@code Failed} at once. */
  public static final String FAIL_JOB = "FailJob";
  /** Restart the gang; the restart counts toward {@code maxRestarts}. */
  public static final String RESTART_JOB = "RestartJob";
  /** Restart the gang without counting toward {@code maxRestarts}. */
  public static final String RESTART_JOB_AND_IGNORE_MAX_RESTARTS = "RestartJobAndIgnoreMaxRestarts";
  /** The reason a disrupted pod carries: the pod condition {@code DisruptionTarget=True}. */
  public static final String DISRUPTION_TARGET = "DisruptionTarget";

  @JsonPropertyDescription("The rule's name, used in conditions and events (default: rule <position from 1>).")
  @Size(max = 63)
  private String name;

  @JsonPropertyDescription("FailJob, RestartJob (counted toward maxRestarts) or RestartJobAndIgnoreMaxRestarts.")
  @Required
  @ValidationRule(value = "self in ['FailJob', 'RestartJob', 'RestartJobAndIgnoreMaxRestarts']",
      message = "spec.runPolicy.failurePolicy.rules.action must be FailJob, RestartJob or "
          + "RestartJobAndIgnoreMaxRestarts")
  private String action;

  @JsonPropertyDescription("Replica types whose members' failures the rule matches, for example [Worker]; "
      + "empty or unset: every type.")
  @Size(max = 8)
  private List<String> targetReplicaTypes;

  @JsonPropertyDescription("Exit codes of the member's container (the kind's default container, else the first) "
      + "that the rule matches; unset: any.")
  @Size(max = 32)
  @ValidationRule(value = "self.all(c, c >= 1)",
      message = "spec.runPolicy.failurePolicy.rules.onExitCodes: a failed container exits with 1 or more")
  private List<Integer> onExitCodes;

  @JsonPropertyDescription("Pod failure reasons the rule matches, any of them: DisruptionTarget (preempted, evicted, "
      + "node drained or lost), the DisruptionTarget condition's own reason (PreemptionByScheduler, "
      + "EvictionByEvictionAPI, DeletionByTaintManager, DeletionByPodGC, TerminationByKubelet), the pod's "
      + "status.reason (Evicted, DeadlineExceeded, ...) or its container's terminated reason (OOMKilled, Error, ...). "
      + "Unset: any failure that is not a disruption.")
  @Size(max = 16)
  private List<String> onPodFailureReasons;

  public String getName() { return name; }
  public void setName(String name) { this.name = name; }
  public String getAction() { return action; }
  public void setAction(String action) { this.action = action; }
  public List<String> getTargetReplicaTypes() { return targetReplicaTypes; }
  public void setTargetReplicaTypes(List<String> v) { this.targetReplicaTypes = v; }
  public List<Integer> getOnExitCodes() { return onExitCodes; }
  public void setOnExitCodes(List<Integer> onExitCodes) { this.onExitCodes = onExitCodes; }
  public List<String> getOnPodFailureReasons() { return onPodFailureReasons; }
  public void setOnPodFailureReasons(List<String> v) { this.onPodFailureReasons = v; }
}
