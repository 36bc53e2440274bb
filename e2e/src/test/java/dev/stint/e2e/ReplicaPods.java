package dev.stint.e2e;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Pods by the name of their replica. A pod that a batch Job runs (an MPIJob's launcher, {@code <job>-launcher-<5
 * characters>}, made by the Job controller) goes by its Job's name, {@code <job>-launcher}, which is the name the
 * replica had when it was a pod of the job's own, and still its hostname.
 */
final class ReplicaPods {

  private ReplicaPods() { }

  /** The pod's replica name: its Job's name when a batch Job controls it, else its own. */
  static String replicaName(Pod pod) {
    OwnerReference job = carrier(pod);
    return job == null ? pod.getMetadata().getName() : job.getName();
  }

  /** The batch Job that controls the pod, or null. */
  static OwnerReference carrier(Pod pod) {
    return pod.getMetadata().getOwnerReferences() == null ? null : pod.getMetadata().getOwnerReferences().stream()
        .filter(r -> Boolean.TRUE.equals(r.getController()) && "Job".equals(r.getKind())
            && "batch/v1".equals(r.getApiVersion()))
        .findFirst().orElse(null);
  }

  /**
   * The name of the pod that runs the replica: a pod of that name, else the live pod of the batch Job of that name,
   * else the replica name itself (nothing runs it now).
   */
  static String podName(KubernetesClient client, String ns, String replicaName) {
    if (client.pods().inNamespace(ns).withName(replicaName).get() != null) {
      return replicaName;
    }
    return client.pods().inNamespace(ns).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null && replicaName.equals(replicaName(p)))
        .map(p -> p.getMetadata().getName()).findFirst().orElse(replicaName);
  }
}
