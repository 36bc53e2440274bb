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
    Service service = headless(ctx, ReplicaHosts.jobService(ctx.job()),
        JobLabels.ofJob(ctx.controllerName(), ctx.name()));
    service.getSpec().setPublishNotReadyAddresses(true);
    return service;
  }

  static <J extends TrainingJob<?>> Service build(JobContext<J> ctx, ReplicaId replica, Pod desiredPod) {
    Container container = ctx.defaultContainer(desiredPod.getSpec());
    List<ServicePort> ports = container == null || container.getPorts() == null ? List.of()
        : container.getPorts().stream()
            .map(p -> new ServicePortBuilder().withName(p.getName()).withPort(p.getContainerPort()).build())
            .toList();
    Service service = headless(ctx, ctx.podName(replica),
        JobLabels.ofReplica(ctx.controllerName(), ctx.name(), replica));
    service.getSpec().setPorts(ports);
    return service;
  }

  /** A headless Service of the job, selecting the pods of these labels, which it carries too. */
  private static <J extends TrainingJob<?>> Service headless(JobContext<J> ctx, String name,
                                                             Map<String, String> labels) {
    return new ServiceBuilder()
        .withNewMetadata()
          .withName(name)
          .withNamespace(ctx.namespace())
          .withLabels(labels)
          .withOwnerReferences(ctx.ownerReference())
        .endMetadata()
        .withNewSpec()
          .withClusterIP("None")
          .withSelector(labels)
        .endSpec()
        .build();
  }
}
