package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.StintOperator;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.testing.TestCrds;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import dev.stint.spi.api.JobStatus;
import dev.stint.testdoubles.FakeKubelet;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;

/** The engine behind JOSDK on the fabric8 CRUD mock server (a fresh one per test), with a fake kubelet. */
abstract class MockServerEngineTest extends OperatorOnMockServer {
  FakeKubelet kubelet;

  @BeforeEach
  void start() {
    // createOr: a retried POST on a loaded machine may find it created
    client.apiextensions().v1().customResourceDefinitions().resource(TestCrds.of(TestJob.class))
        .createOr(existing -> existing.update());
    kubelet = new FakeKubelet(client, "default");
    operator = newOperator();
    operator.start();
  }

  StintOperator newOperator() {
    return onMockServer(client, FrameworkRegistry.of(new TestFramework())).build();
  }

  /** Stops the operator and starts a new one on the same server, as a restart of its pod would. */
  void restartOperator() {
    operator.stop();
    operator = newOperator();
    operator.start();
  }

  /** Creates a job of {@code workers} workers and runs its pods until the job is Running (the gang is up). */
  void createRunning(String name, int workers) {
    create(TestJobs.job(name).workers(workers).build());
    await().untilAsserted(() -> assertThat(pods(name)).hasSize(workers));
    kubelet.runAll(pods(name));
    await().untilAsserted(() -> assertThat(status(name).isTrue("Running")).isTrue());
  }

  /** What {@code GET /metrics} would answer now. */
  dev.stint.core.testing.PrometheusText scrape() {
    return dev.stint.core.testing.PrometheusText.parse(operator.metrics().scrape());
  }

  TestJob job(String name) {
    return client.resources(TestJob.class).inNamespace("default").withName(name).get();
  }

  JobStatus status(String name) {
    TestJob j = job(name);
    return j == null || j.getStatus() == null ? new JobStatus() : j.getStatus();
  }

  List<Pod> pods(String job) {
    return client.pods().inNamespace("default").withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  /** Events of that reason on the server, once every event recorded so far has been sent (they go in the background). */
  long events(String reason) {
    assertThat(operator.awaitEventsSent(Duration.ofSeconds(30))).as("events sent").isTrue();
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .map(Event::getReason).filter(reason::equals).count();
  }

  void create(TestJob job) {
    job.getMetadata().setUid(null);
    client.resource(job).create();
  }

}
