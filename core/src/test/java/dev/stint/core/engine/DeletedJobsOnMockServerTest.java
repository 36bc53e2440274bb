package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.testing.TestJobs;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The operator's memory does not grow with jobs that are gone. */
@EnableKubernetesMockClient(crud = true)
class DeletedJobsOnMockServerTest extends MockServerEngineTest {

  @Test
  void deletedJobsAreForgotten() {
    for (int i = 0; i < 10; i++) {
      create(TestJobs.job("j" + i).workers(1).build());
    }
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      for (int i = 0; i < 10; i++) {
        assertThat(pods("j" + i)).hasSize(1);
      }
    });
    kubelet.runAll(client.pods().inNamespace("default").list().getItems());
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      for (int i = 0; i < 10; i++) {
        assertThat(status("j" + i).isTrue("Running")).isTrue();
      }
    });
    // suspended, and deleted before its pods are gone: its suspension is being timed
    client.resources(TestJob.class).inNamespace("default").withName("j0")
        .edit(j -> TestJobs.job("j0").workers(1).suspend(true).edit(e -> e.setMetadata(j.getMetadata())).build());
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(status("j0").isTrue("Suspended")).isTrue());

    for (int i = 0; i < 10; i++) {
      client.resources(TestJob.class).inNamespace("default").withName("j" + i).delete();
    }
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(operator.rememberedJobs()).isZero());
  }
}
