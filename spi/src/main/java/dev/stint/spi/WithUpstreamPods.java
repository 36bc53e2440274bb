package dev.stint.spi;

import java.util.Map;

/**
 * Capability: pods that the kind's upstream operator made, and left behind at a swap to Stint, carry other labels
 * than the {@code replica-type} and {@code replica-index} Stint reads (the MPI Operator v2 labels only
 * {@code job-role}, and a worker's index). The engine asks which replica such a pod is, so it takes the pod over
 * instead of creating a second one.
 *
 * @param <J> the custom resource class of the kind
 */
public interface WithUpstreamPods<J extends TrainingJob<?>> {

  /**
   * The replica of a pod of the job whose labels lack {@code replica-type} or {@code replica-index}, or null when
   * the labels do not say.
   */
  ReplicaId upstreamReplica(Map<String, String> podLabels);
}
