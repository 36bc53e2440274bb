package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class HealthServerTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void healthzFollowsTheOperatorsLife() throws Exception {
    AtomicBoolean live = new AtomicBoolean(true);
    try (HealthServer server = HealthServer.start(0, live::get, () -> new Readiness.State(true, "ready: leader"))) {
      HttpResponse<String> ok = get(server.port(), "/healthz");
      live.set(false);
      HttpResponse<String> down = get(server.port(), "/healthz");

      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(ok.body()).isEqualTo("ok\n");
      assertThat(down.statusCode()).isEqualTo(503);
    }
  }

  @Test
  void readyzAnswersTheStateInWords() throws Exception {
    AtomicReference<Readiness.State> state = new AtomicReference<>(
        new Readiness.State(false, "not ready: informers not started or not synced"));
    try (HealthServer server = HealthServer.start(0, () -> true, state::get)) {
      HttpResponse<String> starting = get(server.port(), "/readyz");
      state.set(new Readiness.State(true, "ready: standby (leader stint-abc)"));
      HttpResponse<String> standby = get(server.port(), "/readyz");

      assertThat(starting.statusCode()).isEqualTo(503);
      assertThat(starting.body()).isEqualTo("not ready: informers not started or not synced\n");
      assertThat(standby.statusCode()).isEqualTo(200);
      assertThat(standby.body()).isEqualTo("ready: standby (leader stint-abc)\n");
    }
  }

  @Test
  void theHealthPortServesNoMetrics() throws Exception {
    try (HealthServer server = HealthServer.start(0, () -> true, () -> new Readiness.State(true, "ready"))) {
      assertThat(get(server.port(), "/metrics").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void metricsAreServedAloneInThePrometheusTextFormat() throws Exception {
    try (var metrics = new dev.stint.core.metrics.StintMetrics();
         MetricsServer server = MetricsServer.start(0, metrics::scrape)) {
      metrics.registry().counter("stint.jobs.partially.succeeded", "kind", "PyTorchJob").increment();
      HttpResponse<String> response = get(server.port(), "/metrics");
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v)
          .startsWith("text/plain; version=0.0.4"));
      assertThat(response.body()).contains("# TYPE stint_jobs_partially_succeeded_total counter")
          .contains("stint_jobs_partially_succeeded_total{kind=\"PyTorchJob\"} 1.0");
      assertThat(get(server.port(), "/healthz").statusCode()).isEqualTo(404);
    }
  }

  private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
