package dev.stint.core.reconciler;

import dev.stint.core.decision.CarrierJobs;
import dev.stint.core.decision.Observed;
import dev.stint.core.model.EngineFramework;
import dev.stint.core.model.JobLabels;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a job has in the informers' caches for one pass: its pods, its replicas' services, and its supporting objects
 * (a job-level service, the kind's own resources, a PodGroup), each owned by the job as controller; and for a kind
 * that carries replicas in batch Jobs, those Jobs and their pods ({@link CarrierJobs#observedPods}).
 */
final class ChildrenObserved<J extends TrainingJob<?>> {
  private final EngineFramework<J> framework;
  private final EngineFramework<J> guarded;
  private final boolean gangScheduling;

  ChildrenObserved(EngineFramework<J> framework, EngineFramework<J> guarded, boolean gangScheduling) {
    this.framework = framework;
    this.guarded = guarded;
    this.gangScheduling = gangScheduling;
  }

  Observed observe(J job, Context<J> context) {
    String uid = job.getMetadata().getUid();
    List<HasMetadata> supporting = new ArrayList<>();
    for (Class<? extends HasMetadata> type : guarded.supportingResourceTypes()) {
      if (type != Pod.class && type != Service.class) {
        context.getSecondaryResources(type).stream().filter(r -> ownedBy(r, uid)).forEach(supporting::add);
      }
    }
    List<Service> services = new ArrayList<>();
    boolean jobLevelServices = framework.supportingResourceTypes().contains(Service.class);
    for (Service service : context.getSecondaryResources(Service.class)) {
      if (!ownedBy(service, uid)) {
        continue;
      }
      // a replica's service carries its replica type; one for the whole job is a supporting object
      boolean perReplica = service.getMetadata().getLabels() != null
          && service.getMetadata().getLabels().containsKey(JobLabels.REPLICA_TYPE);
      if (perReplica || !jobLevelServices) {
        services.add(service);
      } else {
        supporting.add(service);
      }
    }
    if (gangScheduling) {
      // PodGroups only: Workloads are generic resources too
      context.getSecondaryResources(GenericKubernetesResource.class).stream()
          .filter(r -> "PodGroup".equals(r.getKind()) && ownedBy(r, uid)).forEach(supporting::add);
    }
    List<Job> carriers = framework.carriesReplicasInJobs()
        ? context.getSecondaryResources(Job.class).stream().filter(j -> ownedBy(j, uid)).toList() : List.of();
    Set<String> carrierUids = carriers.stream().map(j -> j.getMetadata().getUid()).collect(Collectors.toSet());
    Set<String> carrierNames = carriers.stream().map(j -> j.getMetadata().getName()).collect(Collectors.toSet());
    List<Pod> pods = context.getSecondaryResources(Pod.class).stream()
        .filter(p -> ownedBy(p, uid) || carriedFor(p, job, carrierUids, carrierNames)).toList();
    return new Observed(CarrierJobs.observedPods(pods, carriers, guarded::upstreamReplica), services, supporting,
        carriers);
  }

  /**
   * A pod of one of the job's carrier Jobs; or of a Job of the job's that the cache no longer shows (deleted, its pod
   * still terminating), recognised by its job-name label: it must count until it is gone, or a second launcher would
   * start beside it.
   */
  private boolean carriedFor(Pod pod, J job, Set<String> carrierUids, Set<String> carrierNames) {
    if (!framework.carriesReplicasInJobs()) {
      return false;
    }
    String carrier = CarrierJobs.carrierOf(pod);
    if (carrier == null) {
      return false;
    }
    var owner = pod.getMetadata().getOwnerReferences().stream()
        .filter(r -> Boolean.TRUE.equals(r.getController())).findFirst().orElseThrow();
    if (carrierUids.contains(owner.getUid())) {
      return true;
    }
    Map<String, String> labels = pod.getMetadata().getLabels();
    return !carrierNames.contains(carrier) && labels != null
        && JobLabels.jobNameValue(job.getMetadata().getName()).equals(labels.get(JobLabels.JOB_NAME));
  }

  private static boolean ownedBy(HasMetadata child, String uid) {
    return child.getMetadata().getOwnerReferences() != null && child.getMetadata().getOwnerReferences().stream()
        .anyMatch(r -> uid.equals(r.getUid()) && Boolean.TRUE.equals(r.getController()));
  }
}
