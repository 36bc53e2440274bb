package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * An upstream operator that Stint stands in for (the Kubeflow training operator, the MPI Operator), run on the local
 * cluster as a process through its bench/ script ({@code build}, {@code prepare}, {@code exec}), for the swap tests.
 */
final class UpstreamOperator {

  private UpstreamOperator() { }

  /**
   * Builds it (a no-op once built), prepares the cluster for it, puts its CRD over Stint's (server-side, as
   * docs/migrating.md says) and starts it; its output goes to a log in e2e/target.
   *
   * @param script the bench/ script, such as {@code bench/kubeflow.sh}
   */
  static Process start(String script, Path crd) throws IOException {
    Map<String, String> env = Map.of("KUBECONFIG", LocalCluster.kubeconfig().toString());
    run(env, script, "build");
    run(env, script, "prepare");
    Kubectl.run("apply", "--server-side", "--force-conflicts", "-f", crd.toString()).assertOk();
    String name = Path.of(script).getFileName().toString().replace(".sh", "");
    Path log = Files.createTempFile(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")), name + "-",
        ".log");
    ProcessBuilder pb = new ProcessBuilder(LocalCluster.ROOT.resolve(script).toString(), "exec")
        .redirectErrorStream(true).redirectOutput(log.toFile()).directory(LocalCluster.ROOT.toFile());
    pb.environment().putAll(env);
    return pb.start();
  }

  /** A file of a Go module as the module cache holds it (downloaded if need be), such as an operator's CRD. */
  static Path moduleFile(String module, String version, String file) {
    String dir = Testbin.run(List.of("bash", "-c", "GOFLAGS=-mod=mod go mod download -json " + module + "@" + version
        + " | sed -n 's/^[[:space:]]*\"Dir\": \"\\(.*\\)\",$/\\1/p'"), null, null).assertOk().stdout().trim();
    return Path.of(dir, file);
  }

  /** Stops it as its Deployment scaled to 0 would (SIGTERM), killing it if it lingers. */
  static void stop(Process process) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  /** kind/name -> uid of every object of these kinds in the namespace: what a swap must not recreate. */
  static Map<String, String> uids(KubernetesClient client, String ns, List<Class<? extends HasMetadata>> kinds) {
    Map<String, String> uids = new TreeMap<>();
    List<HasMetadata> all = new ArrayList<>();
    for (Class<? extends HasMetadata> kind : kinds) {
      all.addAll(client.resources(kind).inNamespace(ns).list().getItems());
    }
    all.forEach(o -> uids.put(o.getKind() + "/" + o.getMetadata().getName(), o.getMetadata().getUid()));
    return uids;
  }

  private static void run(Map<String, String> env, String... command) {
    try {
      ProcessBuilder pb = new ProcessBuilder(command).directory(LocalCluster.ROOT.toFile()).redirectErrorStream(true);
      pb.environment().putAll(env);
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes());
      assertThat(p.waitFor(40, TimeUnit.MINUTES)).isTrue(); // a first build from the module proxy is long
      assertThat(p.exitValue()).as("%s: %s", String.join(" ", command), out).isZero();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
