package dev.stint.core.decision;

import dev.stint.core.model.JobLabels;
import dev.stint.spi.ReplicaHosts;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.TrainingJob;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import java.util.List;
import java.util.Map;

/**
 * The headless services of a job: by default one per replica, of its pod's name, selecting exactly that pod and
 * exposing its ports; with {@code runPolicy.serviceMode: PerJob} one for the whole job, of the job's name, selecting
 * every pod of the job (which have the job's name as {@code subdomain}).
 */
final class DesiredServices {

  private DesiredServices() { }

  /**
   * The job's one Service. It publishes pods that are not ready yet, as JobSet's does: training code resolves its
   * peers while they start (a rendezvous), before any readiness a template may define.
   */
  static <J extends TrainingJob<?>> Service forJob(JobContext<J> ctx) {
    Map<String, String> labels = JobLabels.ofJob(ctx.controllerName(), ctx.name());
    return new ServiceBuilder()
        .withNewMetadata()
          .withName(ReplicaHosts.jobService(ctx.job()))
          .withNamespace(ctx.namespace())
          .withLabels(labels)
          .withOwnerReferences(ctx.ownerReference())
        .endMetadata()
        .withNewSpec()
          .withClusterIP("None")
          .withSelector(labels)
          .withPublishNotReadyAddresses(true)
        .endSpec()
        .build();
  }

  static <J extends TrainingJob<?>> Service build(JobContext<J> ctx, ReplicaId replica, Pod desiredPod) {
    Map<String, String> labels = JobLabels.ofReplica(ctx.controllerName(), ctx.name(), replica);
    Container container = ctx.defaultContainer(desiredPod.getSpec());
    List<ServicePort> ports = container == null || container.getPorts() == null ? List.of()
        : container.getPorts().stream()
            .map(p -> new ServicePortBuilder().withName(p.getName()).withPort(p.getContainerPort()).build())
            .toList();
    return new ServiceBuilder()
        .withNewMetadata()
          .withName(ctx.podName(replica))
          .withNamespace(ctx.namespace())
          .withLabels(labels)
          .withOwnerReferences(ctx.ownerReference())
        .endMetadata()
        .withNewSpec()
          .withClusterIP("None")
          .withSelector(labels)
          .withPorts(ports)
        .endSpec()
        .build();
  }
}
