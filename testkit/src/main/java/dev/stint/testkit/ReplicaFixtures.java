package dev.stint.testkit;

import dev.stint.spi.FrameworkDefaults;
import dev.stint.spi.ReplicaId;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Replica specs and pods for a framework's unit tests, so that a kind's fluent job fixture holds only its own fields:
 * {@code replicas.put("Worker", ReplicaFixtures.replicaSpec(2, "jax", IMAGE))}, and
 * {@code framework.wire(job, replica, ReplicaFixtures.podForWire(job, replica, framework.defaults()))}.
 */
public final class ReplicaFixtures {

  private ReplicaFixtures() { }

  /** A replica spec with a replica count (null: unset) and a template of one container with an image. */
  public static ReplicaSpec replicaSpec(Integer replicas, String container, String image) {
    ReplicaSpec spec = new ReplicaSpec();
    spec.setReplicas(replicas);
    spec.setTemplate(new PodTemplateSpecBuilder().withNewSpec()
        .addNewContainer().withName(container).withImage(image).endContainer()
        .endSpec().build());
    return spec;
  }

  /** Changes the pod template of a replica spec in place. */
  public static void editTemplate(ReplicaSpec spec, Consumer<PodSpecBuilder> change) {
    PodSpecBuilder builder = new PodSpecBuilder(spec.getTemplate().getSpec());
    change.accept(builder);
    spec.getTemplate().setSpec(builder.build());
  }

  /**
   * The pod of one replica as the engine hands it to {@code wire()}: a copy of the replica type's template, named
   * {@code <job>-<type>-<index>} in the job's namespace, with the kind's default restart policy, and the kind's
   * framework port added to its default container when that container has no port of that name.
   */
  public static Pod podForWire(TrainingJob<?> job, ReplicaId replica, FrameworkDefaults defaults) {
    ReplicaSpec spec = job.getSpec().replicaSpecs().get(replica.type());
    Pod pod = new PodBuilder()
        .withMetadata(new ObjectMetaBuilder().withName(replica.podName(job.getMetadata().getName()))
            .withNamespace(job.getMetadata().getNamespace()).build())
        .withSpec(new PodSpecBuilder(spec.getTemplate().getSpec()).withRestartPolicy(defaults.restartPolicy()).build())
        .build();
    if (!defaults.hasPort()) return pod;
    List<Container> containers = new ArrayList<>();
    for (Container container : pod.getSpec().getContainers()) {
      boolean main = !defaults.namesContainer() || defaults.containerName().equals(container.getName());
      containers.add(main ? withDefaultPort(container, defaults) : container);
    }
    pod.getSpec().setContainers(containers);
    return pod;
  }

  private static Container withDefaultPort(Container container, FrameworkDefaults defaults) {
    List<ContainerPort> ports = container.getPorts() == null ? List.of() : container.getPorts();
    if (ports.stream().anyMatch(p -> defaults.portName().equals(p.getName()))) return container;
    return new ContainerBuilder(container).addNewPort()
        .withName(defaults.portName()).withContainerPort(defaults.port()).endPort().build();
  }
}
