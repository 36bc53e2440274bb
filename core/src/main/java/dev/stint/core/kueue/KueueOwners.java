package dev.stint.core.kueue;

import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Which controller owners Kueue manages, so that a job they own is queued through them and never defaulted into a
 * queue of its own ({@code jobframework.IsOwnerManagedByKueueForObject}: the owner's kind is one of Kueue's
 * integrations or external frameworks). Kueue reads its own configuration; Stint cannot, so it counts every kind
 * Kueue v0.17.0 can integrate ({@code pkg/controller/jobs}) and the kinds Stint serves (external frameworks in native
 * mode). An owner of any other kind (a ConfigMap, a workflow engine's object, a custom operator's) is not Kueue's,
 * and the job it owns is defaulted like any other. Pure.
 */
public final class KueueOwners {
  /** {@code group/Kind} of every integration of Kueue v0.17.0; the core group is empty. */
  static final Set<String> INTEGRATIONS = Set.of("batch/Job", "jobset.x-k8s.io/JobSet",
      "kubeflow.org/MPIJob", "kubeflow.org/PyTorchJob", "kubeflow.org/TFJob", "kubeflow.org/JAXJob",
      "kubeflow.org/PaddleJob", "kubeflow.org/XGBoostJob", "trainer.kubeflow.org/TrainJob", "ray.io/RayJob",
      "ray.io/RayCluster", "ray.io/RayService", "leaderworkerset.x-k8s.io/LeaderWorkerSet", "apps/Deployment",
      "apps/StatefulSet", "/Pod", "workload.codeflare.dev/AppWrapper", "sparkoperator.k8s.io/SparkApplication");

  private final Set<String> managed;

  /** @param served {@code group/Kind} of each kind Stint serves */
  public KueueOwners(Set<String> served) {
    this.managed = Stream.concat(INTEGRATIONS.stream(), served.stream()).collect(Collectors.toUnmodifiableSet());
  }

  /** Whether the controller among these owners is of a kind Kueue manages. */
  public boolean controllerManagedByKueue(List<OwnerReference> owners) {
    return owners != null && owners.stream().filter(o -> Boolean.TRUE.equals(o.getController()))
        .anyMatch(o -> managed.contains(groupKind(o)));
  }

  static String groupKind(OwnerReference owner) {
    String apiVersion = owner.getApiVersion() == null ? "" : owner.getApiVersion();
    int slash = apiVersion.indexOf('/');
    return (slash < 0 ? "" : apiVersion.substring(0, slash)) + "/" + owner.getKind();
  }
}
