package dev.stint.spi;

/**
 * Capability: pod names other than Kubeflow's {@code <job>-<type in lower case>-<index>} ({@link ReplicaId#podName}),
 * as MPIJob v2 names its launcher {@code <job>-launcher}.
 *
 * @param <J> the custom resource class of the kind
 */
public interface WithPodNames<J extends TrainingJob<?>> {

  /**
   * The name of a replica's pod, and of its headless service when the kind has one per pod. Names must be stable (the
   * same job and replica always give the same name) and distinct per replica: the engine creates a pod only when none
   * of that name exists.
   */
  String podName(J job, ReplicaId replica);
}
