package dev.stint.tensorflow;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stint.spi.api.JobRules;
import dev.stint.spi.api.KubeflowJobSpec;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.api.RunPolicy;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import java.util.Map;

/**
 * {@code spec} of a TFJob, field for field the Kubeflow training operator v1.9 {@code TFJobSpec}. The CEL rules carry
 * what the upstream validating webhook checked, so no webhook is needed; each message names its field.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The desired job: its replica types, run policy and TensorFlow settings.")
public class TFJobSpec extends KubeflowJobSpec<RunPolicy> {
  /** The chief: coordinates training and writes checkpoints; its success is the job's. */
  public static final String CHIEF = "Chief";
  /** Evaluates checkpoints beside training. */
  public static final String EVALUATOR = "Evaluator";
  /** The older name of the chief role. */
  public static final String MASTER = "Master";
  /** A parameter server. */
  public static final String PS = "PS";
  /** A worker. */
  public static final String WORKER = "Worker";
  /** The replica types in upstream's fixed order of evaluation and creation. */
  public static final List<String> REPLICA_TYPES = List.of(CHIEF, EVALUATOR, MASTER, PS, WORKER);
  /** The {@code successPolicy} value that makes a job without chief wait for every worker. */
  public static final String ALL_WORKERS = "AllWorkers";

  @JsonProperty("successPolicy")
  @JsonPropertyDescription("When a job without Chief or Master has succeeded: \"\" (default) once Worker 0 "
      + "succeeded, AllWorkers once every Worker succeeded.")
  @ValidationRule(value = "self in ['', 'AllWorkers']",
      message = "spec.successPolicy: must be \"\" or AllWorkers")
  private String successPolicy;

  @JsonProperty("tfReplicaSpecs")
  @JsonPropertyDescription("The replica types of the job (Chief, Master, PS, Worker, Evaluator), each with its "
      + "replicas, pod template and restart policy. For example, {\"PS\": ReplicaSpec, \"Worker\": ReplicaSpec}.")
  @Required
  @Size(min = 1, max = 5)
  @ValidationRule(value = "self.all(t, t in ['Chief', 'Master', 'PS', 'Worker', 'Evaluator'])",
      message = "spec.tfReplicaSpecs: replica types must be Chief, Master, PS, Worker or Evaluator")
  @ValidationRule(value = "!(has(self.Chief) && has(self.Master))",
      message = "spec.tfReplicaSpecs: must not have more than 1 Chief or Master role")
  @ValidationRule(value = JobRules.EVERY_TYPE_HAS_CONTAINERS,
      message = "spec.tfReplicaSpecs" + JobRules.NEEDS_CONTAINERS)
  @ValidationRule(value = JobRules.EVERY_CONTAINER_HAS_IMAGE,
      message = "spec.tfReplicaSpecs" + JobRules.NEEDS_IMAGES)
  @ValidationRule(value = "self.all(t, !(" + JobRules.HAS_CONTAINERS + ") || "
      + "self[t].template.spec.containers.exists(c, has(c.name) && c.name == 'tensorflow'))",
      message = "spec.tfReplicaSpecs: every replica type needs a container named tensorflow in "
          + "template.spec.containers")
  @ValidationRule(value = "!has(self.Chief) || !has(self.Chief.replicas) || self.Chief.replicas == 1",
      message = "spec.tfReplicaSpecs.Chief.replicas: must be 1")
  @ValidationRule(value = "!has(self.Master) || !has(self.Master.replicas) || self.Master.replicas == 1",
      message = "spec.tfReplicaSpecs.Master.replicas: must be 1")
  private Map<String, ReplicaSpec> tfReplicaSpecs;

  @JsonProperty("enableDynamicWorker")
  @JsonPropertyDescription("Dynamic workers: each Worker's TF_CONFIG lists only itself and the parameter servers, "
      + "and a failed Worker does not fail the job.")
  private Boolean enableDynamicWorker;

  public String getSuccessPolicy() { return successPolicy; }
  public void setSuccessPolicy(String successPolicy) { this.successPolicy = successPolicy; }
  public Map<String, ReplicaSpec> getTfReplicaSpecs() { return tfReplicaSpecs; }
  public void setTfReplicaSpecs(Map<String, ReplicaSpec> tfReplicaSpecs) { this.tfReplicaSpecs = tfReplicaSpecs; }
  public Boolean getEnableDynamicWorker() { return enableDynamicWorker; }
  public void setEnableDynamicWorker(Boolean enableDynamicWorker) { this.enableDynamicWorker = enableDynamicWorker; }

  @Override
  public Map<String, ReplicaSpec> replicaSpecs() { return tfReplicaSpecs; }

  @Override
  public String replicaSpecsField() { return "tfReplicaSpecs"; }

  /** Whether {@code enableDynamicWorker} is set to true. */
  @JsonIgnore
  public boolean dynamicWorkers() { return Boolean.TRUE.equals(enableDynamicWorker); }

  /** Whether {@code successPolicy} is {@code AllWorkers}. */
  @JsonIgnore
  public boolean allWorkersMustSucceed() { return ALL_WORKERS.equals(successPolicy); }
}
