package dev.stint.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class HealthServerTest {

  @Test
  void healthzFollowsTheOperatorsHealth() throws Exception {
    AtomicBoolean healthy = new AtomicBoolean(true);
    try (HealthServer server = HealthServer.start(0, healthy::get)) {
      HttpClient http = HttpClient.newHttpClient();
      HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/healthz"))
          .build();

      HttpResponse<String> ok = http.send(request, HttpResponse.BodyHandlers.ofString());
      healthy.set(false);
      HttpResponse<String> down = http.send(request, HttpResponse.BodyHandlers.ofString());

      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(ok.body()).isEqualTo("ok\n");
      assertThat(down.statusCode()).isEqualTo(503);
    }
  }

  @Test
  void metricsAreServedInThePrometheusTextFormat() throws Exception {
    try (var metrics = new dev.stint.core.metrics.StintMetrics();
         HealthServer server = HealthServer.start(0, () -> true, metrics::scrape)) {
      metrics.registry().counter("stint.jobs.partially.succeeded", "kind", "PyTorchJob").increment();
      HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v)
          .startsWith("text/plain; version=0.0.4"));
      assertThat(response.body()).contains("# TYPE stint_jobs_partially_succeeded_total counter")
          .contains("stint_jobs_partially_succeeded_total{kind=\"PyTorchJob\"} 1.0");
    }
  }
}
