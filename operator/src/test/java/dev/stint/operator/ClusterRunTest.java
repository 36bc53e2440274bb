package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.operator.demo.EmbeddedApiServer;
import dev.stint.operator.testkind.SleepFramework;
import dev.stint.operator.testkind.SleepJob;
import dev.stint.operator.testkind.SleepJobs;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} against a cluster found through a kubeconfig, here the embedded API server. Server-side apply stays on
 * as in production, so on this server the job's status is never written (G1); pods, created with POST, are.
 */
class ClusterRunTest {
  private static final FrameworkRegistry REGISTRY = FrameworkRegistry.of(new SleepFramework());
  /** The mock server has no SelfSubjectRulesReview, which JOSDK's leader election asks first: off here. */
  private static final OperatorOptions OPTIONS = options("--health-port=0", "--metrics-port=0");

  @TempDir Path tmp;
  private EmbeddedApiServer server;
  private KubernetesClient client;

  @BeforeEach
  void pointTheKubeconfigAtTheEmbeddedServer() throws IOException {
    server = EmbeddedApiServer.start();
    client = server.client();
    Path kubeconfig = tmp.resolve("config");
    Files.writeString(kubeconfig, """
        apiVersion: v1
        kind: Config
        clusters: [{name: embedded, cluster: {server: "%s"}}]
        users: [{name: nobody, user: {}}]
        contexts: [{name: embedded, context: {cluster: embedded, user: nobody, namespace: default}}]
        current-context: embedded
        """.formatted(server.url()));
    // fabric8 reads the kubeconfig path from this property before the KUBECONFIG variable
    System.setProperty("kubeconfig", kubeconfig.toString());
  }

  @AfterEach
  void restore() {
    System.clearProperty("kubeconfig");
    server.close();
  }

  @Test
  void withoutTheCrdRunRefusesToStart() {
    assertThatThrownBy(() -> new ClusterRun(REGISTRY, OPTIONS, Map.of()).start()).isInstanceOf(CommandFailure.class)
        .hasMessageContaining("CRD sleepjobs.test.stint.dev is not installed");
  }

  @Test
  void withTheCrdRunReconcilesJobsAndServesItsEndpoints() throws Exception {
    client.apiextensions().v1().customResourceDefinitions().resource(SleepFramework.crd()).create();
    OperatorOptions options = options("--health-port=" + freePort(), "--metrics-port=" + freePort());

    try (ClusterRun.Running running = new ClusterRun(REGISTRY, options, Map.of()).start()) {
      SleepJob job = SleepJobs.job("remote", 2, "Never", Map.of());
      client.resources(SleepJob.class).inNamespace("default").resource(job).create();

      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(client.pods().inNamespace("default")
          .withLabel("training.kubeflow.org/job-name", "remote").list().getItems()).hasSize(2));
      assertThat(get(running.healthPort(), "/healthz").statusCode()).isEqualTo(200);
      HttpResponse<String> ready = get(running.healthPort(), "/readyz");
      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(ready.body()).isEqualTo("ready: leader election off\n");
      HttpResponse<String> metrics = get(running.metricsPort(), "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      // the run's client counts its requests: the two pods it created
      assertThat(dev.stint.core.testing.PrometheusText.parse(metrics.body()).value("stint_kube_api_requests_total",
          "verb", "create", "resource", "pods", "code", "201")).isEqualTo(2);
      assertThat(dev.stint.core.testing.PrometheusText.parse(metrics.body()).value("stint_leader")).isEqualTo(1);
      assertThat(get(running.metricsPort(), "/readyz").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void withNamespacesAJobOutsideThemIsLeftAlone() throws Exception {
    client.apiextensions().v1().customResourceDefinitions().resource(SleepFramework.crd()).create();

    try (ClusterRun.Running running = new ClusterRun(REGISTRY, options("--health-port=0", "--metrics-port=0",
        "--namespaces=watched"), Map.of()).start()) {
      // the outsider first: when the watched job's pods exist, the outsider had every chance to get its own
      client.resources(SleepJob.class).inNamespace("elsewhere").resource(SleepJobs.job("outsider", 1, "Never",
          Map.of())).create();
      client.resources(SleepJob.class).inNamespace("watched").resource(SleepJobs.job("insider", 1, "Never",
          Map.of())).create();

      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(client.pods().inNamespace("watched")
          .withLabel("training.kubeflow.org/job-name", "insider").list().getItems()).hasSize(1));
      assertThat(client.pods().inAnyNamespace().withLabel("training.kubeflow.org/job-name", "outsider").list()
          .getItems()).isEmpty();
    }
  }

  @Test
  void theStartLineSaysWhenKueueIsNative() {
    assertThat(ClusterRun.describeKueue(options().kueue())).isEmpty();
    assertThat(ClusterRun.describeKueue(options("--kueue=native").kueue())).isEqualTo("; Kueue: native (Stint makes "
        + "the Workloads of jobs labelled kueue.x-k8s.io/queue-name, or put in a namespace's default LocalQueue)");
    assertThat(ClusterRun.describeKueue(options("--kueue=native", "--kueue-manage-jobs-without-queue-name").kueue()))
        .isEqualTo("; Kueue: native (Stint makes the Workloads of every job)");
  }

  private static OperatorOptions options(String... flags) {
    List<String> args = new java.util.ArrayList<>(List.of("run", "--reconcile-threads=2", "--plugins-dir=",
        "--leader-election=false"));
    args.addAll(List.of(flags));
    return OperatorOptions.parse(args, true);
  }

  private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
