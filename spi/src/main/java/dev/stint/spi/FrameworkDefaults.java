package dev.stint.spi;

import dev.stint.spi.api.ReplicaSpec;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.PodSpec;

/**
 * Per-kind defaults, applied in memory by the engine (never written to the job).
 *
 * @param containerName the container that receives the framework port and whose exit code counts
 *     ({@code pytorch}, {@code tensorflow}); every replica template must have a container of that name. Null for a
 *     kind whose main container is simply the first one, whatever its name (MPIJob v2)
 * @param portName the name of the framework port ({@code pytorchjob-port}); null for a kind without a framework port
 * @param port the framework port number added to the default container when it has no port of that name
 * @param restartPolicy the replica restart policy when a replica spec sets none (see
 *     {@link WithReplicaDefaults} for a default per replica type)
 */
public record FrameworkDefaults(String containerName, String portName, int port, String restartPolicy) {

  /** Defaults of a kind whose main container is the first of each template and that adds no port (MPIJob v2). */
  public static FrameworkDefaults firstContainerNoPort(String restartPolicy) {
    return new FrameworkDefaults(null, null, 0, restartPolicy);
  }

  /** Whether the default container is found by name (and every template must have one of that name). */
  public boolean namesContainer() {
    return containerName != null;
  }

  /** Whether the engine adds a framework port to the default container. */
  public boolean hasPort() {
    return portName != null;
  }

  /**
   * The framework port of a replica type's template: the number of the port named {@link #portName()} on the
   * default container, else {@link #port()}. The engine adds the default port only to the pods it builds, never to
   * the stored job, so a template without the port means the default.
   */
  public int templatePort(ReplicaSpec spec) {
    PodSpec pod = spec == null || spec.getTemplate() == null ? null : spec.getTemplate().getSpec();
    if (pod == null || pod.getContainers() == null) {
      return port;
    }
    return pod.getContainers().stream()
        .filter(c -> (containerName == null || containerName.equals(c.getName())) && c.getPorts() != null)
        .flatMap(c -> c.getPorts().stream())
        .filter(p -> portName != null && portName.equals(p.getName()) && p.getContainerPort() != null)
        .map(ContainerPort::getContainerPort)
        .findFirst().orElse(port);
  }
}
