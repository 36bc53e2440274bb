package dev.stint.spi;

/**
 * Capability: defaults that differ by replica type. Without it every type restarts as
 * {@link FrameworkDefaults#restartPolicy()} says and has 1 replica when its spec sets none, as in Kubeflow v1.
 */
public interface WithReplicaDefaults {

  /** The restart policy of a type whose spec sets none (MPIJob v2: Launcher {@code OnFailure}, Worker {@code Never}). */
  String defaultRestartPolicy(String replicaType);

  /** The replicas of a type whose spec sets none (MPIJob v2: Launcher 1, Worker 0). */
  int defaultReplicas(String replicaType);
}
