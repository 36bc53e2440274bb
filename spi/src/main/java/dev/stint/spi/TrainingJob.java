package dev.stint.spi;

import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;

/**
 * A job custom resource. A kind declares itself as
 * {@code class FooJob extends CustomResource<FooJobSpec, JobStatus> implements TrainingJob<FooJobSpec>}: the methods
 * below are then already implemented by {@code CustomResource}. (There is deliberately no {@code setStatus} here: a
 * second, bridged setter would make Jackson refuse the class.)
 *
 * @param <S> the spec type
 */
// HasMetadata names fabric8's polymorphic deserializer; a concrete kind must be read as itself, or reading recurses
@JsonDeserialize(using = JsonDeserializer.None.class)
public interface TrainingJob<S extends TrainingJobSpec> extends HasMetadata, Namespaced {
  S getSpec();

  JobStatus getStatus();
}
