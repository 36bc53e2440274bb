package dev.stint.spi;

/**
 * Capability: some replicas start only after others, as an MPI launcher with
 * {@code launcherCreationPolicy: WaitForWorkersReady} waits for its workers. Without it every pod is created at once.
 *
 * @param <J> the custom resource class of the kind
 */
public interface WithLaunchOrder<J extends TrainingJob<?>> {

  /** Whether a missing pod may be created now, given what the job's replicas are doing. */
  boolean readyToCreate(J job, ReplicaId replica, ReplicaOutcomes outcomes);
}
