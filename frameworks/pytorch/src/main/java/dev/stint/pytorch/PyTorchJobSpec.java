package dev.stint.pytorch;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stint.spi.api.JobRules;
import dev.stint.spi.api.KubeflowJobSpec;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.api.RunPolicy;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Map;
import java.util.Optional;

/**
 * {@code spec} of a PyTorchJob, field for field the Kubeflow training operator v1.9 {@code PyTorchJobSpec}. The CEL
 * rules carry what the upstream validating webhook checked, so no webhook is needed; each message names its field.
 */
@JsonClassDescription("The desired job: its replica types, run policy and torchrun settings.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.elasticPolicy) || (has(self.pytorchReplicaSpecs) && has(self.pytorchReplicaSpecs.Worker))",
    message = "spec.pytorchReplicaSpecs.Worker: must be set when spec.elasticPolicy is used")
@ValidationRule(value = "!has(self.nprocPerNode) || !has(self.elasticPolicy) || !has(self.elasticPolicy.nProcPerNode)",
    message = "spec.elasticPolicy.nProcPerNode: must not be used with spec.nprocPerNode")
public class PyTorchJobSpec extends KubeflowJobSpec<RunPolicy> {
  /** The replica types of a PyTorchJob, in the order the engine evaluates and creates them. */
  public static final String MASTER = "Master";
  /** The Worker replica type. */
  public static final String WORKER = "Worker";

  @JsonProperty("elasticPolicy")
  @JsonPropertyDescription("Elastic training with torchrun rendezvous; with metrics, an autoscaler for Workers.")
  private ElasticPolicy elasticPolicy;

  @JsonProperty("pytorchReplicaSpecs")
  @JsonPropertyDescription("The replica types of the job, Master (at most one replica) and Worker, each with its "
      + "replicas, pod template and restart policy.")
  @Required
  @Size(min = 1, max = 2)
  @ValidationRule(value = "self.all(t, t == 'Master' || t == 'Worker')",
      message = "spec.pytorchReplicaSpecs: replica types must be Master or Worker")
  @ValidationRule(value = JobRules.EVERY_TYPE_HAS_CONTAINERS,
      message = "spec.pytorchReplicaSpecs" + JobRules.NEEDS_CONTAINERS)
  @ValidationRule(value = JobRules.EVERY_CONTAINER_HAS_IMAGE,
      message = "spec.pytorchReplicaSpecs" + JobRules.NEEDS_IMAGES)
  @ValidationRule(value = "self.all(t, !(" + JobRules.HAS_CONTAINERS + ") || "
      + "self[t].template.spec.containers.exists(c, has(c.name) && c.name == 'pytorch'))",
      message = "spec.pytorchReplicaSpecs: every replica type needs a container named pytorch in "
          + "template.spec.containers")
  @ValidationRule(value = "!has(self.Master) || !has(self.Master.replicas) || self.Master.replicas == 1",
      message = "spec.pytorchReplicaSpecs.Master.replicas: must be 1")
  @ValidationRule(value = "!has(self.Worker) || !has(self.Worker.replicas) || self.Worker.replicas >= 1",
      message = "spec.pytorchReplicaSpecs.Worker.replicas: must be at least 1")
  private Map<String, ReplicaSpec> pytorchReplicaSpecs;

  @JsonProperty("nprocPerNode")
  @JsonPropertyDescription("Number of processes per node: auto, cpu, gpu, another device type torchrun knows (xpu, "
      + "npu, ...) or a positive integer. Defaults to auto (unless the deprecated elasticPolicy.nProcPerNode is set).")
  @Pattern(PyTorchJobValidation.NPROC_PER_NODE_PATTERN) // torchrun's --nproc-per-node; a pattern costs no CEL
  private String nprocPerNode;

  public ElasticPolicy getElasticPolicy() { return elasticPolicy; }
  public void setElasticPolicy(ElasticPolicy elasticPolicy) { this.elasticPolicy = elasticPolicy; }
  public Map<String, ReplicaSpec> getPytorchReplicaSpecs() { return pytorchReplicaSpecs; }
  public void setPytorchReplicaSpecs(Map<String, ReplicaSpec> v) { this.pytorchReplicaSpecs = v; }
  public String getNprocPerNode() { return nprocPerNode; }
  public void setNprocPerNode(String nprocPerNode) { this.nprocPerNode = nprocPerNode; }

  @Override
  public Map<String, ReplicaSpec> replicaSpecs() { return pytorchReplicaSpecs; }

  @Override
  public String replicaSpecsField() { return "pytorchReplicaSpecs"; }

  /**
   * {@code nprocPerNode} after the upstream defaulting: {@code auto} when unset, unless the deprecated
   * {@code elasticPolicy.nProcPerNode} is set (then empty). Computed, never written back to the job.
   */
  public Optional<String> effectiveNprocPerNode() {
    if (nprocPerNode != null) return Optional.of(nprocPerNode);
    boolean deprecatedFieldSet = elasticPolicy != null && elasticPolicy.getNProcPerNode() != null;
    return deprecatedFieldSet ? Optional.empty() : Optional.of("auto");
  }
}
