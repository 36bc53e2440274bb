package dev.stint.spi;

/**
 * Capability: the pods of some replica types run inside a {@code batch/v1} Job, as the MPI Operator v2 runs an
 * MPIJob's launcher, so that a controller of the same kind that looks for that Job (the upstream operator, after a
 * swap) finds it and uses it instead of starting a second one.
 *
 * <p>The engine does the rest: it creates a Job named as the pod would be, controlled by the training job, whose
 * template is the fully wired pod (labels, environment, hostname as for any replica), with {@code backoffLimit} 0
 * for {@code Never}/{@code ExitCode} (the engine counts restarts and {@code backoffLimit} itself) and no limit for
 * {@code OnFailure} (the kubelet restarts the container in place; the engine counts those restarts). Deleting the
 * replica (suspension, restart, end of the job) deletes the Job and its pod. The pod is seen as the replica by its
 * {@code replica-type} and {@code replica-index} labels whatever its name ({@code <pod name>-<suffix>}). A Job of that
 * name controlled by the training job but not made by Stint (the upstream operator's) is adopted as it is until it
 * ends. The cluster must run the Job controller.
 *
 * @param <J> the custom resource class of the kind
 */
public interface WithJobCarriedReplicas<J extends TrainingJob<?>> {

  /** Whether the pods of {@code replicaType} run inside a batch Job. */
  boolean carriedByJob(J job, String replicaType);
}
