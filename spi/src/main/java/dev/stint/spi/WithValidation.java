package dev.stint.spi;

import java.util.List;

/**
 * Capability: semantic checks the CRD schema cannot express. A kind without it relies on its CRD alone.
 *
 * @param <J> the custom resource class of the kind
 */
public interface WithValidation<J extends TrainingJob<?>> {

  /**
   * The problems of a job, each naming its field ({@code spec.pytorchReplicaSpecs.Master.replicas: must be 1}); empty
   * when it is valid. A job with problems gets {@code Failed=True} with these messages, and no pods.
   */
  List<String> validate(J job);
}
