package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.testdoubles.FakeKubelet;
import dev.stint.core.testing.FaultyFramework;
import dev.stint.core.testing.FaultyJob;
import dev.stint.core.testing.TestCrds;
import dev.stint.core.testing.TestFramework;
import dev.stint.testdoubles.TestJob;
import dev.stint.core.testing.TestJobs;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A framework that throws while one of its jobs is reconciled fails that job, with a message naming the framework,
 * the method and the exception, and nothing else: the operator keeps running another framework's job to success.
 */
@EnableKubernetesMockClient(crud = true)
class FrameworkFailureOnMockServerTest extends OperatorOnMockServer {
  FakeKubelet kubelet;

  @BeforeEach
  void createCrds() {
    client.apiextensions().v1().customResourceDefinitions().resource(TestCrds.of(TestJob.class)).create();
    client.apiextensions().v1().customResourceDefinitions().resource(TestCrds.of(FaultyJob.class)).create();
    kubelet = new FakeKubelet(client, "default");
  }

  void start(String fault) {
    startOperator(FrameworkRegistry.of(new TestFramework(), new FaultyFramework(fault)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "wire, false, wire()",
      "validate, false, validate()",
      "supportingResources, false, supportingResources()",
      "successPolicy, false, successPolicy()",
      "holds, false, successPolicy().holds()",
      "holdsWhileRunning, true, successPolicy().holds()"})
  void onlyTheJobOfTheFailingFrameworkFails(String fault, boolean podsFirst, String method) {
    start(fault);
    client.resource(FaultyJob.from(TestJobs.job("broken").workers(1).build())).create();
    client.resource(TestJobs.job("fine").workers(1).build()).create();

    if (podsFirst) {
      await().untilAsserted(() -> assertThat(pods("broken")).hasSize(1));
      kubelet.run("broken-worker-0");
    }
    await().untilAsserted(() -> assertThat(faulty("broken").isTrue("Failed")).isTrue());
    JobCondition failed = faulty("broken").condition("Failed").orElseThrow();
    assertThat(failed.getReason()).isEqualTo("FaultyJobFailed");
    assertThat(failed.getMessage()).isEqualTo("framework faulty failed in " + method
        + ": java.lang.IllegalStateException: injected fault in " + fault);
    assertThat(faulty("broken").getCompletionTime()).isNotNull();
    assertThat(faulty("broken").isTrue("Created")).isTrue();
    // like any failed job's, its running replicas are stopped
    await().untilAsserted(() -> assertThat(pods("broken")).isEmpty());

    await().untilAsserted(() -> assertThat(pods("fine")).hasSize(1));
    kubelet.run("fine-worker-0");
    kubelet.succeed("fine-worker-0");
    await().untilAsserted(() -> assertThat(status("fine").isTrue("Succeeded")).isTrue());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"wire"})
  void aFailedJobStaysFailedAndTheFailureIsRecordedOnce(String fault) {
    start(fault);
    client.resource(FaultyJob.from(TestJobs.job("broken").workers(2).build())).create();
    await().untilAsserted(() -> assertThat(faulty("broken").isTrue("Failed")).isTrue());

    // a spec change: reconciled again, the framework throws again, and the job stays as it is
    client.resources(FaultyJob.class).inNamespace("default").withName("broken")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"testReplicaSpecs\":{\"Worker\":{\"replicas\":3}}}}");

    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      assertThat(faulty("broken").isTrue("Failed")).isTrue();
      assertThat(pods("broken")).isEmpty();
      assertThat(events("FaultyJobFailed")).hasSize(1).first().extracting(Event::getType).isEqualTo("Warning");
    });
  }

  FaultyJob job(String name) {
    return client.resources(FaultyJob.class).inNamespace("default").withName(name).get();
  }

  JobStatus faulty(String name) {
    FaultyJob j = job(name);
    return j == null || j.getStatus() == null ? new JobStatus() : j.getStatus();
  }

  JobStatus status(String name) {
    TestJob j = client.resources(TestJob.class).inNamespace("default").withName(name).get();
    return j == null || j.getStatus() == null ? new JobStatus() : j.getStatus();
  }

  List<Pod> pods(String job) {
    return client.pods().inNamespace("default").withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  List<Event> events(String reason) {
    assertThat(operator.awaitEventsSent(Duration.ofSeconds(30))).as("events sent").isTrue();
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> reason.equals(e.getReason())).toList();
  }
}
