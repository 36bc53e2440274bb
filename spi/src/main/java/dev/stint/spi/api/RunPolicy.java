package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * {@code spec.runPolicy}: the Kubeflow v1 run policy, shared by every kind, plus Stint's optional additions. Its
 * {@code Integer}s are int32 and its {@code Quantity}s quantities, as upstream's: the CRD finisher bounds them and
 * gives them their syntax in every kind's schema, so no job is stored that the operator could not read.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(oldSelf.managedBy) || (has(self.managedBy) && self.managedBy == oldSelf.managedBy)",
    message = "spec.runPolicy.managedBy is immutable", reason = "FieldValueInvalid", fieldPath = ".managedBy")
@ValidationRule(value = "has(oldSelf.managedBy) || !has(self.managedBy)",
    message = "spec.runPolicy.managedBy is immutable", reason = "FieldValueInvalid", fieldPath = ".managedBy")
// serviceMode's immutability is a root rule (JobRules.SERVICE_MODE_KEPT): one here misses runPolicy added or removed
public class RunPolicy {

  @JsonPropertyDescription("What to delete once the job has finished: None (default), Running or All.")
  @ValidationRule(value = "self in ['', 'None', 'Running', 'All']",
      message = "spec.runPolicy.cleanPodPolicy must be one of None, Running, All")
  private String cleanPodPolicy;

  @JsonPropertyDescription("Seconds after the job finished before the job object is deleted.")
  @Min(0)
  private Integer ttlSecondsAfterFinished;

  @JsonPropertyDescription("Seconds of continuous running (since startTime) after which the job fails.")
  @Min(0)
  private Long activeDeadlineSeconds;

  @JsonPropertyDescription("Number of retries (pod recreations and container restarts) before the job fails.")
  @Min(0)
  private Integer backoffLimit;

  @JsonPropertyDescription("Seconds a pod may wait to start (unschedulable, an image that cannot be pulled, a "
      + "missing Secret or ConfigMap, a slow init container) before the job fails naming the cause; unset: it waits "
      + "as long as it takes (a Stint addition). Crash loops count toward backoffLimit instead. A suspended job never "
      + "fails for this; the clock restarts on resume.")
  @Min(1)
  private Long podsWaitingTimeoutSeconds;

  private SchedulingPolicy schedulingPolicy;

  @JsonPropertyDescription("Suspend the job: delete its pods, keep the job; resuming recreates them from the current templates.")
  @Default("false")
  private Boolean suspend;

  @JsonPropertyDescription("The controller that reconciles this job: kubeflow.org/training-operator (Stint) or "
      + "kueue.x-k8s.io/multikueue. Immutable.")
  @ValidationRule(value = "self in ['kubeflow.org/training-operator', 'kueue.x-k8s.io/multikueue']",
      message = "spec.runPolicy.managedBy must be kubeflow.org/training-operator or kueue.x-k8s.io/multikueue")
  private String managedBy;

  @JsonPropertyDescription("How the pods are reached by name (a Stint addition): PerReplica (default), a headless "
      + "Service per replica named as its pod, as the Kubeflow training operator; PerJob, one headless Service named "
      + "as the job, each pod reached as <pod>.<job> (hostname and subdomain, as JobSet). Immutable.")
  @ValidationRule(value = "self in ['PerReplica', 'PerJob']",
      message = "spec.runPolicy.serviceMode must be PerReplica or PerJob")
  private String serviceMode;

  @JsonPropertyDescription("Rules that override the kind's default success policy (a Stint addition).")
  private SuccessPolicySpec successPolicy;

  @JsonPropertyDescription("What a member's failure does: restart the whole gang, up to maxRestarts, or fail the job "
      + "(a Stint addition, in JobSet's vocabulary). Unset: a failed pod is restarted alone.")
  private FailurePolicySpec failurePolicy;

  public String getCleanPodPolicy() { return cleanPodPolicy; }
  public void setCleanPodPolicy(String cleanPodPolicy) { this.cleanPodPolicy = cleanPodPolicy; }
  public Integer getTtlSecondsAfterFinished() { return ttlSecondsAfterFinished; }
  public void setTtlSecondsAfterFinished(Integer v) { this.ttlSecondsAfterFinished = v; }
  public Long getActiveDeadlineSeconds() { return activeDeadlineSeconds; }
  public void setActiveDeadlineSeconds(Long v) { this.activeDeadlineSeconds = v; }
  public Integer getBackoffLimit() { return backoffLimit; }
  public void setBackoffLimit(Integer backoffLimit) { this.backoffLimit = backoffLimit; }
  /** Seconds a pod may wait to start before the job fails, or null: no limit (the default). */
  public Long getPodsWaitingTimeoutSeconds() { return podsWaitingTimeoutSeconds; }
  public void setPodsWaitingTimeoutSeconds(Long v) { this.podsWaitingTimeoutSeconds = v; }
  public SchedulingPolicy getSchedulingPolicy() { return schedulingPolicy; }
  public void setSchedulingPolicy(SchedulingPolicy v) { this.schedulingPolicy = v; }
  public Boolean getSuspend() { return suspend; }
  public void setSuspend(Boolean suspend) { this.suspend = suspend; }
  public String getManagedBy() { return managedBy; }
  public void setManagedBy(String managedBy) { this.managedBy = managedBy; }

  /** {@code PerReplica}, {@code PerJob}, or null (PerReplica); {@link dev.stint.spi.ReplicaHosts} reads it. */
  public String getServiceMode() { return serviceMode; }
  public void setServiceMode(String serviceMode) { this.serviceMode = serviceMode; }

  public SuccessPolicySpec getSuccessPolicy() { return successPolicy; }
  public void setSuccessPolicy(SuccessPolicySpec successPolicy) { this.successPolicy = successPolicy; }

  public FailurePolicySpec getFailurePolicy() { return failurePolicy; }
  public void setFailurePolicy(FailurePolicySpec failurePolicy) { this.failurePolicy = failurePolicy; }

  /** True when {@code suspend} is set to true. */
  public boolean suspended() { return Boolean.TRUE.equals(suspend); }
}
