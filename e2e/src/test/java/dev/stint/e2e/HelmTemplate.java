package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * charts/stint rendered by the real helm ({@code helm template}), read back as objects by a client that only parses
 * YAML: it never connects, so the chart tests need helm and no cluster. A test class registers one
 * ({@code @RegisterExtension static final HelmTemplate helm = new HelmTemplate();}): before its tests,
 * {@link Testbin#helm()} skips (or fails) the class without helm, and the client is closed after them.
 */
final class HelmTemplate implements BeforeAllCallback, AfterAllCallback {
  static final String CHART = "charts/stint";
  /** A client that only parses YAML: it never connects. */
  private KubernetesClient parser;

  @Override
  public void beforeAll(ExtensionContext context) {
    Testbin.helm(); // skips (or fails in the build) without helm, before anything else
    parser = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build())
        .build();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (parser != null) {
      parser.close();
    }
  }

  /** {@code helm template stint charts/stint -n stint-system -f <values>}, as objects. */
  List<HasMetadata> template(String values) throws IOException {
    return parse(Testbin.helm("template", "stint", CHART, "-n", "stint-system", "-f", valuesFile(values).toString())
        .assertOk().stdout());
  }

  List<HasMetadata> parse(String yaml) {
    return parser.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
  }

  static void assertRefused(String values, String message) throws IOException {
    Testbin.Result result = Testbin.helm("template", "stint", CHART, "-n", "stint-system", "-f",
        valuesFile(values).toString());
    assertThat(result.exitCode()).as("helm template with %s", values).isNotZero();
    assertThat(result.stderr()).contains(message);
  }

  static Container container(List<HasMetadata> objects) {
    return one(objects, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
  }

  static Path valuesFile(String values) throws IOException {
    Path file = Files.createTempFile(Files.createDirectories(LocalCluster.ROOT.resolve("e2e/target")), "values-",
        ".yaml");
    return Files.writeString(file, values);
  }

  static <T extends HasMetadata> T one(List<HasMetadata> objects, Class<T> type) {
    List<T> found = objects.stream().filter(type::isInstance).map(type::cast).toList();
    assertThat(found).as("objects of kind %s", type.getSimpleName()).hasSize(1);
    return found.get(0);
  }

  /** kind/name (namespace) of each object, counted. */
  static Map<String, Long> kinds(List<HasMetadata> objects) {
    Map<String, Long> kinds = new TreeMap<>();
    objects.forEach(o -> kinds.merge(o.getKind() + "/" + o.getMetadata().getName()
        + (o.getMetadata().getNamespace() == null ? "" : " in " + o.getMetadata().getNamespace()), 1L, Long::sum));
    return kinds;
  }
}
