package dev.stint.spi;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * Capability: objects besides pods and services that a job needs (an autoscaler, a hostfile ConfigMap, a Secret), which
 * the engine creates, owns, labels, keeps as returned and deletes at the end of their {@link SupportingResource.Lifetime}.
 *
 * @param <J> the custom resource class of the kind
 */
public interface WithSupportingResources<J extends TrainingJob<?>> {

  /**
   * The objects a job needs now. Called on every reconcile of a job that is not finished, with what its replicas are
   * doing, so an object can follow them (a hostfile listing the running workers). A suspended job is asked too, with
   * no replica running; only its {@link SupportingResource.Lifetime#WITH_JOB} objects are kept. Content that is
   * costly to make and created only once (a generated key) goes in {@link SupportingResource#createdOnce}, so that it
   * is made only when the object is missing.
   */
  List<SupportingResource> supportingResources(J job, ReplicaOutcomes outcomes);

  /** The kinds {@link #supportingResources} may return, so that the engine can watch, find and delete them. */
  List<Class<? extends HasMetadata>> supportingResourceTypes();

  /**
   * Whether each pod gets a headless service of its own name (the Kubeflow v1 kinds; the default). A kind that wants
   * one service for the whole job (MPIJob v2) returns false and supplies it as a supporting resource.
   */
  default boolean servicePerPod() {
    return true;
  }
}
