package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/** One replica type of a job: how many pods, from which template, restarted how. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("One replica type: how many pods, from which template, restarted how.")
public class ReplicaSpec {

  @JsonPropertyDescription("Number of pods of this replica type, at most " + ReplicaLimits.MAX_PER_TYPE
      + ". Defaults to 1 (MPIJob Workers: 0).")
  @Min(0)
  @Max(ReplicaLimits.MAX_PER_TYPE)
  private Integer replicas;

  @JsonPropertyDescription("Pod template of every replica of this type.")
  private PodTemplateSpec template;

  @JsonPropertyDescription("Always, OnFailure, Never or ExitCode (exit codes 128 and above are retried).")
  @ValidationRule(value = "self in ['Always', 'OnFailure', 'Never', 'ExitCode']",
      message = "restartPolicy must be one of Always, OnFailure, Never, ExitCode")
  private String restartPolicy;

  public Integer getReplicas() { return replicas; }
  public void setReplicas(Integer replicas) { this.replicas = replicas; }
  public PodTemplateSpec getTemplate() { return template; }
  public void setTemplate(PodTemplateSpec template) { this.template = template; }
  public String getRestartPolicy() { return restartPolicy; }
  public void setRestartPolicy(String restartPolicy) { this.restartPolicy = restartPolicy; }

  /**
   * Replicas with Kubeflow v1's default of 1 applied. The engine applies the kind's own default
   * ({@link dev.stint.spi.WithReplicaDefaults}); a framework may use this for its kind's types that default to 1.
   */
  public int replicasOrDefault() { return replicas == null ? 1 : replicas; }
}
