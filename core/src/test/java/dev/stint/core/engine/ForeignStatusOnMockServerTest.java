package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.spi.api.JobStatus;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A status that another client writes is corrected at once, not at the next pod change or resync. */
@EnableKubernetesMockClient(crud = true)
class ForeignStatusOnMockServerTest extends MockServerEngineTest {

  @Test
  void aClobberedStatusIsCorrected() {
    createRunning("c", 2);

    TestJob clobbered = job("c");
    JobStatus wrong = new JobStatus();
    wrong.setStartTime(clobbered.getStatus().getStartTime());
    clobbered.setStatus(wrong);
    client.resource(clobbered).updateStatus();

    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      JobStatus s = status("c");
      assertThat(s.isTrue("Created")).isTrue();
      assertThat(s.isTrue("Running")).isTrue();
      assertThat(s.getReplicaStatuses().get("Worker").active()).isEqualTo(2);
    });
  }
}
