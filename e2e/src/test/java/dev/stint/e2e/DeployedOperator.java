package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stint as deploy/ runs it, without a container runtime: the Deployment's own command, arguments and environment
 * (read from {@code kubectl kustomize}), run from a copy of the image's layout ({@code /opt/stint/bin/stint},
 * {@code lib/stint-operator.jar}, {@code plugins/}, the Dockerfile's {@code STINT_JAR}) with the identity of the
 * ServiceAccount (a token) instead of the pod's mounted one.
 *
 * <p>Two arguments differ from the Deployment's: the health port is 0 (off) and the metrics port is 0 or a free one the
 * test chose, since fixed ports are shared by every process on a test machine, and a pod has its own network.
 */
final class DeployedOperator {
  static final String IMAGE_HOME = "/opt/stint";

  private DeployedOperator() { }

  /** {@code kubectl kustomize <dir>} (a directory of the checkout), as objects. */
  static List<HasMetadata> build(KubernetesClient client, String dir) {
    Kubectl.Result built = Kubectl.run("kustomize", LocalCluster.ROOT.resolve(dir).toString()).assertOk();
    return client.load(new ByteArrayInputStream(built.stdout().getBytes(StandardCharsets.UTF_8))).items();
  }

  /** {@code kubectl apply --server-side -k <dir>}, asserting that it printed neither an error nor a warning. */
  static void apply(String dir) {
    Kubectl.Result result = Kubectl.run("apply", "--server-side", "-k",
        LocalCluster.ROOT.resolve(dir).toString());
    assertThat(result.exitCode()).as("kubectl apply -k %s: %s", dir, result.stderr()).isZero();
    assertThat(result.stderr()).as("kubectl apply -k %s printed to stderr", dir).isEmpty();
    assertThat(result.stdout()).as("kubectl apply -k %s", dir).doesNotContainIgnoringCase("warning");
  }

  /**
   * Starts the Deployment's container the way its pod would, as {@code podName}, from an image layout holding the
   * given plugin jars.
   */
  static OperatorProcess start(List<HasMetadata> objects, Path kubeconfig, String podName, Path... plugins) {
    return start(objects, kubeconfig, podName, 0, plugins);
  }

  /** As {@link #start(List, Path, String, Path...)}, serving {@code /metrics} on {@code metricsPort} (0: off). */
  static OperatorProcess start(List<HasMetadata> objects, Path kubeconfig, String podName, int metricsPort,
                               Path... plugins) {
    return start(objects, kubeconfig, podName, metricsPort, 0, plugins);
  }

  /** As {@link #start(List, Path, String, int, Path...)}, with {@code /readyz} on {@code healthPort} (0: off). */
  static OperatorProcess start(List<HasMetadata> objects, Path kubeconfig, String podName, int metricsPort,
                               int healthPort, Path... plugins) {
    Deployment deployment = objects.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast)
        .findFirst().orElseThrow();
    Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    Path home = imageLayout(plugins);
    List<String> command = new ArrayList<>();
    container.getCommand().forEach(word -> command.add(inLayout(word, home)));
    container.getArgs().forEach(word -> command.add(withPorts(inLayout(word, home), metricsPort, healthPort)));
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", System.getenv("PATH"));
    env.put("HOME", home.toString());
    env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString()); // the image's JAVA_HOME
    env.put("STINT_JAR", inLayout(imageEnv("STINT_JAR"), home));
    env.put("KUBECONFIG", kubeconfig.toString());
    for (EnvVar var : container.getEnv()) {
      env.put(var.getName(), value(var, deployment, podName));
    }
    return OperatorProcess.startCommand(command, env, home);
  }

  private static String value(EnvVar var, Deployment deployment, String podName) {
    if (var.getValueFrom() == null) {
      return var.getValue();
    }
    String field = var.getValueFrom().getFieldRef().getFieldPath();
    return switch (field) {
      case "metadata.namespace" -> deployment.getMetadata().getNamespace();
      case "metadata.name" -> podName;
      default -> throw new IllegalStateException("the test does not know the downward API field " + field);
    };
  }

  private static String inLayout(String word, Path home) {
    return word.replace(IMAGE_HOME, home.toString());
  }

  private static String withPorts(String arg, int metricsPort, int healthPort) {
    if (arg.startsWith("--metrics-port=")) {
      return "--metrics-port=" + metricsPort;
    }
    return arg.startsWith("--health-port=") ? "--health-port=" + healthPort : arg;
  }

  /** The value of an {@code ENV NAME=value} line of the root Dockerfile. */
  static String imageEnv(String name) {
    try {
      return Files.readAllLines(LocalCluster.ROOT.resolve("Dockerfile")).stream()
          .filter(line -> line.startsWith("ENV " + name + "="))
          .map(line -> line.substring(("ENV " + name + "=").length()).trim())
          .findFirst().orElseThrow(() -> new IllegalStateException("the Dockerfile sets no " + name));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A copy of the image's /opt/stint: the launcher, the operator jar, the plugins directory. */
  private static Path imageLayout(Path... plugins) {
    Path jar = LocalCluster.ROOT.resolve("operator/target/stint-operator.jar");
    assertThat(jar).as("build the operator jar first: mvn -pl operator -am package").exists();
    try {
      Path home = Files.createTempDirectory(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")),
          "image-layout-").resolve("opt/stint");
      Files.createDirectories(home.resolve("bin"));
      Files.copy(LocalCluster.ROOT.resolve("bin/stint"), home.resolve("bin/stint"), StandardCopyOption.COPY_ATTRIBUTES);
      Path target = Path.of(inLayout(imageEnv("STINT_JAR"), home));
      Files.createDirectories(target.getParent());
      Files.createSymbolicLink(target, jar);
      Path pluginsDir = Files.createDirectories(home.resolve("plugins"));
      for (Path plugin : plugins) {
        Files.copy(plugin, pluginsDir.resolve(plugin.getFileName()));
      }
      return home;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A kubeconfig of the local cluster whose user is the ServiceAccount stint-system/stint, by a token. */
  static Path serviceAccountKubeconfig() {
    String token = Kubectl.run("create", "token", "stint", "-n", "stint-system", "--duration=2h").assertOk()
        .stdout().trim();
    String server = Kubectl.run("config", "view", "--raw", "-o", "jsonpath={.clusters[0].cluster.server}")
        .assertOk().stdout().trim();
    String ca = Kubectl.run("config", "view", "--raw",
        "-o", "jsonpath={.clusters[0].cluster.certificate-authority-data}").assertOk().stdout().trim();
    String config = """
        apiVersion: v1
        kind: Config
        clusters: [{name: local, cluster: {server: "%s", certificate-authority-data: "%s"}}]
        users: [{name: stint, user: {token: "%s"}}]
        contexts: [{name: stint, context: {cluster: local, user: stint}}]
        current-context: stint
        """.formatted(server, ca, token);
    try {
      Path file = Files.createTempFile(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")),
          "stint-sa-", ".kubeconfig");
      return Files.writeString(file, config);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
