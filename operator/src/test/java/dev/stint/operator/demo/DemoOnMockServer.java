package dev.stint.operator.demo;

import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.operator.testkind.SleepFramework;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** The demo of the sleep framework on the fabric8 CRUD mock server, its live view kept for the test to read. */
@EnableKubernetesMockClient(crud = true)
abstract class DemoOnMockServer {
  private static final FrameworkRegistry REGISTRY = FrameworkRegistry.of(new SleepFramework());

  KubernetesClient client;
  private final ByteArrayOutputStream output = new ByteArrayOutputStream();

  @AfterEach
  void showDemoOutput() {
    System.out.println(output()); // the demo's live view, in the test's output file
  }

  /** A demo of these CRDs and example jobs that gives up after {@code timeout}, its view written to {@link #output}. */
  Demo demo(ManifestSource crds, ManifestSource examples, Duration timeout) {
    return new Demo(REGISTRY, crds, examples, new Demo.Settings(timeout, Duration.ofMillis(200), 2),
        new PrintStream(output, true, StandardCharsets.UTF_8), Clock.systemUTC());
  }

  /** What the demo has printed so far. */
  String output() {
    return output.toString(StandardCharsets.UTF_8);
  }

  List<Pod> pods(String job) {
    return client.pods().inNamespace(Demo.NAMESPACE).withLabel("training.kubeflow.org/job-name", job).list()
        .getItems();
  }
}
