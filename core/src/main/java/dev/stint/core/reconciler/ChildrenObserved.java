package dev.stint.core.reconciler;

import dev.stint.core.decision.EngineFramework;
import dev.stint.core.decision.JobLabels;
import dev.stint.core.decision.Observed;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.util.ArrayList;
import java.util.List;

/**
 * What a job has in the informers' caches for one pass: its pods, its replicas' services, and its supporting objects
 * (a job-level service, the kind's own resources, a PodGroup), each owned by the job as controller.
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
    return new Observed(
        context.getSecondaryResources(Pod.class).stream().filter(p -> ownedBy(p, uid)).toList(), services, supporting);
  }

  private static boolean ownedBy(HasMetadata child, String uid) {
    return child.getMetadata().getOwnerReferences() != null && child.getMetadata().getOwnerReferences().stream()
        .anyMatch(r -> uid.equals(r.getUid()) && Boolean.TRUE.equals(r.getController()));
  }
}
