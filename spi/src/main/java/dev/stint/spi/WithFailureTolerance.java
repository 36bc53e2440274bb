package dev.stint.spi;

/**
 * Capability: replicas whose failure does not fail the job (a TFJob's dynamic workers; an MPIJob's workers, whose
 * failure the launcher reports). Without it, as upstream, a replica that failed for good fails the job when the
 * success policy does not hold. Jobs with explicit success rules fail only once no rule can hold any more.
 *
 * @param <J> the custom resource class of the kind
 */
public interface WithFailureTolerance<J extends TrainingJob<?>> {

  /** Whether a replica of this type that failed for good (its restart policy does not retry it) fails the job. */
  boolean failureIsFatal(J job, String replicaType);
}
