package dev.stint.examples.jax;

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
import java.util.Map;

/**
 * {@code spec} of a JAXJob, field for field upstream's {@code JAXJobSpec}. The CEL rules check what upstream's
 * validating webhook checked, so the API server refuses a wrong job with a message naming the field.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class JAXJobSpec extends KubeflowJobSpec<RunPolicy> {

  /** The only replica type of a JAXJob. */
  public static final String WORKER = "Worker";

  @JsonProperty("jaxReplicaSpecs")
  @JsonPropertyDescription("The replica types of the job: Worker, with its replicas, pod template and restart policy.")
  @Required
  @Size(min = 1, max = 1)
  @ValidationRule(value = "self.all(t, t == 'Worker')",
      message = "spec.jaxReplicaSpecs: the replica type must be Worker")
  @ValidationRule(value = JobRules.EVERY_TYPE_HAS_CONTAINERS, message = "spec.jaxReplicaSpecs" + JobRules.NEEDS_CONTAINERS)
  @ValidationRule(value = "self.all(t, !(" + JobRules.HAS_CONTAINERS + ") || "
      + "self[t].template.spec.containers.exists(c, has(c.name) && c.name == 'jax'))",
      message = "spec.jaxReplicaSpecs: Worker needs a container named jax in template.spec.containers")
  private Map<String, ReplicaSpec> jaxReplicaSpecs;

  public Map<String, ReplicaSpec> getJaxReplicaSpecs() { return jaxReplicaSpecs; }
  public void setJaxReplicaSpecs(Map<String, ReplicaSpec> specs) { this.jaxReplicaSpecs = specs; }

  @Override
  public Map<String, ReplicaSpec> replicaSpecs() { return jaxReplicaSpecs; }

  @Override
  public String replicaSpecsField() { return "jaxReplicaSpecs"; }
}
