package dev.stint.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/** A kind implementing the SPI's TrainingJob must read and write as itself (no bridged-accessor conflicts). */
class TestJobSerializationTest {
  @Test
  void roundTrips() {
    KubernetesSerialization serialization = new KubernetesSerialization();
    serialization.registerKubernetesResource(TestJob.class);
    TestJob job = TestJobs.job("j").workers(2).build();
    job.setStatus(new dev.stint.spi.api.JobStatus());
    job.getStatus().setStartTime("2026-01-01T00:00:00Z");
    String json = serialization.asJson(job);
    Object back = serialization.unmarshal(json);
    assertThat(back).isInstanceOf(TestJob.class);
    assertThat(((TestJob) back).getSpec().getTestReplicaSpecs().get("Worker").getReplicas()).isEqualTo(2);
    assertThat(((TestJob) back).getStatus().getStartTime()).isEqualTo("2026-01-01T00:00:00Z");
  }
}
