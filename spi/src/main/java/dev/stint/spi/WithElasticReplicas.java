package dev.stint.spi;

import java.util.OptionalInt;

/**
 * Capability: a job that can run with fewer replicas of a type than its spec asks (an elastic PyTorchJob's workers).
 * With Kueue in native mode this lets Kueue admit the job partially: the type's podSet gets {@code minCount}, and the
 * engine runs the admitted count. Kueue allows it on one podSet of a job: the first type, in
 * {@link TrainingFramework#replicaTypes} order, that has one. (SPI 1.1's {@code minReplicas}, unchanged.)
 *
 * @param <J> the custom resource class of the kind
 */
public interface WithElasticReplicas<J extends TrainingJob<?>> {

  /** The fewest replicas of a type the job can run with; empty when it needs them all. */
  OptionalInt minReplicas(J job, String replicaType);
}
