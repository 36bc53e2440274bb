package dev.stint.examples.jax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.spi.TrainingFramework;
import dev.stint.testkit.FrameworkOnMockServerTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The example job run by Stint's engine on the mock server, its pods moved by the fake kubelet. */
class JAXJobOnMockServerTest extends FrameworkOnMockServerTest<JAXJob> {

  @Override
  protected TrainingFramework<JAXJob> framework() {
    return new JaxFramework();
  }

  @Test
  void theExampleRunsToSuccess() throws IOException {
    client.load(Files.newInputStream(Path.of("example-jaxjob.yaml"))).inNamespace(NAMESPACE).create();
    await().untilAsserted(() -> assertThat(pods("jaxjob-simple")).extracting(p -> p.getMetadata().getName())
        .containsExactlyInAnyOrder("jaxjob-simple-worker-0", "jaxjob-simple-worker-1"));
    assertThat(env(pod("jaxjob-simple-worker-1"))).containsExactly("PYTHONUNBUFFERED=1", "COORDINATOR_PORT=6666",
        "COORDINATOR_ADDRESS=jaxjob-simple-worker-0", "NUM_PROCESSES=2", "PROCESS_ID=1");

    kubelet.runAll(pods("jaxjob-simple"));
    await().untilAsserted(() -> assertThat(status("jaxjob-simple").isTrue("Running")).isTrue());
    kubelet.succeed("jaxjob-simple-worker-0");
    kubelet.succeed("jaxjob-simple-worker-1");
    await().untilAsserted(() -> assertThat(conditions("jaxjob-simple"))
        .contains("Succeeded=True/JAXJobSucceeded: JAXJob default/jaxjob-simple successfully completed."));
  }
}
