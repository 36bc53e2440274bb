package dev.stint.spi;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;

/** Appends a framework's environment variables to a pod's containers, after the template's own. */
public final class ContainerEnv {

  private ContainerEnv() { }

  /**
   * Appends the variables to one container. Each container gets its own copies, so that a later change to one pod
   * spec cannot leak into another. Calling it twice appends twice: wire a freshly built pod once.
   */
  public static void append(Container container, List<EnvVar> env) {
    List<EnvVar> all = container.getEnv() == null ? new ArrayList<>() : new ArrayList<>(container.getEnv());
    env.forEach(e -> all.add(new EnvVar(e.getName(), e.getValue(), e.getValueFrom())));
    container.setEnv(all);
  }

  /** Appends the variables to every container of the pod (not to its init containers). */
  public static void appendToEach(Pod pod, List<EnvVar> env) {
    pod.getSpec().getContainers().forEach(c -> append(c, env));
  }
}
