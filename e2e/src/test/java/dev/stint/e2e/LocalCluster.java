package dev.stint.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The local control plane started by {@code e2e/cluster.sh up} (the Maven build does it before the ITs). Without it
 * a test skips with a one-line reason, unless {@code stint.e2e.required} is set, as it is in the build: then it fails.
 */
final class LocalCluster {
  static final Path ROOT = Path.of(System.getProperty("stint.root", "..")).toAbsolutePath().normalize();

  private LocalCluster() { }

  static Path kubeconfig() {
    String dir = System.getenv().getOrDefault("STINT_CLUSTER_DIR",
        System.getProperty("user.home") + "/.cache/stint/cluster");
    return Path.of(dir, "kubeconfig");
  }

  /** A client of the local cluster, or a skipped (or, when required, failed) test. */
  static KubernetesClient client() {
    Path config = kubeconfig();
    boolean present = Files.exists(config);
    if (Boolean.getBoolean("stint.e2e.required") && !present) {
      throw new IllegalStateException("no local cluster: " + config + " is missing; run e2e/cluster.sh up");
    }
    assumeTrue(present, "no local cluster (" + config + "); start one with e2e/testbin.sh && e2e/cluster.sh up");
    try {
      return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(config))).build();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Creates a namespace for one test class. */
  static String namespace(KubernetesClient client, String prefix) {
    String name = prefix + "-" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  /** Installs the checked-in CRDs with the real kubectl, server-side, as the README tells users to. */
  static void installCrds() {
    Kubectl.run("apply", "--server-side", "--force-conflicts", "-f", ROOT.resolve("crds").toString()).assertOk();
  }
}
