package dev.stint.spi.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stint.spi.TrainingJobSpec;

/**
 * What the {@code spec} of every Kubeflow kind has besides its replica-spec map: {@code runPolicy}. A kind's spec
 * class extends it and adds its own map ({@code pytorchReplicaSpecs}, with the kind's CEL rules) and fields; the
 * schema is the same as with the field declared in the kind's class (the CRD generator sorts properties by name).
 * A kind whose upstream words the field's description otherwise overrides {@link #getRunPolicy()} with its own
 * {@code @JsonPropertyDescription}.
 *
 * @param <P> the run policy type: {@link RunPolicy}, or a kind's subclass of it that narrows a field's rule
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class KubeflowJobSpec<P extends RunPolicy> implements TrainingJobSpec {

  @JsonProperty("runPolicy")
  @JsonPropertyDescription("Runtime policies of the job: clean-up, TTL, deadline, backoff, suspension, gang "
      + "scheduling.")
  private P runPolicy;

  public P getRunPolicy() { return runPolicy; }

  public void setRunPolicy(P runPolicy) { this.runPolicy = runPolicy; }

  @Override
  public RunPolicy runPolicy() { return runPolicy; }
}
