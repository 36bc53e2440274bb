package dev.stint.operator;

import dev.stint.core.decision.KueueSettings;
import dev.stint.core.kueue.KueueApi;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.serving.AccessReview;
import dev.stint.spi.TrainingFramework;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks made before the operator starts, so that a wrong setup ends with one clear message instead of informers
 * retrying forever: the API server answers, and it serves the kind of at least one framework (its CRD is installed).
 * A kind whose CRD alone is missing does not stop the start: it is down, named in the log, and served once its CRD
 * is applied ({@link dev.stint.core.serving.ServedKind}).
 */
public final class ClusterPreflight {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterPreflight.class);
  private static final String GENERIC_MESSAGE = "An error has occurred.";

  private ClusterPreflight() { }

  /** @throws CommandFailure naming what is wrong and how to fix it */
  public static void check(KubernetesClient client, FrameworkRegistry registry) {
    check(client, registry, KueueSettings.OFF);
  }

  /**
   * As {@link #check(KubernetesClient, FrameworkRegistry)}, and with {@code --kueue=native} that Kueue's v1beta2
   * Workloads and ResourceFlavors are served.
   *
   * @throws CommandFailure naming what is wrong and how to fix it
   */
  public static void check(KubernetesClient client, FrameworkRegistry registry, KueueSettings kueue) {
    String version = serverVersion(client);
    List<String> missing = new ArrayList<>();
    for (TrainingFramework<?> framework : registry.all()) {
      if (!served(client, framework.jobType())) {
        missing.add("CRD " + HasMetadata.getFullResourceName(framework.jobType())
            + " is not installed: kubectl apply --server-side -f crds/");
      }
    }
    if (missing.size() < registry.all().size()) {
      missing.clear(); // a kind or more is served: the others are down alone, and come up when their CRD is applied
    }
    if (kueue.nativeMode()) {
      for (String plural : List.of("workloads", "resourceflavors")) {
        if (!served(client, KueueApi.API_VERSION, plural)) {
          missing.add("--kueue=native needs Kueue v0.16 or later installed: the API server serves no "
              + KueueApi.API_VERSION + " " + plural);
        }
      }
    }
    if (!missing.isEmpty()) {
      throw new CommandFailure(String.join("\n", missing));
    }
    LOG.info("API server {} (Kubernetes {}) answers; frameworks {}", client.getMasterUrl(), version,
            registry.all().stream().map(TrainingFramework::name).toList());
  }

  private static String serverVersion(KubernetesClient client) {
    try {
      return client.getKubernetesVersion().getGitVersion();
    } catch (KubernetesClientException e) {
      throw new CommandFailure("cannot reach the Kubernetes API server at " + client.getMasterUrl() + ": "
          + describeCauses(e));
    }
  }

  /**
   * Whether the API server serves the kind, asked through discovery ({@code GET /apis/<group>/<version>}), which
   * every authenticated client may read: reading the CRD itself would need a cluster-wide grant on
   * customresourcedefinitions, which a namespaced install should not have.
   */
  private static boolean served(KubernetesClient client, Class<? extends HasMetadata> type) {
    return served(client, HasMetadata.getApiVersion(type), HasMetadata.getPlural(type));
  }

  private static boolean served(KubernetesClient client, String groupVersion, String plural) {
    try {
      return new AccessReview(client).served(groupVersion, plural);
    } catch (KubernetesClientException e) {
      throw new CommandFailure("cannot read the API server's resources of " + groupVersion + " (HTTP " + e.getCode()
          + "): " + describeCauses(e));
    }
  }

  /**
   * The messages of an error's causes, outermost first, and the root cause's kind when it has no message: fabric8
   * wraps the telling part ({@code UnresolvedAddressException}) in generic messages.
   */
  static String describeCauses(Throwable e) {
    Set<String> parts = new LinkedHashSet<>();
    Throwable root = e;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      root = t;
      String message = t.getMessage();
      if (message != null && !message.isBlank() && !GENERIC_MESSAGE.equals(message)) {
        parts.add(message);
      }
    }
    if (root.getMessage() == null || root.getMessage().isBlank()) {
      parts.add(root.getClass().getSimpleName() + hint(root));
    }
    return String.join(": ", parts);
  }

  private static String hint(Throwable root) {
    return switch (root.getClass().getSimpleName()) {
      case "UnresolvedAddressException" -> " (the host name does not resolve)";
      case "ClosedChannelException", "ConnectException" -> " (nothing answers at that address)";
      default -> "";
    };
  }
}
