package dev.stint.core.decision;

import dev.stint.core.model.JobLabels;
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

/** The headless service of one replica: same name as its pod, selecting exactly that pod, exposing its ports. */
final class DesiredServices {

  private DesiredServices() { }

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
