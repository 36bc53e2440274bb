package dev.stint.operator;

import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.spi.TrainingFramework;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks made before the operator starts, so that a wrong setup ends with one clear message instead of informers
 * retrying forever: the API server answers, and the CRD of every framework is installed.
 */
public final class ClusterPreflight {

  private ClusterPreflight() { }

  /** @throws CommandFailure naming what is wrong and how to fix it */
  public static void check(KubernetesClient client, FrameworkRegistry registry) {
    String version = serverVersion(client);
    List<String> missing = new ArrayList<>();
    for (TrainingFramework<?> framework : registry.all()) {
      String crd = HasMetadata.getFullResourceName(framework.jobType());
      if (!crdInstalled(client, crd)) {
        missing.add("CRD " + crd + " is not installed: kubectl apply --server-side -f crds/");
      }
    }
    if (!missing.isEmpty()) {
      throw new CommandFailure(String.join("\n", missing));
    }
    org.slf4j.LoggerFactory.getLogger(ClusterPreflight.class)
        .info("API server {} (Kubernetes {}) has the CRDs of {}", client.getMasterUrl(), version,
            registry.all().stream().map(TrainingFramework::name).toList());
  }

  private static String serverVersion(KubernetesClient client) {
    try {
      return client.getKubernetesVersion().getGitVersion();
    } catch (KubernetesClientException e) {
      throw new CommandFailure("cannot reach the Kubernetes API server at " + client.getMasterUrl() + ": "
          + rootMessage(e));
    }
  }

  private static boolean crdInstalled(KubernetesClient client, String name) {
    try {
      return client.apiextensions().v1().customResourceDefinitions().withName(name).get() != null;
    } catch (KubernetesClientException e) {
      throw new CommandFailure("cannot read CRD " + name + " (HTTP " + e.getCode() + "): " + rootMessage(e)
          + (e.getCode() == 403 ? "\nthe operator's service account needs get on customresourcedefinitions" : ""));
    }
  }

  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return root == e ? message : e.getMessage() + " (" + message + ")";
  }
}
