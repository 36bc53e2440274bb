package dev.stint.spi;

import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;

/**
 * A job custom resource. A kind declares itself as
 * {@code class FooJob extends CustomResource<FooJobSpec, JobStatus> implements TrainingJob<FooJobSpec>}: the methods
 * below are then already implemented by {@code CustomResource}.
 *
 * @param <S> the spec type
 */
public interface TrainingJob<S extends TrainingJobSpec> extends HasMetadata, Namespaced {
  S getSpec();

  JobStatus getStatus();

  void setStatus(JobStatus status);
}
