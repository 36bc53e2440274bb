package dev.stint.operator.testkind;

import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A minimal job kind for tests of the operator module, which has no built-in framework on its test class path.
 *
 * <p>{@code @JsonDeserialize} is needed because Jackson looks at a class's interfaces before its superclass: without
 * it, {@code KubernetesResource}'s {@code KubernetesDeserializer} (reached through {@code TrainingJob}) wins over
 * {@code CustomResource}'s plain bean deserializer, and the client reads a {@code GenericKubernetesResource}.
 * {@link #setStatus} is redeclared because Jackson otherwise sees two unrelated setters of {@code status}
 * ({@code CustomResource#setStatus(Object)} and {@code TrainingJob#setStatus(JobStatus)}) and refuses the class.
 */
@JsonDeserialize(using = JsonDeserializer.None.class)
@Group("test.stint.dev")
@Version("v1")
public class SleepJob extends CustomResource<SleepJobSpec, JobStatus> implements TrainingJob<SleepJobSpec>, Namespaced {

  @Override
  public void setStatus(JobStatus status) {
    super.setStatus(status);
  }
}
