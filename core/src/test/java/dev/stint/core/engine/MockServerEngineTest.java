package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.StintOperator;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.testdoubles.FakeKubelet;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJob;
import dev.stint.core.testing.TestJobs;
import dev.stint.spi.api.JobStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The engine behind JOSDK on the fabric8 CRUD mock server (a fresh one per test), with a fake kubelet. */
@EnableKubernetesMockClient(crud = true)
abstract class MockServerEngineTest {
  /** Waits sized for a loaded 2-core machine: a wait only ends early when its condition holds. */
  @org.junit.jupiter.api.BeforeAll
  static void patientOnALoadedMachine() {
    org.awaitility.Awaitility.setDefaultTimeout(java.time.Duration.ofSeconds(60));
  }

  KubernetesClient client;
  io.fabric8.kubernetes.client.server.mock.KubernetesMockServer server;
  StintOperator operator;
  FakeKubelet kubelet;

  @BeforeEach
  void start() {
    client.apiextensions().v1().customResourceDefinitions().resource(testJobCrd()).createOr(existing -> existing.update()); // a retried POST on a loaded machine may find it created
    kubelet = new FakeKubelet(client, "default");
    operator = newOperator();
    operator.start();
  }

  @AfterEach
  void stop() {
    operator.stop();
    dev.stint.testdoubles.MockServerShutdown.quietly(server);
  }

  StintOperator newOperator() {
    return StintOperator.builder(client, FrameworkRegistry.of(new TestFramework()))
        .serverSideApply(false).closeClientOnStop(false).stopOnInformerError(false).build();
  }

  static CustomResourceDefinition testJobCrd() {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName("testjobs.test.stint.dev").endMetadata()
        .withNewSpec().withGroup("test.stint.dev").withScope("Namespaced")
        .withNewNames().withKind("TestJob").withPlural("testjobs").withSingular("testjob").endNames()
        .addNewVersion().withName("v1").withServed(true).withStorage(true)
        .withNewSubresources().withNewStatus().endStatus().endSubresources()
        .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
        .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build();
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
