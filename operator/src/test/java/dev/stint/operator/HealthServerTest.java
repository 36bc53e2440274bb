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
}
