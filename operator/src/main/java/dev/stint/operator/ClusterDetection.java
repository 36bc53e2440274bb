package dev.stint.operator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Whether this machine is set up to talk to a cluster, the way fabric8's auto-configuration looks for one: a
 * {@code KUBECONFIG} variable, a {@code ~/.kube/config} file, or the service variables Kubernetes sets in every pod.
 * Without a subcommand, Stint runs against that cluster when there is one and falls back to the demo otherwise.
 */
public final class ClusterDetection {

  private ClusterDetection() { }

  public static boolean clusterConfigured(Map<String, String> env, Path home) {
    return notBlank(env.get("KUBECONFIG"))
        || notBlank(env.get("KUBERNETES_SERVICE_HOST"))
        || (home != null && Files.isRegularFile(home.resolve(".kube").resolve("config")));
  }

  /** The check for this process: its environment and {@code user.home}. */
  public static boolean clusterConfigured() {
    String home = System.getProperty("user.home");
    return clusterConfigured(System.getenv(), home == null ? null : Path.of(home));
  }

  private static boolean notBlank(String value) {
    return value != null && !value.isBlank();
  }
}
