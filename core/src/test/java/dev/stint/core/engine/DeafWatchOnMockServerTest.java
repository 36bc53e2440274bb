package dev.stint.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.stint.core.StintOperator;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.core.testing.PrometheusText;
import dev.stint.core.testing.TestCrds;
import dev.stint.core.testing.TestFramework;
import dev.stint.core.testing.TestJobs;
import dev.stint.testdoubles.FakeKubelet;
import dev.stint.testdoubles.MockServerShutdown;
import dev.stint.testdoubles.TestJob;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A watch that goes silent (open, and never another word: what the JDK client's WebSocket can leave behind after an
 * API server restart) is found by the watch check and listed and watched again in the process: the pods the deaf
 * informer missed reach the cache, the events of the new watch drive the job on, and the operator that does it is the
 * one that started, with no other informer touched.
 */
class DeafWatchOnMockServerTest {
  private final AtomicInteger podWatches = new AtomicInteger();
  private KubernetesMockServer server;
  private KubernetesClient client;
  private StintOperator operator;

  @BeforeAll
  static void patientOnALoadedMachine() {
    Awaitility.setDefaultTimeout(Duration.ofSeconds(60));
  }

  @BeforeEach
  void start() {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    Dispatcher crud = new KubernetesMixedDispatcher(responses);
    Dispatcher firstPodWatchDeaf = new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        if (request.getPath().startsWith("/api/v1/pods?") && request.getPath().contains("watch=true")
            && podWatches.incrementAndGet() == 1) {
          return new MockResponse().withWebSocketUpgrade(new WebSocketListener() { }); // open, silent for good
        }
        return crud.dispatch(request);
      }
    };
    server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, firstPodWatchDeaf, false);
    server.init();
    client = server.createClient();
    client.apiextensions().v1().customResourceDefinitions().resource(TestCrds.of(TestJob.class)).create();
    operator = StintOperator.builder(client, FrameworkRegistry.of(new TestFramework())).serverSideApply(false)
        .closeClientOnStop(false).stopOnInformerError(false).kindChecks(false)
        .watchCheckPeriod(Duration.ofSeconds(2)).build();
    operator.start();
  }

  @AfterEach
  void stop() {
    operator.stop();
    client.close();
    MockServerShutdown.quietly(server);
  }

  @Test
  void aSilentPodWatchIsListedAndWatchedAgainInTheProcess() {
    StintOperator started = operator;
    FakeKubelet kubelet = new FakeKubelet(client, "default");
    client.resource(TestJobs.job("deaf").workers(2).build()).create();
    // the pods are created by the operator, but its pod informer hears nothing of them
    await().untilAsserted(() -> assertThat(pods("deaf")).hasSize(2));

    // relisted: the pods are in the cache (a status counts them); watched again: their phases reach the job
    await().untilAsserted(() -> assertThat(podWatches.get()).isGreaterThanOrEqualTo(2));
    kubelet.runAll(pods("deaf"));
    await().untilAsserted(() -> assertThat(status("deaf").isTrue("Running")).isTrue());

    PrometheusText scrape = PrometheusText.parse(operator.metrics().scrape());
    assertThat(scrape.value("stint_watch_restarts_total", "resource", "pods")).isEqualTo(1.0);
    assertThat(scrape.value("stint_kind_served", "kind", "TestJob")).isEqualTo(1.0);
    assertThat(operator).isSameAs(started);
    assertThat(operator.kinds().unhealthyInformers()).isEmpty();
  }

  private List<Pod> pods(String job) {
    return client.pods().inNamespace("default").withLabel("training.kubeflow.org/job-name", job).list().getItems();
  }

  private dev.stint.spi.api.JobStatus status(String name) {
    TestJob job = client.resources(TestJob.class).inNamespace("default").withName(name).get();
    return job == null || job.getStatus() == null ? new dev.stint.spi.api.JobStatus() : job.getStatus();
  }
}
